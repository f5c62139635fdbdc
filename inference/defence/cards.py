"""A defender's card as a choice: the situation it was played in, and which class of equal cards it came from.

Cards of one holding are *equal* when every card between them is in the same holding or has been
played already: they win the same tricks, so they form one *class*. A card is a choice of a class,
then of a card inside it: its top, its bottom, or (shared) one of the inner cards. Real defenders
do not choose among equals at random (they lead the top of a sequence, win with the lowest), so
the second choice is fitted too; restricted choice falls out with the fitted odds: the queen from
Q-J is "the Q-J class, its top card"; from a singleton queen, "the queen's class, its only card".

A card is coded by where its class stands among the holding's classes, in one of two ways:

* **by position** (leads, discards): the classes from the top; with five or more, ``top``,
  ``second``, ``middle`` (shared among the middle classes), ``second lowest``, ``bottom``;
* **by winning** (following suit, ruffing): the classes that beat the trick's best card so far and
  those that do not; ``cheapest winner``, ``other winner`` (shared), ``lowest loser``,
  ``second lowest loser``, ``other loser`` (shared).

Everything here is a function of public facts (cards played, the trick so far) and the defender's
holding in the suit at that moment, so the declarer can weigh any holding the defender may have.

>>> [bin(c) for c in classes(0b0000000000110, 0)]    # K Q (bits: A=0 ... 2=12): one class
['0b110']
>>> code_of(Way.POSITION, 0b0000000000110, 0b0000000000010, 0, None)   # the K from K-Q
Choice(key='n1', code='0', bucket=1, within='top', inner=1, size=2, length=2)
"""

from __future__ import annotations

from functools import lru_cache
from enum import Enum
from typing import Iterable, Iterator, NamedTuple, Sequence

from dealer import Card, Seat

from inference.rules.contract import Strain
from inference.rules.trick import trick_winner
from inference.auction.context import suits_bid

__all__ = ["Phase", "Way", "Situation", "Choice", "classes", "allowed", "allowed_within", "within_class", "code_of",
           "codes_for", "Observation", "observations", "defenders_situations", "play_tricks", "situation_of",
           "CHOOSES_SUIT", "suit_feature", "candidate_suits", "suits_bid", "suit_role", "role_words", "ruff_context",
           "auction_free", "UNKNOWN_AUCTION"]

_SUIT = 0x1FFF


class Phase(str, Enum):
    """Where in a trick a defender's card was played."""

    OPENING_LEAD = "opening lead"
    LEAD = "lead"
    SECOND = "second hand"
    THIRD = "third hand"
    FOURTH = "fourth hand"
    DISCARD = "discard"
    RUFF = "ruff"


class Way(str, Enum):
    """How a card's class is coded (see the module's text)."""

    POSITION = "position"
    WINNING = "winning"


#: How each phase codes its cards.
WAY = {Phase.OPENING_LEAD: Way.POSITION, Phase.LEAD: Way.POSITION, Phase.DISCARD: Way.POSITION,
       Phase.SECOND: Way.WINNING, Phase.THIRD: Way.WINNING, Phase.FOURTH: Way.WINNING, Phase.RUFF: Way.WINNING}


class Situation(NamedTuple):
    """The public facts of one defender's card: the phase, notrump or not, partner winning the trick so
    far (third and fourth hand, discards and ruffs; else False), the suit the card came from, the
    cards of that suit played before it (a 13-bit mask), the position of the best card of that suit
    in the trick so far (None: none; -1 following suit to a trick ruffed already, so nothing of the
    suit wins; on a ruff or a discard, the position of the trick's best trump when it is ruffed, else
    None), on a lead or a discard the
    suit's role (:func:`suit_role`; else ""), and the trump suit (None: notrump)."""

    phase: Phase
    notrump: bool
    partner_winning: bool
    card_suit: int
    gone: int
    best: int | None
    role: str = ""
    trump: int | None = None

    @property
    def context(self) -> str:
        """The situation's part of a model's key: ``phase|nt or suit|partner winning or not``."""
        partner = "-" if self.phase in (Phase.OPENING_LEAD, Phase.LEAD, Phase.SECOND) else (
            "pw" if self.partner_winning else "pl")
        return f"{self.phase.value}|{'nt' if self.notrump else 'suit'}|{partner}"


class Choice(NamedTuple):
    """A card coded: the holding's key (its shape of classes), the code of the card's class and how many
    classes share that code; the card's place in its class (``only``, ``top``, ``inner``, ``bottom``),
    how many of the class's cards share that place, the class's size, and the holding's length."""

    key: str
    code: str
    bucket: int
    within: str
    inner: int
    size: int
    length: int = 0

    @property
    def long_key(self) -> str:
        """The holding's key with its length (seven for seven or more): ``"w0l3 L4"``."""
        return f"{self.key} L{min(self.length, 7)}"

    @property
    def class_key(self) -> str:
        """The key of the choice inside the class: ``in1``, ``in2`` or ``in3`` (three or more cards)."""
        return f"in{min(self.size, 3)}"


def within_class(cls: int, card: int) -> tuple[str, int]:
    """A card's place in its class (a 13-bit mask) and how many of the class's cards share that place."""
    size = cls.bit_count()
    if size == 1:
        return "only", 1
    if card == cls & -cls:
        return "top", 1
    if card == 1 << (cls.bit_length() - 1):
        return "bottom", 1
    return "inner", size - 2


def allowed_within(class_key: str) -> tuple[str, ...]:
    """The places a class of ``in1``, ``in2`` or ``in3`` (three or more) cards allows."""
    return {"in1": ("only",), "in2": ("top", "bottom")}.get(class_key, ("top", "inner", "bottom"))


def classes(holding: int, gone: int) -> list[int]:
    """The classes of equal cards of a 13-bit holding, the highest first (``gone``: cards played already)."""
    out: list[int] = []
    current = 0
    for b in range(13):
        bit = 1 << b
        if holding & bit:
            current |= bit
        elif not gone & bit and current:  # a card still out elsewhere parts the classes
            out.append(current)
            current = 0
    if current:
        out.append(current)
    return out


def _position_codes(n: int) -> list[tuple[str, int]]:
    """The code of each of ``n`` classes (from the top) and how many share it, coded by position."""
    if n < 5:
        return [(str(k), 1) for k in range(n)]
    middle = n - 4
    return [("top", 1), ("second", 1)] + [("middle", middle)] * middle + [("second lowest", 1), ("bottom", 1)]


def _winning_codes(wins: int, loses: int) -> list[tuple[str, int]]:
    """The codes of ``wins`` winning classes (the highest first) then ``loses`` losing ones."""
    won = [("other winner", wins - 1)] * (wins - 1) + [("cheapest winner", 1)] * min(wins, 1)
    lost = ([("other loser", loses - 2)] * (loses - 2) + [("second lowest loser", 1)] * min(max(loses - 1, 0), 1)
            + [("lowest loser", 1)] * min(loses, 1))
    return won + lost


@lru_cache(maxsize=None)  # a handful of keys, asked of every card
def allowed(key: str) -> tuple[str, ...]:
    """The codes a holding's key allows (``n1``..``n5``: by position; ``w0l1``..``w2l3``: by winning)."""
    if key.startswith("n"):
        n = int(key[1:])
        return tuple(dict.fromkeys(code for code, _ in _position_codes(n)))
    wins, loses = int(key[1]), int(key[3])
    return tuple(dict.fromkeys(code for code, _ in _winning_codes(wins, loses)))


def codes_for(way: Way, holding: int, gone: int, best: int | None) -> tuple[str, list[int], list[tuple[str, int]]]:
    """A holding's key, its classes (the highest first) and each class's (code, how many share it)."""
    found = classes(holding, gone)
    if way == Way.POSITION:
        return f"n{min(len(found), 5)}", found, _position_codes(len(found))
    wins = sum(1 for c in found if best is None or (c & -c).bit_length() - 1 < best)  # the class's top card
    loses = len(found) - wins
    return f"w{min(wins, 2)}l{min(loses, 3)}", found, _winning_codes(wins, loses)


def code_of(way: Way, holding: int, card: int, gone: int, best: int | None) -> Choice:
    """The choice of the card ``card`` (a 13-bit mask of one card) from ``holding``."""
    key, found, codes = codes_for(way, holding, gone, best)
    for c, (code, bucket) in zip(found, codes):
        if c & card:
            return Choice(key, code, bucket, *within_class(c, card), c.bit_count(), holding.bit_count())
    raise ValueError(f"the card {card:#x} is not in the holding {holding:#x}")


#: The phases where the defender chooses the suit (the rest follow the suit led, or ruff).
CHOOSES_SUIT = frozenset({Phase.OPENING_LEAD, Phase.LEAD, Phase.DISCARD})


def suit_feature(holding: int, gone: int = 0) -> str:
    """What a suit's choice is modelled on: its length (6 for six or more), how many of A K Q it holds
    (2 for two or three), and its top (``gone``: the suit's cards played already): ``s`` a sequence of two or
    more equal cards headed by one of the four best cards still out, ``a`` the best card alone, ``h`` the
    second or third best alone, ``x`` none of these: ``"L4T1h"``."""
    top = classes(holding, gone)[0] if holding else 0
    above = (top & -top) - 1 & ~holding & ~gone & 0x1FFF  # the cards still out above the top card
    rank = above.bit_count()
    shape = "s" if top.bit_count() > 1 and rank <= 3 else "a" if rank == 0 else "h" if rank <= 2 else "x"
    return f"L{min(holding.bit_count(), 6)}T{min((holding & 0b111).bit_count(), 2)}{shape}"


def candidate_suits(hand: int, situation: Situation, trump: int | None) -> list[int]:
    """The suits a defender could have chosen his card from (``hand``: his 52-bit hand then): any he held on
    lead; on a discard, any but trumps (a trump would be a ruff)."""
    return [t for t in range(4) if hand >> (13 * t) & _SUIT
            and not (situation.phase == Phase.DISCARD and t == trump)]


def ruff_context(situation: Situation, trumps: int) -> str | None:
    """A defender void in the suit led, who held ``trumps`` (13-bit, then), chose to ruff or to discard: the
    context of that choice, ``"ruff or discard|pw|over"`` (partner winning the trick or ``pl`` not; a trump
    of his beats the trick's best trump, or none is in it: ``over``, else ``under``); None when there was no
    choice (notrump, no trumps, or not a ruff or a discard)."""
    if situation.trump is None or not trumps or situation.phase not in (Phase.RUFF, Phase.DISCARD):
        return None
    over = situation.best is None or (trumps & -trumps).bit_length() - 1 < situation.best
    return f"ruff or discard|{'pw' if situation.partner_winning else 'pl'}|{'over' if over else 'under'}"


#: The auction part of a role when the auction is not known.
UNKNOWN_AUCTION = "?"


def suit_role(suit: int, seat: Seat, declarer: Seat, trump: int | None, bids: Sequence[int] | None,
              leads: Sequence[int]) -> str:
    """The public standing of ``suit`` for the defender ``seat`` choosing a suit to lead or discard from:
    ``"<auction>/<play>"``. The auction part: who bid the suit (``p`` partner, ``m`` the defender himself, ``d``
    declarer or dummy; ``-`` nobody; :data:`UNKNOWN_AUCTION` when ``bids``, each seat's suits bid as a 4-bit mask,
    is None); the play part: ``L`` partner led it before, ``M`` the defender led it before (``leads``: each seat's
    suits led so far, 4-bit masks), ``T`` the trump suit; ``-`` none of these.

    >>> suit_role(1, Seat.W, Seat.S, 0, (0, 0b0010, 0, 0), (0, 0, 0, 0))
    'p/-'
    """
    bit = 1 << suit
    if bids is None:
        auction = UNKNOWN_AUCTION
    else:
        who = (("p", seat.partner), ("m", seat), ("d", declarer), ("d", declarer.partner))
        auction = "".join(dict.fromkeys(c for c, s in who if bids[s] & bit)) or "-"
    play = ("L" if leads[seat.partner] & bit else "") + ("M" if leads[seat] & bit else "") + (
        "T" if trump == suit else "")
    return f"{auction}/{play or '-'}"


def auction_free(role: str) -> str:
    """A role with its auction part unknown (what a declarer who has not heard the auction sees).

    >>> auction_free("pd/LT")
    '?/LT'
    """
    return UNKNOWN_AUCTION + role[role.index("/"):] if "/" in role else role


_ROLE_WORDS = {"p": "partner bid it", "m": "he bid it", "d": "declarer's side bid it", "-": "nobody bid it",
               "L": "partner led it", "M": "he led it", "T": "trumps"}


def role_words(role: str) -> str:
    """A role in words (what is known of it; "" for none).

    >>> role_words("pd/LT"), role_words("?/-"), role_words("-/M")
    ("partner bid it, declarer's side bid it, partner led it, trumps", '', 'nobody bid it, he led it')
    """
    auction, _, play = role.partition("/")
    codes = [c for c in auction if c != UNKNOWN_AUCTION] + [c for c in play if c != "-"]
    return ", ".join(_ROLE_WORDS[c] for c in codes)


class Observation(NamedTuple):
    """One defender's card in a record: who, the situation, the holding it came from, the card, his whole hand
    then and the cards played before it (52-bit masks), and on a lead or a discard every suit's role for him
    (:func:`suit_role`, spades first)."""

    defender: Seat
    situation: Situation
    holding: int
    card: Card
    hand: int = 0
    played: int = 0
    roles: tuple[str, ...] = ()

    @property
    def way(self) -> Way:
        """How the card is coded."""
        return WAY[self.situation.phase]

    def choice(self) -> Choice:
        """The card as a choice from its holding."""
        s = self.situation
        return code_of(self.way, self.holding, 1 << (self.card.index % 13), s.gone, s.best)


def defenders_situations(tricks: Iterable[Sequence[tuple[Seat, Card]]], declarer: Seat, strain: Strain,
                         first_trick: bool, gone_before: int = 0, bids: Sequence[int] | None = None
                         ) -> Iterator[tuple[Seat, Card, Situation, int]]:
    """Every defender's card of ``tricks`` (each its (seat, card) in order; completed ones, then any in
    progress), with its situation and every card played before it (a 52-bit mask). ``first_trick``: whether
    the first is the hand's first trick (its lead the opening lead); ``gone_before``: the cards played before;
    ``bids``: each seat's suits bid (:func:`suits_bid`; None: the auction is not known), for the roles (the
    leads before ``tricks`` are not known: a mid-hand start's earlier leads give no role)."""
    for seat, card, situation, played, roles in _defenders_roles(tricks, declarer, strain, first_trick, gone_before,
                                                                 bids):
        yield seat, card, situation, played


def _defenders_roles(tricks: Iterable[Sequence[tuple[Seat, Card]]], declarer: Seat, strain: Strain,
                     first_trick: bool, gone_before: int, bids: Sequence[int] | None
                     ) -> Iterator[tuple[Seat, Card, Situation, int, tuple[str, ...]]]:
    """:func:`defenders_situations`, each card with every suit's role for its defender (on a lead or a discard;
    else empty)."""
    played = gone_before
    leads = [0, 0, 0, 0]
    for t, trick in enumerate(tricks):
        cards = [c for _, c in trick]
        seats = [s for s, _ in trick]
        for j, (seat, card) in enumerate(trick):
            if seat not in (declarer, declarer.partner):
                situation = situation_of(cards[:j], seats[:j], seat, card, strain, first_trick and t == 0)
                situation = situation._replace(gone=played >> (13 * int(card.suit)) & _SUIT)
                roles: tuple[str, ...] = ()
                if situation.phase in CHOOSES_SUIT:
                    roles = tuple(suit_role(u, seat, declarer, strain.trump, bids, leads) for u in range(4))
                    situation = situation._replace(role=roles[int(card.suit)])
                yield seat, card, situation, played, roles
            played |= card.bit
        if trick:
            leads[trick[0][0]] |= 1 << int(trick[0][1].suit)


def play_tricks(play: Sequence[Card], declarer: Seat, strain: Strain) -> Iterator[list[tuple[Seat, Card]]]:
    """A legal play's tricks as (seat, card) in order, from the opening lead (declarer's LHO)."""
    leader = declarer.lho
    for start in range(0, len(play), 4):
        trick = [(leader.after(j), card) for j, card in enumerate(play[start:start + 4])]
        yield trick
        if len(trick) == 4:
            leader = trick_winner(trick, strain)


def observations(hands: Sequence[int], declarer: Seat, strain: Strain, play: Sequence[Card],
                 bids: Sequence[int] | None = None) -> Iterator[Observation]:
    """Every defender's card of a legal play, in order (``hands``: the dealt hands as 52-bit masks, N E S W;
    ``bids``: each seat's suits bid, :func:`suits_bid`)."""
    for seat, card, situation, played, roles in _defenders_roles(play_tricks(play, declarer, strain), declarer, strain,
                                                                 True, 0, bids):
        held = hands[seat] & ~played  # what the defender held then
        yield Observation(seat, situation, held >> (13 * int(card.suit)) & _SUIT, card, held, played, roles)


def situation_of(before: Sequence[Card], seats: Sequence[Seat], seat: Seat, card: Card, strain: Strain,
               first_trick: bool) -> Situation:
    """The situation of ``card`` played by ``seat`` after ``before`` (played by ``seats``) in a trick
    (``gone`` left 0: the caller knows the cards played)."""
    nt, suit = strain == Strain.NT, int(card.suit)
    trump = None if strain.trump is None else int(strain.trump)
    if not before:
        return Situation(Phase.OPENING_LEAD if first_trick else Phase.LEAD, nt, False, suit, 0, None, trump=trump)
    winner = trick_winner(list(zip(seats, before)), strain)
    top = before[seats.index(winner)]
    partner = winner == seat.partner
    pos = top.index % 13
    if card.suit == before[0].suit:
        phase = (Phase.SECOND, Phase.THIRD, Phase.FOURTH)[len(before) - 1]
        best = pos if top.suit == card.suit else -1  # ruffed already: no card of the suit wins
        return Situation(phase, nt, partner and phase != Phase.SECOND, suit, 0, best, trump=trump)
    ruffed = pos if trump is not None and int(top.suit) == trump else None
    if card.suit == trump:
        return Situation(Phase.RUFF, nt, partner, suit, 0, ruffed, trump=trump)
    return Situation(Phase.DISCARD, nt, partner, suit, 0, ruffed, trump=trump)
