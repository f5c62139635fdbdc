"""Deals and PBN deal strings."""

from __future__ import annotations

import pytest
from hypothesis import given

from dealer import (
    CARDS, Deal, IncompleteDealError, InvalidDealError, PartialDeal, Seat,
)
from tests.strategies import deals, partial_deals, seats

PBN = "N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43"


class TestDeal:
    @given(deals(), seats())
    def test_pbn_round_trip_from_any_seat(self, deal: Deal, first: Seat) -> None:
        text = deal.to_pbn(first)
        assert text.startswith(f"{first.name}:")
        assert Deal.from_pbn(text) == deal
        assert Deal.from_pbn(text.lower()) == deal

    @given(deals())
    def test_every_card_once(self, deal: Deal) -> None:
        assert sorted(c for h in deal for c in h) == list(CARDS)
        for card in CARDS:
            assert card in deal[deal.holder(card)]

    def test_rotated_first_seat(self) -> None:
        deal = Deal.from_pbn(PBN)
        rotated = "E:KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43 852.T.KQT543.K52"
        assert Deal.from_pbn(rotated) == deal
        assert deal.to_pbn("E") == rotated
        assert deal[Seat.W].to_pbn() == "Q6.QJ6.J987.JT43"

    @pytest.mark.parametrize("bad,cls,fragment", [
        ("AKQ.T98.J9876.5", InvalidDealError, "expected a first seat and a colon"),
        ("X:AKQ.T98.J9876.5 - - -", InvalidDealError, "first seat 'X'"),
        ("N:AKQ.T98.J9876.5 J65.AKQ.AK.AKQJ4", InvalidDealError, "expected 4 hands, found 2"),
        ("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 -", IncompleteDealError, "west unknown"),
        ("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.KJT", InvalidDealError,
         "CK dealt to west and to another seat"),
        ("N:852.T.KQT543.K52 KJ93.A543.A6.A8 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43", IncompleteDealError,
         "east holds 12 cards"),
        ("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT4Z", InvalidDealError,
         "west's hand"),
    ])
    def test_rejects(self, bad: str, cls: type, fragment: str) -> None:
        with pytest.raises(cls) as info:
            Deal.from_pbn(bad)
        assert fragment in str(info.value)
        assert isinstance(info.value, ValueError)

    def test_immutable_and_hashable(self) -> None:
        deal = Deal.from_pbn(PBN)
        with pytest.raises(AttributeError):
            deal._hands = ()  # type: ignore[misc]
        assert {deal: 1}[Deal.from_pbn(PBN)] == 1


class TestPartialDeal:
    @given(partial_deals(), seats())
    def test_round_trip(self, pd: PartialDeal, first: Seat) -> None:
        assert PartialDeal.from_pbn(pd.to_pbn(first)) == pd

    def test_completed_fills_the_last_hand(self) -> None:
        pd = PartialDeal.from_pbn("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 -")
        assert not pd.is_complete
        with pytest.raises(IncompleteDealError, match="west"):
            pd.to_deal()
        assert pd.completed().to_deal() == Deal.from_pbn(PBN)

    def test_completed_leaves_two_unknown(self) -> None:
        pd = PartialDeal.from_pbn("N:852.T.KQT543.K52 - AT74.K9872.2.Q96 -")
        assert pd.completed() is pd
