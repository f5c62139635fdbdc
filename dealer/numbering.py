"""Pavlicek's deal numbering: a bijection between deals and ``0 .. D-1``.

From Richard Pavlicek, *Mapping Bridge Deals*. Cards are taken in the order
``SA HA DA CA SK HK ... C2`` (rank by rank, suits S H D C); at each card the
remaining space of numbers is split among N, E, S, W in proportion to their
vacant places, and the card goes to the seat whose part holds the number.
Number 0 gives North the first 13 cards of that order, East the next 13 and
South the next; ``D - 1`` gives them to West, South and East.

All arithmetic is on Python ints; nothing is rounded.

>>> number_to_deal(0).to_pbn()
'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432'
>>> deal_to_number(number_to_deal(D - 1)) == D - 1
True
"""

from __future__ import annotations

from math import factorial

from .card import Card
from .deal import Deal
from .errors import DealNumberError, InvalidDealError
from .suit import Rank, Suit

__all__ = ["D", "PAVLICEK_ORDER", "deal_to_number", "number_to_deal"]

#: The number of bridge deals, 52! / (13!)^4.
D: int = factorial(52) // factorial(13) ** 4

#: Card indices in Pavlicek's order: SA HA DA CA SK HK DK CK ... C2.
PAVLICEK_ORDER: tuple[int, ...] = tuple(
    Card(Suit(i % 4), Rank(14 - i // 4)).index for i in range(52)
)


def number_to_deal(number: int) -> Deal:
    """The deal numbered ``number`` (``0 <= number < D``)."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(f"invalid deal number {number!r}: expected an integer 0 .. {D - 1}")
    if not 0 <= number < D:
        raise DealNumberError(f"deal number {number} out of range: expected 0 .. {D - 1}")
    vacant = [13, 13, 13, 13]
    masks = [0, 0, 0, 0]
    remaining = 52
    space = D
    i = number
    for card_index in PAVLICEK_ORDER:
        for seat in range(4):
            x = space * vacant[seat] // remaining
            if i < x or seat == 3:
                break
            i -= x
        vacant[seat] -= 1
        masks[seat] |= 1 << card_index
        space = x
        remaining -= 1
    return Deal.from_masks(masks)


def deal_to_number(deal: Deal) -> int:
    """The number of ``deal`` (``0 <= result < D``)."""
    if not isinstance(deal, Deal):
        raise InvalidDealError(f"expected a Deal, got {deal!r}")
    masks = deal.masks
    vacant = [13, 13, 13, 13]
    remaining = 52
    space = D
    number = 0
    for card_index in PAVLICEK_ORDER:
        bit = 1 << card_index
        for seat in range(4):
            x = space * vacant[seat] // remaining
            if masks[seat] & bit:
                break
            number += x
        vacant[seat] -= 1
        space = x
        remaining -= 1
    return number
