"""Printing deals as the ``dealer`` program does: its print actions, fast.

Every hand's PBN text is 16 characters (13 cards and 3 dots), so a whole
batch of deals is formatted at once into a byte array (numpy) instead of a
deal at a time: :func:`hand_text_bytes` and :func:`oneline_text`. The layouts
are those of ``dealer``: ``printall`` (four hands side by side),
``printew``, ``printcompact`` (a line per hand), ``printoneline`` (a line
per deal), ``printpbn`` and ``print(seats)`` (each seat's hands on a page of
its own).

>>> from dealer.deal import Deal
>>> masks = np.array([Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT98.JT 765.765.765.8765 432.432.432.9432").masks])
>>> print(oneline_text(masks), end="")
n AKQJ.AKQ.AKQ.AKQ e T98.JT98.JT98.JT s 765.765.765.8765 w 432.432.432.9432 
"""

from __future__ import annotations

import datetime as _dt
from typing import Sequence

import numpy as np

from .pbnio import board_dealer, board_vulnerability
from .seat import Seat
from .suit import RANK_CHARS

__all__ = ["hand_text_bytes", "deal_texts", "oneline_text", "compact_text", "pbn_text", "columns_text",
           "pages_text", "SPACED"]

_RANKS = np.frombuffer("".join(RANK_CHARS[:13]).encode("ascii"), dtype=np.uint8)
_SHIFTS = np.arange(52, dtype=np.uint64)

#: ``dealer``'s spaced text of every 13-bit holding: ``"K 3 2 "``, a void ``"- "``.
SPACED: tuple[str, ...] = tuple(
    "".join(RANK_CHARS[i] + " " for i in range(13) if h >> i & 1) or "- " for h in range(1 << 13)
)


def hand_text_bytes(hands: np.ndarray) -> np.ndarray:
    """The PBN text of ``n`` hands (13-card bit-sets) as an ``(n, 16)`` uint8 array: ``AKQJ.AKQ.AKQ.AKQ``."""
    hands = np.asarray(hands, dtype=np.uint64)
    n = len(hands)
    bits = ((hands[:, None] >> _SHIFTS) & np.uint64(1)).astype(bool)
    rows, cols = np.nonzero(bits)
    if len(cols) != 13 * n:
        raise ValueError("every hand must hold 13 cards")
    cols = cols.reshape(n, 13)
    out = np.full((n, 16), ord("."), dtype=np.uint8)
    where = np.arange(13) + cols // 13  # a card's place: its rank in the hand plus one dot per suit before it
    out[np.arange(n)[:, None], where] = _RANKS[cols % 13]
    return out


def _layout(masks: np.ndarray, parts: Sequence["str | int"], end: str) -> str:
    """Deals laid out as ``parts`` (text, or a seat's index for its hand), each ending with ``end``."""
    masks = np.asarray(masks, dtype=np.uint64)
    n = len(masks)
    pieces: list[np.ndarray] = []
    for part in list(parts) + [end]:
        if isinstance(part, int):
            pieces.append(hand_text_bytes(masks[:, part]))
        else:
            fixed = np.frombuffer(part.encode("ascii"), dtype=np.uint8)
            pieces.append(np.broadcast_to(fixed, (n, len(fixed))))
    return np.concatenate(pieces, axis=1).tobytes().decode("ascii") if n else ""


def oneline_text(masks: np.ndarray) -> str:
    """``printoneline``: ``n hand e hand s hand w hand `` and a newline per deal."""
    return _layout(masks, ["n ", 0, " e ", 1, " s ", 2, " w ", 3, " "], "\n")


def compact_text(masks: np.ndarray) -> str:
    """``printcompact``: four lines per deal, ``n hand`` .. ``w hand``."""
    return _layout(masks, ["n ", 0, "\ne ", 1, "\ns ", 2, "\nw ", 3], "\n")


def deal_texts(masks: np.ndarray) -> list[str]:
    """The PBN deal strings ``N:hand hand hand hand`` of ``n`` deals (69 characters each)."""
    text = _layout(masks, ["N:", 0, " ", 1, " ", 2, " ", 3], "")
    return [text[i:i + 69] for i in range(0, len(text), 69)]


def pbn_text(masks: np.ndarray, start: int, event: str, dealer: Seat | None = None,
             vulnerable: str | None = None) -> str:
    """``printpbn``: a PBN record per deal, boards numbered from ``start``.

    Dealer and vulnerability follow the board number unless the script fixed them.
    """
    date = _dt.date.today().strftime("%Y.%m.%d")
    head = f'[Event "{event}"]\n[Site "-"]\n[Date "{date}"]\n[Board "'
    tail = '[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n'
    seats = '"]\n[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n[Dealer "'
    out = []
    for i, deal in enumerate(deal_texts(masks)):
        board = start + i
        d = (dealer if dealer is not None else board_dealer(board)).name
        v = vulnerable if vulnerable is not None else board_vulnerability(board)
        out.append(f'{head}{board}{seats}{d}"]\n[Vulnerable "{v}"]\n[Deal "{deal}"]\n{tail}')
    return "".join(out)


def _spaced_rows(mask: int) -> list[str]:
    return [SPACED[(mask >> (13 * s)) & 0x1FFF] for s in range(4)]


def columns_text(masks: np.ndarray, seats: Sequence[Seat], start: int | None = None) -> str:
    """``printall`` (all four seats, with the deal's number) or ``printew`` (west and east): hands side by side."""
    out = []
    for i, row in enumerate(np.asarray(masks).tolist()):
        if start is not None:
            out.append(f"{start + i:4d}.\n")
        hands = [_spaced_rows(int(row[s])) for s in seats]
        for suit in range(4):
            cols = [h[suit] for h in hands]
            out.append("".join(c.ljust(20) for c in cols[:-1]) + cols[-1] + "\n")
        out.append("\n")
    return "".join(out)


def pages_text(masks: np.ndarray, seats: Sequence[Seat], start: int = 1) -> str:
    """``print(seats)``: each seat's hands on a page of its own, four deals across, pages ending in a form feed."""
    rows = np.asarray(masks).tolist()
    out = []
    for seat in seats:
        out.append(f"\n\n{seat.name_long.capitalize()} hands:\n\n\n\n")
        for first in range(0, len(rows), 4):
            group = rows[first:first + 4]
            out.append("".join(f"{start + first + j:4d}.".ljust(20) for j in range(len(group))) + "\n")
            hands = [_spaced_rows(int(r[seat])) for r in group]
            for suit in range(4):
                cols = [h[suit] for h in hands]
                out.append("".join(c.ljust(20) for c in cols[:-1]) + cols[-1] + "\n")
            out.append("\n")
        out.append("\f")
    return "".join(out)
