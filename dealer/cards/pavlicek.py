"""Pavlicek's deal numbering on hand masks: a bijection between four dealt hands and ``0 .. D-1``.

From Richard Pavlicek, *Mapping Bridge Deals*. Cards are taken in the order
``SA HA DA CA SK HK ... C2`` (rank by rank, suits S H D C); at each card the
remaining space of numbers is split among N, E, S, W in proportion to their
vacant places, and the card goes to the seat whose part holds the number.
Number 0 gives North the first 13 cards of that order, East the next 13 and
South the next; ``D - 1`` gives them to West, South and East.

This module knows only cards and hand masks (bit-sets, North first); the
:class:`~dealer.cards.deal.Deal` form is :mod:`dealer.cards.numbering`. All arithmetic is
on Python ints; nothing is rounded.

>>> masks = number_to_masks(0)
>>> [bin(m).count("1") for m in masks]
[13, 13, 13, 13]
>>> masks_to_number(masks), masks_to_number(number_to_masks(D - 1)) == D - 1
(0, True)
"""

from __future__ import annotations

from math import factorial
from typing import Sequence

from dealer.cards.card import Card
from dealer.cards.cardset import FULL_MASK
from dealer.errors import DealNumberError, InvalidDealError
from dealer.cards.suit import Rank, Suit

__all__ = ["D", "PAVLICEK_ORDER", "masks_to_number", "number_to_masks"]

#: The number of bridge deals, 52! / (13!)^4.
D: int = factorial(52) // factorial(13) ** 4

#: Card indices in Pavlicek's order: SA HA DA CA SK HK DK CK ... C2.
PAVLICEK_ORDER: tuple[int, ...] = tuple(
    Card(Suit(i % 4), Rank(14 - i // 4)).index for i in range(52)
)


def number_to_masks(number: int) -> tuple[int, int, int, int]:
    """The four dealt hands (masks, North first) of the deal numbered ``number`` (``0 <= number < D``)."""
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
    return masks[0], masks[1], masks[2], masks[3]


def masks_to_number(masks: Sequence[int]) -> int:
    """The number (``0 <= result < D``) of the deal whose four dealt hands are ``masks`` (North first).

    The hands must be 13 cards each, disjoint, and together the 52 cards.
    """
    if len(masks) != 4 or any(not isinstance(m, int) or m < 0 or m & ~FULL_MASK for m in masks):
        raise InvalidDealError(f"expected four hand masks, got {masks!r}")
    if any(m.bit_count() != 13 for m in masks) or masks[0] | masks[1] | masks[2] | masks[3] != FULL_MASK:
        raise InvalidDealError("expected four disjoint 13-card hands making the 52 cards")
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
