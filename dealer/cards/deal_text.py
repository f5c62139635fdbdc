"""One deal's text as the ``dealer`` program prints it, without numpy.

The layouts of :mod:`dealer.cards.printing` (which formats whole batches of deals at once in byte
arrays), a deal at a time: for the everyday run of a few deals (:mod:`dealer.run.quick`), which starts
without numpy. A deal is four hands as 52-bit sets, North first.

>>> from dealer.cards.deal import Deal
>>> deal = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT98.JT 765.765.765.8765 432.432.432.9432").masks
>>> print(oneline(deal), end="")
n AKQJ.AKQ.AKQ.AKQ e T98.JT98.JT98.JT s 765.765.765.8765 w 432.432.432.9432 
>>> print(columns(deal, (3, 1)), end="")
4 3 2               T 9 8 
4 3 2               J T 9 8 
4 3 2               J T 9 8 
9 4 3 2             J T 
<BLANKLINE>
"""

from __future__ import annotations

from functools import cache
from typing import Sequence

from dealer.cards.seat import Seat
from dealer.cards.suit import RANK_CHARS, holding_text

__all__ = ["spaced", "hand_text", "oneline", "compact", "columns", "pages", "pbn_record", "board_dealer",
           "board_vulnerability"]

_VULNERABLE = ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS",
               "EW")


def board_dealer(board: int) -> Seat:
    """Dealer of a board number (1 = North, 2 = East, ...)."""
    return Seat((board - 1) % 4)


def board_vulnerability(board: int) -> str:
    """PBN vulnerability of a board number: None, NS, EW or All."""
    return _VULNERABLE[(board - 1) % 16]


@cache
def spaced(holding: int) -> str:
    """``dealer``'s spaced text of a 13-bit holding (``"K 3 2 "``, a void ``"- "``)."""
    return "".join(RANK_CHARS[i] + " " for i in range(13) if holding >> i & 1) or "- "


def hand_text(hand: int) -> str:
    """A hand's PBN text, spades first: ``AKQJ.AKQ.AKQ.AKQ``."""
    return ".".join(holding_text(hand >> (13 * suit) & 0x1FFF) for suit in range(4))


def oneline(deal: Sequence[int]) -> str:
    """``printoneline``: ``n hand e hand s hand w hand``, a space and a newline."""
    return "n {} e {} s {} w {} \n".format(*(hand_text(hand) for hand in deal))


def compact(deal: Sequence[int]) -> str:
    """``printcompact``: four lines, ``n hand`` .. ``w hand``."""
    return "n {}\ne {}\ns {}\nw {}\n".format(*(hand_text(hand) for hand in deal))


def columns(deal: Sequence[int], seats: Sequence[int], number: int | None = None) -> str:
    """``printall`` (all four seats, with the deal's number) or ``printew`` (west and east): hands side by
    side, a column of 20 characters each."""
    out = [] if number is None else [f"{number:4d}.\n"]
    for suit in range(4):
        texts = [spaced(deal[seat] >> (13 * suit) & 0x1FFF) for seat in seats]
        out.append("".join(text.ljust(20) for text in texts[:-1]) + texts[-1] + "\n")
    out.append("\n")
    return "".join(out)


def pages(deals: Sequence[Sequence[int]], seats: Sequence[int], start: int = 1) -> str:
    """``print(seats)``: each seat's hands on a page of its own, four deals across, pages ending in a form feed."""
    out = []
    for seat in seats:
        out.append(f"\n\n{Seat(seat).name_long.capitalize()} hands:\n\n\n\n")
        for first in range(0, len(deals), 4):
            group = deals[first:first + 4]
            out.append("".join(f"{start + first + j:4d}.".ljust(20) for j in range(len(group))) + "\n")
            for suit in range(4):
                texts = [spaced(deal[seat] >> (13 * suit) & 0x1FFF) for deal in group]
                out.append("".join(text.ljust(20) for text in texts[:-1]) + texts[-1] + "\n")
            out.append("\n")
        out.append("\f")
    return "".join(out)


def pbn_record(deal: Sequence[int], board: int, event: str, date: str, dealer: Seat | None = None,
               vulnerable: str | None = None) -> str:
    """``printpbn``: one deal's PBN record, board ``board`` (dealer and vulnerability follow it unless the script
    fixed them; a vulnerability is cut to four characters, as ``dealer`` writes it)."""
    seat = (dealer if dealer is not None else board_dealer(board)).name
    vul = (vulnerable if vulnerable is not None else board_vulnerability(board))[:4]
    hands = " ".join(hand_text(hand) for hand in deal)
    return (f'[Event "{event}"]\n[Site "-"]\n[Date "{date}"]\n[Board "{board}"]\n[West "-"]\n[North "-"]\n'
            f'[East "-"]\n[South "-"]\n[Dealer "{seat}"]\n[Vulnerable "{vul}"]\n[Deal "N:{hands}"]\n'
            '[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n')
