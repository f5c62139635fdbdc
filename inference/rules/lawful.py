"""Lawful bounds: what the cards seen allow each concealed hand to have been dealt.

"Lawful" assumes nobody revoked. What the cards seen tell us is then
exactly: each concealed seat was dealt the cards it has played plus some of
the unseen cards, as many as fill its 13, and none of a suit it has shown
out of. Inside a suit, those constraints do not tell one unseen card from
another, so the lawful layouts are described by how many unseen cards of each
suit each concealed seat holds (a transportation problem with 2 or 3 rows),
and a seat holding ``x`` unseen cards of a suit may hold *any* ``x`` of them.

:func:`lawful_bounds` enumerates, for each concealed seat, every row
(``x_S, x_H, x_D, x_C``) that fills its hand and leaves a remainder the other
concealed seats can lawfully take. The bounds are the minimum and maximum over
those rows: of dealt length per suit, of dealt HCP (the best and worst ``x``
unseen cards of each suit), and of who can hold each unseen card. Every bound
is therefore reached by some lawful layout: tight by construction, and the
tests check it against brute force and the exact dealer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Sequence, cast

import numpy as np

from dealer import CARDS, Card, CardSet, Seat, Suit

from inference.errors import InconsistentCardsError

__all__ = ["SeatBounds", "Bounds", "lawful_bounds", "QUANTITIES"]

#: The quantities bounded per seat: dealt length in each suit, then dealt HCP.
QUANTITIES = ("S", "H", "D", "C", "HCP")


@dataclass(frozen=True)
class SeatBounds:
    """Bounds on one concealed seat: dealt length per suit (S, H, D, C) and dealt HCP."""

    length: tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]
    hcp: tuple[int, int]

    def get(self, quantity: str) -> tuple[int, int]:
        """``"S"``/``"H"``/``"D"``/``"C"`` or ``"HCP"``."""
        if quantity == "HCP":
            return self.hcp
        return self.length[Suit.parse(quantity)]

    def as_dict(self) -> dict[str, list[int]]:
        """``{"S": [lo, hi], ..., "HCP": [lo, hi]}``."""
        return {q: list(self.get(q)) for q in QUANTITIES}


@dataclass(frozen=True)
class Bounds:
    """Lawful bounds on every concealed seat, and the possible holders of every unseen card.

    ``holders[card.index]`` is a 4-bit mask of the seats that can hold an
    unseen card (bit ``seat``), 0 for a card already seen.
    """

    seats: tuple[tuple[Seat, SeatBounds], ...]
    holders: tuple[int, ...]

    def __getitem__(self, seat: Seat) -> SeatBounds:
        for s, b in self.seats:
            if s == seat:
                return b
        raise KeyError(f"{seat.name_long} is not a concealed seat")

    @property
    def concealed(self) -> tuple[Seat, ...]:
        return tuple(s for s, _ in self.seats)

    def possible_holders(self, card: Card | str) -> tuple[Seat, ...]:
        """The seats that can hold an unseen card (empty for a card seen)."""
        mask = self.holders[Card.parse(card).index]
        return tuple(s for s in Seat if mask >> s & 1)

    def located(self) -> dict[Card, Seat]:
        """Unseen cards that only one concealed seat can hold."""
        out = {}
        for i, mask in enumerate(self.holders):
            if mask and mask & (mask - 1) == 0:
                out[CARDS[i]] = Seat(mask.bit_length() - 1)
        return out

    def as_dict(self) -> dict[str, dict[str, list[int]]]:
        """``{"W": {"S": [lo, hi], ...}, ...}`` for every concealed seat."""
        return {s.name: b.as_dict() for s, b in self.seats}


@lru_cache(maxsize=512)
def _rows(unseen: tuple[int, int, int, int], total: int) -> np.ndarray:
    """Every (x_S, x_H, x_D, x_C) with 0 <= x_s <= unseen[s] summing to ``total``."""
    grids = np.meshgrid(*[np.arange(u + 1) for u in unseen], indexing="ij")
    rows = np.stack([g.ravel() for g in grids], axis=1)
    return cast(np.ndarray, rows[rows.sum(axis=1) == total])


def _suit_hcp_prefix(unseen: int) -> list[tuple[list[int], list[int]]]:
    """Per suit: HCP of the best x unseen cards, and of the worst x, for x = 0..u."""
    out = []
    for s in range(4):
        values = sorted((CARDS[i].hcp for i in range(13 * s, 13 * s + 13) if unseen >> i & 1), reverse=True)
        top = [0]
        for v in values:
            top.append(top[-1] + v)
        total = top[-1]
        bottom = [total - top[len(values) - x] for x in range(len(values) + 1)]
        out.append((top, bottom))
    return out


def lawful_bounds(concealed: Sequence[Seat], unseen: int, known: Mapping[Seat, int],
                  voids: Mapping[Seat, int]) -> Bounds:
    """Tight lawful bounds for the ``concealed`` seats.

    ``unseen``: mask of the cards whose place is not known. ``known[seat]``:
    mask of the cards that seat is known to have been dealt (for a concealed
    seat, those it has played). ``voids[seat]``: 4-bit mask of the suits it
    has shown out of. Raises :class:`InconsistentCardsError` when no lawful
    layout exists.
    """
    concealed = tuple(concealed)
    u = tuple((unseen >> (13 * s) & 0x1FFF).bit_count() for s in range(4))
    vacancy = {s: 13 - known.get(s, 0).bit_count() for s in concealed}
    if sum(vacancy.values()) != sum(u):
        raise InconsistentCardsError(
            f"{sum(u)} cards are unseen but the concealed hands ({', '.join(s.name_long for s in concealed)}) "
            f"have {sum(vacancy.values())} places left"
        )
    prefix = _suit_hcp_prefix(unseen)
    seat_bounds: list[tuple[Seat, SeatBounds]] = []
    holders = [0] * 52
    for seat in concealed:
        others = [s for s in concealed if s != seat]
        rows = _rows(u, vacancy[seat])
        ok = np.ones(len(rows), dtype=bool)
        void = voids.get(seat, 0)
        for s in range(4):
            if void >> s & 1:
                ok &= rows[:, s] == 0
        rest = np.array(u)[None, :] - rows
        if len(others) == 1:
            ov = voids.get(others[0], 0)
            for s in range(4):
                if ov >> s & 1:
                    ok &= rest[:, s] == 0
        elif len(others) == 2:
            j, l_ = others
            vj, vl = voids.get(j, 0), voids.get(l_, 0)
            lo = np.zeros(len(rows), dtype=np.int64)
            hi = np.zeros(len(rows), dtype=np.int64)
            for s in range(4):
                j_void, l_void = vj >> s & 1, vl >> s & 1
                if j_void and l_void:
                    ok &= rest[:, s] == 0
                lo += rest[:, s] * (l_void and not j_void)
                hi += rest[:, s] * (not j_void)
            ok &= (lo <= vacancy[j]) & (vacancy[j] <= hi)
        elif others:  # pragma: no cover - at most three concealed seats
            raise ValueError("at most three concealed seats")
        feasible = rows[ok]
        if not len(feasible):
            raise InconsistentCardsError(_explain(concealed, u, vacancy, voids))
        base = known.get(seat, 0)
        length = tuple(
            ((base >> (13 * s) & 0x1FFF).bit_count() + int(feasible[:, s].min()),
             (base >> (13 * s) & 0x1FFF).bit_count() + int(feasible[:, s].max()))
            for s in range(4)
        )
        top = sum(np.array(prefix[s][0])[feasible[:, s]] for s in range(4))
        bottom = sum(np.array(prefix[s][1])[feasible[:, s]] for s in range(4))
        base_hcp = CardSet(base).hcp
        hcp = (base_hcp + int(np.min(bottom)), base_hcp + int(np.max(top)))
        for s in range(4):
            if feasible[:, s].max() >= 1:
                for i in range(13 * s, 13 * s + 13):
                    if unseen >> i & 1:
                        holders[i] |= 1 << seat
        seat_bounds.append((seat, SeatBounds(length, hcp)))  # type: ignore[arg-type]
    return Bounds(tuple(seat_bounds), tuple(holders))


def _explain(concealed: tuple[Seat, ...], u: tuple[int, ...], vacancy: Mapping[Seat, int],
             voids: Mapping[Seat, int]) -> str:
    parts = []
    for s in range(4):
        if not u[s]:
            continue
        able = [seat for seat in concealed if not voids.get(seat, 0) >> s & 1]
        if not able:
            parts.append(f"{u[s]} {Suit(s).name_long} are unseen but every concealed hand has shown out of them")
    if not parts:
        parts.append("the concealed hands' places cannot take the unseen cards of the suits they still hold")
    return "no lawful layout: " + "; ".join(parts)
