"""The rules of a trick: the winner, the order of play, the legal cards and the first rule a card breaks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Card, CardSet, Deal, Seat, Suit
from inference.rules.contract import Strain
from inference.rules.trick import Fault, Trick, irregularity, legal_cards, play_order, trick_winner
from tests.inference.helpers import random_play
from tests.strategies import deals, examples, seats


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def hands_of(*texts: str) -> list[int]:
    return [CardSet.parse(t).mask if t != "?" else -1 for t in texts]


@pytest.mark.parametrize("played,strain,winner", [
    ("SQ S2 H3 SA", Strain.NT, Seat.S),
    ("SQ S2 H3 SA", Strain.H, Seat.E),
    ("SQ S2 H3 SA", Strain.C, Seat.S),
    ("SQ H2 H3 SA", Strain.H, Seat.E),  # the higher of two trumps
    ("S2 D2 DA C3", Strain.NT, Seat.W),  # cards of other suits never win at no trump
    ("H2 S3 SA SK", Strain.S, Seat.E),  # the first trump to beat the lead, then a higher one wins
])
def test_trick_winner(played: str, strain: Strain, winner: Seat) -> None:
    seq = list(zip(Seat.W.rotation(), cards(played)))
    assert trick_winner(seq, strain) == winner


def test_trick_add_settles_the_winner_with_the_fourth_card() -> None:
    trick = Trick(Seat.E)
    seen = []
    for card in cards("D4 DK D2 DA"):
        seen.append(trick.to_play)
        assert trick.winner is None and not trick.complete
        trick = trick.add(card, Strain.S)
    assert seen == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert trick.complete and trick.winner == Seat.N and trick.led_suit == Suit.D
    assert str(trick) == "E:D4 S:DK W:D2 N:DA"
    with pytest.raises(ValueError, match="complete"):
        trick.add(Card.parse("D3"), Strain.S)
    assert trick.next_trick() == Trick(Seat.N)
    with pytest.raises(ValueError, match="not complete"):
        Trick(Seat.E, trick.cards[:3]).next_trick()


@settings(max_examples=examples(30), deadline=None)
@given(deals(), seats(), st.sampled_from(list(Strain)), st.randoms(use_true_random=False))
def test_play_order_follows_the_winners(deal: Deal, declarer: Seat, strain: Strain, rnd: random.Random) -> None:
    """Every card's seat is its holder (the play is legal), and each trick's winner leads the next."""
    play = random_play(deal, declarer, strain, rnd, 52)
    order = list(play_order(play, declarer.lho, strain))
    assert [c for _, c in order] == play
    assert all(deal.holder(c) == s for s, c in order)
    for k in range(4, 52, 4):
        assert order[k][0] == trick_winner(order[k - 4:k], strain)


@pytest.mark.parametrize("hand,led,legal", [
    ("AK.2..", Suit.H, "H2"),
    ("AK.2..", None, "SA SK H2"),
    ("AK.2..", Suit.C, "SA SK H2"),
    ("AK.2..", Suit.S, "SA SK"),
    ("...", Suit.S, ""),
])
def test_legal_cards(hand: str, led: Suit | None, legal: str) -> None:
    assert sorted(legal_cards(CardSet.parse(hand).mask, led)) == sorted(cards(legal))


# North led SA; East is on turn. North, East and South are known; West is hidden.
LED = Trick(Seat.N, ((Seat.N, Card.parse("SA")),))
HANDS = hands_of("KQ..2.", "J.32.5.", "T..7.4", "?")
PLAYED = (Card.parse("SA").bit, 0, 0, 0)


@pytest.mark.parametrize("card,seat,fault,other,holding", [
    ("SJ", None, None, None, ""),
    ("SJ", Seat.E, None, None, ""),
    ("SJ", Seat.S, Fault.OUT_OF_TURN, None, ""),
    ("SA", Seat.S, Fault.OUT_OF_TURN, None, ""),  # the seat on turn is the first rule
    ("SA", None, Fault.PLAYED_BEFORE, Seat.N, ""),
    ("SK", None, Fault.NOT_HELD, Seat.N, ""),  # in another known hand
    ("S9", None, Fault.NOT_HELD, None, ""),  # unseen, but east's hand is known and lacks it
    ("H3", None, Fault.REVOKE, None, "SJ"),
])
def test_irregularity_of_a_known_hand(card: str, seat: Seat | None, fault: Fault | None, other: Seat | None,
                                      holding: str) -> None:
    found = irregularity(LED, Card.parse(card), seat=seat, hands=HANDS, played=PLAYED)
    if fault is None:
        assert found is None
        return
    assert found is not None
    assert (found.fault, found.other, found.on_turn, found.card) == (fault, other, Seat.E, Card.parse(card))
    assert found.seat == (Seat.E if seat is None else seat)
    assert found.holding == CardSet.parse(holding) if holding else not found.holding


def test_irregularity_of_a_hidden_hand() -> None:
    """A hidden hand may play any unseen card, except in a suit it has shown out of."""
    trick = Trick(Seat.S, ((Seat.S, Card.parse("D7")),))  # west is on turn, its hand unknown
    voids = (0, 0, 0, 1 << Suit.C)
    assert irregularity(trick, Card.parse("H9"), hands=HANDS, played=PLAYED, shown_out=voids) is None
    assert irregularity(trick, Card.parse("C9"), hands=HANDS, played=PLAYED) is None
    found = irregularity(trick, Card.parse("C9"), hands=HANDS, played=PLAYED, shown_out=voids)
    assert found is not None and found.fault is Fault.SHOWN_OUT
    found = irregularity(trick, Card.parse("D2"), hands=HANDS, played=PLAYED, shown_out=voids)
    assert found is not None and (found.fault, found.other) == (Fault.NOT_HELD, Seat.N)


@settings(max_examples=examples(30), deadline=None)
@given(deals(), seats(), st.integers(0, 51), st.randoms(use_true_random=False))
def test_with_every_hand_known_the_legal_cards_are_those_without_irregularity(
        deal: Deal, declarer: Seat, n: int, rnd: random.Random) -> None:
    play = random_play(deal, declarer, Strain.NT, rnd, n)
    hands = list(deal.masks)
    played = [0, 0, 0, 0]
    trick = Trick(declarer.lho)
    for seat, card in play_order(play, declarer.lho, Strain.NT):
        if trick.complete:
            trick = trick.next_trick()
        hands[seat] &= ~card.bit
        played[seat] |= card.bit
        trick = trick.add(card, Strain.NT)
    if trick.complete:
        trick = trick.next_trick()
    on_turn = trick.to_play
    legal = set(legal_cards(hands[on_turn], trick.led_suit))
    for card in CardSet((1 << 52) - 1):
        found = irregularity(trick, card, hands=hands, played=played)
        assert (found is None) == (card in legal), (card, found)
        wrong_seat = irregularity(trick, card, seat=on_turn.lho, hands=hands, played=played)
        assert wrong_seat is not None and wrong_seat.fault is Fault.OUT_OF_TURN
