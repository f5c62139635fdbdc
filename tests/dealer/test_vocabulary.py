"""Seats, suits, ranks, cards and card sets: parsing, formatting, invariants."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer import (
    CARDS, Card, CardSet, DealerError, Hand, InvalidCardError, InvalidHandError, InvalidRankError,
    InvalidSeatError, InvalidSuitError, Rank, Seat, Suit,
)
from tests.strategies import card_sets, cards, hands, seats


class TestSeat:
    def test_neighbours(self) -> None:
        assert [(s.lho, s.partner, s.rho) for s in Seat] == [
            (Seat.E, Seat.S, Seat.W), (Seat.S, Seat.W, Seat.N),
            (Seat.W, Seat.N, Seat.E), (Seat.N, Seat.E, Seat.S),
        ]

    @given(seats())
    def test_relations_compose(self, seat: Seat) -> None:
        assert seat.lho.rho == seat
        assert seat.partner.partner == seat
        assert seat.lho.lho == seat.partner
        assert list(seat.rotation()) == [seat, seat.lho, seat.partner, seat.rho]
        assert [seat.after(k) for k in range(-5, 9)] == [list(seat.rotation())[k % 4] for k in range(-5, 9)]
        assert all(type(seat.after(k)) is Seat for k in range(4))

    @pytest.mark.parametrize("text,seat", [("N", Seat.N), ("east", Seat.E), (" s ", Seat.S), ("West", Seat.W)])
    def test_parse(self, text: str, seat: Seat) -> None:
        assert Seat.parse(text) is seat
        assert Seat.parse(str(seat)) is seat

    @pytest.mark.parametrize("bad", ["X", "", "nort", 7, None])
    def test_parse_rejects(self, bad: object) -> None:
        with pytest.raises(InvalidSeatError) as info:
            Seat.parse(bad)  # type: ignore[arg-type]
        assert repr(bad) in str(info.value)
        assert isinstance(info.value, ValueError) and isinstance(info.value, DealerError)


class TestSuitRank:
    @pytest.mark.parametrize("text,suit", [("S", Suit.S), ("♠", Suit.S), ("h", Suit.H), ("♦", Suit.D),
                                           ("clubs", Suit.C), ("♣", Suit.C)])
    def test_suit_parse(self, text: str, suit: Suit) -> None:
        assert Suit.parse(text) is suit

    @pytest.mark.parametrize("bad", ["X", "", "♥♥", 4])
    def test_suit_rejects(self, bad: object) -> None:
        with pytest.raises(InvalidSuitError, match="invalid suit"):
            Suit.parse(bad)  # type: ignore[arg-type]

    def test_rank_round_trip_and_hcp(self) -> None:
        for rank in Rank:
            assert Rank.parse(str(rank)) is rank
            assert Rank.parse(str(rank).lower()) is rank
        assert Rank.parse("10") is Rank.TEN and str(Rank.TEN) == "T"
        assert [r.hcp for r in sorted(Rank, reverse=True)] == [4, 3, 2, 1] + [0] * 9

    @pytest.mark.parametrize("bad", ["1", "Z", "", "11", "AK"])
    def test_rank_rejects(self, bad: str) -> None:
        with pytest.raises(InvalidRankError, match="rank must be one of AKQJT98765432"):
            Rank.parse(bad)


class TestCard:
    @pytest.mark.parametrize("text,expected", [
        ("SQ", "SQ"), ("♠Q", "SQ"), ("S10", "ST"), ("ST", "ST"), ("sq", "SQ"), ("♥t", "HT"),
        ("c2", "C2"), (" DA ", "DA"),
    ])
    def test_parse_forms(self, text: str, expected: str) -> None:
        assert str(Card.parse(text)) == expected

    @given(cards())
    def test_round_trip(self, card: Card) -> None:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.suit.symbol + card.rank.char.lower()) is card
        assert Card.from_index(card.index) is card
        assert card.bit == 1 << card.index
        assert pickle.loads(pickle.dumps(card)) is card

    def test_order_and_hcp(self) -> None:
        assert [str(c) for c in CARDS[:14]] == ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S5",
                                                "S4", "S3", "S2", "HA"]
        assert sum(c.hcp for c in CARDS) == 40
        assert sorted(CARDS) == list(CARDS)

    def test_immutable(self) -> None:
        card = Card.parse("SA")
        with pytest.raises(AttributeError):
            card.rank = Rank.KING  # type: ignore[misc]

    @pytest.mark.parametrize("bad,fragment", [
        ("SZ", "invalid card 'SZ': rank must be one of AKQJT98765432"),
        ("XQ", "invalid card 'XQ': suit must be one of"),
        ("S", "invalid card 'S': expected a suit then a rank"),
        ("", "invalid card ''"),
        ("S1", "invalid card 'S1': rank"),
        ("SQQ", "invalid card 'SQQ': rank"),
        (12, "invalid card 12"),
    ])
    def test_rejects(self, bad: object, fragment: str) -> None:
        with pytest.raises(InvalidCardError) as info:
            Card.parse(bad)  # type: ignore[arg-type]
        assert fragment in str(info.value)
        assert isinstance(info.value, ValueError)


class TestCardSet:
    @given(card_sets())
    def test_round_trips(self, cs: CardSet) -> None:
        assert CardSet.from_pbn(cs.to_pbn()) == cs
        assert CardSet.parse(cs.to_pbn()) == cs
        if cs:
            assert CardSet.parse(cs.to_text()) == cs
            assert CardSet.parse(",".join(str(c) for c in cs)) == cs
        assert CardSet(list(cs)) == cs
        assert CardSet(cs.mask) == cs and hash(CardSet(cs.mask)) == hash(cs)
        assert pickle.loads(pickle.dumps(cs)) == cs

    @given(card_sets())
    def test_features_agree_with_cards(self, cs: CardSet) -> None:
        listed = list(cs)
        assert len(cs) == len(listed)
        assert listed == sorted(listed)
        assert cs.hcp == sum(c.hcp for c in listed)
        assert cs.shape == tuple(sum(1 for c in listed if c.suit == s) for s in Suit)
        for s in Suit:
            assert cs.length(s) == cs.holding(s).bit_count() == len(cs.suit(s))
            assert all(c.suit == s for c in cs.suit(s))

    @given(card_sets(), card_sets())
    def test_set_algebra(self, a: CardSet, b: CardSet) -> None:
        assert set(a | b) == set(a) | set(b)
        assert set(a & b) == set(a) & set(b)
        assert set(a - b) == set(a) - set(b)
        assert set(a ^ b) == set(a) ^ set(b)
        assert (a & b) <= a and (a | b) >= b

    @given(hands())
    def test_hand_pbn(self, hand: Hand) -> None:
        assert Hand.from_pbn(hand.to_pbn()) == hand
        assert hand.to_pbn().count(".") == 3

    def test_parse_examples(self) -> None:
        assert CardSet.parse("SKT643HT643DA8CJ9").to_pbn() == "KT643.T643.A8.J9"
        assert CardSet.parse("SAKQ,HAK").to_pbn() == "AKQ.AK.."
        assert CardSet.parse("S10 ♥AQ").to_pbn() == "T.AQ.."
        assert CardSet.parse("S2QA H4QA").to_pbn() == "AQ2.AQ4.."

    @pytest.mark.parametrize("bad,cls,fragment", [
        ("AKQ.T98.J9876", InvalidHandError, "expected four suits"),
        ("AKZ.T98.J9876.5", InvalidHandError, "'Z' is not a rank"),
        ("AKA...", InvalidHandError, "card 'SA' appears twice"),
        ("SAK,SK", InvalidHandError, "card 'SK' appears twice"),
        ("AK", InvalidHandError, "must start with a suit"),
        ("SAKHDQ", InvalidHandError, "suit 'H' has no ranks"),
    ])
    def test_parse_rejects(self, bad: str, cls: type, fragment: str) -> None:
        with pytest.raises(cls) as info:
            CardSet.parse(bad)
        assert fragment in str(info.value) and repr(bad) in str(info.value)

    def test_hand_too_long(self) -> None:
        with pytest.raises(InvalidHandError, match="14 cards, at most 13"):
            Hand(CARDS[:14])

    def test_duplicate_cards(self) -> None:
        with pytest.raises(InvalidHandError, match="'SA' appears twice"):
            CardSet(["SA", "♠A"])

    @given(st.integers(min_value=1 << 52, max_value=1 << 60))
    def test_mask_out_of_range(self, mask: int) -> None:
        with pytest.raises(InvalidHandError):
            CardSet(mask)
