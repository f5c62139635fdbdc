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
from dealer.errors import DealerError, ImpossibleSpecError
from dealer.lang.double_dummy import (
    STRAINS, double_dummy_tables, double_dummy_tricks, forget_solved, lead_names, par_contracts, solve_for,
    strains_read,
)
from dealer.lang.evalcontract import evalcontract_text, evaltable_text
from dealer.lang.evaluate import Counts, evaluate
from dealer.lang.fold import fold_conditions
from dealer.lang.interpret import c_divide
from dealer.lang.expr import Expr
from dealer.lang.actions import (
    Average, BucketFrequency, DoubleDummyRow, EvalContract, EvalTable, Export, Frequency, ParContract, Print,
    PrintES, Report,
)
from dealer.lang.statements import ScriptSyntax
from dealer.rng import RandomSource, make_rng
from dealer.run.plan import Plan, Step
from dealer.run.reports import export_rows, report_rows
from dealer.run.selection import Selected, Selection, check_evaluable

if TYPE_CHECKING:
    from dealer.run.script_dealer import CountResult, ScriptDealer

__all__ = ["run_script", "DEFAULT_PRODUCE", "DEFAULT_GENERATE"]

#: ``dealer``'s defaults: deals produced, and random deals generated at most.
DEFAULT_PRODUCE = 40
DEFAULT_GENERATE = 10_000_000
_BATCH = 65536


def _format_average(label: str | None, value: float) -> str:
    text = f"{value:g}"
    return f"{label}: {text}\n" if label is not None else f"{text}\n"


def _frequency_text(action: Frequency, values: list[np.ndarray]) -> str:
    label = action.label or ""
    out = [f"Frequency {label}:\n"]
    if len(action.axes) == 1:
        (_, low, high), v = action.axes[0], values[0]
        tally = np.bincount(np.clip(v, low - 1, high + 1) - (low - 1), minlength=high - low + 3)  # one pass
        below, above = int(tally[0]), int(tally[-1])
        if below:
            out.append(f"Low\t{below:8d}\n")
        for x in range(low, high + 1):
            out.append(f"{x:5d}\t{int(tally[x - low + 1]):8d}\n")
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


def _per_deal(values: np.ndarray) -> np.ndarray:
    """A value per deal: one per lead becomes its mean over the leads, truncated (as a number in the fork)."""
    return np.asarray(c_divide(values.sum(axis=0), values.shape[0])) if values.ndim > 1 else values


def _lead_frequency_text(action: Frequency, values: np.ndarray, leads: list[str]) -> str:
    """The suokko fork's frequency of a value per opening lead: a row per value (Low and High beyond the
    bounds), a column per lead, with sums."""
    (_, low, high), = action.axes
    rows = np.clip(values, low - 1, high + 1) - (low - 1)  # rows[lead, deal]
    grid = np.zeros((high - low + 3, len(leads)), dtype=np.int64)
    for k in range(len(leads)):
        np.add.at(grid[:, k], rows[k], 1)
    out = [f"Frequency {action.label or ''}:\n", "    " + "".join(f"{n:>7}" for n in [*leads, "Sum"]) + "\n"]
    names = ["Low "] + [f"{x:4d}" for x in range(low, high + 1)] + ["High"]
    for name, row in zip(names, grid):
        if row.any():  # as the fork: the rows no deal reaches are left out
            out.append(name + "".join(f"{int(c):7d}" for c in row) + f"{int(row.sum()):7d}\n")
    out.append("Sum " + "".join(f"{int(c):7d}" for c in grid.sum(axis=0)) + f"{int(grid.sum()):7d}\n\n")
    return "".join(out)


def _buckets(values: np.ndarray, low: int, high: int, size: int) -> tuple[np.ndarray, list[int]]:
    """Each value's bucket of ``bktfreq``: 0 below ``low`` (Low), then one per ``size`` from ``low`` (the
    last starts at ``high``), then High; and the data buckets' names (their first values)."""
    n = 3 + (high - low) // size
    index = np.where(values < low, 0, np.minimum((values - low) // size + 1, n - 1))
    return index, [low + (i - 1) * size for i in range(1, n - 1)]


def _average_shown(action: Average, mean: float, masks: np.ndarray, counts: Counts) -> bool:
    """Whether an average is printed: always, or where its filter holds with ``avg`` the mean in millionths."""
    if action.filter is None or action.avg is None:
        return True
    ppm = int(mean * 1_000_000) if mean == mean else 0  # C's conversion truncates toward zero
    deal = masks[:1] if len(masks) else np.array([[0x1FFF << 13 * k for k in range(4)]], dtype=np.uint64)
    known = {id(action.avg): np.array([ppm], dtype=np.int64)}  # the filter reads avg from evaluate's memo
    return bool(evaluate(action.filter, deal, counts, known)[0])


def bucket_text(action: BucketFrequency, values: list[np.ndarray]) -> str:
    """The report of ``bktfreq`` as dealer version 2 prints it (a count, a share and, in 1-D, its running total).

    >>> from dealer.lang.expr import Const
    >>> text = bucket_text(BucketFrequency("x", ((Const(0), 10, 14, 2),)), [np.array([9, 10, 11, 12, 15, 17])])
    >>> print(text.replace(chr(9), "|"))  # tabs shown as |
    <BLANKLINE>
    Description: x
    Value|   Count|    Pct.|  CumPct
    Low|       1|   16.67|   16.67
       10|       2|   33.33|   50.00
       12|       1|   16.67|   66.67
       14|       1|   16.67|   83.33
    High|       1|   16.67|  100.00
        |--------
    Total|       6|  100.00
    <BLANKLINE>
    """
    label = action.label or ""
    total = len(values[0])
    if len(action.axes) == 1:
        (_, low, high, size), = action.axes
        index, names = _buckets(values[0], low, high, size)
        counts = np.bincount(index, minlength=len(names) + 2).tolist()
        rows = [("Low", counts[0])] * bool(counts[0]) + [(f"{name:5d}", c) for name, c in zip(names, counts[1:-1])]
        rows += [("High", counts[-1])] * bool(counts[-1])
        out = [f"\nDescription: {label}\n", "Value\t   Count\t    Pct.\t  CumPct\n"]
        running = 0
        for name, count in rows:
            running += count
            out.append(f"{name}\t{count:8d}\t{_pct(count, total):8.2f}\t{_pct(running, total):8.2f}\n")
        out.append(f"    \t--------\nTotal\t{total:8d}\t{_pct(total, total):8.2f}\n")
        return "".join(out)
    (_, low1, high1, size1), (_, low2, high2, size2) = action.axes
    down, names1 = _buckets(values[0], low1, high1, size1)
    across, names2 = _buckets(values[1], low2, high2, size2)
    grid = np.zeros((len(names1) + 2, len(names2) + 2), dtype=np.int64)
    np.add.at(grid, (down, across), 1)
    out = [f"\nDescription: {label} \n", "           Low" + "".join(f" {n:8d}" for n in names2) + "     High    Sum\n"]
    for name, row in zip([" Low "] + [f"{n:4d} " for n in names1] + ["High "], grid):
        out.append(name + "".join(f" {int(c):8d}" for c in row) + f" {int(row.sum()):8d}\n")
    out.append("Sum  " + "".join(f" {int(c):8d}" for c in grid.sum(axis=0)) + f" {int(grid.sum()):8d}\n")
    return "".join(out)


def _pct(count: int, total: int) -> float:
    return 100.0 * count / total if total else 0.0


def _seeded(syntax: ScriptSyntax, seed: RandomSource) -> tuple[np.random.Generator, int | None]:
    """The generator of a run, and the seed it prints (``dealer``'s: the script's, else a fresh one)."""
    if isinstance(seed, int) or seed is None:
        seed_value = seed if seed is not None else syntax.seed
        if seed_value is None:
            seed_value = int(np.random.SeedSequence().entropy % (1 << 31))  # type: ignore[operator]
        return make_rng(seed_value), seed_value
    return make_rng(seed), None


class _Production:
    """A run's deals: by deal and select while the condition keeps many random deals, else from the tables."""

    def __init__(self, syntax: ScriptSyntax, limit: int | None, text: str) -> None:
        self.syntax, self.limit, self.text = syntax, limit, text
        self._run: ScriptDealer | None = None
        self._never: ImpossibleSpecError | None = None
        self.counts = Counts.of_script(syntax)
        conditions = fold_conditions(syntax.conditions)
        check_evaluable([*conditions, *syntax.action_nodes()], syntax.actions, syntax.predeals)
        self.selection = Selection(conditions, syntax.predeals, self.counts)
        self.selected: Selected | None = None

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

    def deals(self, produce: int, generate: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        """``produce`` deals from at most ``generate`` random deals, as ``dealer`` gives them; and how many it
        generated."""
        if not self.selection.solves:
            self.selected = self.selection.select(produce, generate, rng, most=current().select_deals)
            if self.selected.finished:
                return self.selected.deals, self.selected.used
        head = self.selected.deals if self.selected is not None else np.zeros((0, 4), dtype=np.uint64)
        used = self.selected.used if self.selected is not None else 0
        if self.never is not None:  # a condition never true: dealer would generate them all and keep none
            return head, generate
        rest, generated = self.run.produce(produce - len(head), generate - used, rng)
        return np.concatenate([head, rest]), used + generated

    def plan(self) -> Plan:
        """The plan followed: deal and select, or the tables' (with the selection tried first as a step)."""
        chosen = self.selected
        if chosen is not None:
            how = f"{len(chosen.deals):,} of {chosen.used:,} random deals kept"
            if chosen.finished:
                return Plan("deal and select", False, selection=how)
            first = Step("deal and select", f"left, {how}: the rate predicts more than the budget's select_deals "
                                            f"({current().select_deals:,}) random deals")
        else:
            first = Step("deal and select", "not tried: the condition asks the double-dummy solver")
        if self.never is not None:
            return Plan("deal and select", True, selection=f"none: {self.never}", steps=(first,))
        plan = self.run.plan
        return dataclasses.replace(plan, steps=(first, *plan.steps))


def _do_actions(syntax: ScriptSyntax, masks: np.ndarray, out: TextIO, counts: Counts, rng: np.random.Generator,
                quiet: bool, source: str, seed_value: int | None) -> None:
    """Do the script's actions on the deals produced (``printall`` when it has none), as ``dealer`` does: the
    actions that print each deal (``printall``, ``printes``, ``printrpt``...) deal by deal, in the script's
    order within a deal, then the others (``average``, ``frequency``, ``print``...) in the script's order."""
    memo: dict[int, np.ndarray] = {}
    actions = [a for a in syntax.actions or [Print("printall")]
               if not (isinstance(a, Print) and quiet and a.kind in ("printall", "printpbn"))]  # dealer -q
    each = [a for a in actions if isinstance(a, (PrintES, Report, Export)) or isinstance(a, Print) and a.kind != "print"]
    solve_for(masks, _strains_solved(syntax, actions))  # every action's double-dummy strains, in one solve
    try:
        _write_actions(syntax, actions, each, masks, out, counts, memo, rng, source, seed_value)
    finally:
        forget_solved()  # the produced deals' tables are not kept past the run


def _write_actions(syntax: ScriptSyntax, actions: Sequence[object], each: Sequence[object], masks: np.ndarray,
                   out: TextIO, counts: Counts, memo: dict[int, np.ndarray], rng: np.random.Generator, source: str,
                   seed_value: int | None) -> None:
    """The per-deal actions deal by deal, then the run's actions (:func:`_do_actions`)."""
    values = {id(a): _deal_values(a, masks, counts, memo, rng) for a in each}
    for first in range(0, len(masks), _BATCH):  # a batch at a time: memory stays bounded
        batch = masks[first:first + _BATCH]
        if len(each) == 1:  # the common case: one block of text for the batch
            out.write(_deal_text(each[0], batch, first, values[id(each[0])], syntax, source, seed_value))
            continue
        for i in range(len(batch)):
            out.write("".join(_deal_text(a, batch[i:i + 1], first + i, values[id(a)], syntax, source, seed_value)
                              for a in each))
    for action in actions:
        if not any(action is a for a in each):
            out.write(_run_text(action, masks, counts, memo, rng))


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


def _deal_text(action: object, batch: np.ndarray, first: int, values: list[np.ndarray | None],
               syntax: ScriptSyntax, source: str, seed_value: int | None) -> str:
    """What a per-deal action prints for the deals ``batch``, the first of which is deal ``first`` (from 0)."""
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
        return columns_text(batch, tuple(Seat), start=first + 1)
    if action.kind == "printew":
        return columns_text(batch, (Seat.W, Seat.E))
    if action.kind == "printpbn":
        return pbn_text(batch, first + 1, f"Hand simulated by kibitz dealer with file {source}, seed {seed_value}",
                        syntax.dealer, syntax.vulnerable)
    text = compact_text(batch) if action.kind == "printcompact" else oneline_text(batch)
    if not part or part[0] is None:
        return text
    rows = text.splitlines(keepends=True)  # dealer prints EXPR's value after each deal:
    if action.kind == "printcompact":  # on a line of its own after the four hands
        return "".join("".join(rows[4 * i:4 * i + 4]) + f"{int(v)}\n" for i, v in enumerate(part[0]))
    return "".join(rows[i][:-1] + f"{int(v)}\n" for i, v in enumerate(part[0]))  # at the end of the line


def _run_text(action: object, masks: np.ndarray, counts: Counts, memo: dict[int, np.ndarray],
              rng: np.random.Generator) -> str:
    """What an action that reports on the whole run prints, after the deals."""
    if isinstance(action, Print):  # print(SEATS): the produced deals' hands, page by page
        return pages_text(masks, action.seats)
    if isinstance(action, Average):
        values = evaluate(action.expr, masks, counts, memo, rng, per_lead=True)
        if len(masks):  # a value per lead: each deal's mean over the leads, as a double
            mean = float((values.mean(axis=0) if values.ndim > 1 else values).mean())
        else:
            mean = float("nan")
        return _format_average(action.label, mean) if _average_shown(action, mean, masks, counts) else ""
    if isinstance(action, BucketFrequency):
        return bucket_text(action, [evaluate(axis[0], masks, counts, memo, rng) for axis in action.axes])
    if isinstance(action, Frequency):
        columns = [evaluate(axis[0], masks, counts, memo, rng, per_lead=True) for axis in action.axes]
        if len(columns) == 1 and columns[0].ndim > 1:
            return _lead_frequency_text(action, columns[0], lead_names(action.axes[0][0], masks))
        return _frequency_text(action, [_per_deal(v) for v in columns])
    if isinstance(action, EvalContract):
        return evalcontract_text(action, double_dummy_tricks(masks, action.declarer, action.strain, action.pos))
    assert isinstance(action, EvalTable)
    return evaltable_text(double_dummy_tables(masks, action.pos))


def _check_frequencies(actions: Sequence[object]) -> None:
    """Refuse a ``frequency`` whose bounds are reversed or whose table passes the budget's ``frequency_cells``."""
    for action in actions:
        if not isinstance(action, Frequency):
            continue
        cells = 1
        for _, low, high in action.axes:
            if high < low:
                raise DealerError(f"{action.pos}: frequency: the high bound {high} is below the low bound {low}")
            cells *= high - low + 3
        if cells > current().frequency_cells:
            raise DealerError(f"{action.pos}: frequency: a table of {cells:,} cells, more than the budget's "
                              f"frequency_cells ({current().frequency_cells:,}); narrow its bounds")


def run_script(syntax: ScriptSyntax, out: TextIO, *, seed: RandomSource = None, produce: int | None = None,
               source: str = "<script>", limit: int | None = None, text: str = "", generate: int | None = None,
               quiet: bool = False, verbose: bool = True, count: bool = False, explain: bool = False
               ) -> CountResult | None:
    """Run a script like ``dealer`` does: produce its deals, do its actions, then print the totals.

    ``produce`` and ``generate`` replace the script's (``dealer -p``, ``-g``); ``quiet`` leaves out the
    ``printall`` and ``printpbn`` actions (``dealer -q``); ``verbose=False`` leaves out the totals
    (``dealer -v``). The deals come by deal and select while the condition keeps many random deals,
    else from the exact tables (:class:`_Production`); nothing is counted unless ``count`` asks (the
    count is then printed last and returned) or ``explain`` prints the plan (:mod:`dealer.run.plan`).
    """
    start = time.perf_counter()
    production = _Production(syntax, limit, text)
    rng, seed_value = _seeded(syntax, seed)
    n = produce if produce is not None else (syntax.produce if syntax.produce is not None else DEFAULT_PRODUCE)
    if generate is None:
        generate = syntax.generate if syntax.generate is not None else DEFAULT_GENERATE
    if n < 0:
        raise DealerError(f"invalid produce {n}: expected a number of deals >= 0")
    if n > current().run_deals:
        raise DealerError(f"produce {n:,}: a run keeps its deals in memory (some 80 bytes each) and may produce at "
                          f"most {current().run_deals:,} (the budget's run_deals); run it in parts with other seeds")
    _check_frequencies(syntax.actions)
    if generate < 0:
        raise DealerError(f"invalid generate {generate}: expected a number of deals >= 0")
    masks, generated = production.deals(n, generate, rng)
    _do_actions(syntax, masks, out, production.counts, rng, quiet, source, seed_value)
    if verbose:
        out.write(f"Generated {generated} hands\nProduced {len(masks)} hands\nInitial random seed {seed_value}\n"
                  f"Time needed {time.perf_counter() - start:8.3f} sec\n")
    if explain:
        out.write(production.plan().text() + "\n")
    if not count:
        return None
    if production.never is not None:
        from dealer.run.script_dealer import CountResult as Result

        result = Result(True, 0, 0.0, 0.0, 0.0, 0)
        out.write(f"impossible: {production.never}\n")
    else:
        result = production.run.count(seed=rng)
        if result.exact and result.deals == 0:
            out.write(f"impossible: {production.run.dealer.explain_empty()}\n")
    out.write(f"{result.text()}\n")
    return result
