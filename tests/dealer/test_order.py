"""The card orders of the tables (dealer.tables.order): permutations of the free cards, and every order
gives the same count, the same exact distributions and deals that meet the spec."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats as scipy_stats

from dealer.errors import SpecError
from dealer.tables.exact import ORDERS, ExactDealer
from dealer.budget import current
from dealer.tables.order import candidate_orders, dense_size, honours_last
from dealer.cards.seat import Seat
from dealer.spec.spec import DealSpec
from tests.dealer.test_sampling import check_masks, satisfies
from tests.strategies import examples

SUIT_ORDERS = st.permutations(range(4))


@given(st.sets(st.integers(0, 51)), SUIT_ORDERS, SUIT_ORDERS)
def test_honours_last_is_spots_then_honours_in_the_suit_orders(free: set[int], spots: list[int],
                                                               honours: list[int]) -> None:
    order = honours_last(sorted(free), spots, honours)
    assert sorted(order) == sorted(free)
    is_honour = [card % 13 < 4 for card in order]
    assert is_honour == sorted(is_honour)  # every spot card before every honour
    for group, suits in ((False, spots), (True, honours)):
        cards = [c for c, h in zip(order, is_honour) if h == group]
        assert cards == sorted(cards, key=lambda c: (suits.index(c // 13), c))


@given(st.lists(st.sets(st.integers(0, 3)).map(lambda s: tuple(sorted(s))), min_size=1, max_size=4))
def test_candidate_orders_start_with_the_spots_least_tracked(tracked: list[tuple[int, ...]]) -> None:
    orders = candidate_orders(range(52), tracked)
    assert len(set(orders)) == len(orders) and orders[-1] == honours_last(range(52))
    score = [sum(suit in suits for suits in tracked) for suit in range(4)]
    spot_suits = list(dict.fromkeys(c // 13 for c in orders[0][:36]))
    honour_suits = list(dict.fromkeys(c // 13 for c in orders[0][36:]))
    assert [(score[s], -s) for s in spot_suits] == sorted((score[s], -s) for s in range(4))
    assert [(score[s], s) for s in honour_suits] == sorted(((score[s], s) for s in range(4)), reverse=True)


FOUR_SEATS = [
    # a shape-heavy seat beside HCP seats: an honours-last order has fewer states than suit-major
    "shape(west, any 5431 + any 5422) && hcp(west) >= 11 && hcp(west) <= 13 && hcp(east) >= 6 && "
    "hcp(east) <= 9 && spades(north) >= 4",
    "shape(north, any 4432) && hcp(north) >= 20 && spades(south) >= 5 && hcp(east) <= 4 && clubs(west) >= 6",
]


@pytest.mark.slow
@pytest.mark.parametrize("text", FOUR_SEATS)
def test_every_order_gives_the_same_count_and_distributions(text: str) -> None:
    spec = DealSpec.parse(text)
    dealers = {order: ExactDealer(spec, order=order, backend="compact") for order in ORDERS}
    assert dealers["suit-major"].order == "suit-major" and dealers["honours-last"].order == "honours-last"
    counts = {order: d.count() for order, d in dealers.items()}
    assert len(set(counts.values())) == 1 and counts["auto"] > 0
    # a seat follows three suits: the default is suit-major, which auto leaves only for fewer states
    sizes = {order: dense_size(d.automata) for order, d in dealers.items()}
    assert sizes["auto"] <= sizes["suit-major"]
    assert dealers["auto"].order == "suit-major" or sizes["suit-major"] > current().order_search_from
    assert dealers["suit-major"].distribution(Seat.E, "hcp") == dealers["honours-last"].distribution(Seat.E, "hcp")
    masks = dealers["honours-last"].sample_masks(400, 5)
    check_masks(masks)
    assert all(satisfies(spec, row) for row in masks)


@pytest.mark.slow
def test_an_honours_last_order_deals_by_the_exact_distribution_chi_square() -> None:
    """West's HCP in deals drawn through an honours-last order, against the exact distribution."""
    spec = DealSpec.parse(FOUR_SEATS[0])
    dealer = ExactDealer(spec, order="honours-last")
    exact = dealer.distribution(Seat.W, "hcp")
    total = sum(exact.values())
    n = 20_000
    masks = dealer.sample_masks(n, 11)
    points = np.array([4, 3, 2, 1] + [0] * 9, dtype=np.int64)
    west = [sum(int(points[c % 13]) for c in range(52) if int(m) >> c & 1) for m in masks[:, Seat.W]]
    keys = sorted(exact)
    observed = [west.count(h) for h in keys]
    expected = [exact[h] * n / total for h in keys]
    assert sum(observed) == n
    assert scipy_stats.chisquare(observed, expected).pvalue > 1e-4


def test_an_order_is_checked() -> None:
    with pytest.raises(SpecError, match="unknown order 'spades-first'"):
        ExactDealer(DealSpec.parse("hcp(north) >= 10"), order="spades-first")
    # a seat's holding condition needs the suit-major order
    with pytest.raises(SpecError, match="honours-last"):
        ExactDealer(DealSpec.parse("hcp(north) >= 10 && hcp(north, spades) >= 4 && hascard(north, AS)"),
                    order="honours-last")


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(0, 37), st.integers(0, 13), st.sampled_from(["north", "east", "south", "west"]))
def test_orders_agree_on_small_specs(hcp: int, length: int, seat: str) -> None:
    spec = DealSpec.parse(f"hcp({seat}) >= {hcp} && spades({seat}) <= {length} && hcp(south) <= 12")
    counts = {ExactDealer(spec, order=order).count() for order in ORDERS}
    assert len(counts) == 1


@pytest.mark.slow
def test_a_shape_heavy_four_seat_spec_reads_the_honours_last() -> None:
    """North balanced beside three HCP seats: suit-major tables reach some 19 million states, the
    honours-last order about 1.7 million; auto takes it, and both count alike."""
    spec = DealSpec.parse("shape(north, any 4333 + any 4432 + any 5332) && hcp(north) == 16 && hearts(south) >= 6 "
                          "&& hcp(south) >= 9 && hcp(east) <= 5 && hcp(west) <= 5")
    auto = ExactDealer(spec)
    suit_major = ExactDealer(spec, order="suit-major")
    assert auto.order == "honours-last" and auto.cells * 5 < suit_major.cells
    assert auto.count() == suit_major.count() > 0
