"""Inferences: claims, exact statuses against brute force and python-constraint, leads, fallbacks, conflicts."""

from __future__ import annotations

import random
from typing import Callable

import constraint  # python-constraint2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import CARDS, Card, CardSet, Deal, Seat
from inference.claims.language import (
    And, CardCount, Claim, Compare, Const, HasCard, Hcp, Honours, Length, Longest, Not, Or, Rank, ShapeIn, SuitHcp, Xor,
    parse_claim,
)
from inference.claims.features import Feature
from inference.exact.solver import Solver, random_witness
from inference.rules.contract import Strain
from inference.errors import InvalidArgumentError
from inference.claims.inferences import DependencyGraph, Inference, Tag, one_fewer
from inference.state.leads import lead_interpretations, load_lead_agreement
from inference.state.play import PlayState
from inference.rules.trick import trick_winner
from inference.apps.testing import rule_run
from tests.inference.helpers import brute_force_layouts, random_play, replay
from tests.strategies import deals, examples

# -- an independent evaluation of a claim on one concrete layout -------------------------------------------


def value_of(expr: object, hands: dict[Seat, CardSet]) -> int:
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Length):
        return hands[expr.seat].length(expr.suit)
    if isinstance(expr, Hcp):
        return hands[expr.seat].hcp
    if isinstance(expr, SuitHcp):
        return sum(c.hcp for c in hands[expr.seat].suit(expr.suit))
    if isinstance(expr, Longest):
        return sum(sorted(hands[expr.seat].shape, reverse=True)[:expr.count])
    if isinstance(expr, Honours):
        return sum(1 for c in hands[expr.seat].suit(expr.suit) if c.rank >= 10)
    if isinstance(expr, Rank):
        held = hands[expr.seat]
        if expr.card not in held:
            return 0
        return 1 + sum(1 for c in held.suit(expr.card.suit) if c.rank > expr.card.rank)
    if isinstance(expr, CardCount):  # aces or kings; key cards: the aces and the trump king
        rank = 13 if expr.name == "kings" else 14
        top = sum(1 for c in hands[expr.seat] if c.rank == rank)
        return top + sum(1 for c in hands[expr.seat].suit(expr.suit) if c.rank == 13) if expr.suit is not None else top
    op = expr.op  # type: ignore[attr-defined]
    a, b = value_of(expr.left, hands), value_of(expr.right, hands)  # type: ignore[attr-defined]
    return a + b if op == "+" else a - b if op == "-" else a * b


def holds(claim: Claim, hands: dict[Seat, CardSet]) -> bool:
    if isinstance(claim, Compare):
        a, b = value_of(claim.left, hands), value_of(claim.right, hands)
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[claim.op]
    if isinstance(claim, HasCard):
        return claim.card in hands[claim.seat]
    if isinstance(claim, ShapeIn):
        return hands[claim.seat].shape in claim.shapes
    if isinstance(claim, And):
        return all(holds(c, hands) for c in claim.items)
    if isinstance(claim, Or):
        return any(holds(c, hands) for c in claim.items)
    if isinstance(claim, Xor):
        return sum(holds(c, hands) for c in claim.items) == 1
    if isinstance(claim, Not):
        return not holds(claim.item, hands)
    return bool(claim.value)  # type: ignore[attr-defined]


def layouts_hands(state: PlayState) -> list[dict[Seat, CardSet]]:
    snap = state.snapshot
    visible = {s: CardSet(snap.remaining[s] | snap.played[s]) for s in Seat if snap.remaining[s] >= 0}
    return [{**visible, **{s: CardSet(m) for s, m in lay.items()}} for lay in brute_force_layouts(state)]


# -- random claims -----------------------------------------------------------------------------------------

@st.composite
def claim_texts(draw: st.DrawFn, seats: tuple[str, ...], cards: list[Card], depth: int = 2) -> str:
    seat = draw(st.sampled_from(seats))
    suit = draw(st.sampled_from(["spades", "hearts", "diamonds", "clubs"]))
    op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
    kind = draw(st.integers(0, 10))
    if kind == 7 and depth == 0:
        kind = 0
    if kind == 10:
        count = draw(st.sampled_from(["aces({})", "kings({})", f"keycards({{}}, {suit})"])).format(seat)
        return f"{count} {op} {draw(st.integers(0, 3))}"
    if kind == 8:
        return f"hcp({seat}, {suit}) {op} {draw(st.integers(0, 7))}"
    if kind == 9:
        return f"shape({seat}, {draw(st.sampled_from(['any 4333', 'any 5xxx', '4xxx + x4xx - any 4441', 'xx3x']))})"
    if kind == 0:
        return f"{suit}({seat}) {op} {draw(st.integers(0, 6))}"
    if kind == 1:
        return f"hcp({seat}) {op} {draw(st.integers(0, 14))}"
    if kind == 2 and cards:
        return f"hascard({seat}, {draw(st.sampled_from(cards))})"
    if kind == 3 and cards:
        return f"rank({seat}, {draw(st.sampled_from(cards))}) == {draw(st.integers(0, 3))}"
    if kind == 4:
        return f"honours({seat}, {suit}) >= {draw(st.integers(0, 2))}"
    if kind == 5:
        other = draw(st.sampled_from(["spades", "hearts", "diamonds", "clubs"]))
        return f"{suit}({seat}) {op} {other}({seat})"
    if kind == 6:
        return f"hcp({seat}) + longest({seat}, 2) >= {draw(st.integers(6, 20))}"
    left = draw(claim_texts(seats, cards, depth - 1))
    right = draw(claim_texts(seats, cards, depth - 1))
    joiner = draw(st.sampled_from(["&&", "||", "^^"]))
    text = f"({left}) {joiner} ({right})"
    return f"!({text})" if draw(st.booleans()) else text


def ending(deal: Deal, declarer: Seat, n: int, rnd: random.Random) -> PlayState:
    cards = random_play(deal, declarer, Strain.NT, rnd, n)
    return list(replay(deal, declarer, Strain.NT, cards))[-1]


@settings(max_examples=examples(60), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(36, 42), st.randoms(use_true_random=False), st.data())
def test_status_equals_brute_force(deal: Deal, declarer: Seat, n: int, rnd: random.Random, data: st.DataObject) -> None:
    """Two concealed hands: satisfiable / valid / supports exactly as enumeration of every lawful layout."""
    state = ending(deal, declarer, n, rnd)
    names = ("LHO", "RHO")
    unseen_cards = list(CardSet(state.snapshot.unseen)) + [c for c in CARDS if state.snapshot.played[
        state.viewer.lho] >> c.index & 1][:2]
    text = data.draw(claim_texts(names, unseen_cards))
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    hands = layouts_hands(state)
    truth = [holds(claim, h) for h in hands]
    ev = Solver(state.snapshot.position())
    verdict = ev.verdict(claim)
    assert verdict.satisfiable == any(truth), text
    assert verdict.valid == all(truth), text
    seat = state.viewer.rho
    keys = [Feature.length(seat, s) for s in range(4)] + [Feature.hcp(seat)]
    support = ev.support(claim, keys)
    if any(truth):
        good = [h for h, t in zip(hands, truth) if t]
        for s in range(4):
            vals = [h[seat].length(s) for h in good]
            assert support[Feature.length(seat, s)] == (min(vals), max(vals)), text
        vals = [h[seat].hcp for h in good]
        assert support[Feature.hcp(seat)] == (min(vals), max(vals)), text
    else:
        assert support == {}


def three_concealed(deal: Deal, declarer: Seat, tricks: int, rnd: random.Random) -> PlayState:
    """A mid-hand start from declarer's seat with dummy not seen: three concealed hands."""
    cards = random_play(deal, declarer, Strain.NT, rnd, 4 * tricks)
    played = {s: CardSet() for s in Seat}
    voids = {s: "" for s in Seat}
    leader = declarer.lho
    for t in range(tricks):
        trick = cards[4 * t: 4 * t + 4]
        seats = [Seat((leader + j) % 4) for j in range(4)]
        for seat, card in zip(seats, trick):
            played[seat] = played[seat] | CardSet([card])
            if card.suit != trick[0].suit:
                voids[seat] += trick[0].suit.name
        leader = trick_winner(list(zip(seats, trick)), Strain.NT)
    return PlayState(CardSet(deal[declarer].mask & ~played[declarer].mask), declarer=declarer, contract="NT",
                     played=played, voids={s: v for s, v in voids.items() if v}, leader=leader)


@pytest.mark.slow
@settings(max_examples=examples(15), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(9, 10), st.randoms(use_true_random=False), st.data())
def test_three_concealed_hands_joint_claims(deal: Deal, declarer: Seat, tricks: int, rnd: random.Random,
                                            data: st.DataObject) -> None:
    """Three concealed hands, claims over any of them: exact verdicts and supports (joint method)."""
    state = three_concealed(deal, declarer, tricks, rnd)
    assert len(state.concealed()) == 3
    text = data.draw(claim_texts(("LHO", "RHO", "partner"), list(CardSet(state.snapshot.unseen))))
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    hands = layouts_hands(state)
    truth = [holds(claim, h) for h in hands]
    ev = Solver(state.snapshot.position())
    assert ev.verdict(claim).satisfiable == any(truth), text
    assert ev.verdict(claim).valid == all(truth), text
    assert ev.satisfiable(claim) == any(truth), text  # a random witness, else the exact joint pass
    assert not random_witness(state.snapshot.position(), claim) or any(truth), text
    targets = [Feature.length(s, q) for s in state.concealed() for q in range(4)] + [Feature.hcp(s) for s in state.concealed()]
    support = Solver(state.snapshot.position()).support(claim, targets)
    good = [h for h, t in zip(hands, truth) if t]
    if not good:
        assert support == {}
        return
    for key in targets:
        seat = key[1]
        vals = [h[seat].hcp if key[0] == "hcp" else h[seat].length(key[2]) for h in good]  # type: ignore[index]
        assert support[key] == (min(vals), max(vals)), (text, key)


def constraint_oracle(state: PlayState, claim: Claim) -> list[dict[Seat, CardSet]]:
    """python-constraint: every lawful assignment of the unseen cards where ``claim`` holds."""
    snap = state.snapshot
    concealed = state.concealed()
    problem = constraint.Problem()
    cards = list(CardSet(snap.unseen))
    for card in cards:
        domain = [int(s) for s in concealed if not snap.voids[s] >> card.suit & 1]
        problem.addVariable(card.index, domain)
    names = [c.index for c in cards]
    for seat in concealed:
        need = 13 - CardSet(snap.played[seat]).__len__()
        problem.addConstraint(constraint.FunctionConstraint(
            lambda *vals, s=int(seat), n=need: sum(v == s for v in vals) == n), names)
    visible = {s: CardSet(snap.remaining[s] | snap.played[s]) for s in Seat if snap.remaining[s] >= 0}

    def hands_of(vals: tuple[int, ...]) -> dict[Seat, CardSet]:
        out = dict(visible)
        for seat in concealed:
            out[seat] = CardSet(snap.played[seat] | sum(c.bit for c, v in zip(cards, vals) if v == seat))
        return out

    problem.addConstraint(constraint.FunctionConstraint(lambda *vals: holds(claim, hands_of(vals))), names)
    return [hands_of(tuple(sol[c.index] for c in cards)) for sol in problem.getSolutions()]


@settings(max_examples=examples(25), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(42, 44), st.randoms(use_true_random=False), st.data())
def test_python_constraint_oracle(deal: Deal, declarer: Seat, n: int, rnd: random.Random, data: st.DataObject) -> None:
    """On small endings, python-constraint's solutions give the same statuses and agreement bounds."""
    state = ending(deal, declarer, n, rnd)
    text = data.draw(claim_texts(("LHO", "RHO"), list(CardSet(state.snapshot.unseen))))
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    solutions = constraint_oracle(state, claim)
    negation = constraint_oracle(state, Not(claim))
    ev = Solver(state.snapshot.position())
    verdict = ev.verdict(claim)
    assert verdict.satisfiable == bool(solutions) and verdict.valid == (not negation), text
    if solutions:
        seat = state.viewer.lho
        support = ev.support(claim, [Feature.hcp(seat), Feature.length(seat, 0)])
        assert support[Feature.hcp(seat)] == (min(h[seat].hcp for h in solutions), max(h[seat].hcp for h in solutions))
        assert support[Feature.length(seat, 0)] == (min(h[seat].length(0) for h in solutions),
                                              max(h[seat].length(0) for h in solutions))


# -- claims, inferences, statuses -------------------------------------------------------------------------

def test_claim_language() -> None:
    c = parse_claim("hcp(LHO) + longest(LHO, 2) >= 20 and not hascard(RHO, SA) xor spades(partner) > 3",
                    viewer="S", declarer="S")
    assert c.seats() == {Seat.W, Seat.E, Seat.N}
    for bad, fragment in [("hearts(XYZ) > 3", "expected a seat"), ("hcp(LHO) >", "unexpected"),
                          ("longest(LHO, 5) > 3", "k from 1 to 4"), ("rank(LHO, SZ) == 1", "invalid card 'SZ'"),
                          ("foo(LHO) > 1", "unknown function 'foo'"), ("hcp(LHO) && 3", "expected a condition")]:
        with pytest.raises(InvalidArgumentError, match=fragment.replace("(", r"\(")):
            parse_claim(bad, viewer="S")


def test_one_fewer_fallbacks() -> None:
    assert one_fewer("hearts(LHO) >= 5") == "hearts(LHO) >= 4"
    assert one_fewer("spades(LHO) <= 2") == "spades(LHO) <= 3"
    assert one_fewer("hcp(LHO) >= 12") == "hcp(LHO) >= 12"  # only lengths get the extra card


def test_fallback_chain_and_undo() -> None:
    run = rule_run("KQ.QJ2.K87.AJ543", declarer="S", dummy="A5.K98765.A4.K76", play="CQ C6 C2 C3",
                   inferences=[dict(name="1H", by="LHO", claim="hearts(LHO) >= 5",
                                    fallbacks=["hearts(LHO) >= 4", "hearts(LHO) >= 3"])])
    assert run.status("start", "1H") == "active"
    assert run.status("dummy", "1H") == "active (fallback 1)"
    state = run.state
    before = state.snapshot
    state.add_inference(dict(name="extra", by="RHO", claim="hcp(RHO) >= 4"))
    state.pop()
    assert state.snapshot is before
    with pytest.raises(InvalidArgumentError, match="already in force"):
        state.add_inference(dict(name="1H", by="LHO", claim="hearts(LHO) >= 1"))
    assert state.snapshot is before
    with pytest.raises(InvalidArgumentError, match="tag"):
        Inference(name="x", by="W", claim="hcp(W) > 1", tag="maybe")


def test_dependency_graph_reexamines_only_what_is_affected() -> None:
    graph = DependencyGraph()
    graph.add("spades", [parse_claim("spades(LHO) >= 5", viewer="S")])
    graph.add("ace", [parse_claim("hascard(RHO, HA)", viewer="S")])
    graph.add("points", [parse_claim("hcp(RHO) >= 10", viewer="S")])
    assert graph.affected({("suit", 0)}) == {"spades"}
    assert graph.affected({("card", Card.parse("HA").index)}) == {"ace"}
    assert graph.affected({("seat", Seat.E)}) == {"ace", "points"}
    assert graph.affected({("hcp",)}) == {"points"}


def test_seed_lead_interpretations_and_tags() -> None:
    """Section XIV: the 5 led from K J 9 7 5 4 3 2; the three groups exactly as the seed lists them."""
    defenders = CardSet.parse("SKJ975432").mask
    infs = lead_interpretations("S5", Seat.W, defenders, load_lead_agreement("fourth-best-nt"))
    by_tag: dict[Tag, set[str]] = {t: set() for t in Tag}
    for inf in infs:
        by_tag[inf.tag].add(inf.name.removeprefix("lead: "))
    assert by_tag[Tag.CONSISTENT] == {"higher of two cards", "highest of three spots", "fourth-highest of four cards",
                                      "fourth-highest of five cards", "fourth-highest of six cards",
                                      "fourth-highest of seven cards"}
    assert by_tag[Tag.UNSPECIFIED] == {"highest of three cards headed by an honour",
                                       "second-highest of three cards headed by an honour",
                                       "third-highest of three cards headed by an honour"}
    assert len(by_tag[Tag.INCONSISTENT]) == 13
    assert {i.group for i in infs} == {"lead"}


def test_lead_of_an_honour_from_a_sequence() -> None:
    defenders = CardSet.parse("SKQJ8").mask
    infs = lead_interpretations("SK", Seat.W, defenders, load_lead_agreement("fourth-best-nt"))
    seq = [i for i in infs if "sequence" in i.name]
    assert len(seq) == 1 and seq[0].tag == Tag.CONSISTENT
    with pytest.raises(InvalidArgumentError, match="unknown lead agreement"):
        load_lead_agreement("no-such-agreement")


def test_conflict_policy() -> None:
    run = rule_run("AKQJ.432.A432.32", declarer="S", dummy="T9876.A5.765.A54", play="DK D5 D8 DA", inferences=[
        dict(name="partner spades", by="partner", claim="spades(partner) >= 5"),
        dict(name="LHO spades", by="LHO", claim="spades(LHO) >= 5"),
        dict(name="LHO hearts", by="LHO", claim="hearts(LHO) >= 6"),
        dict(name="RHO hearts", by="RHO", claim="hearts(RHO) >= 5"),
    ])
    assert run.status("start", "LHO spades") == "superseded"
    assert run.status("start", "partner spades") == "active"
    assert run.status("start", "LHO hearts") == "active" and run.status("start", "RHO hearts") == "active"
    state = run.state.at(run.plies["start"])
    assert "joined by XOR" in state.statuses()["RHO hearts"].note
    assert run.agreement("start", "N", "S") == (5, 9)
    assert run.status("1.4", "LHO spades") == "superseded"  # the play went on


def test_statuses_track_the_seed_lead_example() -> None:
    run = rule_run("AQ8.AKQ2.AK2.432", declarer="S", dummy="T6.J543.QJ43.AK5",
                   play="S5 S6 SJ SQ C2 C6 C5 CQ S3 S8 SK ST", leads=[dict(card="S5", after="dummy")])
    assert run.status("3.1", "lead: fourth-highest of seven cards") == "impossible"
    assert run.status("2.4", "lead: fourth-highest of seven cards") == "active"
    for name in ("higher of two cards", "highest of three spots"):
        assert run.status("3.2", f"lead: {name}") == "active"
        assert run.status("3.3", f"lead: {name}") == "impossible"
    assert run.status("3.3", "lead: fourth-highest of five cards") == "active"


def test_bad_claims_leave_state_unchanged() -> None:
    state = PlayState("KQ.QJ2.K87.AJ543", declarer="S")
    before = state.snapshot
    with pytest.raises(InvalidArgumentError):
        state.add_inference(dict(name="x", by="LHO", claim="hearts(LHO) >>> 5"))
    with pytest.raises(InvalidArgumentError):
        state.add_inference(dict(name="x", by="nobody", claim="hearts(LHO) >= 5"))
    assert state.snapshot is before


def test_agreement_view_policy() -> None:
    run = rule_run("KQ.QJ2.K87.AJ543", declarer="S", inferences=[
        dict(name="weak", by="LHO", claim="hcp(LHO) <= 10", tag="unspecified")])
    assert run.agreement("start", "W", "HCP") == (0, 24)
    assert run.agreement("start", "W", "HCP", frozenset({Tag.CONSISTENT, Tag.UNSPECIFIED})) == (0, 10)


def test_lead_group_verdicts() -> None:
    """LHO leads the 5 from 9-7-5-4 (third of four: inconsistent with fourth best). Once RHO has shown
    the king and jack and LHO the 7, no agreement-consistent or -unspecified reading is left."""
    run = rule_run("AQ8.AKQ2.AK2.432", declarer="S", dummy="T6.J543.QJ43.AK5",
                   play="S5 S6 SJ SQ C2 C6 C5 CQ SK S8 S4 ST S3 SA S7 H3", leads=[dict(card="S5", after="dummy")])

    def group_events(label: str) -> list:
        return [sc for sc in run.state.at(run.plies[label]).snapshot.update.statuses if sc.name == "group lead"]

    assert all(not group_events(label) for label in run.plies if label not in ("4.3",))
    (verdict,) = group_events("4.3")
    assert verdict.new == "inconsistent" and "agreement-inconsistent" in verdict.reason
    assert run.status("4.3", "lead: third-highest of four cards") == "active"
    assert run.status("4.3", "lead: fourth-highest of four cards") == "impossible"


def test_work_beyond_the_joint_limit_is_refused_and_changes_nothing(monkeypatch: pytest.MonkeyPatch,
                                                                      shrink_budget: Callable[..., None]) -> None:
    """Before dummy, claims on two defenders need the joint pass; past its limit the exact dealer answers when
    every claim is about one seat in its language; a relation between seats is refused: TooComplexError, no crash."""
    import inference.exact.solver as solver_module
    from inference.errors import TooComplexError

    state = PlayState("KQ.QJ2.K87.AJ543", declarer="S", contract="3NT")
    state.add_inference(dict(name="W", by="LHO", claim="hearts(LHO) >= 5"))
    before = (state.ply, state.snapshot)
    shrink_budget(graph_pairs=10)
    monkeypatch.setattr(solver_module.Solver, "witness", lambda *a, **k: False)  # force the exact pass
    with pytest.raises(TooComplexError, match="over the limit of 10"):
        state.add_inference(dict(name="E", by="RHO", claim="hearts(RHO) >= 5 && hcp(RHO) > hcp(LHO)"))
    assert (state.ply, state.snapshot) == before
    monkeypatch.undo()
    state.add_inference(dict(name="E", by="RHO", claim="hearts(RHO) >= 5 && hcp(RHO) >= 6"))
    assert state.statuses()["E"].status.value == "active"


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.randoms(use_true_random=False), st.data())
def test_incremental_statuses_equal_a_fresh_verdict_after_every_card(deal: Deal, declarer: Seat, rnd: random.Random,
                                                                      data: st.DataObject) -> None:
    """Only inferences the dependency graph names are re-examined (none after a visible hand's card); after
    every card each status must still equal a verdict computed from scratch at that position."""
    cards = random_play(deal, declarer, Strain.NT, rnd, 52)
    state = PlayState(deal[declarer], declarer=declarer, contract=Strain.NT)
    state.play(cards[0])
    state.table_dummy(deal[declarer.partner])
    unseen = list(CardSet(state.snapshot.unseen))
    texts = [data.draw(claim_texts(("LHO", "RHO"), unseen)) for _ in range(4)]
    state.add_inferences([dict(name=f"i{k}", by="LHO", claim=t, tag="agreement-unspecified")
                          for k, t in enumerate(texts)])
    parsed = [parse_claim(t, viewer=state.viewer, declarer=state.declarer) for t in texts]
    for card in cards[1:]:
        state.play(card)
        ev = Solver(state.snapshot.position())
        for k, claim in enumerate(parsed):
            verdict = ev.verdict(claim)
            expected = "impossible" if not verdict.satisfiable else "confirmed" if verdict.valid else "active"
            assert state.statuses()[f"i{k}"].status.value == expected, (texts[k], card)


@pytest.mark.parametrize("claim", ["hascard(LHO, HA) && spades(LHO) == 0", "hcp(RHO) >= 9 && hearts(RHO) >= 3",
                                   "diamonds(LHO) >= 5 ^^ clubs(RHO) == 0"])
def test_agreement_bounds_hold_each_card_where_the_agreement_view_can(claim: str) -> None:
    """Who may hold each card under the claims is what the agreement view's exact odds give a chance above 0."""
    from inference.state.play import PlayState

    state = PlayState("KQ.QJ2.K87.AJ543", declarer="S", contract="3NT", defence_model=None)
    state.add_inference(dict(name="reading", by="LHO", claim=claim))
    state.play("CQ")
    state.table_dummy("A5.K98765.A4.K76")
    bounds, _ = state.agreement_bounds()
    odds = state.odds("agreement")
    for card, by in odds.holder.items():
        assert set(bounds.possible_holders(card)) == {s for s, p in by.items() if p > 0}, (claim, card)
    located = bounds.located()
    assert all(odds.holder[card][seat] == 1 for card, seat in located.items())
    assert bool(located) == claim.startswith("hascard")  # W void in spades: E holds them all, and W the HA
