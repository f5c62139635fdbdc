"""What a seat's tables carry beside (shape, one count): a side count, summed suit by suit.

A seat's tables classify its hand by (shape, one count): HCP, or another count of card values
(``controls``, ``aces``, a script's ``pointcount``). Real scripts read more of the same hand: a
second whole-hand count (``hcp(south) >= 10 && losers(south) <= 7``) or features of single suits
inside ``||``, ``!`` or arithmetic with the rest (``(balanced && hcp(east) < 11) || (top4(east,
clubs) < 2 && top4(east, hearts) < 2 && hcp(east) < 8)``). Each such quantity is a
:class:`SideFeature`: a whole-hand count that sums a value per suit holding (``losers``, ``c13``,
the fork's ``ltc``), or a part of the condition that reads one suit's holding only (a condition or a
number). Together they are the seat's :class:`SideCount`: a number that is a sum over the four
suits of a value per holding (the features in mixed radix), so the seat's automaton adds each
suit's value as it reads the suit, and its final state accepts by (class, total): the seat is
still dealt exactly from its tables. A seat may carry several whole-hand counts (``losers`` and
``controls`` beside HCP); one the conditions only compare with constants stops at the largest one it
needs (its ``cap``: every total from there up is one, :meth:`SideCount.add`), and a count may carry what
a condition across seats reads of the seat (:mod:`dealer.spec.cross`).

>>> from dealer.cards.cardset import CardSet
>>> from dealer.lang.evaluate import loser_table
>>> losers = SideCount.count("losers", loser_table())
>>> losers.size, losers.features[0].step, losers.total(CardSet.parse("SAKQ2 HA2 D432 C432").mask)
(13, 1, 7)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from math import gcd, prod
from typing import Callable, cast

import numpy as np

from dealer.arrays import unique_inverse, unique_rows
from dealer.budget import current
from dealer.cards.cardset import SUIT_MASK
from dealer.lang.evaluate import cccc_shape
from dealer.lang.expr import Cond, Expr, HandCount, Hcp, Node, walk_once
from dealer.lang.grid import GRID, FeatureGrid, grid_mask, grid_values
from dealer.spec.holding import HOLDINGS
from dealer.cards.seat import Seat
from dealer.lang.frozen import fields, replace

__all__ = ["SideFeature", "SideCount", "refine_labels", "replace_nodes", "split_by_totals"]


def replace_nodes(node: Node, swap: Callable[[Node], Node | None], memo: dict[int, Node] | None = None) -> Node:
    """``node`` with each subtree for which ``swap(subtree)`` returns a node replaced by it (None: keep).

    A subtree used in several places is looked at once; what does not change stays the same object.
    """
    memo = {} if memo is None else memo
    done = memo.get(id(node))
    if done is not None:
        return done
    new = swap(node)
    if new is None:
        changes: dict[str, object] = {}
        for name in fields(node):
            v = getattr(node, name)
            if isinstance(v, Node):
                w = replace_nodes(v, swap, memo)
                if w is not v:
                    changes[name] = w
            elif isinstance(v, tuple) and v and all(isinstance(x, Node) for x in v):
                items = tuple(replace_nodes(x, swap, memo) for x in v)
                if any(a is not b for a, b in zip(items, v)):
                    changes[name] = items
        new = replace(node, **changes) if changes else node
    memo[id(node)] = new
    return new


@dataclass(frozen=True, eq=False)
class SideFeature:
    """What a :class:`SideCount` carries of one quantity, with its value for each 13-bit holding.

    A whole-hand count has a ``kind`` (``"hcp"`` for the ``hcp(seat)`` nodes, else a
    :class:`~dealer.lang.expr.HandCount` kind such as ``"losers"``), no ``suit``, and ``values`` >= 0
    (one row of 8,192) summed over the four suits: its totals are multiples of :attr:`step` (their
    greatest common divisor). The parts of one suit have that ``suit``, the ``parts`` they stand for
    (each a tuple of equal nodes: conditions or numbers that read only the seat's holding in the
    suit) and one row of values per part; the feature takes one value per distinct column. A whole-hand
    count's ``cap`` (in steps), when given, is where it stops: the conditions compare it only with
    constants below the cap, so every total from the cap up is one (it saturates, :meth:`SideCount.add`).
    """

    values: np.ndarray = field(repr=False)
    kind: str = ""
    suit: int | None = None
    parts: tuple[tuple[Node, ...], ...] = ()
    cap: int | None = None
    #: Row ``i``: the feature's values at its index ``i``.
    levels: np.ndarray = field(init=False, repr=False)
    #: Per holding of its suit (of every suit, for a whole-hand count), its index.
    holding_index: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        values = np.asarray(self.values).astype(np.int64)
        if values.ndim == 1:
            values = values[None, :]
        if values.ndim != 2 or values.shape[1] != HOLDINGS:
            raise ValueError(f"a side feature needs rows of {HOLDINGS} values, got shape {values.shape}")
        if (self.suit is None) != (not self.parts) or (self.parts and len(self.parts) != len(values)):
            raise ValueError("a side feature is a whole-hand count (a kind, no suit) or the parts of one suit "
                             "(a suit, and one row of values per part)")
        if self.suit is None and (len(values) != 1 or (values < 0).any()):
            raise ValueError(f"a whole-hand count needs one row of values >= 0, {self.kind!r} has not")
        object.__setattr__(self, "values", values)
        if self.suit is None:
            step = 0
            for v in np.unique(values):
                step = gcd(step, int(v))
            step = step or 1
            top = 4 * int(values.max()) // step
            top = top if self.cap is None else max(min(top, self.cap), 0)
            object.__setattr__(self, "levels", (np.arange(top + 1) * step)[:, None])
            object.__setattr__(self, "holding_index", np.minimum(values[0] // step, top))
        else:
            levels, inverse = unique_rows(values.T, return_inverse=True)
            object.__setattr__(self, "levels", levels)
            object.__setattr__(self, "holding_index", inverse.reshape(-1))

    @property
    def step(self) -> int:
        """The difference between two totals of a whole-hand count (1 for parts of one suit)."""
        return int(self.levels[1, 0] - self.levels[0, 0]) if self.suit is None and len(self.levels) > 1 else 1

    @property
    def size(self) -> int:
        """How many values (whole-hand totals, or distinct columns of the parts) the feature takes."""
        return len(self.levels)

    def index(self, suit: int) -> np.ndarray:
        """Per holding of ``suit``, what the holding adds to the feature's index."""
        if self.suit is None or suit == self.suit:
            return self.holding_index
        return np.zeros(HOLDINGS, dtype=np.int64)

    def row(self, node: Node, seat: Seat) -> int | None:
        """Which row of the feature ``node`` is (of ``seat``), or None."""
        if self.parts:  # by identity: the nodes the condition holds (a copy of a spec copies both alike)
            return next((i for i, group in enumerate(self.parts) if any(node is n for n in group)), None)
        if self.kind == "hcp":
            return 0 if isinstance(node, Hcp) and node.seat == seat else None
        hit = isinstance(node, HandCount) and node.kind == self.kind and node.suit is None and node.seat == seat
        return 0 if hit else None

    def reads(self, node: Node, seat: Seat) -> bool:
        """True when ``node`` is this feature (of ``seat``)."""
        return self.row(node, seat) is not None


@dataclass(frozen=True, eq=False)
class SideCount:
    """The features a seat's tables carry beside its class, as one total (mixed radix, first feature lowest).

    Raises ValueError past the budget's ``side_totals`` (:mod:`dealer.budget`).
    """

    features: tuple[SideFeature, ...]

    def __post_init__(self) -> None:
        if not self.features:
            raise ValueError("a side count needs a feature")
        if self.size > (most := current().side_totals):
            raise ValueError(f"the side count takes {self.size} totals, more than {most}")

    @classmethod
    def count(cls, kind: str, values: np.ndarray) -> "SideCount":
        """The side count of one whole-hand count."""
        return cls((SideFeature(values, kind=kind),))

    @property
    def kind(self) -> str | None:
        """The whole-hand count it carries, if any."""
        return next((f.kind for f in self.features if f.suit is None), None)

    @property
    def size(self) -> int:
        """How many totals the automaton tells apart."""
        return prod(f.size for f in self.features)

    @cached_property
    def _radices(self) -> list[int]:
        out, r = [], 1
        for f in self.features:
            out.append(r)
            r *= f.size
        return out

    @cached_property
    def increments(self) -> np.ndarray:
        """``out[j, h]``: what the holding ``h`` of suit ``j`` adds to the total."""
        out = np.zeros((4, HOLDINGS), dtype=np.int64)
        for f, r in zip(self.features, self._radices):
            for j in range(4):
                out[j] += f.index(j) * r
        return out

    def total(self, mask: int) -> int:
        """The total of a hand given as a 52-bit mask."""
        inc = self.increments
        out = np.zeros(1, dtype=np.int64)
        for j in range(4):
            out = self.add(out, np.array([inc[j, mask >> (13 * j) & SUIT_MASK]]))
        return int(out[0])

    def add(self, running: np.ndarray, added: np.ndarray) -> np.ndarray:
        """Totals with ``added`` added (numpy broadcasting): digit by digit, each capped count stopping at its
        cap (the other digits never pass their radix: a part of one suit is added once)."""
        out: np.ndarray = np.add(running, added)
        for f, r in zip(self.features, self._radices):
            if f.suit is None and f.cap is not None:
                digit = running // r % f.size + added // r % f.size
                out = out - np.maximum(digit - (f.size - 1), 0) * r
        return out

    def masks(self, cond: Cond, seat: Seat, grid: FeatureGrid = GRID) -> np.ndarray:
        """``out[t, cell]``: whether ``cond`` holds on the class ``cell`` when the total is ``t``.

        Raises :class:`~dealer.errors.UnsupportedSpecError` where the condition reads more than the
        class and the features.
        """
        out = grid_mask(cond, self._widened(cond, seat, np.arange(self.size), grid))
        return np.ascontiguousarray(np.broadcast_to(out, (self.size, grid.size)))

    def values(self, node: Node, seat: Seat, first: int, stop: int, grid: FeatureGrid = GRID
               ) -> tuple[np.ndarray, np.ndarray]:
        """The value of ``node`` (a condition: 0 or 1) on every class for the totals ``first .. stop - 1``, as
        ``table[index[t - first], cell]``: ``table`` has a row for each combination of the levels of the features
        ``node`` reads (one row when it reads none), so it is evaluated once a combination.

        Raises :class:`~dealer.errors.UnsupportedSpecError` where the node reads more than the class and the
        features.
        """
        totals = np.arange(first, stop)
        read = self._read(node, seat)
        key = np.zeros(len(totals), dtype=np.int64)
        for f, r in read:
            key = key * f.size + totals // r % f.size
        _, one, index = unique_inverse(key)
        wide = self._widened(node, seat, totals[one], grid)
        out = grid_values(node, wide) if isinstance(node, Expr) else grid_mask(cast(Cond, node), wide)
        table = np.broadcast_to(out, (out.shape[0] if out.ndim == 2 else 1, grid.size))
        return table, (index if table.shape[0] > 1 else np.zeros(len(totals), dtype=np.intp))

    def combinations(self, node: Node, seat: Seat) -> int:
        """How many combinations of levels the features ``node`` reads may take (1: it reads none): the rows of
        :meth:`values`' table at most."""
        return prod(f.size for f, _ in self._read(node, seat))

    def _read(self, node: Node, seat: Seat) -> list[tuple[SideFeature, int]]:
        """The features ``node`` reads, each with its radix in a total."""
        return [(f, r) for f, r in zip(self.features, self._radices)
                if any(f.row(n, seat) is not None for n in walk_once(node))]

    def _widened(self, node: Node, seat: Seat, totals: np.ndarray, grid: FeatureGrid) -> FeatureGrid:
        """``grid`` with the features ``node`` reads given their values at ``totals`` (a row each)."""
        levels = [totals // r % f.size for f, r in zip(self.features, self._radices)]
        known: dict[int, np.ndarray] = {}
        for n in walk_once(node):
            for f, level in zip(self.features, levels):
                row = f.row(n, seat)
                if row is not None:
                    known[id(n)] = f.levels[level, row][:, None]
                    if f.kind == "cccc":  # the count is the holdings' part and the shape's
                        known[id(n)] = known[id(n)] + np.reshape(cccc_shape(list(grid.lengths)), (1, -1))
        return grid.widened(known)


def refine_labels(labels: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split a seat's class labels by which side totals each class accepts.

    ``labels`` (over the grid, -1 rejected) and ``masks`` (:meth:`SideCount.masks`) give new
    labels over the grid and ``side_map[new label, total]``: the old label where the class
    accepts that total, else -1. Classes that accept no total are rejected.

    >>> new, side_map = refine_labels(np.array([0, 0, 1, -1]), np.array([[1, 1, 0, 1], [0, 1, 1, 1]], dtype=bool))
    >>> new.tolist(), side_map.tolist()
    ([0, 1, 2, -1], [[0, -1], [0, 0], [-1, 1]])
    """
    size = masks.shape[0]
    live = (labels >= 0) & masks.any(axis=0)
    rows = np.concatenate([labels[None, :], masks.astype(np.int32)], axis=0).T[live]
    out = np.full(labels.shape, -1, dtype=np.int32)
    if not len(rows):
        return out, np.full((1, size), -1, dtype=np.int32)
    uniq, inverse = unique_rows(rows, return_inverse=True)
    out[live] = inverse.reshape(-1)
    side_map = np.where(uniq[:, 1:] > 0, uniq[:, :1], -1).astype(np.int32)
    return out, side_map


def split_by_totals(labels: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`refine_labels` where the labels too depend on the total: ``labels[t, cell]`` (-1 rejected).

    The new labels over the grid tell apart the classes whose labels differ at some accepted total;
    ``side_map[new label, total]`` is the label there (-1: rejected).

    >>> new, side_map = split_by_totals(np.array([[0, 0, 1, 2], [3, 0, 1, 2]]), np.array([[1, 1, 0, 0], [1, 1, 1, 0]]))
    >>> new.tolist(), side_map.tolist()
    ([2, 1, 0, -1], [[-1, 1], [0, 0], [0, 3]])
    """
    masks = np.asarray(masks, dtype=bool)
    live = np.flatnonzero(masks.any(axis=0) & (np.broadcast_to(labels, masks.shape) >= 0).any(axis=0))
    out = np.full(masks.shape[1], -1, dtype=np.int32)
    chosen = np.where(masks[:, live], np.broadcast_to(labels, masks.shape)[:, live], -1)
    if not len(live):
        return out, np.full((1, masks.shape[0]), -1, dtype=np.int32)
    uniq, inverse = unique_rows(np.ascontiguousarray(chosen.T), return_inverse=True)
    out[live] = inverse.reshape(-1)
    return out, uniq.astype(np.int32)
