"""A script's condition counted and dealt by the exact tables, and a filter for what they cannot hold.

The condition is split by :meth:`~dealer.spec.spec.DealSpec.from_conditions` into
what the exact per-seat tables can hold and a *residual* they cannot (an
``||`` across seats, ``quality``, ``tricks``...). Conditions across seats on
shapes and HCP (``hcp(north) + hcp(south) >= 26``) are counted in the tables
through the seats' labels (:mod:`dealer.spec.cross`); ``||``, ``!`` and ``^^`` of
other per-seat parts are a union of disjoint specs (:mod:`dealer.tables.union`).
What is left is the residual. Deals are drawn exactly and
uniformly from the tables' deals (a superset of the condition's) and kept
when the residual holds, so each kept deal is uniform over the deals meeting
the whole condition. The count is exact when there is no residual; otherwise
it is the superset's exact count times the kept fraction: an *estimate*,
reported with its 95% interval (Wilson) and marked as such.

>>> from dealer.lang.statements import parse_statements
>>> run = ScriptDealer(parse_statements("hcp(north) >= 20 && (hascard(west, C2) || hcp(east) > 10) "
...                                     "&& hcp(north) + hcp(south) >= 26 && quality(north, spades) >= 350"))
>>> run.exact, [str(c) for c in run.residual], str(run.across)
(False, ['quality(north, spades) >= 350'], '(hcp(north) + hcp(south)) >= 26')
>>> sorted(run.count(draws=2000, seed=1).text().split()[:2])
['count:', 'estimate']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TextIO

import numpy as np

from dealer.budget import Budget, current
from dealer.cards.numbering import D
from dealer.cards.seat import Seat
from dealer.checks import check_int
from dealer.errors import DealerError, ImpossibleSpecError, SpecLimitError
from dealer.lang.evaluate import STANDARD, Counts
from dealer.proportion import wilson
from dealer.lang.expr import And, Cond, HasCard, Hcp, conjuncts, walk
from dealer.lang.fold import fold_conditions
from dealer.lang.statements import ScriptSyntax
from dealer.rng import RandomSource, make_rng
from dealer.run.plan import Plan, Step
from dealer.run.selection import Filter, check_evaluable, joined, kept_until
from dealer.spec.cross import CrossCondition, grid_reads, seat_parts
from dealer.spec.spec import DealSpec
from dealer.tables.engine import DenseTables
from dealer.tables.design import Sizing, TablesDesign
from dealer.tables.exact import ExactDealer
from dealer.tables.reach import StreamedTables
from dealer.tables.union import UnionDealer, atoms_of

__all__ = ["CountResult", "ScriptDealer", "wilson", "write_count", "count_after_run"]

_BATCH = 65536


@dataclass(frozen=True)
class CountResult:
    """How many deals meet a condition: exact (``deals`` set) or an estimate with its 95% interval."""

    exact: bool
    deals: int | None
    estimate: float
    low: float
    high: float
    superset: int
    drawn: int = 0
    accepted: int = 0
    #: How many of the drawn deals were solved double dummy (the others failed a cheaper part first).
    solved: int = 0

    @property
    def probability(self) -> Fraction | None:
        """The exact probability of a random deal meeting the condition (None for an estimate)."""
        return None if self.deals is None else Fraction(self.deals, D)

    def text(self) -> str:
        """One line saying the count and whether it is exact."""
        if self.exact:
            p = self.probability
            assert p is not None
            return f"count: exact {self.deals:,} deals, probability {p.numerator}/{p.denominator} = {float(p):.6g}"
        solved = f", {self.solved:,} of them solved double dummy" if self.solved else ""
        return (f"count: estimate {self.estimate:.4g} deals, 95% interval {self.low:.4g} to {self.high:.4g} "
                f"(probability {self.estimate / D:.4g}; {self.accepted:,} of {self.drawn:,} deals drawn "
                f"from an exact superset of {self.superset:,} met the whole condition{solved})")


@dataclass(frozen=True)
class _Sized:
    """Tables the planner chose, sized but not yet built."""

    design: TablesDesign
    sizing: Sizing
    limit: int

    def build(self) -> ExactDealer:
        """The tables, built as sized (the compact ones' reachable states are not found again)."""
        return ExactDealer(self.design.spec, limit=max(self.limit, 1), across=self.design.across,
                           design=self.design, sizing=self.sizing)


class ScriptDealer:
    """A script's condition, counted and dealt: exactly, or through the residual filter.

    Conditions across seats that the seats' labels can count go into the tables (:mod:`dealer.spec.cross`;
    ``across=False`` filters them instead, the old path). Tables beyond ``limit`` joint states
    (``patience``, when given, is a smaller limit to try first) are not refused: the conditions of
    the seats that cut fewest deals move to the filter (:attr:`loosened` names them) and the count
    becomes an estimate. Every other limit is the budget's in force (:mod:`dealer.budget`); the
    choices made, and every way tried, are :attr:`plan`.
    """

    def __init__(self, syntax: ScriptSyntax, *, limit: int | None = None, text: str = "",
                 patience: int | None = None, across: bool = True, count_only: bool = False,
                 cross_sides: bool | None = None) -> None:
        budget = current()
        limit = budget.tables if limit is None else limit
        self.syntax = syntax
        #: Whether the run only counts (``kibitz count``): tables too large to keep that hold the whole condition
        #: are then counted one position at a time (streamed: :class:`~dealer.tables.reach.StreamedTables`),
        #: which cannot deal.
        self.count_only = count_only
        #: The states one position of streamed tables may hold: the budget's ``stream_states`` when a patience is
        #: tried first (the default of ``kibitz count``), else the limit the caller chose.
        self.stream_limit = budget.stream_states if patience is not None else limit
        self.counts = Counts.of_script(syntax)
        #: The script's conditions with their constant parts folded (:func:`dealer.lang.fold.fold`).
        self.conditions = fold_conditions(syntax.conditions)
        self._steps: list[Step] = []
        #: Whether the seats' side counts also carry what conditions across seats read of them beyond shape and
        #: HCP (:meth:`~dealer.spec.spec.DealSpec.from_conditions`' ``cross_sides``), so that their labels count
        #: those conditions, when such a condition is there (``cross_sides``; None: in a run that only counts, as
        #: such tables may take seconds to build); planned again without when the count stays an estimate.
        self.cross_sides = (count_only if cross_sides is None else cross_sides) and self._cross_sides_matter()
        if not count_only and budget.side_totals > budget.deal_side_totals:  # a run that deals: small side counts
            budget = budget.replace(side_totals=budget.deal_side_totals)
            with budget.applied():
                self._plans(text, limit, patience, across, count_only, budget)
        else:
            self._plans(text, limit, patience, across, count_only, budget)

    def _plans(self, text: str, limit: int, patience: int | None, across: bool, count_only: bool,
               budget: Budget) -> None:
        """Plan with side counts across seats if asked, then without, then with smaller side counts, until exact."""
        self._plan(text, limit, patience, across, count_only, budget)
        if self.cross_sides and not self.exact:
            self._steps.append(Step("side counts carrying the parts of conditions across seats",
                                    "an estimate: planned again without"))
            self.cross_sides = False
            self._plan(text, limit, patience, across, count_only, budget)
        if not self.exact and "does not fit the tables" in self._union and budget.side_totals > budget.union_side_totals:
            self._steps.append(Step("side counts of the budget's side_totals", "a union's part did not fit: planned "
                                    f"again with at most {budget.union_side_totals} totals (union_side_totals)"))
            smaller = budget.replace(side_totals=budget.union_side_totals)
            with smaller.applied():
                self._plan(text, limit, patience, across, count_only, smaller)

    def _cross_sides_matter(self) -> bool:
        """Whether a condition across seats reads more of a seat than its shape and HCP (the seats' side counts
        may carry it: :attr:`cross_sides`)."""
        return any(len(c.seats()) > 1 and not all(grid_reads(p) for parts in seat_parts(c).values() for p in parts)
                   for c in conjuncts(self.conditions))

    def _plan(self, text: str, limit: int, patience: int | None, across: bool, count_only: bool,
              budget: Budget) -> None:
        """Split, size and choose the tables, the union and the filter (every attribute the run reads)."""
        syntax = self.syntax
        self.residual: list[Cond] = []
        #: Whether a seat's tables may carry a second whole-hand count (:mod:`dealer.spec.sidecount`).
        self.side_counts = True
        self.spec: DealSpec = DealSpec.trusted()
        #: Conditions across seats counted exactly through the seats' labels (:mod:`dealer.spec.cross`).
        self.across: CrossCondition | None = None
        self._union = ""
        self._united: tuple[str, ...] = ()  # the conditions the union holds
        joined = self._split(text, across)
        check_evaluable([*self.residual, *syntax.action_nodes()], syntax.actions, syntax.predeals)
        self.loosened: tuple[Seat, ...] = ()
        trial = limit if patience is None else min(limit, patience)
        chosen = self._choose_tables(text, across, joined, trial, limit, budget)
        if chosen is None:
            joined = self._split(text, across, side_counts=self.side_counts)
        filtered = [c for c in self.residual if not any(c is j for j in joined)]
        split = [c for c in filtered if atoms_of(c, self.counts, self.side_counts) is not None]
        whole = bool(split) and len(split) == len(filtered)  # a union would hold the whole residual
        if chosen is None and not (count_only and whole):
            # loosened tables give an estimate whatever their size: not worth more than the compact patience
            chosen = self._loosen(min(trial, budget.across_states), text)
            split = []
        elif self.across is not None:
            self.residual = filtered
        # a union holding the residual's boolean combinations is weighed first: the tables are not built
        # when it holds (a union's parts are the tables' deals split; an empty union says nothing of them);
        # a count tries it even when the tables alone are too large to keep (its parts may be streamed)
        union = self._unite(split, joined, trial, patience, limit, budget) if split else None
        if chosen is None and union is None:
            chosen = self._loosen(min(trial, budget.across_states), text)
            split = []
        #: What deals the tables' part: an exact dealer, or a union of them (:mod:`dealer.tables.union`).
        self.dealer: ExactDealer | UnionDealer
        if union is None:
            assert chosen is not None  # loosened above when no union holds
            self.dealer = chosen.build()
        else:
            self.dealer = union
        if union is not None and union.is_empty and chosen is not None and (tables := chosen.build()).is_empty:
            self.dealer = tables  # nothing meets even the tables' conditions: they say why
        if self.dealer is union:
            self._united = tuple(map(str, split))
            self.residual = [c for c in self.residual if not any(c is r for r in split)]
        self.filter: Cond | None = None
        if self.residual:
            self.filter = self.residual[0] if len(self.residual) == 1 else And(tuple(self.residual))
        self._filter = Filter(self.residual, self.counts)
        #: Whether the filter asks the double-dummy solver (a deal takes it some 0.04 s: fewer draws, small batches).
        self.solves = self._filter.solves

    def _choose_tables(self, text: str, across: bool, joined: list[Cond], trial: int, limit: int,
                       budget: Budget) -> "_Sized | None":
        """The tables to build, sized first with the seats' second counts and then without; None when even the
        plainest pass ``trial`` (then :attr:`side_counts` says which split the caller loosens)."""
        across_limit = trial if self.across is None else min(limit, max(trial, budget.across_cells))
        if self.across is not None and any(ss.side is not None for ss in self.spec.seats.values()):
            # a side count (dealer.spec.sidecount) multiplies its seat's states, and the joint tables multiply the
            # seats': the reachable states can be many and slow to find too many, so only the dense tables
            # (sized at once) are weighed; else the side conditions go to the filter
            what = "dense tables with second counts and labels across seats"
            design = self._design(what, self.spec, self.across)
            ready = (self._sized(what, design, across_limit, "dense")
                     or self._streamed("streamed tables with second counts and labels across seats", design))
            if ready is not None:
                return ready
            joined[:] = self._split(text, across, side_counts=False)
        chosen = self._tables(trial, across_limit, limit, budget)
        if chosen is None and self.side_counts and any(ss.side is not None for ss in self.spec.seats.values()):
            joined[:] = self._split(text, across, side_counts=False)  # the side counts too large: filter them
            across_limit = trial if self.across is None else min(limit, max(trial, budget.across_cells))
            chosen = self._tables(trial, across_limit, limit, budget)
        return chosen

    def _design(self, what: str, spec: DealSpec, across: CrossCondition | None = None) -> TablesDesign | None:
        """The design of ``spec``'s tables; None when a seat's second count (:mod:`dealer.spec.sidecount`)
        needs more raw states than the budget allows before minimising (a step of the plan says so):
        the count then goes to the filter, as tables too large do."""
        try:
            return TablesDesign(spec, across)
        except SpecLimitError as exc:
            self._steps.append(Step(what, f"refused, {exc}"))
            return None

    def _sized(self, what: str, design: TablesDesign | None, limit: int, backend: str = "auto") -> "_Sized | None":
        """``design``'s tables if they fit ``limit`` (sized, not built: the first that fits is the one built);
        the sizing is a step of the plan either way (None: no design, :meth:`_design` said why)."""
        if design is None:
            return None
        sizing = design.size(limit, backend)
        self._steps.append(Step(what, f"fits, {sizing.text()}" if sizing.fits else sizing.text()))
        return _Sized(design, sizing, limit) if sizing.fits else None

    def _tables(self, trial: int, across_limit: int, limit: int, budget: Budget) -> "_Sized | None":
        """The tables of the spec, with its conditions across seats if they fit ``across_limit``, else without them
        (:attr:`across` is then None and they stay in the residual); None if even those pass ``trial``."""
        if self.across is not None:  # an exact count across seats is worth larger tables than the patience:
            # dense ones (sized at once), or the reachable states (slow to find too many)
            design = self._design("tables with labels across seats", self.spec, self.across)
            chosen = (self._sized("dense tables with labels across seats", design, across_limit, "dense")
                      or self._sized("compact tables with labels across seats", design,
                                     min(across_limit, max(trial, budget.across_states)))
                      or self._streamed("streamed tables with labels across seats", design))
            if chosen is not None:
                return chosen
            self.across = None
        design = self._design("tables", self.spec)
        if trial < min(limit, budget.dense_cells):  # dense tables are quick to size and to build: more room
            chosen = self._sized("dense tables", design, min(limit, budget.dense_cells), "dense")
            if chosen is not None:
                return chosen
        return self._sized("tables", design, trial) or self._streamed("streamed tables", design)

    def _streamed(self, what: str, design: TablesDesign | None) -> "_Sized | None":
        """In a run that only counts, ``design``'s tables counted one position at a time (the budget's
        :attr:`stream_limit` states a position at most), when they hold the whole condition; else None."""
        held = self.across.conditions if self.across is not None and design is not None and design.across else ()
        if not self.count_only or design is None or any(not any(c is h for h in held) for c in self.residual):
            return None
        return self._sized(what, design, self.stream_limit, "streamed")

    def _unite(self, split: list[Cond], joined: list[Cond], trial: int, patience: int | None, limit: int,
               budget: Budget) -> UnionDealer | None:
        """A union of disjoint tables holding the filtered boolean combinations ``split``, if it fits."""
        held = [c for c in conjuncts(self.conditions)
                if not any(c is r for r in self.residual) and not any(c is j for j in joined)]
        # a union that leaves other conditions to the filter only narrows the superset: worth less patience
        rest = [c for c in self.residual if not any(c is r for r in split)]
        cells = None if patience is None else (trial if rest else budget.union_cells)
        stream = self.stream_limit if self.count_only and not rest else 0  # a count of the whole condition
        union, why = UnionDealer.attempt(held, split, self.syntax.predeals, limit=limit, counts=self.counts,
                                         across=self.across, cells=cells, slow=trial, side_counts=self.side_counts,
                                         stream=stream)
        self._steps.append(Step(f"a union for {'; '.join(map(str, split))}", ("built, " if union else "refused, ") + why))
        self._union = why
        return union

    def _split(self, text: str, across: bool, side_counts: bool = True) -> list[Cond]:
        """Split the conditions into the seats' tables and the residual; the residual's parts that the
        seats' labels count (:attr:`across`) are returned."""
        self.residual = []
        self.side_counts = side_counts
        self.spec = DealSpec.from_conditions(self.conditions, self.syntax.predeals, text, residual=self.residual,
                                             counts=self.counts, side_counts=side_counts, cross_sides=self.cross_sides)
        sides = {s: self.spec.seat(s).side for s in Seat} if self.cross_sides and side_counts else None
        within = {s: self.spec.seat(s).side_masks(s) if sides and sides[s] is not None else self.spec.seat(s).accepted(s)
                  for s in Seat}
        joined: list[Cond] = []
        self.across = None
        for c in self.residual:  # one at a time: those whose joint labels would pass the limit stay filtered
            if across and self._joinable(c):
                labelled = CrossCondition.attempt(joined + [c], within=within, sides=sides)
                if isinstance(labelled, str):
                    self._steps.append(Step(f"labels across seats for {c}", f"refused, {labelled}"))
                    continue
                self.across = labelled
                joined.append(c)
        return joined

    def _joinable(self, c: Cond) -> bool:
        """A condition across seats the seats' labels may count (standard HCP, seats counting HCP): whether
        they can is :meth:`CrossCondition.build`'s to say."""
        if any(isinstance(n, Hcp) for n in walk(c)) and self.counts.points != STANDARD.points:
            return False
        return len(c.seats()) >= 2 and all(self.spec.seat(s).points is None for s in c.seats())

    def _loosen(self, limit: int, text: str) -> "_Sized":
        """Tables within ``limit``: the conditions of the seats that cut the fewest deals move to the filter.

        Each seat's own conditions are tried alone; the seats whose conditions hold most often leave
        the tables first (their predealt cards stay), one more at a time, until the tables fit.
        """
        parts = conjuncts(self.conditions)
        alone: dict[Seat, float] = {}
        for seat in Seat:
            own = [c for c in parts if c.seats() == {seat} and not isinstance(c, HasCard)]
            if own:  # a seat whose own tables pass the limit is taken as cutting nothing
                design = self._design(f"{seat.name_long}'s own tables",
                                      DealSpec.from_conditions(own, {}, residual=[], counts=self.counts,
                                                               side_counts=self.side_counts))
                sizing = design.size(limit) if design is not None else None
                alone[seat] = float(ExactDealer(design.spec, limit=limit, design=design, sizing=sizing).probability()
                                    ) if design is not None and sizing is not None and sizing.fits else 1.0
        order = sorted(alone, key=lambda s: -alone[s])
        for k in range(1, len(order) + 1):
            dropped = set(order[:k])
            kept = [c for c in parts if not (len(c.seats()) == 1 and next(iter(c.seats())) in dropped
                                                 and not isinstance(c, HasCard))]
            moved = [c for c in parts if not any(c is x for x in kept)]
            residual: list[Cond] = []
            spec = DealSpec.from_conditions(kept, self.syntax.predeals, text, residual=residual, counts=self.counts,
                                            side_counts=self.side_counts)
            names = ", ".join(s.name_long for s in sorted(dropped))
            what = f"tables with {names}'s own conditions filtered"
            chosen = self._sized(what, self._design(what, spec), limit)
            if chosen is None:
                continue
            self.spec = spec
            self.residual = moved + residual
            self.loosened = tuple(sorted(dropped))
            self.across = None  # these tables carry no labels: conditions across seats are filtered
            return chosen
        raise SpecLimitError("the spec's tables exceed the limit even with every seat's conditions filtered")

    @property
    def plan(self) -> Plan:
        """How this script is dealt: what the tables, labels, union and filter hold, and every way tried."""
        residual = {id(c) for c in conjuncts(self.residual)}
        across = tuple(map(str, self.across.conditions)) if self.across is not None else ()
        held = tuple(str(c) for c in conjuncts(self.conditions)
                     if id(c) not in residual and str(c) not in across and str(c) not in self._united)
        kind = ("a union" if isinstance(self.dealer, UnionDealer)
                else "dense tables" if isinstance(self.dealer.tables, DenseTables)
                else "streamed tables (counted one position at a time, not kept)"
                if isinstance(self.dealer.tables, StreamedTables) else "compact tables")
        return Plan("tables" if self.exact else "tables and filter", self.exact,
                    tables=f"{kind}, {self.dealer.cells:,} " + ("states at one position at most" if "streamed" in kind
                                                                 else "cells"), held=held, across=across,
                    union=f"{'; '.join(self._united)}: {self._union}" if self._united else "",
                    filtered=tuple(str(c) for c in conjuncts(self.residual)),
                    loosened=tuple(s.name_long for s in self.loosened), superset=int(self.dealer.count()),
                    steps=tuple(self._steps))

    @property
    def exact(self) -> bool:
        """True when every deal the tables give meets the whole condition (the count is exact)."""
        return self.filter is None

    def holds(self, masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """Whether each deal of ``masks`` meets the residual condition (each part sees only the deals kept so far;
        ``rng`` draws ``rnd`` values)."""
        return self._filter.holds(masks, rng)

    def keep(self, masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """The deals of ``masks`` that meet the residual condition (``rng`` draws its ``rnd`` values)."""
        if self.filter is None or len(masks) == 0:
            return masks
        return np.asarray(masks[self.holds(masks, rng)])

    def count(self, draws: int | None = None, seed: RandomSource = None) -> CountResult:
        """The number of deals meeting the condition: exact, or estimated from ``draws`` deals of the superset
        (by default the budget's ``draws``, or ``solver_draws`` when the filter asks the double-dummy solver)."""
        if draws is None:
            draws = current().solver_draws if self.solves else current().draws
        check_int(draws, "draws", DealerError, lo=1)
        total = self.dealer.count()
        superset = int(total)
        if self.exact or superset == 0:
            return CountResult(True, superset, float(superset), float(superset), float(superset), superset)
        rng = make_rng(seed)
        accepted = 0
        drawn = 0
        solved = self._filter.solved
        while drawn < draws:
            batch = min(_BATCH, draws - drawn)
            accepted += len(self.keep(self.dealer.sample_masks(batch, rng), rng))
            drawn += batch
        low, high = wilson(accepted, drawn)
        return CountResult(False, None, superset * accepted / drawn, superset * low, superset * high, superset,
                           drawn, accepted, self._filter.solved - solved)

    @property
    def space(self) -> int:
        """The deals ``dealer`` draws from: every completion of the script's ``predeal`` statements."""
        placed = [len(cards) for cards, _ in self.syntax.predeals.values()]
        vacancies = [13] * (4 - len(placed)) + [13 - k for k in placed]
        return math.factorial(sum(vacancies)) // math.prod(math.factorial(v) for v in vacancies)

    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` independent deals, uniform over those meeting the whole condition (``(n, 4)`` hand bit-sets).

        Drawn from the tables (exactly) and kept where the filter holds; refused when the budget's
        ``misses`` deals of the superset in a row give none.
        """
        rng = make_rng(seed)
        kept: list[np.ndarray] = []
        got = drawn_since = 0
        while got < n:
            batch = min(_BATCH, max(64, 2 * (n - got)))
            ok = self.keep(self.dealer.sample_masks(batch, rng), rng)[: n - got]
            kept.append(ok)
            got += len(ok)
            drawn_since = 0 if len(ok) else drawn_since + batch
            if drawn_since >= current().misses:
                raise ImpossibleSpecError(f"none of {drawn_since:,} deals drawn from the tables met "
                                          f"{' && '.join(str(c) for c in self.residual)}")
        return joined(kept)

    def produce(self, produce: int, generate: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        """Deals as ``dealer`` would produce them from at most ``generate`` random deals; and how many it generated.

        ``dealer``'s random deals complete the script's predeal, so the chance that one lands in the
        tables' superset is its exact count over :attr:`space`.
        """
        p_superset = Fraction(self.dealer.count()) / self.space
        if p_superset == 0:
            return np.zeros((0, 4), dtype=np.uint64), generate
        hits = int(rng.binomial(generate, float(p_superset)))  # random deals that the tables' superset holds
        kept: list[np.ndarray] = []
        got = 0
        used = 0
        while got < produce and used < hits:
            # enough superset deals for what is still wanted at the rate kept so far (a rare filter would
            # otherwise take thousands of small batches), within the batch size
            rate = (got + 1) / (used + 2)
            batch = min(_BATCH, hits - used, max(64, int(1.25 * (produce - got) / rate) + 1))
            if self.solves:  # every deal of a batch is solved: no more than a few beyond the one that completes
                batch = min(batch, 64)
            masks = self.dealer.sample_masks(batch, rng)
            ok, looked = kept_until(masks, self.holds(masks, rng), produce - got)  # rnd's values drawn once
            kept.append(ok)
            got += len(ok)
            used += looked
        generated = generate
        if got >= produce and used < hits:  # the random deals it took to meet `used` superset deals
            misses = int(rng.negative_binomial(used, float(p_superset))) if p_superset < 1 else 0
            generated = min(generate, used + misses)
        return joined(kept), generated


def write_count(counted: "ScriptDealer | ImpossibleSpecError", out: TextIO, seed: RandomSource = None) -> CountResult:
    """Count the condition with ``counted``'s tables (a condition found never true: its reason) and write the
    count as ``kibitz dealer --count`` ends (``impossible: why`` first when no deal meets it)."""
    if isinstance(counted, ImpossibleSpecError):
        result = CountResult(True, 0, 0.0, 0.0, 0.0, 0)
        out.write(f"impossible: {counted}\n")
    else:
        result = counted.count(seed=seed)
        if result.exact and result.deals == 0:
            out.write(f"impossible: {counted.dealer.explain_empty()}\n")
    out.write(f"{result.text()}\n")
    return result


def count_after_run(syntax: ScriptSyntax, out: TextIO, *, limit: int | None = None, text: str = "",
                    seed: RandomSource = None) -> CountResult:
    """Count a script's condition after a run that built no tables (dealt one deal at a time), as
    ``kibitz count`` counts it, and write the count (:func:`write_count`)."""
    try:
        counted: ScriptDealer | ImpossibleSpecError = ScriptDealer(
            syntax, limit=limit, text=text, patience=current().count_patience, count_only=True)
    except ImpossibleSpecError as exc:
        counted = exc
    return write_count(counted, out, seed)
