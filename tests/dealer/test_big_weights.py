"""Weighted counts past 64 and 100 bits stay exact in every backend, and a weight past the most a holding may
weigh is refused with a clear error (brute force over the few free cards is the oracle)."""

from __future__ import annotations

from itertools import combinations
from typing import Callable

import pytest

from dealer import CardSet, Seat, Suit
from dealer.errors import SpecError
from dealer.spec.holding import MAX_HOLDING_WEIGHT
from dealer.spec.spec import DealSpec, SeatSpec
from dealer.tables.exact import ExactDealer

# N and S predealt whole, E and W ten cards each: six free cards, three to each of E and W
NORTH, SOUTH = CardSet.parse("AKQJ.AKQ.AKQ.AKQ"), CardSet.parse("T987.JT9.JT9.JT9")
EAST, WEST = CardSet.parse("65.876.876.87"), CardSet.parse("4.543.543.543")
FREE = list(CardSet.parse("32.2.2.62"))

Weight = Callable[[CardSet], int]


def _spec(west: Weight, east: Weight) -> DealSpec:
    return DealSpec(seats={Seat.N: SeatSpec(predeal=NORTH), Seat.S: SeatSpec(predeal=SOUTH),
                           Seat.E: SeatSpec(predeal=EAST, holdings={s: east for s in Suit}),
                           Seat.W: SeatSpec(predeal=WEST, holdings={s: west for s in Suit})})


def _brute(west: Weight, east: Weight) -> tuple[int, dict[int, int]]:
    """The weighted count, and by West's spade length."""
    total, by_spades = 0, {}
    for pick in combinations(FREE, 3):
        w_hand = WEST | CardSet(sum(c.bit for c in pick))
        e_hand = EAST | CardSet(sum(c.bit for c in FREE if c not in pick))
        weight = 1
        for suit in Suit:
            mask = 0x1FFF << (13 * int(suit))
            weight *= west(CardSet(w_hand.mask & mask)) * east(CardSet(e_hand.mask & mask))
        total += weight
        spades = sum(1 for c in w_hand if c.suit == Suit.S)
        by_spades[spades] = by_spades.get(spades, 0) + weight
    return total, dict(sorted(by_spades.items()))


@pytest.mark.parametrize("big", [2 ** 13 + 7, 2 ** 32, 2 ** 40, 10 ** 13 + 7, MAX_HOLDING_WEIGHT - 99])
@pytest.mark.parametrize("backend", ["auto", "dense", "compact", "streamed"])
def test_weighted_counts_and_distributions_are_exact(big: int, backend: str) -> None:
    def west(h: CardSet) -> int:
        return big + len(h)

    def east(h: CardSet) -> int:
        return big if len(h) % 2 else 2 * len(h) + 1

    total, by_spades = _brute(west, east)
    dealer = ExactDealer(_spec(west, east), backend=backend)
    assert dealer.count() == total
    assert dealer.distribution(Seat.W, "S") == by_spades
    assert sum(dealer.distribution(Seat.W, "H").values()) == total


def test_a_weight_past_the_most_a_holding_may_weigh_is_refused() -> None:
    def west(h: CardSet) -> int:
        return MAX_HOLDING_WEIGHT + len(h)

    with pytest.raises(SpecError, match=r"holding filter west: a weight of [\d,]+ .* the most a holding may weigh"):
        ExactDealer(_spec(west, lambda h: 1))
