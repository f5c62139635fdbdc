"""The joint states of the tracked seats reachable from the start, position by position.

:class:`~dealer.tables.engine.CompactTables` counts over these states only. A joint
state is one int64 *key*: each seat's state in its own bit field (the first
seat highest), so decoding is a shift and a mask; at the last position the
keys are mixed-radix instead (the flat index of the joint final state, in
the same order), which is what a joint acceptance over final states reads.

Each position's successors are found in one pass: every seat's not-taking and
taking moves are gathered once, the not-taking key is summed once, and the
key of "seat ``d`` takes the card" is that sum with seat ``d``'s field
changed. The distinct successors and each move's index among them come from
one packed sort (:func:`dealer.arrays.rank_packed`).

:func:`stream_within` walks the same states but keeps one position at a time, carrying
each state's count forward: a count of tables too large to keep (it cannot deal).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, prod
from typing import Callable, Sequence

import numpy as np

from dealer.arrays import INT64_LIMIT, rank_packed, unique_ints, unique_inverse
from dealer.progress import report
from dealer.tables.automaton import SeatAutomaton
from dealer.errors import SpecLimitError

__all__ = ["Reach", "reach", "reach_within", "stream_within", "StreamedTables", "exactly", "object_weights",
           "in_pass", "longest_block", "MAX_BLOCK"]

#: Keys stay below 2**_KEY_BITS, so one dead move's penalty makes a key negative and five cannot overflow.
_KEY_BITS = 60
_DEAD = -(1 << _KEY_BITS)


@dataclass(frozen=True)
class Reach:
    """The reachable joint states: ``final_keys`` (the keys of the last position's, sorted: flat indices of
    the joint final states), ``sizes[t]`` (how many at position ``t``), ``next[t]`` (int32,
    ``(n_dest, sizes[t])``: the index at position ``t + 1`` each destination leads to, -1 dead),
    ``weights[t][d]`` (the product of the seats' move weights, None when all are 1) and ``cells``
    (states over all positions). The keys of the other positions are not kept."""

    final_keys: np.ndarray
    sizes: list[int]
    next: list[np.ndarray]
    weights: list[list[np.ndarray | None]]
    cells: int


def _fields(sizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each seat's shift and mask in a bit-field key (the first seat highest)."""
    widths = [max(int(m - 1).bit_length(), 1) for m in sizes]
    shifts = [sum(widths[i + 1:]) for i in range(len(widths))]
    return shifts, [(1 << w) - 1 for w in widths]


def _radix(sizes: Sequence[int]) -> list[int]:
    return [int(np.prod(sizes[i + 1:], dtype=object)) for i in range(len(sizes))]


def _moves(next0: np.ndarray, next1: np.ndarray, step: int) -> tuple[np.ndarray, np.ndarray]:
    """One seat's part of a successor's key per state: not taking the card (``stay``), and what taking
    it changes (``turn``); a dead move counts :data:`_DEAD`, which no live parts can make up."""
    stay = np.where(next0 >= 0, next0.astype(np.int64) * step, _DEAD)
    take = np.where(next1 >= 0, next1.astype(np.int64) * step, _DEAD)
    return stay, take - stay


def _successors(targets: np.ndarray, ok: np.ndarray, bits: int | None) -> tuple[np.ndarray, np.ndarray]:
    """The distinct live keys of ``targets`` (sorted) and, where ``ok``, each move's index among them
    (int32, -1 elsewhere). The live keys are sorted packed with their places in ``targets`` (which is
    overwritten), so the indices are written straight where they belong."""
    flat = targets.reshape(-1)
    places = max(flat.size - 1, 1).bit_length()
    nxt = np.full(targets.shape, -1, dtype=np.int32)
    if bits is None or bits + places > 63:
        uniq, _, inverse = unique_inverse(flat[ok.reshape(-1)], bits)
        nxt[ok] = inverse
        return uniq, nxt
    np.left_shift(flat, places, out=flat)
    flat |= np.arange(flat.size, dtype=np.int64)
    uniq, where, rank, _ = rank_packed(flat[ok.reshape(-1)], places)
    nxt.reshape(-1)[where] = rank
    return uniq, nxt


def _weights(w: np.ndarray) -> np.ndarray:
    """Move weights as int64, or as Python integers where they are past it."""
    return w if w.dtype == object else w.astype(np.int64)


def _times(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The product of two seats' move weights, in Python integers where int64 could overflow."""
    if a.dtype != object and b.dtype != object and len(a) and int(a.max()) * int(b.max()) >= INT64_LIMIT:
        a = a.astype(object)
    product: np.ndarray = a * b
    return product


class _Walk:
    """The tracked seats' joint keys, position by position: how a position's keys are read, and the keys
    of their successors (shared by :func:`reach_within`, which keeps every position, and
    :func:`stream_within`, which keeps one)."""

    def __init__(self, automata: Sequence[SeatAutomaton], n: int, pool: bool) -> None:
        self.automata = list(automata)
        self.k = len(self.automata)
        self.n = n
        self.n_dest = self.k + (1 if pool else 0)
        #: How the current position's keys are read: shifts and masks (``bits``), or radix and sizes.
        self.scheme: tuple[list[int], list[int]] = ([0] * self.k, [0] * self.k)
        self.bits = True
        self.t = 0
        self.steps: list[int] = []
        #: The successors' keys' bit width (None: mixed radix), and how they are read once the moves are made.
        self.width: int | None = None
        self._after: tuple[tuple[list[int], list[int]], bool] = (self.scheme, True)

    def advance(self, t: int, to: int | None = None) -> str | None:
        """Get ready for position ``t``'s moves to position ``to`` (default ``t + 1``: the next keys' fields); why
        the keys do not fit, if they do not."""
        to = t + 1 if to is None else to
        sizes2 = [a.size[to] for a in self.automata]
        # the final keys are flat indices; fields too wide fall back to a radix too
        width = sum(max(int(m - 1).bit_length(), 1) for m in sizes2)
        radix = to == self.n or width > _KEY_BITS
        if radix and prod(int(m) for m in sizes2) > 1 << _KEY_BITS:
            return (f"the joint states of this spec's {self.k} constrained seats need keys beyond "
                    f"{_KEY_BITS} bits at card {to}; constrain fewer seats jointly")
        self.t = t
        self.steps = _radix(sizes2) if radix else [1 << s for s in _fields(sizes2)[0]]
        self.width = None if radix else width
        self._after = ((self.steps, sizes2) if radix else _fields(sizes2)), not radix
        return None

    def states(self, cur: np.ndarray, i: int) -> np.ndarray:
        """Seat ``i``'s state in each key of ``cur`` (the current position's)."""
        first, second = self.scheme[0][i], self.scheme[1][i]
        out: np.ndarray = (cur >> first) & second if self.bits else cur // first % second
        return out

    def targets(self, cur: np.ndarray) -> tuple[np.ndarray, list[np.ndarray | None]]:
        """The key each state of ``cur`` moves to for each destination (``(n_dest, len(cur))``, negative where
        the move is dead), and each destination's move weights (None: all 1)."""
        t = self.t
        base = np.zeros(len(cur), dtype=np.int64)
        change: list[np.ndarray] = []
        w_stay: list[np.ndarray | None] = []
        w_take: list[np.ndarray | None] = []
        for i, a in enumerate(self.automata):
            state = self.states(cur, i)
            stay, turn = _moves(a.next0[t], a.next1[t], self.steps[i])
            base += stay[state]
            change.append(turn[state])
            w0, w1 = a.weight0[t], a.weight1[t]
            w_stay.append(None if w0 is None else _weights(w0[state]))
            w_take.append(None if w1 is None else _weights(w1[state]))
        targets = np.empty((self.n_dest, len(cur)), dtype=np.int64)
        wts: list[np.ndarray | None] = []
        for d in range(self.n_dest):
            if d < self.k:
                np.add(base, change[d], out=targets[d])
            else:
                targets[d] = base
            w_total: np.ndarray | None = None
            for i in range(self.k):
                wi = w_take[i] if i == d else w_stay[i]
                if wi is not None:
                    w_total = wi if w_total is None else _times(w_total, wi)
            wts.append(w_total)
        return targets, wts

    def done(self) -> None:
        """The position's moves are made: its successors' keys are read from now on."""
        self.scheme, self.bits = self._after


def reach(automata: Sequence[SeatAutomaton], n: int, pool: bool, limit: int) -> Reach:
    """The joint states reachable from the start over ``n`` free cards; :class:`~dealer.errors.SpecLimitError`
    beyond ``limit`` states in all. A card goes to one tracked seat or, with a ``pool``, to the pool."""
    found = reach_within(automata, n, pool, limit)
    if isinstance(found, str):
        raise SpecLimitError(found)
    return found


def _too_many(limit: int, what: str) -> str:
    return (f"this spec reaches more than {limit:,} joint states of its constrained seats{what}, beyond the "
            f"limit of {limit:,}; constrain fewer seats jointly or loosen HCP conditions")


def reach_within(automata: Sequence[SeatAutomaton], n: int, pool: bool, limit: int) -> "Reach | str":
    """:func:`reach`, or why the states pass ``limit`` (a sizing, not an error: the planner weighs it)."""
    walk = _Walk(automata, n, pool)
    cur = np.zeros(1, dtype=np.int64)
    sizes = [1]
    nexts: list[np.ndarray] = []
    weights: list[list[np.ndarray | None]] = []
    cells = 1
    for t in range(n):
        why = walk.advance(t)
        if why is not None:
            return why
        targets, wts = walk.targets(cur)
        walk.done()
        ok = targets >= 0  # a dead move's penalty makes its key negative
        count = int(np.count_nonzero(ok))
        # the distinct successors are counted (one sort) before their places are found, when they may pass
        if cells + count > limit and cells + len(unique_ints(targets[ok])) > limit:
            return _too_many(limit, "")
        uniq, nxt = _successors(targets, ok, walk.width)
        del targets, ok
        cells += len(uniq)
        nexts.append(nxt)
        weights.append(wts)
        sizes.append(len(uniq))
        cur = uniq
    return Reach(cur, sizes, nexts, weights, cells)


#: Counts below this are exact as a pair (modulo 2**64, float64): the float's error stays far below 2**63.
_EXACT_BELOW = 2.0 ** 99


def _joined(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The exact values (an object array) from their forms modulo 2**64 and in floating point."""
    out = np.empty(lo.shape, dtype=object)
    flat_out = out.reshape(-1)
    for i, (low, high) in enumerate(zip(lo.ravel().tolist(), hi.ravel().tolist())):
        flat_out[i] = int(low) + (round((high - int(low)) / 2.0 ** 64) << 64)
    return out


def exactly(forward: Callable[[tuple[np.dtype, ...]], list[np.ndarray]], big: bool) -> np.ndarray:
    """The exact values of a forward pass (an object array): in uint64 and float64 where that is exact (below
    2**99, no weight past 64 bits: ``big``), else again in Python integers."""
    if not big:
        lo, hi = forward((np.dtype(np.uint64), np.dtype(np.float64)))
        if not hi.size or float(hi.max()) < _EXACT_BELOW:
            return _joined(lo, hi)
    return forward((np.dtype(object),))[0]


def object_weights(automata: Sequence[SeatAutomaton]) -> bool:
    """Whether some seat's move weight is past 64 bits (kept as Python integers)."""
    return any(w is not None and w.dtype == object for a in automata for w in (*a.weight0, *a.weight1))


def in_pass(w: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Move weights in a forward pass's ``dtype``: modulo 2**64 for uint64 (seats' weights whose product is
    past 64 bits are Python integers), as they are otherwise."""
    if w.dtype == object and dtype == np.dtype(np.uint64):
        return np.asarray(w % (1 << 64)).astype(np.uint64)
    return w.astype(dtype)


class StreamedTables:
    """Tables counted forward one position at a time and not kept (:func:`stream_within`): the weighted number
    of ways to reach each joint final state, exactly; they count but cannot deal.

    ``final_keys``: the reachable joint final states (flat indices over the seats' final states, sorted);
    ``values``: the ways to reach each (Python integers); ``shape``: the seats' final state counts;
    ``final``: which joint final states count (None: all); ``cells``: the most states a position held.
    """

    def __init__(self, final_keys: np.ndarray, values: np.ndarray, shape: tuple[int, ...],
                 final: np.ndarray | None, cells: int) -> None:
        self.final_keys = final_keys
        self.values = values
        self.shape = shape
        self.final = final
        self.cells = cells

    def total(self) -> int:
        """The weighted number of ways to place all free cards (joint final states weighed by ``final``)."""
        if self.final is None:
            return int(sum(self.values.tolist()))
        weight = self.final.reshape(-1)[self.final_keys].tolist()
        return int(sum(v * int(w) for v, w in zip(self.values.tolist(), weight)))

    def forward_final(self) -> np.ndarray:
        """The ways to reach each joint final state, as a dense object array over the seats' final states."""
        out = np.zeros(self.shape, dtype=object)
        out.reshape(-1)[self.final_keys] = self.values
        return out

    def sample(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """Refused: a streamed count keeps no table to deal from."""
        raise SpecLimitError(f"these tables were counted one position at a time ({self.cells:,} joint states at "
                             "most) and not kept: they count, but cannot deal; deal with tables within the limit")


#: A position's piece: its keys (sorted) and their counts, one array a pass's dtype; the pieces in key order.
_Piece = tuple[np.ndarray, list[np.ndarray]]
#: Moves of some states: the keys they lead to and the counts they carry (one list a pass's dtype).
_Moves = tuple[list[np.ndarray], list[list[np.ndarray]]]
_Mover = Callable[[np.ndarray, list[np.ndarray]], _Moves]
#: About so many states of a position are moved to choose the keys that cut the next one into ranges.
_SAMPLE = 1 << 16
#: The most free cards one step of a stream shares out at once (:func:`longest_block`).
MAX_BLOCK = 13
#: A stream takes a block by default from a position holding more than this share of its limit, or more than
#: :data:`_BLOCK_STATES` states (card by card merges better where the states are fewer: docs/dealer.rst).
_BLOCK_FROM = 8
_BLOCK_STATES = 2_000_000
_UNSEEN = -3  # longest_block: no card subset of that size was followed there yet


def _moved(states: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Where a seat's ``states`` go by ``moves`` (dead and unseen ones stay as they are)."""
    live = states >= 0
    if not live.any():
        return states.copy()
    out: np.ndarray = np.where(live, moves[np.where(live, states, 0)], states)
    return out


def _taken(auto: SeatAutomaton, a: int, t: int, cur: np.ndarray) -> np.ndarray | None:
    """A seat's block map from ``a`` (:func:`longest_block`) carried over free card ``t``; None when its state after
    the card depends on which cards it took before, not only how many (or the card's moves are weighed)."""
    if auto.weight0[t] is not None or auto.weight1[t] is not None:
        return None
    new = np.full_like(cur, _UNSEEN)
    for k in range(t - a + 1):
        for col, moves in ((k, auto.next0[t]), (k + 1, auto.next1[t])):
            there, arriving = new[:, col], _moved(cur[:, k], moves)
            if ((there != _UNSEEN) & (arriving != _UNSEEN) & (there != arriving)).any():
                return None
            new[:, col] = np.where(there == _UNSEEN, arriving, there)
    return new


def longest_block(automata: Sequence[SeatAutomaton], a: int, n: int) -> tuple[int, list[np.ndarray]] | None:
    """The longest run of free cards from ``a`` (two to :data:`MAX_BLOCK` of the ``n``) that no seat tells apart: its
    end ``b`` and, per seat, ``out[s, k]``, the state at position ``b`` its state ``s`` at ``a`` reaches by taking
    any ``k`` of the cards ``a .. b - 1`` (-1: dead); None when cards ``a`` and ``a + 1`` are not one block (some
    seat's state depends on which of them it takes). For seats that read HCP and lengths: a suit's spot cards."""
    maps = []
    for auto in automata:
        start = np.full((auto.size[a], MAX_BLOCK + 1), _UNSEEN, dtype=np.int64)
        start[:, 0] = np.arange(auto.size[a])
        maps.append(start)
    best: tuple[int, list[np.ndarray]] | None = None
    for t in range(a, min(n, a + MAX_BLOCK)):
        carried = [_taken(auto, a, t, m) for auto, m in zip(automata, maps)]
        if any(m is None for m in carried):
            break
        maps = [m for m in carried if m is not None]
        if t > a:
            best = (t + 1, maps)
    return None if best is None else (best[0], [m[:, :best[0] - a + 1] for m in best[1]])


#: ``_CHOOSE[r, k]``: the ways to choose ``k`` of ``r`` cards (int64; a block's cards share out one seat at a time).
_CHOOSE = np.array([[comb(r, k) for k in range(MAX_BLOCK + 1)] for r in range(MAX_BLOCK + 1)], dtype=np.int64)


def stream_within(automata: Sequence[SeatAutomaton], n: int, pool: bool, final: np.ndarray | None,
                  limit: int, chunk: int = 1 << 21, blocks: bool | None = None) -> "StreamedTables | str":
    """The counts of the joint final states over ``n`` free cards, found forward over the reachable joint states
    keeping one position at a time; or why some position passes ``limit`` states.

    Memory is one position's states (``chunk`` of them moved at a time), where :func:`reach_within` keeps
    every position for sampling. A run of cards no seat tells apart (:func:`longest_block`: a suit's spot cards, for
    seats that read HCP and lengths) may be shared out in one step, weighed by its number of deals (a multinomial),
    so the positions inside it are never held: with ``blocks`` None, from a position holding more than ``limit / 8``
    states or 2,000,000 (below that, card by card, whose positions merge, is faster than a block's fan-out); True:
    always; False: never. Exact as :func:`exactly` makes a forward pass.
    """
    found: list[tuple[np.ndarray, int]] = []
    blocks_from: dict[int, tuple[int, list[_Shares]] | None] = {}  # found once, for both passes

    def block_at(t: int, states: int) -> tuple[int, list[_Shares]] | None:
        if blocks is False or (blocks is None and states <= min(limit // _BLOCK_FROM, _BLOCK_STATES)):
            return None
        if t not in blocks_from:
            found = longest_block(automata, t, n)
            blocks_from[t] = None if found is None else (found[0], [  # the last seat takes what no pool does
                _Shares.of(m, found[0] - t, i == len(automata) - 1 and not pool) for i, m in enumerate(found[1])])
        return blocks_from[t]

    def forward(dtypes: tuple[np.dtype, ...]) -> list[np.ndarray]:
        counted = _stream(automata, n, pool, limit, chunk, dtypes, block_at)
        if isinstance(counted, str):
            raise SpecLimitError(counted)
        keys, values, most = counted
        found[:] = [(keys, most)]
        return values

    try:
        exact = exactly(forward, object_weights(automata))
    except SpecLimitError as exc:
        return str(exc)
    keys, most = found[0]
    return StreamedTables(keys, exact, tuple(int(a.size[n]) for a in automata), final, most)


def _stream(automata: Sequence[SeatAutomaton], n: int, pool: bool, limit: int, chunk: int,
            dtypes: tuple[np.dtype, ...], block_at: "Callable[[int, int], tuple[int, list[_Shares]] | None]"
            ) -> "tuple[np.ndarray, list[np.ndarray], int] | str":
    """:func:`stream_within`'s pass with the counts in each of ``dtypes``, a card or a block at a time (``block_at``:
    the block from a position holding so many states, if any): the final keys, their counts, and the most states
    a position held."""
    def nothing() -> tuple[np.ndarray, list[np.ndarray], int]:
        return np.zeros(0, dtype=np.int64), [np.zeros(0, dtype=dtype) for dtype in dtypes], most

    walk = _Walk(automata, n, pool)
    position: list[_Piece] = [(np.zeros(1, dtype=np.int64), [np.ones(1, dtype=dtype) for dtype in dtypes])]
    states = most = 1
    t = 0
    while t < n:
        if not states or not walk.n_dest:  # no state left, or no seat to take a card: no way at all
            return nothing()
        b, shares = block_at(t, states) or (t + 1, None)
        why = walk.advance(t, b)
        if why is not None:
            return why
        done = _step(walk, position, shares, b - t, limit, chunk)  # empties the position as it moves it
        if done is None:
            return _too_many(limit, " at one position")
        position = done
        states = sum(len(keys) for keys, _ in position)
        most = max(most, states)
        t = b
        report("streamed tables", t, n, f"{states:,} state" + ("s" if states != 1 else ""))
    if not states:
        return nothing()
    return (np.concatenate([keys for keys, _ in position]),
            [np.concatenate([values[j] for _, values in position]) for j in range(len(dtypes))], most)


def _step(walk: _Walk, position: list[_Piece], shares: "Sequence[_Shares] | None", m: int, limit: int, chunk: int
          ) -> list[_Piece] | None:
    """The next position's pieces from ``position``'s (emptied, so each piece is freed once moved): one card
    (``shares`` None) or a block of ``m`` cards, each seat's choices ``shares`` (:func:`longest_block`); None past
    ``limit`` states. The successors are kept in ranges of keys (:class:`_Runs`), so the new position is merged
    one range at a time while the old one is freed piece by piece: about one position's keys and counts at a time."""
    size = chunk if shares is None else max(1, chunk >> 6)  # a block's states fan out: fewer of them a chunk

    def moves(part: np.ndarray, counts: list[np.ndarray]) -> _Moves:
        return _moves_of(walk, part, counts) if shares is None else _block_moves(walk, part, counts, shares, m)

    runs = _Runs(_bounds(position, moves, 2 * chunk), len(position[0][1]), limit)
    while position:
        cur, values = position.pop(0)
        for lo in range(0, len(cur), size):
            # a chunk's moves meet often (neighbouring keys share most seats' states): gathered at once
            gathered = _gathered(*moves(cur[lo:lo + size], [v[lo:lo + size] for v in values]), limit)
            if gathered is None or not runs.add(*gathered):
                return None
            del gathered
        del cur, values
    walk.done()
    return runs.pieces()


def _bounds(position: list[_Piece], moves: "_Mover", piece: int) -> np.ndarray:
    """Keys that cut the next position into ranges of about ``piece`` states: quantiles of the successors of a
    sample of ``position``'s states (the ranges need not be even: a range merges alone)."""
    states = sum(len(keys) for keys, _ in position)
    ranges = -(-states // piece)
    if ranges < 2:
        return np.zeros(0, dtype=np.int64)
    every = max(1, states // _SAMPLE)
    sample = np.concatenate([keys[::every] for keys, _ in position])
    found = unique_ints(np.concatenate(moves(sample, [])[0]))
    return unique_ints(found[[len(found) * i // ranges for i in range(1, ranges)]]) if len(found) else found


class _Runs:
    """Sorted runs of distinct keys and their counts, kept apart by ranges of keys (``bounds``): each range's runs
    are merged on their own, when they pass the limit and at the end, so no merge copies the whole position."""

    def __init__(self, bounds: np.ndarray, n_values: int, limit: int) -> None:
        self.bounds = bounds
        self.keys: list[list[np.ndarray]] = [[] for _ in range(len(bounds) + 1)]
        self.moved: list[list[list[np.ndarray]]] = [[[] for _ in range(n_values)] for _ in self.keys]
        self.limit = limit
        self.held = 0  # keys held in all runs
        self.merge_at = limit  # past this, every range is merged (then a quarter of the limit more)

    def add(self, keys: np.ndarray, sums: list[np.ndarray]) -> bool:
        """Keep a sorted run (each range's part a copy, so the run is freed); False past the limit."""
        cuts = np.concatenate(([0], np.searchsorted(keys, self.bounds), [len(keys)]))
        for r, (a, b) in enumerate(zip(cuts[:-1].tolist(), cuts[1:].tolist())):
            if b > a:  # a run wholly in one range is kept as it is
                whole = b - a == len(keys)
                self.keys[r].append(keys if whole else keys[a:b].copy())
                for parts, v in zip(self.moved[r], sums):
                    parts.append(v if whole else v[a:b].copy())
        self.held += len(keys)
        if self.held <= self.merge_at:
            return True
        self.held = 0
        for r in range(len(self.keys)):
            if not self._merge(r):
                return False
        self.merge_at = max(self.limit, self.held + self.limit // 4)
        return True

    def _merge(self, r: int) -> bool:
        """Merge range ``r``'s runs into one; False when the keys held pass the limit."""
        if len(self.keys[r]) > 1:
            merged = _gathered(self.keys[r], self.moved[r], self.limit)
            self.keys[r].clear()
            for parts in self.moved[r]:
                parts.clear()
            if merged is None:
                return False
            self.keys[r].append(merged[0])
            for parts, v in zip(self.moved[r], merged[1]):
                parts.append(v)
        self.held += sum(map(len, self.keys[r]))
        return self.held <= self.limit

    def pieces(self) -> list[_Piece] | None:
        """The merged ranges in key order (emptying the runs), or None past the limit."""
        self.held = 0
        out: list[_Piece] = []
        for r in range(len(self.keys)):
            if not self._merge(r):
                return None
            if self.keys[r]:
                out.append((self.keys[r].pop(), [parts.pop() for parts in self.moved[r]]))
        return out


def _moves_of(walk: _Walk, cur: np.ndarray, values: list[np.ndarray]) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """The live moves of the states ``cur`` (with their counts ``values``, one array a pass's dtype): the keys
    they lead to and the counts they carry, one array a destination."""
    targets, wts = walk.targets(cur)
    keys: list[np.ndarray] = []
    moved: list[list[np.ndarray]] = [[] for _ in values]
    for d in range(walk.n_dest):
        ok = targets[d] >= 0
        keys.append(targets[d][ok])
        w = wts[d]
        for j, v in enumerate(values):
            moved[j].append((v if w is None else v * in_pass(w, v.dtype))[ok])
    return keys, moved


@dataclass(frozen=True)
class _Shares:
    """How a seat may take part of a block (:func:`longest_block`), for each ``code = state * (m + 1) + left`` (its
    state before the block, the block's cards not yet given to a seat before it): the ``count[code]`` choices from
    ``start[code]`` on, each how many it takes (``take``) and its state after the block (``after``)."""

    count: np.ndarray
    start: np.ndarray
    take: np.ndarray
    after: np.ndarray

    @classmethod
    def of(cls, found: np.ndarray, m: int, last: bool) -> "_Shares":
        """A seat's choices from its block map ``found``; ``last``: it takes every card left (no pool after it)."""
        take, left = np.arange(m + 1)[None, None, :], np.arange(m + 1)[None, :, None]
        ok = (found[:, None, :] >= 0) & ((take == left) if last else (take <= left))  # (state, left, take)
        states, _, taken = np.nonzero(ok)
        count = ok.sum(axis=2).reshape(-1)
        return cls(count, np.cumsum(count) - count, taken, found[states, taken])


def _block_moves(walk: _Walk, cur: np.ndarray, values: list[np.ndarray], shares: Sequence[_Shares], m: int
                 ) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """The live moves of the states ``cur`` over a block of ``m`` cards: every way of sharing them out, a seat at a
    time (``shares``; the rest to the pool, if any), weighed by its number of deals (the product of the seats'
    binomials: a multinomial); the keys they lead to and the counts they carry."""
    base = np.arange(len(cur))
    key = np.zeros(len(cur), dtype=np.int64)
    left = np.full(len(cur), m, dtype=np.int64)
    ways = np.ones(len(cur), dtype=np.int64)
    for i, seat in enumerate(shares):
        code = walk.states(cur, i)[base] * (m + 1) + left
        count = seat.count[code]
        rows = np.repeat(np.arange(len(code)), count)
        # each row's choices, one after another: the row's first choice, then the next ones
        choice = np.repeat(seat.start[code] - (np.cumsum(count) - count), count) + np.arange(len(rows))
        taken = seat.take[choice]
        base, left = base[rows], left[rows]
        key = key[rows] + seat.after[choice] * walk.steps[i]
        ways = ways[rows] * _CHOOSE[left, taken]
        left = left - taken
    return [key], [[v[base] * in_pass(ways, v.dtype)] for v in values]


def _gathered(keys: list[np.ndarray], moved: list[list[np.ndarray]], limit: int
              ) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """The distinct keys among ``keys`` (sorted) and each one's counts summed (one array a pass's dtype); None
    past ``limit`` keys."""
    uniq, _, inverse = unique_inverse(np.concatenate(keys) if len(keys) > 1 else keys[0])
    if len(uniq) > limit:
        return None
    out = []
    for parts in moved:
        v = np.concatenate(parts) if len(parts) > 1 else parts[0]
        total = np.zeros(len(uniq), dtype=v.dtype)
        np.add.at(total, inverse, v)
        out.append(total)
    return uniq, out
