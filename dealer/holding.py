"""A holding filter given as a table: one value for each of a suit's 8,192 holdings.

The script layer turns a condition on one seat's holding in one suit (``hcp(north, spades) >= 3``,
``top4(west, clubs) < 2``) into a :class:`HoldingTable`. It is still a plain function of the holding,
so it can stand wherever a :class:`~dealer.spec.SeatSpec` takes a holding filter, but the automaton
builder reads its table at once (numpy) instead of calling it once per subset of the free cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cardset import CardSet

__all__ = ["HOLDINGS", "HoldingTable"]

#: The number of holdings of one suit (13 bits, ace first).
HOLDINGS = 1 << 13


@dataclass(frozen=True, eq=False)
class HoldingTable:
    """A filter or weight on a seat's holding in ``suit``: ``values[h]`` for the 13-bit holding ``h``.

    >>> t = HoldingTable(0, np.array([h.bit_count() >= 2 for h in range(HOLDINGS)]), "length >= 2")
    >>> t(CardSet(["SA", "SK"])), t(CardSet(["SA", "HK"]))
    (1, 0)
    >>> (t & t).name
    'length >= 2 && length >= 2'
    """

    suit: int
    values: np.ndarray = field(repr=False)
    name: str = "holding table"

    def __post_init__(self) -> None:
        values = np.asarray(self.values).astype(np.int64)
        if values.shape != (HOLDINGS,) or (values < 0).any():
            raise ValueError(f"a holding table needs {HOLDINGS} values >= 0, got shape {values.shape}")
        object.__setattr__(self, "values", values)

    @property
    def __name__(self) -> str:  # what the spec's description and error messages print
        return self.name

    def __call__(self, holding: CardSet) -> int:
        """The value for the cards of ``holding`` in this table's suit."""
        return int(self.values[(holding.mask >> (13 * self.suit)) & (HOLDINGS - 1)])

    def __and__(self, other: "HoldingTable") -> "HoldingTable":
        """Both filters at once (values multiplied: a weight, or 0/1 for a filter)."""
        if other.suit != self.suit:
            raise ValueError(f"cannot join holding tables of suits {self.suit} and {other.suit}")
        return HoldingTable(self.suit, self.values * other.values, f"{self.name} && {other.name}")
