"""The joint count over tracked seats, and exact sampling from it.

Given the layered automata of the *tracked* seats (those with constraints)
and whether a *pool* of unconstrained seats exists, :class:`DenseTables`
computes, for every free card position ``t`` and every joint state of the
tracked seats, the exact (weighted) number of ways to place the remaining
free cards: ``B[t]``, a dense k-dimensional array with one zero "dead" slot
appended on each axis (so a -1 transition reads 0).

``B[t] = sum over destinations d of w_d * B[t+1][next_d(state)]`` where a
destination is a tracked seat taking card ``t`` or the pool taking it. The
values are Python-exact: int64 while they provably fit, numpy object
(Python ints) beyond.

Sampling walks the cards forward; at each card every sample picks its
destination with probability ``w_d * B[t+1][next_d] / B[t][state]``,
drawn exactly: a bounded uniform integer (int64 layers), or, for layers whose
counts exceed 64 bits, a 64-bit uniform compared with exact precomputed
boundaries, any tie settled with further random bits in exact arithmetic.
No rejection, no floating point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from dealer.tables.automaton import SeatAutomaton
from dealer.arrays import INT64_LIMIT
from dealer.budget import current
from dealer.errors import SpecLimitError
from dealer.tables.reach import Reach, StreamedTables, exactly, in_pass, object_weights, reach, stream_within

__all__ = ["BACKENDS", "dense_cells", "dense_refusal", "DenseTables", "CompactTables", "make_tables", "bounded_uniform"]

#: The tables' backends: ``auto`` takes the dense tables when they fit the limit, else the compact ones; ``streamed``
#: counts one position at a time and keeps nothing (:func:`~dealer.tables.reach.stream_within`).
BACKENDS = ("auto", "dense", "compact", "streamed")

_TWO64 = 1 << 64


@dataclass
class _Layer:
    """Sampling aids for one position whose counts exceed int64."""

    bounds: np.ndarray  # (cells, D-1) uint64: floor(2**64 * cum_d / total)
    exact: np.ndarray  # (cells, D-1) bool: the floor was exact


class _Tracked:
    """What both table backends know of the tracked seats: their automata, the free cards, the destinations."""

    def _track(self, automata: Sequence[SeatAutomaton], n: int, pool: bool,
               final: np.ndarray | None = None) -> None:
        self.automata = list(automata)
        self.k = len(self.automata)
        self.n = n
        self.pool = pool
        self.n_dest = self.k + (1 if pool else 0)
        shape = tuple(a.size[n] for a in self.automata) if self.automata and self.automata[0].n == n else ()
        if final is not None and final.shape != shape:
            raise ValueError(f"the final acceptance has shape {final.shape}, expected {shape}")
        #: Which joint final states count (None: all of them): a joint condition across seats.
        self.final = final

    def total(self) -> int:
        """The number of completions from the start (defined by each backend)."""
        raise NotImplementedError  # pragma: no cover

    def _destinations(self, count: int) -> np.ndarray:
        """The ``(n, count)`` destinations array, every card to the pool; refuses an empty table."""
        if self.k and count and self.total() == 0:
            raise ValueError("cannot sample from an empty table")
        return np.full((self.n, count), self.k, dtype=np.int8)


class DenseTables(_Tracked):
    """Backward counts ``B[t]`` over the joint states of the tracked seats.

    ``automata``: the tracked seats' automata (all over the same free cards);
    ``pool``: whether unconstrained seats can take any free card.
    """

    def __init__(self, automata: Sequence[SeatAutomaton], n: int, pool: bool,
                 limit: int | None = None, backward: bool = True, final: np.ndarray | None = None) -> None:
        self._track(automata, n, pool, final)
        for a in self.automata:
            if a.n != n:
                raise ValueError("all automata must read the same free cards")
        self.shapes = [tuple(a.size[t] + 1 for a in self.automata) for t in range(n + 1)]
        cells = dense_cells(self.automata, n)
        limit = current().tables if limit is None else limit
        if cells > limit:
            raise SpecLimitError(dense_refusal(self.automata, cells, limit))
        self.cells = cells
        self.backward: list[np.ndarray] = [np.zeros(0)] * (n + 1)
        self.big: dict[int, _Layer] = {}
        if self.k and backward:
            self._build()

    # -- the backward pass ----------------------------------------------------
    def _moves(self: DenseTables | CompactTables, t: int, d: int) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        idx = []
        wts = []
        for i, a in enumerate(self.automata):
            if i == d:
                idx.append(a.next1[t])
                wts.append(a.weight1[t])
            else:
                idx.append(a.next0[t])
                wts.append(a.weight0[t])
        return idx, wts

    def _gather(self, nxt: np.ndarray, t: int, d: int) -> np.ndarray:
        idx, wts = self._moves(t, d)
        g: np.ndarray = nxt[np.ix_(*idx)]
        for axis, w in enumerate(wts):
            if w is not None:
                shape = [1] * self.k
                shape[axis] = len(w)
                g = g * w.reshape(shape).astype(g.dtype)
        return g

    def _max_weight(self: DenseTables | CompactTables, t: int, d: int) -> int:
        _, wts = self._moves(t, d)
        out = 1
        for w in wts:
            if w is not None and len(w):
                out *= int(w.max())
        return out

    def _build(self) -> None:
        n = self.n
        final = np.zeros(self.shapes[n], dtype=np.int64)
        inner = tuple(slice(0, s - 1) for s in self.shapes[n])
        final[inner] = 1 if self.final is None else self.final.astype(np.int64)
        self.backward[n] = final
        for t in range(n - 1, -1, -1):
            nxt = self.backward[t + 1]
            dests = range(self.n_dest)
            if nxt.dtype != object:
                top = int(nxt.max()) if nxt.size else 0
                bound = top * sum(self._max_weight(t, d) for d in dests)
                if bound >= INT64_LIMIT:
                    nxt = nxt.astype(object)
            parts = [self._gather(nxt, t, d) for d in dests]
            total = parts[0]
            for p in parts[1:]:
                total = total + p
            table = np.zeros(self.shapes[t], dtype=total.dtype)
            table[tuple(slice(0, s) for s in total.shape)] = total
            self.backward[t] = table
            if table.dtype == object:
                self.big[t] = self._bounds(parts, total)

    def _bounds(self, parts: list[np.ndarray], total: np.ndarray) -> _Layer:
        flat = _compact_bounds([p.ravel() for p in parts], total.ravel())
        cells_padded = int(np.prod(self._padded(total.shape)))
        full_b = np.zeros((cells_padded, flat.bounds.shape[1]), dtype=np.uint64)
        full_e = np.ones_like(full_b, dtype=bool)
        flat_idx = np.ravel_multi_index(np.indices(total.shape).reshape(self.k, -1), self._padded(total.shape))
        full_b[flat_idx] = flat.bounds
        full_e[flat_idx] = flat.exact
        return _Layer(full_b, full_e)

    @staticmethod
    def _padded(shape: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(s + 1 for s in shape)

    # -- results --------------------------------------------------------------
    def total(self) -> int:
        """The weighted number of ways to place all free cards (move weights only)."""
        if not self.k:
            return 1
        return int(self.backward[0][(0,) * self.k])

    def forward_final(self) -> np.ndarray:
        """Weighted number of ways to reach each final joint state (unpadded object array), exactly.

        A forward pass, one position at a time, kept in two exact-enough forms: uint64 (the value
        modulo 2**64, wrapping) and float64 (within a relative 1e-12 of it); together they give the
        exact value below 2**99, which every unweighted count of deals is (52!/(13!)**4 < 2**96). Past
        it (weighted deals), or with weights past 64 bits, the pass is made again in Python integers.
        """
        if not self.k:
            return np.ones((), dtype=object)
        return exactly(self._forward, object_weights(self.automata))

    def _forward(self, dtypes: tuple[np.dtype, ...]) -> list[np.ndarray]:
        """The forward pass in each of ``dtypes`` (see :meth:`forward_final`)."""
        start = tuple(s - 1 for s in self.shapes[0])
        now = []
        for dtype in dtypes:
            first = np.zeros(start, dtype=dtype)
            first[(0,) * self.k] = 1
            now.append(first)
        for t in range(self.n):
            target = tuple(s - 1 for s in self.shapes[t + 1])
            new = [np.zeros(target, dtype=dtype) for dtype in dtypes]
            for d in range(self.n_dest):
                idx, wts = self._moves(t, d)
                for j, dtype in enumerate(dtypes):
                    a = now[j]
                    for axis, w in enumerate(wts):
                        if w is not None:
                            shape = [1] * self.k
                            shape[axis] = len(w)
                            a = a * w.reshape(shape).astype(dtype)
                    for axis in range(self.k):
                        a = _scatter_axis(a, idx[axis], target[axis], axis)
                    new[j] += a
            now = new
        return now

    def _prepare_sampling(self) -> None:
        """Per position and seat: padded next states and their flat offsets in ``B[t+1]``."""
        self._nx: list[list[tuple[np.ndarray, np.ndarray]]] = []
        self._off: list[list[tuple[np.ndarray, np.ndarray]]] = []
        for t in range(self.n):
            shape = self.shapes[t + 1]
            strides = [int(np.prod(shape[i + 1:])) for i in range(self.k)]
            nx_t, off_t = [], []
            for i, a in enumerate(self.automata):
                pad = a.size[t + 1]
                n0 = np.where(a.next0[t] >= 0, a.next0[t], pad).astype(np.int64)
                n1 = np.where(a.next1[t] >= 0, a.next1[t], pad).astype(np.int64)
                nx_t.append((n0, n1))
                off_t.append((n0 * strides[i], n1 * strides[i]))
            self._nx.append(nx_t)
            self._off.append(off_t)
        self._flat = [tbl.ravel() for tbl in self.backward]

    def sample(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """Destinations of every free card for ``count`` independent samples.

        Returns an int8 array ``(n, count)`` (card-major): the tracked seat's
        position in ``automata``, or ``k`` for the pool.

        Where the counts fit in 63 bits, one uniform integer ``R`` below the
        state's count is drawn per sample and then *decoded* card by card
        (as Pavlicek decodes a deal number): the destination is the option
        whose share of the count holds ``R``, and ``R`` minus the shares
        before it is uniform below that option's count. Earlier positions,
        whose counts are larger, draw exactly with 64-bit boundaries.
        """
        n, k = self.n, self.k
        dest = self._destinations(count)
        if not k or count == 0:
            return dest
        if not hasattr(self, "_nx"):
            self._prepare_sampling()
        state = [np.zeros(count, dtype=np.int64) for _ in range(k)]
        remainder: np.ndarray | None = None
        for t in range(n):
            nx_t, off_t = self._nx[t], self._off[t]
            part0 = [off_t[i][0][state[i]] for i in range(k)]
            base = part0[0]
            for p in part0[1:]:
                base = base + p
            table = self._flat[t + 1]
            values = []
            move_weights = []
            for d in range(self.n_dest):
                flat = base if d == k else base - part0[d] + off_t[d][1][state[d]]
                v = table[flat]
                _, wts = self._moves(t, d)
                w_total = None
                for i, w in enumerate(wts):
                    if w is not None:
                        wi = w[state[i]].astype(np.int64)
                        w_total = wi if w_total is None else w_total * wi
                if w_total is not None:
                    v = v * w_total.astype(v.dtype)
                values.append(v)
                move_weights.append(w_total)
            if t in self.big:
                choice = self._choose_big(t, state, values, rng)
            else:
                choice, remainder = _decode_choice(values, move_weights, remainder, rng)
            dest[t] = choice
            for i in range(k):
                n0, n1 = nx_t[i]
                state[i] = np.where(choice == i, n1[state[i]], n0[state[i]])
        return dest

    def _choose_big(self, t: int, state: list[np.ndarray], values: list[np.ndarray],
                    rng: np.random.Generator) -> np.ndarray:
        flat = np.ravel_multi_index(state, self.shapes[t])
        return _choose_with_bounds(self.big[t], flat, values, rng)


def _scatter_axis(values: np.ndarray, mapping: np.ndarray, size: int, axis: int) -> np.ndarray:
    """Sum the slices of ``values`` along ``axis`` into ``size`` slots by ``mapping`` (-1: dropped).

    Done as a few gathers: the first source of every target, then the second
    source of the targets that have two, and so on (merges are rare).
    """
    keep = np.nonzero(mapping >= 0)[0]
    shape = list(values.shape)
    shape[axis] = size
    out = np.zeros(shape, dtype=values.dtype)
    if not len(keep):
        return out
    targets = mapping[keep]
    order = np.argsort(targets, kind="stable")
    tgt, src = targets[order], keep[order]
    group_start = np.concatenate([[True], tgt[1:] != tgt[:-1]])
    first_of_group = np.maximum.accumulate(np.where(group_start, np.arange(len(tgt)), 0))
    rank = np.arange(len(tgt)) - first_of_group
    moved_out = np.moveaxis(out, axis, 0)
    moved_in = np.moveaxis(values, axis, 0)
    for j in range(int(rank.max()) + 1):
        sel = rank == j
        if j == 0:
            moved_out[tgt[sel]] = moved_in[src[sel]]
        else:
            moved_out[tgt[sel]] += moved_in[src[sel]]
    return out


def bounded_uniform(rng: np.random.Generator, high: np.ndarray) -> np.ndarray:
    """Exact uniform integers in ``[0, high)`` for each entry of ``high`` (1 <= high < 2**32).

    Lemire's multiply-shift with its rejection step, vectorised: a draw is
    redrawn with probability below ``high / 2**32``, so the loop ends at once.
    """
    high = high.astype(np.uint64)
    out = np.empty(len(high), dtype=np.uint64)
    todo = np.arange(len(high))
    threshold = (np.uint64(1 << 32) - high) % high
    while len(todo):
        r = rng.integers(0, 1 << 32, size=len(todo), dtype=np.uint64)
        prod = r * high[todo]
        low = prod & np.uint64(0xFFFFFFFF)
        ok = low >= threshold[todo]
        out[todo[ok]] = prod[ok] >> np.uint64(32)
        todo = todo[~ok]
    return out


def _exact_choice(first_word: int, weights: list[int], rng: np.random.Generator) -> int:
    """Choose ``i`` with probability ``weights[i] / sum``, given the first 64 random bits.

    The uniform number u is read 64 bits at a time until the interval it lies
    in no longer straddles a boundary ``cum_i / total``: exact, and it needs
    more than one extra word with probability about 2**-64.
    """
    total = sum(weights)
    u = first_word
    scale = _TWO64
    while True:
        cum = 0
        for i, w in enumerate(weights):
            cum += w
            if (u + 1) * total <= cum * scale:
                return i
            if u * total < cum * scale:
                break  # straddles this boundary: read more bits
        else:  # pragma: no cover - u < 1 so the last boundary always decides
            return len(weights) - 1
        u = u * _TWO64 + int(rng.integers(0, np.iinfo(np.uint64).max, dtype=np.uint64, endpoint=True))
        scale *= _TWO64


class CompactTables(_Tracked):
    """The same counts as :class:`DenseTables`, over *reachable* joint states only.

    Where the seats' states are strongly correlated (several seats drawing
    from the same cards, the HCP of each bounded), the dense product of the
    seats' states is mostly unreachable. This backend enumerates, position
    by position, the joint states reachable from the start (as mixed-radix
    keys), links each to its successors, and counts backward over those only.
    """

    def __init__(self, automata: Sequence[SeatAutomaton], n: int, pool: bool,
                 limit: int | None = None, backward: bool = True, final: np.ndarray | None = None,
                 reached: Reach | None = None) -> None:
        self._track(automata, n, pool, final)
        self.big: dict[int, _Layer] = {}
        found = reached or reach(self.automata, n, pool, current().tables if limit is None else limit)
        self.next: list[np.ndarray] = found.next  # per position: (n_dest, states) int32, -1 dead
        self.weights: list[list[np.ndarray | None]] = found.weights
        self.sizes: list[int] = found.sizes
        self.final_keys: np.ndarray = found.final_keys
        self.cells = found.cells
        self.backward: list[np.ndarray] = []
        if backward and self.k:  # no tracked seat (a dead spec is given none): nothing to count jointly
            self._build()

    _moves = DenseTables._moves
    _max_weight = DenseTables._max_weight

    def _build(self) -> None:
        n = self.n
        tables: list[np.ndarray] = [np.zeros(0)] * (n + 1)
        tables[n] = (np.ones(self.sizes[n], dtype=np.int64) if self.final is None
                     else self.final.reshape(-1)[self.final_keys].astype(np.int64))
        for t in range(n - 1, -1, -1):
            nxt_vals = tables[t + 1]
            if nxt_vals.dtype != object:
                top = int(nxt_vals.max()) if nxt_vals.size else 0
                if top * sum(self._max_weight(t, d) for d in range(self.n_dest)) >= INT64_LIMIT:
                    nxt_vals = nxt_vals.astype(object)
            padded = np.append(nxt_vals, np.zeros(1, dtype=nxt_vals.dtype))
            parts = []
            for d in range(self.n_dest):
                v = padded[self.next[t][d]]
                w = self.weights[t][d]
                if w is not None:
                    v = v * (w if w.dtype == object else w.astype(v.dtype))
                parts.append(v)
            total = parts[0]
            for p in parts[1:]:
                total = total + p
            tables[t] = total
            if total.dtype == object:
                self.big[t] = _compact_bounds(parts, total)
        self.backward = tables

    def total(self) -> int:
        """The weighted number of ways to place all free cards (move weights only)."""
        if not self.k:
            return 1
        return int(self.backward[0][0])

    def forward_final(self) -> np.ndarray:
        """Weighted number of ways to reach each final joint state, as a dense (object) array, exactly (as
        :meth:`DenseTables.forward_final`: in Python integers past 2**99)."""
        final_shape = tuple(a.size[self.n] for a in self.automata)
        out = np.zeros(final_shape, dtype=object)
        flat = out.reshape(-1)
        flat[self.final_keys] = exactly(self._forward, object_weights(self.automata))
        return out

    def _forward(self, dtypes: tuple[np.dtype, ...]) -> list[np.ndarray]:
        """The forward pass over the reachable states in each of ``dtypes``."""
        now = [np.ones(1, dtype=dtype) for dtype in dtypes]
        for t in range(self.n):
            new = [np.zeros(self.sizes[t + 1], dtype=dtype) for dtype in dtypes]
            for d in range(self.n_dest):
                idx = self.next[t][d]
                ok = idx >= 0
                w = self.weights[t][d]
                for j, dtype in enumerate(dtypes):
                    a = now[j] if w is None else now[j] * in_pass(w, dtype)
                    np.add.at(new[j], idx[ok], a[ok])
            now = new
        return now

    def sample(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """Destinations of every free card for ``count`` samples (see :meth:`DenseTables.sample`)."""
        n, k = self.n, self.k
        dest = self._destinations(count)
        if not k or count == 0:
            return dest
        state = np.zeros(count, dtype=np.int64)
        remainder: np.ndarray | None = None
        for t in range(n):
            table = self.backward[t + 1]
            padded = np.append(table, np.zeros(1, dtype=table.dtype))
            options = []
            values = []
            move_weights = []
            for d in range(self.n_dest):
                nj = self.next[t][d][state]
                v = padded[nj]
                w = self.weights[t][d]
                wj = None if w is None else w[state]
                if wj is not None:
                    v = v * wj.astype(v.dtype)
                options.append(nj)
                values.append(v)
                move_weights.append(wj)
            if t in self.big:
                layer = self.big[t]
                choice = _choose_with_bounds(layer, state, values, rng)
            else:
                choice, remainder = _decode_choice(values, move_weights, remainder, rng)
            dest[t] = choice
            state = np.stack(options)[choice, np.arange(count)]
        return dest


def _compact_bounds(parts: list[np.ndarray], total: np.ndarray) -> _Layer:
    """Exact 64-bit boundaries ``floor(2**64 * cum_d / total)`` per state, and whether each is exact."""
    cells = len(total)
    d = len(parts)
    bounds = np.zeros((cells, max(d - 1, 1)), dtype=np.uint64)
    exact = np.ones((cells, max(d - 1, 1)), dtype=bool)
    tot = total.astype(object)
    live = tot != 0
    safe = np.where(live, tot, 1).astype(object)
    cum = np.zeros(cells, dtype=object)
    for j in range(d - 1):
        cum = cum + parts[j].astype(object)
        num = cum * _TWO64
        q = num // safe
        r = num - q * safe
        top = (q >= _TWO64) & live  # the boundary is at 1: never passed
        q = np.where(top | ~live, 0, q).astype(object)
        column = q.astype(np.uint64)
        column[top] = np.uint64(_TWO64 - 1)
        bounds[:, j] = column
        exact[:, j] = (r == 0) & ~top
    return _Layer(bounds, exact)


def _choose_with_bounds(layer: _Layer, flat: np.ndarray, values: list[np.ndarray],
                        rng: np.random.Generator) -> np.ndarray:
    bounds = layer.bounds[flat]
    exact = layer.exact[flat]
    r = rng.integers(0, np.iinfo(np.uint64).max, size=len(flat), dtype=np.uint64, endpoint=True)
    above = r[:, None] > bounds
    tie = r[:, None] == bounds
    choice: np.ndarray = (above | (tie & exact)).sum(axis=1).astype(np.int8)
    ambiguous = (tie & ~exact).any(axis=1)
    for row in np.nonzero(ambiguous)[0]:
        choice[row] = _exact_choice(int(r[row]), [int(v[row]) for v in values], rng)
    return choice


def _decode_choice(values: list[np.ndarray], move_weights: list[np.ndarray | None],
                   remainder: np.ndarray | None, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Pick each sample's option by decoding its uniform remainder (drawn on first use); see DenseTables.sample."""
    count = len(values[0])
    vals = [v.astype(np.int64) for v in values]
    if remainder is None:
        total = vals[0]
        for v in vals[1:]:
            total = total + v
        remainder = rng.integers(0, total, dtype=np.int64)
    choice = np.zeros(count, dtype=np.int8)
    before = np.zeros(count, dtype=np.int64)
    cum = np.zeros(count, dtype=np.int64)
    for v in vals[:-1]:
        cum = cum + v
        passed = remainder >= cum
        choice += passed.view(np.int8)
        before = np.where(passed, cum, before)
    remainder = remainder - before
    if any(w is not None for w in move_weights):
        w_chosen = np.ones(count, dtype=np.int64)
        for d, w in enumerate(move_weights):
            if w is not None:
                w_chosen = np.where(choice == d, w, w_chosen)
        remainder = remainder // w_chosen
    return choice, remainder


def dense_cells(automata: Sequence[SeatAutomaton], n: int) -> int:
    """The dense tables' cells for these seats over ``n`` free cards: the product of their states (and one
    padding state each) at every position, summed, exactly; 0 with no seat."""
    return sum(math.prod(int(a.size[t]) + 1 for a in automata) for t in range(n + 1)) if automata else 0


def dense_refusal(automata: Sequence[SeatAutomaton], cells: int, limit: int) -> str:
    """Why dense tables of ``cells`` cells are not built within ``limit``."""
    sizes = " x ".join(str(max(a.size)) for a in automata)
    return (f"this spec needs {cells:,} table cells (tracked seats' largest state counts {sizes}), beyond the limit "
            f"of {limit:,}; constrain fewer seats jointly or loosen HCP conditions")


def make_tables(automata: Sequence[SeatAutomaton], n: int, pool: bool, limit: int | None = None,
                backward: bool = True, backend: str = "auto",
                final: np.ndarray | None = None, reached: Reach | None = None
                ) -> "DenseTables | CompactTables | StreamedTables":
    """Dense tables when the product of the seats' states fits the limit, else reachable-only tables.

    ``backend`` forces ``"dense"``, ``"compact"`` or ``"streamed"`` (all give the same counts; streamed tables
    keep one position's states at a time, ``limit`` of them at most, and cannot deal). ``final``, over the
    seats' final states jointly, says which joint final states count (None: all); ``reached``: the compact
    tables' states when already found (:meth:`dealer.tables.design.TablesDesign.size`).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: expected {', '.join(BACKENDS)}")
    limit = current().tables if limit is None else limit
    if backend == "streamed":
        found = stream_within(automata, n, pool, final, limit)
        if isinstance(found, str):
            raise SpecLimitError(found)
        return found
    if backend == "dense":
        return DenseTables(automata, n, pool, limit, backward, final)
    if backend == "compact":
        return CompactTables(automata, n, pool, limit, backward, final, reached)
    if dense_cells(automata, n) <= limit:
        return DenseTables(automata, n, pool, limit, backward, final)
    return CompactTables(automata, n, pool, limit, backward, final, reached)
