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
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Sequence

import numpy as np

from dealer.arrays import INT64_LIMIT, rank_packed, unique_ints, unique_inverse
from dealer.tables.automaton import SeatAutomaton
from dealer.errors import SpecLimitError

__all__ = ["Reach", "reach", "reach_within"]

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


def reach(automata: Sequence[SeatAutomaton], n: int, pool: bool, limit: int) -> Reach:
    """The joint states reachable from the start over ``n`` free cards; :class:`~dealer.errors.SpecLimitError`
    beyond ``limit`` states in all. A card goes to one tracked seat or, with a ``pool``, to the pool."""
    found = reach_within(automata, n, pool, limit)
    if isinstance(found, str):
        raise SpecLimitError(found)
    return found


def reach_within(automata: Sequence[SeatAutomaton], n: int, pool: bool, limit: int) -> "Reach | str":
    """:func:`reach`, or why the states pass ``limit`` (a sizing, not an error: the planner weighs it)."""
    k = len(automata)
    cur = np.zeros(1, dtype=np.int64)
    sizes = [1]
    nexts: list[np.ndarray] = []
    weights: list[list[np.ndarray | None]] = []
    cells = 1
    scheme: tuple[list[int], list[int]] = ([0] * k, [0] * k)  # shifts and masks (bits), or radix and sizes
    bits = True
    for t in range(n):
        sizes2 = [a.size[t + 1] for a in automata]
        # the final keys are flat indices; fields too wide fall back to a radix too
        width = sum(max(int(m - 1).bit_length(), 1) for m in sizes2)
        radix = t == n - 1 or width > _KEY_BITS
        steps = _radix(sizes2) if radix else [1 << s for s in _fields(sizes2)[0]]
        if radix and prod(int(m) for m in sizes2) > 1 << _KEY_BITS:
            return (f"the joint states of this spec's {k} constrained seats need keys beyond "
                    f"{_KEY_BITS} bits at card {t + 1}; constrain fewer seats jointly")
        base = np.zeros(len(cur), dtype=np.int64)
        change: list[np.ndarray] = []
        w_stay: list[np.ndarray | None] = []
        w_take: list[np.ndarray | None] = []
        for i, a in enumerate(automata):
            first, second = scheme[0][i], scheme[1][i]
            state = (cur >> first) & second if bits else cur // first % second
            stay, turn = _moves(a.next0[t], a.next1[t], steps[i])
            base += stay[state]
            change.append(turn[state])
            w0, w1 = a.weight0[t], a.weight1[t]
            w_stay.append(None if w0 is None else _weights(w0[state]))
            w_take.append(None if w1 is None else _weights(w1[state]))
        scheme = (steps, sizes2) if radix else _fields(sizes2)
        bits = not radix
        targets = np.empty((k + (1 if pool else 0), len(cur)), dtype=np.int64)
        wts: list[np.ndarray | None] = []
        for d in range(len(targets)):
            if d < k:
                np.add(base, change[d], out=targets[d])
            else:
                targets[d] = base
            w_total: np.ndarray | None = None
            for i in range(k):
                wi = w_take[i] if i == d else w_stay[i]
                if wi is not None:
                    w_total = wi if w_total is None else _times(w_total, wi)
            wts.append(w_total)
        ok = targets >= 0  # a dead move's penalty makes its key negative
        count = int(np.count_nonzero(ok))
        # the distinct successors are counted (one sort) before their places are found, when they may pass
        if cells + count > limit and cells + len(unique_ints(targets[ok])) > limit:
            return (f"this spec reaches more than {limit:,} joint states of its constrained seats, beyond the "
                    f"limit of {limit:,}; constrain fewer seats jointly or loosen HCP conditions")
        uniq, nxt = _successors(targets, ok, None if radix else width)
        del targets, ok
        cells += len(uniq)
        nexts.append(nxt)
        weights.append(wts)
        sizes.append(len(uniq))
        cur = uniq
    return Reach(cur, sizes, nexts, weights, cells)
