"""Re-examining the inferences after every event: the status keeper a play state owns.

A :class:`StatusKeeper` holds what the re-examination keeps between events: every inference's
claims, parsed once from the viewer's seat, and the dependency graph of the inferences in force
(which seats, suits and cards each one's claims name). After an event (:class:`Event`) it
re-examines only the inferences the event can affect (:meth:`StatusKeeper.reexamine`); when
inferences are added it runs the conflict policy on the agreement-consistent ones. It also forms
the agreement view's bounds (:meth:`StatusKeeper.agreement_bounds`).

It never changes a snapshot: it reads one and returns the new standings, which the play state
(:class:`~inference.state.play.PlayState`, its one owner) puts in the next snapshot.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace

from dealer.budget import current
from dealer import Card, Seat

from inference.claims.language import Claim
from inference.exact.position import Position
from inference.exact.solver import support_bounds
from inference.state.events import Change, Snapshot
from inference.claims.inferences import (
    DEFAULT_POLICY, DependencyGraph, Inference, InferenceState, Status, StatusChange, Tag, parse_policy,
)
from inference.exact.statuses import agreement_claim, evaluate_statuses
from inference.rules.lawful import Bounds

__all__ = ["Event", "StatusKeeper"]

_ClaimsKey = tuple[str, str, tuple[str, ...]]


@dataclass(frozen=True)
class Event:
    """What an event did, as far as the re-examination cares: the card played (``move``, if any), the
    bounds it moved (``changes``), the inferences it added (``added``, by name: always examined),
    and whether it brought dummy down (``dummy_tabled``: everything is examined)."""

    move: tuple[Seat, Card] | None = None
    changes: tuple[Change, ...] = ()
    added: frozenset[str] = frozenset()
    dummy_tabled: bool = False




class StatusKeeper:
    """The inferences' re-examination for one viewer: parsed claims, the dependency graph, the conflict policy.

    Its caches depend only on the inferences' texts; a copy of the play state gets a :meth:`copy`.
    """

    def __init__(self, viewer: Seat, declarer: Seat) -> None:
        self.viewer = viewer
        self.declarer = declarer
        self._claims: OrderedDict[_ClaimsKey, tuple[Claim, ...]] = OrderedDict()
        self._graph: tuple[tuple[_ClaimsKey, ...], DependencyGraph] | None = None

    def copy(self) -> "StatusKeeper":
        """A keeper of its own for a copy of the play state, starting from what this one has parsed."""
        other = StatusKeeper(self.viewer, self.declarer)
        other._claims = OrderedDict(self._claims)
        other._graph = self._graph
        return other

    def claims(self, inference: Inference) -> tuple[Claim, ...]:
        """The inference's claim and fallbacks, parsed from the viewer's seat (once; raises if one does not parse)."""
        key = _key(inference)
        cached = self._claims.get(key)
        if cached is None:
            cached = inference.claims(self.viewer, self.declarer)
            self._claims[key] = cached
            if len(self._claims) > current().claims_kept:  # memory stays bounded over a long session
                self._claims.popitem(last=False)
        else:
            self._claims.move_to_end(key)
        return cached

    def reexamine(self, after: Snapshot, event: Event, *, incremental: bool = True
                  ) -> tuple[tuple[InferenceState, ...], tuple[StatusChange, ...]]:
        """The inferences' standings after ``event``, and what changed.

        ``after`` is the position after the event (its cards, bounds and inferences) with the
        standings from before it. Only the inferences whose claims name a seat, suit or card the
        event touched are re-examined (``incremental=False``: every one); a card from a visible
        hand leaves the concealed layouts as they were, and dummy coming down changes everything.
        """
        infs = after.inferences
        parsed = {i.name: self.claims(i) for i in infs}
        graph = self._dependencies(infs, parsed)
        move = event.move
        nodes: set[tuple[object, ...]] = {("seat", c.seat) for c in event.changes}
        if move is not None:
            nodes |= {("suit", int(move[1].suit)), ("card", move[1].index), ("seat", move[0])}
            if move[1].hcp:
                nodes.add(("hcp",))
        todo: set[str] | None = graph.affected(nodes) | set(event.added)
        if event.dummy_tabled:
            todo = None  # dummy coming down changes what is concealed: look at everything
        elif move is not None and move[0] not in after.bounds.concealed:
            todo = set(event.added)  # a visible hand's card: the concealed hands' layouts are unchanged
        if not incremental:
            todo = None
        position = after.position()
        new_states, status_changes = evaluate_statuses(position, infs, parsed, {s.name: s for s in after.states},
                                                       todo, after.bounds)
        if event.added:  # an inference was added: apply the conflict policy (the agreement view applies it too)
            new_states, conflict_events = self._apply_conflicts(position, infs, parsed, new_states)
            status_changes = list(status_changes) + conflict_events
        return tuple(new_states[i.name] for i in infs), tuple(status_changes)

    def agreement_bounds(self, snapshot: Snapshot, policy: frozenset[Tag] | None = None
                         ) -> tuple[Bounds, tuple[StatusChange, ...]]:
        """Tight bounds under lawful AND the inferences whose tags are in ``policy`` (default: consistent),
        with the conflict-policy decisions taken to form the view (raises if the view is empty)."""
        parsed = {i.name: self.claims(i) for i in snapshot.inferences}
        states = {st.name: st for st in snapshot.states}
        pos = snapshot.position()
        claim, events, _ = agreement_claim(pos, snapshot.inferences, parsed, states,
                                           parse_policy(policy), self.viewer)
        return support_bounds(pos, claim, snapshot.bounds), tuple(events)

    def _dependencies(self, infs: tuple[Inference, ...], parsed: dict[str, tuple[Claim, ...]]) -> DependencyGraph:
        """The dependency graph of ``infs`` (the last one built is kept)."""
        key = tuple(_key(i) for i in infs)
        if self._graph is not None and self._graph[0] == key:
            return self._graph[1]
        graph = DependencyGraph()
        for inf in infs:
            graph.add(inf.name, parsed[inf.name])
        self._graph = (key, graph)
        return graph

    def _apply_conflicts(self, position: Position, infs: tuple[Inference, ...], parsed: dict[str, tuple[Claim, ...]],
                         states: dict[str, InferenceState]) -> tuple[dict[str, InferenceState], list[StatusChange]]:
        """Run the conflict policy on the agreement-consistent inferences; mark what gives way."""
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


def _key(inference: Inference) -> _ClaimsKey:
    return (inference.name, inference.claim, tuple(inference.fallbacks))
