"""Suits and ranks."""

from __future__ import annotations

from enum import IntEnum
from functools import cache

from dealer.checks import shown
from dealer.errors import InvalidRankError, InvalidSuitError

__all__ = ["Suit", "Rank", "RANK_CHARS", "holding_text"]

_SUIT_NAMES = {
    "s": 0, "spade": 0, "spades": 0, "♠": 0, "♤": 0,
    "h": 1, "heart": 1, "hearts": 1, "♥": 1, "♡": 1,
    "d": 2, "diamond": 2, "diamonds": 2, "♦": 2, "♢": 2,
    "c": 3, "club": 3, "clubs": 3, "♣": 3, "♧": 3,
}

#: The ranks from the ace down, as written in PBN.
RANK_CHARS = "AKQJT98765432"


@cache
def holding_text(holding: int) -> str:
    """The ranks of a 13-bit holding (bit 0 the ace), high to low, as in PBN.

    >>> holding_text(0b1000000000011), holding_text(0)
    ('AK2', '')
    """
    return "".join(RANK_CHARS[i] for i in range(13) if holding >> i & 1)


class Suit(IntEnum):
    """A suit; ``int(suit)`` is its index in PBN order (spades first).

    >>> Suit.parse("♥"), str(Suit.C), Suit.S.symbol
    (<Suit.H: 1>, 'C', '♠')
    """

    S = 0
    H = 1
    D = 2
    C = 3

    @classmethod
    def parse(cls, text: "str | int") -> "Suit":
        """The suit named by ``text``: a letter, a symbol or a word (case-insensitive), or its index."""
        if isinstance(text, Suit):
            return text
        if isinstance(text, int) and not isinstance(text, bool) and 0 <= text < 4:
            return cls(text)
        if not isinstance(text, str):
            raise InvalidSuitError(f"invalid suit {shown(text)}: expected one of S, H, D, C")
        try:
            return cls(_SUIT_NAMES[text.strip().lower()])
        except KeyError:
            raise InvalidSuitError(
                f"invalid suit {shown(text)}: expected one of S, H, D, C or ♠♥♦♣"
            ) from None

    @property
    def symbol(self) -> str:
        """``♠``, ``♥``, ``♦`` or ``♣``."""
        return "♠♥♦♣"[self]

    @property
    def name_long(self) -> str:
        """``spades``, ``hearts``, ``diamonds`` or ``clubs``."""
        return ("spades", "hearts", "diamonds", "clubs")[self]

    def __str__(self) -> str:
        return self.name


class Rank(IntEnum):
    """A rank, valued 2 (deuce) to 14 (ace).

    >>> Rank.parse("10"), str(Rank.TEN), Rank.KING.hcp
    (<Rank.TEN: 10>, 'T', 3)
    """

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @classmethod
    def parse(cls, text: "str | Rank") -> "Rank":
        """The rank written ``text``: one of ``AKQJT98765432`` (any case) or ``10``."""
        if isinstance(text, Rank):
            return text
        if not isinstance(text, str):
            raise InvalidRankError(f"invalid rank {shown(text)}: rank must be one of {RANK_CHARS}")
        t = text.strip().upper()
        if t == "10":
            return cls.TEN
        if len(t) == 1 and t in RANK_CHARS:
            return cls(14 - RANK_CHARS.index(t))
        raise InvalidRankError(f"invalid rank {shown(text)}: rank must be one of {RANK_CHARS}")

    @property
    def char(self) -> str:
        """The one-letter PBN form: ``A``, ``K``, ..., ``T``, ``9``, ..., ``2``."""
        return RANK_CHARS[14 - self]

    @property
    def hcp(self) -> int:
        """Milton Work points: ace 4, king 3, queen 2, jack 1, others 0."""
        return max(0, self - 10)

    def __str__(self) -> str:
        return self.char
