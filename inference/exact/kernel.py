"""The suit-by-suit kernel of the layout graph.

Inside a suit, the lawful constraints cannot tell one unseen card from another
except by the features a claim reads, so the layout graph (:mod:`inference.exact.graph`)
works suit by suit: it enumerates the ways a suit's unseen cards can go to the
concealed seats (:func:`assignments`), groups equal rows (:func:`unique_rows`),
and joins the suits' groups to states that can still fill every hand
(:func:`join_counts`, which holds the graph's one limit, the budget's ``graph_pairs``).
Holdings are 13-bit ints, ace first.

>>> assignments(0b101, 2, (False, False)).tolist()   # two unseen cards, two seats
[[5, 0], [4, 1], [1, 4], [0, 5]]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence, cast

import numpy as np

from dealer.budget import current
from dealer.arrays import unique_rows
from dealer.cards.cardset import SUIT_MASK

from inference.errors import TooComplexError
from inference.claims.features import Kind, holding_values

__all__ = [
    "SUIT_MASK", "holding_of", "popcount13", "unique_rows", "assignments", "join_counts",
]




def holding_of(mask: int, suit: int) -> int:
    """The 13-bit holding of ``suit`` in a 52-bit card mask.

    >>> holding_of(0b11 << 13, 1)
    3
    """
    return mask >> (13 * suit) & SUIT_MASK


def popcount13(values: np.ndarray) -> np.ndarray:
    """Number of cards in each 13-bit holding."""
    return holding_values(Kind.LENGTH, 0, values)


@lru_cache(maxsize=512)
def assignments(unseen_suit: int, k: int, void: tuple[bool, ...]) -> np.ndarray:
    """Every lawful assignment of a suit's unseen cards to ``k`` concealed seats: per row, each seat's mask.

    A seat void in the suit (``void[i]``) gets none of it; if every seat is void and cards are unseen, no row.
    """
    bits = [b for b in range(13) if unseen_suit >> b & 1]
    allowed = [i for i in range(k) if not void[i]]
    if bits and not allowed:
        return np.zeros((0, k), dtype=np.int64)
    masks = _spread(tuple(bits), k, tuple(allowed))
    masks.setflags(write=False)
    return masks


def _spread(bits: tuple[int, ...], k: int, allowed: tuple[int, ...]) -> np.ndarray:
    """Every way to give ``bits`` to the ``allowed`` seats, the first bit's owner varying fastest.

    Built from the two halves' ways (an outer OR), so the work is the size of the answer.
    """
    if len(bits) <= 1:
        out = np.zeros((len(allowed) if bits else 1, k), dtype=np.int64)
        for row, seat_i in enumerate(allowed if bits else ()):
            out[row, seat_i] = 1 << bits[0]
        return out
    half = len(bits) // 2
    low, high = _spread(bits[:half], k, allowed), _spread(bits[half:], k, allowed)
    return cast(np.ndarray, (high[:, None, :] | low[None, :, :]).reshape(-1, k))


def join_counts(prev: np.ndarray, contrib: np.ndarray, vac: Sequence[int], later: Sequence[int],
                limit: int | None = None, what: str = "the joint table") -> tuple[np.ndarray, np.ndarray]:
    """Pairs (state, option) that keep every seat within reach of its vacant places after a suit.

    Columns ``0 .. k-2`` of ``prev`` and ``contrib`` are the first concealed seats' counts of cards
    (the last seat's is what is left): after the suit a seat must neither pass its vacant places
    ``vac`` nor fall so short that the ``later`` unseen cards it may take cannot fill them. The
    first two seats' ranges are joined by sorting (no cross product); the last seat's is the
    caller's to check. Refuses (:class:`~inference.errors.TooComplexError`) more than ``limit``
    pairs (default: the budget's ``graph_pairs``, :mod:`dealer.budget`).
    """
    limit = current().graph_pairs if limit is None else limit
    m = min(len(vac) - 1, 2)
    key = contrib[:, 0] if m == 1 else contrib[:, 0] * 14 + contrib[:, 1]
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    lo0 = vac[0] - later[0] - prev[:, 0]
    hi0 = vac[0] - prev[:, 0]
    if m == 1:
        lo = np.searchsorted(sorted_key, lo0, side="left")[:, None]
        hi = np.searchsorted(sorted_key, hi0, side="right")[:, None]
    else:  # one range of the second seat's count for each count of the first seat
        lo1 = np.maximum(vac[1] - later[1] - prev[:, 1], 0)
        hi1 = np.minimum(vac[1] - prev[:, 1], 13)
        c0 = np.maximum(lo0, 0)[:, None] + np.arange(14)[None, :]
        lo = np.searchsorted(sorted_key, c0 * 14 + lo1[:, None], side="left")
        hi = np.searchsorted(sorted_key, c0 * 14 + hi1[:, None], side="right")
        hi = np.where((c0 <= hi0[:, None]) & (hi1 >= lo1)[:, None], hi, lo)
    sizes = np.maximum(hi - lo, 0).reshape(-1)
    total = int(sizes.sum())
    if total > limit:
        raise TooComplexError(f"{what} would need {total:,} (state, holding) pairs in one suit, over the "
                              f"limit of {limit:,}: the claims relate too many features of the concealed hands")
    src = np.repeat(np.repeat(np.arange(len(prev)), lo.shape[1]), sizes)
    offsets = np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return src, order[np.repeat(lo.reshape(-1), sizes) + offsets]
