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

>>> from dealer.lang.syntax import parse_condition
>>> j = CrossCondition.build([parse_condition("hcp(north) + hcp(south) >= 25")])
>>> [s.name for s in j.seats], j.accept.shape      # North's HCP 0..24 and "25 or more", South's alike
(['N', 'S'], (26, 26))
>>> joinable(parse_condition("hascard(west, C2) || hcp(east) > 10"))
False
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Mapping, Sequence

import numpy as np

from dealer.arrays import unique_rows
from dealer.budget import current
from dealer.errors import UnsupportedSpecError
from dealer.lang.expr import And, Cond, Expr, Node, walk
from dealer.lang.grid import GRID, SEAT_NODES, GridReader, grid_mask, grid_values
from dealer.lang.interpret import STRUCTURE, Interpreter, Reader, interpret, refusal
from dealer.cards.seat import Seat

__all__ = ["CrossCondition", "joinable"]

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
    def attempt(cls, conditions: Sequence[Cond], within: "Mapping[Seat, np.ndarray | None] | None" = None
                ) -> "CrossCondition | str":
        """:meth:`build`, or why the seats' labels cannot count ``conditions`` (what a planner weighs)."""
        conds = tuple(conditions)
        if not conds:
            return "no condition to count jointly"
        whole: Cond = conds[0] if len(conds) == 1 else And(conds, pos=conds[0].pos)
        parts: dict[Seat, list[Node]] = {}
        unread = _collect(whole, parts)
        if unread:
            return unread
        seats = tuple(sorted(parts))
        raw_labels: list[np.ndarray] = []
        tables: list[np.ndarray] = []
        for seat in seats:
            values = np.stack([_grid_of(p) for p in parts[seat]], axis=1)  # (classes, parts)
            mask = (within or {}).get(seat)
            ok = np.ones(len(values), dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
            table, inverse = unique_rows(values[ok] if ok.any() else values[:1], return_inverse=True)
            raw = np.full(len(values), len(table), dtype=np.int64)  # the last label: outside the seat's classes
            raw[ok] = inverse.reshape(-1)
            raw_labels.append(raw)
            tables.append(table)
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
            labels.append(np.append(mapping, -1)[raw_labels[axis]].astype(np.int32))
        return cls(conds, seats, tuple(labels), accept)

    def label_of(self, seat: Seat, cell: int) -> int:
        """The label of ``seat`` for one class of the grid (a complete hand's)."""
        return int(self.labels[self.seats.index(seat)][cell])

    def __str__(self) -> str:
        return " && ".join(str(c) for c in self.conditions)


def joinable(cond: Cond) -> bool:
    """True when ``cond`` reads two seats or more and :meth:`CrossCondition.build` can table it."""
    return len(cond.seats()) >= 2 and not isinstance(CrossCondition.attempt([cond]), str)


def _collect(node: Node, parts: dict[Seat, list[Node]]) -> str:
    """Gather the largest parts of ``node`` that read one seat each; what is neither part nor joint is named
    (the empty string when every part is read)."""
    if _one_seat(node):
        parts.setdefault(next(iter(node.seats())), []).append(node)
        return ""
    if not node.seats():
        if all(isinstance(n, SEAT_NODES) for n in walk(node)):
            return ""  # a constant: evaluated where it stands
        return f"{node.pos}: {node} cannot be counted across seats"
    if type(node) not in STRUCTURE:
        return str(refusal(node, GridReader(GRID)))
    for child in node.children():
        unread = _collect(child, parts)
        if unread:
            return unread
    return ""


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
