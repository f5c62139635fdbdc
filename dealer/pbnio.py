"""Writing dealt boards (PBN, one line per deal, JSON lines) and reading PBN deals back.

Boards are numbered from 1; dealer and vulnerability follow the standard
16-board rotation, as bridge software expects.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from typing import Iterable, Iterator, TextIO

import numpy as np

from .cardset import SUIT_MASK
from .deal import Deal, PartialDeal
from .errors import InvalidDealError
from .seat import Seat
from .suit import RANK_CHARS

__all__ = ["HOLDING_TEXT", "masks_to_pbn", "board_dealer", "board_vulnerability", "write_deals",
           "read_pbn_deals", "FORMATS"]

#: PBN text of every 13-bit holding (bit 0 = ace).
HOLDING_TEXT: tuple[str, ...] = tuple(
    "".join(RANK_CHARS[i] for i in range(13) if h >> i & 1) for h in range(1 << 13)
)

FORMATS = ("pbn", "oneline", "json")

_VUL = ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW")


def board_dealer(board: int) -> Seat:
    """Dealer of a board number (1 = North, 2 = East, ...)."""
    return Seat((board - 1) % 4)


def board_vulnerability(board: int) -> str:
    """PBN vulnerability of a board number: None, NS, EW or All."""
    return _VUL[(board - 1) % 16]


def _hand_text(mask: int) -> str:
    return ".".join(HOLDING_TEXT[(mask >> (13 * s)) & SUIT_MASK] for s in range(4))


def masks_to_pbn(row: "Iterable[int]", first: Seat = Seat.N) -> str:
    """PBN deal string of four hand bit-sets (North, East, South, West)."""
    masks = [int(m) for m in row]
    return f"{first.name}:" + " ".join(_hand_text(masks[s]) for s in first.rotation())


def write_deals(masks: np.ndarray, out: TextIO, fmt: str = "pbn", *, start: int = 1,
                event: str = "kibitz deal", spec_text: str | None = None, declarer: Seat | None = None,
                contract: str | None = None) -> int:
    """Write deals given as an ``(n, 4)`` mask array; return how many were written.

    ``declarer`` and ``contract`` (PBN text such as ``3NTX``) fill those tags when known.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    date = _dt.date.today().strftime("%Y.%m.%d")
    if fmt == "pbn" and start == 1:
        out.write("% PBN 2.1\n% EXPORT\n")
        if spec_text:
            for line in spec_text.splitlines():
                out.write(f"% spec: {line}\n")
        out.write("\n")
    for i, row in enumerate(masks.tolist()):
        board = start + i
        if fmt == "oneline":
            out.write(masks_to_pbn(row) + "\n")
            continue
        if fmt == "json":
            hands = {s.name: _hand_text(row[s]) for s in Seat}
            out.write(json.dumps({"board": board, "deal": masks_to_pbn(row), "hands": hands}) + "\n")
            continue
        dealer = board_dealer(board)
        out.write(
            f'[Event "{event}"]\n[Site "?"]\n[Date "{date}"]\n[Board "{board}"]\n'
            '[West "?"]\n[North "?"]\n[East "?"]\n[South "?"]\n'
            f'[Dealer "{dealer.name}"]\n[Vulnerable "{board_vulnerability(board)}"]\n'
            f'[Deal "{masks_to_pbn(row, dealer)}"]\n'
            f'[Scoring "?"]\n[Declarer "{declarer.name if declarer is not None else "?"}"]\n'
            f'[Contract "{contract or "?"}"]\n[Result "?"]\n\n'
        )
    return len(masks)


_DEAL_TAG = re.compile(r'^\s*\[\s*Deal\s+"([^"]*)"\s*\]', re.IGNORECASE)
_ONELINE = re.compile(r"^\s*([NESWnesw]:\S+\s+\S+\s+\S+\s+\S+)\s*$")


def read_pbn_deals(stream: Iterable[str], source: str = "<stdin>") -> Iterator[Deal]:
    """Complete deals from PBN ``[Deal "..."]`` tags, or from lines holding just a deal string.

    A deal that is malformed raises :class:`~dealer.errors.InvalidDealError`
    naming ``source`` and the line; a deal with an unknown hand is completed
    when three hands are known, else reported the same way.
    """
    for number, line in enumerate(stream, start=1):
        m = _DEAL_TAG.match(line) or _ONELINE.match(line)
        if not m:
            continue
        try:
            pd = PartialDeal.from_pbn(m.group(1)).completed()
            yield pd.to_deal()
        except InvalidDealError as exc:
            raise InvalidDealError(f"{source}, line {number}: {exc}") from None
