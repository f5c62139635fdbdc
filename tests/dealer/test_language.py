"""The dealer-program spec language: what parses, how it splits by seat, and the errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import ImpossibleSpecError, Seat, SpecSyntaxError, Suit, UnsupportedSpecError
from dealer.tables.exact import ExactDealer
from dealer.spec.language import parse_condition, parse_script, parse_spec
from dealer.cards.shapes import ShapeSet
from dealer.spec.spec import DealSpec, SeatSpec
from tests.strategies import examples


def count(text: str) -> int:
    return ExactDealer(DealSpec.parse(text)).count()


@pytest.mark.parametrize("a,b", [
    ("spades(west) == 9 and shape(east, xx66)", "spades(west) == 9 && shape(east, xx66)"),
    ("not (hcp(north) < 10) && (hearts(north) >= 5 or spades(north) >= 5)",
     "hcp(north) >= 10 && (hearts(north) >= 5 || spades(north) >= 5)"),
    ("hcp(north) + 2 * spades(north) >= 20", "2 * spades(north) + hcp(north) - 20 >= 0"),
    ("shape(north, any 5332 + 9xxx - any 4333)", "shape(north, 9xxx + any 5332)"),
    ("shape(south, any 4441 - 4441)", "shape(south, 1444 + 4144 + 4414)"),
    ("hascard(north, AS) && !hascard(south, 2c)", "hascard(n, SA) && !hascard(s, C2)"),
    ("condition 1 && hcp(east) > 30", "hcp(east) >= 31"),
])
def test_equivalent_spellings_count_the_same(a: str, b: str) -> None:
    assert count(a) == count(b)


def test_script_with_definitions_and_statements() -> None:
    script = parse_script("""
        # weak two in hearts opposite a balanced opener
        generate 100000
        produce 7
        dealer south
        predeal north SAKQ,HAK
        weak2 = hearts(south) == 6 && hcp(south) >= 5 && hcp(south) <= 10
        condition
            weak2 &&
            shape(north, any 4333 + any 4432 + any 5332)  // balanced
        action printall
    """)
    assert script.produce == 7 and script.generate == 100000 and script.dealer is Seat.S
    assert script.actions == ["printall"]
    north = script.spec.seat(Seat.N)
    assert north.predeal.to_text() == "SAKQ HAK"
    assert set(script.spec.seats) == {Seat.N, Seat.S}
    assert ExactDealer(script.spec).count() > 0


def test_splitting_by_seat() -> None:
    spec = parse_spec("hcp(north) >= 12 && hascard(north, SA) && !hascard(east, HK) && hcp(south, clubs) >= 4")
    assert spec.seat(Seat.N).predeal.to_text() == "SA"
    assert spec.seat(Seat.E).forbidden.to_text() == "HK"
    assert set(spec.seat(Seat.S).holdings) == {Suit.C}
    assert spec.seat(Seat.W) == SeatSpec()


def test_suit_hcp_filter_counts() -> None:
    """hcp(north, clubs) >= 7: clubs holding with A+K or better (AK, AQJ, AKx, ...)."""
    via_filter = count("hcp(north, clubs) >= 7")
    via_cards = (count("hascard(north, CA) && hascard(north, CK)")
                 + count("hascard(north, CA) && !hascard(north, CK) && hascard(north, CQ) && hascard(north, CJ)"))
    assert via_filter == via_cards


@pytest.mark.parametrize("text,line,column,fragment", [
    ("spades(west) >= ", 1, 17, "expected a number"),
    ("hcp(nort) > 3", 1, 5, "expected a seat"),
    ("hcp(north) > 1 ? 2", 1, 19, "expected ':'"),
    ("spades(north) >= 5 ; hearts(north) > 2", 1, 20, "';' (statements need no separator)"),
    ("/* unclosed\nhcp(north) > 3", 1, 1, "never closed with '*/'"),
    ('action average "hcp hcp(north)', 1, 16, "quoted string that is never closed"),
    ("shape(north, any 533)", 1, 14, "invalid shape pattern 'any 533'"),
    ("shape(north, 5555)", 1, 14, "cannot add up to 13"),
    ("spades(west) == 9 &&\n  bogus(east) > 1", 2, 3, "unknown function 'bogus'"),
    ("predeal north SAKZ\ncondition hcp(north) > 1", 1, 15, "'Z' is not a rank"),
    ("hcp(north) > 10 )", 1, 17, "unexpected ')'"),
    ("hcp(north) @ 3", 1, 12, "unexpected character '@'"),
    ("hascard(north, XX)", 1, 16, "invalid card 'XX'"),
    ("(hcp(north) > 3", 1, 16, "expected ')'"),
    ("opener > 3", 1, 1, "unknown name 'opener'"),
])
def test_syntax_errors_name_line_and_column(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(SpecSyntaxError) as info:
        parse_spec(text, source="my.dl")
    err = info.value
    assert (err.line, err.column) == (line, column), str(err)
    assert fragment in str(err)
    assert str(err).startswith(f"my.dl:{line}:{column}:")
    assert isinstance(err, ValueError)


@pytest.mark.parametrize("text,fragment", [
    ("spades(west) >= 5 || hearts(east) >= 5", "an '||' that joins east and west"),
    ("hcp(north) + hcp(south) >= 25", "relates north and south"),
    ("!(spades(north) > 3 && hearts(south) > 4)", "'||' in disguise"),
    ("hascard(north, AS) || quality(north, spades) > 400", "quality(north, spades) > 400: the exact tables hold"),
    ("controls(north) > 2 && hcp(north) > 12 && quality(north, hearts) > 400", "quality(north, hearts) > 400: the exact tables hold"),
])
def test_unsupported_specs_are_refused_with_the_reason(text: str, fragment: str) -> None:
    with pytest.raises(UnsupportedSpecError) as info:
        parse_spec(text)
    assert fragment in str(info.value)


def test_constant_false_is_impossible() -> None:
    with pytest.raises(ImpossibleSpecError, match="never true"):
        parse_spec("0")
    with pytest.raises(ImpossibleSpecError):
        parse_spec("hcp(north) > 3 && 1 > 2")


def test_str_round_trips() -> None:
    for text in ["spades(west) == 9 && shape(east, xx66)",
                 "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)",
                 "(hearts(south) >= 5 || spades(south) >= 5) && !(hcp(south) > 11)"]:
        spec = parse_spec(text)
        assert ExactDealer(parse_spec(str(spec))).count() == ExactDealer(spec).count()


def test_parse_condition_keeps_all_seats() -> None:
    cond = parse_condition("hcp(north) + hcp(south) >= 25")
    assert {s.name for s in cond.seats()} == {"N", "S"}


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from("0123456789x"), min_size=4, max_size=4), st.booleans())
def test_a_pattern_stands_for_the_shapes_its_definition_says(chars: list[str], any_order: bool) -> None:
    """``5332``, ``xx6x``, ``any 4xxx``: every shape whose lengths are the digits where the pattern (or, with
    ``any``, one of its orders) has them, checked against all 560 shapes."""
    import itertools

    from dealer.cards.shapes import ALL_SHAPES

    pattern = "".join(chars)
    digits = [int(c) for c in chars if c != "x"]
    if sum(digits) > 13 or ("x" not in chars and sum(digits) != 13):
        with pytest.raises(SpecSyntaxError):
            ShapeSet.parse(("any " if any_order else "") + pattern)
        return
    orders = set(itertools.permutations(chars)) if any_order else {tuple(chars)}
    wanted = {shape for shape in ALL_SHAPES
              if any(all(c == "x" or int(c) == n for c, n in zip(order, shape)) for order in orders)}
    assert set(ShapeSet.parse(("any " if any_order else "") + pattern)) == wanted


def test_shape_set_algebra() -> None:
    flat = ShapeSet.parse("any 4333 + any 4432 + any 5332")
    assert len(flat) == 4 + 12 + 12
    assert ShapeSet.parse("xxxx") == ShapeSet.parse("any xxxx") and len(ShapeSet.parse("xxxx")) == 560
    assert (flat - ShapeSet.parse("any 4333")) == ShapeSet.parse("any 4432 + any 5332")
