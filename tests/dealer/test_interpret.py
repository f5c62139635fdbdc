"""dealer.lang.interpret: one interpreter of the tree, whatever its leaves are read over.

The structure is checked against a brute force in plain Python ints (C division, the IMP scale,
``^^`` as exactly one) on random deals; the readers are checked against each other: a condition on
one seat gets the same verdict from the grid (the deal's (shape, HCP) class), from its holding (a
condition on one suit) and from the joint labels (across seats) as from the deals themselves; and a
node that nobody reads is refused by each reader in its own words, through the one refusal.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dealer.cards.seat import Seat
from dealer.cards.shapes import shape_index
from dealer.cards.cardset import CardSet
from dealer.errors import UnsupportedSpecError
from dealer.lang.evaluate import evaluate
from dealer.lang.expr import (
    LONG_NAMES, Always, And, Arith, Compare, Const, Expr, Hcp, Imps, Node, Not, Or, Score, SeatNames, Ternary, Truth,
    Xor,
)
from dealer.lang.grid import GRID, MAX_HCP, grid_mask, grid_values
from dealer.lang.interpret import STRUCTURAL, Interpreter, Reader, interpret, refusal, shared_nodes
from dealer.lang.syntax import SPEC_DIALECT, parse_condition, parse_expression
from dealer.spec.cross import CrossCondition
from dealer.spec.splitting import holding_values
from dealer.spec.spec import DealSpec
from dealer.tables.exact import ExactDealer
from dealer.lang.frozen import frozen
from tests.dealer.oracle import deal_value
from tests.strategies import examples

DEALS = ExactDealer(DealSpec()).sample_masks(300, 2028)
HANDS = [[int(m) for m in row] for row in DEALS.tolist()]
_IMPS = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250,
         2500, 3000, 3500, 4000]


def brute(node: Node, hands: Sequence[int]) -> int:
    """``node`` on four hands, in Python ints: the structure here, the leaves by the test oracle."""
    def v(n: Node) -> int:
        return brute(n, hands)
    if isinstance(node, Always):
        return int(node.value)
    if isinstance(node, Arith) and node.op in "/%":
        a, b = v(node.left), v(node.right)
        if b == 0:
            return 0
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return q if node.op == "/" else a - q * b
    if isinstance(node, Arith):
        return deal_value(Arith(node.op, Const(v(node.left)), Const(v(node.right))), hands)
    if isinstance(node, Compare):
        return deal_value(Compare(node.op, Const(v(node.left)), Const(v(node.right))), hands)
    if isinstance(node, (And, Or, Xor)):
        held = [bool(v(x)) for x in node.items]
        return int(all(held) if isinstance(node, And) else any(held) if isinstance(node, Or) else sum(held) == 1)
    if isinstance(node, Not):
        return int(not v(node.item))
    if isinstance(node, Truth):
        return int(bool(v(node.item)))
    if isinstance(node, Ternary):
        return v(node.then) if v(node.test) else v(node.other)
    if isinstance(node, Imps):
        d = v(node.item)
        return (1 if d > 0 else -1) * sum(abs(d) >= step for step in _IMPS)
    return deal_value(node, hands)


def _structure(numbers: st.SearchStrategy[str], atoms: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Conditions over ``numbers`` (texts of expressions) and ``atoms`` (texts of conditions), every structural
    construct of the language in reach."""
    consts = st.integers(-3, 12).map(str)
    number = st.recursive(st.one_of(numbers, consts), lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from("+-*/%"), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from("01")).map(lambda t: f"imps({t[0]} * 10 - {t[1]})")), max_leaves=4)
    compare = st.tuples(number, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), number).map(" ".join)
    leaf = st.one_of(atoms, compare, st.sampled_from(["1", "0"]))
    return st.recursive(leaf, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["&&", "||", "^^"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"!({x})"),
        st.tuples(inner, number, number, number).map(lambda t: f"(({t[0]}) ? {t[1]} : {t[2]}) > {t[3]}"),
        st.tuples(inner, number).map(lambda t: f"({t[0]}) + {t[1]} >= 2")), max_leaves=6)


SEAT_NUMBERS = st.sampled_from(["hcp(north)", "spades(north)", "hearts(north)", "clubs(north)"])
SEAT_ATOMS = st.sampled_from(["shape(north, any 4333 + any 5332)", "shape(north, 5xxx + x5xx)", "hcp(north) >= 12"])
SUIT_NUMBERS = st.sampled_from(["hcp(north, spades)", "top3(north, spades)", "spades(north)",
                                "controls(north, spades)"])
SUIT_ATOMS = st.sampled_from(["hascard(north, SA)", "hascard(north, S2)", "!hascard(north, SQ)"])
CROSS_NUMBERS = st.sampled_from(["hcp(north)", "hcp(south)", "spades(north)", "spades(south)"])
CROSS_ATOMS = st.sampled_from(["shape(south, any 4333)", "hcp(north) > hcp(south)"])
DEAL_NUMBERS = st.sampled_from(["hcp(west)", "losers(east)", "hcp(east, clubs)", "diamonds(south)", "top2(west)"])
DEAL_ATOMS = st.sampled_from(["hascard(east, HK)", "shape(west, any 4432)", "hcp(north) + hcp(south) > 20"])


@settings(max_examples=examples(120), deadline=None)
@given(_structure(DEAL_NUMBERS, DEAL_ATOMS))
def test_the_deal_reader_agrees_with_brute_force(text: str) -> None:
    cond = parse_condition(text)
    got = evaluate(cond, DEALS)
    assert got.dtype == np.int64 and got.shape == (len(DEALS),) and set(np.unique(got)) <= {0, 1}
    assert got.tolist() == [brute(cond, hands) for hands in HANDS], text


@settings(max_examples=examples(60), deadline=None)
@given(st.recursive(st.one_of(DEAL_NUMBERS, st.integers(-5, 40).map(str)), lambda inner: st.tuples(
    inner, st.sampled_from("+-*/%"), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"), max_leaves=5))
def test_expressions_on_deals_agree_with_brute_force(text: str) -> None:
    expr = parse_expression(text, SPEC_DIALECT)
    got = evaluate(expr, DEALS)
    assert got.dtype == np.int64 and got.tolist() == [brute(expr, hands) for hands in HANDS], text


def _cell(mask: int) -> int:
    hand = CardSet(mask)
    return shape_index(hand.shape) * (MAX_HCP + 1) + hand.hcp


@settings(max_examples=examples(120), deadline=None)
@given(_structure(SEAT_NUMBERS, SEAT_ATOMS))
def test_the_grid_and_the_deals_agree_on_a_condition_on_one_seat(text: str) -> None:
    """The grid's verdict on the class each deal's North falls into is the deal's verdict."""
    cond = parse_condition(text)
    mask = grid_mask(cond, GRID)
    assert mask.dtype == np.bool_ and mask.shape == (GRID.size,)
    cells = [_cell(hands[Seat.N]) for hands in HANDS]
    assert mask[cells].tolist() == (evaluate(cond, DEALS) != 0).tolist(), text


@settings(max_examples=examples(120), deadline=None)
@given(_structure(SUIT_NUMBERS, SUIT_ATOMS))
def test_the_holdings_and_the_deals_agree_on_a_condition_on_one_suit(text: str) -> None:
    """The holding table's verdict on North's spades in each deal is the deal's verdict."""
    cond = parse_condition(text)
    values = holding_values(cond)
    assert values.dtype == np.int64 and values.shape == (8192,)
    spades = [hands[Seat.N] & 0x1FFF for hands in HANDS]
    assert (values[spades] != 0).tolist() == (evaluate(cond, DEALS) != 0).tolist(), text


@settings(max_examples=examples(80), deadline=None)
@given(_structure(CROSS_NUMBERS, CROSS_ATOMS))
def test_the_joint_labels_and_the_deals_agree_on_a_condition_across_seats(text: str) -> None:
    """Each deal's verdict is the joint acceptance at the labels of its seats' classes."""
    cond = parse_condition(text)
    joint = CrossCondition.build([cond])
    want = (evaluate(cond, DEALS) != 0).tolist()
    for hands, ok in zip(HANDS, want):
        labels = tuple(joint.label_of(seat, _cell(hands[seat])) for seat in joint.seats)
        assert (min(labels, default=0) >= 0 and bool(joint.accept[labels])) == ok, text


def test_one_seats_values_agree_between_the_grid_and_the_deals() -> None:
    expr = parse_expression("hcp(north) * 3 / 2 - spades(north) % 3 + imps(hcp(north) * 100)", SPEC_DIALECT)
    assert isinstance(expr, Expr)
    values = grid_values(expr, GRID)
    assert values.dtype == np.int64
    assert values[[_cell(hands[Seat.N]) for hands in HANDS]].tolist() == evaluate(expr, DEALS).tolist()


# -- refusals: one message, each reader's own words -------------------------------------------------------

@frozen
class Mystery(Expr):
    """A node no reader reads."""

    seat: Seat

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"mystery({names(self.seat)})"


def _mystery_over_five() -> Compare:
    return Compare(">", Arith("+", Mystery(Seat.N), Hcp(Seat.S)), Const(5))


@pytest.mark.parametrize(("run", "phrase"), [
    (lambda c: evaluate(c, DEALS), "cannot be evaluated on deals"),
    (lambda c: grid_mask(c, GRID), "is not a shape or HCP feature of one seat"),
    (lambda c: holding_values(c), "does not read one suit's holding"),
    (lambda c: CrossCondition.build([c]), "is not a shape or HCP feature of one seat"),
])
def test_each_reader_refuses_what_nobody_reads_in_its_own_words(run: Any, phrase: str) -> None:
    cond = _mystery_over_five()
    with pytest.raises(UnsupportedSpecError) as caught:
        run(cond)
    assert str(caught.value) == f"<spec>:1:1: mystery(north) {phrase}"


def test_the_refusal_names_the_place_and_the_node() -> None:
    cond = parse_condition("hcp(north) > 3 && hascard(north, SA)")
    with pytest.raises(UnsupportedSpecError, match=r"^<condition>:1:19: hascard\(north, SA\) is not a shape or HCP "
                                                   r"feature of one seat$"):
        grid_mask(cond, GRID)
    with pytest.raises(UnsupportedSpecError, match=r"^<condition>:1:1: hcp\(north\) does not read one suit's holding$"):
        holding_values(cond)
    assert str(refusal(cond, Reader())) == "<condition>:1:1: hcp(north) > 3 && hascard(north, SA) cannot be evaluated"


# -- the interpreter itself ------------------------------------------------------------------------------

class _Counting(Reader):
    """Reads ``hcp`` of any seat as 0..4, and counts what it is asked."""

    phrase = "is not read by the counting reader"
    shape = (5,)

    def __init__(self, given: dict[int, np.ndarray] | None = None) -> None:
        self.asked: list[str] = []
        self.given = given or {}

    def read(self, node: Node, run: Interpreter) -> np.ndarray | None:
        self.asked.append(str(node))
        if id(node) in self.given:
            return self.given[id(node)]
        return np.arange(5, dtype=np.int64) if isinstance(node, Hcp) else None


def test_constants_stay_scalars_inside_and_are_broadcast_at_the_end() -> None:
    run = Interpreter(_Counting())
    assert run.value(parse_expression("2 * 3 + 1", SPEC_DIALECT)).shape == ()
    out = interpret(parse_condition("1 > 0 ^^ 0"), _Counting(), dtype=bool)
    assert out.dtype == np.bool_ and out.tolist() == [True] * 5
    out = interpret(parse_condition("1 > 0"), _Counting(), dtype=np.int64)
    assert out.dtype == np.int64 and out.tolist() == [1] * 5
    out[0] = 7  # the result is the caller's own


def test_the_reader_is_asked_first_even_for_compound_nodes() -> None:
    cond = parse_condition("hcp(north) > 2 && hcp(north) < 4")
    assert isinstance(cond, And)
    given = _Counting({id(cond.items[0]): np.array([1, 1, 0, 0, 1])})
    assert interpret(cond, given, dtype=bool).tolist() == [True, True, False, False, False]
    assert "hcp(north) > 2" in given.asked and given.asked.count("hcp(north)") == 1  # the given part was not opened


def test_every_node_is_read_once_and_a_callers_memo_is_kept_and_used() -> None:
    part = parse_condition("hcp(north) > 2")
    assert isinstance(part, Compare)
    cond = Or((And((part, Not(part))), Xor((part, part))))
    memo: dict[int, np.ndarray] = {}
    reader = _Counting()
    assert interpret(cond, reader, dtype=bool, memo=memo).tolist() == [False] * 5
    assert sorted(reader.asked) == sorted(str(n) for n in (cond, cond.items[0], cond.items[1], Not(part), part,
                                                           part.left, part.right))
    assert id(part) in memo and id(cond) in memo
    again = _Counting()
    assert interpret(Not(part), again, dtype=bool, memo=memo).tolist() == [True, True, True, False, False]
    assert again.asked == ["!(hcp(north) > 2)"]


def test_only_the_shared_parts_are_kept_when_asked() -> None:
    part = parse_condition("hcp(north) > 2")
    cond = And((part, Not(part)))
    assert shared_nodes(cond) == {id(part)}
    memo: dict[int, np.ndarray] = {}
    reader = _Counting()
    assert interpret(cond, reader, dtype=bool, memo=memo, only_shared=True).tolist() == [False] * 5
    assert set(memo) == {id(part)} and reader.asked.count("hcp(north) > 2") == 1


def test_the_structural_nodes_are_the_ones_every_reader_evaluates() -> None:
    assert set(STRUCTURAL) == {Const, Always, Arith, Compare, And, Or, Xor, Not, Truth, Ternary, Imps, Score}
    with pytest.raises(UnsupportedSpecError, match="spades.north. is not read by the counting reader"):
        interpret(parse_condition("spades(north) > 2"), _Counting(), dtype=bool)
