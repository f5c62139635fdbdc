"""Exact sampling: layouts drawn from a layout graph in proportion to their exact weights.

A :class:`Sampler` walks a :class:`~inference.exact.graph.LayoutGraph` position by position: from the state
reached, it chooses the next edge in proportion to (group weight x the weight of finishing from
where it leads), then one row of the group in proportion to the row's own weight (its holdings'
weights). Every choice uses integers only: int64 cumulative sums, vectorised over the layouts,
while the weights fit in 63 bits; Python integers beyond. Nothing is rejected.
"""

from __future__ import annotations

import random
from typing import Any, cast

import numpy as np

from dealer import DealerError
from dealer.checks import check_int
from dealer.rng import RandomSource, make_rng

from inference.errors import InconsistentCardsError, InvalidArgumentError
from inference.exact.graph import Flow, LayoutGraph

__all__ = ["Sampler"]


class Sampler:
    """Draws layouts of a graph exactly in proportion to a flow's weights."""

    def __init__(self, graph: LayoutGraph, flow: Flow) -> None:
        self.graph = graph
        self.flow = flow
        self._csr_cache: dict[int, Any] = {}
        self._members_cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray | None] | None] = {}

    def draw(self, n: int, gen: np.random.Generator) -> np.ndarray:
        """``n`` layouts as an ``(n, 4)`` uint64 array of dealt hands (N, E, S, W; known cards included)."""
        fast = self.fast(n, gen)
        return fast if fast is not None else self.python(n, gen)

    def _by_source(self, s: int, dtype: Any) -> tuple[np.ndarray, ...]:
        """Position ``s``'s edges ordered by source state: each edge's share of its state's weight (group weight x
        the weight of finishing from where it leads), their cumulative sums, where each state's edges start and
        end among them, and the edges' groups and destinations; in ``dtype`` (``int64`` or ``object``)."""
        src, grp, dst = self.graph.links[s]
        order = np.argsort(src, kind="stable")
        share = (self.graph.steps[s].group_weight.astype(dtype)[grp] * self.flow.backward[s + 1].astype(dtype)[dst])
        cum = np.cumsum(share[order])
        bounds = np.concatenate([np.zeros(1, dtype=dtype), cum])[
            np.searchsorted(src[order], np.arange(len(self.graph.layers[s]) + 1))]
        return share[order], cum, bounds[:-1], bounds[1:], grp[order], dst[order]

    def _csr(self, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Position ``s``'s edges by source state, with cumulative int64 weights (None if they do not fit)."""
        if s in self._csr_cache:
            return cast("tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None", self._csr_cache[s])
        python = self.flow.backward[s + 1].dtype == object or self.graph.steps[s].group_weight.dtype == object
        _, cum, base, end, grp, dst = self._by_source(s, object if python else np.int64)
        # each layer's sums stay below 2**60 when the flow is int64 (checked when it was formed)
        fits = not python or not len(cum) or cum[-1] < 2 ** 62
        result = (cum.astype(np.int64), base.astype(np.int64), (end - base).astype(np.int64), grp, dst) if fits else None
        self._csr_cache[s] = result
        return result

    def _members(self, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
        """Position ``s``'s rows ordered by group, where each group starts among them, and (weighted rows only)
        their cumulative int64 weights; None if the weights do not fit."""
        if s in self._members_cache:
            return self._members_cache[s]
        step = self.graph.steps[s]
        found: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None
        if step.weight.dtype != object and step.group_weight.dtype != object:
            found = (step.order, step.starts, np.cumsum(step.weight[step.order]) if step.weighted else None)
        self._members_cache[s] = found
        return found

    def fast(self, n: int, gen: np.random.Generator) -> np.ndarray | None:
        """Vectorised exact sampling when every weight fits in 63 bits."""
        tables = [self._csr(s) for s in range(self.graph.depth)]
        members = [self._members(s) for s in range(self.graph.depth)]
        if any(t is None for t in tables) or any(m is None for m in members):
            return None
        hands = np.zeros((n, 4), dtype=np.int64)
        for seat in range(4):
            hands[:, seat] = self.graph.position.known[seat]
        state = np.zeros(n, dtype=np.int64)
        for s in range(self.graph.depth):
            cum, base, totals, grp, dst = tables[s]  # type: ignore[misc]
            r = gen.integers(0, totals[state], dtype=np.int64)
            edge = np.searchsorted(cum, base[state] + r, side="right")
            g = grp[edge]
            state = dst[edge]
            order, starts, mcum = members[s]  # type: ignore[misc]
            step = self.graph.steps[s]
            if mcum is None:  # every row weighs 1: uniform inside the group
                pick = order[starts[g] + gen.integers(0, starts[g + 1] - starts[g], dtype=np.int64)]
            else:  # in proportion to the rows' weights
                before = np.where(starts[g] > 0, mcum[np.maximum(starts[g] - 1, 0)], 0)
                r = gen.integers(0, step.group_weight[g], dtype=np.int64)
                pick = order[np.searchsorted(mcum, before + r, side="right")]
            for i, seat in enumerate(self.graph.seats):
                hands[:, seat] |= step.masks[pick, i] << (13 * self.graph.suits[s])
        return hands.astype(np.uint64)

    def python(self, n: int, gen: np.random.Generator) -> np.ndarray:
        """Exact sampling with Python integers (weights past 63 bits), from a stream seeded by ``gen``.

        Each layout is one integer drawn uniformly below the total weight, read as a path through the graph:
        at each position the edge whose share of the state's weight holds it, then the row of the edge's group
        (the quotient by the weight of finishing from where the edge leads), the remainder carried on; every
        path and choice of rows is met by exactly as many integers as it weighs. Vectorised over the layouts
        (numpy arrays of Python integers)."""
        rng = random.Random(int(gen.integers(0, 2 ** 63)))
        hands = np.zeros((n, 4), dtype=np.int64)
        for seat in range(4):
            hands[:, seat] = self.graph.position.known[seat]
        left = np.array([rng.randrange(self.flow.total) for _ in range(n)], dtype=object)
        state = np.zeros(n, dtype=np.int64)
        for s in range(self.graph.depth):
            share, cum, base, _, grp, dst = self._by_source(s, object)
            key = base[state] + left  # below the state's weight, from where its edges start
            edge = np.searchsorted(cum, key, side="right")
            state = dst[edge]
            within, rest = key - (cum[edge] - share[edge]), self.flow.backward[s + 1].astype(object)[state]
            row, left = within // rest, within % rest  # within the edge's share: row by quotient, rest by remainder
            pick = self._rows(s, grp[edge], row)
            step = self.graph.steps[s]
            for i, seat in enumerate(self.graph.seats):
                hands[:, seat] |= step.masks[pick, i] << (13 * self.graph.suits[s])
        return hands.astype(np.uint64)

    def _rows(self, s: int, group: np.ndarray, row: np.ndarray) -> np.ndarray:
        """The row of each layout's ``group`` at position ``s`` its integer ``row`` (below the group's weight)
        picks: the ``row``-th when every row weighs 1, else the one whose cumulative weight first passes it."""
        step = self.graph.steps[s]
        order, starts = step.order, step.starts
        if not step.weighted:
            return cast(np.ndarray, order[starts[group] + row.astype(np.int64)])
        weights = step.weight.astype(object)[order]
        cum = np.cumsum(weights)
        before = np.concatenate([np.array([0], dtype=object), cum])[starts[group]]
        return cast(np.ndarray, order[np.searchsorted(cum, before + row, side="right")])


#: The most layouts one call returns in memory (draw more in batches with one generator: the stream continues).
MAX_LAYOUTS_AT_ONCE = 1_000_000


def draw_generator(n: int, empty: bool, seed: RandomSource) -> np.random.Generator:
    """The generator for drawing ``n`` layouts from a view, after the checks every view's sampler makes
    (``n`` within :data:`MAX_LAYOUTS_AT_ONCE`, the view not ``empty``, a valid ``seed``)."""
    check_int(n, "the number of layouts", InvalidArgumentError, lo=0, hi=MAX_LAYOUTS_AT_ONCE)
    if empty:
        raise InconsistentCardsError("no layout in this view: it is empty")
    try:
        return make_rng(seed)
    except DealerError as exc:
        raise InvalidArgumentError(str(exc)) from None
