"""Running a ``dealer`` script: its condition counted and dealt, its actions done.

The condition is split by :meth:`~dealer.spec.DealSpec.from_conditions` into
what the exact per-seat tables can hold and a *residual* they cannot (an
``||`` across seats, ``losers``, ``tricks``...). Conditions across seats on
shapes and HCP (``hcp(north) + hcp(south) >= 26``) are counted in the tables
through the seats' labels (:mod:`dealer.cross`); ``||``, ``!`` and ``^^`` of
other per-seat parts are a union of disjoint specs (:mod:`dealer.union`).
What is left is the residual. Deals are drawn exactly and
uniformly from the tables' deals (a superset of the condition's) and kept
when the residual holds, so each kept deal is uniform over the deals meeting
the whole condition. The count is exact when there is no residual; otherwise
it is the superset's exact count times the kept fraction: an *estimate*,
reported with its 95% interval (Wilson) and marked as such.

``produce`` and ``generate`` mean what they mean to ``dealer``: produce deals
meeting the condition, stopping after ``generate`` random deals (defaults 40
and 10,000,000). Kibitz does not deal the random deals one by one: it draws
how many of them would have met the condition (a binomial draw, exact when
the count is), then deals those.

>>> from dealer.statements import parse_statements
>>> run = ScriptDealer(parse_statements("hcp(north) >= 20 && top2(north, spades) == 2 && "
...                                     "(hascard(west, C2) || hcp(east) > 10) && hcp(north) + hcp(south) >= 26 "
...                                     "&& cccc(north) >= 1200"))
>>> run.exact, [str(c) for c in run.residual], str(run.joint)
(False, ['cccc(north) >= 1200'], '(hcp(north) + hcp(south)) >= 26')
>>> sorted(run.count(draws=2000, seed=1).text().split()[:2])
['count:', 'estimate']
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import TextIO

import numpy as np

from .engine import DEFAULT_LIMIT
from .errors import DealerError, ImpossibleSpecError, SpecLimitError, UnsupportedSpecError
from .checks import check_int
from .cross import JointCondition, joinable
from .evaluate import ALT_DEFAULTS, STANDARD, Counts, check_runnable, evaluate
from .exact import ExactDealer
from .expr import Always, And, Cond, Expr, HasCard, Hcp, Node, Tricks, walk
from .fold import fold
from .numbering import D
from .printing import columns_text, compact_text, oneline_text, pages_text, pbn_text
from .rng import RandomSource, make_rng
from .seat import Seat
from .spec import DealSpec
from .evalcontract import check_solver, double_dummy_tricks, evalcontract_text
from .statements import Average, EvalContract, Frequency, Print, PrintES, ScriptSyntax
from .union import UnionDealer, atoms_of

__all__ = ["CountResult", "ScriptDealer", "run_script", "DEFAULT_PRODUCE", "DEFAULT_GENERATE", "PATIENCE",
           "COUNT_PATIENCE", "DRAWS", "SOLVER_DRAWS",
           "JOINT_PATIENCE", "JOINT_COMPACT_PATIENCE", "DENSE_PATIENCE", "UNION_PATIENCE", "wilson"]

#: The joint states ``run_script`` lets exact tables reach before it filters a seat instead (seconds, not minutes).
PATIENCE = 1_000_000
#: The reachable joint states ``kibitz count`` and ``kibitz deal`` let tables reach before they filter (an
#: explicit ``--limit`` lets them try up to it): a failed attempt at 40,000,000 took 15-25 s on real scripts.
COUNT_PATIENCE = 5_000_000
#: The table cells ``run_script`` lets a condition across seats (counted exactly) take before filtering it.
JOINT_PATIENCE = 20_000_000
#: The same for tables of the reachable states only (slower to build, and to find too large).
JOINT_COMPACT_PATIENCE = 5_000_000
#: The cells dense tables (quick to build, refused at once when too large) may take before a script filters.
DENSE_PATIENCE = 20_000_000
#: The dense table cells ``run_script`` lets the parts of a union (:mod:`dealer.union`) take together before
#: filtering its conditions instead.
UNION_PATIENCE = 20_000_000
#: ``dealer``'s defaults: deals produced, and random deals generated at most.
DEFAULT_PRODUCE = 40
DEFAULT_GENERATE = 10_000_000
#: The deals of the superset an estimated count draws; when the filter asks the double-dummy solver
#: (``tricks``: some 0.1 s a deal), fewer.
DRAWS = 100_000
SOLVER_DRAWS = 300
_BATCH = 65536


def wilson(accepted: int, drawn: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``accepted / drawn``.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if drawn == 0:
        return (0.0, 1.0)
    p = accepted / drawn
    denom = 1 + z * z / drawn
    centre = (p + z * z / (2 * drawn)) / denom
    half = z * math.sqrt(p * (1 - p) / drawn + z * z / (4 * drawn * drawn)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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
        return (f"count: estimate {self.estimate:.4g} deals, 95% interval {self.low:.4g} to {self.high:.4g} "
                f"(probability {self.estimate / D:.4g}; {self.accepted:,} of {self.drawn:,} deals drawn "
                f"from an exact superset of {self.superset:,} met the whole condition)")


def _counts(syntax: ScriptSyntax) -> Counts:
    alt = list(ALT_DEFAULTS)
    for i, values in syntax.altcounts.items():
        alt[i] = values
    points = syntax.pointcount if syntax.pointcount is not None else Counts().points
    return Counts(points=points, alt=tuple(alt))


class ScriptDealer:
    """A script's condition, counted and dealt: exactly, or through the residual filter.

    Conditions across seats that the seats' labels can count go into the tables (:mod:`dealer.cross`;
    ``joint=False`` filters them instead, the old path). Tables beyond ``limit`` joint states
    (``patience``, when given, is a smaller limit to try first) are not refused: the conditions of
    the seats that cut fewest deals move to the filter (:attr:`loosened` names them) and the count
    becomes an estimate.
    """

    def __init__(self, syntax: ScriptSyntax, *, limit: int = DEFAULT_LIMIT, text: str = "",
                 patience: int | None = None, joint: bool = True) -> None:
        self.syntax = syntax
        self.counts = _counts(syntax)
        #: The script's conditions with their constant parts folded (:func:`dealer.fold.fold`).
        self.conditions = [f for f in map(fold, syntax.conditions) if f != Always(True)]
        self.residual: list[Cond] = []
        #: Whether a seat's tables may carry a second whole-hand count (:mod:`dealer.sidecount`).
        self.side_counts = True
        self.spec: DealSpec = DealSpec()
        #: Conditions across seats counted exactly through the seats' labels (:mod:`dealer.cross`).
        self.joint: JointCondition | None = None
        joined = self._split(text, joint)
        for node in self._nodes():
            check_runnable(node)
        for action in syntax.actions:
            if isinstance(action, EvalContract):
                check_solver(action)
        self.loosened: tuple[Seat, ...] = ()
        trial = limit if patience is None else min(limit, patience)
        joint_limit = trial if self.joint is None else min(limit, max(trial, JOINT_PATIENCE))
        ready: ExactDealer | None = None
        if self.joint is not None and any(ss.side is not None for ss in self.spec.seats.values()):
            # a side count (dealer.sidecount) multiplies its seat's states, and the joint tables multiply the
            # seats': the reachable states can be many and slow to find too many, so only the dense tables
            # (refused at once when too large) are tried; else the side conditions go to the filter
            try:
                ready = ExactDealer(self.spec, limit=joint_limit, joint=self.joint, backend="dense")
            except SpecLimitError:
                joined = self._split(text, joint, side_counts=False)
        tables = ready or self._tables(trial, joint_limit, limit)
        if tables is None and self.side_counts and any(ss.side is not None for ss in self.spec.seats.values()):
            joined = self._split(text, joint, side_counts=False)  # the side counts too large: filter them
            joint_limit = trial if self.joint is None else min(limit, max(trial, JOINT_PATIENCE))
            tables = self._tables(trial, joint_limit, limit)
        filtered = [c for c in self.residual if not any(c is j for j in joined)]
        split = [c for c in filtered if atoms_of(c, self.counts, self.side_counts) is not None]
        if tables is None:
            # loosened tables give an estimate whatever their size: not worth more than the compact patience
            self.tables: ExactDealer | UnionDealer = self._loosen(min(trial, JOINT_COMPACT_PATIENCE), text)
            split = []
        else:
            self.tables = tables
            if self.joint is not None:
                self.residual = filtered
        if split and not self.tables.is_empty:
            held = [c for c in _conjuncts(self.conditions)
                    if not any(c is r for r in self.residual) and not any(c is j for j in joined)]
            # a union that leaves other conditions to the filter only narrows the superset: worth less patience
            rest = [c for c in self.residual if not any(c is r for r in split)]
            budget = None if patience is None else (trial if rest else UNION_PATIENCE)
            union = UnionDealer.build(held, split, syntax.predeals, limit=limit, counts=self.counts,
                                      joint=self.joint, budget=budget, slow=trial, side_counts=self.side_counts)
            if union is not None:
                self.tables = union
                self.residual = [c for c in self.residual if not any(c is r for r in split)]
        self.filter: Cond | None = None
        if self.residual:
            self.filter = self.residual[0] if len(self.residual) == 1 else And(tuple(self.residual))
        # the filter's parts, those that ask the double-dummy solver last: it sees only the deals the others keep
        conjuncts = _conjuncts(self.residual)
        solved = [any(isinstance(n, Tricks) for n in walk(c)) for c in conjuncts]
        self._parts = [c for c, _ in sorted(zip(conjuncts, solved), key=lambda pair: pair[1])]
        #: Whether the filter asks the double-dummy solver (a deal takes it some 0.1 s: fewer draws, small batches).
        self.solves = any(solved)

    def _tables(self, trial: int, joint_limit: int, limit: int) -> ExactDealer | None:
        """The tables of the spec, with its joint conditions if they fit ``joint_limit``, else without them
        (:attr:`joint` is then None and they stay in the residual); None if even those pass ``trial``."""
        if self.joint is not None:  # an exact count across seats is worth larger tables than the patience:
            try:  # dense ones (refused at once when too large), or the reachable states (slow to find too many)
                return ExactDealer(self.spec, limit=joint_limit, joint=self.joint, backend="dense")
            except SpecLimitError:
                pass
            try:
                return ExactDealer(self.spec, limit=min(joint_limit, max(trial, JOINT_COMPACT_PATIENCE)),
                                   joint=self.joint)
            except SpecLimitError:
                self.joint = None
        if trial < min(limit, DENSE_PATIENCE):
            try:  # dense tables are quick to build and to refuse: they get more room than the patience
                return ExactDealer(self.spec, limit=min(limit, DENSE_PATIENCE), backend="dense")
            except SpecLimitError:
                pass
        try:
            return ExactDealer(self.spec, limit=trial)
        except SpecLimitError:
            return None

    def _split(self, text: str, joint: bool, side_counts: bool = True) -> list[Cond]:
        """Split the conditions into the seats' tables and the residual; the residual's parts that the
        seats' labels count (:attr:`joint`) are returned."""
        self.residual = []
        self.side_counts = side_counts
        self.spec = DealSpec.from_conditions(self.conditions, self.syntax.predeals, text, residual=self.residual,
                                             counts=self.counts, side_counts=side_counts)
        within = {s: self.spec.seat(s).accepted(s) for s in Seat}
        joined: list[Cond] = []
        self.joint = None
        for c in self.residual:  # one at a time: those whose joint labels would pass the limit stay filtered
            if joint and self._joinable(c):
                try:
                    self.joint = JointCondition.build(joined + [c], within=within)
                except UnsupportedSpecError:
                    continue
                joined.append(c)
        return joined

    def _joinable(self, c: Cond) -> bool:
        """A condition across seats that the seats' labels can count (standard HCP, seats counting HCP)."""
        if any(isinstance(n, Hcp) for n in walk(c)) and self.counts.points != STANDARD.points:
            return False
        return all(self.spec.seat(s).points is None for s in c.seats()) and joinable(c)

    def _loosen(self, limit: int, text: str) -> ExactDealer:
        """Tables within ``limit``: the conditions of the seats that cut the fewest deals move to the filter.

        Each seat's own conditions are tried alone; the seats whose conditions hold most often leave
        the tables first (their predealt cards stay), one more at a time, until the tables fit.
        """
        conjuncts = _conjuncts(self.conditions)
        alone: dict[Seat, float] = {}
        for seat in Seat:
            own = [c for c in conjuncts if c.seats() == {seat} and not isinstance(c, HasCard)]
            if own:
                try:
                    alone[seat] = float(ExactDealer(DealSpec.from_conditions(own, {}, counts=self.counts),
                                                    limit=limit).probability())
                except DealerError:
                    alone[seat] = 1.0
        order = sorted(alone, key=lambda s: -alone[s])
        for k in range(1, len(order) + 1):
            dropped = set(order[:k])
            kept = [c for c in conjuncts if not (len(c.seats()) == 1 and next(iter(c.seats())) in dropped
                                                 and not isinstance(c, HasCard))]
            moved = [c for c in conjuncts if not any(c is x for x in kept)]
            residual: list[Cond] = []
            spec = DealSpec.from_conditions(kept, self.syntax.predeals, text, residual=residual, counts=self.counts)
            try:
                tables = ExactDealer(spec, limit=limit)
            except SpecLimitError:
                continue
            self.spec = spec
            self.residual = moved + residual
            self.loosened = tuple(sorted(dropped))
            return tables
        raise SpecLimitError("the spec's tables exceed the limit even with every seat's conditions filtered")

    def _nodes(self) -> list[Node]:
        nodes: list[Node] = list(self.residual)
        for action in self.syntax.actions:
            if isinstance(action, (Average,)):
                nodes.append(action.expr)
            elif isinstance(action, Frequency):
                nodes.extend(axis[0] for axis in action.axes)
            elif isinstance(action, PrintES):
                nodes.extend(item for item in action.items if isinstance(item, Expr))
            elif isinstance(action, Print) and action.expr is not None:
                nodes.append(action.expr)
        return nodes

    @property
    def exact(self) -> bool:
        """True when every deal the tables give meets the whole condition (the count is exact)."""
        return self.filter is None

    def holds(self, masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """Whether each deal of ``masks`` meets the residual condition (each part sees only the deals kept so far;
        ``rng`` draws ``rnd`` values)."""
        ok = np.ones(len(masks), dtype=bool)
        for part in self._parts:
            rows = np.flatnonzero(ok)
            if len(rows) == 0:
                break
            ok[rows] = evaluate(part, masks[rows], self.counts, rng=rng) != 0
        return ok

    def keep(self, masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """The deals of ``masks`` that meet the residual condition (``rng`` draws its ``rnd`` values)."""
        if self.filter is None or len(masks) == 0:
            return masks
        return np.asarray(masks[self.holds(masks, rng)])

    def count(self, draws: int | None = None, seed: RandomSource = None) -> CountResult:
        """The number of deals meeting the condition: exact, or estimated from ``draws`` deals of the superset
        (by default :data:`DRAWS`, or :data:`SOLVER_DRAWS` when the filter asks the double-dummy solver)."""
        if draws is None:
            draws = SOLVER_DRAWS if self.solves else DRAWS
        check_int(draws, "draws", DealerError, lo=1)
        total = self.tables.count()
        superset = int(total)
        if self.exact or superset == 0:
            return CountResult(True, superset, float(superset), float(superset), float(superset), superset)
        rng = make_rng(seed)
        accepted = 0
        drawn = 0
        while drawn < draws:
            batch = min(_BATCH, draws - drawn)
            accepted += len(self.keep(self.tables.sample_masks(batch, rng), rng))
            drawn += batch
        low, high = wilson(accepted, drawn)
        return CountResult(False, None, superset * accepted / drawn, superset * low, superset * high, superset,
                           drawn, accepted)

    @property
    def space(self) -> int:
        """The deals ``dealer`` draws from: every completion of the script's ``predeal`` statements."""
        placed = [len(cards) for cards, _ in self.syntax.predeals.values()]
        vacancies = [13] * (4 - len(placed)) + [13 - k for k in placed]
        return math.factorial(sum(vacancies)) // math.prod(math.factorial(v) for v in vacancies)

    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` independent deals, uniform over those meeting the whole condition (``(n, 4)`` hand bit-sets).

        Drawn from the tables (exactly) and kept where the filter holds; refused when 1,000,000 deals
        of the superset in a row give none.
        """
        rng = make_rng(seed)
        kept: list[np.ndarray] = []
        got = drawn_since = 0
        while got < n:
            batch = min(_BATCH, max(64, 2 * (n - got)))
            ok = self.keep(self.tables.sample_masks(batch, rng), rng)[: n - got]
            kept.append(ok)
            got += len(ok)
            drawn_since = 0 if len(ok) else drawn_since + batch
            if drawn_since >= 1_000_000:
                raise ImpossibleSpecError(f"none of {drawn_since:,} deals drawn from the tables met "
                                          f"{' && '.join(str(c) for c in self.residual)}")
        return np.concatenate(kept) if kept else np.zeros((0, 4), dtype=np.uint64)

    def produce(self, produce: int, generate: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        """Deals as ``dealer`` would produce them from at most ``generate`` random deals; and how many it generated.

        ``dealer``'s random deals complete the script's predeal, so the chance that one lands in the
        tables' superset is its exact count over :attr:`space`.
        """
        p_superset = Fraction(self.tables.count()) / self.space
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
            masks = self.tables.sample_masks(batch, rng)
            flags = (self.holds(masks, rng) if self.filter is not None
                     else np.ones(len(masks), dtype=bool))  # evaluated once: rnd's values are drawn once
            ok = np.asarray(masks[flags])
            if got + len(ok) >= produce:  # stop at the deal that completed the production
                need = produce - got
                if self.filter is not None:
                    used += int(np.flatnonzero(flags)[need - 1]) + 1
                else:
                    used += need
                kept.append(ok[:need])
                got = produce
                break
            kept.append(ok)
            got += len(ok)
            used += batch
        generated = generate
        if got >= produce and used < hits:  # the random deals it took to meet `used` superset deals
            misses = int(rng.negative_binomial(used, float(p_superset))) if p_superset < 1 else 0
            generated = min(generate, used + misses)
        out = np.concatenate(kept) if kept else np.zeros((0, 4), dtype=np.uint64)
        return out, generated


def _conjuncts(conditions: list[Cond]) -> list[Cond]:
    """The conditions with every top-level ``&&`` opened up."""
    out: list[Cond] = []
    stack = list(reversed(conditions))
    while stack:
        c = stack.pop()
        if isinstance(c, And):
            stack.extend(reversed(c.items))
        else:
            out.append(c)
    return out


def _format_average(label: str | None, value: float) -> str:
    text = f"{value:g}"
    return f"{label}: {text}\n" if label is not None else f"{text}\n"


def _frequency_text(action: Frequency, values: list[np.ndarray]) -> str:
    label = action.label or ""
    out = [f"Frequency {label}:\n"]
    if len(action.axes) == 1:
        (_, low, high), v = action.axes[0], values[0]
        below, above = int((v < low).sum()), int((v > high).sum())
        if below:
            out.append(f"Low\t{below:8d}\n")
        for x in range(low, high + 1):
            out.append(f"{x:5d}\t{int((v == x).sum()):8d}\n")
        if above:
            out.append(f"High\t{above:8d}\n")
        return "".join(out)
    bins = []
    for (_, low, high), v in zip(action.axes, values):
        bins.append(np.clip(v, low - 1, high + 1) - (low - 1))
    (_, l1, h1), (_, l2, h2) = action.axes
    grid = np.zeros((h1 - l1 + 3, h2 - l2 + 3), dtype=np.int64)
    np.add.at(grid, (bins[0], bins[1]), 1)
    names2 = ["Low"] + [str(x) for x in range(l2, h2 + 1)] + ["High", "Sum"]
    out.append("    " + "".join(f"{n:>7}" for n in names2) + "\n")
    names1 = ["Low "] + [f"{x:4d}" for x in range(l1, h1 + 1)] + ["High"]
    for name, row in zip(names1, grid):
        out.append(name + "".join(f"{int(c):7d}" for c in row) + f"{int(row.sum()):7d}\n")
    out.append("Sum " + "".join(f"{int(c):7d}" for c in grid.sum(axis=0)) + f"{int(grid.sum()):7d}\n\n")
    return "".join(out)


def run_script(syntax: ScriptSyntax, out: TextIO, *, seed: RandomSource = None, produce: int | None = None,
               source: str = "<script>", limit: int = DEFAULT_LIMIT, text: str = "", generate: int | None = None,
               quiet: bool = False, verbose: bool = True) -> CountResult:
    """Run a script like ``dealer`` does: produce its deals, do its actions, then print the totals and the count.

    ``produce`` and ``generate`` replace the script's (``dealer -p``, ``-g``); ``quiet`` leaves out the
    ``printall`` and ``printpbn`` actions (``dealer -q``); ``verbose=False`` leaves out the totals
    (``dealer -v``), not the count.
    """
    start = time.perf_counter()
    run = ScriptDealer(syntax, limit=limit, text=text, patience=PATIENCE)
    if isinstance(seed, int) or seed is None:
        seed_value = seed if seed is not None else syntax.seed
        if seed_value is None:
            seed_value = int(np.random.SeedSequence().entropy % (1 << 31))  # type: ignore[operator]
        rng = make_rng(seed_value)
    else:
        seed_value = None
        rng = make_rng(seed)
    n = produce if produce is not None else (syntax.produce if syntax.produce is not None else DEFAULT_PRODUCE)
    if generate is None:
        generate = syntax.generate if syntax.generate is not None else DEFAULT_GENERATE
    if n < 0:
        raise DealerError(f"invalid produce {n}: expected a number of deals >= 0")
    if generate < 0:
        raise DealerError(f"invalid generate {generate}: expected a number of deals >= 0")
    masks, generated = run.produce(n, generate, rng)
    actions = syntax.actions or [Print("printall")]
    memo: dict[int, np.ndarray] = {}
    for action in actions:
        if isinstance(action, Print) and quiet and action.kind in ("printall", "printpbn"):
            continue  # as dealer -q: no hands from these two
        if isinstance(action, Print) and action.kind == "print":
            out.write(pages_text(masks, action.seats))
        elif isinstance(action, Print):
            for first in range(0, len(masks), _BATCH):  # a batch at a time: memory stays bounded
                batch = masks[first:first + _BATCH]
                if action.kind == "printall":
                    out.write(columns_text(batch, tuple(Seat), start=first + 1))
                elif action.kind == "printew":
                    out.write(columns_text(batch, (Seat.W, Seat.E)))
                elif action.kind == "printpbn":
                    out.write(pbn_text(batch, first + 1, f"Hand simulated by kibitz dealer with file {source}, "
                                       f"seed {seed_value}", syntax.dealer, syntax.vulnerable))
                elif action.kind == "printcompact":
                    out.write(compact_text(batch))
                else:
                    out.write(oneline_text(batch))
        elif isinstance(action, PrintES):
            parts = [item if isinstance(item, str) else evaluate(item, masks, run.counts, memo, rng) for item in action.items]
            out.write("".join("".join(p if isinstance(p, str) else str(int(p[i])) for p in parts)
                              for i in range(len(masks))))
        elif isinstance(action, Average):
            values = evaluate(action.expr, masks, run.counts, memo, rng)
            out.write(_format_average(action.label, float(values.mean()) if len(values) else float("nan")))
        elif isinstance(action, Frequency):
            out.write(_frequency_text(action, [evaluate(axis[0], masks, run.counts, memo, rng) for axis in action.axes]))
        elif isinstance(action, EvalContract):
            tricks = double_dummy_tricks(masks, action.declarer, action.strain, action.pos)
            out.write(evalcontract_text(action, tricks))
    result = run.count(seed=rng)
    if result.exact and result.deals == 0:
        out.write(f"impossible: {run.tables.explain_empty()}\n")
    if verbose:
        out.write(f"Generated {generated} hands\nProduced {len(masks)} hands\nInitial random seed {seed_value}\n"
                  f"Time needed {time.perf_counter() - start:8.3f} sec\n")
    out.write(f"{result.text()}\n")
    return result
