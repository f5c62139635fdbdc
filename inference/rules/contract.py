"""Strains and contracts.

>>> Contract.parse("3NTX").strain, Contract.parse("4s").level
(<Strain.NT: 4>, 4)
>>> str(Contract.parse("6HXX"))
'6HXX'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from dealer import Suit

from inference.errors import InvalidContractError

__all__ = ["Strain", "Contract"]


class Strain(IntEnum):
    """A denomination: the four suits (same indices as :class:`dealer.Suit`) and notrump."""

    S = 0
    H = 1
    D = 2
    C = 3
    NT = 4

    @classmethod
    def parse(cls, text: "str | Strain | Suit") -> "Strain":
        """``S``/``H``/``D``/``C``, a suit symbol, or ``NT``/``N``."""
        if isinstance(text, Strain):
            return text
        if isinstance(text, Suit):
            return cls(int(text))
        t = str(text).strip().upper()
        if t in ("NT", "N", "NOTRUMP", "NOTRUMPS"):
            return cls.NT
        try:
            return cls(int(Suit.parse(t)))
        except ValueError:
            raise InvalidContractError(f"invalid strain {text!r}: expected S, H, D, C or NT") from None

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None at notrump."""
        return _TRUMPS[self]

    def __str__(self) -> str:
        return self.name


_TRUMPS = (Suit.S, Suit.H, Suit.D, Suit.C, None)  # by strain
_CONTRACT = re.compile(r"^\s*([1-7])\s*(NT|N|S|H|D|C|♠|♥|♦|♣)\s*(X{0,2}|R)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Contract:
    """A contract: level 1-7, strain, and 0/1/2 for undoubled/doubled/redoubled."""

    level: int
    strain: Strain
    doubled: int = 0

    @classmethod
    def parse(cls, text: str) -> "Contract":
        """``3NT``, ``4S``, ``2HX``, ``6♣XX`` (``R`` also means redoubled; case-insensitive)."""
        m = _CONTRACT.match(text or "")
        if not m:
            raise InvalidContractError(f"invalid contract {text!r}: expected a level 1-7 and a strain, e.g. 3NT, 4SX")
        marks = m.group(3).upper()
        return cls(int(m.group(1)), Strain.parse(m.group(2)), 2 if marks == "R" else len(marks))

    def __str__(self) -> str:
        return f"{self.level}{self.strain.name}" + "X" * self.doubled
