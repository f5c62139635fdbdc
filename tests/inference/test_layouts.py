"""Layouts consistent with the play: exact odds (brute force, textbook), exact sampling (chi-square), interfaces."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import CardSet, Deal, Seat, Suit
from inference.claims.weights import HoldingWeights
from dealer.tables.stats import chi_square
from inference.claims.language import parse_claim
from inference.rules.contract import Strain
from inference.errors import InconsistentCardsError, InvalidArgumentError
from inference.exact.graph import LayoutGraph
from inference.claims.inferences import Tag
from inference.exact.layouts import DEFAULT_WEIGHTS, View
from inference.state.play import PlayState
from tests.inference.helpers import assert_keeps_the_play, random_play
from tests.inference.test_weights import holding_in
from tests.inference.test_inferences import claim_texts, ending, holds, layouts_hands, three_concealed
from tests.strategies import deals, examples

ROOT = Path(__file__).resolve().parents[2]
DEAL = Deal.from_pbn("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43")


def textbook(out: int, suit: str = "S") -> dict[tuple[int, ...], Fraction]:
    """Splits of a suit with ``out`` cards missing, two hands of 13 unknown cards each."""
    hand = {"S": "AKQJT98765432"[: 13 - out]}
    ours = CardSet.parse(f"S{hand['S']}" if hand["S"] else "")
    rest = [c for c in CardSet.parse("HAKQJT98765432 DAKQJT98765432 CAKQJT98765432")]
    viewer = CardSet(list(ours) + rest[: 13 - len(ours)])
    dummy = CardSet(rest[13 - len(ours): 26 - len(ours)])
    state = PlayState(viewer, declarer="S", contract="NT")
    state.table_dummy(dummy, early=True)
    return state.layouts().odds().split[Suit.parse(suit)]


def split_odds(split: dict[tuple[int, ...], Fraction], a: int, b: int) -> Fraction:
    return split.get((a, b), Fraction(0)) + (split.get((b, a), Fraction(0)) if a != b else 0)


def test_textbook_splits() -> None:
    five = textbook(5)
    assert split_odds(five, 3, 2) == Fraction(2 * comb(5, 3) * comb(21, 10), comb(26, 13))
    assert round(float(split_odds(five, 3, 2)), 4) == 0.6783
    assert round(float(split_odds(five, 4, 1)), 4) == 0.2826
    assert round(float(split_odds(five, 5, 0)), 4) == 0.0391
    four = textbook(4)
    assert round(float(split_odds(four, 3, 1)), 4) == 0.4974
    assert round(float(split_odds(four, 2, 2)), 4) == 0.4070


def test_cards_lie_in_proportion_to_vacant_places() -> None:
    state = PlayState(DEAL[Seat.S], declarer="S", contract="4H")
    cards = random_play(DEAL, Seat.S, Strain.H, random.Random(2), 7)
    for i, card in enumerate(cards[:3]):
        state.play(card)
        if i == 0:
            state.table_dummy(DEAL[Seat.N])
    odds = state.layouts().odds()
    snap = state.snapshot
    places = {s: 13 - CardSet(snap.played[s]).__len__() for s in state.concealed()}
    for card, by in odds.holder.items():
        if any(snap.voids[s] >> card.suit & 1 for s in state.concealed()):
            continue
        for seat, p in by.items():
            assert p == Fraction(places[seat], sum(places.values()))


def brute_odds(state: PlayState, weight: object, hcp: dict | None = None) -> tuple[Fraction, dict, dict]:
    """Total weight, and weight by (card, holder), by (seat, suit, length) and (into ``hcp``) by (seat, HCP),
    over every lawful layout (counted in integers by each layout's weight, weighed at the end)."""
    unseen = CardSet(state.snapshot.unseen)
    tallies: dict[object, Counter] = {}
    for h in layouts_hands(state):
        w = weight(h)  # type: ignore[operator]
        if not w:
            continue
        tally = tallies.setdefault(w, Counter())
        tally["total"] += 1
        for seat in state.concealed():
            hand = h[seat]
            tally.update([("hcp", seat, hand.hcp)] + [("holder", card, seat) for card in hand & unseen]
                         + [("length", seat, s, hand.length(s)) for s in range(4)])
    keys = set().union(*tallies.values()) if tallies else set()
    weighed = {key: sum(Fraction(w) * tally[key] for w, tally in tallies.items()) for key in keys}
    if hcp is not None:
        hcp.update({key[1:]: v for key, v in weighed.items() if key[0] == "hcp"})
    holder = {key[1:]: v for key, v in weighed.items() if key[0] == "holder"}
    length = {key[1:]: v for key, v in weighed.items() if key[0] == "length"}
    return weighed.get("total", Fraction(0)), holder, length


def views_for(state: PlayState, text: str) -> list[tuple[str, object]]:
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    w = DEFAULT_WEIGHTS
    return [("lawful", lambda h: 1), ("agreement", lambda h: int(holds(claim, h))),
            ("weighted", lambda h: w[Tag.CONSISTENT] if holds(claim, h) else w[Tag.INCONSISTENT])]


def assert_odds_equal_brute_force(state: PlayState, text: str) -> None:
    """Count, holders, lengths and HCP in every view equal brute force over every lawful layout."""
    state.add_inference(dict(name="x", by="LHO", claim=text))
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    for view, weight in views_for(state, text):
        if view == "agreement" and state.statuses()["x"].status.value not in ("active", "confirmed"):
            continue  # an impossible claim is not in the agreement view
        space = assert_space_equals_brute_force(state, state.layouts(view), weight, (view, text))
        if view == "agreement" and space is not None:
            for layout in space.sample(10, seed=1):
                assert holds(claim, {s: layout[s] for s in Seat})


def assert_space_equals_brute_force(state: PlayState, space: Any, weight: object, label: object) -> Any:
    """A view's count, holders, lengths and HCP equal brute force with ``weight`` a layout's weight; the
    space, or None when it is empty."""
    hcp: dict = {}
    total, holder, length = brute_odds(state, weight, hcp)
    assert space.count() == total, label
    if not total:
        assert space.empty
        return None
    odds = space.odds()
    for card, by in odds.holder.items():
        for seat, p in by.items():
            assert p == Fraction(holder.get((card, seat), 0)) / total, (label, card)
    for seat, by_suit in odds.length.items():
        for s, dist in by_suit.items():
            assert dist == {k: Fraction(length[(seat, s, k)]) / total
                            for k in range(14) if length.get((seat, s, k))}, label
    for seat, dist in odds.hcp.items():
        assert dist == {h: Fraction(hcp[(seat, h)]) / total for h in range(38) if hcp.get((seat, h))}, label
    return space


@settings(max_examples=examples(30), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(38, 44), st.randoms(use_true_random=False), st.data())
def test_odds_equal_brute_force_in_every_view(deal: Deal, declarer: Seat, n: int, rnd: random.Random,
                                              data: st.DataObject) -> None:
    state = ending(deal, declarer, n, rnd)
    assert_odds_equal_brute_force(state, data.draw(claim_texts(("LHO", "RHO"), list(CardSet(state.snapshot.unseen)))))


@pytest.mark.slow
@settings(max_examples=examples(20), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(10, 11), st.randoms(use_true_random=False), st.data())
def test_three_concealed_hands_odds_equal_brute_force(deal: Deal, declarer: Seat, tricks: int, rnd: random.Random,
                                                      data: st.DataObject) -> None:
    """Before dummy is seen (three hands concealed): the same, with claims on any of the three."""
    state = three_concealed(deal, declarer, tricks, rnd)
    seats = ("LHO", "RHO", "partner")
    assert_odds_equal_brute_force(state, data.draw(claim_texts(seats, list(CardSet(state.snapshot.unseen)))))


#: A weight's numerator past 63 bits.
HUGE = 2 ** 70


@pytest.mark.parametrize("where", ["final states", "holdings"])
@settings(max_examples=examples(6), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.randoms(use_true_random=False), st.data())
def test_three_concealed_odds_past_int64_equal_brute_force(where: str, deal: Deal, declarer: Seat,
                                                           rnd: random.Random, data: st.DataObject) -> None:
    """Weights past 63 bits with three hands concealed: the HCP odds (a pass carrying each state's weight by
    total, in int64 when only the final states' weights are past it, in Python integers when the holdings'
    are) and every other field equal brute force."""
    state = three_concealed(deal, declarer, 10, rnd)
    if where == "final states":
        text = data.draw(claim_texts(("LHO", "RHO", "partner"), list(CardSet(state.snapshot.unseen))))
        state.add_inference(dict(name="x", by="LHO", claim=text))
        claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
        tags = {Tag.CONSISTENT: Fraction(HUGE + 1, 3), Tag.INCONSISTENT: Fraction(7, HUGE - 1)}
        space = state.layouts(View("weighted", weights=tags))
        assert_space_equals_brute_force(state, space, lambda h: tags[Tag.CONSISTENT if holds(claim, h)
                                                                     else Tag.INCONSISTENT], text)
    else:
        seat, suit = data.draw(st.sampled_from(state.concealed())), data.draw(st.sampled_from(list(Suit)))

        def table(holding: int) -> Fraction:
            return Fraction(HUGE + holding, 1 + holding % 5)

        space = state.layouts(View("lawful", holdings=HoldingWeights({(seat, suit): table})))
        assert_space_equals_brute_force(state, space, lambda h: table(holding_in(h[seat], suit)), (seat, suit))
    assert space.dtype is object


@settings(max_examples=examples(15), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(36, 44), st.randoms(use_true_random=False), st.data())
def test_samples_are_consistent_with_the_play_and_view(deal: Deal, declarer: Seat, n: int, rnd: random.Random,
                                                       data: st.DataObject) -> None:
    state = ending(deal, declarer, n, rnd)
    text = data.draw(claim_texts(("LHO", "RHO"), list(CardSet(state.snapshot.unseen))))
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    state.add_inference(dict(name="x", by="LHO", claim=text))
    space = state.layouts("agreement")
    if space.empty:
        with pytest.raises(InconsistentCardsError):
            space.sample_masks(1, 1)
        return
    for layout in space.sample(40, seed=rnd.randrange(1000)):
        assert_keeps_the_play(state, {s: CardSet(layout[s].mask) for s in Seat})
        if state.statuses()["x"].status.value in ("active", "confirmed"):
            assert holds(claim, {s: layout[s] for s in Seat})


@pytest.mark.parametrize("view", ["lawful", "weighted"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sampled_frequencies_match_exact_odds(view: str, seed: int) -> None:
    """Chi-square, at a random point of a random deal: each concealed seat's length in each suit."""
    rnd = random.Random(seed)
    deal = Deal.from_masks([int(x) for x in __import__("dealer.tables.exact", fromlist=["x"]).ExactDealer(
        __import__("dealer.spec.spec", fromlist=["x"]).DealSpec()).sample_masks(1, seed)[0]])
    declarer = Seat(seed % 4)
    state = ending(deal, declarer, rnd.randrange(1, 30), rnd)
    seat = state.concealed()[0]
    state.add_inference(dict(name="long spades", by="LHO", claim="spades(LHO) >= 4 || hcp(RHO) >= 8", tag="unspecified"))
    space = state.layouts(view)
    odds = space.odds()
    sample = space.sample(3000, seed=seed)
    for s in range(4):
        dist = odds.length[seat][s]
        keys = sorted(dist)
        observed = [sum(1 for d in sample if d[seat].length(s) == k) for k in keys]
        _, _, p = chi_square(observed, [dist[k] for k in keys], len(sample))
        assert p > 1e-4, (view, s, observed, [float(dist[k]) * len(sample) for k in keys])


def test_weighted_view_weights_by_tag() -> None:
    state = PlayState(DEAL[Seat.S], declarer="S", contract="4H", defence_model=None)  # the tags alone
    state.play("SQ")
    state.table_dummy(DEAL[Seat.N])
    state.add_inference(dict(name="five hearts", by="RHO", claim="hearts(RHO) >= 5", tag="consistent"))
    lawful = state.layouts()
    weighted = state.layouts("weighted")
    agree = state.layouts("agreement")
    yes = agree.count()
    assert weighted.count() == yes + Fraction(lawful.count() - yes, 20)
    custom = state.layouts(View("weighted", weights={Tag.CONSISTENT: Fraction(1), Tag.UNSPECIFIED: Fraction(1),
                                                           Tag.INCONSISTENT: Fraction(0)}))
    assert custom.count() == yes
    # layouts of non-zero weight: every lawful one by default, the agreement ones when "inconsistent" weighs 0
    assert weighted.odds().layouts == lawful.count() and custom.odds().layouts == yes
    assert weighted.odds().as_json()["weight"] == f"{weighted.count().numerator}/{weighted.count().denominator}"


def test_agreement_view_applies_the_conflict_policy() -> None:
    """Opponents' claims that cannot hold together are joined by XOR; the view counts that, exactly."""
    state = PlayState(DEAL[Seat.S], declarer="S", contract="4H")
    state.play("SQ")
    state.table_dummy(DEAL[Seat.N])
    state.add_inference(dict(name="W hearts", by="LHO", claim="hearts(LHO) >= 5"))
    state.add_inference(dict(name="E hearts", by="RHO", claim="hearts(RHO) >= 5"))  # 7 out: not both
    xor = parse_claim("hearts(LHO) >= 5 ^^ hearts(RHO) >= 5", viewer=state.viewer, declarer=state.declarer)
    # 7 hearts and 19 other cards unseen; West has 12 places (the SQ is played), East 13
    assert CardSet(state.snapshot.unseen).length(Suit.H) == 7 and len(CardSet(state.snapshot.unseen)) == 26 - 1
    expected = sum(comb(7, h) * comb(18, 12 - h) for h in range(8) if h >= 5 or 7 - h >= 5)
    space = state.layouts("agreement")
    assert 0 < space.count() == expected < state.layouts().count()
    for layout in space.sample(30, seed=2):
        assert holds(xor, {s: layout[s] for s in Seat})

@pytest.mark.parametrize("view", ["lawful", "agreement", "weighted"])
def test_python_int_path_equals_int64_path(view: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Big spaces fall back to Python integers: both paths give the same exact numbers and valid samples."""
    state = PlayState(DEAL[Seat.S], declarer="S", contract="4H")
    state.play("SQ")
    state.table_dummy(DEAL[Seat.N])
    state.add_inference(dict(name="five hearts", by="RHO", claim="hearts(RHO) >= 5", tag="consistent"))
    state.add_inference(dict(name="points", by="LHO", claim="hcp(LHO) <= 9", tag="unspecified"))
    fast = state.layouts(view)
    assert fast.dtype is not object
    monkeypatch.setattr(LayoutGraph, "_overflows", lambda self, w, mult: True)
    slow = state.layouts(View(view))  # a View is its own cache key: built afresh
    assert slow.dtype is object
    assert slow.count() == fast.count()
    assert slow.odds() == fast.odds()
    claim = parse_claim("hearts(RHO) >= 5", viewer=state.viewer, declarer=state.declarer)
    for layout in slow.sample(25, seed=4) + slow.sample(25, seed=random.Random(4)):  # array and scalar paths
        assert layout[Seat.N] == DEAL[Seat.N] and layout[Seat.S] == DEAL[Seat.S]
        if view == "agreement":
            assert holds(claim, {s: layout[s] for s in Seat})


def test_api_validates_and_keeps_state() -> None:
    state = PlayState(DEAL[Seat.S], declarer="S")
    before = state.snapshot
    with pytest.raises(InvalidArgumentError):
        state.layouts("psychic")
    with pytest.raises(InvalidArgumentError):
        state.layouts().sample_masks(-1, 1)
    assert state.snapshot is before
