"""The run's reports (``average``, ``frequency``, ``bktfreq``) as tallies added to part by part.

A long run is dealt in parts (the budget's ``run_part`` deals at a time, :mod:`dealer.run.runner`), so
what an action reports on the whole run is kept as a sum over the parts: an average's total, a
frequency's counts by value, a bucket frequency's counts by bucket. The text is ``dealer``'s (and
the forks') whatever the number of parts. A run of few deals, dealt one at a time without numpy
(:mod:`dealer.run.quick`), adds its deals one by one (``add_deal``): the tallies are Python ints, and
numpy is imported only to add a part of many deals.

>>> import numpy as np
>>> from dealer.lang.expr import Const
>>> tally = BucketTally(BucketFrequency("x", ((Const(0), 10, 14, 2),)))
>>> tally.count([np.array([9, 10, 11])]); tally.count([np.array([12, 15])]); tally.add_deal([17])
>>> print(tally.text().replace(chr(9), "|"))  # tabs shown as |
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

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, Union

from dealer.lang.actions import Average, BucketFrequency, Frequency
from dealer.lang.interpret import c_divide

if TYPE_CHECKING:
    import numpy as np

    from dealer.lang.evaluate import Counts

__all__ = ["AverageTally", "FrequencyTally", "BucketTally", "Tally", "tally_for"]

#: A table of counts: a row (one axis), or rows of rows (two axes, or values by opening lead).
Grid = list[Any]


def _clip(value: int, low: int, high: int) -> int:
    """A value's row of a frequency: 0 below ``low`` (Low), then one per value, then High."""
    return min(max(value, low - 1), high + 1) - (low - 1)


def _per_deal(values: "np.ndarray") -> "np.ndarray":
    """A value per deal: one per lead becomes its mean over the leads, truncated (as a number in the fork)."""
    import numpy as np

    return np.asarray(c_divide(values.sum(axis=0), values.shape[0])) if values.ndim > 1 else values


def _zeros(shape: Sequence[int]) -> Grid:
    return [0] * shape[0] if len(shape) == 1 else [_zeros(shape[1:]) for _ in range(shape[0])]


def _merge(grid: Grid, part: Grid) -> None:
    """Add ``part`` (a grid of the same shape) into ``grid``."""
    for i, cell in enumerate(part):
        if isinstance(cell, list):
            _merge(grid[i], cell)
        else:
            grid[i] += cell


def _total(grid: Grid) -> int:
    return sum(_total(row) if isinstance(row, list) else row for row in grid)


def _column_sums(grid: Grid) -> list[int]:
    return [sum(column) for column in zip(*grid)]


def _counted(shape: Sequence[int], index: tuple["np.ndarray", ...]) -> Grid:
    """The counts of a part's cells (one index array per axis), as a grid."""
    import numpy as np

    part = np.zeros(tuple(shape), dtype=np.int64)
    np.add.at(part, index, 1)
    out: Grid = part.tolist()
    return out


class AverageTally:
    """``average [label] EXPR``: the sum of the values (a deal's mean over the leads where it has one per lead)."""

    def __init__(self, action: Average) -> None:
        self.action = action
        self.total = 0.0
        self.deals = 0
        self.first: "np.ndarray | None" = None  # a deal the filter's ``avg`` is evaluated on

    def add(self, masks: "np.ndarray", counts: "Counts", memo: dict[int, "np.ndarray"],
            rng: "np.random.Generator") -> None:
        """Add one part's deals."""
        import numpy as np

        from dealer.lang.evaluate import evaluate

        if not len(masks):
            return
        values = evaluate(self.action.expr, masks, counts, memo, rng, per_lead=True)
        per_deal = values.mean(axis=0) if values.ndim > 1 else values
        self.total += float(np.add.reduce(per_deal, dtype=np.float64))
        self.deals += len(masks)
        if self.first is None:
            self.first = masks[:1].copy()

    def add_deal(self, values: Sequence[int]) -> None:
        """Add one deal, by the value of the expression on it."""
        self.total += values[0]
        self.deals += 1

    def text(self, counts: "Counts | None" = None) -> str:
        """The average as ``dealer`` prints it (nothing where its filter says so)."""
        mean = self.total / self.deals if self.deals else float("nan")
        if not self._shown(mean, counts):
            return ""
        label = self.action.label
        return f"{label}: {mean:g}\n" if label is not None else f"{mean:g}\n"

    def _shown(self, mean: float, counts: "Counts | None") -> bool:
        """Whether it is printed: always, or where its filter holds with ``avg`` the mean in millionths."""
        action = self.action
        if action.filter is None or action.avg is None:
            return True
        import numpy as np

        from dealer.lang.evaluate import STANDARD, evaluate

        ppm = int(mean * 1_000_000) if mean == mean else 0  # C's conversion truncates toward zero
        deal = self.first if self.first is not None else np.array([[0x1FFF << 13 * k for k in range(4)]],
                                                                  dtype=np.uint64)
        known = {id(action.avg): np.array([ppm], dtype=np.int64)}  # the filter reads avg from evaluate's memo
        return bool(evaluate(action.filter, deal, counts or STANDARD, known)[0])


class FrequencyTally:
    """``frequency``: counts by value (one axis), by pair of values (two), or by value and opening lead."""

    def __init__(self, action: Frequency) -> None:
        self.action = action
        self.shape = tuple(high - low + 3 for _, low, high in action.axes)
        self.grid: Grid | None = None
        self.leads: list[str] | None = None  # a value per opening lead: the leads' names (the columns)

    def add(self, masks: "np.ndarray", counts: "Counts", memo: dict[int, "np.ndarray"],
            rng: "np.random.Generator") -> None:
        """Add one part's deals."""
        import numpy as np

        from dealer.lang.double_dummy import lead_names
        from dealer.lang.evaluate import evaluate

        if not len(masks) and self.grid is not None:  # an empty last part: nothing to count (nor leads to name)
            return
        axes = self.action.axes
        columns = [evaluate(axis[0], masks, counts, memo, rng, per_lead=True) for axis in axes]
        if len(columns) == 1 and columns[0].ndim > 1:  # the suokko fork's frequency per opening lead
            if self.leads is None:
                self.leads = lead_names(axes[0][0], masks)
            rows = np.clip(columns[0], axes[0][1] - 1, axes[0][2] + 1) - (axes[0][1] - 1)  # rows[lead, deal]
            leads = np.broadcast_to(np.arange(len(self.leads))[:, None], rows.shape)
            part = _counted((self.shape[0], len(self.leads)), (rows.ravel(), leads.ravel()))
        else:
            bins = tuple(np.clip(_per_deal(v), low - 1, high + 1) - (low - 1) for v, (_, low, high) in zip(columns, axes))
            part = _counted(self.shape, bins)
        if self.grid is None:
            self.grid = part
        else:
            _merge(self.grid, part)

    def add_deal(self, values: Sequence[int]) -> None:
        """Add one deal, by the values of the axes' expressions on it."""
        if self.grid is None:
            self.grid = _zeros(self.shape)
        cells = [_clip(v, low, high) for v, (_, low, high) in zip(values, self.action.axes)]
        if len(cells) == 1:
            self.grid[cells[0]] += 1
        else:
            self.grid[cells[0]][cells[1]] += 1

    def text(self, counts: "Counts | None" = None) -> str:
        """The frequency table as ``dealer`` prints it (and the fork, per opening lead)."""
        axes = self.action.axes
        grid = self.grid if self.grid is not None else _zeros(self.shape)
        label = self.action.label or ""
        if self.leads is not None:
            return _lead_text(label, self.action.axes[0], grid, self.leads)
        out = [f"Frequency {label}:\n"]
        if len(axes) == 1:
            (_, low, high), = axes
            if grid[0]:
                out.append(f"Low\t{grid[0]:8d}\n")
            for x in range(low, high + 1):
                out.append(f"{x:5d}\t{grid[x - low + 1]:8d}\n")
            if grid[-1]:
                out.append(f"High\t{grid[-1]:8d}\n")
            return "".join(out)
        (_, l1, h1), (_, l2, h2) = axes
        names2 = ["Low"] + [str(x) for x in range(l2, h2 + 1)] + ["High", "Sum"]
        out.append("    " + "".join(f"{n:>7}" for n in names2) + "\n")
        names1 = ["Low "] + [f"{x:4d}" for x in range(l1, h1 + 1)] + ["High"]
        for name, row in zip(names1, grid):  # " %6d" as dealer: a space between counts of a million and more
            out.append(name + "".join(f" {c:6d}" for c in row) + f" {sum(row):6d}\n")
        out.append("Sum " + "".join(f" {c:6d}" for c in _column_sums(grid)) + f" {_total(grid):6d}\n\n")
        return "".join(out)


def _lead_text(label: str, axis: tuple[object, int, int], grid: Grid, leads: list[str]) -> str:
    """The suokko fork's frequency of a value per opening lead: a row per value (Low and High beyond the
    bounds), a column per lead, with sums."""
    _, low, high = axis
    out = [f"Frequency {label}:\n", "    " + "".join(f"{n:>7}" for n in [*leads, "Sum"]) + "\n"]
    names = ["Low "] + [f"{x:4d}" for x in range(low, high + 1)] + ["High"]
    for name, row in zip(names, grid):
        if any(row):  # as the fork: the rows no deal reaches are left out
            out.append(name + "".join(f"{c:7d}" for c in row) + f"{sum(row):7d}\n")
    out.append("Sum " + "".join(f"{c:7d}" for c in _column_sums(grid)) + f"{_total(grid):7d}\n\n")
    return "".join(out)


def _bucket(value: int, low: int, high: int, size: int) -> int:
    """A value's bucket of ``bktfreq``: 0 below ``low`` (Low), then one per ``size`` from ``low`` (the last
    starts at ``high``), then High."""
    return 0 if value < low else min((value - low) // size + 1, 2 + (high - low) // size)


def _pct(count: int, total: int) -> float:
    return 100.0 * count / total if total else 0.0


class BucketTally:
    """``bktfreq`` of dealer version 2: counts by bucket (one axis) or by pair of buckets (two)."""

    def __init__(self, action: BucketFrequency) -> None:
        self.action = action
        self.names = [[low + i * size for i in range(1 + (high - low) // size)] for _, low, high, size in action.axes]
        self.grid = _zeros([len(n) + 2 for n in self.names])

    def add(self, masks: "np.ndarray", counts: "Counts", memo: dict[int, "np.ndarray"],
            rng: "np.random.Generator") -> None:
        """Add one part's deals."""
        from dealer.lang.evaluate import evaluate

        self.count([evaluate(axis[0], masks, counts, memo, rng) for axis in self.action.axes])

    def count(self, values: "list[np.ndarray]") -> None:
        """Add the values of some deals, one array per axis."""
        import numpy as np

        index = tuple(np.where(v < low, 0, np.minimum((v - low) // size + 1, 2 + (high - low) // size))
                      for v, (_, low, high, size) in zip(values, self.action.axes))
        _merge(self.grid, _counted([len(n) + 2 for n in self.names], index))

    def add_deal(self, values: Sequence[int]) -> None:
        """Add one deal, by the values of the axes' expressions on it."""
        cells = [_bucket(v, low, high, size) for v, (_, low, high, size) in zip(values, self.action.axes)]
        if len(cells) == 1:
            self.grid[cells[0]] += 1
        else:
            self.grid[cells[0]][cells[1]] += 1

    def text(self, counts: "Counts | None" = None) -> str:
        """The report as dealer version 2 prints it (a count, a share and, in 1-D, its running total)."""
        label = self.action.label or ""
        grid = self.grid
        if len(self.names) == 1:
            total = _total(grid)
            tally = grid
            rows = [("Low", tally[0])] * bool(tally[0]) + [(f"{n:5d}", c) for n, c in zip(self.names[0], tally[1:-1])]
            rows += [("High", tally[-1])] * bool(tally[-1])
            out = [f"\nDescription: {label}\n", "Value\t   Count\t    Pct.\t  CumPct\n"]
            running = 0
            for name, count in rows:
                running += count
                out.append(f"{name}\t{count:8d}\t{_pct(count, total):8.2f}\t{_pct(running, total):8.2f}\n")
            out.append(f"    \t--------\nTotal\t{total:8d}\t{_pct(total, total):8.2f}\n")
            return "".join(out)
        names1, names2 = self.names
        out = [f"\nDescription: {label} \n", "           Low" + "".join(f" {n:8d}" for n in names2) + "     High    Sum\n"]
        for name, row in zip([" Low "] + [f"{n:4d} " for n in names1] + ["High "], grid):
            out.append(name + "".join(f" {c:8d}" for c in row) + f" {sum(row):8d}\n")
        out.append("Sum  " + "".join(f" {c:8d}" for c in _column_sums(grid)) + f" {_total(grid):8d}\n")
        return "".join(out)


#: A run-level report kept part by part.
Tally = Union[AverageTally, FrequencyTally, BucketTally]


def tally_for(action: object) -> Tally | None:
    """The tally of a run-level action that is a sum over the deals (None: the action needs every deal at once)."""
    if isinstance(action, Average):
        return AverageTally(action)
    if isinstance(action, BucketFrequency):
        return BucketTally(action)
    if isinstance(action, Frequency):
        return FrequencyTally(action)
    return None
