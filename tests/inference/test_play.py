"""Play state: legality, trick winners, undo, and the lawful bounds (sound, tight, deterministic)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import CardSet, Deal, Seat
from dealer.tables.exact import ExactDealer
from dealer.spec.spec import DealSpec, SeatSpec
from inference.rules.contract import Contract, Strain
from inference.errors import (
    IllegalPlayError, InconsistentCardsError, InferenceError, OutOfOrderError, RevokeError, UndoError,
)
from inference.state.play import PlayState
from inference.rules.trick import trick_winner
from tests.inference.helpers import bounds_from_layouts, brute_force_layouts, random_play, replay
from tests.strategies import deals, examples, seats

DEAL = Deal.from_pbn("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43")


def fresh(viewer: Seat = Seat.S) -> PlayState:
    return PlayState(DEAL[viewer], declarer=Seat.S, contract="4H", viewer=viewer)


SUITS = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


class TestLegality:
    @pytest.mark.parametrize("moves,card,seat,cls,fragment", [
        ([], "CK", "E", IllegalPlayError, "east cannot play CK: it is west's turn"),
        ([], "SA", None, IllegalPlayError, "SA is in south's hand, not west's"),
        (["SQ", "dummy"], "SQ", None, IllegalPlayError, "SQ was already played by west"),
        (["SQ", "dummy"], "HT", None, IllegalPlayError, "north must follow suit in spades"),
        (["SQ", "dummy"], "S9", None, IllegalPlayError, "north does not hold S9"),
        (["SQ", "dummy", "S2"], "S2", None, IllegalPlayError, "S2 was already played by north"),
        ([], "S1", None, IllegalPlayError, "invalid card 'S1'"),
        ([], "SQ", "X", InferenceError, "invalid seat 'X'"),
    ])
    def test_rejected_and_state_unchanged(self, moves: list[str], card: str, seat: str | None, cls: type,
                                          fragment: str) -> None:
        state = fresh()
        for m in moves:
            if m == "dummy":
                state.table_dummy(DEAL[Seat.N])
            else:
                state.play(m)
        before = state.snapshot
        with pytest.raises(cls) as info:
            state.play(card, seat)
        assert fragment in str(info.value), str(info.value)
        assert state.snapshot is before
        assert isinstance(info.value, ValueError) and isinstance(info.value, InferenceError)

    def _suits_after_trick_one(self) -> PlayState:
        state = PlayState(SUITS[Seat.S], declarer=Seat.S, contract="NT")
        state.play("CA")  # west leads a club
        state.table_dummy(SUITS[Seat.N])
        state.play("SA")  # dummy has no club
        state.play("H2")  # east shows out of clubs: west must hold every other club
        state.play("D2")  # south has only diamonds
        return state

    def test_revoke_detected(self) -> None:
        state = self._suits_after_trick_one()
        state.play("CK")  # west, who won, leads a club again
        state.play("S2")
        before = state.snapshot
        with pytest.raises(RevokeError, match="east plays C3 after showing out of clubs"):
            state.play("C3")
        assert state.snapshot is before

    def test_inconsistent_cards(self) -> None:
        state = self._suits_after_trick_one()
        before = state.snapshot
        # west must hold the twelve clubs left: it cannot also have a heart to lead
        with pytest.raises(InconsistentCardsError, match="trick 2, card 1"):
            state.play("H3")
        assert state.snapshot is before

    def test_dummy_events(self) -> None:
        state = fresh()
        with pytest.raises(OutOfOrderError, match="after the opening lead"):
            state.table_dummy(DEAL[Seat.N])
        state.play("SQ")
        with pytest.raises(OutOfOrderError, match="table dummy before dummy plays"):
            state.play("S2")
        with pytest.raises(IllegalPlayError, match="already seen"):
            state.table_dummy(CardSet.parse("Q52.T.KQT543.K52"))
        state.table_dummy(DEAL[Seat.N])
        with pytest.raises(OutOfOrderError, match="already on the table"):
            state.table_dummy(DEAL[Seat.N])

    def test_dummy_on_lead_after_a_mid_hand_start_must_be_tabled(self) -> None:
        """Dummy untabled may neither follow nor lead: the same error, and the state is left as it was."""
        played = {"N": "SK D4", "E": "S4 D5", "S": "S5 DK", "W": "SQ D3"}
        state = PlayState("J86.964..KT763", declarer="S", contract="NT", leader="N", played=played)
        before = state.snapshot
        with pytest.raises(OutOfOrderError, match="trick 3, card 1: table dummy before dummy plays"):
            state.play("SA")
        assert state.snapshot is before

    def test_undo_errors(self) -> None:
        state = fresh()
        with pytest.raises(UndoError):
            state.pop()
        with pytest.raises(UndoError, match="expected 0 .. 0"):
            state.undo_to(3)


def test_trick_winner() -> None:
    from dealer import Card

    cards = [(Seat.W, Card.parse("SQ")), (Seat.N, Card.parse("S2")), (Seat.E, Card.parse("H3")),
             (Seat.S, Card.parse("SA"))]
    assert trick_winner(cards, Strain.NT) == Seat.S
    assert trick_winner(cards, Strain.H) == Seat.E
    assert trick_winner(cards, Strain.C) == Seat.S


def test_contract_parsing() -> None:
    assert Contract.parse("7NTXX").doubled == 2
    with pytest.raises(InferenceError):
        Contract.parse("8NT")


@settings(max_examples=examples(40))
@given(deals(), seats(), st.integers(0, 52), st.randoms(use_true_random=False))
def test_play_undo_restores_exactly(deal: Deal, declarer: Seat, n: int, rnd: random.Random) -> None:
    cards = random_play(deal, declarer, Strain.NT, rnd, n)
    snapshots = []
    state = None
    for state in replay(deal, declarer, Strain.NT, cards):
        snapshots.append(state.snapshot)
    assert state is not None
    for ply in range(len(snapshots) - 1, 0, -1):
        state.pop()
        assert state.snapshot == snapshots[ply - 1]
    if len(snapshots) > 3:
        again = list(replay(deal, declarer, Strain.NT, cards))[-1]
        again.undo_to(2)
        assert again.snapshot == snapshots[2]


@settings(max_examples=examples(60))
@given(deals(), seats(), st.sampled_from(list(Strain)), st.integers(0, 52), st.randoms(use_true_random=False))
def test_bounds_are_sound(deal: Deal, declarer: Seat, strain: Strain, n: int, rnd: random.Random) -> None:
    """The true deal lies inside every bound after every event."""
    cards = random_play(deal, declarer, strain, rnd, n)
    for state in replay(deal, declarer, strain, cards):
        bounds = state.bounds()
        for seat, sb in bounds.seats:
            hand = deal[seat]
            for s in range(4):
                lo, hi = sb.length[s]
                assert lo <= hand.length(s) <= hi
            assert sb.hcp[0] <= hand.hcp <= sb.hcp[1]
        for card in CardSet(state.snapshot.unseen):
            assert deal.holder(card) in bounds.possible_holders(card)


@settings(max_examples=examples(30))
@given(deals(), seats(), st.integers(36, 44), st.randoms(use_true_random=False))
def test_bounds_are_tight_by_brute_force(deal: Deal, declarer: Seat, n: int, rnd: random.Random) -> None:
    """With at most 16 cards unseen, every bound equals the min/max over all lawful layouts."""
    cards = random_play(deal, declarer, Strain.NT, rnd, n)
    state = list(replay(deal, declarer, Strain.NT, cards))[-1]
    assert CardSet(state.snapshot.unseen).__len__() <= 16
    layouts = brute_force_layouts(state)
    assert layouts
    truth, holders = bounds_from_layouts(layouts)
    bounds = state.bounds()
    for seat, sb in bounds.seats:
        assert sb.as_dict() == {q: list(v) for q, v in truth[seat].items()}
    for card in CardSet(state.snapshot.unseen):
        assert bounds.holders[card.index] == holders[card.index]
    assert bounds.located() == {c: Seat(holders[c.index].bit_length() - 1) for c in CardSet(state.snapshot.unseen)
                                if holders[c.index].bit_count() == 1}


def exact_dealer_support(state: PlayState) -> dict[Seat, dict[str, tuple[int, int]]]:
    """Support of each concealed seat's dealt lengths and HCP, counted by the exact dealer."""
    snap = state.snapshot
    seats = {}
    for seat in Seat:
        if snap.remaining[seat] >= 0:
            seats[seat] = SeatSpec(predeal=CardSet(snap.remaining[seat] | snap.played[seat]))
        else:
            forbidden = 0
            for s in range(4):
                if snap.voids[seat] >> s & 1:
                    forbidden |= (0x1FFF << (13 * s)) & snap.unseen
            seats[seat] = SeatSpec(predeal=CardSet(snap.played[seat]), forbidden=CardSet(forbidden))
    dealer = ExactDealer(DealSpec(seats=seats))
    out = {}
    for seat in state.concealed():
        table = {}
        for q in ("S", "H", "D", "C", "hcp"):
            dist = dealer.distribution(seat, q)
            table["HCP" if q == "hcp" else q] = (min(dist), max(dist))
        out[seat] = table
    return out


@settings(max_examples=examples(6), deadline=None)
@given(deals(), seats(), st.integers(0, 24), st.randoms(use_true_random=False))
def test_bounds_are_tight_by_exact_count(deal: Deal, declarer: Seat, n: int, rnd: random.Random) -> None:
    """Early in the play (too many unseen cards to enumerate), the exact dealer's supports agree."""
    cards = random_play(deal, declarer, Strain.NT, rnd, n)
    state = list(replay(deal, declarer, Strain.NT, cards))[-1]
    support = exact_dealer_support(state)
    for seat, sb in state.bounds().seats:
        assert {q: tuple(v) for q, v in sb.as_dict().items()} == support[seat]


def test_three_concealed_seats_before_dummy() -> None:
    state = fresh()
    assert state.concealed() == (Seat.W, Seat.N, Seat.E)
    support = exact_dealer_support(state)
    for seat, sb in state.bounds().seats:
        assert {q: tuple(v) for q, v in sb.as_dict().items()} == support[seat]
    state.play("SQ")
    support = exact_dealer_support(state)
    for seat, sb in state.bounds().seats:
        assert {q: tuple(v) for q, v in sb.as_dict().items()} == support[seat]


def test_located_cards_and_defender_view() -> None:
    state = PlayState(DEAL[Seat.W], declarer=Seat.S, contract="4H", viewer=Seat.W)
    state.play("SQ")
    state.table_dummy(DEAL[Seat.N])
    assert state.concealed() == (Seat.E, Seat.S)
    assert state.name(Seat.E) == "partner" and state.name(Seat.S) == "RHO"


def test_determinism() -> None:
    rnd = random.Random(5)
    cards = random_play(DEAL, Seat.S, Strain.H, rnd, 30)
    a = [s.snapshot.update for s in replay(DEAL, Seat.S, Strain.H, cards)]
    b = [s.snapshot.update for s in replay(DEAL, Seat.S, Strain.H, cards)]
    assert a == b


def test_narration_agrees_with_we() -> None:
    """The viewer is "we": "we (S) play", not "we (S) plays"; the others keep the singular."""
    state = fresh(Seat.W)  # west is on lead: the viewer plays first
    assert state.play("SQ").event == "trick 1, card 1: we (W) play SQ"
    state.table_dummy(DEAL[Seat.N])
    assert state.play("S2").event == "trick 1, card 2: LHO (N) plays S2"
    update = state.add_inference(dict(name="lead", by="we", claim="spades(W) >= 2", kind="lead", action="SQ"))
    assert "from our SQ)" in update.event and "we's" not in update.event
    east = fresh(Seat.E)
    east.play("SQ")
    east.table_dummy(DEAL[Seat.N])
    east.play("S2")
    assert east.play("SK").event == "trick 1, card 3: we (E) play SK"
    south = fresh(Seat.S)
    assert south.play("SQ").event == "trick 1, card 1: LHO (W) plays SQ"


def test_a_mid_hand_start_refuses_a_void_of_a_hand_in_view() -> None:
    """Dummy in view holds clubs: it cannot have shown out of them (table_dummy refuses the same)."""
    from inference.errors import RevokeError

    played = {"W": "HT H9 DQ DJ ST S6", "E": "H8 H7 CQ CJ DT S5", "N": "S4 S3 D5 D4 C7 C6", "S": "S2 D3 D2 CT C5 C4"}
    with pytest.raises(RevokeError, match="voids: north showed out of clubs but holds some"):
        PlayState("SQ SJ HQ HJ DK CK C3", declarer="S", contract="NT", dummy="SA SK HA HK DA CA C2",
                  leader="S", voids={"N": "C"}, played=played, defence_model=None)
    with pytest.raises(RevokeError, match="voids: south showed out of hearts"):
        PlayState("SQ SJ HQ HJ DK CK C3", declarer="S", contract="NT", dummy="SA SK HA HK DA CA C2",
                  leader="S", voids={"S": "H"}, played=played, defence_model=None)
    PlayState("SQ SJ HQ HJ DK CK C3", declarer="S", contract="NT", dummy="SA SK HA HK DA CA C2",
              leader="S", voids={"W": "C"}, played=played, defence_model=None)
