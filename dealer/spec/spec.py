"""Dealing specifications: cards already placed per seat + per-seat constraints.

A :class:`DealSpec` maps seats to :class:`SeatSpec` values. Each seat may
have

* ``predeal``: cards it holds (already placed);
* ``forbidden``: cards it cannot hold;
* ``lengths``: ranges of dealt suit lengths, ``{"S": (5, 13)}``;
* ``shapes``: a set of allowed shapes, ``"any 5332 + 9xxx"``;
* ``hcp``: a range of dealt HCP;
* ``condition``: any boolean combination of conditions on its shape and HCP
  (a :class:`~dealer.lang.expr.Cond` or text in the ``dealer`` language);
* ``holdings``: per suit, a filter or weight on the exact holding dealt in
  that suit: a function of the holding (a :class:`~dealer.cards.cardset.CardSet`)
  returning a bool, an int or a Fraction.

All constraints on one seat are joined by AND, and seats by AND. Values are
immutable; building one from bad input raises :class:`~dealer.errors.SpecError`
naming each faulty field and quoting its value.

>>> spec = DealSpec.from_dict({"W": {"lengths": {"S": (9, 9)}}, "E": {"shapes": "xx66"}})
>>> str(spec)
'shape(east, xx66) && spades(west) == 9'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

import numpy as np

from dealer.cards.card import HCP_BY_INDEX
from dealer.cards.cardset import CardSet
from dealer.checks import shown
from dealer.lang.evaluate import STANDARD, Counts
from dealer.errors import SpecError
from dealer.lang.expr import And, Compare, Cond, Const, Hcp, Length, Pos, ShapeIn
from dealer.lang.grid import GRID, MAX_HCP, FeatureGrid, grid_mask
from dealer.cards.seat import Seat
from dealer.cards.shapes import ShapeSet, shape_index
from dealer.spec.sidecount import SideCount
from dealer.spec.splitting import points_fit, split_conditions
from dealer.cards.suit import Suit
from dealer.lang.statements import check_predeals, parse_statements
from dealer.lang.syntax import parse_condition

__all__ = ["SeatSpec", "DealSpec", "HoldingFilter", "points_fit"]

#: A filter or weight on one suit's dealt holding.
HoldingFilter = Callable[[CardSet], "bool | int | Fraction"]


_SEAT_FIELDS = ("predeal", "forbidden", "lengths", "shapes", "hcp", "condition", "holdings", "points", "side")


class SeatSpec:
    """What one seat must (and must not) be dealt. See the module doc.

    A frozen value: keyword arguments only, each checked and turned into its stored form (text into
    cards, shapes or a condition), every fault reported at once by :class:`~dealer.errors.SpecError`.
    """

    predeal: CardSet
    forbidden: CardSet
    lengths: dict[Suit, tuple[int, int]]
    shapes: ShapeSet | None
    hcp: tuple[int, int] | None
    condition: Cond | None
    holdings: dict[Suit, Callable[[CardSet], Any]]
    points: tuple[int, ...] | None
    side: SideCount | None
    _side_masks: dict[Seat, np.ndarray]  # side_masks' cache, per seat

    def __init__(self, **data: Any) -> None:
        faults: list[str] = [f"{name}: unknown field (the fields: {', '.join(_SEAT_FIELDS)})"
                             for name in data if name not in _SEAT_FIELDS]
        values: dict[str, Any] = {}
        for name in _SEAT_FIELDS:
            try:
                values[name] = _SEAT_CHECKS[name](data.get(name))
            except ValueError as exc:
                faults.append(f"{name}: {exc}")
        if not faults:
            try:
                _check_cards(values["predeal"], values["forbidden"])
            except ValueError as exc:
                faults.append(f"seat spec: {exc}")
        if faults:
            raise SpecError("invalid seat spec: " + "; ".join(faults))
        _fill(self, values)

    @classmethod
    def trusted(cls, **fields: Any) -> "SeatSpec":
        """A seat spec from values of the right types (the package's own, from split conditions), checked
        only for consistency."""
        try:
            _check_points(fields.get("points"))
            _check_cards(fields.get("predeal", CardSet()), fields.get("forbidden", CardSet()))
        except ValueError as exc:
            raise SpecError(f"invalid seat spec: seat spec: {exc}") from None
        out = cls.__new__(cls)
        _fill(out, {name: fields[name] if name in fields else _SEAT_CHECKS[name](None) for name in _SEAT_FIELDS})
        return out

    def replace(self, **changes: Any) -> "SeatSpec":
        """This spec with some fields changed, checked as the constructor checks them."""
        return SeatSpec(**{**{name: getattr(self, name) for name in _SEAT_FIELDS}, **changes})

    def _key(self) -> tuple[Any, ...]:
        return (self.predeal, self.forbidden, tuple(sorted(self.lengths.items())), self.shapes, self.hcp,
                self.condition, tuple(self.holdings.items()), self.points, self.side)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeatSpec) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown_fields = (f"{name}={getattr(self, name)!r}" for name in _SEAT_FIELDS
                        if getattr(self, name) != _SEAT_CHECKS[name](None))
        return f"SeatSpec({', '.join(shown_fields)})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"SeatSpec is frozen: cannot assign to {name!r}")

    @property
    def card_points(self) -> tuple[int, ...]:
        """The count the seat's HCP axis stands for, per card index (4-3-2-1 unless :attr:`points` says)."""
        return HCP_BY_INDEX if self.points is None else tuple(self.points[i % 13] for i in range(52))

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
        """Boolean mask over the (shape, HCP) grid of the classes this seat may be dealt (None: all).

        With a :attr:`side` count, the classes that some total of it lets through.
        """
        masks = self.side_masks(seat, grid)
        if masks is not None:
            return np.asarray(masks.any(axis=0))
        cond = self.feature_condition(seat)
        return None if cond is None else grid_mask(cond, grid)

    def side_masks(self, seat: Seat, grid: FeatureGrid = GRID) -> np.ndarray | None:
        """With a :attr:`side` count, ``out[i, cell]``: the class ``cell`` is accepted when the count is
        ``i * side.step`` (:meth:`~dealer.spec.sidecount.SideCount.masks`); None without one."""
        if self.side is None:
            return None
        cached = self._side_masks.get(seat) if grid is GRID else None
        if cached is None:
            cond = self.feature_condition(seat)
            cached = (np.ones((self.side.size, grid.size), dtype=bool) if cond is None
                      else self.side.masks(cond, seat, grid))
            if grid is GRID:
                self._side_masks[seat] = cached
        return cached

    def accepts(self, seat: Seat, mask: int) -> bool:
        """Whether a whole hand (a 52-bit mask) meets the seat's lengths, shapes, counts and condition.

        Predealt and forbidden cards and holding filters are not looked at.
        """
        hand = CardSet(mask)
        points = self.card_points
        cell = shape_index(hand.shape) * (MAX_HCP + 1) + sum(points[i] for i in range(52) if mask >> i & 1)
        if self.side is not None:
            masks = self.side_masks(seat)
            assert masks is not None
            return bool(masks[self.side.total(mask), cell])
        accepted = self.accepted(seat)
        return accepted is None or bool(accepted[cell])

    @property
    def is_free(self) -> bool:
        """True when only the predeal constrains this seat (it can join the pool)."""
        return (not self.forbidden and not self.lengths and self.shapes is None and self.hcp is None
                and self.condition is None and not self.holdings)


def _check_points(value: tuple[int, ...] | None) -> None:
    if value is not None and not points_fit(value):
        raise ValueError(f"points {value} do not fit the tables: 13 values >= 0 (ace first), at most 10 in a "
                         f"suit and {MAX_HCP} in a hand")


def _check_cards(predeal: CardSet, forbidden: CardSet) -> None:
    if len(predeal) > 13:
        raise ValueError(f"predeal holds {len(predeal)} cards, at most 13 allowed")
    both = predeal & forbidden
    if both:
        raise ValueError(f"cards both predealt and forbidden: {both.to_text()}")


def _check_seats(seats: Mapping[Seat, SeatSpec]) -> None:
    seen = CardSet()
    for seat in Seat:
        ss = seats.get(seat)
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


def _seats(value: Any) -> dict[Seat, SeatSpec]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"seats: expected a mapping of seats to seat specs, got {shown(value)}")
    out = {}
    for key, spec in value.items():
        if not isinstance(key, (Seat, str)):
            raise ValueError(f"seats: expected a seat such as 'N' as a key, got {shown(key)}")
        seat = Seat.parse(key)
        if not isinstance(spec, (SeatSpec, Mapping)):
            raise ValueError(f"seats.{seat.name}: the spec of {seat.name_long} must be a SeatSpec or a mapping, "
                             f"got {shown(spec)}")
        if isinstance(spec, SeatSpec):
            out[seat] = spec
            continue
        try:
            out[seat] = SeatSpec(**dict(spec))
        except SpecError as exc:
            raise ValueError(f"seats.{seat.name}: {str(exc).removeprefix('invalid seat spec: ')}") from None
    return out


def _range(value: Any, what: str, top: int) -> tuple[int, int]:
    """A ``(lo, hi)`` pair (or one int) within ``0..top``, ``lo <= hi``; else the error naming ``what``."""
    if isinstance(value, int) and not isinstance(value, bool):
        lo, hi = value, value
    else:
        try:
            lo, hi = value
        except (TypeError, ValueError):
            raise ValueError(f"expected a (lo, hi) pair, got {value!r}") from None
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (lo, hi)):
            raise ValueError(f"expected integer bounds, got {value!r}")
    if not 0 <= lo <= top or not 0 <= hi <= top:
        raise ValueError(f"{what} must lie in 0..{top}, got ({lo}, {hi})")
    if hi < lo:
        raise ValueError(f"cannot have hi={hi} < lo={lo} for {what}")
    return (lo, hi)


def _fill(spec: SeatSpec, values: Mapping[str, Any]) -> None:
    for name, value in values.items():
        object.__setattr__(spec, name, value)
    object.__setattr__(spec, "_side_masks", {})


def _cards(value: Any) -> CardSet:
    if value is None:
        return CardSet()
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value) if value.strip() else CardSet()
    if isinstance(value, (int, float)):  # a bare number is not a set of cards
        raise ValueError(f"expected cards as text such as 'SAKQ HA' or a CardSet, got {shown(value)}")
    try:
        return CardSet(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"expected cards as text such as 'SAKQ HA' or a CardSet, got {shown(value)}: {exc}") from None


def _mapping(value: Any, what: str) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"expected a mapping of suits to {what}, got {shown(value)}")
    return dict(value)


def _suit(key: Any) -> Suit:
    try:
        return Suit.parse(key)
    except (TypeError, ValueError, KeyError, AttributeError):
        raise ValueError(f"expected a suit such as 'S', got {shown(key)}") from None


def _lengths(value: Any) -> dict[Suit, tuple[int, int]]:
    out: dict[Suit, tuple[int, int]] = {}
    for key, rng in _mapping(value, "(lo, hi) lengths").items():
        suit = _suit(key)
        out[suit] = _range(rng, f"length[{suit.name}]", 13)
    return out


def _hcp(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    return _range(value, "hcp", MAX_HCP)


def _shapes(value: Any) -> ShapeSet | None:
    if value is None or isinstance(value, ShapeSet):
        return value
    if isinstance(value, str):
        return ShapeSet.parse(value)
    try:
        return ShapeSet(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"expected shapes as text such as 'any 4333' or a ShapeSet, got {shown(value)}: "
                         f"{exc}") from None


def _condition(value: Any) -> Cond | None:
    if value is None or isinstance(value, Cond):
        return value
    if isinstance(value, str):
        return parse_condition(value)
    raise ValueError(f"expected a condition (a Cond or its text), got {shown(value)}")


def _holdings(value: Any) -> dict[Suit, Callable[[CardSet], Any]]:
    out = {}
    for key, fn in _mapping(value, "functions of the holding").items():
        if not callable(fn):
            raise ValueError(f"holdings[{key}] must be a function of the holding, got {fn!r}")
        out[_suit(key)] = fn
    return out


def _points(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(f"expected 13 whole numbers, ace first, got {shown(value)}")
    points = tuple(value)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in points):
        raise ValueError(f"expected 13 whole numbers, ace first, got {shown(value)}")
    _check_points(points)
    return points


def _side(value: Any) -> SideCount | None:
    if value is None or isinstance(value, SideCount):
        return value
    raise ValueError(f"expected a SideCount, got {shown(value)}")


_SEAT_CHECKS: dict[str, Callable[[Any], Any]] = {
    "predeal": _cards, "forbidden": _cards, "lengths": _lengths, "shapes": _shapes, "hcp": _hcp,
    "condition": _condition, "holdings": _holdings, "points": _points, "side": _side}


class DealSpec:
    """A spec for whole deals: a :class:`SeatSpec` per constrained seat.

    Build from text in the ``dealer`` language with :meth:`parse`, from plain
    data with :meth:`from_dict`, or directly (``DealSpec(seats={...}, text=...)``). A frozen value.
    """

    seats: dict[Seat, SeatSpec]
    text: str | None

    def __init__(self, *, seats: Any = None, text: Any = None) -> None:
        try:
            checked = _seats(seats)
            if text is not None and not isinstance(text, str):
                raise ValueError(f"text: expected the spec's text or None, got {shown(text)}")
            _check_seats(checked)
        except ValueError as exc:
            raise SpecError(f"invalid deal spec: {exc}") from None
        object.__setattr__(self, "seats", checked)
        object.__setattr__(self, "text", text)

    @classmethod
    def trusted(cls, seats: Mapping[Seat, SeatSpec] | None = None, text: str | None = None) -> "DealSpec":
        """A deal spec from seat specs already built (:meth:`SeatSpec.trusted`), checked only for consistency."""
        seats = dict(seats or {})
        try:
            _check_seats(seats)
        except ValueError as exc:
            raise SpecError(f"invalid deal spec: deal spec: {exc}") from None
        out = cls.__new__(cls)
        object.__setattr__(out, "seats", seats)
        object.__setattr__(out, "text", text)
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealSpec) and (self.seats, self.text) == (other.seats, other.text)

    def __hash__(self) -> int:
        return hash((tuple(self.seats.items()), self.text))

    def __repr__(self) -> str:
        return f"DealSpec(seats={self.seats!r}, text={self.text!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"DealSpec is frozen: cannot assign to {name!r}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "DealSpec":
        """Build from ``{"N": {"hcp": (15, 17), ...}, ...}`` (seats as keys)."""
        return cls(seats=dict(data))

    @classmethod
    def parse(cls, text: str, *, source: str = "<spec>") -> "DealSpec":
        """Parse a spec in the ``dealer`` program's language (see :mod:`dealer.spec.language`)."""
        script = parse_statements(text, source=source)
        return cls.from_conditions(script.conditions, script.predeals, text.strip())

    @classmethod
    def from_conditions(cls, conditions: "list[Cond]", predeals: "Mapping[Seat, tuple[CardSet, Pos]]",
                        text: str = "", *, residual: "list[Cond] | None" = None,
                        counts: Counts = STANDARD, side_counts: bool = True,
                        hcp_seats: "frozenset[Seat]" = frozenset(), cross_sides: bool = False) -> "DealSpec":
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
        suit (``top3(north, spades)``) becomes a filter on that holding. A second whole-hand count
        of a seat that sums a value per suit holding (``losers`` beside ``hcp``...) is the seat's side
        count (:mod:`dealer.spec.sidecount`), unless ``side_counts`` is False. The seats of ``hcp_seats``
        (and those whose HCP a condition across seats reads) keep HCP on their tables' axis: conditions
        across seats read it there (:mod:`dealer.spec.cross`). With ``cross_sides`` (and side counts), the side
        counts also carry what the residual's conditions across seats read of each seat beside its shape and
        HCP, while the totals fit, so that the seats' labels can count them.
        """
        parts = split_conditions(conditions, predeals, residual, counts, side_counts, hcp_seats, cross_sides)
        seats = {}
        for seat, p in parts.items():
            try:
                seats[seat] = SeatSpec.trusted(predeal=p.predeal, forbidden=p.forbidden, condition=p.condition,
                                               holdings=dict(p.holdings), points=p.points, side=p.side)
            except SpecError as exc:
                where = predeals[seat][1] if seat in predeals else (p.condition.pos if p.condition else Pos())
                raise SpecError(f"{where}: {seat.name_long}: "
                                f"{str(exc).removeprefix('invalid seat spec: seat spec: ')}") from None
        check_predeals(predeals)  # a card predealt to two seats, named where the second predeal is
        return DealSpec.trusted(seats, text)

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


def _fn_name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", type(fn).__name__)


_EMPTY = SeatSpec.trusted()
