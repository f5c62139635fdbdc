"""Conditions across seats, counted exactly: per-seat labels and a joint acceptance at the end of the tables.

A condition such as ``hcp(north) + hcp(south) >= 25``, ``spades(north) + spades(south) >= 8`` or
``hcp(east) > hcp(west)`` relates seats, so no seat's table can hold it alone. But each of its
*parts* that reads one seat (``hcp(north)``, ``spades(south)``, ``shape(west, any 4333)``) is a
function of that seat's (shape, HCP) class, which the seat's table already reads. So each seat's
table *labels* its final states with the values of its parts (only as finely as the condition
needs: two values of ``hcp(north)`` that give the same verdict against every value of the other
seats share a label), and the joint count accepts a joint final state only where the condition
holds on its labels (:class:`CrossCondition`, used by :class:`~dealer.tables.exact.ExactDealer`'s
``across``). The backward count and the decoding sampler are the dealer's own, so the count is
exact (a Python int) and every deal meeting the condition is drawn with the same chance.

A part may read more of its seat than the class (``hascard(west, C2)``, ``hcp(south, spades)``,
``losers(east)``: the leveling code of the bidding-practice scripts, their total-points formulas) when
the seat's side count carries it (:mod:`dealer.spec.sidecount`; ``sides``): the seat's labels then run
over (total, class) pairs, and its tables split their final states by total as they do for the seat's
own conditions.

>>> from dealer.lang.syntax import parse_condition
>>> j = CrossCondition.build([parse_condition("hcp(north) + hcp(south) >= 25")])
>>> [s.name for s in j.seats], j.accept.shape      # North's HCP 0..24 and "25 or more", South's alike
(['N', 'S'], (26, 26))
>>> joinable(parse_condition("hascard(west, C2) || hcp(east) > 10"))
False
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from math import prod
from typing import Callable, Mapping, Sequence

import numpy as np

from dealer.arrays import unique_inverse, unique_rows
from dealer.budget import current
from dealer.errors import UnsupportedSpecError
from dealer.spec.sidecount import SideCount
from dealer.lang.expr import And, Cond, Expr, Node, walk
from dealer.lang.grid import GRID, SEAT_NODES, GridReader, grid_mask, grid_values
from dealer.lang.interpret import STRUCTURE, Interpreter, Reader, interpret, refusal
from dealer.cards.seat import Seat

__all__ = ["CrossCondition", "grid_reads", "joinable", "seat_parts"]

def _one_seat(node: Node) -> bool:
    """True when ``node`` reads one seat and the seat's (shape, HCP) classes determine it."""
    return len(node.seats()) == 1 and all(isinstance(n, SEAT_NODES) for n in walk(node))


@dataclass(frozen=True)
class CrossCondition:
    """Conditions across seats as per-seat labels and a joint acceptance over them.

    ``seats``: the seats the conditions read (in seat order); ``labels[i]``: for seat ``seats[i]``,
    its label on every class of :data:`~dealer.lang.grid.GRID` (-1: no deal of the others can make the
    conditions hold with this class); ``accept``: a boolean array with one axis per seat, true
    where the conditions hold for those labels.
    """

    conditions: tuple[Cond, ...]
    seats: tuple[Seat, ...]
    labels: tuple[np.ndarray, ...]
    accept: np.ndarray
    #: Per seat, how many totals of its side count its labels tell apart: 1, its labels are over the grid's
    #: classes; else over (total, class), total-major (a part reads the side count's features).
    totals: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.totals:
            object.__setattr__(self, "totals", (1,) * len(self.seats))

    @classmethod
    def build(cls, conditions: Sequence[Cond], within: "Mapping[Seat, np.ndarray | None] | None" = None
              ) -> "CrossCondition":
        """The labels and the acceptance of ``conditions`` (joined by ``&&``).

        ``within``: per seat, the classes of the grid its own conditions accept (a boolean mask;
        None: all); the others get no label, which keeps the joint acceptance small.

        Raises :class:`~dealer.errors.UnsupportedSpecError` when a part reads something the seats'
        classes do not determine (``hascard``, ``hcp(seat, suit)``, ``controls``...) or the joint
        acceptance would exceed the budget's ``label_cells`` (:mod:`dealer.budget`).
        """
        found = cls.attempt(conditions, within)
        if isinstance(found, str):
            raise UnsupportedSpecError(found)
        return found

    @classmethod
    def attempt(cls, conditions: Sequence[Cond], within: "Mapping[Seat, np.ndarray | None] | None" = None,
                sides: "Mapping[Seat, SideCount | None] | None" = None) -> "CrossCondition | str":
        """:meth:`build`, or why the seats' labels cannot count ``conditions`` (what a planner weighs).

        ``sides``: per seat, the side count its tables carry (:mod:`dealer.spec.sidecount`); a seat's part may
        then read its features too (a suit's HCP, a card, ``losers``...), and its labels run over the totals
        and the classes (``within`` may then be given over both).
        """
        conds = tuple(conditions)
        if not conds:
            return "no condition to count jointly"
        whole: Cond = conds[0] if len(conds) == 1 else And(conds, pos=conds[0].pos)
        parts: dict[Seat, list[Node]] = {}
        sides = sides or {}
        unread = _collect(whole, parts, frozenset(s for s, side in sides.items() if side is not None))
        if unread:
            return unread
        parts = {seat: list({id(p): p for p in found}.values()) for seat, found in parts.items()}  # a part used twice
        seats = tuple(sorted(parts))
        raw_labels: list[np.ndarray] = []
        tables: list[np.ndarray] = []
        totals: list[int] = []
        for seat in seats:
            side = sides.get(seat) if not all(_one_seat(p) for p in parts[seat]) else None
            found = _seat_labels(parts[seat], seat, side, (within or {}).get(seat))
            if isinstance(found, str):
                return found
            raw_labels.append(found[0])
            tables.append(found[1])
            totals.append(1 if side is None else side.size)
        shape = tuple(len(t) for t in tables)
        if prod(shape) > (most := current().label_cells):
            return (f"{whole.pos}: {whole}: the seats' parts take {' x '.join(map(str, shape))} joint values, beyond "
                    f"{most:,}")
        leaf: dict[int, np.ndarray] = {}
        for axis, seat in enumerate(seats):
            for j, p in enumerate(parts[seat]):
                view = [1] * len(seats)
                view[axis] = shape[axis]
                leaf[id(p)] = tables[axis][:, j].reshape(view)
        accept = interpret(whole, _LabelReader(leaf, shape), dtype=bool, only_shared=True)  # the rest freed early
        labels = []
        for axis in range(len(seats)):
            accept, mapping = _merge_axis(accept, axis)
            labels.append(np.append(mapping, -1).astype(np.int32)[raw_labels[axis]])
            raw_labels[axis] = np.zeros(0, dtype=np.int32)  # freed as it is read
        return cls(conds, seats, tuple(labels), accept, tuple(totals))

    def label_of(self, seat: Seat, cell: int, total: int = 0) -> int:
        """The label of ``seat`` for one class of the grid (a complete hand's) and its side count's total."""
        axis = self.seats.index(seat)
        return int(self.labels[axis][(total if self.totals[axis] > 1 else 0) * GRID.size + cell])

    def grid_labels(self, seat: Seat) -> np.ndarray:
        """``seat``'s labels as ``out[total, cell]`` (one row when they do not depend on its side count)."""
        axis = self.seats.index(seat)
        return self.labels[axis].reshape(self.totals[axis], GRID.size)

    def __str__(self) -> str:
        return " && ".join(str(c) for c in self.conditions)


def joinable(cond: Cond) -> bool:
    """True when ``cond`` reads two seats or more and :meth:`CrossCondition.build` can table it."""
    return len(cond.seats()) >= 2 and not isinstance(CrossCondition.attempt([cond]), str)


def _collect(node: Node, parts: dict[Seat, list[Node]], sided: frozenset[Seat] = frozenset(),
             memo: "_Memo | None" = None) -> str:
    """Gather the largest parts of ``node`` that read one seat each (of a seat in ``sided``, whatever they read:
    its side count may carry it); what is neither part nor joint is named (the empty string when every part is
    read). A subtree met twice is looked at once."""
    memo = _Memo() if memo is None else memo
    if id(node) in memo.visited:
        return ""
    memo.visited.add(id(node))
    seats = memo.seats(node)
    if len(seats) == 1 and (next(iter(seats)) in sided or memo.grid_only(node)):
        parts.setdefault(next(iter(seats)), []).append(node)
        return ""
    if not seats:
        if memo.grid_only(node):
            return ""  # a constant: evaluated where it stands
        return f"{node.pos}: {node} cannot be counted across seats"
    if type(node) not in STRUCTURE:
        return str(refusal(node, GridReader(GRID)))
    for child in node.children():
        unread = _collect(child, parts, sided, memo)
        if unread:
            return unread
    return ""


class _Memo:
    """What :func:`_collect` learns of each subtree (by ``id``): the seats it reads, whether the grid reads it."""

    def __init__(self) -> None:
        self.visited: set[int] = set()
        self._seats: dict[int, frozenset[Seat]] = {}
        self._grid: dict[int, bool] = {}

    def seats(self, node: Node) -> frozenset[Seat]:
        """The seats ``node`` reads."""
        found = self._seats.get(id(node))
        if found is None:
            found = node.seats() if not node.children() else frozenset().union(*map(self.seats, node.children()))
            self._seats[id(node)] = found
        return found

    def grid_only(self, node: Node) -> bool:
        """Whether every node of ``node`` is one the grid reads."""
        found = self._grid.get(id(node))
        if found is None:
            found = isinstance(node, SEAT_NODES) and all(map(self.grid_only, node.children()))
            self._grid[id(node)] = found
        return found


def grid_reads(node: Node) -> bool:
    """True when the grid of (shape, HCP) classes reads every node of ``node``."""
    return _Memo().grid_only(node)


def seat_parts(node: Node) -> dict[Seat, list[Node]]:
    """The largest parts of a condition across seats that read one seat each, by seat."""
    parts: dict[Seat, list[Node]] = {}
    _collect(node, parts, frozenset(Seat))
    return parts


#: About how many (total, class) pairs a seat's labels are found for at once (memory).
_CHUNK = 1 << 21


def _seat_labels(parts: list[Node], seat: Seat, side: "SideCount | None", within: np.ndarray | None
                 ) -> tuple[np.ndarray, np.ndarray] | str:
    """A seat's raw labels over its classes (and side totals) and each label's values of the parts; the last
    label stands for the classes outside ``within``. Found a few totals at a time, a part at a time (memory)."""
    size = 1 if side is None else side.size
    ok_all = np.ones(size * GRID.size, dtype=bool) if within is None else np.asarray(within, dtype=bool)
    if ok_all.ndim == 2 and side is None:
        ok_all = np.asarray(ok_all.any(axis=0))
    ok_all = np.broadcast_to(ok_all.reshape(-1, GRID.size), (size, GRID.size)).reshape(-1)
    if not ok_all.any():  # no class of the seat's: one label, outside
        return np.full(size * GRID.size, 1, dtype=np.int64), np.zeros((1, len(parts)), dtype=np.int64)

    whole: dict[int, tuple[np.ndarray, np.ndarray] | None] = {}  # the parts' values over every total, where small

    def column(p: Node, first: int, stop: int, cells: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """Part ``p``'s values on some (total, class) cells of the totals ``first .. stop - 1`` (rows, columns)."""
        if side is None:
            picked: np.ndarray = _grid_of(p)[cells[1]]
            return picked
        if id(p) not in whole:  # a part's table over every total is kept when small (found once)
            small = side.combinations(p, seat) * GRID.size <= _CHUNK
            whole[id(p)] = side.values(p, seat, 0, size) if small else None
        kept = whole[id(p)]
        table, index = side.values(p, seat, first, stop) if kept is None else (kept[0], kept[1][first:stop])
        picked = table[0][cells[1]] if table.shape[0] == 1 else table[index[cells[0]], cells[1]]
        return picked

    step = max(1, _CHUNK // GRID.size)
    raw = np.full(size * GRID.size, -1, dtype=np.int32)  # each chunk's own labels, then the seat's
    found: list[tuple[int, int, np.ndarray]] = []  # (first cell, last cell + 1, table) of each chunk
    try:
        for first in range(0, size, step):
            stop = min(size, first + step)
            lo, hi = first * GRID.size, stop * GRID.size
            rows = np.flatnonzero(ok_all[lo:hi])
            if len(rows):
                cells = np.divmod(rows, GRID.size)
                label, table = _chunk_labels(len(rows), [partial(column, p, first, stop, cells) for p in parts])
                raw[lo + rows] = label
                found.append((lo, hi, table))
    except UnsupportedSpecError as exc:
        return str(exc)
    table, inverse = unique_rows(np.concatenate([t for *_, t in found]), return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.int32)
    offset = 0
    for lo, hi, t in found:  # a chunk's labels become the seat's, in place
        chunk = raw[lo:hi]
        live = chunk >= 0
        chunk[live] = inverse[offset + chunk[live]]
        offset += len(t)
    raw[raw < 0] = len(table)  # outside ``within``
    return raw, table


def _chunk_labels(cells: int, columns: "list[Callable[[], np.ndarray]]") -> tuple[np.ndarray, np.ndarray]:
    """Labels of ``cells`` cells by their parts' values (``columns``, each read once): each cell's label (int32)
    and each label's values of the parts. The labels are refined a part at a time, packed while they fit an
    int64."""
    label, span = np.zeros(cells, dtype=np.int64), 1
    kept = []  # each part's values, narrow, for the table
    for column in columns:
        values = column().astype(np.int64, copy=False)
        low, high = int(values.min()), int(values.max())
        width = high - low + 1
        kept.append(values.astype(np.result_type(np.min_scalar_type(low), np.min_scalar_type(high))))
        if span * width >= 1 << 62:
            label, span, _ = _renumbered(label)
            if span * width >= 1 << 62:
                label, span, _ = _renumbered(unique_rows(np.stack([label, values], axis=1),
                                                         return_inverse=True)[1].reshape(-1))
                continue
        label, span = label * width + (values - low), span * width
        del values
    label, _, one = _renumbered(label)  # ``one``: a cell of each label (they agree on every part)
    return label.astype(np.int32), np.stack([v[one].astype(np.int64) for v in kept], axis=1)


def _renumbered(keys: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """``keys`` numbered 0.. in their order, how many there are, and a place of each."""
    distinct, place, inverse = unique_inverse(keys)
    return inverse.astype(np.int64), len(distinct), place


def _grid_of(part: Node) -> np.ndarray:
    """A one-seat part's value on every class of the grid (conditions as 0/1)."""
    if isinstance(part, Expr):
        return grid_values(part, GRID)
    assert isinstance(part, Cond)
    return grid_mask(part, GRID).astype(np.int64)


class _LabelReader(Reader):
    """Reads the seats' parts over the joint labels: part ``p`` of the seat on axis ``i`` varies along axis ``i``
    (``leaf[id(p)]``, broadcast over the others); the structure joins them."""

    phrase = GridReader.phrase

    def __init__(self, leaf: dict[int, np.ndarray], shape: tuple[int, ...]) -> None:
        self.leaf = leaf
        self.shape = shape

    def read(self, node: Node, run: Interpreter) -> np.ndarray | None:
        """A part's values over its seat's labels, else None."""
        return self.leaf.get(id(node))


def _merge_axis(accept: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Merge the labels of one axis whose slices are equal; drop those never accepted (-1).

    Returns the smaller acceptance and the map from old labels to new ones.
    """
    moved = np.moveaxis(accept, axis, 0)
    rows = moved.reshape(moved.shape[0], -1)
    live = rows.any(axis=1)
    mapping = np.full(len(rows), -1, dtype=np.int64)
    if not live.any():
        return np.moveaxis(np.zeros((1,) + moved.shape[1:], dtype=bool), 0, axis), mapping
    uniq, inverse = unique_rows(rows[live], return_inverse=True)
    mapping[live] = inverse.reshape(-1)
    merged = uniq.reshape((len(uniq),) + moved.shape[1:])
    return np.moveaxis(merged, 0, axis), mapping
