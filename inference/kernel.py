"""The suit-by-suit counting kernel shared by exact evaluation and layouts.

Inside a suit, the lawful constraints cannot tell one unseen card from another
except by the features a claim reads, so every engine of the inference layer
works suit by suit: it enumerates the ways a suit's unseen cards can go to the
concealed seats (:func:`assignments`, :func:`suit_options`), reduces each to
the features wanted (:func:`suit_feature`), groups equal rows
(:func:`unique_rows`), and joins the suits' options to states that can still
fill every hand (:func:`join_counts`). Holdings are 13-bit ints, ace first.

>>> assignments(0b101, 2, (False, False)).tolist()   # two unseen cards, two seats
[[5, 0], [4, 1], [1, 4], [0, 5]]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence, cast

import numpy as np

from dealer.arrays import unique_rows
from dealer.cardset import SUIT_MASK

from .errors import TooComplexError
from .features import TOP_FIVE, Kind

__all__ = [
    "SUIT_MASK", "JOINT_LIMIT", "holding_of", "popcount13", "suit_feature", "unique_rows", "assignments",
    "suit_options", "join_counts",
]

#: Most (state, option) pairs one step of a joint pass may build before it is refused.
JOINT_LIMIT = 20_000_000

_POP13 = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)


def holding_of(mask: int, suit: int) -> int:
    """The 13-bit holding of ``suit`` in a 52-bit card mask.

    >>> holding_of(0b11 << 13, 1)
    3
    """
    return mask >> (13 * suit) & SUIT_MASK


def popcount13(values: np.ndarray) -> np.ndarray:
    """Number of cards in each 13-bit holding."""
    return cast(np.ndarray, _POP13[values & SUIT_MASK])


def suit_feature(kind: str, bit: int, dealt: np.ndarray) -> np.ndarray:
    """A per-suit feature of each dealt holding: length, HCP, honours, cards above bit ``bit``, or the card at it.

    >>> suit_feature("hcp", 0, np.array([0b11])).tolist()   # A K (the ace is bit 0)
    [7]
    """
    if kind == Kind.LENGTH:
        return popcount13(dealt)
    if kind in (Kind.HCP, Kind.SUIT_HCP):
        return cast(np.ndarray, sum(((dealt >> b) & 1) * (4 - b) for b in range(4)))
    if kind == Kind.HONOURS:
        return popcount13(dealt & TOP_FIVE)
    if kind == Kind.ABOVE:
        return popcount13(dealt & ((1 << bit) - 1))
    return cast(np.ndarray, (dealt >> bit) & 1)  # card


@lru_cache(maxsize=512)
def assignments(unseen_suit: int, k: int, void: tuple[bool, ...]) -> np.ndarray:
    """Every lawful assignment of a suit's unseen cards to ``k`` concealed seats: per row, each seat's mask.

    A seat void in the suit (``void[i]``) gets none of it; if every seat is void and cards are unseen, no row.
    """
    bits = [b for b in range(13) if unseen_suit >> b & 1]
    allowed = [i for i in range(k) if not void[i]]
    if bits and not allowed:
        return np.zeros((0, k), dtype=np.int64)
    n = len(bits)
    m = len(allowed)
    codes = np.arange(m ** n, dtype=np.int64)
    masks = np.zeros((m ** n, k), dtype=np.int64)
    for j, b in enumerate(bits):
        owner = (codes // (m ** j)) % m
        for slot, seat_i in enumerate(allowed):
            masks[:, seat_i] |= (owner == slot).astype(np.int64) << b
    masks.setflags(write=False)
    return masks


@lru_cache(maxsize=4096)
def suit_options(unseen_suit: int, base: int, a_void: bool, others_void: bool,
                 specs: tuple[tuple[str, int], ...]) -> np.ndarray:
    """One seat's options in a suit: distinct rows (count of unseen cards taken, feature ...).

    The seat takes any subset of the suit's unseen cards (none if it is void, all if the other
    seats are); ``base`` is its known cards in the suit; ``specs`` lists the per-suit features
    wanted as (kind, bit) pairs, computed on the dealt holding (base plus the subset).
    """
    bits = [b for b in range(13) if unseen_suit >> b & 1]
    n = len(bits)
    subsets = np.arange(1 << n, dtype=np.int64)
    masks = np.zeros(1 << n, dtype=np.int64)
    for j, b in enumerate(bits):
        masks |= ((subsets >> j) & 1) << b
    if a_void:
        masks = masks[:1]
    elif others_void:
        masks = masks[-1:]
    dealt = masks | base
    cols = [popcount13(masks)] + [suit_feature(kind, bit, dealt) for kind, bit in specs]
    table = np.stack(cols, axis=1)
    out = cast(np.ndarray, unique_rows(table))
    out.setflags(write=False)
    return out


def join_counts(prev: np.ndarray, contrib: np.ndarray, vac: Sequence[int], later: Sequence[int],
                limit: int | None = None, what: str = "the joint table") -> tuple[np.ndarray, np.ndarray]:
    """Pairs (state, option) that keep every seat within reach of its vacant places after a suit.

    Columns ``0 .. k-2`` of ``prev`` and ``contrib`` are the first concealed seats' counts of cards
    (the last seat's is what is left): after the suit a seat must neither pass its vacant places
    ``vac`` nor fall so short that the ``later`` unseen cards it may take cannot fill them. The
    first two seats' ranges are joined by sorting (no cross product); the last seat's is the
    caller's to check. Refuses (:class:`~inference.errors.TooComplexError`) more than ``limit``
    pairs (default :data:`JOINT_LIMIT`).
    """
    limit = JOINT_LIMIT if limit is None else limit
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
