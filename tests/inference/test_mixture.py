"""The weighted view past the layout graph's limit: a signed sum of the exact dealer's views.

The expansion of a layout's weight into terms is checked against the product of its factors on every
truth assignment; the view past the limit against the graph's own answer (counts, support, odds,
with holding weights and with weights that make terms negative); its samples by chi-square.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer import Seat
from dealer.cards.cardset import SUIT_MASK
from inference.claims.language import And
from inference.errors import TooComplexError
from inference.claims.inferences import Tag
from inference.exact.layouts import LayoutSpace, View
from inference.exact.mixture import DealerMixture, expand
from inference.state.play import PlayState
from tests.inference.test_weights import chi_p, sampling_state, sampling_weights

weights = st.fractions(min_value=0, max_value=5, max_denominator=6)


def _direct(truth: tuple[bool, ...], singles: list[tuple[Fraction, Fraction]],
            groups: list[list[Fraction]]) -> Fraction:
    """A layout's weight read the plain way: a factor per claim, a group's first reading that holds."""
    out, i = Fraction(1), 0
    for w_true, w_false in singles:
        out *= w_true if truth[i] else w_false
        i += 1
    for members in groups:
        hit = members[-1]
        for j, w in enumerate(members[:-1]):
            if truth[i + j]:
                hit = w
                break
        out *= hit
        i += len(members) - 1
    return out


@given(st.lists(st.tuples(weights, weights), max_size=2),
       st.lists(st.lists(weights, min_size=1, max_size=3), max_size=2))
def test_the_expansion_equals_the_product_of_factors(singles: list[tuple[Fraction, Fraction]],
                                                     groups: list[list[Fraction]]) -> None:
    """On every assignment of truths, the polynomial's terms sum to the layout's weight, and the
    non-zero polynomial to 1 exactly where that weight is not 0."""
    claim = And(())
    claims, poly = expand([(claim, t, f) for t, f in singles], [[(claim, w) for w in g] for g in groups])
    _, nonzero = expand([(claim, t, f) for t, f in singles], [[(claim, w) for w in g] for g in groups], nonzero=True)
    assert len(claims) == len(singles) + sum(len(g) - 1 for g in groups)
    for truth in product((False, True), repeat=len(claims)):
        def value(p: dict[frozenset[int], Fraction]) -> Fraction:
            return sum((c for s, c in p.items() if all(truth[i] for i in s)), Fraction(0))

        wanted = _direct(truth, singles, groups)
        assert value(poly) == wanted
        assert value(nonzero) == int(wanted != 0)


def _state(group: bool) -> PlayState:
    """The sampling state with a claim on each defender, or (``group``) one on West and two readings of a lead."""
    state = sampling_state()
    state.add_inference(dict(name="W", by="W", claim="spades(W) >= 2 && hcp(W) >= 3", tag="consistent"))
    if not group:
        state.add_inference(dict(name="E", by="E", claim="hearts(E) >= 3", tag="unspecified"))
        return state
    state.add_inference(dict(name="lead", by="W", claim="hascard(W, D9)", group="lead", tag="consistent"))
    state.add_inference(dict(name="lead2", by="W", claim="hearts(W) <= 2", group="lead", tag="unspecified"))
    return state


def _refuse_the_graph(monkeypatch: pytest.MonkeyPatch, shrink: Callable[..., None]) -> None:
    """A graph limit of 1 pair, even for small joins, and no graph kept from before."""
    import inference.exact.solver as solver_module

    shrink(graph_pairs=1, small_join=0)
    monkeypatch.setattr(solver_module, "_RECENT", {})


SIGNED = {Tag.CONSISTENT: Fraction(1, 4), Tag.INCONSISTENT: Fraction(1), Tag.UNSPECIFIED: Fraction(3, 2)}


@pytest.mark.slow
@pytest.mark.parametrize("group, tags", [(False, None), (True, SIGNED)])
def test_the_weighted_view_past_the_limit_equals_the_graphs(group: bool, tags: dict[Tag, Fraction] | None,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            shrink_budget: Callable[..., None]) -> None:
    """With the graph refused (a limit of 1 pair), the weighted view comes from the dealer's terms with
    the graph's exact count, support and odds (holding weights on both defenders; with a group of
    readings, or weights that weigh a claim less where it holds, some terms are negative); its samples
    pass chi-square against those odds; same seed, same draw."""
    hw, _ = sampling_weights()
    view = View("weighted", weights=tags, holdings=hw)
    wanted = _state(group).layouts(view)
    assert isinstance(wanted, LayoutSpace)
    odds = wanted.odds()
    _refuse_the_graph(monkeypatch, shrink_budget)
    mixed = _state(group).layouts(view)
    assert isinstance(mixed, DealerMixture)
    assert any(coef < 0 for coef, _ in mixed.terms) == group
    assert (mixed.count(), mixed.support()) == (wanted.count(), wanted.support())
    got = mixed.odds()
    assert (got.layouts, got.weight, got.length, got.hcp, got.split) == \
        (odds.layouts, odds.weight, odds.length, odds.hcp, odds.split)
    assert {c: {s: p for s, p in by.items() if p} for c, by in got.holder.items()} == \
        {c: {s: p for s, p in by.items() if p} for c, by in odds.holder.items()}
    n = 4000
    masks = mixed.sample_masks(n, seed=7)
    assert (mixed.sample_masks(50, seed=9) == mixed.sample_masks(50, seed=9)).all()
    spades: dict[int, int] = {}
    for m in masks[:, int(Seat.W)].tolist():
        k = (int(m) & SUIT_MASK).bit_count()
        spades[k] = spades.get(k, 0) + 1
    assert chi_p(spades, odds.length[Seat.W][0], n) > 1e-4


def test_the_weighted_view_past_the_limit_is_refused_when_the_dealer_cannot_take_it(
        monkeypatch: pytest.MonkeyPatch, shrink_budget: Callable[..., None]) -> None:
    """A relation between seats is not the dealer's: refused, with the state unchanged."""
    state = sampling_state()
    state.add_inference(dict(name="R", by="W", claim="hcp(W) > hcp(E)", tag="consistent"))
    _refuse_the_graph(monkeypatch, shrink_budget)
    before: Any = (state.ply, state.snapshot)
    with pytest.raises(TooComplexError, match="exact dealer cannot take"):
        state.layouts("weighted")
    assert (state.ply, state.snapshot) == before


def test_too_many_terms_are_refused(shrink_budget: Callable[..., None]) -> None:
    """Past the budget's ``mixture_terms`` the expansion is refused with the count in the message."""
    shrink_budget(mixture_terms=3)
    claim = And(())
    with pytest.raises(TooComplexError, match="4 dealer terms, over the limit of 3"):
        expand([(claim, Fraction(1), Fraction(1, 2))] * 2, [])
    assert len(expand([(claim, Fraction(1), Fraction(1, 2))], [])[1]) == 2


def test_power_two_sums_each_layouts_squared_weight() -> None:
    """``View(power=2)``: the count is the sum over every lawful layout of its weight squared (holding weights
    on both defenders times a claim's tag weight), by brute force; power 1, the plain sum; power 0 refused."""
    from inference.claims.language import parse_claim
    from inference.errors import InvalidArgumentError
    from tests.inference.test_inferences import holds
    from tests.inference.test_weights import brute_force

    state = PlayState("SQ SJ HQ HJ DK CK C3", declarer="S", contract="NT", dummy="SA SK HA HK DA CA C2",
                      leader="S", voids={"W": "C"}, defence_model=None,  # sampling_state's, the evidence off
                      played={"W": "HT H9 DQ DJ ST S6", "E": "H8 H7 CQ CJ DT S5",
                              "N": "S4 S3 D5 D4 C7 C6", "S": "S2 D3 D2 CT C5 C4"})
    text = "spades(W) >= 2 && hcp(W) >= 3"
    state.add_inference(dict(name="W", by="W", claim=text, tag="unspecified"))
    claim = parse_claim(text, viewer="S")
    hw, reference = sampling_weights()
    exp = brute_force(state, reference, lambda hands: Fraction(1, 2) if holds(claim, hands) else Fraction(1, 20))
    assert state.layouts(View("weighted", holdings=hw)).count() == sum(w for _, w in exp.weights)
    assert state.layouts(View("weighted", holdings=hw, power=2)).count() == sum(w * w for _, w in exp.weights)
    with pytest.raises(InvalidArgumentError, match="power"):
        View("weighted", power=0)


def test_a_long_group_is_refused_before_its_terms_are_many() -> None:
    """A group of 40 readings would expand to 2**40 terms: refused at once, not after hours."""
    import time

    from inference.claims.language import parse_claim

    members = [(parse_claim(f"hcp(W) == {h}"), Fraction(h + 1)) for h in range(40)] + [(And(()), Fraction(1))]
    start = time.perf_counter()
    with pytest.raises(TooComplexError, match="dealer terms"):
        expand([], [members])
    assert time.perf_counter() - start < 5
