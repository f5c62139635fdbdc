"""The exact dealer answers claims over three concealed hands exactly where the layout graph is refused.

Property: on random three-hand positions (mid-hand starts before dummy is seen) and random claims
about one or more of the hands, the dealer's bounds and verdicts equal the joint pass's, which the
other tests check against brute force; forcing the graph to refuse changes no answer.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Deal, Seat
from inference.claims.language import parse_claim
from inference.exact.dealing import dealer_count, dealer_support
from inference.exact.solver import Solver, support_bounds
from inference.claims.features import Feature
from inference.exact.columns import plan
from inference.exact.graph import LayoutGraph
from tests.inference.test_inferences import holds, layouts_hands, three_concealed
from tests.strategies import deals, examples

if TYPE_CHECKING:
    from inference.state.play import PlayState

_ATOMS = ["hcp({s}) >= {n}", "hcp({s}) <= {n}", "hearts({s}) >= {k}", "spades({s}) <= {k}",
          "shape({s}, any 4333 + any 4432 + any 5332)", "hcp({s}, clubs) >= 3", "clubs({s}) == {k}"]


@st.composite
def per_seat_claims(draw: st.DrawFn) -> str:
    parts = []
    for seat in draw(st.lists(st.sampled_from(["LHO", "RHO", "partner"]), min_size=1, max_size=3, unique=True)):
        atom = draw(st.sampled_from(_ATOMS)).format(s=seat, n=draw(st.integers(0, 12)), k=draw(st.integers(0, 4)))
        parts.append(f"!({atom})" if draw(st.booleans()) else atom)
    return " && ".join(parts)


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(9, 10), st.randoms(use_true_random=False), per_seat_claims())
def test_the_dealer_equals_the_joint_pass(deal: Deal, declarer: Seat, tricks: int, rnd: random.Random,
                                          text: str) -> None:
    state = three_concealed(deal, declarer, tricks, rnd)
    pos = state.snapshot.position()
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    targets = [Feature.length(s, q) for s in pos.concealed for q in range(4)] + [Feature.hcp(s) for s in pos.concealed]
    answer = dealer_support(pos, claim, targets)
    if answer is not None:  # None: a claim the dealer's tables cannot deal exactly (not answered there)
        assert answer == LayoutGraph(plan(pos, claim)).extremes(targets), text
    hands = layouts_hands(state)
    assert dealer_count(pos) == len(hands)
    count = dealer_count(pos, claim)
    assert count is None or count == sum(holds(claim, h) for h in hands), text


def test_refused_joint_passes_are_answered_by_the_dealer(shrink_budget: Callable[..., None]) -> None:
    """Before the lead, an auction's claims on three hands: bounds and verdicts with the joint pass
    refused (a limit of 10 pairs) equal those the joint pass gives when allowed."""
    from inference.state.play import PlayState

    state = PlayState("KQ.QJ2.K87.AJ543", declarer="S", contract="3NT")
    pos = state.snapshot.position()
    claim = parse_claim("hcp(W) <= 11 && hearts(E) >= 5 && hcp(E) >= 8 && shape(N, any 4333 + any 4432) && "
                        "hascard(W, HA) && spades(N) <= 3", viewer="S")
    wanted = support_bounds(pos, claim, state.bounds())
    assert wanted.possible_holders("HA") == (Seat.W,) != state.bounds().possible_holders("HA")  # the claims place it
    verdict = Solver(pos).verdict(claim)
    shrink_budget(graph_pairs=10, solvers_kept=0)  # the graphs built under the whole budget are not reused
    assert support_bounds(pos, claim, state.bounds()) == wanted
    assert Solver(pos).verdict(claim) == verdict
    relation = parse_claim("hcp(W) > hcp(E) && hearts(N) >= 5", viewer="S")  # seats related: not the dealer's
    from inference.errors import TooComplexError

    with pytest.raises(TooComplexError):
        support_bounds(pos, relation, state.bounds())


def _opening_lead() -> "PlayState":
    """Declarer's view after the opening lead, before dummy: three hands concealed, two defenders' claims."""
    from inference.state.play import PlayState

    state = PlayState("KQ.QJ2.K87.AJ543", declarer="S", contract="3NT")
    state.play("D2")
    state.add_inference(dict(name="W", by="LHO", claim="hearts(LHO) >= 5 && hcp(LHO) >= 9"))
    state.add_inference(dict(name="E", by="RHO", claim="shape(RHO, any 4333 + any 4432) && hcp(RHO) <= 9"))
    return state


@pytest.mark.slow
@pytest.mark.parametrize("view", ["lawful", "agreement"])
def test_layouts_past_the_graphs_limit_come_from_the_dealer(view: str, monkeypatch: pytest.MonkeyPatch,
                                                            shrink_budget: Callable[..., None]) -> None:
    """Odds and samples answer wherever statuses do: with the graph refused (a limit of 10 pairs), the
    lawful and agreement views come from the exact dealer, with the same exact odds as the graph's."""
    import inference.exact.solver as solver_module
    from inference.exact.dealing import DealerLayouts
    from inference.exact.layouts import LayoutSpace

    wanted = _opening_lead().layouts(view)
    assert isinstance(wanted, LayoutSpace)
    odds = wanted.odds()
    shrink_budget(graph_pairs=10)
    monkeypatch.setattr(solver_module, "_RECENT", {})  # no graph kept from before
    state = _opening_lead()
    dealt = state.layouts(view)
    assert isinstance(dealt, DealerLayouts)
    assert dealt.count() == wanted.count() and dealt.support() == wanted.support()
    got = dealt.odds()
    assert (got.layouts, got.weight, got.length, got.hcp, got.split) == \
        (odds.layouts, odds.weight, odds.length, odds.hcp, odds.split)
    assert {c: {s: p for s, p in by.items() if p} for c, by in got.holder.items()} == \
        {c: {s: p for s, p in by.items() if p} for c, by in odds.holder.items()}
    claims = [parse_claim(t, viewer="S") for t in ("hearts(W) >= 5 && hcp(W) >= 9",
                                                   "shape(E, any 4333 + any 4432) && hcp(E) <= 9")]
    known = state.snapshot.position().known
    for deal in dealt.sample(30, seed=3):
        assert all(known[s] & deal[s].mask == known[s] for s in Seat)
        if view == "agreement":
            assert all(holds(c, {s: deal[s] for s in Seat}) for c in claims)
