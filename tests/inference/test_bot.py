"""The reference declarer (extra ``kibitz[bot]``): solver against brute-force minimax, decisions, whole deals.

The tests marked ``needs_solver`` need endplay; without it they are skipped (CI installs the extra).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Card, CardSet, Deal, Seat, Suit
from inference.apps.bot import (AgreementDefence, CardReader, DoubleDummy, GameHistory, Table, _signal_cards, choose_card,
                           opening_lead, play_deal, tie_key)
from inference.rules.contract import Strain
from inference.errors import BotUnavailableError, InvalidArgumentError, InvalidBoardError
from inference.state.leads import load_carding_agreement, load_lead_agreement
from inference.state.play import PlayState
from inference.io.records import read_pbn
from inference.rules.trick import legal_cards, trick_winner
from tests.inference.helpers import hide_endplay, needs_solver, random_play
from tests.inference.test_records import pbn_rows, pbn_text
from tests.strategies import deals, examples

EXAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "records" / "example.pbn"


def test_without_the_extra_the_solver_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_endplay(monkeypatch)
    from inference.apps.bot import DoubleDummy

    with pytest.raises(BotUnavailableError, match=r"pip install 'kibitz\[bot\]'"):
        DoubleDummy()


def test_opening_lead_follows_the_agreement() -> None:
    agreement = load_lead_agreement("fourth-best-nt")

    def lead(hand: str, strain: Strain = Strain.NT) -> str:
        return str(opening_lead(CardSet.parse(hand).mask, strain, agreement))

    assert lead("KJ742.Q3.983.J5") == "S4"        # fourth highest of the longest suit
    assert lead("KQJ5.Q3.9832.J5") == "SK"        # top of a sequence of three honours
    assert lead("K53.Q3.98.AJ5432") == "C4"       # longest suit, fourth highest
    assert lead("K53.Q3.987.J5432") == "C3"
    assert lead("953.Q32.T8.K8542") == "C4"
    assert lead("AKQJT98765432...", Strain.S) == "SA"  # only trumps: top of the sequence
    assert lead("8765.AK32.Q82.72", Strain.H) == "S5"  # not a trump, fourth highest of spades
    assert lead("Q532.Q3.983.K542") == "C2"         # four-card suits tie: clubs (more HCP)
    assert lead("K52.Q3.987.AJ5432") == "C4"


def board(*hands: str, leader: Seat = Seat.W, trick: str = "", strain: Strain = Strain.NT) -> Table:
    return Table(tuple(CardSet.parse(h).mask for h in hands), leader,  # type: ignore[arg-type]
                 tuple(Card.parse(t) for t in trick.split()), strain)


FULL = Deal.from_pbn("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43")
START = tuple(h.to_pbn() for h in FULL.hands)


@pytest.mark.parametrize("table", [
    board(*START),
    board(*START, trick="SQ S2 S3"),  # west led; north and east followed: the cards are still in the hands
    board(*START, trick="HQ HT"),
    board("A...", "K...", "Q...", "J...", leader=Seat.N, trick="SA SK"),
    board("A...", ".A..", "..A.", "...A", leader=Seat.N, trick="SA HA", strain=Strain.H),
])
def test_a_valid_board_passes(table: Table) -> None:
    table.check()


@pytest.mark.parametrize("table,fragment", [
    (board(START[0], START[1], START[2], START[3].replace("Q6", "Q2")), "S2 in the hands of both north and west"),
    (board(START[0], START[1], START[2], "6.QJ6.J987.JT43"), "hands of N 13, E 13, S 13, W 12 cards"),
    (board("", "", "", ""), "hands of N 0, E 0, S 0, W 0 cards"),
    (board(*START, trick="SQ S2 S3 SA"), "4 cards in the current trick"),
    (board(*START, trick="SK"), "west cannot have played SK to the current trick (not held)"),
    (board(*START, trick="SQ H4"), "north cannot have played H4"),  # H4 is east's
    (board(*START, trick="SQ D3"), "north cannot have played D3 to the current trick (revoke)"),
    (board(*START, trick="SQ S2 S2"), "east cannot have played S2 to the current trick (played before)"),
])
def test_an_invalid_board_is_refused_with_what_is_wrong(table: Table, fragment: str) -> None:
    with pytest.raises(InvalidBoardError) as info:
        table.check()
    assert fragment in str(info.value) and isinstance(info.value, ValueError)
    assert "invalid board for the double-dummy solver" in str(info.value)


def test_the_solver_is_not_reached_with_an_invalid_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check runs before anything of the solver: here there is none (endplay cannot be imported)."""
    hide_endplay(monkeypatch, AssertionError)  # importing the solver fails the test
    solver = DoubleDummy.__new__(DoubleDummy)  # a solver object whose DDS must never be called
    solver._solve_all = lambda deals: pytest.fail("DDS called with an invalid board")  # type: ignore[attr-defined]
    with pytest.raises(InvalidBoardError, match="hands of N 13, E 13, S 13, W 12"):
        solver.solve([board(*START), board(START[0], START[1], START[2], "6.QJ6.J987.JT43")])


# -- everything below needs the solver --------------------------------------------------------

def minimax(hands: list[int], leader: Seat, trick: list[tuple[Seat, Card]], strain: Strain, side: int) -> int:
    """Tricks ``side`` (0: N-S, 1: E-W) takes from here with both sides perfect: plain game-tree search."""
    if not any(hands) and not trick:
        return 0
    seat = Seat((leader + len(trick)) % 4)
    led = trick[0][1].suit if trick else None
    mine = (int(seat) % 2) == side
    best: int | None = None
    for c in legal_cards(hands[seat], led):
        hands[seat] &= ~c.bit
        t = trick + [(seat, c)]
        if len(t) == 4:
            w = trick_winner(t, strain)
            value = (int(w) % 2 == side) + minimax(hands, w, [], strain, side)
        else:
            value = minimax(hands, leader, t, strain, side)
        hands[seat] |= c.bit
        if best is None or (value > best if mine else value < best):
            best = value
    assert best is not None
    return best


def ending(deal: Deal, declarer: Seat, strain: Strain, rnd: random.Random, cards: int) -> PlayState:
    """Declarer's view after a random legal play of about ``cards`` cards, stopped at declarer's side's turn
    (40 cards or more: at most three tricks left, so the plain game-tree search stays quick)."""
    play = random_play(deal, declarer, strain, rnd, 52)
    state = PlayState(deal[declarer], declarer=declarer, contract=strain)
    for k, c in enumerate(play):
        if k >= cards and state.to_play in (declarer, declarer.partner):
            break
        state.play(c)
        if k == 0:
            state.table_dummy(deal[declarer.partner])
    return state


@needs_solver
@settings(max_examples=examples(60), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.sampled_from(list(Strain)), st.randoms(use_true_random=False),
       st.integers(40, 45), st.integers(0, 2 ** 16))
@pytest.mark.slow
def test_decision_equals_brute_force_over_the_same_samples(deal: Deal, declarer: Seat, strain: Strain,
                                                           rnd: random.Random, cards: int, seed: int) -> None:
    """Each legal card's total is the minimax tricks summed over the very layouts the view samples (the
    same seed draws the same layouts), with the trick in progress and trumps; the card is the best
    total, ties by the documented rule."""
    state = ending(deal, declarer, strain, rnd, cards)
    decision = choose_card(state, n=6, seed=seed, view="lawful")
    snap = state.snapshot
    legal = legal_cards(snap.remaining[state.to_play], snap.current.led_suit)
    if len(legal) == 1:
        assert decision.card == legal[0] and decision.samples == 0
        return
    in_trick = sum(c.bit for _, c in snap.current.cards)
    done = 0
    for m in snap.played:
        done |= m
    done &= ~in_trick
    side = int(state.to_play) % 2
    expected = dict.fromkeys(legal, 0)
    for row in state.sample_masks(6, seed, "lawful").tolist():
        hands = [int(m) & ~done & ~in_trick for m in row]
        for c in legal:
            hands[state.to_play] &= ~c.bit
            trick = list(snap.current.cards) + [(state.to_play, c)]
            if len(trick) == 4:
                w = trick_winner(trick, strain)
                value = (int(w) % 2 == side) + minimax(hands, w, [], strain, side)
            else:
                value = minimax(hands, snap.current.leader, trick, strain, side)
            hands[state.to_play] |= c.bit
            expected[c] += value
    assert decision.totals == expected
    assert decision.card == max(legal, key=lambda c: (expected[c], tie_key(c)))
    assert choose_card(state, n=6, seed=seed, view="lawful") == decision  # same seed, same decision


@needs_solver
def test_whole_deal_is_legal_and_counted() -> None:
    """A whole deal by the bot: the play reads back as a legal record and the tricks are counted right."""
    from inference.apps.bot import DoubleDummy

    rec = next(r for r in read_pbn(EXAMPLE.read_text()) if getattr(r, "board", "") == "2")
    solver = DoubleDummy()
    lead = load_lead_agreement("fourth-best-nt")
    carding = load_carding_agreement("standard-count")
    reader = CardReader(lead, carding)
    result = play_deal(rec.deal, rec.declarer, rec.contract, AgreementDefence(lead, carding, solver), n=4, seed=3,
                       view="agreement", solver=solver, reader=reader, defence_model=None)  # the readings, alone
    cards = [p.card for p in result.cards]
    assert len(cards) == 52 and len(set(cards)) == 52
    back = next(read_pbn(pbn_text(rec.deal, rec.declarer, "3NT",
                                  pbn_rows(rec.deal, rec.declarer, Strain.NT, cards, rec.declarer.lho))))
    assert list(back.play) == cards  # read_pbn checks every card is legal
    won, leader = 0, rec.declarer.lho
    for t in range(13):
        trick = [(Seat((leader + j) % 4), cards[4 * t + j]) for j in range(4)]
        leader = trick_winner(trick, Strain.NT)
        won += int(leader) % 2 == int(rec.declarer) % 2
    assert result.declarer_tricks == won
    assert reader.read and reader.read[0].startswith("lead ")
    # the cards declarer read as count are exactly the defenders' signal cards
    history = GameHistory([(p.trick, p.seat, p.card) for p in result.cards], rec.deal.masks, rec.declarer, Strain.NT)
    counts = [r for r in reader.read if r.startswith("count ")]
    assert len(counts) >= 3  # this deal gives several (same seed, same play)
    for line in counts:
        name, action = line.split(": ")
        _, seat, suit = name.split()
        first, _, second = action.split()
        assert [str(c) for c in _signal_cards(history, Seat.parse(seat), Suit.parse(suit))[:2]] == [first, second]
    again = play_deal(rec.deal, rec.declarer, rec.contract, AgreementDefence(lead, carding, solver), n=4, seed=3,
                      view="agreement", solver=solver, reader=CardReader(lead, carding), defence_model=None)
    assert [p.card for p in again.cards] == cards  # same seed, same play


def test_choose_card_rejects_an_unknown_view() -> None:
    state = PlayState("K62.A873.QJ4.Q95", declarer="S", contract="3NT")
    state.play("D3")
    state.table_dummy("AQ4.KJ5.AT92.K73")
    with pytest.raises(InvalidArgumentError, match="invalid view 'lawfull'"):
        choose_card(state, n=3, view="lawfull")


def test_readings_are_not_added_when_the_defence_model_weighs_the_cards() -> None:
    """With the defence model on, the lead and count readings would count the same cards twice: none is added."""
    from inference.apps.bot import DoubleDummy

    rec = next(r for r in read_pbn(EXAMPLE.read_text()) if getattr(r, "board", "") == "2")
    solver = DoubleDummy()
    lead, carding = load_lead_agreement("fourth-best-nt"), load_carding_agreement("standard-count")
    reader = CardReader(lead, carding)
    play_deal(rec.deal, rec.declarer, rec.contract, AgreementDefence(lead, carding, solver), n=4, seed=3,
              view="weighted", solver=solver, reader=reader, tricks=4)
    assert not any(r.startswith(("lead ", "count ")) for r in reader.read)
    reader = CardReader(lead, carding)  # the agreement view weighs nothing: it reads the lead, model or not
    play_deal(rec.deal, rec.declarer, rec.contract, AgreementDefence(lead, carding, solver), n=4, seed=3,
              view="agreement", solver=solver, reader=reader, tricks=4)
    assert reader.read and reader.read[0].startswith("lead ")


class TopCards:
    """A stand-in model: a card weighs 1 when it is the top of its holding, else 0."""

    def card_evidence(self, situation: Any, holding: int, position: int, group: str = "human") -> Any:
        from fractions import Fraction

        return Fraction(int(position == (holding & -holding).bit_length() - 1))

    def hand_evidence(self, situation: Any, hand: int, position: int, group: str = "human") -> Any:
        return self.card_evidence(situation, hand >> (13 * situation.card_suit) & 0x1FFF, position, group)


@needs_solver
def test_model_defence_plays_the_double_dummy_best_as_the_model_weighs() -> None:
    """Every defender's card is double-dummy best and, under a model that weighs only the top card of each holding,
    the top of its suit when one of the best is; the draw is seeded by the deal and the position (the same run twice, the same play); with
    no model, any double-dummy best card."""
    from inference.apps.bot import ModelDefence

    rec = next(r for r in read_pbn(EXAMPLE.read_text()) if getattr(r, "board", "") == "2")
    solver = DoubleDummy()
    for model in (TopCards(), None):
        plays = []
        for _ in range(2):
            result = play_deal(rec.deal, rec.declarer, rec.contract, ModelDefence(model, solver, seed=5),  # type: ignore[arg-type]
                               n=4, seed=3, solver=solver, tricks=0, defence_model=None)
            plays.append([p.card for p in result.cards])
        assert plays[0] == plays[1]
        hands = list(rec.deal.masks)
        trick: list[tuple[Seat, Card]] = []
        leader = rec.declarer.lho
        for card in plays[0]:
            seat = Seat((int(leader) + len(trick)) % 4)
            if seat in (rec.declarer.lho, rec.declarer.rho):
                held = tuple(h | sum(c.bit for s, c in trick if s == i) for i, h in enumerate(hands))
                scores = solver.solve([Table(held, leader, tuple(c for _, c in trick), rec.contract.strain)])[0]
                legal = legal_cards(hands[seat], trick[0][1].suit if trick else None)
                best = [c for c in legal if scores[c] == max(scores.values())]
                assert card in best

                def top(c: Card) -> bool:
                    holding = hands[seat] >> (13 * int(c.suit)) & 0x1FFF
                    return c.index % 13 == (holding & -holding).bit_length() - 1

                if model is not None and any(top(c) for c in best):
                    assert top(card)
            hands[seat] &= ~card.bit
            trick.append((seat, card))
            if len(trick) == 4:
                leader = trick_winner(trick, rec.contract.strain)
                trick = []
