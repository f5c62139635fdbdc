"""The claim language: relative seats, play-only functions, messages, and the "one fewer" fallback."""

from __future__ import annotations

from dealer.lang.frozen import replace
from typing import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import CardSet, Seat
from dealer.errors import UnsupportedSpecError
from dealer.lang.evaluate import evaluate as deals_evaluate
from dealer.lang.expr import Arith, Const, Node, Not, Or, Xor
from dealer.lang.interpret import COMPARE
from dealer.lang.syntax import parse_condition
from dealer.spec.spec import DealSpec
from dealer.tables.exact import ExactDealer
from inference.claims.language import (
    And, CardCount, Compare, Honours, Length, Longest, Rank, claim_text, iter_atoms, one_fewer, parse_claim,
)
from inference.errors import InvalidArgumentError
from inference.claims.features import Feature, FeatureValues, evaluate, expr_values, features_of, hand_values
from tests.dealer.oracle import deal_value
from tests.inference.test_inferences import holds
from tests.strategies import deals, examples


@pytest.mark.parametrize("text,expected", [
    ("hearts(LHO) >= 5", "hearts(LHO) >= 4"),
    ("hearts(LHO) > 4", "hearts(LHO) > 3"),          # was "> 2": two fewer
    ("spades(LHO) < 3", "spades(LHO) < 4"),          # was "< 5": two more
    ("spades(LHO) <= 2", "spades(LHO) <= 3"),
    ("5 <= hearts(LHO)", "4 <= hearts(LHO)"),        # number first: was left unchanged
    ("3 > spades(RHO)", "4 > spades(RHO)"),
    ("hearts(RHO) == 6", "hearts(RHO) >= 5 && hearts(RHO) <= 7"),
    ("hearts(partner) >= 0", "hearts(partner) >= 0"),
    ("hcp(LHO) >= 12", "hcp(LHO) >= 12"),            # only lengths get the extra card
    ("hearts(LHO) >= 5 && hcp(LHO) >= 11", "hearts(LHO) >= 4 && hcp(LHO) >= 11"),
    ("!(spades(W) >= 4)", "!(spades(W) >= 5)"),      # under a not: the inner claim narrows, the whole widens
    ("hearts(LHO) > spades(LHO)", "hearts(LHO) > spades(LHO)"),
])
def test_one_fewer(text: str, expected: str) -> None:
    assert one_fewer(text) == expected


def test_one_fewer_keeps_seats_as_written() -> None:
    text = "hearts(dummy) >= 5 && spades(partner) <= 1 && clubs(W) == 3 && diamonds(me) > 2"
    assert one_fewer(text) == ("hearts(dummy) >= 4 && spades(partner) <= 2 && clubs(W) >= 2 && clubs(W) <= 4 "
                               "&& diamonds(me) > 1")
    with pytest.raises(InvalidArgumentError, match="a fifth"):
        one_fewer("hearts(dummy) >= 5 && hearts(partner) >= 1 && hearts(W) >= 1 && hearts(me) >= 1 && hearts(N) > 1")


_LENGTH_ATOMS = st.builds(
    lambda suit, seat, op, n, flip: f"{n} {op} {suit}({seat})" if flip else f"{suit}({seat}) {op} {n}",
    st.sampled_from(["spades", "hearts", "diamonds", "clubs"]), st.sampled_from(["LHO", "RHO"]),
    st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), st.integers(0, 8), st.booleans())


@st.composite
def length_claims(draw: st.DrawFn, depth: int = 2) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(_LENGTH_ATOMS)
    joiner = draw(st.sampled_from(["&&", "||"]))
    text = f"({draw(length_claims(depth - 1))}) {joiner} ({draw(length_claims(depth - 1))})"
    return f"!({text})" if draw(st.booleans()) else text


def _holds(text: str, hands: dict[Seat, CardSet]) -> bool:
    return holds(parse_claim(text, viewer="S"), hands)


@settings(max_examples=examples(80), deadline=None)
@given(length_claims(), deals())
def test_one_fewer_is_wider_and_one_card_wider_only(text: str, deal: object) -> None:
    """Wherever a claim holds, its fallback holds; and each length atom moved by exactly one card."""
    hands = {s: deal[s] for s in Seat}  # type: ignore[index]
    fallback = one_fewer(text)
    assert not _holds(text, hands) or _holds(fallback, hands), (text, fallback)
    for atom in iter_atoms(parse_claim(fallback, viewer="S")):
        assert isinstance(atom, Compare)


def test_the_one_fewer_of_one_comparison_admits_one_more_length_each_way_it_can() -> None:
    for op in ("==", "<", "<=", ">", ">="):
        for n in range(0, 9):
            text = f"hearts(LHO) {op} {n}"
            before = {v for v in range(14) if COMPARE[op](v, n)}
            after = {v for v in range(14) if _holds(one_fewer(text), {Seat.W: _hand_with_hearts(v)})}
            if not before:
                continue
            wanted = set(before)
            if op in (">", ">=", "=="):
                wanted.add(max(min(before) - 1, 0))
            if op in ("<", "<=", "=="):
                wanted.add(min(max(before) + 1, 13))
            assert after == wanted, (text, one_fewer(text))


def _hand_with_hearts(n: int) -> CardSet:
    hearts = ["HA", "HK", "HQ", "HJ", "HT", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2"][:n]
    others = ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2"][:13 - n]
    return CardSet.parse(" ".join(hearts + others))


def test_relative_seats_and_play_functions() -> None:
    claim = parse_claim("longest(LHO, 2) >= 9 && honours(RHO, spades) >= 2 && rank(partner, HQ) == 1", viewer="E",
                        declarer="N")
    assert claim_text(claim) == "longest(S, 2) >= 9 && honours(N, spades) >= 2 && rank(W, HQ) == 1"
    assert parse_claim("hcp(dummy) > 3", viewer="E", declarer="N").seats() == {Seat.S}
    assert isinstance(parse_claim("hearts(LHO) > 3 and hearts(LHO) < 6"), And)


def test_features_of_a_claim() -> None:
    claim = parse_claim("shape(LHO, any 5332) && hcp(RHO, hearts) >= 3 && rank(RHO, S5) == 2", viewer="S")
    assert features_of(claim) == {*(Feature.length(Seat.W, s) for s in range(4)), Feature.suit_hcp(Seat.E, 1),
                                  Feature.card(Seat.E, parse_claim("hascard(E, S5)").card),  # type: ignore[attr-defined]
                                  Feature.above(Seat.E, parse_claim("hascard(E, S5)").card)}  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad,fragment", [
    ("hearts(LHO) >= ", "column 16"),
    ("(" * 150 + "hcp(LHO) > 3" + ")" * 150, "nested more than 100"),
    ("hcp(LHO) >= 99999999999999999999", "too large"),
    ("hcp(LHO) + 3", "expected a condition"),
    ("x" * 5000, "characters"),                     # a long text is shortened in the message
])
def test_bad_claims_are_one_clear_error(bad: str, fragment: str) -> None:
    with pytest.raises(InvalidArgumentError, match=fragment) as info:
        parse_claim(bad, viewer="S")
    assert len(str(info.value)) < 400 and "\n" not in str(info.value)


def test_a_claim_is_never_a_number_length() -> None:
    assert isinstance(parse_claim("hearts(LHO) >= 5", viewer="S"), Compare)
    assert isinstance(parse_claim("hearts(LHO) >= 5", viewer="S").left, Length)  # type: ignore[attr-defined]


# -- claims over layouts: the one interpreter with the layouts' reader ---------------------------------------

_DEALS = ExactDealer(DealSpec()).sample_masks(200, 2029)
_NUMBERS = st.sampled_from(["hcp(N)", "hcp(E, hearts)", "spades(W)", "clubs(S)", "longest(W, 2)", "honours(E, spades)",
                            "rank(N, HQ)", "rank(W, S9)", "aces(E)", "kings(N)", "keycards(W, hearts)"])
_ATOMS = st.sampled_from(["hascard(E, SA)", "shape(W, any 4333 + any 5332)", "!hascard(N, C2)"])


def _layout_claims() -> st.SearchStrategy[str]:
    number = st.recursive(st.one_of(_NUMBERS, st.integers(-2, 9).map(str)), lambda inner: st.tuples(
        inner, st.sampled_from("+-*/%"), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"), max_leaves=3)
    compare = st.tuples(number, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), number).map(" ".join)
    return st.recursive(st.one_of(_ATOMS, compare), lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["&&", "||", "^^"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"!({x})")), max_leaves=5)


def _claim_brute(node: Node, hands: Sequence[int]) -> int:
    """A claim's value on four hands: its own nodes here, the dealer's by the dealer's test oracle."""
    if isinstance(node, CardCount):  # aces, kings: bit 0 (1) of each suit; key cards: the aces and the trump king
        bit = 1 if node.name == "kings" else 0
        held = sum(hands[node.seat] >> (13 * s + bit) & 1 for s in range(4))
        return held + (hands[node.seat] >> (13 * node.suit + 1) & 1 if node.suit is not None else 0)
    if isinstance(node, (Longest, Honours, Rank)):
        holding = [hands[node.seat] >> (13 * s) & 0x1FFF for s in range(4)]
        if isinstance(node, Longest):
            return sum(sorted((h.bit_count() for h in holding), reverse=True)[:node.count])
        if isinstance(node, Honours):
            return (holding[node.suit] & 0b11111).bit_count()
        bit = node.card.index % 13
        held = holding[node.card.suit]
        return (held & ((1 << bit) - 1)).bit_count() + 1 if held >> bit & 1 else 0
    if isinstance(node, Arith) and node.op in "/%":
        a, b = _claim_brute(node.left, hands), _claim_brute(node.right, hands)
        q = 0 if b == 0 else abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return q if node.op == "/" else (0 if b == 0 else a - q * b)
    if isinstance(node, (Arith, Compare)):
        return deal_value(replace(node, left=Const(_claim_brute(node.left, hands)),
                                  right=Const(_claim_brute(node.right, hands))), hands)
    if isinstance(node, (And, Or, Xor)):
        truths = [bool(_claim_brute(x, hands)) for x in node.items]
        return int(all(truths) if isinstance(node, And) else any(truths) if isinstance(node, Or) else sum(truths) == 1)
    if isinstance(node, Not):
        return int(not _claim_brute(node.item, hands))
    return deal_value(node, hands)


def _layout_values(masks: np.ndarray) -> FeatureValues:
    return lambda f: hand_values(f, masks[:, int(f.seat)].astype(np.int64))


@settings(max_examples=examples(120), deadline=None)
@given(_layout_claims())
def test_claims_over_layouts_agree_with_brute_force_and_with_the_dealer(text: str) -> None:
    claim = parse_claim(text, viewer="S")
    got = evaluate(claim, _layout_values(_DEALS), len(_DEALS))
    assert got.dtype == np.bool_ and got.shape == (len(_DEALS),)
    hands = [[int(m) for m in row] for row in _DEALS.tolist()]
    assert got.tolist() == [bool(_claim_brute(claim, h)) for h in hands], text
    if not any(isinstance(n, (Longest, Honours, Rank, CardCount)) for n in claim.walk()):  # the dealer's nodes agree
        assert got.tolist() == (deals_evaluate(claim, _DEALS) != 0).tolist(), text


def test_a_node_the_layouts_do_not_read_is_one_error_and_the_dealer_refuses_claim_functions() -> None:
    cond = parse_condition("losers(north) < 5 && hcp(north) > 3")
    with pytest.raises(InvalidArgumentError) as caught:
        evaluate(cond, _layout_values(_DEALS), len(_DEALS))
    assert str(caught.value) == "<condition>:1:1: losers(north) cannot be evaluated over layouts"
    with pytest.raises(UnsupportedSpecError) as refused:
        deals_evaluate(parse_claim("hcp(N) > 3 || longest(W, 2) >= 10"), _DEALS)
    assert str(refused.value) == "<claim>:1:15: longest(west, 2) cannot be evaluated on deals"
    doubled = parse_claim("spades(W) * 2 > 1")
    assert isinstance(doubled, Compare)
    numbers = expr_values(doubled.left, _layout_values(_DEALS), len(_DEALS))
    assert numbers.dtype == np.int64 and numbers.tolist() == [2 * (int(m) & 0x1FFF).bit_count()
                                                              for m in _DEALS[:, Seat.W].tolist()]
