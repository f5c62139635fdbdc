"""DealerV2's per-deal reports: ``printrpt``/``csvrpt`` rows and ``export`` lines.

A row holds the report's items in order, the first after a space and each later one after a comma:
a number as a whole number (a decimal of the script in hundredths, as DealerV2 prints it), a string in
single quotes, hands as ``n AKJ3.KJ943.T76.J `` (seat letter, the suits S.H.D.C, a space; several
hands in one field, north first), and ``trix`` as the double-dummy tricks of each seat named, clubs,
diamonds, hearts, spades then notrump, and ``parcontract`` as the par contract's text in single quotes
(``' 4H  by NS none'``). ``export`` writes the hands as DealerV2's ``-N``...``-W``
options read them back: ``-W SAJ4,HKJ9,D853,CAQT7`` (void suits left out), two hands a space apart.
``csvrpt`` writes where ``printrpt`` does (DealerV2's ``-C`` file is not an option of ``kibitz dealer``:
use ``-o``).

>>> import numpy as np
>>> from dealer.cards.deal import Deal
>>> from dealer.lang.actions import Hands
>>> pbn = "N:AKJ3.KJ943.T76.J Q2.Q.Q9.AKQT9876 T98.A8765.AK8.32 7654.T2.J5432.54"
>>> masks = np.array([Deal.from_pbn(pbn).masks], dtype=np.uint64)
>>> report_rows((Hands((Seat.N, Seat.S)), "hcp", Hands((Seat.W,))), [None, None, None], masks)
[" n AKJ3.KJ943.T76.J s T98.A8765.AK8.32 ,'hcp',w 7654.T2.J5432.54 "]
>>> export_rows((Seat.W, Seat.N), masks)
['-N SAKJ3,HKJ943,DT76,CJ  -W S7654,HT2,DJ5432,C54 ']
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from dealer.cards.cardset import CardSet
from dealer.cards.seat import Seat
from dealer.lang.actions import DoubleDummyRow, Hands, ParContract

__all__ = ["report_rows", "export_rows"]


def _hand(seat: Seat, mask: int) -> str:
    return f"{seat.name.lower()} {CardSet(mask)} "


def report_rows(items: Sequence[object], values: Sequence[np.ndarray | None], masks: np.ndarray) -> list[str]:
    """Each deal's row (no newline): ``values[k]`` are item ``k``'s numbers on the deals (an expression's, or
    ``out[deal, strain, seat]`` for a :class:`DoubleDummyRow`; None for the others)."""
    rows = []
    for d, deal in enumerate(np.asarray(masks, dtype=np.uint64).tolist()):
        fields = []
        for item, value in zip(items, values):
            if isinstance(item, str):
                fields.append(f"'{item}'")
            elif isinstance(item, Hands):
                fields.append("".join(_hand(seat, deal[seat]) for seat in sorted(item.seats)))
            elif isinstance(item, ParContract):
                assert value is not None
                fields.append(f"'{value[d]}'")
            elif isinstance(item, DoubleDummyRow):
                assert value is not None
                fields.append(",".join(str(int(value[d, strain, seat])) for seat in sorted(item.seats)
                                       for strain in range(5)))
            else:
                assert value is not None
                fields.append(str(int(value[d])))
        rows.append(" " + ",".join(fields))
    return rows


def export_rows(seats: Sequence[Seat], masks: np.ndarray) -> list[str]:
    """Each deal's ``export`` line (no newline): the hands of ``seats``, north first."""
    rows = []
    for deal in np.asarray(masks, dtype=np.uint64).tolist():
        hands = []
        for seat in sorted(seats):
            suits = [f"{letter}{holding}" for letter, holding in zip("SHDC", str(CardSet(deal[seat])).split("."))
                     if holding]
            hands.append(f"-{seat.name} {','.join(suits)} ")
        rows.append(" ".join(hands))
    return rows
