"""The one expression language: one tree, one parser, two dialects (dealer specs and claims)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.errors import SpecSyntaxError
from dealer.tables.exact import ExactDealer
from dealer.lang.expr import LONG_NAMES, SHORT_NAMES, And, Compare, Const, Length, Not, Xor, walk
from dealer.lang.grid import GRID, grid_mask
from dealer.cards.seat import Seat
from dealer.spec.spec import DealSpec
from dealer.cards.suit import Suit
from dealer.lang.statements import parse_statements
from dealer.lang.syntax import MAX_DEPTH, SPEC_DIALECT, parse_condition, parse_expression
from inference.claims.language import claim_text, parse_claim
from tests.strategies import examples


def test_xor_in_specs_counts_exactly_one() -> None:
    """``^^`` (new to specs) is exactly-one: the count is |A| + |B| - 2|A and B| on one seat."""
    a, b = "spades(north) >= 5", "hcp(north) >= 12"
    count = {t: ExactDealer(DealSpec.parse(t)).count() for t in (a, b, f"{a} && {b}", f"{a} ^^ {b}")}
    assert count[f"{a} ^^ {b}"] == count[a] + count[b] - 2 * count[f"{a} && {b}"]
    assert isinstance(parse_condition(f"{a} xor {b}"), Xor)


def test_shape_and_xor_work_in_both_layers() -> None:
    spec = parse_condition("shape(west, any 4333) ^^ hearts(west) >= 5")
    claim = parse_claim("shape(LHO, any 4333) ^^ hearts(LHO) >= 5", viewer="S")
    assert spec == claim  # one tree: the same nodes, whichever layer parsed them
    assert str(spec) == "shape(west, any 4333) ^^ hearts(west) >= 5"
    assert claim_text(claim) == "shape(W, any 4333) ^^ hearts(W) >= 5"


def test_every_base_function_parses_in_both_dialects() -> None:
    for text in ["spades(N) >= 1", "length(N, hearts) == 2", "hcp(N) > 3", "hcp(N, clubs) >= 4",
                 "shape(N, 4333)", "hascard(N, SA)", "true", "!(hcp(N) > 3) || hcp(N) < 2"]:
        spec = parse_condition(text)
        assert parse_claim(text, viewer="S") == spec, text


def test_claim_only_functions_are_refused_in_specs() -> None:
    with pytest.raises(SpecSyntaxError, match="unknown function 'rank'"):
        parse_condition("rank(north, SA) == 1")
    with pytest.raises(SpecSyntaxError, match="expected a seat"):
        parse_condition("hcp(LHO) > 3")


def test_nesting_beyond_the_limit_is_a_syntax_error_with_its_place() -> None:
    deep = "(" * (MAX_DEPTH + 1) + "hcp(north) > 3" + ")" * (MAX_DEPTH + 1)
    with pytest.raises(SpecSyntaxError, match="nested more than") as info:
        parse_condition(deep)
    assert (info.value.line, info.value.column) == (1, MAX_DEPTH + 1)
    ok = "(" * MAX_DEPTH + "hcp(north) > 3" + ")" * MAX_DEPTH
    assert parse_condition(ok) == parse_condition("hcp(north) > 3")
    with pytest.raises(SpecSyntaxError, match="nested more than"):
        parse_condition("!" * (MAX_DEPTH + 1) + "hcp(north) > 3")


def test_long_conjunctions_parse_flat_and_positions_stay_exact() -> None:
    """20,000 terms over 20,000 lines: one flat And, and an error on the last line is located exactly."""
    terms = [f"hcp(north) >= {i % 20}" for i in range(20_000)]
    cond = parse_condition(" &&\n".join(terms))
    assert isinstance(cond, And) and len(cond.items) == 20_000
    assert sum(1 for _ in walk(cond)) > 60_000  # no recursion limit in walking either
    with pytest.raises(SpecSyntaxError) as info:
        parse_condition(" &&\n".join(terms + ["hcp(north) >= "]))
    assert (info.value.line, info.value.column) == (20_001, 15)


def test_huge_numbers_are_refused_with_their_place() -> None:
    with pytest.raises(SpecSyntaxError, match="too large") as info:
        parse_condition("hcp(north) >= 99999999999999999999")
    assert info.value.column == 15


def test_statements_keep_definitions_and_predeals() -> None:
    script = parse_statements("predeal north SAKQ\npredeal north HA\nlong = spades(south) >= 6\n"
                              "condition long && hcp(south) < 10\nproduce 7\n")
    assert script.produce == 7
    assert str(script.predeals[Seat.N][0]) == "AKQ.A.."
    assert str(script.conditions[0]) == "spades(south) >= 6 && hcp(south) < 10"


def test_printing_names_seats_either_way() -> None:
    node = Not(And((Compare(">", Length(Seat.E, Suit.H), Const(3)), Compare("<", Length(Seat.E, Suit.S), Const(2)))))
    assert node.text(LONG_NAMES) == "!(hearts(east) > 3 && spades(east) < 2)"
    assert node.text(SHORT_NAMES) == "!(hearts(E) > 3 && spades(E) < 2)"


_ATOMS = st.sampled_from(["spades(north) >= 4", "hcp(north) <= 12", "shape(north, any 4432)", "hearts(north) == 0",
                          "hcp(north) + 2 * spades(north) >= 14", "1", "0"])


@st.composite
def conditions(draw: st.DrawFn, depth: int = 3) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(_ATOMS)
    op = draw(st.sampled_from(["&&", "||", "^^"]))
    text = f"({draw(conditions(depth - 1))}) {op} ({draw(conditions(depth - 1))})"
    return f"!({text})" if draw(st.booleans()) else text


@settings(max_examples=examples(60), deadline=None)
@given(conditions())
def test_text_round_trips_to_the_same_meaning(text: str) -> None:
    """str() of a parsed condition parses back to a condition true on exactly the same classes."""
    cond = parse_expression(text, SPEC_DIALECT)
    if isinstance(cond, Const):
        return
    again = parse_condition(str(cond))
    assert (grid_mask(cond, GRID) == grid_mask(again, GRID)).all(), (text, str(cond))  # type: ignore[arg-type]
