"""Deals: four hands of 13 distinct cards, and PBN deal strings.

A PBN deal string names the first seat, then the hands clockwise, each as
``spades.hearts.diamonds.clubs``; ``-`` stands for an unknown hand::

    N:AKQ.T98.J9876.5 J65.AKQ.AK.AKQJ4 ...

:class:`Deal` is a complete deal (52 cards, 13 each); :class:`PartialDeal`
allows unknown or short hands, e.g. what one player can see.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from dealer.cards.card import Card
from dealer.cards.cardset import FULL_MASK, CardSet, Hand
from dealer.checks import shown
from dealer.errors import IncompleteDealError, InvalidDealError, InvalidHandError, InvalidSeatError
from dealer.cards.pavlicek import masks_to_number, number_to_masks
from dealer.cards.seat import SEATS, Seat

__all__ = ["Deal", "PartialDeal"]



def _split_pbn(text: str) -> tuple[Seat, list[str]]:
    if not isinstance(text, str):
        raise InvalidDealError(f"invalid PBN deal {shown(text, 100)}: expected a string")
    t = text.strip()
    if len(t) < 2 or t[1] != ":":
        raise InvalidDealError(
            f"invalid PBN deal {shown(text, 100)}: expected a first seat and a colon, such as 'N:AKQ.T98.J9876.5 ...'"
        )
    try:
        first = Seat.parse(t[0])
    except InvalidSeatError:
        raise InvalidDealError(f"invalid PBN deal {shown(text, 100)}: first seat {t[0]!r} must be one of N, E, S, W") from None
    parts = t[2:].split()
    if len(parts) != 4:
        raise InvalidDealError(f"invalid PBN deal {shown(text, 100)}: expected 4 hands, found {len(parts)}")
    return first, parts


def _parse_hands(text: str) -> list[Hand | None]:
    first, parts = _split_pbn(text)
    hands: list[Hand | None] = [None] * 4
    seen = 0
    for offset, part in enumerate(parts):
        seat = first.after(offset)
        if part == "-":
            continue
        try:
            hand = Hand.from_pbn(part)
        except InvalidHandError as exc:
            raise InvalidDealError(f"invalid PBN deal {shown(text, 100)}: {seat.name_long}'s hand: {exc}") from None
        if seen & hand.mask:
            dup = [str(c) for c in CardSet(seen & hand.mask)]
            raise InvalidDealError(
                f"invalid PBN deal {shown(text, 100)}: {', '.join(dup)} dealt to {seat.name_long} and to another seat"
            )
        seen |= hand.mask
        hands[seat] = hand
    return hands


def _format_pbn(hands: Sequence[CardSet | None], first: Seat) -> str:
    out = []
    for seat in first.rotation():
        hand = hands[seat]
        out.append("-" if hand is None else hand.to_pbn())
    return f"{first.name}:" + " ".join(out)


class PartialDeal:
    """Four hands, any of which may be unknown (``None``) or short of 13 cards.

    The known cards must be distinct. ``PartialDeal.from_pbn`` reads ``-``
    for an unknown hand.

    >>> pd = PartialDeal.from_pbn("S:AKQJ.AKQ.AKQ.AKQ - - -")
    >>> pd[Seat.S].hcp, pd[Seat.W] is None, pd.is_complete
    (37, True, False)
    """

    __slots__ = ("_hands",)
    _hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]

    def __init__(self, hands: Sequence["CardSet | str | None"]) -> None:
        if len(hands) != 4:
            raise InvalidDealError(f"a deal has 4 hands, got {len(hands)}")
        built: list[Hand | None] = []
        seen = 0
        for seat, h in zip(Seat, hands):
            if h is None:
                built.append(None)
                continue
            try:
                hand = Hand.parse(h) if isinstance(h, str) else Hand(h)
            except InvalidHandError as exc:
                raise InvalidDealError(f"{seat.name_long}'s hand: {exc}") from None
            if seen & hand.mask:
                dup = ", ".join(str(c) for c in CardSet(seen & hand.mask))
                raise InvalidDealError(f"{dup} dealt to {seat.name_long} and to another seat")
            seen |= hand.mask
            built.append(hand)
        object.__setattr__(self, "_hands", tuple(built))

    @classmethod
    def from_pbn(cls, text: str) -> "PartialDeal":
        """Parse a PBN deal string; ``-`` marks an unknown hand."""
        return cls(_parse_hands(text))

    def to_pbn(self, first: Seat | str = Seat.N) -> str:
        """Format as a PBN deal string starting with ``first``."""
        return _format_pbn(self._hands, Seat.parse(first))

    def __getitem__(self, seat: Seat | str | int) -> Hand | None:
        return self._hands[Seat.parse(seat)]

    @property
    def hands(self) -> tuple[Hand | None, Hand | None, Hand | None, Hand | None]:
        """The hands, indexed by seat (North first)."""
        return self._hands

    @property
    def is_complete(self) -> bool:
        """True when all four hands are known and hold 13 cards each."""
        return all(h is not None and len(h) == 13 for h in self._hands)

    def completed(self) -> "PartialDeal":
        """Fill a single unknown hand when the other three hold 13 cards each."""
        unknown = [s for s in Seat if self._hands[s] is None]
        if len(unknown) == 1 and all(h is None or len(h) == 13 for h in self._hands):
            rest = FULL_MASK
            for h in self._hands:
                if h is not None:
                    rest &= ~h.mask
            hands = list(self._hands)
            hands[unknown[0]] = Hand(rest)
            return PartialDeal(hands)
        return self

    def to_deal(self) -> "Deal":
        """This deal as a :class:`Deal`; raises IncompleteDealError if a hand is unknown or short."""
        missing = [s.name_long for s in Seat if self._hands[s] is None]
        if missing:
            raise IncompleteDealError(
                f"incomplete deal {self.to_pbn()!r}: hand of {', '.join(missing)} unknown"
            )
        return Deal(self._hands)  # type: ignore[arg-type]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("PartialDeal is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PartialDeal) and self._hands == other._hands

    def __hash__(self) -> int:
        return hash(self._hands)

    def __repr__(self) -> str:
        return f"PartialDeal.from_pbn({self.to_pbn()!r})"


class Deal:
    """A complete deal: four hands of 13 distinct cards.

    >>> d = Deal.from_number(0)
    >>> d.to_pbn()
    'N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432'
    >>> d.holder("SA"), d.number()
    (<Seat.N: 0>, 0)
    """

    __slots__ = ("_hands",)
    _hands: tuple[Hand, Hand, Hand, Hand]

    def __init__(self, hands: Sequence["CardSet | str"]) -> None:
        pd = PartialDeal(hands)
        for seat, h in zip(Seat, pd.hands):
            if h is None:
                raise IncompleteDealError(f"incomplete deal: hand of {seat.name_long} unknown")
            if len(h) != 13:
                raise IncompleteDealError(
                    f"incomplete deal: {seat.name_long} holds {len(h)} cards ({h.to_pbn()!r}), 13 expected"
                )
        object.__setattr__(self, "_hands", pd.hands)

    @classmethod
    def from_pbn(cls, text: str) -> "Deal":
        """Parse a complete PBN deal string (no ``-``, 13 cards per hand)."""
        hands = _parse_hands(text)
        missing = [s.name_long for s in Seat if hands[s] is None]
        if missing:
            raise IncompleteDealError(f"incomplete deal {shown(text, 100)}: hand of {', '.join(missing)} unknown ('-')")
        try:
            return cls(hands)  # type: ignore[arg-type]
        except IncompleteDealError as exc:
            raise IncompleteDealError(f"incomplete deal {shown(text, 100)}: {str(exc).split(': ', 1)[1]}") from None

    @classmethod
    def from_masks(cls, masks: Sequence[int]) -> "Deal":
        """The deal whose hands are these four bit-sets (North first)."""
        return cls([CardSet(m) for m in masks])

    @classmethod
    def from_number(cls, number: int) -> "Deal":
        """The deal with this Pavlicek number (see :mod:`dealer.cards.pavlicek`)."""
        return cls.from_masks(number_to_masks(number))

    def number(self) -> int:
        """This deal's Pavlicek number in ``0 .. D-1``."""
        return masks_to_number(self.masks)

    def to_pbn(self, first: Seat | str = Seat.N) -> str:
        """Format as a PBN deal string starting with ``first``."""
        return _format_pbn(self._hands, Seat.parse(first))

    def __getitem__(self, seat: Seat | str | int) -> Hand:
        return self._hands[Seat.parse(seat)]

    def __iter__(self) -> Iterator[Hand]:
        return iter(self._hands)

    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        """The hands, indexed by seat (North first)."""
        return self._hands

    @property
    def masks(self) -> tuple[int, int, int, int]:
        """The hands' bit-sets, North first."""
        return tuple(h.mask for h in self._hands)  # type: ignore[return-value]

    def holder(self, card: Card | str) -> Seat:
        """The seat dealt ``card``."""
        bit = Card.parse(card).bit
        for seat, hand in zip(SEATS, self._hands):
            if hand.mask & bit:
                return seat
        raise AssertionError("unreachable: a complete deal holds every card")  # pragma: no cover

    def to_partial(self) -> PartialDeal:
        """The same hands as a :class:`PartialDeal`."""
        return PartialDeal(self._hands)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Deal is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Deal.from_pbn, (self.to_pbn(),))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self._hands == other._hands

    def __hash__(self) -> int:
        return hash(self._hands)

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.to_pbn()!r})"
