"""Pavlicek's deal numbering: a bijection between deals and ``0 .. D-1``.

Pavlicek's method and its arithmetic are :mod:`dealer.cards.pavlicek` (on hand masks); this module gives
it :class:`~dealer.cards.deal.Deal` values. All arithmetic is on Python ints;
nothing is rounded.

>>> number_to_deal(0).to_pbn()
'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432'
>>> deal_to_number(number_to_deal(D - 1)) == D - 1
True
"""

from __future__ import annotations

from dealer.cards.deal import Deal
from dealer.errors import InvalidDealError
from dealer.cards.pavlicek import D, PAVLICEK_ORDER, masks_to_number, number_to_masks

__all__ = ["D", "PAVLICEK_ORDER", "deal_to_number", "number_to_deal"]


def number_to_deal(number: int) -> Deal:
    """The deal numbered ``number`` (``0 <= number < D``)."""
    return Deal.from_masks(number_to_masks(number))


def deal_to_number(deal: Deal) -> int:
    """The number of ``deal`` (``0 <= result < D``)."""
    if not isinstance(deal, Deal):
        raise InvalidDealError(f"expected a Deal, got {deal!r}")
    return masks_to_number(deal.masks)
