"""The rules of a trick: who is on turn, which cards may be played, who wins.

One place for the rules of play that the play state (:class:`~inference.state.play.PlayState`), the record
reader (:mod:`inference.io.records`) and the reference declarer (:mod:`inference.apps.bot`) all apply:

* :class:`Trick`: a trick's leader and cards; the seat on turn; :meth:`Trick.add` plays the next
  card and, with the fourth, settles the winner, who leads :meth:`Trick.next_trick`;
* :func:`trick_winner`: the highest trump, else the highest card of the suit led;
* :func:`legal_cards`: the cards a hand may play (it must follow suit when it can);
* :func:`irregularity`: the first rule a card breaks (out of turn, played before, not held,
  a revoke, a suit the seat has shown out of), as an :class:`Irregularity` value; each caller
  words it for its own reader.

>>> from dealer import Card
>>> t = Trick(Seat.W)
>>> for text in ("SK", "S2", "H3", "SA"):
...     t = t.add(Card.parse(text), Strain.NT)
>>> t.winner, t.complete
(<Seat.S: 2>, True)
>>> trick_winner(t.cards, Strain.H)
<Seat.E: 1>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Iterator, Sequence

from dealer import CARDS, Card, CardSet, Seat, Suit
from dealer.cards.seat import SEATS

from inference.rules.contract import Strain

__all__ = ["Trick", "trick_winner", "play_order", "legal_cards", "Fault", "Irregularity", "irregularity"]

_SUIT = 0x1FFF
_NONE = (0, 0, 0, 0)


def trick_winner(cards: Sequence[tuple[Seat, Card]], strain: Strain) -> Seat:
    """Who wins four cards played to a trick at ``strain``: the highest trump, else the highest of the suit led."""
    trump = strain.trump
    best_seat, best = cards[0]
    for seat, card in cards[1:]:
        if card.suit == best.suit and card.rank > best.rank:
            best_seat, best = seat, card
        elif trump is not None and card.suit == trump and best.suit != trump:
            best_seat, best = seat, card
    return best_seat


@dataclass(frozen=True)
class Trick:
    """A trick: its leader, the cards played in order, and (when complete) its winner."""

    leader: Seat
    cards: tuple[tuple[Seat, Card], ...] = ()
    winner: Seat | None = None

    @property
    def complete(self) -> bool:
        """Whether all four cards have been played."""
        return len(self.cards) == 4

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the first card (None before the lead)."""
        return self.cards[0][1].suit if self.cards else None

    @property
    def to_play(self) -> Seat:
        """The seat on turn: the leader, then each seat to its left in turn."""
        return self.leader.after(len(self.cards))

    def add(self, card: Card, strain: Strain) -> "Trick":
        """This trick with ``card`` played by the seat on turn; the fourth card settles the winner.

        Only the order of play is enforced here (a complete trick takes no more cards); whether the
        seat may play ``card`` is :func:`irregularity`'s question.
        """
        if self.complete:
            raise ValueError(f"the trick led by {self.leader.name_long} is complete: {card} cannot be added")
        cards = self.cards + ((self.to_play, card),)
        return Trick(self.leader, cards, trick_winner(cards, strain) if len(cards) == 4 else None)

    def next_trick(self) -> "Trick":
        """The trick after this complete one, led by its winner."""
        if self.winner is None:
            raise ValueError(f"the trick led by {self.leader.name_long} is not complete: it has no winner yet")
        return Trick(self.winner)

    def __str__(self) -> str:
        return " ".join(f"{s.name}:{c}" for s, c in self.cards)


def play_order(cards: Iterable[Card], leader: Seat, strain: Strain) -> Iterator[tuple[Seat, Card]]:
    """Each card with the seat that played it: ``leader`` leads the first trick, each trick's winner the next.

    >>> from dealer import Card
    >>> [s.name for s, _ in play_order(map(Card.parse, "H2 HA H3 H4 SK".split()), Seat.W, Strain.NT)]
    ['W', 'N', 'E', 'S', 'N']
    """
    trick = Trick(leader)
    for card in cards:
        if trick.complete:
            trick = trick.next_trick()
        seat = trick.to_play
        trick = trick.add(card, strain)
        yield seat, card


def legal_cards(hand_mask: int, led_suit: Suit | None) -> list[Card]:
    """The cards of ``hand_mask`` that may be played to a trick led in ``led_suit`` (None: on lead).

    >>> [str(c) for c in legal_cards(CardSet.parse("AK.2..").mask, Suit.H)]
    ['H2']
    >>> len(legal_cards(CardSet.parse("AK.2..").mask, Suit.C))
    3
    """
    hand = hand_mask
    if led_suit is not None and hand >> (13 * led_suit) & _SUIT:
        hand &= _SUIT << (13 * led_suit)
    return [CARDS[i] for i in range(52) if hand >> i & 1]


class Fault(Enum):
    """A rule of play a card breaks, in the order :func:`irregularity` checks them."""

    OUT_OF_TURN = "out of turn"  # the seat named is not the seat on turn
    PLAYED_BEFORE = "played before"  # the card has already been played (``other``: by whom)
    NOT_HELD = "not held"  # the hand on turn is known and lacks the card (``other``: a known hand that has it)
    REVOKE = "revoke"  # a known hand does not follow suit though it holds the suit led (``holding``)
    SHOWN_OUT = "shown out"  # a hidden hand plays a suit it has shown out of


@dataclass(frozen=True)
class Irregularity:
    """Why ``card`` cannot be played now: the :class:`Fault`, the seat that tried (``seat``), the seat on
    turn, the seat concerned (who played it before, or a known hand that holds it) and, for a
    revoke, the cards of the suit led that the hand still holds."""

    fault: Fault
    card: Card
    seat: Seat
    on_turn: Seat
    other: Seat | None = None
    holding: CardSet = CardSet()


def irregularity(trick: Trick, card: Card, *, seat: Seat | None = None, hands: Sequence[int],
                 played: Sequence[int], shown_out: Sequence[int] = _NONE) -> Irregularity | None:
    """The first rule of play that ``card`` breaks as the next card of ``trick``, or None if it may be played.

    ``seat``: the seat said to play it (None: whoever is on turn). ``hands``: each seat's remaining
    cards as a mask, ``-1`` for a hand not known. ``played``: the cards each seat has played (the
    current trick's included). ``shown_out``: the suits each seat has shown out of (4-bit masks).
    In order: the seat on turn; the card not played before; held by the hand on turn when that hand
    is known (and not in another known hand); suit followed by a known hand; a hidden hand not
    playing a suit it has shown out of.

    >>> from dealer import Card
    >>> hands = [CardSet.parse(h).mask for h in ("A..2.", "K.3..", "Q..4.", "J...5")]
    >>> irregularity(Trick(Seat.N, ((Seat.N, Card.parse("SA")),)), Card.parse("H3"), hands=hands,
    ...              played=(0, 0, 0, 0)).fault
    <Fault.REVOKE: 'revoke'>
    """
    on_turn = trick.to_play
    who = on_turn if seat is None else seat
    if who != on_turn:
        return Irregularity(Fault.OUT_OF_TURN, card, who, on_turn)
    bit = card.bit
    before = next((s for s in SEATS if played[s] & bit), None)
    if before is not None:
        return Irregularity(Fault.PLAYED_BEFORE, card, who, on_turn, before)
    hand = hands[on_turn]
    if hand < 0 or not hand & bit:
        owner = next((s for s in SEATS if s != on_turn and hands[s] >= 0 and hands[s] & bit), None)
        if owner is not None or hand >= 0:
            return Irregularity(Fault.NOT_HELD, card, who, on_turn, owner)
    led = trick.led_suit
    if hand >= 0:
        holding = hand >> (13 * led) & _SUIT if led is not None else 0
        if led is not None and card.suit != led and holding:
            return Irregularity(Fault.REVOKE, card, who, on_turn, None, CardSet(holding << (13 * led)))
    elif shown_out[on_turn] >> card.suit & 1:
        return Irregularity(Fault.SHOWN_OUT, card, who, on_turn)
    return None
