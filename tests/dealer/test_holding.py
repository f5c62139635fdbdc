"""dealer.spec.holding: a condition on one seat's holding in one suit, read as a table, counted exactly.

The oracle walks the suit's 8,192 holdings in plain Python: a seat whose only condition is on its
holding ``h`` in one suit is dealt ``C(39, 13 - |h|)`` ways for its other cards, and the other three
seats share the remaining 39 cards ``39! / 13!^3`` ways.
"""

from __future__ import annotations

from math import comb, factorial
from typing import Callable

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dealer.cards.cardset import CardSet
from dealer.tables.exact import ExactDealer
from dealer.spec.holding import HOLDINGS, HoldingTable
from dealer.spec.spec import DealSpec, SeatSpec
from dealer.cards.seat import Seat
from dealer.cards.suit import Suit
from tests.dealer.oracle import holding_feature
from tests.strategies import examples

SUITS = ("spades", "hearts", "diamonds", "clubs")
OTHERS = factorial(39) // factorial(13) ** 3


feature = holding_feature  # a suit count computed from the ranks, by the oracle


def brute_count(test: Callable[[int], bool], need: int = 0) -> int:
    """Deals where the seat's holding ``h`` passes ``test`` and holds the cards of ``need``."""
    return sum(comb(39, 13 - h.bit_count()) for h in range(HOLDINGS) if h & need == need and test(h)) * OTHERS


KINDS = ("hcp", "controls", "top2", "top3", "top4", "top5")
OPS = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__, "==": int.__eq__, "!=": int.__ne__}


@settings(max_examples=examples(25), deadline=None)
@given(kind=st.sampled_from(KINDS), op=st.sampled_from(sorted(OPS)), value=st.integers(0, 5),
       other=st.sampled_from(KINDS), bound=st.integers(0, 3), suit=st.integers(0, 3),
       joined=st.sampled_from(["&&", "||"]))
def test_a_suit_condition_on_one_seat_counts_as_the_holdings_do(kind: str, op: str, value: int, other: str,
                                                                 bound: int, suit: int, joined: str) -> None:
    name = SUITS[suit]
    text = f"({kind}(north, {name}) {op} {value}) {joined} (({other}(north, {name}) > {bound} ? 2 : 0) - 1 > 0)"

    def test(h: int) -> bool:
        first = OPS[op](feature(kind, h), value)
        second = (2 if feature(other, h) > bound else 0) - 1 > 0
        return (first and second) if joined == "&&" else (first or second)

    assert int(ExactDealer(DealSpec.parse(text)).count()) == brute_count(test)


@pytest.mark.parametrize("predealt", ["SK", "SQ2"])
def test_a_table_filter_with_predealt_cards_in_its_suit(predealt: str) -> None:
    need = 0
    for rank in predealt[1:]:
        need |= 1 << "AKQJT98765432".index(rank)
    spec = DealSpec.parse(f"predeal north {predealt}\nhcp(north, spades) >= 5 && top4(north, spades) < 3")
    expected = brute_count(lambda h: feature("hcp", h) >= 5 and feature("top4", h) < 3, need)
    assert int(ExactDealer(spec).count()) == expected


def test_a_table_and_the_same_filter_as_a_plain_function_count_alike() -> None:
    values = np.array([feature("hcp", h) % 3 for h in range(HOLDINGS)])  # weights 0, 1, 2
    table = HoldingTable(int(Suit.H), values, "hcp % 3")
    fast = ExactDealer(DealSpec(seats={Seat.E: SeatSpec(holdings={Suit.H: table})})).count()
    slow = ExactDealer(DealSpec(seats={Seat.E: SeatSpec(holdings={Suit.H: lambda c: table(c)})})).count()
    assert fast == slow
    assert fast == sum(feature("hcp", h) % 3 * comb(39, 13 - h.bit_count()) for h in range(HOLDINGS)) * OTHERS


def test_a_holding_table_refuses_a_wrong_size_or_a_negative_weight() -> None:
    with pytest.raises(ValueError, match="8192 values"):
        HoldingTable(0, np.zeros(10))
    with pytest.raises(ValueError, match="8192 values"):
        HoldingTable(0, -np.ones(HOLDINGS))
    with pytest.raises(ValueError, match="suits 0 and 1"):
        HoldingTable(0, np.ones(HOLDINGS)) & HoldingTable(1, np.ones(HOLDINGS))
    assert HoldingTable(2, np.ones(HOLDINGS))(CardSet(["DA"])) == 1


def test_a_suit_length_beside_a_count_in_that_suit_is_part_of_the_table() -> None:
    spec = DealSpec.parse("!(diamonds(north) == 6 && top3(north, diamonds) > 1)")
    assert list(spec.seat(Seat.N).holdings) == [Suit.D]
    expected = brute_count(lambda h: not (h.bit_count() == 6 and feature("top3", h) > 1))
    assert int(ExactDealer(spec).count()) == expected
    # a length alone stays with the shapes (no holding filter)
    assert not DealSpec.parse("spades(north) >= 5").seat(Seat.N).holdings
