"""Kibitz's exact constrained dealer and its bridge vocabulary.

The vocabulary: :class:`Seat`, :class:`Suit`, :class:`Rank`, :class:`Card`,
:class:`CardSet`/:class:`Hand` (immutable int bit-sets), :class:`Deal` and
:class:`PartialDeal` (PBN deal strings), and Pavlicek's deal numbering.
"""

from typing import TYPE_CHECKING

from dealer.cards.card import CARDS, Card
from dealer.cards.cardset import CardSet, Hand
from dealer.cards.deal import Deal, PartialDeal
from dealer.errors import (
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
from dealer.cards.numbering import D, deal_to_number, number_to_deal
from dealer.lazy import on_use
from dealer.cards.seat import Seat
from dealer.cards.suit import Rank, Suit

if TYPE_CHECKING:
    from dealer.run.runner import run_script
    from dealer.run.script_dealer import ScriptDealer
    from dealer.spec.spec import DealSpec
    from dealer.tables.exact import ExactDealer

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
    "DealSpec",
    "ExactDealer",
    "ScriptDealer",
    "run_script",
]

#: The engine's main names, imported on first use (``from dealer import ExactDealer``): importing
#: ``dealer`` stays light (no numpy, no pydantic), as the command line's start-up needs.
_ON_USE = {"DealSpec": "dealer.spec.spec", "ExactDealer": "dealer.tables.exact",
           "ScriptDealer": "dealer.run.script_dealer", "run_script": "dealer.run.runner"}


#: The names of :data:`_ON_USE`, imported when first asked for.
__getattr__ = on_use(__name__, _ON_USE, globals())
