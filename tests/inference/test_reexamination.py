"""The status keeper: parsed claims kept, only the affected inferences re-examined, the graph follows the claims."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Card, Deal, Seat
from inference.rules.contract import Strain
from inference.claims.inferences import Inference, InferenceState, Status
from inference.state.play import PlayState
from inference.state.reexamination import Event, StatusKeeper
from tests.inference.helpers import random_play
from tests.strategies import deals, examples

DEAL = Deal.from_pbn("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43")


def after_lead() -> PlayState:
    state = PlayState(DEAL[Seat.S], declarer=Seat.S, contract="4H")
    state.play("SQ")  # LHO (west) leads a spade
    state.table_dummy(DEAL[Seat.N])
    return state


def test_claims_are_parsed_once_per_text() -> None:
    keeper = StatusKeeper(Seat.S, Seat.S)
    one = Inference(name="x", by="W", claim="spades(LHO) >= 1")
    assert keeper.claims(one) is keeper.claims(Inference(name="x", by="W", claim="spades(LHO) >= 1"))
    other = keeper.claims(Inference(name="x", by="W", claim="hearts(LHO) >= 1"))
    assert other != keeper.claims(one) and str(other[0]) != str(keeper.claims(one)[0])


def test_only_inferences_naming_what_the_card_touched_are_reexamined() -> None:
    """A stale standing stays stale unless the event names something the inference depends on."""
    snap = after_lead().snapshot
    stale = (InferenceState("x", 0, Status.ACTIVE),)  # in truth confirmed: west has played a spade
    confirmed = replace(snap, inferences=(Inference(name="x", by="W", claim="spades(LHO) >= 1"),), states=stale)
    keeper = StatusKeeper(Seat.S, Seat.S)
    unrelated = Event(move=(Seat.E, Card.parse("H3")))  # not west, not spades: the dependency graph says skip
    assert keeper.reexamine(confirmed, unrelated)[0] == stale
    assert keeper.reexamine(confirmed, unrelated, incremental=False)[0][0].status is Status.CONFIRMED
    related = Event(move=(Seat.W, Card.parse("S6")))
    states, changes = keeper.reexamine(confirmed, related)
    assert states[0].status is Status.CONFIRMED and changes[0].name == "x"
    assert keeper.reexamine(confirmed, Event(dummy_tabled=True))[0][0].status is Status.CONFIRMED
    assert keeper.reexamine(confirmed, Event(added=frozenset({"x"})))[0][0].status is Status.CONFIRMED


def test_the_dependency_graph_follows_the_claims_not_the_names() -> None:
    """After undo, an inference of the same name may say something else: its dependencies are its own."""
    snap = after_lead().snapshot
    stale = (InferenceState("x", 0, Status.ACTIVE),)
    keeper = StatusKeeper(Seat.S, Seat.S)
    about_rho = replace(snap, inferences=(Inference(name="x", by="E", claim="hcp(RHO) >= 1"),), states=stale)
    keeper.reexamine(about_rho, Event(move=(Seat.E, Card.parse("H3"))))
    about_lho = replace(snap, inferences=(Inference(name="x", by="W", claim="spades(LHO) >= 1"),), states=stale)
    states, _ = keeper.reexamine(about_lho, Event(move=(Seat.W, Card.parse("S6"))))
    assert states[0].status is Status.CONFIRMED


@settings(max_examples=examples(15), deadline=None)
@given(deals(), st.randoms(use_true_random=False), st.integers(0, 3))
def test_incremental_equals_every_inference_every_card_after_undo(deal: Deal, rnd: random.Random, k: int) -> None:
    """Re-adding inferences of the same names with other claims after an undo: the incremental
    re-examination still gives every standing the full re-examination gives."""
    cards = random_play(deal, Seat.S, Strain.NT, rnd, 52)
    claims = ["spades(LHO) >= 3", "hcp(RHO) >= 6", "hearts(RHO) <= 2", "clubs(LHO) >= 4 || hcp(LHO) <= 5"]
    states = [PlayState(deal[Seat.S], declarer=Seat.S, contract=Strain.NT) for _ in range(2)]
    states[1]._incremental = False
    for state in states:
        state.play(cards[0])
        state.table_dummy(deal[Seat.N])
        state.add_inferences([dict(name=f"i{j}", by="LHO", claim=claims[(j + k) % 4]) for j in range(2)])
        state.pop()
        state.add_inferences([dict(name=f"i{j}", by="LHO", claim=claims[(j + k + 2) % 4]) for j in range(2)])
    for card in cards[1:]:
        for state in states:
            state.play(card)
        standings = [{name: (st.level, st.status) for name, st in state.statuses().items()} for state in states]
        assert standings[0] == standings[1], card  # (a conflict's note stays only where not re-examined)


def test_a_copy_of_the_state_has_its_own_keeper() -> None:
    state = after_lead()
    state.add_inference(dict(name="x", by="LHO", claim="spades(LHO) >= 2"))
    early = state.at(2)
    assert early._keeper is not state._keeper
    inf = state.snapshot.inferences[0]
    assert early._keeper.claims(inf) is state._keeper.claims(inf)  # parsed once, kept by both
    early.add_inference(dict(name="y", by="RHO", claim="hearts(RHO) >= 2"))
    assert "y" not in {st.name for st in state.snapshot.states} and state.ply == 3 and early.ply == 3
