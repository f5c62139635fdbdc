"""The totals of Pavlicek's *Dealing with Constraints*, to the last digit."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from dealer import D, Seat
from dealer.tables.exact import ExactDealer
from dealer.spec.spec import DealSpec

SEED_TOTALS = [
    # spec, Pavlicek's T (ways to deal the constrained seats)
    ("spades(west) == 9", 58_809_465),
    ("spades(west) == 9 && shape(east, xx66)", 556_991_252_532_000),
    ("hcp(north) == 3", 15_636_342_960),
    ("hcp(north) == 2 && hcp(south) <= 1", 122_891_799_377_692_800),
    ("shape(east, any 5332) && hcp(east) == 34", 756),
]


@pytest.mark.parametrize("text,total", SEED_TOTALS)
def test_seed_totals(text: str, total: int) -> None:
    dealer = ExactDealer(DealSpec.parse(text))
    assert dealer.count_constrained() == total
    # the unconstrained seats share the rest in every possible way
    pool = len(dealer.pool)
    free = 13 * pool
    ways = 1
    for i in range(pool):
        ways *= comb(free - 13 * i, 13)
    assert dealer.count() == total * ways
    assert dealer.probability() == Fraction(total * ways, D)


def test_seed_table_rows() -> None:
    """Two rows of the seed's nine-spades table: West 9=2=1=1 and 9=3=1=0."""
    for shape, hands in [("9211", 9_425_130), ("9310", 2_658_370)]:
        assert ExactDealer(DealSpec.parse(f"shape(west, {shape})")).count_constrained() == hands


def test_unconstrained_is_every_deal() -> None:
    dealer = ExactDealer(DealSpec())
    assert dealer.count() == D and dealer.probability() == 1
    assert ExactDealer(DealSpec.parse("hcp(north) >= 0")).count() == D


def test_order_of_seats_is_irrelevant() -> None:
    """As the seed notes, which hand is 'first' cannot change the total."""
    a = ExactDealer(DealSpec.parse("spades(west) == 9 && shape(east, xx66)")).count()
    b = ExactDealer(DealSpec.parse("spades(east) == 9 && shape(west, xx66)")).count()
    c = ExactDealer(DealSpec.parse("spades(north) == 9 && shape(south, xx66)")).count()
    assert a == b == c


def test_complement_adds_up() -> None:
    """P(A) + P(not A) = 1 for a condition on one seat, exactly."""
    yes = ExactDealer(DealSpec.parse("hcp(north) >= 15 && shape(north, any 4333 + any 4432)")).count()
    no = ExactDealer(DealSpec.parse("!(hcp(north) >= 15 && shape(north, any 4333 + any 4432))")).count()
    assert yes + no == D


def test_impossible_spec_is_reported() -> None:
    dealer = ExactDealer(DealSpec.parse("spades(north) >= 7 && spades(south) >= 7 && hcp(east) >= 10"))
    assert dealer.count() == 0 and dealer.is_empty
    why = dealer.explain_empty()
    assert "north" in why and "south" in why and "east" not in why
    single = ExactDealer(DealSpec.parse("hcp(west) > 37"))
    assert "west" in single.explain_empty() and "cannot be dealt" in single.explain_empty()


def test_predealt_seat_that_fails_is_reported() -> None:
    spec = DealSpec.from_dict({"N": {"predeal": "AKQJ.AKQ.AKQ.AKQ", "hcp": (0, 10)}})
    dealer = ExactDealer(spec)
    assert dealer.count() == 0
    assert "north" in dealer.explain_empty()
    assert ExactDealer(DealSpec.from_dict({"N": {"predeal": "AKQJ.AKQ.AKQ.AKQ", "hcp": 37}})).count() == \
        ExactDealer(DealSpec.from_dict({"N": {"predeal": "AKQJ.AKQ.AKQ.AKQ"}})).count()


def test_seat_relations() -> None:
    assert [s.name for s in ExactDealer(DealSpec.parse("hcp(west) >= 20")).pool] == ["N", "E", "S"]
    assert [s.name for s in ExactDealer(DealSpec.parse("hcp(west) >= 20")).tracked] == [Seat.W.name]


@pytest.mark.parametrize("text", [
    "hcp(north) == 2 && hcp(south) <= 1",
    "spades(west) == 9 && shape(east, xx66)",
    "shape(north, any 4333) && hcp(north) >= 12 && hearts(south) >= 6",
    "hcp(north) >= 12 && hcp(east) <= 7 && hcp(south) >= 12",
    "predeal west SAK\ncondition hcp(north, spades) >= 3 && shape(east, any 5431)",
])
def test_dense_compact_and_streamed_tables_agree(text: str) -> None:
    spec = DealSpec.parse(text)
    dense = ExactDealer(spec, backend="dense")
    compact = ExactDealer(spec, backend="compact")
    streamed = ExactDealer(spec, backend="streamed")  # counted one position at a time, not kept
    assert dense.count() == compact.count() == streamed.count() > 0
    assert dense.distribution(Seat.N, "hcp") == compact.distribution(Seat.N, "hcp") == streamed.distribution(Seat.N,
                                                                                                           "hcp")
    masks = compact.sample_masks(300, 1)
    from tests.dealer.test_sampling import check_masks, satisfies

    check_masks(masks)
    assert all(satisfies(spec, row) for row in masks)


@pytest.mark.parametrize("text", [
    "hcp(north) >= 10 && hcp(east) >= 10 && hcp(south) >= 10 && hcp(west) >= 10",
    "hcp(north) >= 15 && hcp(south) >= 10 && spades(east) >= 5 && hearts(west) >= 5",
    "spades(north) >= 5 && hearts(east) >= 5 && diamonds(south) >= 5 && clubs(west) >= 5",
])
@pytest.mark.slow
def test_four_constrained_seats(text: str) -> None:
    """All four seats constrained at once: exact, and HCP-light seats read the honours last."""
    spec = DealSpec.parse(text)
    dealer = ExactDealer(spec)
    assert dealer.tracked == tuple(Seat) and not dealer.pool
    masks = dealer.sample_masks(500, 3)
    from tests.dealer.test_sampling import check_masks, satisfies

    check_masks(masks)
    assert all(satisfies(spec, row) for row in masks)
    # the four seats' exact HCP distributions all sum to the count
    for seat in (Seat.N, Seat.W):
        assert sum(dealer.distribution(seat, "hcp").values()) == dealer.count()


def test_four_seats_ten_each_is_counted_exactly() -> None:
    """Every seat exactly 10 HCP: the 16 honours split 10-10-10-10, the spots anyhow."""
    from math import factorial

    values = [4, 3, 2, 1] * 4
    ways = 0
    # count honour assignments with HCP 10 each and their honour counts, by DP over the 16 honours
    table: dict[tuple[tuple[int, int], ...], int] = {((0, 0),) * 4: 1}
    for v in values:
        nxt: dict[tuple[tuple[int, int], ...], int] = {}
        for state, c in table.items():
            for s in range(4):
                n, h = state[s]
                if h + v <= 10 and n < 13:
                    new = list(state)
                    new[s] = (n + 1, h + v)
                    key = tuple(new)
                    nxt[key] = nxt.get(key, 0) + c
        table = nxt
    for state, c in table.items():
        if all(h == 10 for _, h in state):
            spots = factorial(36)
            for n, _ in state:
                spots //= factorial(13 - n)
            ways += c * spots
    assert ExactDealer(DealSpec.parse(
        "hcp(north) == 10 && hcp(east) == 10 && hcp(south) == 10 && hcp(west) == 10")).count() == ways
