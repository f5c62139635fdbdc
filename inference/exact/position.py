"""What the viewer knows at one moment of the play, as plain values.

A :class:`Position` holds the unseen cards, each seat's known dealt cards
(a visible hand whole; the cards a concealed seat has played), the voids
shown, and which seats are concealed. The engines decide claims and count
layouts over it; :class:`Verdict` is what exact evaluation says of a claim.

>>> from dealer import CardSet
>>> pos = Position((Seat.E, Seat.W), CardSet.parse("SAK").mask, (0, 0, 0, 0), (0, 0, 0, 0))
>>> pos.known_value(Feature.length(Seat.N, 0))
0
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer import Card, Seat

from inference.claims.features import Feature, hand_value
from inference.exact.kernel import holding_of

__all__ = ["Position", "Verdict"]


@dataclass(frozen=True)
class Position:
    """What the viewer knows: unseen cards, each seat's known dealt cards, voids, concealed seats.

    ``unseen`` and ``known[seat]`` are 52-bit card masks; ``voids[seat]`` has bit ``s`` set when the
    seat has shown out of suit ``s``.
    """

    concealed: tuple[Seat, ...]
    unseen: int
    known: tuple[int, int, int, int]  # dealt cards known per seat (visible hands whole; played cards)
    voids: tuple[int, int, int, int]

    def with_card(self, card: Card, seat: Seat) -> "Position":
        """The same position with an unseen ``card`` known to be ``seat``'s."""
        known = list(self.known)
        known[seat] |= card.bit
        return Position(self.concealed, self.unseen & ~card.bit, (known[0], known[1], known[2], known[3]),
                        self.voids)

    def vacancy(self, seat: Seat) -> int:
        """How many of the seat's 13 dealt cards are not known."""
        return 13 - self.known[seat].bit_count()

    def unseen_in(self, suit: int) -> int:
        """The suit's unseen cards, as a 13-bit holding."""
        return holding_of(self.unseen, suit)

    def void(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` has shown out of ``suit``."""
        return bool(self.voids[seat] >> suit & 1)

    def known_value(self, feature: Feature) -> int:
        """The feature's value over the seat's known cards alone (a visible hand's is its dealt value)."""
        return hand_value(feature, self.known[feature.seat])


@dataclass(frozen=True)
class Verdict:
    """Whether a claim holds in some lawful layout and in every one."""

    satisfiable: bool
    valid: bool
