"""Printing deals as the ``dealer`` program does: its print actions, fast.

Every hand's PBN text is 16 characters (13 cards and 3 dots), so a whole
batch of deals is formatted at once into a byte array (numpy) instead of a
deal at a time: :func:`hand_text_bytes` and :func:`oneline_text`. The layouts
are those of ``dealer``: ``printall`` (four hands side by side),
``printew``, ``printcompact`` (a line per hand), ``printoneline`` (a line
per deal), ``printpbn`` and ``print(seats)`` (each seat's hands on a page of
its own).

>>> from dealer.cards.deal import Deal
>>> masks = np.array([Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT98.JT 765.765.765.8765 432.432.432.9432").masks])
>>> print(oneline_text(masks), end="")
n AKQJ.AKQ.AKQ.AKQ e T98.JT98.JT98.JT s 765.765.765.8765 w 432.432.432.9432 
"""

from __future__ import annotations

import datetime as _dt
from functools import cache
from typing import Sequence

import numpy as np

from dealer.cards.deal_text import pages
from dealer.cards.handtext import Field, digits_bytes, hand_text_bytes, hands_text_bytes, join_rows
from dealer.cards.pbnio import board_dealer, board_vulnerability
from dealer.cards.seat import Seat
from dealer.cards.suit import RANK_CHARS

__all__ = ["hand_text_bytes", "hands_text_bytes", "deal_lines", "deal_texts", "oneline_text", "compact_text", "pbn_text", "columns_text",
           "pages_text"]


def _layout_bytes(masks: np.ndarray, parts: Sequence["str | int"]) -> np.ndarray:
    """Deals laid out as ``parts`` (text, or a seat's index for its hand): an ``(n, width)`` uint8 array."""
    masks = np.asarray(masks, dtype=np.uint64)
    n = len(masks)
    hands = hands_text_bytes(masks) if n else np.zeros((0, 4, 16), dtype=np.uint8)
    width = sum(16 if isinstance(p, int) else len(p) for p in parts)
    out = np.empty((n, width), dtype=np.uint8)
    at = 0
    for part in parts:
        if isinstance(part, int):
            out[:, at:at + 16] = hands[:, part]
            at += 16
        else:
            out[:, at:at + len(part)] = np.frombuffer(part.encode("ascii"), dtype=np.uint8)
            at += len(part)
    return out


def _layout(masks: np.ndarray, parts: Sequence["str | int"], end: str) -> str:
    """Deals laid out as ``parts`` (text, or a seat's index for its hand), each ending with ``end``."""
    return _layout_bytes(masks, list(parts) + [end]).tobytes().decode("ascii")


def oneline_text(masks: np.ndarray) -> str:
    """``printoneline``: ``n hand e hand s hand w hand``, a space and a newline per deal."""
    return _layout(masks, ["n ", 0, " e ", 1, " s ", 2, " w ", 3, " "], "\n")


def compact_text(masks: np.ndarray) -> str:
    """``printcompact``: four lines per deal, ``n hand`` .. ``w hand``."""
    return _layout(masks, ["n ", 0, "\ne ", 1, "\ns ", 2, "\nw ", 3], "\n")


def deal_lines(masks: np.ndarray) -> str:
    """A PBN deal string ``N:hand hand hand hand`` per line (``kibitz deal --format oneline``)."""
    return _layout(masks, ["N:", 0, " ", 1, " ", 2, " ", 3], "\n")


def deal_texts(masks: np.ndarray) -> list[str]:
    """The PBN deal strings ``N:hand hand hand hand`` of ``n`` deals (69 characters each)."""
    text = _layout(masks, ["N:", 0, " ", 1, " ", 2, " ", 3], "")
    return [text[i:i + 69] for i in range(0, len(text), 69)]


def pbn_text(masks: np.ndarray, start: int, event: str, dealer: Seat | None = None,
             vulnerable: str | None = None) -> str:
    """``printpbn``: a PBN record per deal, boards numbered from ``start``.

    Dealer and vulnerability follow the board number unless the script fixed them. Every record is
    laid out at the same width, its board number and vulnerability padded with zero bytes, which
    are then dropped: one byte array for the whole batch.
    """
    n = len(masks)
    if n == 0:
        return ""
    date = _dt.date.today().strftime("%Y.%m.%d")
    boards = np.arange(start, start + n, dtype=np.int64)
    width = len(str(start + n - 1))
    rotation = (boards - 1) % 16
    parts: list[tuple[str, object]] = [
        ("text", f'[Event "{event}"]\n[Site "-"]\n[Date "{date}"]\n[Board "'), ("board", width),
        ("text", '"]\n[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n[Dealer "'), ("dealer", 1),
        ("text", '"]\n[Vulnerable "'), ("vul", 4), ("text", '"]\n[Deal "'), ("deal", 69),
        ("text", '"]\n[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n'),
    ]
    size = sum(len(str(v).encode()) if k == "text" else int(str(v)) for k, v in parts)
    out = np.zeros((n, size), dtype=np.uint8)
    at = 0
    for kind, value in parts:
        if kind == "text":
            raw = np.frombuffer(str(value).encode("utf-8"), dtype=np.uint8)
            out[:, at:at + len(raw)] = raw
            at += len(raw)
        elif kind == "board":
            for k in range(width):  # digits, most significant first; leading zeros stay zero bytes
                power = 10 ** (width - 1 - k)
                out[:, at + k] = np.where(boards >= power, ord("0") + boards // power % 10, 0)
            at += width
        elif kind == "dealer":
            names = [(dealer if dealer is not None else board_dealer(r + 1)).name for r in range(16)]
            out[:, at] = np.frombuffer("".join(names).encode("ascii"), dtype=np.uint8)[rotation]
            at += 1
        elif kind == "vul":
            table = np.zeros((16, 4), dtype=np.uint8)
            for r in range(16):
                v = (vulnerable if vulnerable is not None else board_vulnerability(r + 1)).encode("ascii")[:4]
                table[r, :len(v)] = np.frombuffer(v, dtype=np.uint8)
            out[:, at:at + 4] = table[rotation]
            at += 4
        else:
            out[:, at:at + 69] = _layout_bytes(masks, ["N:", 0, " ", 1, " ", 2, " ", 3])
            at += 69
    return bytes(out[out != 0].tobytes()).decode("utf-8")


@cache
def _spaced_table(pad: int) -> np.ndarray:
    """Row ``h``: the spaced text of holding ``h`` padded with spaces to ``pad`` characters, then zero bytes to 26
    (20: a hand's column, padded to the next one; 0: the last column)."""
    held = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1  # (8192, 13): rank i held (0 = ace)
    length = held.sum(axis=1)
    table = np.zeros((1 << 13, 26), dtype=np.uint8)
    rows, ranks = np.nonzero(held)
    places = 2 * (np.cumsum(held, axis=1)[rows, ranks] - 1)  # each rank and a space: "K 3 2 "
    table[rows, places] = np.frombuffer(RANK_CHARS.encode("ascii"), dtype=np.uint8)[ranks]
    table[rows, places + 1] = ord(" ")
    table[length == 0, :2] = np.frombuffer(b"- ", dtype=np.uint8)  # a void
    columns = np.arange(26)
    table[(columns >= 2 * np.maximum(length, 1)[:, None]) & (columns < pad)] = ord(" ")
    return table


def columns_text(masks: np.ndarray, seats: Sequence[Seat], start: int | None = None) -> str:
    """``printall`` (all four seats, with the deal's number) or ``printew`` (west and east): hands side by side.

    A batch at a time: each suit's line is the seats' spaced holdings looked up in tables padded to
    the column (zero bytes past the text, dropped when the rows are joined).
    """
    masks = np.asarray(masks, dtype=np.uint64)
    n = len(masks)
    if n == 0:
        return ""
    fields: list[Field] = []
    if start is not None:
        last = start + n - 1
        width = max(4, len(str(last)))
        number = digits_bytes(np.arange(start, last + 1), width)
        right = number[:, width - 4:]
        right[right == 0] = ord(" ")  # "%4d": spaces before a short number
        fields += [number, b".\n"]
    for suit in range(4):
        holdings = [((masks[:, seat] >> np.uint64(13 * suit)) & np.uint64(0x1FFF)).astype(np.intp) for seat in seats]
        fields += [_spaced_table(20)[h] for h in holdings[:-1]] + [_spaced_table(0)[holdings[-1]], b"\n"]
    fields.append(b"\n")
    return join_rows(fields, n).decode("ascii")


def pages_text(masks: np.ndarray, seats: Sequence[Seat], start: int = 1) -> str:
    """``print(seats)``: each seat's hands on a page of its own, four deals across, pages ending in a form feed."""
    return pages(np.asarray(masks).tolist(), seats, start)
