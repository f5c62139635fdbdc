"""Features of dealt hands, and claims as functions of them.

Every claim reads a few integer *features* of the seats' dealt hands: a suit's
length, HCP, HCP in one suit, honours in a suit, whether a card is held, how
many cards of its suit lie above a card. A :class:`Feature` names one (its
:class:`Kind`, the seat, and the suit or card it is about); the engines compute
features for many layouts at once, and :func:`evaluate` turns them into the
claim's truth value over all of them (numpy, vectorised).

>>> from dealer import Seat, Suit
>>> from inference.claims.language import parse_claim
>>> sorted(str(f) for f in features_of(parse_claim("hearts(LHO) >= 5 && hcp(RHO) < 10", viewer="S")))
['hcp(E)', 'len(W, H)']
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from typing import Any, Callable, NamedTuple, cast

import numpy as np

from dealer import CARDS, Card, Seat, Suit
from dealer.cards.cardset import SUIT_MASK
from dealer.lang.expr import Cond, Expr, HasCard, Hcp, Length, Node, ShapeIn, SuitHcp
from dealer.lang.interpret import Interpreter, Reader, interpret

from inference.claims.language import CardCount, Honours, Longest, Rank
from inference.errors import InvalidArgumentError

__all__ = ["Kind", "Feature", "FeatureValues", "TOP_FIVE", "features_of", "evaluate", "expr_values", "holding_value",
           "holding_values", "hand_value", "hand_values", "LEAVES", "leaf_feature"]

#: A K Q J T: the top five bits of a 13-bit holding (ace first), the honours ``honours()`` counts.
TOP_FIVE = 0b11111
_POP13 = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)
_HCP13 = np.sum([((np.arange(1 << 13) >> b) & 1) * (4 - b) for b in range(4)], axis=0).astype(np.int64)


class Kind(str, Enum):
    """What a feature measures (its value is a plain ``str`` too: ``Kind.LENGTH == "len"``)."""

    LENGTH = "len"        #: dealt length in a suit (arg: the suit)
    HCP = "hcp"           #: dealt HCP (arg: 0)
    SUIT_HCP = "shcp"     #: dealt HCP in a suit (arg: the suit)
    HONOURS = "hon"       #: A K Q J T held in a suit (arg: the suit)
    ABOVE = "above"       #: cards of the card's suit held above it (arg: the card's index)
    CARD = "card"         #: 1 if the card is held (arg: the card's index)

    @property
    def per_suit(self) -> bool:
        """True for features of one suit's holding that add up over nothing else (length, honours, suit HCP)."""
        return self in (Kind.LENGTH, Kind.HONOURS, Kind.SUIT_HCP)

    @property
    def of_card(self) -> bool:
        """True for features about one card (``arg`` is a card index)."""
        return self in (Kind.ABOVE, Kind.CARD)


class Feature(NamedTuple):
    """One integer feature of one seat's dealt hand.

    >>> Feature.length(Seat.W, Suit.H), Feature.hcp(Seat.E).kind == "hcp"
    (Feature(kind=<Kind.LENGTH: 'len'>, seat=<Seat.W: 3>, arg=1), True)
    """

    kind: Kind
    seat: Seat
    arg: int = 0

    @classmethod
    def length(cls, seat: Seat, suit: "Suit | int") -> "Feature":
        """The seat's dealt length in ``suit``."""
        return cls(Kind.LENGTH, seat, int(suit))

    @classmethod
    def hcp(cls, seat: Seat) -> "Feature":
        """The seat's dealt HCP."""
        return cls(Kind.HCP, seat, 0)

    @classmethod
    def suit_hcp(cls, seat: Seat, suit: "Suit | int") -> "Feature":
        """The seat's dealt HCP in ``suit``."""
        return cls(Kind.SUIT_HCP, seat, int(suit))

    @classmethod
    def honours(cls, seat: Seat, suit: "Suit | int") -> "Feature":
        """How many of A K Q J T of ``suit`` the seat was dealt."""
        return cls(Kind.HONOURS, seat, int(suit))

    @classmethod
    def card(cls, seat: Seat, card: Card) -> "Feature":
        """1 if the seat was dealt ``card``, else 0."""
        return cls(Kind.CARD, seat, card.index)

    @classmethod
    def above(cls, seat: Seat, card: Card) -> "Feature":
        """How many cards of ``card``'s suit above it the seat was dealt."""
        return cls(Kind.ABOVE, seat, card.index)

    def at(self, seat: Seat) -> "Feature":
        """The same feature of another seat."""
        return Feature(self.kind, seat, self.arg)

    @property
    def suit(self) -> int:
        """The suit the feature is about (-1 for HCP, which is about every suit)."""
        if self.kind == Kind.HCP:
            return -1
        return CARDS[self.arg].suit if self.kind.of_card else self.arg

    @property
    def suits(self) -> tuple[int, ...]:
        """The suits whose holding the feature adds up over: every suit for HCP, else its own."""
        return (0, 1, 2, 3) if self.kind == Kind.HCP else (self.suit,)

    @property
    def bit(self) -> int:
        """For a card feature: the card's bit position within its suit (0 = ace); else 0."""
        return self.arg % 13 if self.kind.of_card else 0

    def __str__(self) -> str:
        if self.kind == Kind.HCP:
            return f"hcp({self.seat.name})"
        if self.kind.of_card:
            return f"{self.kind.value}({self.seat.name}, {CARDS[self.arg]})"
        return f"{self.kind.value}({self.seat.name}, {Suit(self.arg).name})"


def holding_values(kind: Kind, bit: int, dealt: np.ndarray) -> np.ndarray:
    """A per-suit feature of each 13-bit holding in ``dealt`` (``bit``: the card's position, for card kinds).

    The one definition of what each kind measures in a suit; a feature's value over a hand is the sum
    of these over :attr:`Feature.suits`.

    >>> holding_values(Kind.HCP, 0, np.array([0b11, 0b1000000000000])).tolist()   # A K; the deuce
    [7, 0]
    """
    dealt = np.asarray(dealt, dtype=np.int64)
    if kind == Kind.LENGTH:
        return cast(np.ndarray, _POP13[dealt & SUIT_MASK])
    if kind in (Kind.HCP, Kind.SUIT_HCP):
        return cast(np.ndarray, _HCP13[dealt & SUIT_MASK])
    if kind == Kind.HONOURS:
        return cast(np.ndarray, _POP13[dealt & TOP_FIVE])
    if kind == Kind.ABOVE:
        return cast(np.ndarray, _POP13[dealt & ((1 << bit) - 1)])
    return cast(np.ndarray, (dealt >> bit) & 1)  # card


def holding_value(kind: Kind, bit: int, holding: int) -> int:
    """The value of a per-suit feature for one 13-bit holding (see :func:`holding_values`).

    >>> holding_value(Kind.HONOURS, 0, 0b1000000000011)   # A K and the deuce
    2
    """
    return int(holding_values(kind, bit, np.array([holding]))[0])


def hand_values(feature: Feature, masks: np.ndarray) -> np.ndarray:
    """The feature's value for each hand of ``masks`` (52-bit card masks, whoever's seat they are).

    >>> hand_values(Feature.hcp(Seat.N), np.array([0b11, 1 << 13])).tolist()   # SA SK; the heart ace
    [7, 4]
    """
    masks = np.asarray(masks, dtype=np.int64)
    return cast(np.ndarray, sum((holding_values(feature.kind, feature.bit, masks >> (13 * s) & SUIT_MASK)
                                 for s in feature.suits), np.zeros(len(masks), dtype=np.int64)))


def hand_value(feature: Feature, mask: int) -> int:
    """The feature's value for a hand given as a 52-bit card mask (whoever's seat it is).

    >>> from dealer import CardSet
    >>> hand_value(Feature.suit_hcp(Seat.N, Suit.H), CardSet.parse("SA HKJ C2").mask)
    4
    """
    return sum(holding_value(feature.kind, feature.bit, mask >> (13 * s) & SUIT_MASK) for s in feature.suits)


#: Reads a feature's values over the rows (layouts or states) being evaluated.
FeatureValues = Callable[[Feature], np.ndarray]


#: The expression leaves that are one feature each: syntax node -> the feature it reads.
LEAVES: dict[type, Callable[[Any], Feature]] = {
    Length: lambda n: Feature.length(n.seat, n.suit),
    Hcp: lambda n: Feature.hcp(n.seat),
    SuitHcp: lambda n: Feature.suit_hcp(n.seat, n.suit),
    Honours: lambda n: Feature.honours(n.seat, n.suit),
}


def leaf_feature(node: Node) -> Feature | None:
    """The feature an expression leaf reads (a length, HCP, HCP in a suit, honours), else None."""
    make = LEAVES.get(type(node))
    return None if make is None else make(node)


@lru_cache(maxsize=8192)
def features_of(node: Node) -> frozenset[Feature]:
    """Every raw feature a claim (or expression) reads (remembered for the last 8,192 claims)."""
    out: set[Feature] = set()
    for n in node.walk():
        leaf = leaf_feature(n)
        if leaf is not None:
            out.add(leaf)
        elif isinstance(n, (Longest, ShapeIn)):
            out.update(Feature.length(n.seat, s) for s in range(4))
        elif isinstance(n, Rank):
            out.update((Feature.above(n.seat, n.card), Feature.card(n.seat, n.card)))
        elif isinstance(n, CardCount):
            out.update(Feature.card(n.seat, c) for c in n.cards)
        elif isinstance(n, HasCard):
            out.add(Feature.card(n.seat, n.card))
    return frozenset(out)


def _shape_truth(cond: ShapeIn, value: FeatureValues, n: int) -> np.ndarray:
    lengths = np.stack([value(Feature.length(cond.seat, s)) for s in range(4)], axis=1)
    allowed = np.array(sorted(cond.shapes), dtype=np.int64).reshape(-1, 4)
    if not len(allowed):
        return np.zeros(n, dtype=bool)
    code = lengths @ np.array([14 ** 3, 14 ** 2, 14, 1], dtype=np.int64)
    return np.isin(code, allowed @ np.array([14 ** 3, 14 ** 2, 14, 1], dtype=np.int64))


class _LayoutReader(Reader):
    """Reads the leaves over rows of layouts (or states) through ``value``, each feature's values: the
    :data:`LEAVES`, ``rank``, ``longest``, shape tests and ``hascard``."""

    error = InvalidArgumentError
    phrase = "cannot be evaluated over layouts"

    def __init__(self, value: FeatureValues, n: int) -> None:
        self.value = value
        self.n = n
        self.shape = (n,)

    def _leaf(self, node: Node, run: Interpreter) -> np.ndarray:
        return self.value(LEAVES[type(node)](node))

    def _rank(self, node: Rank, run: Interpreter) -> np.ndarray:
        held = self.value(Feature.card(node.seat, node.card))
        return np.where(held > 0, self.value(Feature.above(node.seat, node.card)) + 1, 0)

    def _longest(self, node: Longest, run: Interpreter) -> np.ndarray:
        lengths = np.stack([self.value(Feature.length(node.seat, s)) for s in range(4)], axis=1)
        return cast(np.ndarray, np.sort(lengths, axis=1)[:, ::-1][:, :node.count].sum(axis=1))

    def _card_count(self, node: CardCount, run: Interpreter) -> np.ndarray:
        return cast(np.ndarray, sum((self.value(Feature.card(node.seat, c)) > 0).astype(np.int64) for c in node.cards))

    leaves = {
        **dict.fromkeys(LEAVES, _leaf),
        Rank: _rank,
        Longest: _longest,
        CardCount: _card_count,
        ShapeIn: lambda r, node, run: _shape_truth(node, r.value, r.n),
        HasCard: lambda r, node, run: r.value(Feature.card(node.seat, node.card)) > 0,
    }


def expr_values(expr: Expr, value: FeatureValues, n: int) -> np.ndarray:
    """An expression's values over ``n`` rows (int64), given each feature's values."""
    return np.asarray(interpret(expr, _LayoutReader(value, n), dtype=np.int64))


def evaluate(claim: Cond, value: FeatureValues, n: int) -> np.ndarray:
    """A claim's truth value over ``n`` rows (bool), given each feature's values.

    Raises :class:`~inference.errors.InvalidArgumentError` for a node that is no feature of layouts.
    """
    return np.asarray(interpret(claim, _LayoutReader(value, n), dtype=bool))
