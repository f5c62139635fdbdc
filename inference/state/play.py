"""A hand in progress, seen from one seat: the one mutable owner of the play state.

:class:`PlayState` holds a stack of immutable :class:`Snapshot` values, one per
event (dummy tabled, card played); :meth:`PlayState.pop` and
:meth:`PlayState.undo_to` go back to any earlier point and restore it exactly.
Every event is checked first (right seat on turn, card not already seen, a
visible hand holds the card and follows suit, a concealed hand does not play a
suit it has shown out of, the cards still admit a lawful layout); a rejected
event raises and leaves the state as it was.

After every event the snapshot carries the lawful :class:`~inference.rules.lawful.Bounds`
and an :class:`Update` listing which bounds changed and why.

>>> state = PlayState("A.A432.A432.A432", declarer="S", contract="3NT")
>>> state.bounds()[Seat.W].get("S")
(0, 12)
>>> _ = state.play("SK")                       # LHO leads
>>> _ = state.table_dummy("2.KJT.KJT9.KJT98")
>>> state.bounds()[Seat.E].get("S")
(0, 10)
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from dealer import Card, CardSet, Deal, Hand, InvalidCardError, Seat, Suit
from dealer.cards.cardset import SUIT_MASK
from dealer.checks import check_bool, shown

from inference.auction.book import Book, available_books, load_book
from inference.auction.likelihood import AuctionWeights, Likelihood, load_likelihood, shipped_likelihood
from inference.auction.reading import auction_inferences
from inference.claims.arguments import (
    cards_argument, contract_argument, inference_argument, seat_argument, voids_argument, won_argument,
)
from inference.claims.language import Claim
from inference.rules.contract import Contract, Strain
from inference.auction.context import auction_declarer, suits_bid
from inference.defence.evidence import DefenceEvidence, defence_evidence, defenders_cards
from inference.defence.reading import Reading, strongest_reading
from inference.errors import IllegalPlayError, InconsistentCardsError, InvalidArgumentError, OutOfOrderError, RevokeError, UndoError
from inference.state.events import Snapshot, Update, agree, possessive, relative_name
from inference.claims.inferences import Inference, InferenceState, StatusChange, Tag
from inference.rules.lawful import Bounds, lawful_bounds
from inference.exact.layouts import Layouts, Odds, View, layout_space
from inference.state.reasons import explain
from inference.state.reexamination import Event, StatusKeeper
from inference.rules.trick import Fault, Irregularity, Trick, irregularity
from inference.claims.weights import HoldingWeights

__all__ = ["PlayState"]

_FULL = (1 << 52) - 1


@dataclass(frozen=True)
class _Setup:
    viewer: Seat
    declarer: Seat
    contract: Contract


class PlayState:
    """The play of one hand as the viewer sees it, with push/pop undo.

    ``hand``: the viewer's cards (all 13 at the start of play; at a mid-hand
    start, the cards it still holds). ``declarer`` and ``contract`` (or a
    strain) fix who leads and what wins. ``viewer`` defaults to declarer.

    A mid-hand start gives ``played`` (cards each seat has already played),
    ``voids`` (suits each seat has shown out of), ``leader`` (on lead now),
    ``won`` (tricks won by N-S and E-W) and, if dummy is down, ``dummy``
    (its remaining cards).

    ``defence_model`` weighs the weighted view by the defenders' cards (:mod:`inference.defence`):
    ``"default"`` (the shipped model), a model file, a
    :class:`~inference.defence.model.DefenceModel`, a
    :class:`~inference.defence.evidence.DefenceEvidence`, a function ``(situation, holding,
    position) -> probability``, or None (no evidence from the play).
    """

    #: Re-examine only the inferences a card can affect (False: every one, every card; the
    #: benchmark's baseline and a test's cross-check).
    _incremental: bool = True

    def __init__(self, hand: "Hand | CardSet | str", *, declarer: "Seat | str",
                 contract: "Contract | Strain | str" = "NT", viewer: "Seat | str | None" = None,
                 dummy: "CardSet | str | None" = None, played: "Mapping[Seat | str, CardSet | str] | None" = None,
                 voids: "Mapping[Seat | str, str] | None" = None, leader: "Seat | str | None" = None,
                 won: tuple[int, int] = (0, 0), defence_model: object = "default") -> None:
        decl = seat_argument(declarer, "declarer")
        self._defence = defence_evidence(defence_model)
        view = decl if viewer is None else seat_argument(viewer, "viewer")
        contract_v = contract_argument(contract)
        played_m = [0, 0, 0, 0]
        for s, cards in (played or {}).items():
            played_m[seat_argument(s, "played")] = cards_argument(cards, f"played[{s}]").mask
        hand_m = cards_argument(hand, "hand").mask
        counts = {len(CardSet(m)) for m in played_m}
        if len(counts) > 1:
            raise OutOfOrderError(
                "a mid-hand start must be at the end of a trick: seats have played "
                + ", ".join(f"{s.name} {CardSet(played_m[s]).__len__()}" for s in Seat)
            )
        done = counts.pop()
        remaining = [-1, -1, -1, -1]
        remaining[view] = hand_m
        if len(CardSet(hand_m)) + done != 13:
            raise InvalidArgumentError(
                f"the viewer ({view.name_long}) holds {len(CardSet(hand_m))} cards after {done} tricks; "
                f"{13 - done} expected"
            )
        tabled = False
        if dummy is not None:
            if done == 0:
                raise OutOfOrderError("dummy is tabled after the opening lead, not before")
            d_m = cards_argument(dummy, "dummy").mask
            dseat = decl.partner
            if dseat != view:
                if len(CardSet(d_m)) + done != 13:
                    raise InvalidArgumentError(f"dummy holds {len(CardSet(d_m))} cards after {done} tricks; "
                                           f"{13 - done} expected")
                remaining[dseat] = d_m
            tabled = True
        seen = 0
        for m in remaining + played_m:
            if m >= 0:
                if seen & m:
                    dup = CardSet(seen & m).to_text()
                    raise InvalidArgumentError(f"cards given twice: {dup}")
                seen |= m
        void_m = voids_argument(voids)
        for seat, held in enumerate(remaining):  # a hand in view cannot have shown out of a suit it holds
            shown = [Suit(x) for x in range(4) if held >= 0 and void_m[seat] >> x & 1 and held >> (13 * x) & SUIT_MASK]
            if shown:
                raise RevokeError(f"voids: {Seat(seat).name_long} showed out of {shown[0].name_long} but holds some")
        won = won_argument(won, done)
        lead = decl.lho if leader is None else seat_argument(leader, "leader")
        if done and leader is None:
            raise OutOfOrderError("a mid-hand start must say who is on lead (leader)")
        self._setup = _Setup(view, decl, contract_v)
        self._keeper = StatusKeeper(view, decl)
        masks = (_four(remaining), _four(played_m), _four(void_m))
        bounds = self._lawful(*masks, where="")
        label = "start of play" if not done else f"start after {done} tricks"
        snap = Snapshot(*masks, (), Trick(lead), tabled, bounds, Update(label, done + 1, None, None, ()), won)
        self._stack: list[Snapshot] = [snap]
        self._layout_cache: tuple[Snapshot | None, dict[Any, Layouts]] = (None, {})

    # -- properties -------------------------------------------------------------
    @property
    def viewer(self) -> Seat:
        """The seat whose view this is."""
        return self._setup.viewer

    @property
    def declarer(self) -> Seat:
        """The declarer's seat."""
        return self._setup.declarer

    @property
    def dummy(self) -> Seat:
        """Dummy's seat (declarer's partner)."""
        return self._setup.declarer.partner

    @property
    def contract(self) -> Contract:
        """The contract being played."""
        return self._setup.contract

    @property
    def strain(self) -> Strain:
        """The contract's strain: trumps, or no trump."""
        return self._setup.contract.strain

    @property
    def snapshot(self) -> Snapshot:
        """The current (immutable) state."""
        return self._stack[-1]

    @property
    def ply(self) -> int:
        """Number of events since the start (0 at the start)."""
        return len(self._stack) - 1

    @property
    def to_play(self) -> Seat:
        """The seat whose turn it is."""
        return self.snapshot.current.to_play

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (or about to start)."""
        return len(self.snapshot.tricks) + 1 + self._offset_tricks()

    def _offset_tricks(self) -> int:
        first = self._stack[0]
        return len(CardSet(first.played[0]))

    def concealed(self) -> tuple[Seat, ...]:
        """The seats whose hands the viewer cannot see, in playing order from the viewer's LHO."""
        snap = self.snapshot
        return tuple(s for s in self.viewer.lho.rotation() if snap.remaining[s] < 0)

    def bounds(self) -> Bounds:
        """Lawful bounds now."""
        return self.snapshot.bounds

    def updates(self) -> list[Update]:
        """What every event did, from the start."""
        return [s.update for s in self._stack[1:]]

    def name(self, seat: Seat) -> str:
        """LHO, RHO, partner, dummy, declarer or we, as the viewer speaks."""
        return relative_name(seat, self.viewer, self.declarer)

    # -- events -----------------------------------------------------------------
    def table_dummy(self, hand: "CardSet | str", *, early: bool = False) -> Update:
        """Dummy's 13 cards, seen after the opening lead.

        ``early=True`` lets the viewer see dummy before the lead, as the seed
        article's walk-through does ("adjusting based on Dummy before the
        opening lead seems more straightforward").
        """
        check_bool(early, "early", InvalidArgumentError)
        snap = self.snapshot
        if snap.dummy_tabled:
            raise OutOfOrderError("dummy is already on the table")
        if not early and not snap.tricks and not snap.current.cards and self._offset_tricks() == 0:
            raise OutOfOrderError("dummy is tabled after the opening lead, not before")
        cards = cards_argument(hand, "dummy")
        dseat = self.dummy
        dealt = cards.mask | snap.played[dseat]
        if dseat == self.viewer:
            if cards.mask != snap.remaining[dseat]:
                raise IllegalPlayError("the viewer is dummy: the hand tabled must be the viewer's own cards")
            remaining = snap.remaining
        else:
            if len(CardSet(dealt)) != 13:
                raise InvalidArgumentError(
                    f"dummy's hand {cards.to_pbn()!r} has {len(cards)} cards; with the {len(CardSet(snap.played[dseat]))}"
                    f" it has played it must make 13"
                )
            clash = cards.mask & ~snap.unseen
            if clash:
                raise IllegalPlayError(f"dummy's hand holds cards already seen elsewhere: {CardSet(clash).to_text()}")
            if snap.voids[dseat]:
                for s in range(4):
                    if snap.voids[dseat] >> s & 1 and dealt >> (13 * s) & SUIT_MASK & ~snap.played[dseat] >> (13 * s):
                        raise RevokeError(f"dummy showed out of {Suit(s).name_long} but the hand tabled holds some")
            remaining = tuple(cards.mask if s == dseat else m for s, m in enumerate(snap.remaining))  # type: ignore
        new = self._advance(replace(snap, remaining=remaining, dummy_tabled=True), f"dummy tabled: {cards.to_pbn()}")
        self._stack.append(new)
        return new.update

    def play(self, card: "Card | str", seat: "Seat | str | None" = None) -> Update:
        """The next card of the play, by the seat on turn (``seat``, if given, must be that seat)."""
        snap = self.snapshot
        try:
            c = Card.parse(card)
        except InvalidCardError as exc:
            raise IllegalPlayError(f"trick {self.trick_number}: {exc}") from None
        trick = snap.current
        on_turn = trick.to_play
        where = f"trick {self.trick_number}, card {len(trick.cards) + 1}"
        if len(snap.tricks) + self._offset_tricks() >= 13:
            raise OutOfOrderError(f"all 13 tricks have been played; {c} cannot follow")
        fault = irregularity(trick, c, seat=None if seat is None else seat_argument(seat, "seat"), hands=snap.remaining,
                             played=snap.played, shown_out=snap.voids)
        if fault is not None and fault.fault is Fault.OUT_OF_TURN:
            raise IllegalPlayError(f"{where}: {fault.seat.name_long} cannot play {c}: it is "
                                   f"{on_turn.name_long}'s turn")
        if not snap.dummy_tabled and self.dummy != self.viewer and on_turn == self.dummy:  # to lead or to follow
            raise OutOfOrderError(f"{where}: table dummy before dummy plays")
        if fault is not None:
            raise _illegal(fault, where, trick.led_suit)
        led = trick.led_suit
        voids = list(snap.voids)
        if led is not None and c.suit != led:
            voids[on_turn] |= 1 << led
        remaining = list(snap.remaining)
        if remaining[on_turn] >= 0:
            remaining[on_turn] &= ~c.bit
        played = list(snap.played)
        played[on_turn] |= c.bit
        current = trick.add(c, self.strain)
        tricks = snap.tricks
        won = snap.won
        if current.complete:
            tricks = tricks + (current,)
            won = (won[0] + (current.winner in (Seat.N, Seat.S)), won[1] + (current.winner in (Seat.E, Seat.W)))
            current = current.next_trick()
        who = self.name(on_turn)
        label = f"{where}: {who} ({on_turn.name}) {agree(who, 'plays')} {c}"
        if led is not None and c.suit != led:
            label += f", showing out of {led.name_long}"
        draft = replace(snap, remaining=_four(remaining), played=_four(played), voids=_four(voids), tricks=tricks,
                        current=current, won=won)
        new = self._advance(draft, label, move=(on_turn, c), where=where)
        self._stack.append(new)
        return new.update

    def add_inference(self, inference: Inference | Mapping[str, Any]) -> Update:
        """Take an inference (from the auction or the carding) into account; an event that undo removes."""
        return self.add_inferences([inference])

    def add_inferences(self, inferences: "Sequence[Inference | Mapping[str, Any]]") -> Update:
        """Take several inferences into account at once, as one event (one conflict check)."""
        return self._add_inferences(inferences, self.snapshot.bids, self.snapshot.auction)

    def _add_inferences(self, inferences: "Sequence[Inference | Mapping[str, Any]]",
                        bids: tuple[int, int, int, int] | None, auction: AuctionWeights | None) -> Update:
        """:meth:`add_inferences`, with the suits each seat bid and the auction's weights as the event leaves them."""
        built = [inference_argument(i, self.viewer, self.declarer) for i in inferences]
        snap = self.snapshot
        names = [i.name for i in snap.inferences]
        for inf in built:
            if inf.name in names:
                raise InvalidArgumentError(f"an inference named {inf.name!r} is already in force")
            names.append(inf.name)
            self._keeper.claims(inf)  # check the claims parse, before anything changes
        if not built:
            raise InvalidArgumentError("no inference given")
        label = "; ".join(f"inference {i.name}: {i.claim} ({i.tag.value}, from {possessive(self.name(i.by))} "
                          f"{i.action or i.kind})" for i in built)
        if auction is not None and auction is not snap.auction:
            keys = ", ".join(f"{self.name(seat)} (claims: {key.hcp.split(' ', 1)[1].replace('-', ' to ')} HCP)"
                             if not key.hcp.endswith(" -") else f"{self.name(seat)} (no claim read)"
                             for seat, key in auction.keys)
            label += (f"; the auction's likelihood weighs {keys} in the weighted view once dummy is seen"
                      if self.viewer != self.declarer.partner else  # dummy never sees two of the hands alone
                      "; the auction's likelihood is not weighed from dummy's seat (three hands stay concealed)")
        new = self._advance(replace(snap, inferences=snap.inferences + tuple(built), bids=bids, auction=auction),
                            label, added=frozenset(i.name for i in built))
        self._stack.append(new)
        return new.update

    def add_auction(self, dealer: "Seat | str", calls: Sequence[str], *, book: "Book | str | Path",
                    vulnerability: str = "", explanations: "Sequence[str | None] | None" = None,
                    likelihood: "Likelihood | str | Path | None" = "default", restore_passes: bool = False
                    ) -> Update | None:
        """Read an auction with a bidding book (and the calls' explanations) and add its claims about the
        other seats' hands as one event (:mod:`inference.auction`); None if no call gave a claim. The suits each
        seat bid are kept with the claims, for the defence model (a lead of partner's suit says less than a lead
        of a suit nobody bid); an auction that gives no claim leaves them unknown, as if not heard. A finished
        auction must name the declarer of the contract played: else :class:`~inference.errors.InvalidArgumentError`,
        unless ``restore_passes`` and the leading passes a record dropped, put back, make it so (rpbridge's exports).

        In the weighted view each concealed defender's hand is weighed by the auction's graded likelihood
        (:mod:`inference.auction.likelihood`) in place of his calls' measured ratios: ``"default"`` the one shipped
        for a shipped book named by ``book`` (none for another book), a :class:`Likelihood` or its JSON file (fitted
        for that book: another book's is refused), or None or ``"none"`` (the measured ratios, claim by claim). It
        weighs the view once two hands at most are concealed (dummy seen); before, the measured ratios do (the
        graph would carry both defenders' exact HCP)."""
        the_book = load_book(book)  # read once: a book file of one's own is read each time it is named
        graded = _likelihood_argument(likelihood, book, the_book.name)
        first = seat_argument(dealer, "dealer")
        check_bool(restore_passes, "restore_passes", InvalidArgumentError)
        restored = auction_declarer(first, calls, self.declarer, self.strain, restore_passes)
        inferences = [i for i in auction_inferences(first, calls, the_book, vulnerability, explanations,
                                                    restored) if i.by != self.viewer]  # the viewer's is known
        bids = suits_bid(first, calls, restored)
        if not inferences:
            return None
        trump = None if self.strain == Strain.NT else int(self.strain)
        weights = None if graded is None else graded.weights(inferences, self.declarer, self.viewer, bids, trump)
        return self._add_inferences(inferences, bids, self.snapshot.auction if weights is None else weights)

    def statuses(self) -> dict[str, InferenceState]:
        """Every inference's standing now, by name."""
        return {st.name: st for st in self.snapshot.states}

    def claim_in_force(self, name: str) -> Claim:
        """The claim of an inference's chain that is in force now (the claim or a fallback)."""
        snap = self.snapshot
        inf = next((i for i in snap.inferences if i.name == name), None)
        if inf is None:
            raise InvalidArgumentError(f"no inference named {name!r}")
        return self._keeper.claims(inf)[snap.state_of(name).level]

    def agreement_bounds(self, policy: frozenset[Tag] | None = None) -> tuple[Bounds, tuple[StatusChange, ...]]:
        """Tight bounds under lawful AND the inferences whose tags are in ``policy`` (default: consistent).

        Returns the bounds and the conflict-policy decisions taken to form the view. Raises
        :class:`~inference.errors.InconsistentCardsError` if the view is empty.
        """
        return self._keeper.agreement_bounds(self.snapshot, policy)

    # -- layouts: exact odds and samples ----------------------------------------
    def layouts(self, view: str | View = "lawful") -> Layouts:
        """The layouts of the unseen cards consistent with everything known, in a view.

        ``view`` is ``"lawful"`` (every lawful layout once), ``"agreement"`` (those where the
        agreement-consistent inferences hold) or ``"weighted"`` (every lawful layout, weighted by
        its inferences' tags), or a :class:`~inference.exact.layouts.View` for a custom policy or weights.
        Built once per state and view (kept until the next event or undo).
        """
        key = view if isinstance(view, View) else str(view)
        if not isinstance(key, View) and key not in ("lawful", "agreement", "weighted"):
            raise InvalidArgumentError(f"invalid view {view!r}: expected one of lawful, agreement, weighted")
        snap = self.snapshot
        cache = self._layout_cache if self._layout_cache[0] is snap else (snap, {})
        self._layout_cache = cache
        try:
            hash(key)
        except TypeError:  # a View with a dict of weights: built each time
            return self._layout_space(key)
        space = cache[1].get(key)
        if space is None:
            space = self._layout_space(key)
            cache[1][key] = space
        return space

    def odds(self, view: str | View = "lawful") -> Odds:
        """Exact odds now (fractions): who holds each unseen card, dealt lengths, HCP, suit splits."""
        return self.layouts(view).odds()

    def sample(self, n: int, seed: "int | random.Random | np.random.Generator | None" = None,
               view: str | View = "lawful") -> "list[Deal]":
        """``n`` complete deals (13 dealt cards a seat) drawn exactly from the view; same seed, same deals."""
        return self.layouts(view).sample(n, seed)

    def sample_masks(self, n: int, seed: "int | random.Random | np.random.Generator | None" = None,
                     view: str | View = "lawful") -> "np.ndarray":
        """The fast form of :meth:`sample`: an ``(n, 4)`` uint64 array of dealt hands (N, E, S, W)."""
        return self.layouts(view).sample_masks(n, seed)

    def _layout_space(self, view: str | View) -> Layouts:
        snap = self.snapshot
        claims = {i.name: self._keeper.claims(i) for i in snap.inferences}
        v = view if isinstance(view, View) else View(str(view))
        inferences = snap.inferences
        position = snap.position()
        if v.kind == "weighted" and snap.auction is not None and len(position.concealed) <= 2:
            # the graded likelihood stands for the calls' ratios (two hands concealed: their exact HCP cost no state)
            inferences = tuple(i for i in inferences if i.name not in snap.auction.replaces)
            held = snap.auction.holdings
            v = replace(v, factors=v.factors + snap.auction.factors,
                        holdings=held if v.holdings is None else v.holdings.times(held))
        if v.kind == "weighted" and self._defence is not None and (snap.tricks or snap.current.cards):
            evidence = self.defence_weights()
            v = replace(v, holdings=evidence if v.holdings is None else v.holdings.times(evidence))
        return layout_space(position, inferences, claims, {st.name: st for st in snap.states}, self.viewer, v)

    @property
    def defence(self) -> "DefenceEvidence | None":
        """What weighs the weighted view by the defenders' cards (None: nothing)."""
        return self._defence

    def defence_weights(self) -> HoldingWeights:
        """The defenders' cards so far as per-holding weights (empty when no model is set)."""
        if self._defence is None:
            return HoldingWeights()
        tricks, visible = self._defence_inputs()
        return self._defence.weights(tricks, self.declarer, self.strain, self._stack[0].played, visible,
                                     self.snapshot.bids, viewer=self.viewer)

    def reading(self) -> "Reading | None":
        """What the last card says most strongly under the defence model, when it is a defender's (else None)."""
        tricks, visible = self._defence_inputs()
        if self._defence is None or not tricks:
            return None
        before = self._stack[0].played
        gone = before[0] | before[1] | before[2] | before[3]
        last = None
        for last in defenders_cards(tricks, self.declarer, self.strain, not gone, gone, self.snapshot.bids):
            pass
        if last is None or last[:2] != tricks[-1].cards[-1]:
            return None
        seat, card, situation, played = last
        free = ~(visible | played) >> (13 * int(card.suit)) & 0x1FFF
        held = 14 - self.snapshot.played[seat].bit_count()  # his cards in hand when he played it, this one's too
        return strongest_reading(self._defence, seat, card, situation, free, longest=held)

    def _defence_inputs(self) -> "tuple[tuple[Trick, ...], int]":
        """The tricks so far (the one in progress last) and the dealt cards of the hands the viewer sees."""
        snap = self.snapshot
        visible = 0
        for seat in range(4):
            if snap.remaining[seat] >= 0:
                visible |= snap.remaining[seat] | snap.played[seat]
        return snap.tricks + ((snap.current,) if snap.current.cards else ()), visible

    def _parsed_claims(self, inf: Inference) -> tuple[Claim, ...]:
        """The inference's claims, parsed once (the layouts module reads them through here)."""
        return self._keeper.claims(inf)

    def pop(self) -> Update:
        """Undo the last event; returns what it was."""
        if len(self._stack) == 1:
            raise UndoError("nothing to undo: this is the start")
        return self._stack.pop().update

    def at(self, ply: int) -> "PlayState":
        """A separate copy of this state as it was just after event ``ply`` (this one is untouched)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply < len(self._stack):
            raise UndoError(f"no ply {shown(ply)}: expected 0 .. {len(self._stack) - 1}")
        other = copy.copy(self)
        other._stack = self._stack[:ply + 1]
        other._keeper = self._keeper.copy()  # its own, with the claims parsed so far
        return other

    def undo_to(self, ply: int) -> None:
        """Go back to just after event number ``ply`` (0: the start)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply < len(self._stack):
            raise UndoError(f"cannot undo to ply {shown(ply)}: expected 0 .. {len(self._stack) - 1}")
        del self._stack[ply + 1:]

    # -- internals --------------------------------------------------------------
    def _lawful(self, remaining: tuple[int, int, int, int], played: tuple[int, int, int, int],
                voids: tuple[int, int, int, int], where: str) -> Bounds:
        """Lawful bounds of the concealed hands (those without remaining cards), in order from the viewer's LHO."""
        seen = 0
        for m in (*remaining, *played):
            seen |= max(m, 0)
        unseen = _FULL & ~seen
        concealed = tuple(s for s in self.viewer.lho.rotation() if remaining[s] < 0)
        try:
            return lawful_bounds(concealed, unseen, {s: played[s] for s in concealed}, {s: voids[s] for s in concealed})
        except InconsistentCardsError as exc:
            raise InconsistentCardsError(f"{where + ': ' if where else ''}{exc}") from None

    def _advance(self, draft: Snapshot, label: str, *, move: tuple[Seat, Card] | None = None, where: str = "",
                 added: frozenset[str] = frozenset()) -> Snapshot:
        """The snapshot after an event. ``draft``: the cards and inferences after it, with the bounds, update
        and standings still those of the current snapshot."""
        previous = self.snapshot
        bounds = self._lawful(draft.remaining, draft.played, draft.voids, where)
        changes, located = explain(previous.bounds, bounds, draft.played, draft.voids, draft.unseen, move, self)
        after = replace(draft, bounds=bounds)
        states = after.states
        status_changes: tuple[StatusChange, ...] = ()
        if after.inferences:
            event = Event(move, changes, added, previous.dummy_tabled != after.dummy_tabled)
            states, status_changes = self._keeper.reexamine(after, event, incremental=self._incremental)
        update = Update(label, self.trick_number, move[0] if move else None, move[1] if move else None, changes,
                        located, status_changes)
        return replace(after, update=update, states=states)


def _four(masks: Sequence[int]) -> tuple[int, int, int, int]:
    return masks[0], masks[1], masks[2], masks[3]


def _illegal(fault: Irregularity, where: str, led: Suit | None) -> IllegalPlayError:
    """The play state's words for a card the rules of play refuse (the seat on turn is checked before)."""
    c, on_turn = fault.card, fault.on_turn
    if fault.fault is Fault.PLAYED_BEFORE:
        assert fault.other is not None
        return IllegalPlayError(f"{where}: {c} was already played by {fault.other.name_long}")
    if fault.fault is Fault.NOT_HELD and fault.other is not None:
        return IllegalPlayError(f"{where}: {c} is in {fault.other.name_long}'s hand, not {on_turn.name_long}'s")
    if fault.fault is Fault.NOT_HELD:
        return IllegalPlayError(f"{where}: {on_turn.name_long} does not hold {c}")
    if fault.fault is Fault.REVOKE:
        assert led is not None
        return IllegalPlayError(f"{where}: {on_turn.name_long} must follow suit in {led.name_long}, "
                                f"holding {fault.holding.to_text()}, but played {c}")
    return RevokeError(f"{where}: {on_turn.name_long} plays {c} after showing out of {c.suit.name_long}")


def _likelihood_argument(value: "Likelihood | str | Path | None", book: "Book | str | Path",
                         name: str) -> Likelihood | None:
    """The auction's likelihood :meth:`PlayState.add_auction` is given (``"default"``: the shipped book's, if any),
    checked to be fitted for the book ``name`` it reads."""
    if value is None or isinstance(value, str) and value == "none":
        return None
    if isinstance(value, str) and value == "default":
        return shipped_likelihood(book) if isinstance(book, str) and book in available_books() else None
    if isinstance(value, (str, Path)):
        value = load_likelihood(value)
    if not isinstance(value, Likelihood):
        raise InvalidArgumentError(f"invalid likelihood {shown(value)}: expected 'default', a Likelihood, a file, "
                                   "'none' or None")
    if value.book != name:
        raise InvalidArgumentError(f"the likelihood was fitted for the book {value.book!r}, not for {name!r}, the "
                                   "book the auction is read with")
    return value
