"""The values a hand in progress is made of: snapshots, what each event changed, and how seats are named.

:class:`Snapshot` is the whole play state after one event; :class:`Update` is what that event did
(the :class:`Change` of every bound it moved, the cards it located, the inferences' new
standings). They are plain frozen values: :class:`~inference.state.play.PlayState` makes them, and
:mod:`inference.state.reasons` and :mod:`inference.state.render` read them without ever seeing the play state.

Seats are named as the viewer speaks of them (:func:`relative_name`): ``LHO``, ``RHO``,
``partner``/``dummy``/``declarer``, and ``we`` for the viewer itself, which takes a plural verb
(:func:`agree`) and ``our`` for a possessive (:func:`possessive`).

>>> view = Viewpoint(viewer=Seat.S, declarer=Seat.S)
>>> [view.name(s) for s in Seat]
['dummy', 'RHO', 'we', 'LHO']
>>> f"{view.name(Seat.S)} {agree(view.name(Seat.S), 'plays')} SA; {view.name(Seat.W)} {agree('LHO', 'plays')} S2"
'we play SA; LHO plays S2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from dealer import Card, Seat

from inference.exact.position import Position
from inference.claims.inferences import Inference, InferenceState, StatusChange
from inference.rules.lawful import Bounds
from inference.rules.trick import Trick

if TYPE_CHECKING:
    from inference.auction.likelihood import AuctionWeights

__all__ = ["Change", "Update", "Snapshot", "SeatNames", "Viewpoint", "relative_name", "agree", "possessive"]

_FULL = (1 << 52) - 1
_PLURAL = {"has": "have", "is": "are", "was": "were", "does": "do"}


def relative_name(seat: Seat, viewer: Seat, declarer: Seat) -> str:
    """How the viewer speaks of ``seat``: LHO, RHO, partner/dummy/declarer, or "we"."""
    if seat == viewer:
        return "we"
    if seat == viewer.lho:
        return "LHO"
    if seat == viewer.rho:
        return "RHO"
    if viewer == declarer:
        return "dummy"
    if seat == declarer:
        return "declarer"
    return "partner"


def agree(subject: str, verb: str) -> str:
    """``verb`` (given in the third person singular) in the form that agrees with ``subject``.

    Every name :func:`relative_name` gives is singular but ``we``:

    >>> agree("LHO", "plays"), agree("we", "plays"), agree("we", "has"), agree("we", "shows")
    ('plays', 'play', 'have', 'show')
    """
    if subject != "we":
        return verb
    if verb in _PLURAL:
        return _PLURAL[verb]
    if verb.endswith(("sses", "shes", "ches", "xes")):
        return verb[:-2]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-1] if verb.endswith("s") else verb


def possessive(name: str) -> str:
    """The possessive of a seat's name: ``LHO's``, and ``our`` for ``we``.

    >>> possessive("RHO"), possessive("we")
    ("RHO's", 'our')
    """
    return "our" if name == "we" else f"{name}'s"


class SeatNames(Protocol):
    """Anything that names seats as the viewer speaks of them: a :class:`Viewpoint`, a play state."""

    def name(self, seat: Seat) -> str:
        """LHO, RHO, partner, dummy, declarer or we."""
        ...


@dataclass(frozen=True)
class Viewpoint:
    """Who is looking (``viewer``) and who declares: enough to name every seat."""

    viewer: Seat
    declarer: Seat

    def name(self, seat: Seat) -> str:
        """LHO, RHO, partner, dummy, declarer or we, as the viewer speaks."""
        return relative_name(seat, self.viewer, self.declarer)


@dataclass(frozen=True)
class Change:
    """One bound that moved: seat, quantity (S/H/D/C/HCP, or a card for its holders), old, new, reason."""

    seat: Seat
    quantity: str
    old: tuple[int, int]
    new: tuple[int, int]
    reason: str

    def as_dict(self) -> dict[str, object]:
        """The change as plain JSON-ready data."""
        return {"seat": self.seat.name, "quantity": self.quantity, "old": list(self.old), "new": list(self.new),
                "reason": self.reason}


@dataclass(frozen=True)
class Update:
    """What one event did: its description, where it happened, and the bounds it changed."""

    event: str
    trick: int
    seat: Seat | None
    card: Card | None
    changes: tuple[Change, ...]
    located: tuple[tuple[Card, Seat], ...] = ()
    statuses: tuple[StatusChange, ...] = ()


@dataclass(frozen=True)
class Snapshot:
    """The whole play state after an event; immutable, so undo just drops later snapshots."""

    remaining: tuple[int, int, int, int]  # cards still held by each *visible* seat (mask), -1 if concealed
    played: tuple[int, int, int, int]  # cards each seat has played
    voids: tuple[int, int, int, int]  # suits each seat has shown out of (4-bit)
    tricks: tuple[Trick, ...]  # completed tricks
    current: Trick  # trick in progress (possibly empty)
    dummy_tabled: bool
    bounds: Bounds
    update: Update
    won: tuple[int, int] = (0, 0)  # tricks won by N-S, E-W
    inferences: tuple[Inference, ...] = ()
    states: tuple[InferenceState, ...] = ()
    bids: tuple[int, int, int, int] | None = None  # each seat's suits bid in the auction read (4-bit), None: none read
    auction: AuctionWeights | None = None  # the auction's graded likelihood of the defenders' hands, if weighed

    def position(self) -> Position:
        """What the viewer knows, for evaluating claims."""
        known = tuple(self.played[s] | (self.remaining[s] if self.remaining[s] >= 0 else 0) for s in range(4))
        concealed = tuple(s for s in self.bounds.concealed)
        return Position(concealed, self.unseen, known, self.voids)  # type: ignore[arg-type]

    def state_of(self, name: str) -> InferenceState:
        """The standing of the inference called ``name`` (KeyError if there is none)."""
        for st in self.states:
            if st.name == name:
                return st
        raise KeyError(f"no inference named {name!r}")

    @property
    def unseen(self) -> int:
        """Mask of the cards whose place the viewer does not know."""
        seen = 0
        for m in self.remaining:
            if m >= 0:
                seen |= m
        for m in self.played:
            seen |= m
        return _FULL & ~seen
