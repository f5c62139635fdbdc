"""Array helpers for the hot paths: distinct values and distinct rows, by sorting; exact integer arrays.

numpy 2.3 and later answer a plain ``np.unique`` call by hashing, which on millions of int64 keys
is some twenty times slower than a sort (numpy 2.4.6: 4,000,000 keys, 1.55 s against 0.06 s), and
``np.unique(rows, axis=0)`` sorts the rows as structured records, slower still. These helpers
give the same answers (values and rows in increasing order) by a plain sort of int64 keys.

>>> unique_ints(np.array([5, 3, 5, 9, 3]))
array([3, 5, 9])
>>> rows, inverse = unique_rows(np.array([[1, 2], [0, 5], [1, 2]]), return_inverse=True)
>>> rows.tolist(), inverse.tolist()
([[0, 5], [1, 2]], [1, 0, 1])
>>> exact_ints([3, 4]).dtype, exact_ints([3, 2 ** 70]).dtype
(dtype('int64'), dtype('O'))
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

__all__ = ["unique_ints", "unique_inverse", "rank_packed", "unique_rows", "exact_ints", "INT64_LIMIT"]

#: Integers below this fit int64 with room for a sum or two; exact arrays switch to Python integers at it.
INT64_LIMIT = 2 ** 62


def exact_ints(values: Sequence[int]) -> np.ndarray:
    """Non-negative integers as an array, exactly: int64 while every one is below :data:`INT64_LIMIT`, Python
    integers (``object``) past it."""
    return np.array(values, dtype=np.int64 if max(values, default=0) < INT64_LIMIT else object)


def unique_ints(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values of an integer array (``np.unique(values)``, by a sort)."""
    flat = np.sort(np.asarray(values).reshape(-1))
    if flat.size < 2:
        return flat
    keep = np.empty(flat.size, dtype=bool)
    keep[0] = True
    np.not_equal(flat[1:], flat[:-1], out=keep[1:])
    return flat[keep]


def unique_inverse(values: np.ndarray, bits: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted distinct values of an integer array, an index of each in ``values`` (some occurrence:
    the first when the values are packed), and each value's place among them (``values == uniq[inverse]``).

    Non-negative values narrow enough to share an int64 with their positions are sorted packed with
    them (a plain sort, some six times faster than ``argsort``); wider ones first have their high bits
    replaced by their rank among the distinct high parts (the same order, fewer bits); the rest
    are argsorted.
    ``bits``, when given, promises ``0 <= values < 2**bits`` (the values are then not scanned for it).
    The places are int32 (fewer than 2**31 values).

    >>> [a.tolist() for a in unique_inverse(np.array([7, 2, 7]))]
    [[2, 7], [1, 0], [1, 0, 1]]
    """
    flat = np.asarray(values).reshape(-1)
    if flat.size == 0:
        return flat.copy(), np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    places = max(flat.size - 1, 1).bit_length()
    if bits is None:
        bits = int(flat.max()).bit_length() if int(flat.min()) >= 0 else 64
    if bits + places > 63 and bits < 63:
        # too wide to pack: the high bits are replaced by their rank among the distinct high parts
        low = bits + places - 63
        high_values, _, high_rank = unique_inverse(flat >> low, bits - low)
        ranked = (high_rank.astype(np.int64) << low) | (flat & ((1 << low) - 1))
        if (len(high_values) - 1).bit_length() + low + places <= 63:
            uniq, some, inverse = unique_inverse(ranked, (len(high_values) - 1).bit_length() + low)
            restored = (high_values[uniq >> low].astype(np.int64) << low) | (uniq & ((1 << low) - 1))
            return restored.astype(flat.dtype, copy=False), some, inverse
    if bits + places <= 63:
        packed = np.left_shift(flat, places, dtype=np.int64)
        packed |= np.arange(flat.size, dtype=np.int64)
        uniq, where, rank, start = rank_packed(packed, places)
    else:
        where = np.argsort(flat)
        ordered = flat[where]
        start, rank = _ranks(ordered)
        uniq = ordered[start]
    inverse = np.empty(flat.size, dtype=rank.dtype)
    inverse[where] = rank
    return uniq.astype(flat.dtype, copy=False), where[start], inverse


def rank_packed(packed: np.ndarray, places: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Values packed with distinct places (``value << places | place``, non-negative), sorted in place:
    the distinct values (sorted), then in sorted order every place, its value's rank among the
    distinct values (int32 below 2**31 values) and whether it is its value's first.

    >>> [a.tolist() for a in rank_packed(np.array([7 << 2 | 0, 2 << 2 | 1, 7 << 2 | 2]), 2)]
    [[2, 7], [1, 0, 2], [0, 1, 1], [True, True, False]]
    """
    packed.sort()
    where = packed & ((1 << places) - 1)
    packed >>= places
    start, rank = _ranks(packed)
    return packed[start], where, rank, start


def _ranks(ordered: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of sorted values: where each distinct one starts, and every value's rank among them."""
    start = np.ones(ordered.size, dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=start[1:])
    rank: np.ndarray = np.cumsum(start, dtype=np.int32 if ordered.size < 1 << 31 else np.intp)
    np.subtract(rank, 1, out=rank)
    return start, rank


def unique_rows(rows: np.ndarray, return_inverse: bool = False) -> Any:
    """``np.unique(rows, axis=0)`` (rows in increasing order) for a 2-D integer or bool array, by packing
    each row into int64 keys (one key while the columns' spans fit 62 bits, else one per group of
    columns, sorted lexicographically); bool rows are packed 8 columns a byte and compared as bytes."""
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] == 0 or not len(rows):
        uniq = rows[:1]
        return (uniq, np.zeros(len(rows), dtype=np.intp)) if return_inverse else uniq
    if rows.dtype == np.bool_:  # a wide bool matrix (one row per label, a column per cell) in one sort
        packed = np.ascontiguousarray(np.packbits(rows, axis=1))  # first column in the high bit: byte order
        _, first, inverse = np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(),
                                      return_index=True, return_inverse=True)
        return (rows[first], inverse.reshape(-1).astype(np.intp, copy=False)) if return_inverse else rows[first]
    values = rows.astype(np.int64)
    lo = values.min(axis=0)
    span = values.max(axis=0) - lo + 1
    keys: list[np.ndarray] = []
    key = np.zeros(len(rows), dtype=np.int64)
    room = 1
    for col in range(rows.shape[1]):
        width = int(span[col])
        if room * width >= 1 << 62 and room > 1:
            keys.append(key)
            key, room = np.zeros(len(rows), dtype=np.int64), 1
        key = key * width + (values[:, col] - lo[col])
        room *= width
    keys.append(key)
    if len(keys) == 1:
        _, first, inverse = unique_inverse(keys[0])
    else:
        order = np.lexsort(keys[::-1])
        start = np.zeros(len(rows), dtype=bool)
        start[0] = True
        for k in keys:
            ordered = k[order]
            start[1:] |= ordered[1:] != ordered[:-1]
        inverse = np.empty(len(rows), dtype=np.intp)
        inverse[order] = np.cumsum(start) - 1
        first = order[start]
    return (rows[first], inverse.astype(np.intp, copy=False)) if return_inverse else rows[first]
