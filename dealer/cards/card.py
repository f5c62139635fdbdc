"""Cards: one of 52, interned, with a fixed index used by every bit-set.

A card's ``index`` runs suit by suit in PBN order and, within a suit, from
the ace down: ``SA`` is 0, ``S2`` is 12, ``HA`` is 13, ..., ``C2`` is 51.
Its ``bit`` is ``1 << index``; a :class:`~dealer.cards.cardset.CardSet` is an int
made of such bits.
"""

from __future__ import annotations

from typing import Any, ClassVar

from dealer.checks import shown
from dealer.errors import InvalidCardError, InvalidRankError, InvalidSuitError
from dealer.cards.suit import RANK_CHARS, Rank, Suit

__all__ = ["Card", "CARDS", "HCP_BY_INDEX"]


class Card:
    """One of the 52 cards; build it with :meth:`parse` or ``Card(suit, rank)``.

    Cards are interned (``Card.parse("SQ") is Card(Suit.S, Rank.QUEEN)``),
    immutable and ordered by ``index`` (spades first, aces first).

    >>> Card.parse("♠Q"), Card.parse("s10"), str(Card.parse("hT"))
    (Card('SQ'), Card('ST'), 'HT')
    >>> Card.parse("DA").hcp, Card.parse("DA").index
    (4, 26)
    """

    __slots__ = ("suit", "rank", "index", "bit", "hcp")
    _interned: ClassVar[dict[tuple[int, int], "Card"]] = {}

    suit: Suit
    rank: Rank
    index: int
    bit: int
    hcp: int

    def __new__(cls, suit: Suit | str, rank: Rank | str | int) -> "Card":
        s = Suit.parse(suit)
        r = Rank.parse(rank) if not isinstance(rank, int) or isinstance(rank, Rank) else _rank_from_int(rank)
        key = (int(s), int(r))
        card = cls._interned.get(key)
        if card is None:
            card = object.__new__(cls)
            index = 13 * int(s) + (14 - int(r))
            for name, value in (("suit", s), ("rank", r), ("index", index), ("bit", 1 << index),
                                ("hcp", r.hcp)):
                object.__setattr__(card, name, value)
            cls._interned[key] = card
        return card

    @classmethod
    def parse(cls, text: "str | Card") -> "Card":
        """The card written ``text``: suit then rank (``SQ``, ``♠Q``, ``S10``, ``sq``).

        Raises :class:`~dealer.errors.InvalidCardError` quoting ``text``.
        """
        if isinstance(text, Card):
            return text
        cached = _PARSED.get(text) if isinstance(text, str) else None
        if cached is not None:
            return cached
        if not isinstance(text, str):
            raise InvalidCardError(f"invalid card {shown(text)}: expected a string such as 'SQ'")
        t = text.strip()
        if len(t) < 2:
            raise InvalidCardError(f"invalid card {shown(text)}: expected a suit then a rank, such as 'SQ'")
        try:
            suit = Suit.parse(t[0])
        except InvalidSuitError:
            raise InvalidCardError(
                f"invalid card {shown(text)}: suit must be one of S, H, D, C or ♠♥♦♣"
            ) from None
        try:
            rank = Rank.parse(t[1:])
        except InvalidRankError:
            raise InvalidCardError(f"invalid card {shown(text)}: rank must be one of {RANK_CHARS}") from None
        card = cls(suit, rank)
        if len(_PARSED) < 4096:
            _PARSED[text] = card
        return card

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with this ``index`` (0 = ``SA`` ... 51 = ``C2``)."""
        if not isinstance(index, int) or not 0 <= index < 52:
            raise InvalidCardError(f"invalid card index {shown(index)}: expected 0..51")
        return CARDS[index]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.suit, self.rank))

    def __str__(self) -> str:
        return self.suit.name + self.rank.char

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    def __le__(self, other: "Card") -> bool:
        return self.index <= other.index

    def __gt__(self, other: "Card") -> bool:
        return self.index > other.index

    def __ge__(self, other: "Card") -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index


def _rank_from_int(value: int) -> Rank:
    try:
        return Rank(value)
    except ValueError:
        raise InvalidRankError(f"invalid rank {shown(value)}: expected 2..14") from None


_PARSED: dict[str, Card] = {}

#: All 52 cards by index.
CARDS: tuple[Card, ...] = tuple(Card(Suit(i // 13), Rank(14 - i % 13)) for i in range(52))
#: HCP of the card with each index.
HCP_BY_INDEX: tuple[int, ...] = tuple(c.hcp for c in CARDS)
