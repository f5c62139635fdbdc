"""Pavlicek deal numbering: bijection, extremes, and an independent reference."""

from __future__ import annotations

from math import comb, factorial

import pytest
from hypothesis import given

from dealer import CARDS, D, Deal, DealNumberError, Seat, deal_to_number, number_to_deal
from tests.strategies import deal_numbers, deals

ORDER = [c for rank in "AKQJT98765432" for c in CARDS if c.rank.char == rank]


def reference_number(deal: Deal) -> int:
    """Independent ranking: count the deals that precede ``deal`` card by card.

    A deal is a word over seats (one letter per card, Pavlicek's card order);
    its number is its rank in lexicographic order N < E < S < W among words
    with 13 of each letter, counted with multinomials rather than Pavlicek's
    shrinking space.
    """
    left = [13, 13, 13, 13]
    number = 0
    for card in ORDER:
        holder = deal.holder(card)
        for seat in range(holder):
            if left[seat]:
                left[seat] -= 1
                number += multinomial(left)
                left[seat] += 1
        left[holder] -= 1
    return number


def multinomial(parts: list[int]) -> int:
    out = factorial(sum(parts))
    for p in parts:
        out //= factorial(p)
    return out


def test_D_value() -> None:
    assert D == 53_644_737_765_488_792_839_237_440_000
    assert D == comb(52, 13) * comb(39, 13) * comb(26, 13)
    assert f"{D:X}" == "AD55E315634DDA658BF49200"


def test_extremes_as_in_the_seed() -> None:
    first = number_to_deal(0)
    assert [first.holder(c) for c in ORDER] == [Seat.N] * 13 + [Seat.E] * 13 + [Seat.S] * 13 + [Seat.W] * 13
    last = number_to_deal(D - 1)
    assert [last.holder(c) for c in ORDER] == [Seat.W] * 13 + [Seat.S] * 13 + [Seat.E] * 13 + [Seat.N] * 13


@given(deal_numbers())
def test_number_deal_number(number: int) -> None:
    assert deal_to_number(number_to_deal(number)) == number


@given(deals())
def test_deal_number_deal_and_reference(deal: Deal) -> None:
    n = deal_to_number(deal)
    assert 0 <= n < D
    assert number_to_deal(n) == deal
    assert n == reference_number(deal)


def test_neighbouring_numbers_are_ordered() -> None:
    for n in (0, 1, 12345, D // 2, D - 2):
        assert reference_number(number_to_deal(n)) + 1 == reference_number(number_to_deal(n + 1))


@pytest.mark.parametrize("bad", [-1, D, D + 10, 1.5, "7", True])
def test_out_of_range(bad: object) -> None:
    with pytest.raises(DealNumberError) as info:
        number_to_deal(bad)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert str(bad) in str(info.value)
