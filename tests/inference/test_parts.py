"""Suits walked in parts (honours, then spot cards) give the same exact answers as whole suits.

A suit nothing reads whole is walked as two positions of the graph when that cuts the groups a state
meets (the budget's ``split_groups``, :mod:`dealer.budget`) or the pairs its join forms (its
``split_pairs``). Forced on every such suit (``split_groups=0``): counts, odds,
tight bounds and samples equal brute force over every lawful layout; before the lead, where the split
is chosen by itself, every answer equals the whole-suit graph's.
"""

from __future__ import annotations

import random
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import CardSet, Deal, Seat
from dealer.budget import current
from dealer.tables.stats import chi_square
from inference.claims.language import parse_claim
from inference.exact.columns import plan
from inference.claims.features import Feature
from inference.exact.graph import HONOUR_CARDS, LayoutGraph
from inference.exact.layouts import View
from inference.state.play import PlayState
from inference.exact.solver import Solver
from tests.inference.helpers import assert_keeps_the_play
from tests.inference.test_inferences import claim_texts, holds, layouts_hands, three_concealed
from tests.inference.test_layouts import assert_odds_equal_brute_force
from tests.strategies import deals, examples

#: Before the lead: two passes (at most 11 HCP each) and an opening bid, the shape that made whole suits slow.
HAND = "KQ.QJ2.K87.AJ543"
AUCTION = "hcp(W) <= 11 && hcp(E) <= 11 && hcp(N) >= 10 && hearts(N) >= 5"


def split_suits(graph: LayoutGraph) -> set[int]:
    """The suits a graph walks in more than one part."""
    return {s for s in graph.suits if graph.suits.count(s) > 1}


def splittable(state: PlayState) -> set[int]:
    """The suits with both honours and spot cards unseen."""
    pos = state.snapshot.position()
    return {s for s in range(4) if pos.unseen_in(s) & HONOUR_CARDS and pos.unseen_in(s) & ~HONOUR_CARDS}


@settings(max_examples=examples(20), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(10, 11), st.randoms(use_true_random=False), st.data())
def test_parts_equal_brute_force(deal: Deal, declarer: Seat, tricks: int, rnd: random.Random,
                                 data: st.DataObject) -> None:
    """Three concealed hands, every suit that can be split split: odds, counts, bounds and verdicts."""
    with current().replace(split_groups=0, split_takers=0).applied():
        state = three_concealed(deal, declarer, tricks, rnd)
        text = data.draw(claim_texts(("LHO", "RHO", "partner"), list(CardSet(state.snapshot.unseen))))
        pos = state.snapshot.position()
        claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
        compiled = plan(pos, claim)  # a suit read whole: a filter or a claim's local atoms there
        whole = {s for s in range(4) if compiled.filters[s] or any(c.atoms and c.at(s).atoms[0] for c in compiled.columns)}
        assert split_suits(LayoutGraph(compiled)) == splittable(state) - whole
        targets = [Feature.length(s, q) for s in pos.concealed for q in range(4)] + [Feature.hcp(s) for s in pos.concealed]
        good = [h for h in layouts_hands(state) if holds(claim, h)]
        support = Solver(pos).support(claim, targets)
        want = {t: (min(_value(t, h) for h in good), max(_value(t, h) for h in good)) for t in targets} if good else {}
        assert support == want, text
        assert_odds_equal_brute_force(state, text)


def _value(feature: Feature, hands: dict[Seat, CardSet]) -> int:
    """A length or HCP target's value in one layout."""
    hand = hands[feature.seat]
    return hand.hcp if feature == Feature.hcp(feature.seat) else hand.length(feature.arg)


def auction_state() -> PlayState:
    state = PlayState(HAND, declarer="S", contract="3NT")
    state.add_inference(dict(name="auction", by="LHO", claim=AUCTION, tag="consistent"))
    return state


def test_before_the_lead_parts_equal_whole_suits(shrink_budget: Callable[..., None]) -> None:
    """The split chosen by itself before the lead, then refused: the same count, odds and bounds."""
    state = auction_state()
    pos = state.snapshot.position()
    claim = parse_claim(AUCTION, viewer="S")
    parted = LayoutGraph(plan(pos, claim))
    assert split_suits(parted)  # HCP on three hands: the suits with most honours unseen are split
    odds = state.layouts("agreement").odds()
    weighted = state.layouts("weighted").odds()
    bounds = state.agreement_bounds()
    shrink_budget(split_groups=10 ** 9, split_pairs=1)  # split by the join's size alone
    by_join = LayoutGraph(plan(pos, claim))
    assert split_suits(by_join) and by_join.count() == parted.count()
    shrink_budget(split_pairs=10 ** 12)
    whole = LayoutGraph(plan(pos, claim))
    assert not split_suits(whole) and whole.count() == parted.count()
    fresh = auction_state()
    assert fresh.layouts(View("agreement")).odds() == odds
    assert fresh.layouts(View("weighted")).odds() == weighted
    assert fresh.agreement_bounds() == bounds


def test_parts_on_the_python_int_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 63 bits (forced), split suits give the int64 path's odds, and samples that keep the claims."""
    state = auction_state()
    fast = state.layouts("agreement")
    assert split_suits(fast.graph)
    monkeypatch.setattr(LayoutGraph, "_overflows", lambda self, w, mult: True)
    slow = state.layouts(View("agreement"))
    assert slow.dtype is object and slow.odds() == fast.odds()
    claim = parse_claim(AUCTION, viewer="S")
    for layout in slow.sample(20, seed=3):
        assert holds(claim, {s: layout[s] for s in Seat})


@pytest.mark.parametrize("seed", [1, 2])
def test_parts_sample_in_proportion(seed: int) -> None:
    """Chi-square: the lengths of a split suit and the holder of its ace, sampled against the exact odds."""
    state = auction_state()
    space = state.layouts("agreement")
    suit = min(split_suits(space.graph))
    odds = space.odds()
    sample = space.sample(3000, seed=seed)
    for layout in sample[:50]:
        assert_keeps_the_play(state, {s: CardSet(layout[s].mask) for s in Seat})
    seat = Seat.W
    dist = odds.length[seat][suit]
    keys = sorted(dist)
    observed = [sum(1 for d in sample if d[seat].length(suit) == k) for k in keys]
    _, _, p = chi_square(observed, [dist[k] for k in keys], len(sample))
    assert p > 1e-4, (observed, keys)
    ace = next(c for c in odds.holder if c.suit == suit and c.hcp)  # an honour: the first part's card
    holders = sorted(odds.holder[ace])
    observed = [sum(1 for d in sample if ace in d[h]) for h in holders]
    _, _, p = chi_square(observed, [odds.holder[ace][h] for h in holders], len(sample))
    assert p > 1e-4, (observed, ace)
