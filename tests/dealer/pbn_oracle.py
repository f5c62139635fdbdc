"""The per-deal writers the batch writers replaced: ``dealer.cards.pbnio.write_deals`` and ``printall``'s columns.

Kept as they were before the writers were vectorised (a deal at a time, with f-strings), so that
the tests can check the new writers against them byte for byte, and ``benchmarks/printing.py`` can
time both in one process.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Sequence, TextIO

import numpy as np

from dealer.cards.pbnio import board_dealer, board_vulnerability, masks_to_pbn
from dealer.cards.seat import Seat
from dealer.cards.suit import RANK_CHARS

__all__ = ["write_deals_per_deal", "columns_per_deal"]


def _holding(h: int) -> str:
    """A 13-bit holding's PBN text (bit 0 = ace), a card at a time."""
    return "".join(RANK_CHARS[i] for i in range(13) if h >> i & 1)


def _spaced(h: int) -> str:
    """``dealer``'s spaced text of a holding: ``"K 3 2 "``, a void ``"- "``."""
    return "".join(c + " " for c in _holding(h)) or "- "


def _hand_text(mask: int) -> str:
    return ".".join(_holding((mask >> (13 * s)) & 0x1FFF) for s in range(4))


def write_deals_per_deal(masks: np.ndarray, out: TextIO, fmt: str = "pbn", *, start: int = 1,
                         event: str = "kibitz deal", spec_text: str | None = None, declarer: Seat | None = None,
                         contract: str | None = None, seed: int | None = None) -> int:
    """The old ``write_deals``: the same arguments, the same text, formatted one deal at a time."""
    date = _dt.date.today().strftime("%Y.%m.%d")
    if fmt == "pbn" and start == 1:
        out.write("% PBN 2.1\n% EXPORT\n")
        if spec_text:
            for line in spec_text.splitlines():
                out.write(f"% spec: {line}\n")
        if seed is not None:
            out.write(f"% seed: {seed}\n")
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


def columns_per_deal(masks: np.ndarray, seats: Sequence[Seat], start: int | None = None) -> str:
    """The old ``dealer.cards.printing.columns_text`` (``printall``, ``printew``): a deal at a time."""
    out = []
    for i, row in enumerate(np.asarray(masks).tolist()):
        if start is not None:
            out.append(f"{start + i:4d}.\n")
        hands = [[_spaced((int(row[s]) >> (13 * suit)) & 0x1FFF) for suit in range(4)] for s in seats]
        for suit in range(4):
            cols = [h[suit] for h in hands]
            out.append("".join(c.ljust(20) for c in cols[:-1]) + cols[-1] + "\n")
        out.append("\n")
    return "".join(out)
