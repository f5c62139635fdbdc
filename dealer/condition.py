"""Conditions on hands: the abstract syntax of the spec language.

Expressions are integers (a seat's length in a suit, its HCP, constants,
``+ - *``); conditions are comparisons, shape tests, specific cards and the
boolean connectives. Every node knows the seats it mentions, so a spec can be
split into one condition per seat, and renders back to the ``dealer``
program's language with ``str()``.

A condition on one seat evaluates, vectorised with numpy, over the whole
:class:`FeatureGrid` (every shape with every HCP total); that is how a spec
becomes the exact set of (shape, HCP) classes each seat may be dealt.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterator

import numpy as np

from .card import Card
from .seat import Seat
from .shapes import ALL_SHAPES, ShapeSet
from .suit import Suit

__all__ = [
    "Pos", "Expr", "Const", "Length", "Hcp", "SuitHcp", "Arith",
    "Cond", "Always", "Compare", "ShapeIn", "HasCard", "And", "Or", "Not",
    "FeatureGrid", "GRID", "MAX_HCP",
]

#: The most HCP one hand can hold (AKQJ AKQ AKQ AKQ).
MAX_HCP = 37


@dataclass(frozen=True)
class Pos:
    """Where a node came from: ``source`` name, 1-based line and column."""

    source: str = "<spec>"
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"


class FeatureGrid:
    """Every (shape, HCP) class of a 13-card hand: 560 shapes x 38 totals.

    ``lengths[s]`` and ``hcp`` are flat int arrays over the grid; a condition
    on one seat evaluates to a boolean array of the same size.
    """

    def __init__(self) -> None:
        shapes = np.array(ALL_SHAPES, dtype=np.int16)  # (560, 4)
        n_h = MAX_HCP + 1
        self.n_shapes = len(ALL_SHAPES)
        self.n_hcp = n_h
        self.lengths = tuple(np.repeat(shapes[:, s], n_h) for s in range(4))
        self.hcp = np.tile(np.arange(n_h, dtype=np.int16), self.n_shapes)
        self.shape_index = np.repeat(np.arange(self.n_shapes), n_h)
        self.size = self.n_shapes * n_h


GRID = FeatureGrid()


# -- expressions -------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    """An integer-valued expression over hands."""

    pos: Pos = field(default=Pos(), compare=False, kw_only=True)

    def seats(self) -> frozenset[Seat]:
        return frozenset()

    def values(self, grid: FeatureGrid) -> np.ndarray:
        raise NotImplementedError

    def walk(self) -> Iterator["Expr | Cond"]:
        yield self


@dataclass(frozen=True)
class Const(Expr):
    value: int

    def values(self, grid: FeatureGrid) -> np.ndarray:
        return np.full(grid.size, self.value, dtype=np.int32)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Length(Expr):
    """``spades(north)``: the seat's dealt length in the suit."""

    seat: Seat
    suit: Suit

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def values(self, grid: FeatureGrid) -> np.ndarray:
        return grid.lengths[self.suit].astype(np.int32)

    def __str__(self) -> str:
        return f"{self.suit.name_long}({self.seat.name_long})"


@dataclass(frozen=True)
class Hcp(Expr):
    """``hcp(north)``: the seat's dealt high-card points."""

    seat: Seat

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def values(self, grid: FeatureGrid) -> np.ndarray:
        return grid.hcp.astype(np.int32)

    def __str__(self) -> str:
        return f"hcp({self.seat.name_long})"


@dataclass(frozen=True)
class SuitHcp(Expr):
    """``hcp(north, spades)``: HCP in one suit; dealt exactly only as a filter on that suit's holding."""

    seat: Seat
    suit: Suit

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def values(self, grid: FeatureGrid) -> np.ndarray:
        raise TypeError("hcp(seat, suit) is not a shape/HCP feature")

    def __str__(self) -> str:
        return f"hcp({self.seat.name_long}, {self.suit.name_long})"


_ARITH: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
}


@dataclass(frozen=True)
class Arith(Expr):
    op: str
    left: Expr
    right: Expr

    def seats(self) -> frozenset[Seat]:
        return self.left.seats() | self.right.seats()

    def values(self, grid: FeatureGrid) -> np.ndarray:
        return _ARITH[self.op](self.left.values(grid), self.right.values(grid))

    def walk(self) -> Iterator["Expr | Cond"]:
        yield self
        yield from self.left.walk()
        yield from self.right.walk()

    def __str__(self) -> str:
        return f"({self.left} {self.op} {self.right})"


# -- conditions --------------------------------------------------------------

@dataclass(frozen=True)
class Cond:
    """A true/false condition over hands."""

    pos: Pos = field(default=Pos(), compare=False, kw_only=True)

    def seats(self) -> frozenset[Seat]:
        return frozenset()

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        """Where on the grid the condition holds (one seat's condition only)."""
        raise NotImplementedError

    def walk(self) -> Iterator["Expr | Cond"]:
        yield self


@dataclass(frozen=True)
class Always(Cond):
    value: bool = True

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        return np.full(grid.size, self.value, dtype=bool)

    def __str__(self) -> str:
        return "1" if self.value else "0"


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}


@dataclass(frozen=True)
class Compare(Cond):
    op: str
    left: Expr
    right: Expr

    OPS: ClassVar[tuple[str, ...]] = tuple(_COMPARE)

    def seats(self) -> frozenset[Seat]:
        return self.left.seats() | self.right.seats()

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        return np.asarray(_COMPARE[self.op](self.left.values(grid), self.right.values(grid)), dtype=bool)

    def walk(self) -> Iterator["Expr | Cond"]:
        yield self
        yield from self.left.walk()
        yield from self.right.walk()

    def evaluate(self, left: int, right: int) -> bool:
        return bool(_COMPARE[self.op](left, right))

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class ShapeIn(Cond):
    """``shape(north, any 5332)``."""

    seat: Seat
    shapes: ShapeSet

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        ok = np.array([s in self.shapes for s in ALL_SHAPES], dtype=bool)
        return ok[grid.shape_index]

    def __str__(self) -> str:
        return f"shape({self.seat.name_long}, {self.shapes})"


@dataclass(frozen=True)
class HasCard(Cond):
    """``hascard(north, SA)``: the seat was dealt this card."""

    seat: Seat
    card: Card

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        raise TypeError("hascard(seat, card) is not a shape/HCP feature")

    def __str__(self) -> str:
        return f"hascard({self.seat.name_long}, {self.card})"


@dataclass(frozen=True)
class And(Cond):
    items: tuple[Cond, ...]

    def seats(self) -> frozenset[Seat]:
        return frozenset().union(*(c.seats() for c in self.items))

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        out = np.ones(grid.size, dtype=bool)
        for c in self.items:
            out &= c.mask(grid)
        return out

    def walk(self) -> Iterator["Expr | Cond"]:
        yield self
        for c in self.items:
            yield from c.walk()

    def __str__(self) -> str:
        return " && ".join(_paren(c, Or) for c in self.items)


@dataclass(frozen=True)
class Or(Cond):
    items: tuple[Cond, ...]

    def seats(self) -> frozenset[Seat]:
        return frozenset().union(*(c.seats() for c in self.items))

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        out = np.zeros(grid.size, dtype=bool)
        for c in self.items:
            out |= c.mask(grid)
        return out

    def walk(self) -> Iterator["Expr | Cond"]:
        yield self
        for c in self.items:
            yield from c.walk()

    def __str__(self) -> str:
        return " || ".join(_paren(c, And) for c in self.items)


@dataclass(frozen=True)
class Not(Cond):
    item: Cond

    def seats(self) -> frozenset[Seat]:
        return self.item.seats()

    def mask(self, grid: FeatureGrid) -> np.ndarray:
        return ~self.item.mask(grid)

    def walk(self) -> Iterator["Expr | Cond"]:
        yield self
        yield from self.item.walk()

    def __str__(self) -> str:
        inner = str(self.item)
        return f"!({inner})" if isinstance(self.item, (And, Or, Compare)) else f"!{inner}"


def _paren(c: Cond, weaker: type) -> str:
    """``c`` as an operand of a connective: compound operands get parentheses."""
    return f"({c})" if isinstance(c, (And, Or)) else str(c)
