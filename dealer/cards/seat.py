"""Seats at the table: North, East, South, West, in clockwise order."""

from __future__ import annotations

from enum import IntEnum
from typing import Iterator

from dealer.checks import shown
from dealer.errors import InvalidSeatError

__all__ = ["Seat", "SEATS"]

_NAMES = {"n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3}


class Seat(IntEnum):
    """A seat; ``int(seat)`` is its clockwise index from North.

    >>> Seat.N.lho, Seat.N.partner, Seat.N.rho
    (<Seat.E: 1>, <Seat.S: 2>, <Seat.W: 3>)
    >>> [str(s) for s in Seat.W.rotation()]
    ['W', 'N', 'E', 'S']
    >>> Seat.parse("south")
    <Seat.S: 2>
    """

    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def parse(cls, text: "str | int") -> "Seat":
        """The seat named by ``text``: ``N``/``north``/``n`` and so on (case-insensitive), or its index."""
        if isinstance(text, Seat):
            return text
        if isinstance(text, int) and not isinstance(text, bool) and 0 <= text < 4:
            return cls(text)
        if not isinstance(text, str):
            raise InvalidSeatError(f"invalid seat {shown(text)}: expected one of N, E, S, W")
        try:
            return cls(_NAMES[text.strip().lower()])
        except KeyError:
            raise InvalidSeatError(
                f"invalid seat {shown(text)}: expected one of N, E, S, W (or north, east, south, west)"
            ) from None

    def after(self, steps: int) -> "Seat":
        """The seat ``steps`` places clockwise of this one (``after(1)``: the left-hand opponent)."""
        return SEATS[(self + steps) % 4]

    @property
    def lho(self) -> "Seat":
        """Left-hand opponent: the next seat clockwise, who plays after this one."""
        return SEATS[(self + 1) % 4]

    @property
    def partner(self) -> "Seat":
        """The seat opposite."""
        return SEATS[(self + 2) % 4]

    @property
    def rho(self) -> "Seat":
        """Right-hand opponent: the seat that plays just before this one."""
        return SEATS[(self + 3) % 4]

    @property
    def name_long(self) -> str:
        """``north``, ``east``, ``south`` or ``west``."""
        return ("north", "east", "south", "west")[self]

    def rotation(self) -> Iterator["Seat"]:
        """The four seats in playing order, starting with this one."""
        for i in range(4):
            yield SEATS[(self + i) % 4]

    def __str__(self) -> str:
        return self.name


#: The four seats by index, N E S W: ``SEATS[i]`` is faster than ``Seat(i)`` (the enum's lookup), and
#: iterating it faster than iterating ``Seat``.
SEATS: tuple[Seat, ...] = tuple(Seat)
