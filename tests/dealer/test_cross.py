"""Conditions across seats counted exactly (dealer.spec.cross): against brute force, disjoint unions and chi-square.

The oracles never use the joint acceptance: brute force enumerates every completion of a deal with
a few free cards and evaluates the condition on the four final hands (a home-made evaluator over
the syntax tree); the disjoint union sums, over the values of one side, per-seat specs the dealer
counts without any joint condition.
"""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from dealer.cards.cardset import CardSet
from dealer.budget import current
from dealer.spec.cross import CrossCondition, joinable
from dealer.errors import UnsupportedSpecError
from dealer.tables.exact import ExactDealer
from dealer.lang.expr import And, Arith, Compare, Cond, Const, Expr, Hcp, Length
from dealer.run.script_dealer import ScriptDealer
from dealer.cards.seat import Seat
from dealer.spec.spec import DealSpec, SeatSpec
from dealer.lang.statements import parse_statements
from dealer.cards.suit import Suit
from dealer.lang.syntax import parse_condition
from tests.dealer.oracle import deal_function, deal_value, hand_hcp, iter_completions
from tests.strategies import examples


value = deal_value  # the oracle's own evaluator, node by node


def brute(predeal: list[int], cond: Cond) -> tuple[int, set[tuple[int, int, int, int]]]:
    """Every completion of ``predeal`` meeting ``cond``: how many, and which."""
    meets = deal_function(cond)
    deals = {hands for hands, _ in iter_completions(predeal, [None] * 4) if meets(hands)}
    return len(deals), deals


def exact(text: str) -> int:
    return int(ExactDealer(DealSpec.parse(text)).count())


def joint_count(cond: str, spec: str = "") -> int:
    dealer = ExactDealer(DealSpec.parse(spec) if spec else DealSpec(), across=CrossCondition.build([parse_condition(cond)]))
    return int(dealer.count())


# -- whole deals: the count equals a disjoint union over the values of one side ------------------------

def test_partnership_hcp_equals_the_union_over_north_values() -> None:
    union = sum(exact(f"hcp(north) == {h} && hcp(south) >= {25 - h}") for h in range(25)) + exact("hcp(north) >= 25")
    assert joint_count("hcp(north) + hcp(south) >= 25") == union


def test_combined_spades_equal_the_union_and_a_closed_form() -> None:
    union = sum(exact(f"spades(north) == {a} && spades(south) >= {8 - a}") for a in range(8)) \
        + exact("spades(north) >= 8")
    # closed form: North and South share 26 cards, 13 of them spades: C(13,k) C(39,26-k) ways for the pair's cards
    pair = sum(comb(13, k) * comb(39, 26 - k) for k in range(8, 14))
    closed = pair * comb(26, 13) * comb(26, 13)  # split the pair's cards, then East and West's
    assert joint_count("spades(north) + spades(south) >= 8") == union == closed


def test_hcp_comparison_between_opponents() -> None:
    union = sum(exact(f"hcp(east) == {h} && hcp(west) < {h}") for h in range(1, 38))
    assert joint_count("hcp(east) > hcp(west)") == union
    # by symmetry East has more exactly as often as West has more
    assert joint_count("hcp(west) > hcp(east)") == union


def test_joint_with_seat_conditions_and_three_seats() -> None:
    spec = "shape(north, any 4333 + any 4432 + any 5332) && hcp(north) >= 15 && hcp(north) <= 17"
    union = sum(exact(f"{spec} && hcp(north) == {h} && hcp(south) >= {26 - h}") for h in (15, 16, 17))
    assert joint_count("hcp(north) + hcp(south) >= 26", spec) == union
    three = "hcp(north) + hcp(south) + hcp(east) <= 12"
    union3 = sum(exact(f"hcp(north) == {a} && hcp(south) == {b} && hcp(east) <= {12 - a - b}")
                 for a in range(13) for b in range(13 - a))
    assert joint_count(three) == union3


def test_distribution_under_a_joint_condition() -> None:
    dealer = ExactDealer(DealSpec(), across=CrossCondition.build([parse_condition("hcp(north) + hcp(south) >= 25")]))
    dist = dealer.distribution(Seat.N, "hcp")
    for h in (0, 12, 24, 30):
        want = exact(f"hcp(north) == {h} && hcp(south) >= {25 - h}") if h < 25 else exact(f"hcp(north) == {h}")
        assert dist.get(h, 0) == want
    assert sum(dist.values()) == dealer.count()


# -- small deals: brute force -------------------------------------------------------------------------

EXAMPLES = [
    "hcp(north) + hcp(south) >= 25",
    "spades(north) + spades(south) >= 8",
    "hcp(east) > hcp(west)",
    "hcp(north) - 2 * hearts(south) + clubs(west) <= 9",
    "hcp(north) >= 20 || hcp(south) >= 20",
    "!(spades(west) >= 4 && hcp(east) >= 8)",
]


@pytest.mark.parametrize("text", EXAMPLES)
@pytest.mark.parametrize("seed", range(3))
def test_count_and_samples_against_brute_force(text: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    order = rng.permutation(52)
    deal = [sum(1 << int(c) for c in order[13 * k:13 * k + 13]) for k in range(4)]
    free = sum(1 << int(c) for c in rng.choice(52, size=9, replace=False))
    predeal = [h & ~free for h in deal]
    cond = parse_condition(text)
    truth, deals = brute(predeal, cond)
    spec = DealSpec(seats={s: SeatSpec(predeal=CardSet(predeal[s])) for s in Seat})
    dealer = ExactDealer(spec, across=CrossCondition.build([cond]))
    assert dealer.count() == truth
    if truth:
        for row in dealer.sample_masks(200, seed):
            assert tuple(int(x) for x in row) in deals


@st.composite
def linear_conditions(draw: st.DrawFn) -> tuple[list[int], Cond]:
    """A random deal with 6..10 free cards and a random linear condition over 2..4 seats, tight around its value."""
    order = draw(st.permutations(range(52)))
    deal = [sum(1 << i for i in order[13 * k:13 * k + 13]) for k in range(4)]
    free_cards = draw(st.lists(st.integers(0, 51), min_size=6, max_size=10, unique=True))
    free = sum(1 << i for i in free_cards)
    seats = draw(st.lists(st.sampled_from(list(Seat)), min_size=2, max_size=4, unique=True))
    terms: list[Expr] = []
    for seat in seats:
        feature: Expr = Hcp(seat) if draw(st.booleans()) else Length(seat, Suit(draw(st.integers(0, 3))))
        coeff = draw(st.sampled_from([-2, -1, 1, 2, 3]))
        terms.append(feature if coeff == 1 else Arith("*", Const(coeff), feature))
    total: Expr = terms[0]
    for t in terms[1:]:
        total = Arith("+", total, t)
    actual = value(total, deal)
    op = draw(st.sampled_from(["<", "<=", "==", ">=", ">", "!="]))
    cond: Cond = Compare(op, total, Const(actual + draw(st.integers(-3, 3))))
    if draw(st.integers(0, 3)) == 0:  # joined with a condition on one seat
        seat = draw(st.sampled_from(list(Seat)))
        cond = And((cond, Compare("<=", Hcp(seat), Const(hand_hcp(deal[seat]) + draw(st.integers(-1, 3))))))
    return [h & ~free for h in deal], cond


@pytest.mark.slow
@given(linear_conditions())
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_linear_conditions_against_brute_force(case: tuple[list[int], Cond]) -> None:
    predeal, cond = case
    truth, deals = brute(predeal, cond)
    spec = DealSpec(seats={s: SeatSpec(predeal=CardSet(predeal[s])) for s in Seat if predeal[s]})
    dealer = ExactDealer(spec, across=CrossCondition.build([cond]))
    assert dealer.count() == truth
    if truth:
        for row in dealer.sample_masks(50, 1):
            assert tuple(int(x) for x in row) in deals


# -- uniformity ---------------------------------------------------------------------------------------

def test_samples_are_uniform_over_a_small_deal_chi_square() -> None:
    """Every deal meeting the condition equally likely: 30,000 draws over the brute-force set."""
    rng = np.random.default_rng(17)
    order = rng.permutation(52)
    deal = [sum(1 << int(c) for c in order[13 * k:13 * k + 13]) for k in range(4)]
    free = sum(1 << int(c) for c in rng.choice(52, size=8, replace=False))
    predeal = [h & ~free for h in deal]
    cond = parse_condition("hcp(north) + hcp(south) >= hcp(east) + hcp(west)")
    truth, deals = brute(predeal, cond)
    assert 20 <= truth <= 3000
    spec = DealSpec(seats={s: SeatSpec(predeal=CardSet(predeal[s])) for s in Seat})
    dealer = ExactDealer(spec, across=CrossCondition.build([cond]))
    draws = 30_000
    seen = Counter(tuple(int(x) for x in row) for row in dealer.sample_masks(draws, 5))
    assert set(seen) <= deals
    observed = [seen.get(d, 0) for d in sorted(deals)]
    _, pvalue = scipy_stats.chisquare(observed)
    assert pvalue > 1e-3


def test_whole_deals_follow_the_exact_distribution_chi_square() -> None:
    """hcp(north) among deals with hcp(north) + hcp(south) >= 26 against the union's exact weights."""
    dealer = ExactDealer(DealSpec(), across=CrossCondition.build([parse_condition("hcp(north) + hcp(south) >= 26")]))
    weights = {h: exact(f"hcp(north) == {h} && hcp(south) >= {26 - h}") for h in range(26)}
    weights.update({h: exact(f"hcp(north) == {h}") for h in range(26, 38)})
    total = sum(weights.values())
    assert total == dealer.count()
    masks = dealer.sample_masks(40_000, 9)
    north = np.array([hand_hcp(int(m)) for m in masks[:, 0]])
    south = np.array([hand_hcp(int(m)) for m in masks[:, 2]])
    assert (north + south >= 26).all()
    keys = [h for h in weights if weights[h] * 40_000 / total >= 5]
    observed = [int((north == h).sum()) for h in keys]
    expected = [weights[h] * 40_000 / total for h in keys]
    scale = sum(observed) / sum(expected)
    _, pvalue = scipy_stats.chisquare(observed, [e * scale for e in expected])
    assert pvalue > 1e-3


# -- the runner: exact, and the old filter's estimate agrees ------------------------------------------

def test_scripts_count_cross_seat_arithmetic_exactly() -> None:
    text = "hcp(north) + hcp(south) >= 26 && spades(north) + spades(south) >= 8"
    run = ScriptDealer(parse_statements(text))
    assert run.exact and run.residual == [] and run.across is not None
    result = run.count()
    assert result.exact and "count: exact" in result.text()
    both = CrossCondition.build([parse_condition("hcp(north) + hcp(south) >= 26"),
                                 parse_condition("spades(north) + spades(south) >= 8")])
    assert result.deals == ExactDealer(DealSpec(), across=both).count()
    old = ScriptDealer(parse_statements(text), across=False).count(draws=100_000, seed=4)
    assert not old.exact and result.deals is not None
    sigma = (old.high - old.low) / 3.92  # the filter's estimate (old path) lies within 4 sigma of the exact count
    assert abs(old.estimate - result.deals) < 4 * sigma


def test_scripts_mix_joint_conditions_with_unions_and_filters() -> None:
    run = ScriptDealer(parse_statements("hcp(north) + hcp(south) >= 24 && (hascard(west, C2) || hascard(east, D2))"))
    assert run.exact and run.across is not None
    parts = [f"hcp(north) + hcp(south) >= 24 && {x}" for x in
             ("hascard(west, C2)", "hascard(east, D2)", "hascard(west, C2) && hascard(east, D2)")]
    counts = [ScriptDealer(parse_statements(p)).count().deals for p in parts]
    assert run.count().deals == counts[0] + counts[1] - counts[2]
    three = "hcp(north) + hcp(south) >= 24 && losers(north) <= 6 && top3(north) >= 2"  # a third count of North's
    held = ScriptDealer(parse_statements(three))
    assert held.exact and held.residual == [] and held.spec.seat("N").side is not None
    old = ScriptDealer(parse_statements(three), across=False).count(draws=100_000, seed=5)
    assert not old.exact and abs(old.estimate - int(held.count().deals or 0)) < 4 * (old.high - old.low) / 3.92
    filtered = ScriptDealer(parse_statements("hcp(north) + hcp(south) >= 24 && quality(north, spades) >= 400"))
    assert not filtered.exact and [str(c) for c in filtered.residual] == ["quality(north, spades) >= 400"]
    masks = filtered.sample_masks(300, 2)
    assert all(hand_hcp(int(m[0])) + hand_hcp(int(m[2])) >= 24 for m in masks)


def test_what_cannot_be_joined() -> None:
    assert not joinable(parse_condition("hascard(west, C2) || hcp(east) > 10"))
    assert not joinable(parse_condition("hcp(north, spades) > hcp(south, spades)"))
    assert not joinable(parse_condition("hcp(north) >= 10"))  # one seat: the seat's own table
    assert joinable(parse_condition("shape(north, any 4333) || shape(south, any 4333)"))
    with pytest.raises(UnsupportedSpecError, match="hascard"):
        CrossCondition.build([parse_condition("hascard(west, C2) || hcp(east) > 10")])
    many = " + ".join(f"{s}({seat})" for seat in ("north", "east", "south", "west") for s in ("spades", "hearts"))
    with pytest.raises(UnsupportedSpecError, match=f"{current().label_cells:,}"):
        CrossCondition.build([parse_condition(f"hcp(north) * {many} >= hcp(east) * hcp(south) * hcp(west)")])


def test_an_impossible_joint_condition_is_empty_and_says_why() -> None:
    dealer = ExactDealer(DealSpec.parse("hcp(north) >= 20"),
                         across=CrossCondition.build([parse_condition("hcp(north) + hcp(south) <= 15")]))
    assert dealer.count() == 0 and dealer.is_empty
    assert "never together with" in dealer.explain_empty()


def test_labels_within_the_seats_own_classes() -> None:
    """Classes a seat's own conditions reject get no label (South: 9, 10, 11+; 8 never reaches 26)."""
    spec = DealSpec.parse("hcp(north) >= 15 && hcp(north) <= 17 && hcp(south) >= 8")
    cond = parse_condition("hcp(north) + hcp(south) >= 26")
    small = CrossCondition.build([cond], within={s: spec.seat(s).accepted(s) for s in Seat})
    full = CrossCondition.build([cond])
    assert small.accept.shape == (3, 3) and full.accept.shape == (27, 27)
    assert ExactDealer(spec, across=small).count() == ExactDealer(spec, across=full).count() == sum(
        exact(f"hcp(north) == {h} && hcp(south) >= {26 - h}") for h in (15, 16, 17))


def test_a_condition_whose_joint_labels_are_too_many_is_filtered_not_refused() -> None:
    """A script is never refused for a condition across seats: one beyond the budget's label_cells is filtered,
    and the others are still counted through the seats' labels."""
    many = " + ".join(f"{s}({seat})" for seat in ("north", "east", "south", "west") for s in ("spades", "hearts"))
    big = f"hcp(north) * {many} >= hcp(east) * hcp(south) * hcp(west)"
    run = ScriptDealer(parse_statements(f"condition hcp(north) + hcp(south) >= 24 && {big}"))
    assert not run.exact and run.across is not None and str(run.across) == "(hcp(north) + hcp(south)) >= 24"
    assert [str(c) for c in run.residual] == [str(parse_condition(big))]
    masks = run.sample_masks(200, 5)
    assert all(value(parse_condition(big), [int(x) for x in m]) for m in masks)
    assert all(hand_hcp(int(m[0])) + hand_hcp(int(m[2])) >= 24 for m in masks)


@pytest.mark.parametrize("bound, expected", [(1, 1), (-100, 0)])
def test_a_condition_on_fully_predealt_seats_alone(bound: int, expected: int) -> None:
    """East and South fully predealt, the condition on them only: no seat is tracked, the joint
    acceptance is one value (it was made one-dimensional, and the tables refused it)."""
    predeal = {Seat.N: "SA98765", Seat.E: "HAKQJT98765432", Seat.S: "DAKQJT98765432", Seat.W: "CAKQJT98765432"}
    spec = DealSpec(seats={s: SeatSpec(predeal=CardSet.parse(cards)) for s, cards in predeal.items()})
    dealer = ExactDealer(spec, across=CrossCondition.build([parse_condition(
        f"-2 * spades(east) + -2 * spades(south) < {bound}")]))
    assert dealer.tracked == () and dealer.count() == expected  # North takes the seven spades left


def test_hcp_is_never_read_off_a_table_that_counts_another_count() -> None:
    """North's conditions use controls only, so its tables count controls in HCP's place: its HCP distribution
    and a condition across seats reading hcp(north) are refused there, and right with HCP kept on its axis."""
    from dealer import Seat
    from dealer.errors import UnsupportedSpecError
    from dealer.spec.language import parse_condition as condition
    from dealer.spec.spec import DealSpec
    from dealer.tables.exact import ExactDealer

    with pytest.raises(UnsupportedSpecError, match="count another whole-hand count in place of HCP"):
        ExactDealer(DealSpec.parse("controls(north) >= 10")).distribution("N", "hcp")
    across = CrossCondition.build([condition("hcp(north) + hcp(south) >= 30")])
    with pytest.raises(UnsupportedSpecError, match="a condition across seats reads hcp\\(north\\)"):
        ExactDealer(DealSpec.parse("controls(north) >= 4"), across=across)
    spec = DealSpec.from_conditions([condition("controls(north) >= 10")], {}, hcp_seats=frozenset({Seat.N}))
    hcp = ExactDealer(spec).distribution("N", "hcp")
    assert min(hcp) == 22 and max(hcp) == 37  # ten controls: at least A A A A K K (22 HCP)
    assert sum(hcp.values()) == ExactDealer(spec).count()
