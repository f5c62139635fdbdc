"""A hand in progress, seen from one seat: the one mutable owner of the play state.

:class:`PlayState` holds a stack of immutable :class:`Snapshot` values, one per
event (dummy tabled, card played); :meth:`PlayState.pop` and
:meth:`PlayState.undo_to` go back to any earlier point and restore it exactly.
Every event is checked first (right seat on turn, card not already seen, a
visible hand holds the card and follows suit, a concealed hand does not play a
suit it has shown out of, the cards still admit a lawful layout); a rejected
event raises and leaves the state as it was.

After every event the snapshot carries the lawful :class:`~inference.lawful.Bounds`
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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from dealer import Card, CardSet, Hand, InvalidCardError, InvalidHandError, Seat, Suit

from .contract import Contract, Strain
from .errors import (
    IllegalPlayError, InconsistentCardsError, InvalidArgumentError, OutOfOrderError, RevokeError, UndoError,
)
from .lawful import Bounds, lawful_bounds
from .reasons import explain
from .trick import Fault, Irregularity, Trick, irregularity

# Until the merge switches their importers (play_cli: trick_winner; scenario: Update) to .trick and .events:
from .events import Change as Change, Snapshot as Snapshot, Update as Update  # noqa: F401
from .events import relative_name as relative_name  # noqa: F401
from .trick import trick_winner as trick_winner  # noqa: F401

if TYPE_CHECKING:  # pragma: no cover
    import random

    import numpy as np

    from dealer import Deal

    from .claims import Claim, Position
    from .layouts import LayoutSpace, Odds, View
    from .inferences import Inference, InferenceState, StatusChange, Tag

__all__ = ["PlayState"]

_FULL = (1 << 52) - 1
_SUIT_BITS = 0x1FFF


@dataclass
class _Setup:
    viewer: Seat
    declarer: Seat
    contract: Contract
    dealt_visible: dict[Seat, int] = field(default_factory=dict)


class PlayState:
    """The play of one hand as the viewer sees it, with push/pop undo.

    ``hand``: the viewer's cards (all 13 at the start of play; at a mid-hand
    start, the cards it still holds). ``declarer`` and ``contract`` (or a
    strain) fix who leads and what wins. ``viewer`` defaults to declarer.

    A mid-hand start gives ``played`` (cards each seat has already played),
    ``voids`` (suits each seat has shown out of), ``leader`` (on lead now),
    ``won`` (tricks won by N-S and E-W) and, if dummy is down, ``dummy``
    (its remaining cards).
    """

    #: Re-examine only the inferences a card can affect (False: every one, every card; the
    #: benchmark's baseline and a test's cross-check).
    _incremental: bool = True

    def __init__(self, hand: "Hand | CardSet | str", *, declarer: "Seat | str",
                 contract: "Contract | Strain | str" = "NT", viewer: "Seat | str | None" = None,
                 dummy: "CardSet | str | None" = None, played: "Mapping[Seat | str, CardSet | str] | None" = None,
                 voids: "Mapping[Seat | str, str] | None" = None, leader: "Seat | str | None" = None,
                 won: tuple[int, int] = (0, 0)) -> None:
        decl = _seat(declarer, "declarer")
        view = decl if viewer is None else _seat(viewer, "viewer")
        contract_v = _contract(contract)
        played_m = [0, 0, 0, 0]
        for s, cards in (played or {}).items():
            played_m[_seat(s, "played")] = _cards(cards, f"played[{s}]").mask
        hand_m = _cards(hand, "hand").mask
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
            d_m = _cards(dummy, "dummy").mask
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
        void_m = [0, 0, 0, 0]
        for s, suits in (voids or {}).items():
            for word in str(suits).replace(",", " ").split():
                parts = [word] if word.lower() in ("spades", "hearts", "diamonds", "clubs") else list(word)
                for ch in parts:
                    try:
                        void_m[_seat(s, "voids")] |= 1 << Suit.parse(ch)
                    except ValueError as exc:
                        raise InvalidArgumentError(f"voids[{s}]: {exc}") from None
        lead = decl.lho if leader is None else _seat(leader, "leader")
        if done and leader is None:
            raise OutOfOrderError("a mid-hand start must say who is on lead (leader)")
        self._setup = _Setup(view, decl, contract_v)
        self._claims: dict[tuple[Any, ...], tuple["Claim", ...]] = {}
        self._graphs: dict[tuple[str, ...], Any] = {}
        snap = self._make_snapshot(tuple(remaining), tuple(played_m), tuple(void_m), (),  # type: ignore[arg-type]
                                   Trick(lead), tabled, won, None, "start of play" if not done
                                   else f"start after {done} tricks", trick_no=done + 1)
        self._stack: list[Snapshot] = [snap]
        self._layout_cache: tuple[Snapshot | None, dict[Any, "LayoutSpace"]] = (None, {})

    # -- properties -------------------------------------------------------------
    @property
    def viewer(self) -> Seat:
        return self._setup.viewer

    @property
    def declarer(self) -> Seat:
        return self._setup.declarer

    @property
    def dummy(self) -> Seat:
        return self._setup.declarer.partner

    @property
    def contract(self) -> Contract:
        return self._setup.contract

    @property
    def strain(self) -> Strain:
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
        snap = self.snapshot
        if snap.dummy_tabled:
            raise OutOfOrderError("dummy is already on the table")
        if not early and not snap.tricks and not snap.current.cards and self._offset_tricks() == 0:
            raise OutOfOrderError("dummy is tabled after the opening lead, not before")
        cards = _cards(hand, "dummy")
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
                    if snap.voids[dseat] >> s & 1 and dealt >> (13 * s) & _SUIT_BITS & ~snap.played[dseat] >> (13 * s):
                        raise RevokeError(f"dummy showed out of {Suit(s).name_long} but the hand tabled holds some")
            remaining = tuple(cards.mask if s == dseat else m for s, m in enumerate(snap.remaining))  # type: ignore
        new = self._make_snapshot(remaining, snap.played, snap.voids, snap.tricks, snap.current,
                                  True, snap.won, None, f"dummy tabled: {cards.to_pbn()}",
                                  trick_no=self.trick_number)
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
        fault = irregularity(trick, c, seat=None if seat is None else _seat(seat, "seat"), hands=snap.remaining,
                             played=snap.played, shown_out=snap.voids)
        if fault is not None and fault.fault is Fault.OUT_OF_TURN:
            raise IllegalPlayError(f"{where}: {fault.seat.name_long} cannot play {c}: it is "
                                   f"{on_turn.name_long}'s turn")
        if trick.cards and not snap.dummy_tabled and self.dummy != self.viewer and on_turn == self.dummy:
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
        if current.winner is not None:
            winner = current.winner
            tricks = tricks + (current,)
            current = Trick(winner)
            won = (won[0] + (winner in (Seat.N, Seat.S)), won[1] + (winner in (Seat.E, Seat.W)))
        label = f"{where}: {self.name(on_turn)} ({on_turn.name}) plays {c}"
        if led is not None and c.suit != led:
            label += f", showing out of {led.name_long}"
        new = self._make_snapshot(tuple(remaining), tuple(played), tuple(voids), tricks, current,  # type: ignore
                                  snap.dummy_tabled, won, (on_turn, c), label, where=where,
                                  trick_no=self.trick_number)
        self._stack.append(new)
        return new.update

    def add_inference(self, inference: "Inference | Mapping[str, Any]") -> Update:
        """Take an inference (from the auction or the carding) into account; an event that undo removes."""
        return self.add_inferences([inference])

    def add_inferences(self, inferences: "Sequence[Inference | Mapping[str, Any]]") -> Update:
        """Take several inferences into account at once, as one event (one conflict check)."""
        from .claims import _seat_word
        from .inferences import Inference

        built = []
        for inference in inferences:
            if isinstance(inference, Inference):
                built.append(inference)
                continue
            data = dict(inference)
            if isinstance(data.get("by"), str):
                try:
                    data["by"] = _seat_word(data["by"], self.viewer, self.declarer)
                except ValueError as exc:
                    raise InvalidArgumentError(f"invalid inference {data.get('name', '?')!r}: by: {exc}") from None
            built.append(Inference(**data))
        snap = self.snapshot
        names = [i.name for i in snap.inferences]
        for inf in built:
            if inf.name in names:
                raise InvalidArgumentError(f"an inference named {inf.name!r} is already in force")
            names.append(inf.name)
            self._parsed_claims(inf)  # check the claims parse, before anything changes
        if not built:
            raise InvalidArgumentError("no inference given")
        label = "; ".join(f"inference {i.name}: {i.claim} ({i.tag.value}, from {self.name(i.by)}'s "
                          f"{i.action or i.kind})" for i in built)
        new = self._make_snapshot(snap.remaining, snap.played, snap.voids, snap.tricks, snap.current,
                                  snap.dummy_tabled, snap.won, None, label, trick_no=self.trick_number,
                                  inferences=snap.inferences + tuple(built), force=frozenset(i.name for i in built))
        self._stack.append(new)
        return new.update

    def statuses(self) -> dict[str, "InferenceState"]:
        """Every inference's standing now, by name."""
        return {st.name: st for st in self.snapshot.states}

    def claim_in_force(self, name: str) -> "Claim":
        """The claim of an inference's chain that is in force now (the claim or a fallback)."""
        snap = self.snapshot
        inf = next((i for i in snap.inferences if i.name == name), None)
        if inf is None:
            raise InvalidArgumentError(f"no inference named {name!r}")
        return self._parsed_claims(inf)[snap.state_of(name).level]

    def agreement_bounds(self, policy: "frozenset[Tag] | None" = None) -> tuple[Bounds, tuple["StatusChange", ...]]:
        """Tight bounds under lawful AND the inferences whose tags are in ``policy`` (default: consistent).

        Returns the bounds and the conflict-policy decisions taken to form the view. Raises
        :class:`~inference.errors.InconsistentCardsError` if the view is empty.
        """
        from .claims import Evaluator
        from .inferences import DEFAULT_POLICY, agreement_claim

        snap = self.snapshot
        parsed = {i.name: self._parsed_claims(i) for i in snap.inferences}
        states = {st.name: st for st in snap.states}
        pos = snap.position()
        claim, events, _ = agreement_claim(pos, snap.inferences, parsed, states,
                                           DEFAULT_POLICY if policy is None else frozenset(policy), self.viewer)
        return _support_bounds(Evaluator(pos), claim, snap.bounds), tuple(events)

    # -- layouts: exact odds and samples ----------------------------------------
    def layouts(self, view: "str | View" = "lawful") -> "LayoutSpace":
        """The layouts of the unseen cards consistent with everything known, in a view.

        ``view`` is ``"lawful"`` (every lawful layout once), ``"agreement"`` (those where the
        agreement-consistent inferences hold) or ``"weighted"`` (every lawful layout, weighted by
        its inferences' tags), or a :class:`~inference.layouts.View` for a custom policy or weights.
        Built once per state and view (kept until the next event or undo).
        """
        from .layouts import View, layout_space

        key = view if isinstance(view, View) else str(view)
        if not isinstance(key, View) and key not in ("lawful", "agreement", "weighted"):
            raise InvalidArgumentError(f"invalid view {view!r}: expected one of lawful, agreement, weighted")
        snap = self.snapshot
        cache = self._layout_cache if self._layout_cache[0] is snap else (snap, {})
        self._layout_cache = cache
        try:
            hash(key)
        except TypeError:  # a View with a dict of weights: built each time
            return layout_space(self, key)
        space = cache[1].get(key)
        if space is None:
            space = layout_space(self, key)
            cache[1][key] = space
        return space

    def odds(self, view: "str | View" = "lawful") -> "Odds":
        """Exact odds now (fractions): who holds each unseen card, dealt lengths, HCP, suit splits."""
        return self.layouts(view).odds()

    def sample(self, n: int, seed: "int | random.Random | np.random.Generator | None" = None,
               view: "str | View" = "lawful") -> "list[Deal]":
        """``n`` complete deals (13 dealt cards a seat) drawn exactly from the view; same seed, same deals."""
        return self.layouts(view).sample(n, seed)

    def sample_masks(self, n: int, seed: "int | random.Random | np.random.Generator | None" = None,
                     view: "str | View" = "lawful") -> "np.ndarray":
        """The fast form of :meth:`sample`: an ``(n, 4)`` uint64 array of dealt hands (N, E, S, W)."""
        return self.layouts(view).sample_masks(n, seed)

    def _parsed_claims(self, inf: "Inference") -> tuple["Claim", ...]:
        key = (inf.name, inf.claim, inf.fallbacks)
        cached = self._claims.get(key)
        if cached is None:
            cached = inf.claims(self.viewer, self.declarer)
            self._claims[key] = cached
        return cached

    def pop(self) -> Update:
        """Undo the last event; returns what it was."""
        if len(self._stack) == 1:
            raise UndoError("nothing to undo: this is the start")
        return self._stack.pop().update

    def at(self, ply: int) -> "PlayState":
        """A separate copy of this state as it was just after event ``ply`` (this one is untouched)."""
        if not isinstance(ply, int) or not 0 <= ply < len(self._stack):
            raise UndoError(f"no ply {ply!r}: expected 0 .. {len(self._stack) - 1}")
        import copy

        other = copy.copy(self)
        other._stack = self._stack[:ply + 1]
        other._claims = self._claims
        return other

    def undo_to(self, ply: int) -> None:
        """Go back to just after event number ``ply`` (0: the start)."""
        if not isinstance(ply, int) or not 0 <= ply < len(self._stack):
            raise UndoError(f"cannot undo to ply {ply!r}: expected 0 .. {len(self._stack) - 1}")
        del self._stack[ply + 1:]

    # -- internals --------------------------------------------------------------
    def _make_snapshot(self, remaining: tuple[int, int, int, int], played: tuple[int, int, int, int],
                       voids: tuple[int, int, int, int], tricks: tuple[Trick, ...], current: Trick,
                       tabled: bool, won: tuple[int, int], move: tuple[Seat, Card] | None, label: str,
                       where: str = "", trick_no: int = 1, inferences: "tuple[Inference, ...] | None" = None,
                       force: frozenset[str] = frozenset()) -> Snapshot:
        seen = 0
        for m in remaining:
            if m >= 0:
                seen |= m
        for m in played:
            seen |= m
        unseen = _FULL & ~seen
        concealed = tuple(s for s in self._setup.viewer.lho.rotation() if remaining[s] < 0)
        known = {s: played[s] for s in concealed}
        void_map = {s: voids[s] for s in concealed}
        try:
            bounds = lawful_bounds(concealed, unseen, known, void_map)
        except InconsistentCardsError as exc:
            raise InconsistentCardsError(f"{where + ': ' if where else ''}{exc}") from None
        previous = self._stack[-1] if hasattr(self, "_stack") else None
        changes: tuple[Change, ...] = ()
        located: tuple[tuple[Card, Seat], ...] = ()
        if previous is not None:
            changes, located = explain(previous.bounds, bounds, played, voids, unseen, move, self)
        infs = (previous.inferences if previous is not None else ()) if inferences is None else inferences
        states: tuple["InferenceState", ...] = previous.states if previous is not None else ()
        status_changes: tuple["StatusChange", ...] = ()
        if infs:
            states, status_changes = self._restatus(previous, infs, states, remaining, played, voids, unseen,
                                                    bounds, changes, move, force, tabled)
        update = Update(label, trick_no, move[0] if move else None, move[1] if move else None, changes, located,
                        status_changes)
        return Snapshot(remaining, played, voids, tricks, current, tabled, bounds, update, won, infs, states)

    def _restatus(self, previous: "Snapshot | None", infs: "tuple[Inference, ...]",
                  states: "tuple[InferenceState, ...]", remaining: tuple[int, ...], played: tuple[int, ...],
                  voids: tuple[int, ...], unseen: int, bounds: Bounds, changes: tuple[Change, ...],
                  move: tuple[Seat, Card] | None, force: frozenset[str], tabled: bool
                  ) -> "tuple[tuple[InferenceState, ...], tuple[StatusChange, ...]]":
        from .claims import Position
        from .inferences import DependencyGraph, evaluate_statuses

        parsed = {i.name: self._parsed_claims(i) for i in infs}
        graph_key = tuple(i.name for i in infs)
        graph = self._graphs.get(graph_key)
        if graph is None:
            graph = DependencyGraph()
            for inf in infs:
                graph.add(inf.name, parsed[inf.name])
            self._graphs = {graph_key: graph}
        nodes: set[tuple[object, ...]] = {("seat", c.seat) for c in changes}
        if move is not None:
            nodes |= {("suit", int(move[1].suit)), ("card", move[1].index), ("seat", move[0])}
            if move[1].hcp:
                nodes.add(("hcp",))
        todo: "set[str] | None" = graph.affected(nodes) | set(force)
        if previous is not None and previous.dummy_tabled != tabled:
            todo = None  # dummy coming down changes what is concealed: look at everything
        elif move is not None and move[0] not in bounds.concealed:
            todo = set(force)  # a visible hand's card: the concealed hands' layouts are unchanged
        if not self._incremental:
            todo = None
        known = tuple(played[s] | (remaining[s] if remaining[s] >= 0 else 0) for s in range(4))
        position = Position(bounds.concealed, unseen, known, voids)  # type: ignore[arg-type]
        new_states, status_changes = evaluate_statuses(position, infs, parsed, {s.name: s for s in states}, todo,
                                                       bounds)
        if force:  # an inference was added: apply the conflict policy (the agreement view applies it too)
            new_states, conflict_events = self._apply_conflicts(position, infs, parsed, new_states)
            status_changes = list(status_changes) + conflict_events
        return tuple(new_states[i.name] for i in infs), tuple(status_changes)

    def _apply_conflicts(self, position: "Position", infs: "tuple[Inference, ...]", parsed: dict[str, Any],
                         states: dict[str, "InferenceState"]) -> "tuple[dict[str, InferenceState], list[StatusChange]]":
        """Run the conflict policy on the agreement-consistent inferences; mark what gives way."""
        from dataclasses import replace

        from .inferences import DEFAULT_POLICY, Status, agreement_claim

        live = [i for i in infs if i.tag in DEFAULT_POLICY
                and states[i.name].status in (Status.ACTIVE, Status.CONFIRMED)]
        if len(live) < 2:
            return states, []
        _, events, superseded = agreement_claim(position, infs, parsed, states, DEFAULT_POLICY, self.viewer)
        out = dict(states)
        for name in superseded:
            if name in out:
                out[name] = replace(out[name], status=Status.SUPERSEDED)
        for ev in events:
            if ev.new == "joined by XOR" and ev.name in out:
                out[ev.name] = replace(out[ev.name], note=ev.reason)
        return out, events


def _support_bounds(ev: "Any", claim: "Claim", lawful: Bounds) -> Bounds:
    """Bounds of every concealed seat over the lawful layouts where ``claim`` holds."""
    from .lawful import SeatBounds

    from .claims import joint_support

    seats = []
    concealed = lawful.concealed
    named = {key[1] for key in claim.keys() if key[1] in concealed}
    joint = len(concealed) == 3 and len(named) > 0
    if joint:
        targets = [("len", seat, s) for seat in concealed for s in range(4)] + [("hcp", seat) for seat in concealed]
        everything = joint_support(ev.position, claim, targets)
    for seat in concealed:
        keys = [("len", seat, s) for s in range(4)] + [("hcp", seat)]
        support = everything if joint else ev.support(claim, keys)
        if not support:
            raise InconsistentCardsError(f"no lawful layout satisfies the agreement view: {claim}")
        length = tuple(support[("len", seat, s)] for s in range(4))
        seats.append((seat, SeatBounds(length, support[("hcp", seat)])))  # type: ignore[arg-type]
    return Bounds(tuple(seats), lawful.holders)


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


def _seat(value: "Seat | str", what: str) -> Seat:
    try:
        return Seat.parse(value)
    except ValueError as exc:
        raise InvalidArgumentError(f"{what}: {exc}") from None


def _cards(value: "CardSet | str", what: str) -> CardSet:
    if isinstance(value, CardSet):
        return value
    try:
        return CardSet.parse(value) if str(value).strip() not in ("", "-") else CardSet()
    except (InvalidHandError, InvalidCardError) as exc:
        raise InvalidArgumentError(f"{what}: {exc}") from None


def _contract(value: "Contract | Strain | str") -> Contract:
    if isinstance(value, Contract):
        return value
    if isinstance(value, Strain):
        return Contract(1, value)
    text = str(value).strip()
    if text and text[0].isdigit():
        return Contract.parse(text)
    return Contract(1, Strain.parse(text))

