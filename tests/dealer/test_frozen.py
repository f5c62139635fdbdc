"""dealer.lang.frozen: the syntax tree's value classes behave as ``@dataclass(frozen=True)`` would make them."""

from __future__ import annotations

import dataclasses
import inspect
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.cards.seat import Seat
from dealer.cards.suit import Suit
from dealer.lang.expr import And, Compare, Const, Length, Or, Pos
from dealer.lang.frozen import fields, frozen, replace
from tests.strategies import examples


@frozen
class Base:
    """A class with a keyword-only field that equality ignores, as the syntax tree's ``pos``."""

    where: str = dataclasses.field(default="here", compare=False, repr=False, kw_only=True)
    counted: ClassVar[int] = 0


@frozen
class Pair(Base):
    """Two fields, the second with a default."""

    first: int
    second: tuple[int, ...] = ()


@frozen
class Wider(Pair):
    """A field of the base given a default again, and one more."""

    first: int = 7
    third: str = "x"


@frozen
class Twin(Base):
    """The same fields as :class:`Pair`, another class."""

    first: int
    second: tuple[int, ...] = ()


@frozen
class Spoken(Base):
    """A class with its own ``repr``."""

    value: int

    def __repr__(self) -> str:
        return f"<{self.value}>"


@frozen
class Normalised(Base):
    """A class with a ``__post_init__``."""

    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError(f"negative {self.value}")


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(), st.lists(st.integers(), max_size=3).map(tuple), st.text(max_size=3), st.text(max_size=3))
def test_equality_and_hash_read_the_compared_fields_of_one_class(first: int, second: tuple[int, ...], a: str,
                                                               b: str) -> None:
    one, two = Pair(first, second, where=a), Pair(first=first, second=second, where=b)
    assert one == two and hash(one) == hash(two)  # where is not compared
    assert one != Pair(first + 1, second) and one != Twin(first, second)  # nor is another class equal
    assert repr(one) == f"Pair(first={first!r}, second={second!r})"
    assert (one.first, one.second, one.where) == (first, second, a)
    assert replace(one, second=(1,)) == Pair(first, (1,)) and replace(one, second=(1,)).where == a
    assert type(replace(Wider(first), third="y")) is Wider


def test_values_are_frozen_and_the_constructor_checks_its_arguments() -> None:
    p = Pair(1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="first"):
        p.first = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="first"):
        del p.first
    for call, message in ((lambda: Pair(), "missing required argument: 'first'"),
                          (lambda: Pair(1, (), 3), "takes 2 positional arguments but 3"),
                          (lambda: Pair(1, first=2), "multiple values for argument 'first'"),
                          (lambda: Pair(1, third=2), "unexpected argument 'third'"),
                          (lambda: replace(p, third=1), "no field 'third'")):
        with pytest.raises(TypeError, match=message):
            call()
    with pytest.raises(ValueError, match="negative -1"):
        Normalised(-1)
    with pytest.raises(TypeError, match="Listed.items: a frozen value's fields take a default, not a factory"):
        @frozen
        class Listed:
            items: list[int] = dataclasses.field(default_factory=list)
    assert repr(Spoken(3)) == "<3>" and Spoken(3) == Spoken(3)


def test_fields_order_defaults_and_signature_are_the_dataclass_ones() -> None:
    assert fields(Pair) == ("where", "first", "second") and fields(Wider(1)) == ("where", "first", "second", "third")
    assert "counted" not in fields(Base)
    w = Wider()
    assert (w.first, w.second, w.third, w.where) == (7, (), "x", "here")
    assert Wider(1, (2,), "z") == Wider(first=1, second=(2,), third="z")
    assert str(inspect.signature(Wider)) == (
        "(first: int = 7, second: tuple[int, ...] = (), third: str = 'x', *, where: str = 'here')")
    match Pair(4, (5,)):
        case Pair(a, b):
            assert (a, b) == (4, (5,))


def test_syntax_tree_nodes_are_equal_wherever_they_were_written() -> None:
    here, there = Pos("a.dl", 1, 2), Pos("b.dl", 3, 4)
    spades = Compare(">=", Length(Seat.N, Suit.S, pos=here), Const(5, pos=here), pos=here)
    again = Compare(">=", Length(Seat.N, Suit.S, pos=there), Const(5, pos=there), pos=there)
    assert spades == again and hash(spades) == hash(again) and spades.pos == here
    assert And((spades,)) != Or((spades,)) and len({And((spades,)), And((again,))}) == 1
    assert str(replace(spades, right=Const(6))) == "spades(north) >= 6"
