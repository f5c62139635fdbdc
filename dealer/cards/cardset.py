"""Immutable sets of cards, stored as one int bit-set.

Bit ``card.index`` is set when the card belongs to the set, so a suit's
holding is a 13-bit field (bit 0 = ace) at offset ``13 * suit``.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, Self

from dealer.cards.card import CARDS, Card
from dealer.checks import shown
from dealer.errors import InvalidHandError
from dealer.cards.suit import RANK_CHARS, Suit, holding_text

__all__ = ["CardSet", "Hand", "FULL_MASK", "SUIT_MASK", "HONOR_MASK", "mask_hcp"]

#: All 52 bits.
FULL_MASK = (1 << 52) - 1
#: The 13 bits of a suit at offset 0.
SUIT_MASK = (1 << 13) - 1
#: Aces, kings, queens and jacks.
HONOR_MASK = sum(0b1111 << (13 * s) for s in range(4))

_HCP_BY_NIBBLE = tuple(4 * (n & 1) + 3 * (n >> 1 & 1) + 2 * (n >> 2 & 1) + (n >> 3 & 1) for n in range(16))
_SUIT_CHARS = "SHDCshdc♠♥♦♣♤♡♢♧"
_SUIT_OF_CHAR = {c: "SHDC".index(c.upper()) if c.upper() in "SHDC" else "♠♥♦♣♤♡♢♧".index(c) % 4
                 for c in _SUIT_CHARS}


def mask_hcp(mask: int) -> int:
    """High-card points of the cards in ``mask``.

    >>> mask_hcp(CardSet.parse("SAK HQ CJ").mask)
    10
    """
    return sum(_HCP_BY_NIBBLE[(mask >> (13 * s)) & 0xF] for s in range(4))


class CardSet:
    """An immutable set of cards.

    Build one from cards, from a mask, or by parsing: ``CardSet.parse`` takes
    either a PBN hand (``AKQ.T98.J9876.5``, suits in S H D C order) or
    suit-prefixed holdings (``SAKQ,HAK``, ``S10 HQ``, ``SKT643HT643DA8CJ9``).

    >>> cs = CardSet.parse("SAKQ,HAK")
    >>> len(cs), cs.hcp, cs.shape, str(cs)
    (5, 16, (3, 2, 0, 0), 'AKQ.AK..')
    >>> "SK" in cs, [str(c) for c in cs.suit(Suit.H)]
    (True, ['HA', 'HK'])
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: "Iterable[Card | str] | CardSet | int" = 0) -> None:
        if isinstance(cards, bool):
            raise InvalidHandError(f"invalid cards {cards!r}: expected cards, a CardSet or a card mask")
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, int):
            if not 0 <= cards <= FULL_MASK:
                raise InvalidHandError(f"invalid card mask {cards!r}: expected 0 .. 2**52-1")
            mask = cards
        else:
            mask = 0
            for item in cards:
                card = Card.parse(item)
                if mask & card.bit:
                    raise InvalidHandError(f"card {str(card)!r} appears twice")
                mask |= card.bit
        object.__setattr__(self, "_mask", mask)

    # -- construction -------------------------------------------------
    @classmethod
    def from_mask(cls, mask: int) -> Self:
        """The set whose bits are ``mask``."""
        return cls(mask)

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse a PBN hand (with dots) or suit-prefixed holdings (see the class doc)."""
        if not isinstance(text, str):
            raise InvalidHandError(f"invalid hand {shown(text)}: expected a string")
        if "." in text:
            return cls(_parse_pbn_hand(text))
        return cls(_parse_holdings(text))

    @classmethod
    def from_pbn(cls, text: str) -> Self:
        """Parse a PBN hand ``AKQ.T98.J9876.5`` (exactly four suits, spades first)."""
        return cls(_parse_pbn_hand(text))

    # -- value behaviour ----------------------------------------------
    @property
    def mask(self) -> int:
        """The bit-set: bit ``card.index`` is set for each card held."""
        return self._mask

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._mask,))

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __iter__(self) -> Iterator[Card]:
        m = self._mask
        while m:
            low = m & -m
            yield CARDS[low.bit_length() - 1]
            m ^= low

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            item = Card.parse(item)
        if not isinstance(item, Card):
            return False
        return bool(self._mask & item.bit)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self._mask == other._mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._mask)

    def __or__(self, other: "CardSet") -> "CardSet":
        return CardSet(self._mask | other.mask)

    def __and__(self, other: "CardSet") -> "CardSet":
        return CardSet(self._mask & other.mask)

    def __sub__(self, other: "CardSet") -> "CardSet":
        return CardSet(self._mask & ~other.mask)

    def __xor__(self, other: "CardSet") -> "CardSet":
        return CardSet(self._mask ^ other.mask)

    def __le__(self, other: "CardSet") -> bool:
        return self._mask & ~other.mask == 0

    def __ge__(self, other: "CardSet") -> bool:
        return other.mask & ~self._mask == 0

    # -- bridge features ----------------------------------------------
    def holding(self, suit: Suit | str | int) -> int:
        """The 13-bit holding in ``suit`` (bit 0 = ace, bit 12 = deuce)."""
        return (self._mask >> (13 * Suit.parse(suit))) & SUIT_MASK

    def suit(self, suit: Suit | str | int) -> "CardSet":
        """The cards of ``suit`` in this set."""
        s = Suit.parse(suit)
        return CardSet(self._mask & (SUIT_MASK << (13 * s)))

    def length(self, suit: Suit | str | int) -> int:
        """How many cards of ``suit`` the set holds."""
        return self.holding(suit).bit_count()

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Lengths in spades, hearts, diamonds, clubs."""
        m = self._mask
        return tuple((m >> (13 * s) & SUIT_MASK).bit_count() for s in range(4))  # type: ignore[return-value]

    @property
    def hcp(self) -> int:
        """High-card points (4-3-2-1)."""
        return mask_hcp(self._mask)

    def cards(self) -> tuple[Card, ...]:
        """The cards in index order (spades first, aces first)."""
        return tuple(self)

    def to_pbn(self) -> str:
        """PBN hand: four dot-separated suits, spades first, ranks high to low."""
        return ".".join(holding_text(self.holding(s)) for s in range(4))

    def to_text(self) -> str:
        """Suit-prefixed holdings, empty suits left out: ``SAKQ HAK``."""
        return " ".join(Suit(s).name + holding_text(h) for s in range(4) if (h := self.holding(s)))

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_pbn()!r})"


class Hand(CardSet):
    """The cards of one seat: a :class:`CardSet` of at most 13 cards.

    Set operators on hands return plain :class:`CardSet` values.

    >>> Hand.parse("AKQ.T98.J9876.5").length(Suit.D)
    5
    """

    __slots__ = ()

    def __init__(self, cards: "Iterable[Card | str] | CardSet | int" = 0) -> None:
        super().__init__(cards)
        if len(self) > 13:
            raise InvalidHandError(f"invalid hand {self.to_pbn()!r}: {len(self)} cards, at most 13 allowed")


def _parse_ranks(text: str, suit: int, original: str) -> int:
    mask = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if text.startswith("10", i):
            rank_index = RANK_CHARS.index("T")
            i += 2
        elif ch.upper() in RANK_CHARS:
            rank_index = RANK_CHARS.index(ch.upper())
            i += 1
        else:
            raise InvalidHandError(
                f"invalid hand {shown(original)}: {ch!r} is not a rank; ranks must be one of {RANK_CHARS}"
            )
        bit = 1 << (13 * suit + rank_index)
        if mask & bit:
            card = CARDS[13 * suit + rank_index]
            raise InvalidHandError(f"invalid hand {shown(original)}: card {str(card)!r} appears twice")
        mask |= bit
    return mask


def _parse_pbn_hand(text: str) -> int:
    if not isinstance(text, str):
        raise InvalidHandError(f"invalid hand {shown(text)}: expected a string")
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise InvalidHandError(
            f"invalid PBN hand {shown(text)}: expected four suits separated by dots (spades.hearts.diamonds.clubs)"
        )
    mask = 0
    for s, part in enumerate(parts):
        mask |= _parse_ranks(part, s, text)
    return mask


_SPLIT = re.compile(r"[\s,;]+")


def _parse_holdings(text: str) -> int:
    mask = 0
    for token in _SPLIT.split(text.strip()):
        if not token:
            continue
        i = 0
        if token[0] not in _SUIT_OF_CHAR:
            raise InvalidHandError(
                f"invalid hand {shown(text)}: {token!r} must start with a suit letter (S, H, D, C) or symbol"
            )
        while i < len(token):
            suit = _SUIT_OF_CHAR.get(token[i])
            if suit is None:
                raise InvalidHandError(f"invalid hand {shown(text)}: expected a suit letter at {token[i:]!r}")
            j = i + 1
            while j < len(token) and token[j] not in _SUIT_OF_CHAR:
                j += 1
            if j == i + 1:
                raise InvalidHandError(f"invalid hand {shown(text)}: suit {token[i]!r} has no ranks")
            part = _parse_ranks(token[i + 1:j], suit, text)
            if mask & part:
                dup = CARDS[(mask & part).bit_length() - 1]
                raise InvalidHandError(f"invalid hand {shown(text)}: card {str(dup)!r} appears twice")
            mask |= part
            i = j
    return mask


