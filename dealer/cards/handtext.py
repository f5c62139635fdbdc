"""The text of many deals at once: hands and whole records laid out as byte arrays (numpy).

Every hand's PBN text is 16 characters (13 cards and 3 dots), so the hands of a
whole batch are looked up suit by suit in a table of the 8,192 holdings
(:func:`hands_text_bytes`). A record (a PBN board, a JSON line, a line per
deal) is then a row of fields side by side, the same for every deal of the
batch: text that never changes, a hand, or a field of varying width (a board
number, a vulnerability) padded with zero bytes that are dropped when the rows
are joined (:func:`join_rows`). One byte array holds the whole batch; no deal
is formatted on its own.

>>> masks = np.array([[0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39]], dtype=np.uint64)
>>> join_rows([b"[", hands_text_bytes(masks)[:, 0], b"] board ", digits_bytes(np.array([7]), 3)], 1)
b'[AKQJT98765432... board 7'
"""

from __future__ import annotations

from functools import cache
from typing import Sequence, Union

import numpy as np

from dealer.cards.suit import RANK_CHARS

__all__ = ["hands_text_bytes", "hand_text_bytes", "digits_bytes", "join_rows", "Field"]

#: A field of a record: text the same for every deal, or an ``(n, w)`` uint8 array of each deal's
#: bytes (zero bytes are padding and are dropped).
Field = Union[bytes, np.ndarray]

@cache
def _suit_words() -> tuple[np.ndarray, np.ndarray]:
    """Each holding's text placed at each offset of a 16-byte hand, as two little-endian uint64 words.

    Row ``(last * 17 + offset) * 8192 + holding``: the holding's ranks then a dot (no dot when
    ``last``, the fourth suit), starting ``offset`` bytes in, zero bytes elsewhere (cut at 16
    bytes, which only a holding too long for its offset reaches). Also each holding's length.
    """
    holdings = np.arange(1 << 13)
    held = (holdings[:, None] >> np.arange(13)) & 1  # (8192, 13): rank i held (0 = ace)
    length = held.sum(axis=1)
    text = np.zeros((2, 1 << 13, 32), dtype=np.uint8)
    rows, ranks = np.nonzero(held)
    places = np.cumsum(held, axis=1)[rows, ranks] - 1
    chars = np.frombuffer(RANK_CHARS.encode("ascii"), dtype=np.uint8)
    text[:, rows, places] = chars[ranks]
    text[0, holdings, length] = ord(".")
    placed = np.zeros((2, 17, 1 << 13, 16), dtype=np.uint8)
    for offset in range(17):
        placed[:, offset, :, offset:] = text[:, :, :16 - offset]
    words = placed.reshape(-1, 16).view("<u8").astype(np.uint64)
    return words, length.astype(np.intp)


_HOLDING = np.uint64(0x1FFF)


def hands_text_bytes(masks: np.ndarray) -> np.ndarray:
    """The PBN text of ``(n, k)`` hands (13-card bit-sets) as an ``(n, k, 16)`` uint8 array.

    A hand's text is 16 bytes: two uint64 words. Each suit's text (its ranks and a dot) is looked
    up already placed where it starts in the hand, after the suits before it, and the four are
    or-ed together. Nothing is formatted per hand and no byte is dropped.
    """
    masks = np.asarray(masks, dtype=np.uint64)
    holdings = [((masks >> np.uint64(13 * suit)) & _HOLDING).astype(np.intp) for suit in range(4)]
    table, length = _suit_words()  # built on first use: most runs print nothing
    lengths = [length[h] for h in holdings]
    if masks.size and not bool(np.all(lengths[0] + lengths[1] + lengths[2] + lengths[3] == 13)):
        raise ValueError("every hand must hold 13 cards")
    words = table[holdings[0]]  # the first suit starts the hand
    offset = lengths[0] + 1
    for suit in (1, 2, 3):
        words |= table[((17 if suit == 3 else 0) + offset) * 8192 + holdings[suit]]
        offset += lengths[suit] + 1
    return words.astype("<u8", copy=False).view(np.uint8).reshape(masks.shape + (16,))


def hand_text_bytes(hands: np.ndarray) -> np.ndarray:
    """The PBN text of ``n`` hands (13-card bit-sets) as an ``(n, 16)`` uint8 array: ``AKQJ.AKQ.AKQ.AKQ``."""
    return hands_text_bytes(np.asarray(hands, dtype=np.uint64)[:, None])[:, 0]


def digits_bytes(values: np.ndarray, width: int) -> np.ndarray:
    """Non-negative integers in decimal as an ``(n, width)`` uint8 array, right-aligned, padded with zero bytes.

    ``width`` must hold the largest value; a zero is written ``0``.
    """
    values = np.asarray(values, dtype=np.int64)
    if values.size and (int(values.min()) < 0 or int(values.max()) >= 10 ** width):
        raise ValueError(f"numbers {int(values.min())} .. {int(values.max())} do not fit {width} digits")
    out = np.zeros((len(values), width), dtype=np.uint8)
    for k in range(width):  # most significant first; leading zeros stay zero bytes
        power = 10 ** (width - 1 - k)
        shown = (values >= power) | (k == width - 1)
        out[:, k] = np.where(shown, ord("0") + values // power % 10, 0)
    return out


def join_rows(fields: Sequence[Field], n: int) -> bytes:
    """``n`` records, each the ``fields`` side by side, joined into one byte string.

    Text fields (``bytes``) are written whole in every record, zero bytes included; array fields
    are one row per record and their zero bytes are dropped.
    """
    widths = [len(f) if isinstance(f, bytes) else int(f.shape[1]) for f in fields]
    out = np.empty((n, sum(widths)), dtype=np.uint8)
    keep: np.ndarray | None = None
    at = 0
    for field, width in zip(fields, widths):
        if isinstance(field, bytes):
            out[:, at:at + width] = np.frombuffer(field, dtype=np.uint8)
        else:
            if field.shape[0] != n:
                raise ValueError(f"a field has {field.shape[0]} rows for {n} records")
            out[:, at:at + width] = field
            padded = field == 0
            if padded.any():
                if keep is None:
                    keep = np.ones(out.shape, dtype=bool)
                keep[:, at:at + width] = ~padded
        at += width
    return (out[keep] if keep is not None else out).tobytes()
