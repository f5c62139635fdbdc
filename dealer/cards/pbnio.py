"""Writing dealt boards (PBN, one line per deal, JSON lines) and reading PBN deals back.

Boards are numbered from 1; dealer and vulnerability follow the standard
16-board rotation, as bridge software expects.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Iterable, Iterator, TextIO

import numpy as np

from dealer.cards.deal import Deal, PartialDeal
from dealer.cards.deal_text import board_dealer, board_vulnerability, hand_text
from dealer.errors import InvalidDealError
from dealer.cards.handtext import Field, digits_bytes, hands_text_bytes, join_rows
from dealer.cards.seat import Seat

__all__ = ["masks_to_pbn", "board_dealer", "board_vulnerability", "write_deals",
           "read_pbn_deals", "FORMATS"]

FORMATS = ("pbn", "oneline", "json")

def masks_to_pbn(row: "Iterable[int]", first: Seat = Seat.N) -> str:
    """PBN deal string of four hand bit-sets (North, East, South, West)."""
    masks = [int(m) for m in row]
    return f"{first.name}:" + " ".join(hand_text(masks[s]) for s in first.rotation())


def write_deals(masks: np.ndarray, out: TextIO, fmt: str = "pbn", *, start: int = 1,
                event: str = "kibitz deal", spec_text: str | None = None, declarer: Seat | None = None,
                contract: str | None = None, seed: int | None = None, dealer: Seat | None = None,
                vulnerable: str | None = None) -> int:
    """Write deals given as an ``(n, 4)`` mask array; return how many were written.

    ``declarer`` and ``contract`` (PBN text such as ``3NTX``) fill those tags when known, and ``dealer`` and
    ``vulnerable`` (PBN text such as ``NS``) when every deal has them (layouts of one board; by default they
    go round with the board numbers); ``seed``, the
    seed the deals were drawn with, goes in the PBN header (``% seed: N``) so they can be drawn again. The whole
    batch is laid out at once as a byte array (:mod:`dealer.cards.handtext`), not a deal at a time.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if start < 0:
        raise ValueError(f"boards are numbered from 0 or more, not from {start}")
    if fmt == "pbn" and start == 1:
        out.write("% PBN 2.1\n% EXPORT\n")
        if spec_text:
            for line in spec_text.splitlines():
                out.write(f"% spec: {line}\n")
        if seed is not None:
            out.write(f"% seed: {seed}\n")
        out.write("\n")
    masks = np.asarray(masks, dtype=np.uint64)
    hands = hands_text_bytes(masks)  # (n, 4, 16): N E S W
    at = 0
    while at < len(masks):  # runs of boards whose numbers have as many digits: records of one width
        board = start + at
        size = min(len(masks) - at, 10 ** len(str(board)) - board)
        part = hands[at:at + size]
        if fmt == "oneline":
            fields: list[Field] = [b"N:", part[:, 0], b" ", part[:, 1], b" ", part[:, 2], b" ", part[:, 3], b"\n"]
            out.write(join_rows(fields, size).decode("ascii"))
        elif fmt == "json":
            number = digits_bytes(np.arange(board, board + size), len(str(board)))
            fields = [b'{"board": ', number, b', "deal": "N:', part[:, 0], b" ", part[:, 1], b" ", part[:, 2],
                      b" ", part[:, 3], b'", "hands": {"N": "', part[:, 0], b'", "E": "', part[:, 1],
                      b'", "S": "', part[:, 2], b'", "W": "', part[:, 3], b'"}}\n']
            out.write(join_rows(fields, size).decode("ascii"))
        else:
            out.write(_pbn_records(part, board, event, declarer, contract, dealer, vulnerable))
        at += size
    return len(masks)


def _pbn_records(hands: np.ndarray, start: int, event: str, declarer: Seat | None, contract: str | None,
                 dealer: Seat | None = None, vulnerable: str | None = None) -> str:
    """PBN records of boards ``start ..`` (numbers of one width), 16 boards to a row.

    Sixteen boards in a row go once round the dealers and vulnerabilities (unless ``dealer`` and ``vulnerable``
    are given: every board's), so every row of consecutive boards has the same layout, whatever board it starts
    at; the deal string starts with the board's dealer.
    """
    date = _dt.date.today().strftime("%Y.%m.%d")
    head = f'[Event "{event}"]\n[Site "?"]\n[Date "{date}"]\n[Board "'.encode("utf-8")
    tail = (f'"]\n[Scoring "?"]\n[Declarer "{declarer.name if declarer is not None else "?"}"]\n'
            f'[Contract "{contract or "?"}"]\n[Result "?"]\n\n').encode("utf-8")
    n, width = len(hands), len(str(start))
    text = []
    full = n - n % 16
    for first, rows, per in ((0, full // 16, 16), (full, 1, n % 16)):
        if rows == 0 or per == 0:
            continue
        numbers = digits_bytes(np.arange(start + first, start + first + rows * per), width).reshape(rows, per * width)
        block = hands[first:first + rows * per].reshape(rows, per, 4, 16)
        fields: list[Field] = []
        for j in range(per):
            board = start + first + j
            deals_first = board_dealer(board) if dealer is None else dealer
            vul = board_vulnerability(board) if vulnerable is None else vulnerable
            fields += [head, numbers[:, j * width:(j + 1) * width],
                       f'"]\n[West "?"]\n[North "?"]\n[East "?"]\n[South "?"]\n[Dealer "{deals_first.name}"]\n'
                       f'[Vulnerable "{vul}"]\n[Deal "{deals_first.name}:'.encode("utf-8")]
            for k, seat in enumerate(deals_first.rotation()):
                if k:
                    fields.append(b" ")
                fields.append(block[:, j, int(seat)])
            fields.append(tail)
        text.append(join_rows(fields, rows).decode("utf-8"))
    return "".join(text)


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
