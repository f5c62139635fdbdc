"""Running a ``dealer`` script: its deals produced, its actions done, the way ``dealer`` does.

``produce`` and ``generate`` mean what they mean to ``dealer``: produce deals meeting the
condition, stopping after ``generate`` random deals (defaults 40 and 10,000,000). The deals come
the cheap way while it is cheap: random deals completing the predeal, kept where the whole
condition holds (:mod:`dealer.run.selection`, ``dealer``'s own way), as long as the rate kept so far
predicts at most the budget's ``select_deals`` random deals. Else the exact tables take over
(:class:`~dealer.run.script_dealer.ScriptDealer`, imported only then): Kibitz does not deal the
remaining random deals one by one; it draws how many of them would have met the tables'
superset (a binomial draw, exact), deals those from the tables and keeps those the filter
holds. Either way each deal produced is uniform over the deals meeting the condition, and
nothing is counted unless ``count=True`` asks (``kibitz dealer --count``).

>>> import io
>>> from dealer.lang.statements import parse_statements
>>> out = io.StringIO()
>>> run_script(parse_statements("condition hcp(north) >= 10 produce 2 action printoneline"), out, seed=1,
...            explain=True, verbose=False)
>>> print(out.getvalue().splitlines()[2])
plan: deal and select (uniform as dealer's own; nothing counted)
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Sequence, TextIO

import numpy as np

from dealer.budget import current
from dealer.cards.printing import columns_text, compact_text, oneline_text, pages_text, pbn_text
from dealer.cards.seat import Seat
from dealer.errors import ImpossibleSpecError
from dealer.lang.double_dummy import (
    STRAINS, double_dummy_tables, double_dummy_tricks, forget_solved, par_contracts, solve_for,
    strains_read,
)
from dealer.lang.evalcontract import evalcontract_text, evaltable_text
from dealer.lang.evaluate import Counts, evaluate
from dealer.lang.fold import fold_conditions
from dealer.lang.expr import Expr
from dealer.lang.actions import (
    DoubleDummyRow, EvalContract, EvalTable, Export, ParContract, Print, PrintES, Report,
)
from dealer.lang.statements import ScriptSyntax
from dealer.rng import RandomSource, make_rng
from dealer.run.plan import Plan, Step
from dealer.run.quick import QuickRun, run_quick
from dealer.run.reports import export_rows, report_rows
from dealer.run.selection import Selected, Selection, check_evaluable
from dealer.run.settings import (
    DEFAULT_GENERATE, DEFAULT_PRODUCE, actions_of, check_frequencies, check_run_deals, given, prints_deals, run_seed,
    totals_text,
)
from dealer.run.tallies import tally_for

if TYPE_CHECKING:
    from dealer.run.script_dealer import CountResult, ScriptDealer

__all__ = ["run_script"]

_BATCH = 65536


def _seeded(syntax: ScriptSyntax, seed: RandomSource) -> tuple[np.random.Generator, int | None]:
    """The generator of a run, and the seed it prints (``dealer``'s: the script's, else a fresh one)."""
    if isinstance(seed, int) or seed is None:
        seed_value = run_seed(syntax, seed)
        return make_rng(seed_value), seed_value
    return make_rng(seed), None


class _Production:
    """A run's deals: by deal and select while the condition keeps many random deals, else from the tables."""

    def __init__(self, syntax: ScriptSyntax, limit: int | None, text: str, tried: QuickRun | None = None) -> None:
        self.syntax, self.limit, self.text = syntax, limit, text
        self._run: ScriptDealer | None = None
        self._never: ImpossibleSpecError | None = None
        self.counts = Counts.of_script(syntax)
        conditions = fold_conditions(syntax.conditions)
        check_evaluable([*conditions, *syntax.action_nodes()], syntax.actions, syntax.predeals)
        self.selection = Selection(conditions, syntax.predeals, self.counts)
        self.selected: Selected | None = None
        self._tables_took_over = False  # a part's selection gave up: later parts come from the tables at once
        self._selected_so_far = (0, 0)  # the deals kept, and the random deals dealt, by selection in the run
        #: The run tried one deal at a time first, and left (None: not tried).
        self.tried = tried

    @property
    def run(self) -> ScriptDealer:
        """The script's tables and filter, built on first use (:class:`ImpossibleSpecError` when a condition is
        never true: see :attr:`never`)."""
        if self.never is not None:
            raise self.never
        assert self._run is not None
        return self._run

    @property
    def never(self) -> ImpossibleSpecError | None:
        """Why no deal can meet the condition, when building the tables finds it (None: they are built)."""
        if self._run is None and self._never is None:
            from dealer.run.script_dealer import ScriptDealer

            try:
                self._run = ScriptDealer(self.syntax, limit=self.limit, text=self.text, patience=current().patience)
            except ImpossibleSpecError as exc:  # built once: the plan and the count ask again
                self._never = exc
        return self._never

    def counted(self) -> ScriptDealer:
        """The tables ``kibitz count`` counts the condition with: the run's own when they count it exactly, else
        built again as a count builds them (its patience, then tables counted one position at a time)."""
        if self.run.exact:
            return self.run
        from dealer.run.script_dealer import ScriptDealer

        return ScriptDealer(self.syntax, limit=self.limit, text=self.text, patience=current().count_patience,
                            count_only=True)

    def deals(self, produce: int, generate: int, rng: np.random.Generator, later: int = 0) -> tuple[np.ndarray, int]:
        """``produce`` deals from at most ``generate`` random deals, as ``dealer`` gives them; and how many it
        generated. ``later``: the deals the run wants after these (it is dealt in parts)."""
        head, used = np.zeros((0, 4), dtype=np.uint64), 0
        if not self.selection.solves and not self._tables_took_over:
            self.selected = self.selection.select(produce, generate, rng, most=current().select_deals, later=later,
                                                  before=self._selected_so_far)
            kept_before, used_before = self._selected_so_far
            self._selected_so_far = (kept_before + len(self.selected.deals), used_before + self.selected.used)
            if self.selected.finished:
                return self.selected.deals, self.selected.used
            self._tables_took_over = True
            head, used = self.selected.deals, self.selected.used
        if self.never is not None:  # a condition never true: dealer would generate them all and keep none
            return head, generate
        rest, generated = self.run.produce(produce - len(head), generate - used, rng)
        return np.concatenate([head, rest]), used + generated

    def plan(self) -> Plan:
        """The plan followed: deal and select, or the tables' (with the ways tried first as steps)."""
        tried = () if self.tried is None else (Step("one deal at a time", self.tried.left),)
        chosen = self.selected
        if chosen is not None:
            how = "{:,} of {:,} random deals kept".format(*self._selected_so_far)
            if chosen.finished:
                return Plan("deal and select", False, selection=how, steps=tried)
            first = Step("deal and select", f"left, {how}: the rate predicts more than the budget's select_deals "
                                            f"({current().select_deals:,}) random deals")
        else:
            first = Step("deal and select", "not tried: the condition asks the double-dummy solver")
        if self.never is not None:
            return Plan("deal and select", True, selection=f"none: {self.never}", steps=(*tried, first))
        plan = self.run.plan
        return dataclasses.replace(plan, steps=(*tried, first, *plan.steps))


class _Writer:
    """A run's actions done part by part, as ``dealer`` does them on the whole run: the actions that print each
    deal deal by deal, in the script's order within a deal; at the end the others (``average``,
    ``frequency``, ``print``...) in the script's order, from their tallies (:mod:`dealer.run.tallies`) or,
    for those that need every deal at once (``print``, ``evalcontract``), from the deals kept (then the run is
    one part)."""

    def __init__(self, syntax: ScriptSyntax, out: TextIO, counts: Counts, rng: np.random.Generator, quiet: bool,
                 source: str, seed_value: int | None) -> None:
        self.syntax, self.out, self.counts, self.rng = syntax, out, counts, rng
        self.source, self.seed_value = source, seed_value
        self.actions, self.each = actions_of(syntax, quiet)
        self.tallies = {id(a): tally_for(a) for a in self.actions if not any(a is b for b in self.each)}
        #: Some action needs every deal at once: the run is one part, its deals kept.
        self.whole = any(t is None for t in self.tallies.values())
        self.kept: np.ndarray | None = None  # the run's deals, when it is one part
        self.written = 0

    def add(self, masks: np.ndarray) -> None:
        """Do the actions on one part's deals (the next ones of the run)."""
        memo: dict[int, np.ndarray] = {}
        solve_for(masks, _strains_solved(self.syntax, self.actions))  # every action's strains, in one solve
        try:
            self._write_each(masks, memo)
            for tally in self.tallies.values():
                if tally is not None:
                    tally.add(masks, self.counts, memo, self.rng)
            if self.whole:
                self.kept = masks
            else:
                forget_solved()  # a part's tables are not kept past it
        except BaseException:
            forget_solved()
            raise
        self.written += len(masks)

    def finish(self) -> None:
        """Write the run's reports."""
        try:
            for action in self.actions:
                tally = self.tallies.get(id(action))
                if tally is not None:
                    self.out.write(tally.text(self.counts))
                elif id(action) in self.tallies:
                    assert self.kept is not None
                    self.out.write(_run_text(action, self.kept))
        finally:
            forget_solved()  # the produced deals' tables are not kept past the run

    def _write_each(self, masks: np.ndarray, memo: dict[int, np.ndarray]) -> None:
        """The per-deal actions on one part, a batch at a time (memory stays bounded)."""
        each, syntax = self.each, self.syntax
        if not each:  # statistics alone: nothing to print deal by deal
            return
        values = {id(a): _deal_values(a, masks, self.counts, memo, self.rng) for a in each}
        for first in range(0, len(masks), _BATCH):
            batch = masks[first:first + _BATCH]
            if len(each) == 1:  # the common case: one block of text for the batch
                self.out.write(_deal_text(each[0], batch, first, self.written + first, values[id(each[0])], syntax,
                                          self.source, self.seed_value))
                continue
            for i in range(len(batch)):
                self.out.write("".join(_deal_text(a, batch[i:i + 1], first + i, self.written + first + i,
                                                  values[id(a)], syntax, self.source, self.seed_value) for a in each))


def _strains_solved(syntax: ScriptSyntax, actions: Sequence[object]) -> str:
    """The strains the actions' double-dummy values read: ``tricks`` and ``par`` in their expressions, the
    strain of ``evalcontract``, all five for ``evaltable`` and a report's ``trix``."""
    found = set(strains_read(syntax.action_nodes()))
    for a in actions:
        if isinstance(a, EvalContract):
            found.add(a.strain)
        elif isinstance(a, EvalTable) or isinstance(a, Report) and any(isinstance(i, (DoubleDummyRow, ParContract))
                                                                      for i in a.items):
            found.update(STRAINS)
    return "".join(s for s in STRAINS if s in found)


def _deal_values(action: object, masks: np.ndarray, counts: Counts, memo: dict[int, np.ndarray],
                 rng: np.random.Generator) -> list[np.ndarray | None]:
    """The values a per-deal action prints, on every deal: one array (or None) per item."""
    if isinstance(action, PrintES):
        return [None if isinstance(item, str) else evaluate(item, masks, counts, memo, rng) for item in action.items]
    if isinstance(action, Report):
        tables = double_dummy_tables(masks, action.pos) if any(isinstance(i, DoubleDummyRow) for i in action.items) \
            else None
        return [evaluate(item, masks, counts, memo, rng) if isinstance(item, Expr) else
                tables if isinstance(item, DoubleDummyRow) else
                np.array(par_contracts(masks, item.vulnerable, action.pos), dtype=object)
                if isinstance(item, ParContract) else None for item in action.items]
    if isinstance(action, Print) and action.expr is not None:  # printcompact EXPR, printoneline EXPR
        return [evaluate(action.expr, masks, counts, memo, rng)]
    return []


def _deal_text(action: object, batch: np.ndarray, first: int, number: int, values: list[np.ndarray | None],
               syntax: ScriptSyntax, source: str, seed_value: int | None) -> str:
    """What a per-deal action prints for the deals ``batch``, the first of which is deal ``first`` (from 0) of
    ``values`` and deal ``number`` (from 0) of the run."""
    part = [None if v is None else v[first:first + len(batch)] for v in values]
    if isinstance(action, PrintES):
        texts = [[item] * len(batch) if v is None else [str(int(x)) for x in v] for item, v in zip(action.items, part)]
        return "".join("".join(row) for row in zip(*texts)) if texts else ""
    if isinstance(action, Report):
        return "".join(row + "\n" for row in report_rows(action.items, part, batch))
    if isinstance(action, Export):
        return "".join(row + "\n" for row in export_rows(action.seats, batch))
    assert isinstance(action, Print)
    if action.kind == "printall":
        return columns_text(batch, tuple(Seat), start=number + 1)
    if action.kind == "printew":
        return columns_text(batch, (Seat.W, Seat.E))
    if action.kind == "printpbn":
        return pbn_text(batch, number + 1, f"Hand simulated by kibitz dealer with file {source}, seed {seed_value}",
                        syntax.dealer, syntax.vulnerable)
    text = compact_text(batch) if action.kind == "printcompact" else oneline_text(batch)
    if not part or part[0] is None:
        return text
    rows = text.splitlines(keepends=True)  # dealer prints EXPR's value after each deal:
    if action.kind == "printcompact":  # on a line of its own after the four hands
        return "".join("".join(rows[4 * i:4 * i + 4]) + f"{int(v)}\n" for i, v in enumerate(part[0]))
    return "".join(rows[i][:-1] + f"{int(v)}\n" for i, v in enumerate(part[0]))  # at the end of the line


def _run_text(action: object, masks: np.ndarray) -> str:
    """What an action that needs every deal of the run at once prints, after the deals."""
    if isinstance(action, Print):  # print(SEATS): the produced deals' hands, page by page
        return pages_text(masks, tuple(sorted(set(action.seats))))  # as dealer: north to west, each seat once
    if isinstance(action, EvalContract):
        return evalcontract_text(action, double_dummy_tricks(masks, action.declarer, action.strain, action.pos))
    assert isinstance(action, EvalTable)
    return evaltable_text(double_dummy_tables(masks, action.pos))


def run_script(syntax: ScriptSyntax, out: TextIO, *, seed: RandomSource = None, produce: int | None = None,
               source: str = "<script>", limit: int | None = None, text: str = "", generate: int | None = None,
               quiet: bool = False, verbose: bool = True, count: bool = False, explain: bool = False,
               quick: "bool | QuickRun" = True) -> CountResult | None:
    """Run a script like ``dealer`` does: produce its deals, do its actions, then print the totals.

    ``produce`` and ``generate`` replace the script's (``dealer -p``, ``-g``; 0, as ``dealer`` reads it: not
    given); without either a run produces 40 deals, or up to its ``generate`` when its actions are
    statistics alone (``average``, ``frequency``, ``bktfreq``); ``quiet`` leaves out the ``printpbn`` action
    (``dealer -q``); ``verbose=False`` leaves out the totals
    (``dealer -v``). The deals come by deal and select while the condition keeps many random deals,
    else from the exact tables (:class:`_Production`); nothing is counted unless ``count`` asks (the
    count is then printed last and returned) or ``explain`` prints the plan (:mod:`dealer.run.plan`). A run
    that wants few random deals is run one deal at a time (:func:`~dealer.run.quick.run_quick`) unless
    ``quick`` is False, or is that way's attempt, left (its caller tried it: the plan says why it was left).
    """
    tried = quick if isinstance(quick, QuickRun) else None
    if quick is True:
        tried = run_quick(syntax, out, seed=seed, produce=produce, generate=generate, quiet=quiet, verbose=verbose,
                          count=count, explain=explain, source=source, limit=limit, text=text)
        if tried.done:
            return tried.count
    start = time.perf_counter()
    production = _Production(syntax, limit, text, tried)
    rng, seed_value = _seeded(syntax, seed)
    generate = given(generate, syntax.generate, "generate") or DEFAULT_GENERATE
    n = given(produce, syntax.produce, "produce") or (DEFAULT_PRODUCE if prints_deals(syntax) else generate)
    check_frequencies(syntax.actions)
    writer = _Writer(syntax, out, production.counts, rng, quiet, source, seed_value)
    check_run_deals(writer.actions, n)
    part = n if writer.whole else current().run_part
    generated = 0
    while True:  # a part at a time: a run without such actions holds run_part deals at most
        want = min(part, n - writer.written)
        masks, used = production.deals(want, generate - generated, rng, later=n - writer.written - want)
        generated += used
        writer.add(masks)
        if len(masks) < want or writer.written >= n or generated >= generate:
            break
    writer.finish()
    if verbose:
        out.write(totals_text(generated, writer.written, seed_value, time.perf_counter() - start))
    if explain:
        out.write(production.plan().text() + "\n")
    if not count:
        return None
    from dealer.run.script_dealer import write_count

    return write_count(production.never if production.never is not None else production.counted(), out, rng)
