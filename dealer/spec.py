"""Dealing specifications: cards already placed per seat + per-seat constraints.

A :class:`DealSpec` maps seats to :class:`SeatSpec` values. Each seat may
have

* ``predeal``: cards it holds (already placed);
* ``forbidden``: cards it cannot hold;
* ``lengths``: ranges of dealt suit lengths, ``{"S": (5, 13)}``;
* ``shapes``: a set of allowed shapes, ``"any 5332 + 9xxx"``;
* ``hcp``: a range of dealt HCP;
* ``condition``: any boolean combination of conditions on its shape and HCP
  (a :class:`~dealer.expr.Cond` or text in the ``dealer`` language);
* ``holdings``: per suit, a filter or weight on the exact holding dealt in
  that suit: a function of the holding (a :class:`~dealer.cardset.CardSet`)
  returning a bool, an int or a Fraction.

All constraints on one seat are joined by AND, and seats by AND. Values are
immutable; building one from bad input raises :class:`~dealer.errors.SpecError`
with pydantic's location of the fault.

>>> spec = DealSpec.from_dict({"W": {"lengths": {"S": (9, 9)}}, "E": {"shapes": "xx66"}})
>>> str(spec)
'shape(east, xx66) && spades(west) == 9'
"""

from __future__ import annotations

from fractions import Fraction
from dataclasses import fields, replace
from typing import Any, Callable, Mapping

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .card import HCP_BY_INDEX
from .cardset import CardSet
from .checks import shown
from .evaluate import STANDARD, Counts
from .errors import ImpossibleSpecError, SpecError, UnsupportedSpecError
from .expr import (
    Always, And, Arith, Compare, Cond, Const, Expr, HandCount, HasCard, Hcp, Length, Node, Not, Or, Pos, ShapeIn,
    SuitHcp, Ternary, Truth, walk,
)
from .grid import ARITH, COMPARE, GRID, MAX_HCP, FeatureGrid, grid_mask
from .holding import HOLDINGS, HoldingTable
from .seat import Seat
from .shapes import ShapeSet
from .suit import Suit
from .statements import parse_statements

__all__ = ["SeatSpec", "DealSpec", "HoldingFilter", "points_fit"]

#: A filter or weight on one suit's dealt holding.
HoldingFilter = Callable[[CardSet], "bool | int | Fraction"]


def _format_validation(exc: ValidationError, what: str) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"]) or what
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        parts.append(f"{loc}: {msg}")
    return f"invalid {what}: " + "; ".join(parts)


class SeatSpec(BaseModel):
    """What one seat must (and must not) be dealt. See the module doc."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, extra="forbid")

    predeal: CardSet = Field(default_factory=CardSet)
    forbidden: CardSet = Field(default_factory=CardSet)
    lengths: dict[Suit, tuple[int, int]] = Field(default_factory=dict)
    shapes: ShapeSet | None = None
    hcp: tuple[int, int] | None = None
    condition: Cond | None = None
    holdings: dict[Suit, Callable[[CardSet], Any]] = Field(default_factory=dict)
    points: tuple[int, ...] | None = None

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise SpecError(_format_validation(exc, "seat spec")) from None

    @field_validator("points", mode="after")
    @classmethod
    def _points(cls, value: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if value is not None and not points_fit(value):
            raise ValueError(f"points {value} do not fit the tables: 13 values >= 0 (ace first), at most 10 in a "
                             f"suit and {MAX_HCP} in a hand")
        return value

    @property
    def card_points(self) -> tuple[int, ...]:
        """The count the seat's HCP axis stands for, per card index (4-3-2-1 unless :attr:`points` says)."""
        return HCP_BY_INDEX if self.points is None else tuple(self.points[i % 13] for i in range(52))

    @field_validator("predeal", "forbidden", mode="before")
    @classmethod
    def _cards(cls, value: Any) -> CardSet:
        if isinstance(value, CardSet):
            return value
        if isinstance(value, str):
            return CardSet.parse(value) if value.strip() else CardSet()
        if isinstance(value, (int, float)) or value is None:  # a bare number is not a set of cards
            raise ValueError(f"expected cards as text such as 'SAKQ HA' or a CardSet, got {shown(value)}")
        return CardSet(value)

    @field_validator("lengths", mode="before")
    @classmethod
    def _lengths(cls, value: Any) -> dict[Suit, tuple[int, int]]:
        out: dict[Suit, tuple[int, int]] = {}
        for key, rng in dict(value).items():
            suit = Suit.parse(key)
            lo, hi = _range(rng)
            if not 0 <= lo <= 13 or not 0 <= hi <= 13:
                raise ValueError(f"length[{suit.name}] must lie in 0..13, got ({lo}, {hi})")
            if hi < lo:
                raise ValueError(f"cannot have hi={hi} < lo={lo} for length[{suit.name}]")
            out[suit] = (lo, hi)
        return out

    @field_validator("hcp", mode="before")
    @classmethod
    def _hcp(cls, value: Any) -> tuple[int, int] | None:
        if value is None:
            return None
        lo, hi = _range(value)
        if not 0 <= lo <= MAX_HCP or not 0 <= hi <= MAX_HCP:
            raise ValueError(f"hcp must lie in 0..{MAX_HCP}, got ({lo}, {hi})")
        if hi < lo:
            raise ValueError(f"cannot have hi={hi} < lo={lo} for hcp")
        return (lo, hi)

    @field_validator("shapes", mode="before")
    @classmethod
    def _shapes(cls, value: Any) -> ShapeSet | None:
        if value is None or isinstance(value, ShapeSet):
            return value
        if isinstance(value, str):
            return ShapeSet.parse(value)
        return ShapeSet(value)

    @field_validator("holdings", mode="before")
    @classmethod
    def _holdings(cls, value: Any) -> dict[Suit, Callable[[CardSet], Any]]:
        out = {}
        for key, fn in dict(value).items():
            if not callable(fn):
                raise ValueError(f"holdings[{key}] must be a function of the holding, got {fn!r}")
            out[Suit.parse(key)] = fn
        return out

    @model_validator(mode="after")
    def _consistent(self) -> "SeatSpec":
        if len(self.predeal) > 13:
            raise ValueError(f"predeal holds {len(self.predeal)} cards, at most 13 allowed")
        both = self.predeal & self.forbidden
        if both:
            raise ValueError(f"cards both predealt and forbidden: {both.to_text()}")
        return self

    # -- compiled form --------------------------------------------------
    def feature_condition(self, seat: Seat) -> Cond | None:
        """Lengths, shapes, HCP and condition joined into one condition on ``seat`` (None if none)."""
        parts: list[Cond] = []
        for suit, (lo, hi) in sorted(self.lengths.items()):
            if lo == hi:
                parts.append(Compare("==", Length(seat, suit), Const(lo)))
                continue
            if lo > 0:
                parts.append(Compare(">=", Length(seat, suit), Const(lo)))
            if hi < 13:
                parts.append(Compare("<=", Length(seat, suit), Const(hi)))
        if self.shapes is not None:
            parts.append(ShapeIn(seat, self.shapes))
        if self.hcp is not None:
            lo, hi = self.hcp
            if lo == hi:
                parts.append(Compare("==", Hcp(seat), Const(lo)))
            elif lo > 0:
                parts.append(Compare(">=", Hcp(seat), Const(lo)))
            if hi < MAX_HCP and lo != hi:
                parts.append(Compare("<=", Hcp(seat), Const(hi)))
        if self.condition is not None:
            parts.append(self.condition)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def accepted(self, seat: Seat, grid: FeatureGrid = GRID) -> np.ndarray | None:
        """Boolean mask over the (shape, HCP) grid of the classes this seat may be dealt (None: all)."""
        cond = self.feature_condition(seat)
        return None if cond is None else grid_mask(cond, grid)

    @property
    def is_free(self) -> bool:
        """True when only the predeal constrains this seat (it can join the pool)."""
        return (not self.forbidden and not self.lengths and self.shapes is None and self.hcp is None
                and self.condition is None and not self.holdings)


def _range(value: Any) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise ValueError(f"expected a (lo, hi) pair, got {value!r}") from None
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (lo, hi)):
        raise ValueError(f"expected integer bounds, got {value!r}")
    return (lo, hi)


class DealSpec(BaseModel):
    """A spec for whole deals: a :class:`SeatSpec` per constrained seat.

    Build from text in the ``dealer`` language with :meth:`parse`, from plain
    data with :meth:`from_dict`, or directly.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, extra="forbid")

    seats: dict[Seat, SeatSpec] = Field(default_factory=dict)
    text: str | None = None

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise SpecError(_format_validation(exc, "deal spec")) from None

    @field_validator("seats", mode="before")
    @classmethod
    def _seats(cls, value: Any) -> dict[Seat, SeatSpec]:
        if not isinstance(value, Mapping):
            raise ValueError(f"expected a mapping of seats to seat specs, got {shown(value)}")
        out = {}
        for key, spec in value.items():
            if not isinstance(key, (Seat, str)):
                raise ValueError(f"expected a seat such as 'N' as a key, got {shown(key)}")
            seat = Seat.parse(key)
            if not isinstance(spec, (SeatSpec, Mapping)):
                raise ValueError(f"the spec of {seat.name_long} must be a SeatSpec or a mapping, got {shown(spec)}")
            out[seat] = spec if isinstance(spec, SeatSpec) else SeatSpec(**dict(spec))
        return out

    @model_validator(mode="after")
    def _consistent(self) -> "DealSpec":
        seen = CardSet()
        for seat in Seat:
            ss = self.seats.get(seat)
            if ss is None:
                continue
            both = seen & ss.predeal
            if both:
                raise ValueError(f"{both.to_text()} predealt to {seat.name_long} and to another seat")
            seen = seen | ss.predeal
            if ss.condition is not None:
                others = ss.condition.seats() - {seat}
                if others:
                    names = ", ".join(s.name_long for s in sorted(others))
                    raise ValueError(f"the condition of {seat.name_long} mentions {names}: {ss.condition}")
        return self

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "DealSpec":
        """Build from ``{"N": {"hcp": (15, 17), ...}, ...}`` (seats as keys)."""
        return cls(seats=dict(data))

    @classmethod
    def parse(cls, text: str, *, source: str = "<spec>") -> "DealSpec":
        """Parse a spec in the ``dealer`` program's language (see :mod:`dealer.language`)."""
        script = parse_statements(text, source=source)
        return cls.from_conditions(script.conditions, script.predeals, text.strip())

    @classmethod
    def from_conditions(cls, conditions: "list[Cond]", predeals: "Mapping[Seat, tuple[CardSet, Pos]]",
                        text: str = "", *, residual: "list[Cond] | None" = None,
                        counts: Counts = STANDARD) -> "DealSpec":
        """The spec of conditions on any seats joined by ``&&``, split into one condition per seat.

        ``hascard`` becomes a predealt card, ``!hascard`` a forbidden one, ``hcp(seat, suit)`` compared
        with numbers a filter on the seat's holding in the suit. A condition that relates seats to
        each other (an ``||`` or arithmetic over two seats) cannot be dealt exactly by per-seat
        tables and is refused (:class:`~dealer.errors.UnsupportedSpecError`) with the reason.

        With ``residual`` (a list), such conditions are appended to it instead, and the spec returned
        is the exact *superset* the tables can deal: the deals meeting every other condition.

        A seat's whole-hand count other than HCP (``controls``, ``aces``, ``top2``..``top5``, a
        script's own ``pointcount``: ``counts``) goes into the seat's tables in place of HCP when it
        is the only count the seat's conditions use and it fits (:func:`points_fit`); a count in one
        suit (``top3(north, spades)``) becomes a filter on that holding.
        """
        return _split(conditions, predeals, text, residual, counts)

    def seat(self, seat: Seat | str) -> SeatSpec:
        """The spec of ``seat`` (an empty one if the seat is free)."""
        return self.seats.get(Seat.parse(seat), _EMPTY)

    def __str__(self) -> str:
        parts: list[str] = []
        for seat in Seat:
            ss = self.seats.get(seat)
            if ss is None:
                continue
            if ss.predeal:
                parts.append(" && ".join(f"hascard({seat.name_long}, {c})" for c in ss.predeal))
            if ss.forbidden:
                parts.append(" && ".join(f"!hascard({seat.name_long}, {c})" for c in ss.forbidden))
            cond = ss.feature_condition(seat)
            if cond is not None:
                parts.append(str(cond))
            for suit in ss.holdings:
                parts.append(f"holding({seat.name_long}, {suit.name_long}) ~ {_fn_name(ss.holdings[suit])}")
        return " && ".join(parts) if parts else "1"


def points_fit(points: tuple[int, ...]) -> bool:
    """True when a count (13 values, ace first) fits the tables: >= 0, at most 10 a suit, 37 a hand."""
    return (len(points) == 13 and all(isinstance(v, int) and v >= 0 for v in points) and sum(points) <= 10
            and sum(sorted(points * 4, reverse=True)[:13]) <= MAX_HCP)


def _contains(cond: Node, kinds: tuple[type, ...]) -> bool:
    return any(isinstance(node, kinds) for node in walk(cond))


def _flatten(cond: Cond) -> list[Cond]:
    if isinstance(cond, And):
        out: list[Cond] = []
        for c in cond.items:
            out.extend(_flatten(c))
        return out
    return [cond]


def _suit_hcp_filter(cond: Cond, counts: Counts) -> tuple[Seat, Suit, HoldingTable] | None:
    """``hcp(north, spades) >= 3``, ``top3(north, spades) >= 2 || spades(north) >= 6``... -> (north, spades,
    the holding's table): any condition on one seat's holding in one suit that reads a count in the suit."""
    keys: set[tuple[Seat, Suit]] = set()
    lengths: set[tuple[Seat, Suit]] = set()  # the suit's length too, beside a count in the suit
    for n in walk(cond):
        if isinstance(n, SuitHcp):
            keys.add((n.seat, n.suit))
        elif isinstance(n, HandCount) and n.suit is not None and n.kind not in ("quality", "cccc"):
            keys.add((n.seat, n.suit))
        elif isinstance(n, Length):
            lengths.add((n.seat, n.suit))
        elif not isinstance(n, (Compare, Const, Arith, Truth, Ternary, Always, And, Or, Not)):
            return None
    if len(keys) != 1 or not lengths <= keys:
        return None
    seat, suit = next(iter(keys))
    size = HOLDINGS

    def value(node: Node) -> np.ndarray:  # over every holding of the suit at once
        if isinstance(node, (Const, Always)):
            return np.full(size, int(node.value), dtype=np.int64)
        if isinstance(node, SuitHcp):
            return np.asarray(counts.table("hcp"), dtype=np.int64)
        if isinstance(node, HandCount):
            return np.asarray(counts.table(node.kind), dtype=np.int64)
        if isinstance(node, Length):
            return np.asarray(counts.table("length"), dtype=np.int64)
        if isinstance(node, Arith):
            return np.asarray(ARITH[node.op](value(node.left), value(node.right)), dtype=np.int64)
        if isinstance(node, Compare):
            return np.asarray(COMPARE[node.op](value(node.left), value(node.right)), dtype=np.int64)
        if isinstance(node, Truth):
            return value(node.item)
        if isinstance(node, Ternary):
            return np.where(value(node.test) != 0, value(node.then), value(node.other))
        if isinstance(node, And):
            return np.asarray(np.logical_and.reduce([value(x) != 0 for x in node.items]), dtype=np.int64)
        if isinstance(node, Or):
            return np.asarray(np.logical_or.reduce([value(x) != 0 for x in node.items]), dtype=np.int64)
        assert isinstance(node, Not)
        return np.asarray(value(node.item) == 0, dtype=np.int64)

    return seat, suit, HoldingTable(int(suit), value(cond) != 0, str(cond))


def _family(c: Cond, counts: Counts) -> set[str] | None:
    """The whole-hand counts ``c`` uses (``hcp``, ``controls``, ``pt6``...); None if it uses one in a suit."""
    kinds: set[str] = set()
    for n in walk(c):
        if isinstance(n, Hcp):
            kinds.add("hcp")
        elif isinstance(n, HandCount):
            if n.suit is not None or n.kind in ("quality", "cccc", "losers", "ltc"):
                return None
            kinds.add(n.kind)
    return kinds


def _family_points(kind: str, counts: Counts) -> tuple[int, ...] | None:
    if kind == "hcp":
        return counts.points
    if kind == "controls":
        return (2, 1) + (0,) * 11
    return counts.alt[int(kind[2:])]


def _as_hcp(c: Node) -> Node:
    """``c`` with every whole-hand count written as ``hcp`` (the seat's table counts it instead)."""
    if isinstance(c, HandCount):
        return Hcp(c.seat, pos=c.pos)
    changes: dict[str, object] = {}
    for f in fields(c):
        v = getattr(c, f.name)
        if isinstance(v, Node):
            changes[f.name] = _as_hcp(v)
        elif isinstance(v, tuple) and v and all(isinstance(x, Node) for x in v):
            changes[f.name] = tuple(_as_hcp(x) for x in v)
    return replace(c, **changes) if changes else c  # type: ignore[arg-type]


def _refusal(c: Cond, seats: frozenset[Seat]) -> UnsupportedSpecError:
    names = " and ".join(s.name_long for s in sorted(seats))
    if isinstance(c, Or) or _contains(c, (Or,)):
        why = (f"an '||' that joins {names} cannot be dealt exactly: each seat is dealt from "
               "its own table, so conditions on different seats must be joined by '&&'")
    elif isinstance(c, Not):
        why = (f"a '!' over a condition on {names} is an '||' in disguise and cannot be dealt "
               "exactly; state each seat's condition separately, joined by '&&'")
    else:
        why = (f"this condition relates {names} to each other; the exact dealer takes "
               "conditions on one seat at a time, joined by '&&'")
    return UnsupportedSpecError(f"{c.pos}: {c}: {why}")


def _tableable(c: Cond) -> bool:
    """True when a condition on one seat can go into the seat's (shape, HCP) table as it is."""
    if _contains(c, (HasCard, SuitHcp, HandCount)):
        return False
    try:
        grid_mask(c, GRID)
    except UnsupportedSpecError:
        return False
    return True


def _split(conds: "list[Cond]", predeals: "Mapping[Seat, tuple[CardSet, Pos]]", text: str,
           residual: "list[Cond] | None" = None, counts: Counts = STANDARD) -> DealSpec:
    predeal = {s: c for s, (c, _) in predeals.items()}
    forbidden: dict[Seat, CardSet] = {}
    per_seat: dict[Seat, list[Cond]] = {}
    filters: dict[Seat, dict[Suit, list[Callable[[CardSet], Any]]]] = {}
    family: dict[Seat, str] = {}
    for top in conds:
        for c in _flatten(top):
            seats = c.seats()
            if not seats and not _contains(c, (HasCard, ShapeIn, Length, Hcp, SuitHcp)):
                if residual is not None and not _tableable(c):
                    residual.append(c)
                    continue
                if not bool(grid_mask(c, GRID)[0]):
                    raise ImpossibleSpecError(f"{c.pos}: the condition {c} is never true: no deal satisfies it")
                continue
            if len(seats) > 1:
                if residual is not None:
                    residual.append(c)
                    continue
                raise _refusal(c, seats)
            seat = next(iter(seats))
            if isinstance(c, HasCard):
                predeal[seat] = predeal.get(seat, CardSet()) | CardSet([c.card])
                continue
            if isinstance(c, Not) and isinstance(c.item, HasCard):
                forbidden[seat] = forbidden.get(seat, CardSet()) | CardSet([c.item.card])
                continue
            if not isinstance(c, HasCard):  # any condition on one suit's holding alone is a filter on it
                f = _suit_hcp_filter(c, counts)
                if f is not None:
                    filters.setdefault(seat, {}).setdefault(f[1], []).append(f[2])
                    continue
            kinds = _family(c, counts)
            if kinds is not None and len(kinds) == 1 and not _contains(c, (HasCard, SuitHcp)):
                kind = next(iter(kinds))
                points = _family_points(kind, counts)
                if family.get(seat, kind) == kind and points is not None and points_fit(points):
                    rewritten = _as_hcp(c)
                    assert isinstance(rewritten, Cond)
                    if _tableable(rewritten):
                        family[seat] = kind
                        per_seat.setdefault(seat, []).append(rewritten)
                        continue
            elif kinds == set() and _tableable(c):
                per_seat.setdefault(seat, []).append(c)
                continue
            if residual is not None:
                residual.append(c)
                continue
            if _contains(c, (HasCard, SuitHcp)):
                raise UnsupportedSpecError(
                    f"{c.pos}: {c}: hascard() and hcp(seat, suit) can be dealt exactly only as conditions of "
                    "their own joined by '&&' (hcp(seat, suit) compared with numbers), not inside '||', '!' "
                    "or arithmetic with other features"
                )
            raise UnsupportedSpecError(
                f"{c.pos}: {c}: the exact tables hold the lengths, shape and one count (HCP or another) of one "
                "seat, not this; 'kibitz count' and 'kibitz dealer' deal it by filtering an exact superset "
                "(an estimate)")
    seats_out = {}
    for seat in Seat:
        parts = per_seat.get(seat, [])
        cond: Cond | None = None
        if parts:
            cond = parts[0] if len(parts) == 1 else And(tuple(parts), pos=parts[0].pos)
        holdings = {suit: _all_of(fns) for suit, fns in filters.get(seat, {}).items()}
        if cond is None and seat not in predeal and seat not in forbidden and not holdings:
            continue
        points = _family_points(family[seat], counts) if seat in family else None
        try:
            seats_out[seat] = SeatSpec(predeal=predeal.get(seat, CardSet()), forbidden=forbidden.get(seat, CardSet()),
                                       condition=cond, holdings=holdings,
                                       points=None if points == STANDARD.points else points)
        except SpecError as exc:
            where = predeals[seat][1] if seat in predeals else (cond.pos if cond is not None else Pos())
            raise SpecError(f"{where}: {seat.name_long}: {str(exc).removeprefix('invalid seat spec: seat spec: ')}"
                            ) from None
    return DealSpec(seats=seats_out, text=text)


def _all_of(fns: list[Callable[[CardSet], Any]]) -> Callable[[CardSet], Any]:
    if len(fns) == 1:
        return fns[0]
    tables = [f for f in fns if isinstance(f, HoldingTable)]
    if len(tables) == len(fns):
        table = tables[0]
        for t in tables[1:]:
            table = table & t
        return table

    def combined(holding: CardSet) -> bool:
        return all(f(holding) for f in fns)

    combined.__name__ = " && ".join(_fn_name(f) for f in fns)
    return combined


def _fn_name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", type(fn).__name__)


_EMPTY = SeatSpec()
