"""A reference declarer on Kibitz: sample layouts from a view, solve each double dummy, play the best card.

At each of declarer's turns (declarer's own hand or dummy), :func:`choose_card` draws ``n``
layouts of the unseen cards from a view of the :class:`~inference.state.play.PlayState` (lawful,
agreement or weighted; exact sampling, same seed same layouts), solves every layout double dummy
in one batch with endplay's DDS binding, and plays the legal card with the most tricks summed over
the samples (the best average).

**Tie rule.** Among cards with the same total, the lowest card is played; between equal ranks,
the suit that comes last in the order spades, hearts, diamonds, clubs (clubs first). The same rule
breaks ties for the double-dummy defenders. It is :func:`tie_key`.

The solver is the optional extra ``kibitz[bot]`` (``pip install 'kibitz[bot]'``, which installs
endplay); without it, :class:`DoubleDummy` raises :class:`~inference.errors.BotUnavailableError`.
Everything else here is pure Kibitz.

Defenders come in three kinds: :class:`RecordedDefence` plays a record's cards while the play
follows the record and double-dummy defence after; :class:`AgreementDefence` leads and signals by stated agreements (its
carding is read back by :class:`CardReader`, which turns leads and count signals into inferences);
:class:`ModelDefence` plays double-dummy best cards, choosing among them as a model of real defenders does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Iterator, Protocol, Sequence

import numpy as np

from dealer import CARDS, Card, CardSet, Deal, Rank, Seat, Suit
from dealer.cards.suit import RANK_CHARS

from inference.rules.contract import Contract, Strain
from inference.defence.cards import defenders_situations, play_tricks
from inference.defence.model import DefenceModel
from inference.errors import BotUnavailableError, InferenceError, InvalidArgumentError, InvalidBoardError
from inference.claims.inferences import Tag
from inference.exact.layouts import VIEWS
from inference.state.leads import CardingAgreement, LeadAgreement, count_signal, lead_interpretations
from inference.state.play import PlayState
from inference.rules.trick import Trick, irregularity, legal_cards, trick_winner

if TYPE_CHECKING:
    from inference.auction.likelihood import Likelihood

__all__ = ["DoubleDummy", "Table", "Position", "Decision", "choose_card", "tie_key", "Defence",
           "RecordedDefence", "AgreementDefence", "ModelDefence", "CardReader", "HeardAuction", "GameHistory", "PlayedCard", "DealResult",
           "play_deal", "opening_lead"]

_SUIT = 0x1FFF
_HOLDING = ["".join(RANK_CHARS[b] for b in range(13) if h >> b & 1) for h in range(1 << 13)]


def tie_key(card: Card) -> tuple[int, int]:
    """Larger is preferred among equal scores: the lower rank, then clubs over diamonds over hearts over spades.

    >>> max([Card.parse("SA"), Card.parse("S2"), Card.parse("C2")], key=tie_key)
    Card('C2')
    """
    return (-int(card.rank), int(card.suit))


@dataclass(frozen=True)
class Table:
    """A position for the double-dummy solver: every hand's remaining cards (the cards of the trick in
    progress still in them), the trick's leader and cards so far, and the strain."""

    hands: tuple[int, int, int, int]
    leader: Seat
    trick: tuple[Card, ...]
    strain: Strain

    def pbn(self) -> str:
        """The hands as a PBN deal string from North (holdings may be short)."""
        return "N:" + " ".join(".".join(_HOLDING[m >> (13 * s) & _SUIT] for s in range(4)) for m in self.hands)

    def check(self) -> None:
        """Raise :class:`~inference.errors.InvalidBoardError` unless this is a board the solver can take.

        The four hands hold distinct cards (52 at the start of play), the same number each (the
        current trick's cards are still in them), at least one; the trick has at most three cards,
        each held by the seat on turn when it was played and following suit when that seat could.
        """
        hands = self.hands
        if len(hands) != 4 or any(not isinstance(m, int) or m < 0 or m >> 52 for m in hands):
            raise InvalidBoardError(f"invalid board for the double-dummy solver: four hand masks expected, "
                                    f"got {hands!r}")
        where = f" (board {self.pbn()}, {self.leader.name_long} to lead{_trick_text(self.trick)})"
        seen = 0
        for seat, m in zip(Seat, hands):
            if seen & m:
                twice = CardSet(seen & m)
                others = [s.name_long for s, o in zip(Seat, hands[:seat]) if o & twice.mask]
                raise InvalidBoardError(f"invalid board for the double-dummy solver: {twice.to_text()} in the hands "
                                        f"of both {' and '.join(others)} and {seat.name_long}{where}")
            seen |= m
        sizes = [m.bit_count() for m in hands]
        if len(set(sizes)) != 1 or not 1 <= sizes[0] <= 13:
            raise InvalidBoardError(
                "invalid board for the double-dummy solver: hands of " + ", ".join(
                    f"{s.name} {n}" for s, n in zip(Seat, sizes)) + " cards; each must hold the same number, 1 to "
                "13 (the cards played to the current trick still in them)" + where)
        if len(self.trick) > 3:
            raise InvalidBoardError(f"invalid board for the double-dummy solver: {len(self.trick)} cards in the "
                                    f"current trick; at most 3{where}")
        trick = Trick(self.leader)
        remaining = list(hands)
        played = [0, 0, 0, 0]
        for card in self.trick:
            seat = trick.to_play
            fault = irregularity(trick, card, hands=remaining, played=played)
            if fault is not None:
                raise InvalidBoardError(f"invalid board for the double-dummy solver: {seat.name_long} cannot have "
                                        f"played {card} to the current trick ({fault.fault.value}){where}")
            remaining[seat] &= ~card.bit
            played[seat] |= card.bit
            trick = trick.add(card, self.strain)


@dataclass(frozen=True)
class Position:
    """A position of the play as the solver sees it in any layout: the trick's leader and cards so far, the cards
    of the finished tricks (``gone``, a 52-bit mask) and the strain."""

    leader: Seat
    trick: tuple[Card, ...]
    gone: int
    strain: Strain

    @classmethod
    def of(cls, state: PlayState) -> "Position":
        """The position of ``state`` now."""
        snap = state.snapshot
        trick = tuple(c for _, c in snap.current.cards)
        gone = 0
        for m in snap.played:
            gone |= m
        for c in trick:
            gone &= ~c.bit
        return cls(snap.current.leader, trick, gone, state.strain)

    def table(self, dealt: Sequence[int]) -> Table:
        """The solver's board in the layout ``dealt`` (the hands as dealt, N E S W)."""
        g = ~self.gone
        return Table((int(dealt[0]) & g, int(dealt[1]) & g, int(dealt[2]) & g, int(dealt[3]) & g), self.leader,
                     self.trick, self.strain)


class DoubleDummy:
    """endplay's DDS solver: for each position, every legal card's tricks for the side to play, from now on.

    Raises :class:`~inference.errors.BotUnavailableError` when endplay is not installed.
    """

    def __init__(self) -> None:
        try:
            from endplay.dds import solve_all_boards
            from endplay.types import Deal as EDeal
            from endplay.types import Denom, Player
        except ImportError:
            raise BotUnavailableError(
                "the reference declarer needs the double-dummy solver: pip install 'kibitz[bot]' "
                "(it installs endplay)") from None
        self._solve_all = solve_all_boards
        self._deal, self._denom, self._player = EDeal, Denom, Player
        self._cards = {(int(c.suit), 1 << int(c.rank)): c for c in CARDS}
        self.positions_solved = 0

    def solve(self, tables: Sequence[Table]) -> list[dict[Card, int]]:
        """Tricks the side on play takes with each legal card, per table (one batch).

        Every table is checked first (:meth:`Table.check`): an invalid board raises
        :class:`~inference.errors.InvalidBoardError` and nothing is solved.
        """
        for t in tables:
            t.check()
        deals = []
        for t in tables:
            d = self._deal(t.pbn())
            d.first = self._player(int(t.leader))
            d.trump = self._denom(int(t.strain))
            for c in t.trick:
                d.play(f"{c.suit.name}{RANK_CHARS[c.index % 13]}")
            deals.append(d)
        out: list[dict[Card, int]] = []
        for start in range(0, len(deals), 200):  # DDS solves at most 200 boards a call
            for solved in self._solve_all(deals[start:start + 200]):
                out.append({self._cards[(int(c.suit), int(c.rank))]: int(tricks) for c, tricks in solved})
        self.positions_solved += len(tables)
        return out


@dataclass(frozen=True)
class Decision:
    """A card chosen by the reference declarer and the samples' verdict.

    ``totals``: tricks summed over the samples for each legal card (empty when only one card was
    legal, then ``samples`` is 0). ``view`` is the view sampled (``lawful`` when the requested one
    could not be built: ``note`` says why).
    """

    card: Card
    totals: dict[Card, int]
    samples: int
    view: str
    note: str = ""

    def average(self, card: Card) -> float:
        """Mean tricks (for the side on play, from this trick on) with ``card`` over the samples."""
        return self.totals[card] / self.samples if self.samples else float("nan")

    def verdict(self, top: int = 4) -> str:
        """The best few cards and their averages, for printing."""
        if not self.samples:
            return "only card"
        ranked = sorted(self.totals, key=lambda c: (self.totals[c], tie_key(c)), reverse=True)[:top]
        text = ", ".join(f"{c} {self.average(c):.2f}" for c in ranked)
        return f"{self.samples} {self.view} layouts: {text}" + (f" ({self.note})" if self.note else "")


def choose_card(state: PlayState, *, n: int = 100, seed: "int | random.Random | np.random.Generator | None" = None,
                view: str = "lawful", solver: DoubleDummy | None = None) -> Decision:
    """Declarer's card now: the legal card with the best average over ``n`` layouts drawn from ``view``.

    The seat on play must be declarer or dummy, with dummy tabled. When the view cannot be built
    (its inferences leave no layout, or it is too complex), the lawful view is sampled instead and
    the decision's ``note`` says so.
    """
    snap = state.snapshot
    seat = state.to_play
    if seat not in (state.declarer, state.dummy) or state.viewer != state.declarer:
        raise InvalidArgumentError(f"the reference declarer plays for declarer's side, not {seat.name_long} "
                                   f"(viewer {state.viewer.name_long})")
    if snap.remaining[seat] < 0:
        raise InvalidArgumentError(f"{seat.name_long}'s cards are not visible: table dummy first")
    if not isinstance(n, int) or n < 1:
        raise InvalidArgumentError(f"cannot sample n={n!r} layouts: expected a positive integer")
    if view not in VIEWS:
        raise InvalidArgumentError(f"invalid view {view!r}: expected one of {', '.join(VIEWS)}")
    legal = legal_cards(snap.remaining[seat], snap.current.led_suit)
    if len(legal) == 1:
        return Decision(legal[0], {}, 0, view)
    note = ""
    try:
        masks = state.sample_masks(n, seed, view)
    except InferenceError as exc:
        if view == "lawful":
            raise
        note = f"{view} view unavailable, lawful used: {exc}"
        view = "lawful"
        masks = state.sample_masks(n, seed, view)
    position = Position.of(state)
    tables = [position.table(row) for row in masks.tolist()]
    solver = solver or DoubleDummy()
    totals = dict.fromkeys(legal, 0)
    for scores in solver.solve(tables):
        for c in legal:
            totals[c] += scores[c]
    best = max(legal, key=lambda c: (totals[c], tie_key(c)))
    return Decision(best, totals, len(tables), view, note)


# -- defenders -----------------------------------------------------------------------------------

class Defence(Protocol):
    """Chooses a defender's card from the true position (defenders here see everything, as DDS does)."""

    def card(self, table: Table, seat: Seat, history: "GameHistory") -> Card: ...


@dataclass
class GameHistory:
    """What has happened so far in a deal being played: every card in order, by trick."""

    cards: list[tuple[int, Seat, Card]] = field(default_factory=list)  # (trick number, seat, card)
    dealt: tuple[int, int, int, int] = (0, 0, 0, 0)
    declarer: Seat = Seat.S
    strain: Strain = Strain.NT


def _trick_text(trick: Sequence[Card]) -> str:
    return f", trick so far {' '.join(map(str, trick))}" if trick else ""


def _dd_best(solver: DoubleDummy, table: Table, legal: Sequence[Card]) -> list[Card]:
    scores = solver.solve([table])[0]
    top = max(scores[c] for c in legal)
    return [c for c in legal if scores[c] == top]


def _legal_at(table: Table, seat: Seat) -> list[Card]:
    led = table.trick[0].suit if table.trick else None
    hand = table.hands[seat]
    for c in table.trick:
        hand &= ~c.bit
    return legal_cards(hand, led)


class RecordedDefence:
    """A record's defenders: they play the record's cards while the play so far is the record's, and
    double-dummy defence (ties by :func:`tie_key`) from the first card declarer's side plays differently."""

    def __init__(self, play: Sequence[Card], solver: DoubleDummy) -> None:
        self.solver = solver
        self.play = tuple(play)
        self.from_record = 0
        self.double_dummy = 0

    def card(self, table: Table, seat: Seat, history: GameHistory) -> Card:
        k = len(history.cards)
        on_record = k < len(self.play) and all(c == self.play[i] for i, (_, _, c) in enumerate(history.cards))
        legal = _legal_at(table, seat)
        if on_record and self.play[k] in legal:
            self.from_record += 1
            return self.play[k]
        self.double_dummy += 1
        return max(_dd_best(self.solver, table, legal), key=tie_key)


def opening_lead(hand: int, strain: Strain, agreement: LeadAgreement) -> Card:
    """The lead a defender makes by ``agreement``: from its longest suit (not trumps if it has another;
    ties to the suit with more HCP, then the higher suit), the card whose reading the agreement tags
    agreement-consistent (else -unspecified; else the lowest).
    """
    suits = [s for s in Suit if hand >> (13 * s) & _SUIT]
    if strain.trump is not None and len(suits) > 1:
        suits = [s for s in suits if s != strain.trump]

    def strength(s: Suit) -> tuple[int, int, int]:
        h = hand >> (13 * s) & _SUIT
        return (h.bit_count(), sum(4 - b for b in range(4) if h >> b & 1), -int(s))

    suit = max(suits, key=strength)
    holding = hand >> (13 * suit) & _SUIT
    cards = [Card(suit, Rank(14 - b)) for b in range(13) if holding >> b & 1]  # highest first
    n = len(cards)
    if n == 1:
        return cards[0]
    honour_headed = bool(holding & 0x1F)
    best: tuple[int, Card] | None = None
    for k, c in enumerate(cards[:5], start=1):
        options = []
        if agreement.sequences and k == 1 and int(c.rank) >= 12 and n >= 3 and \
                int(cards[1].rank) == int(c.rank) - 1 and int(cards[2].rank) == int(c.rank) - 2:
            options.append(agreement.tag_for(1, 3, None, sequence=True)[0])
        kind = ("honour" if honour_headed else "spots") if (n == 3 and agreement.split_three) else None
        options.append(agreement.tag_for(k, n, kind)[0])
        rank = {Tag.CONSISTENT: 2, Tag.UNSPECIFIED: 1}.get(min(options, key=lambda t: t != Tag.CONSISTENT), 0)
        if best is None or rank > best[0]:
            best = (rank, c)
    assert best is not None
    return best[1] if best[0] > 0 else cards[-1]


class AgreementDefence:
    """Simulated defenders who lead and signal by stated agreements, and otherwise defend double dummy.

    The opening lead is ``opening`` when given (a record's lead), else :func:`opening_lead`. When following suit to a trick declarer's side led,
    among the double-dummy best cards a defender gives count by ``carding``: with an even number
    dealt (standard count) the higher card first, then a lower one; with an odd number, low then
    higher. Its signal cards are the ones :class:`CardReader` reads (follows to tricks declarer's
    side led that it did not win); when the double-dummy best cards leave no card going the right
    way, the signal is false, as a real defender's can be. Any other choice among equals goes by
    :func:`tie_key` (the lowest card).
    """

    def __init__(self, lead: LeadAgreement, carding: CardingAgreement | None, solver: DoubleDummy, *,
                 opening: Card | None = None) -> None:
        self.lead, self.carding, self.solver, self.opening = lead, carding, solver, opening

    def card(self, table: Table, seat: Seat, history: GameHistory) -> Card:
        if not history.cards:
            if self.opening is not None and table.hands[seat] & self.opening.bit:
                return self.opening
            return opening_lead(table.hands[seat], table.strain, self.lead)
        legal = _legal_at(table, seat)
        best = _dd_best(self.solver, table, legal)
        led = table.trick[0].suit if table.trick else None
        declarer_led = bool(table.trick) and table.leader not in (history.declarer.lho, history.declarer.rho)
        if self.carding is None or not declarer_led or led is None or best[0].suit != led:
            return max(best, key=tie_key)
        shown = _signal_cards(history, seat, led)
        if len(shown) >= 2:
            return max(best, key=tie_key)
        dealt = (history.dealt[seat] >> (13 * led) & _SUIT).bit_count()
        high_first = (dealt % 2 == 0) == (self.carding.high_low == "even")
        if not shown:
            return max(best, key=lambda c: int(c.rank)) if high_first else min(best, key=lambda c: int(c.rank))
        # the second card must go the right way from the first, or the signal says the wrong thing
        first = int(shown[0].rank)
        right = [c for c in best if (int(c.rank) < first) == high_first]
        return min(right, key=lambda c: int(c.rank)) if right else max(best, key=tie_key)


class ModelDefence:
    """Double-dummy defenders who choose among the double-dummy best cards as real defenders do.

    Each best card weighs its probability under ``model`` (a
    :class:`~inference.defence.model.DefenceModel`: the card from its holding in its situation, times on
    a lead or a discard the rate of a suit like it, and on a ruff or a discard the rate of that choice with
    the trumps held, :meth:`~inference.defence.model.DefenceModel.hand_evidence`);
    ``model=None`` weighs them alike (the robustness defence). The draw's generator is seeded by ``seed``,
    the card's number and the seat, so every view of a deal meets the same choices in the same positions.
    The opening lead is ``opening`` when given (a record's lead), else chosen the same way among every
    legal card's double-dummy best. ``bids`` (each seat's suits bid, :func:`~inference.defence.cards.suits_bid`)
    give a lead or a discard its suit's role in the auction (None: the defenders choose as if not knowing it).
    """

    def __init__(self, model: "DefenceModel | None", solver: DoubleDummy, *, opening: Card | None = None,
                 seed: int = 0, group: str = "human", bids: Sequence[int] | None = None) -> None:
        self.model, self.solver, self.opening, self.seed, self.group = model, solver, opening, seed, group
        self.bids = bids

    def card(self, table: Table, seat: Seat, history: GameHistory) -> Card:
        if not history.cards and self.opening is not None and table.hands[seat] & self.opening.bit:
            return self.opening
        best = sorted(_dd_best(self.solver, table, _legal_at(table, seat)), key=lambda c: c.index)
        if len(best) == 1:
            return best[0]
        weights = [self._weight(table, seat, history, c) for c in best]
        rng = random.Random(f"{self.seed}/{len(history.cards)}/{int(seat)}")
        if not any(weights):
            return rng.choice(best)
        pick = Fraction(rng.random()) * sum(weights)
        for card, w in zip(best, weights):
            pick -= w
            if pick < 0:
                return card
        return best[-1]

    def _weight(self, table: Table, seat: Seat, history: GameHistory, card: Card) -> Fraction:
        if self.model is None:
            return Fraction(1)
        play = [c for _, _, c in history.cards] + [card]  # the card as if played: its situation and role
        *_, (_, _, situation, _) = defenders_situations(play_tricks(play, history.declarer, table.strain),
                                                        history.declarer, table.strain, True, bids=self.bids)
        return self.model.hand_evidence(situation, table.hands[seat], card.index % 13, self.group)  # the trick's too


def _signal_cards(history: GameHistory, seat: Seat, suit: Suit) -> list[Card]:
    """The cards ``seat`` has played following suit in ``suit`` to completed tricks declarer's side led,
    without winning them: what :class:`CardReader` reads as count."""
    defenders = (history.declarer.lho, history.declarer.rho)
    out: list[Card] = []
    complete = len(history.cards) // 4 * 4
    for i in range(0, complete, 4):
        trick = [(s, c) for _, s, c in history.cards[i:i + 4]]
        leader, led_card = trick[0]
        if leader in defenders or led_card.suit != suit:
            continue
        winner = trick_winner(trick, history.strain)
        out += [c for s, c in trick[1:] if s == seat and c.suit == suit and s != winner]
    return out


@dataclass(frozen=True)
class HeardAuction:
    """An auction as declarer heard it, to be read with a bidding book (:meth:`PlayState.add_auction`)."""

    dealer: Seat
    calls: tuple[str, ...]
    book: str
    vulnerability: str = ""
    explanations: tuple[str | None, ...] = ()
    #: The graded likelihood, and whether a record's dropped leading passes are put back: as add_auction takes them.
    likelihood: "Likelihood | str | None" = "default"
    restore_passes: bool = False


class CardReader:
    """Declarer's reading of the auction and the defenders' carding: the auction (if given) with its
    book, the opening lead by ``lead`` (an XOR group of tagged readings) and count by ``carding`` from
    a defender's first two cards that followed suit to tricks declarer's side led without winning them.
    When the state weighs the defenders' cards by a defence model (:attr:`PlayState.defence`), the lead and
    count readings are not also added: the model already counts those cards as evidence."""

    def __init__(self, lead: LeadAgreement | None, carding: CardingAgreement | None, *,
                 auction: HeardAuction | None = None) -> None:
        self.lead, self.carding, self.auction = lead, carding, auction
        self._follows: dict[tuple[Seat, Suit], list[Card]] = {}
        self.read: list[str] = []

    def after_lead(self, state: PlayState, lead: Card) -> None:
        """Call once dummy is tabled after the opening lead: adds the auction's claims (in force for
        every decision declarer makes), then the lead's readings."""
        a = self.auction
        if a is not None and a.calls:
            if state.add_auction(a.dealer, a.calls, book=a.book, vulnerability=a.vulnerability,
                                 explanations=a.explanations or None, likelihood=a.likelihood,
                                 restore_passes=a.restore_passes) is not None:
                self.read.append(f"auction: {len(a.calls)} calls read with {a.book}")
        if self.lead is None or state.defence is not None:
            return
        snap = state.snapshot
        unseen = snap.unseen | lead.bit
        mask = unseen & (_SUIT << (13 * lead.suit))
        infs = lead_interpretations(lead, state.declarer.lho, mask, self.lead)
        if infs:
            state.add_inferences(infs)
            self.read.append(f"lead {lead}: {len(infs)} readings")

    def after_trick(self, state: PlayState) -> None:
        """Call after each completed trick: adds a count signal once a defender has followed twice."""
        if self.carding is None or not state.snapshot.tricks or state.defence is not None:
            return
        trick = state.snapshot.tricks[-1]
        defenders = (state.declarer.lho, state.declarer.rho)
        if trick.leader in defenders or not trick.cards:
            return
        led = trick.cards[0][1].suit
        for seat, c in trick.cards[1:]:
            if seat not in defenders or c.suit != led or seat == trick.winner:
                continue
            follows = self._follows.setdefault((seat, led), [])
            follows.append(c)
            if len(follows) == 2:
                inf = count_signal(seat, follows[0], follows[1], self.carding,
                                   name=f"count {seat.name} {led.name_long}")
                try:
                    state.add_inference(inf)
                    self.read.append(f"{inf.name}: {inf.action}")
                except InferenceError:  # e.g. too complex: play on without it
                    pass


# -- one deal ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayedCard:
    """One card of a deal played by :func:`play_deal`, with declarer's decision when it was declarer's."""

    trick: int
    seat: Seat
    card: Card
    decision: Decision | None = None


@dataclass(frozen=True)
class DealResult:
    """How a deal went: the cards in order, tricks won by declarer's side and the decisions' notes."""

    cards: tuple[PlayedCard, ...]
    declarer_tricks: int
    fallbacks: int

    def tricks(self) -> Iterator[tuple[PlayedCard, ...]]:
        """The cards grouped by trick."""
        for i in range(0, len(self.cards), 4):
            yield self.cards[i:i + 4]


def play_deal(deal: Deal, declarer: Seat, contract: "Contract | Strain", defence: Defence, *, n: int = 100,
              seed: int = 0, view: str = "lawful", solver: DoubleDummy | None = None, reader: CardReader | None = None,
              on_card: Callable[[PlayedCard], None] | None = None,
              tricks: int = 13, defence_model: object = "default",
              on_decision: Callable[[PlayState], None] | None = None) -> DealResult:
    """Play ``deal`` out: declarer's side by :func:`choose_card` from ``view``, the defenders by ``defence``.

    Each of declarer's decisions samples with seed ``seed`` + the card's number, so runs repeat
    exactly. After ``tricks`` tricks the rest is played double dummy by both sides (13: all by the
    bot). ``on_card`` is called after every card (progress, printing), ``on_decision`` with declarer's state
    before each of the bot's choices (measures). ``defence_model``: what weighs the weighted view by the
    defenders' cards (:class:`~inference.state.play.PlayState`; None: nothing); the other views take no model,
    so the ``reader``'s lead and count readings are added there (with a model they would be counted twice).
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgumentError(f"invalid seed {seed!r}: expected an integer >= 0")
    if not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise InvalidArgumentError(f"invalid tricks={tricks!r}: expected 0 .. 13")
    strain = contract.strain if isinstance(contract, Contract) else Strain.parse(contract)
    solver = solver or DoubleDummy()
    model = defence_model if view == "weighted" else None  # only the weighted view weighs; the others read signals
    state = PlayState(deal[declarer], declarer=declarer, contract=strain, defence_model=model)
    dealt = deal.masks
    hands = list(dealt)
    history = GameHistory(dealt=dealt, declarer=declarer, strain=strain)
    out: list[PlayedCard] = []
    fallbacks = 0
    current = Trick(declarer.lho)
    ns = declarer in (Seat.N, Seat.S)
    won = 0
    for k in range(52):
        seat = current.to_play
        number = k // 4 + 1
        table = Table(tuple(h | sum(c.bit for s, c in current.cards if s == i) for i, h in enumerate(hands)),  # type: ignore
                      current.leader, tuple(c for _, c in current.cards), strain)
        decision = None
        if seat in (declarer.lho, declarer.rho):
            card = defence.card(table, seat, history)
        elif number > tricks:
            card = max(_dd_best(solver, table, _legal_at(table, seat)), key=tie_key)
        else:
            if on_decision is not None:
                on_decision(state)
            decision = choose_card(state, n=n, seed=seed + k, view=view, solver=solver)
            card = decision.card
            fallbacks += bool(decision.note)
        if irregularity(current, card, hands=hands, played=[d & ~h for d, h in zip(dealt, hands)]) is not None:
            raise InvalidArgumentError(f"trick {number}: {seat.name_long} cannot play {card}")
        hands[seat] &= ~card.bit
        state.play(card)
        if k == 0:
            state.table_dummy(deal[declarer.partner])
            if reader is not None:
                reader.after_lead(state, card)
        current = current.add(card, strain)
        history.cards.append((number, seat, card))
        played = PlayedCard(number, seat, card, decision)
        out.append(played)
        if current.complete:
            won += (current.winner in (Seat.N, Seat.S)) == ns
            current = current.next_trick()
            if reader is not None:
                reader.after_trick(state)
        if on_card is not None:
            on_card(played)
    return DealResult(tuple(out), won, fallbacks)

