"""Kibitz's exact constrained dealer and its bridge vocabulary.

The vocabulary: :class:`Seat`, :class:`Suit`, :class:`Rank`, :class:`Card`,
:class:`CardSet`/:class:`Hand` (immutable int bit-sets), :class:`Deal` and
:class:`PartialDeal` (PBN deal strings), and Pavlicek's deal numbering.
"""

from .card import CARDS, Card
from .cardset import CardSet, Hand
from .deal import Deal, PartialDeal
from .errors import (
    DealerError,
    DealNumberError,
    ImpossibleSpecError,
    IncompleteDealError,
    InvalidCardError,
    InvalidDealError,
    InvalidHandError,
    InvalidRankError,
    InvalidSeatError,
    InvalidSuitError,
    SpecError,
    SpecLimitError,
    SpecSyntaxError,
    UnsupportedSpecError,
)
from .numbering import D, deal_to_number, number_to_deal
from .seat import Seat
from .suit import Rank, Suit

__all__ = [
    "CARDS",
    "Card",
    "CardSet",
    "D",
    "Deal",
    "DealNumberError",
    "DealerError",
    "Hand",
    "ImpossibleSpecError",
    "IncompleteDealError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidHandError",
    "InvalidRankError",
    "InvalidSeatError",
    "InvalidSuitError",
    "PartialDeal",
    "Rank",
    "Seat",
    "SpecError",
    "SpecLimitError",
    "SpecSyntaxError",
    "Suit",
    "UnsupportedSpecError",
    "deal_to_number",
    "number_to_deal",
]
