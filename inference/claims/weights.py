"""Per-holding weights: an exact likelihood for each holding a concealed seat may have been dealt in a suit.

A :class:`HoldingWeights` gives, for some (seat, suit) pairs, a weight for every 13-bit *dealt*
holding (ace first: bit 0 is the ace, bit 12 the deuce). A layout's weight is multiplied by the
weight of each listed seat's dealt holding in each listed suit; a holding left out weighs 1. This
is what a model of the defenders' carding gives: how likely the cards a defender has played are,
given what he was dealt in the suit.

Weights are exact: ints or Fractions (no floats). Each (seat, suit) table is kept as integer
numerators over one denominator, so the layout graph sums them exactly.

>>> from dealer import Seat, Suit
>>> w = HoldingWeights({(Seat.E, Suit.H): {"QJ": Fraction(1, 2), "Q": 1}})
>>> w.weight(Seat.E, Suit.H, holding_bits("QJ")), w.weight(Seat.E, Suit.H, holding_bits("K"))
(Fraction(1, 2), Fraction(1, 1))
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Any, Callable, Mapping, Union

import numpy as np

from dealer import Seat, Suit
from dealer.arrays import INT64_LIMIT, exact_ints
from dealer.checks import shown
from dealer.cards.suit import RANK_CHARS

from inference.errors import InvalidArgumentError

__all__ = ["HoldingWeights", "holding_bits", "WeightTable"]

#: What a (seat, suit) pair may be given: holding -> weight (holding as a 13-bit int or ranks ``"QJ4"``),
#: or a function of the 13-bit holding.
WeightTable = Union[Mapping[Any, Any], Callable[[int], Any]]


def holding_bits(ranks: str) -> int:
    """A holding written as ranks (``"KQ4"``, ``"-"`` or ``""`` for none) as a 13-bit int, ace first.

    >>> holding_bits("A2"), holding_bits("-")
    (4097, 0)
    """
    text = ranks.strip().upper().replace("10", "T")
    if text in ("", "-"):
        return 0
    out = 0
    for ch in text:
        if ch not in RANK_CHARS:
            raise InvalidArgumentError(f"invalid holding {shown(ranks)}: ranks must be among {RANK_CHARS}")
        bit = 1 << RANK_CHARS.index(ch)
        if out & bit:
            raise InvalidArgumentError(f"invalid holding {shown(ranks)}: {ch} appears twice")
        out |= bit
    return out


def _exact(value: object, where: str, holding: object) -> int | Fraction:
    """``value`` if it is an exact weight (an int or a Fraction, at least 0); else the error naming the holding."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)) or value < 0:
        raise InvalidArgumentError(f"invalid weight {shown(value)} for {where} holding {holding}: expected an int or "
                                   "a Fraction >= 0 (exact: no floats)")
    return value


def _table(seat: Seat, suit: Suit, given: WeightTable) -> tuple[np.ndarray, int]:
    """Numerators over all 8,192 holdings, and their common denominator."""
    where = f"{seat.name} {suit.name}"
    values: list[int | Fraction] = [1] * 8192
    if callable(given):
        values = [_exact(given(h), where, h) for h in range(8192)]
    elif isinstance(given, Mapping):
        for key, w in given.items():
            h = holding_bits(key) if isinstance(key, str) else key
            if isinstance(h, bool) or not isinstance(h, int) or not 0 <= h < 8192:
                raise InvalidArgumentError(f"invalid holding {shown(key)} for {where}: expected ranks or 0..8191")
            values[h] = _exact(w, where, shown(key))
    else:
        raise InvalidArgumentError(f"invalid weights {shown(given)} for {where}: expected {{holding: weight}} "
                                   "or a function of the holding")
    denominator = lcm(*(v.denominator for v in values))
    numerators = [v.numerator * (denominator // v.denominator) for v in values]  # integers only: no Fraction made
    return exact_ints(numerators), denominator


class HoldingWeights:
    """Exact weights per (concealed seat, suit, dealt holding); frozen once built.

    ``HoldingWeights({(seat, suit): {holding: weight}})``: seats and suits as values or text
    (``"E"``, ``"H"``), holdings as 13-bit ints or ranks, weights ints or Fractions; or a function of
    the 13-bit holding in place of the mapping. A (seat, suit) given twice is refused. A seat whose
    hand is seen weighs every layout alike, so its table changes nothing.
    """

    __slots__ = ("_tables", "_key")

    def __init__(self, tables: Mapping[Any, WeightTable] | None = None) -> None:
        built: dict[tuple[Seat, int], tuple[np.ndarray, int]] = {}
        if tables is not None and not isinstance(tables, Mapping):
            raise InvalidArgumentError(f"invalid holding weights {shown(tables)}: expected {{(seat, suit): table}}")
        for key, given in (tables or {}).items():
            if not isinstance(key, tuple) or len(key) != 2:
                raise InvalidArgumentError(f"invalid key {shown(key)}: expected (seat, suit)")
            try:
                seat, suit = Seat.parse(key[0]), Suit.parse(key[1])
            except ValueError as exc:
                raise InvalidArgumentError(f"invalid key {shown(key)}: {exc}") from None
            if (seat, int(suit)) in built:
                raise InvalidArgumentError(f"invalid key {shown(key)}: {seat.name} {suit.name} is given twice")
            numerators, denominator = _table(seat, suit, given)
            numerators.setflags(write=False)
            built[(seat, int(suit))] = (numerators, denominator)
        self._freeze(built)

    @classmethod
    def from_arrays(cls, tables: Mapping[tuple[Seat, int], tuple[np.ndarray, int]]) -> "HoldingWeights":
        """Weights given as integer numerators over the 8,192 holdings and a denominator per (seat, suit) (the
        fast form: no Fractions are built)."""
        built: dict[tuple[Seat, int], tuple[np.ndarray, int]] = {}
        for (seat, suit), (numerators, denominator) in tables.items():
            where = f"{Seat(seat).name} {Suit(suit).name}"
            if numerators.shape != (8192,) or numerators.dtype not in (np.int64, object):
                raise InvalidArgumentError(f"invalid weights for {where}: expected 8,192 integer numerators")
            if isinstance(denominator, bool) or not isinstance(denominator, int) or denominator < 1:
                raise InvalidArgumentError(f"invalid denominator {shown(denominator)} for {where}: expected an int >= 1")
            if (numerators < 0).any():
                raise InvalidArgumentError(f"invalid weights for {where}: a numerator is below 0")
            table = numerators.copy()
            table.setflags(write=False)
            built[(Seat(seat), int(suit))] = (table, denominator)
        out = cls.__new__(cls)
        out._freeze(built)
        return out

    def _freeze(self, built: dict[tuple[Seat, int], tuple[np.ndarray, int]]) -> None:
        """Keep the tables, and the key that makes the weights hashable (after which nothing changes)."""
        self._tables = built
        self._key = tuple(sorted((k, d, hash(n.tobytes()) if n.dtype != object else hash(tuple(n.tolist())))
                                 for k, (n, d) in built.items()))

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_key"):
            raise AttributeError("HoldingWeights are frozen")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError("HoldingWeights are frozen")

    def __bool__(self) -> bool:
        return bool(self._tables)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HoldingWeights) and self._key == other._key and all(
            np.array_equal(a[0], other._tables[k][0]) for k, a in self._tables.items())

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"HoldingWeights({', '.join(f'{s.name} {Suit(t).name}' for s, t in self._tables)})"

    @property
    def pairs(self) -> tuple[tuple[Seat, int], ...]:
        """The (seat, suit) pairs that carry weights."""
        return tuple(self._tables)

    def table(self, seat: Seat, suit: int) -> tuple[np.ndarray, int] | None:
        """The numerators over the 8,192 holdings and their denominator (None: every holding weighs 1)."""
        return self._tables.get((seat, int(suit)))

    def weight(self, seat: Seat, suit: int, holding: int) -> Fraction:
        """The exact weight of one dealt holding."""
        found = self.table(seat, suit)
        return Fraction(1) if found is None else Fraction(int(found[0][holding]), found[1])

    def times(self, other: "HoldingWeights") -> "HoldingWeights":
        """Both sets of weights at once (their product where both weigh a pair), numerators times numerators
        (int64 while the products fit, Python integers beyond) over the product of the denominators."""
        merged = dict(self._tables)
        for key, (num, den) in other._tables.items():
            before = merged.get(key)
            if before is None:
                merged[key] = (num, den)
                continue
            top = int(before[0].max(initial=0)) * int(num.max(initial=0))
            dtype: Any = np.int64 if top < INT64_LIMIT else object
            merged[key] = (before[0].astype(dtype) * num.astype(dtype), before[1] * den)
        return HoldingWeights.from_arrays(merged)
