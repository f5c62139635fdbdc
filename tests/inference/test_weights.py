"""Per-holding weights (:mod:`inference.claims.weights`): exact counts, odds and samples against brute force.

Every expectation here is computed independently: every lawful layout is enumerated
(``layouts_hands``), each is weighed by the product of its concealed seats' dealt-holding weights
(holdings read off the cards by this file's own code, not the library's bit helpers) times the view's
own factor, and the library's numbers must equal the resulting Fractions exactly.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Card, CardSet, Deal, Seat, Suit
from dealer.tables.stats import chi_square
from inference.claims.language import parse_claim
from inference.exact.dealing import DealerLayouts
from inference.errors import InconsistentCardsError, InvalidArgumentError
from inference.exact.graph import LayoutGraph
from inference.claims.inferences import Tag
from inference.exact.layouts import DEFAULT_WEIGHTS, LayoutSpace, View
from inference.state.play import PlayState
from inference.claims.weights import HoldingWeights, holding_bits
from tests.inference.helpers import assert_keeps_the_play
from tests.inference.test_inferences import claim_texts, ending, holds, layouts_hands, three_concealed
from tests.strategies import deals, examples

RANKS = "AKQJT98765432"  # this file's own reading of a holding: bit i is RANKS[i]
Hands = dict[Seat, CardSet]
Reference = Callable[[int], Fraction]  # the weight this file expects for a 13-bit dealt holding


# -- an independent reference ----------------------------------------------------------------------------


def bits(ranks: str) -> int:
    """A holding written as ranks, as a 13-bit int (bit 0 the ace), without the library's helper."""
    return sum(1 << RANKS.index(r) for r in ranks)


def ranks_text(holding: int) -> str:
    """A 13-bit holding as rank text (``"-"`` for a void), the inverse of :func:`bits`."""
    return "".join(r for i, r in enumerate(RANKS) if holding >> i & 1) or "-"


def holding_in(hand: CardSet, suit: int) -> int:
    """A hand's holding in a suit, read off its cards' names."""
    return _holdings(hand.mask)[suit]


@lru_cache(maxsize=None)
def _holdings(mask: int) -> tuple[int, int, int, int]:
    """A hand's four holdings, from its cards' names (cached: brute force meets the same hands again and again)."""
    out = [0, 0, 0, 0]
    for c in CardSet(mask):
        out["SHDC".index(str(c)[0])] |= 1 << RANKS.index(str(c)[1])
    return out[0], out[1], out[2], out[3]


@dataclass
class Expected:
    """Brute-force totals over every lawful layout, as exact Fractions (zero entries left out, as in Odds)."""

    total: Fraction
    support: int
    holder: dict[Card, dict[Seat, Fraction]]
    length: dict[Seat, dict[int, dict[int, Fraction]]]
    hcp: dict[Seat, dict[int, Fraction]]
    split: dict[int, dict[tuple[int, ...], Fraction]]
    weights: list[tuple[Hands, Fraction]]


def layout_weight(hands: Hands, tables: Mapping[tuple[Seat, int], Reference],
                  factor: Callable[[Hands], Fraction]) -> Fraction:
    """A layout's weight: the view's factor times each weighted (seat, suit)'s dealt-holding weight."""
    w = Fraction(factor(hands))
    for (seat, suit), table in tables.items():
        if not w:
            break
        w *= table(holding_in(hands[seat], suit))
    return w


_LAYOUTS: dict[tuple[Any, ...], list[dict[Seat, CardSet]]] = {}


def every_layout(state: PlayState) -> list[dict[Seat, CardSet]]:
    """``layouts_hands(state)``, enumerated once per position (an inference added does not change them)."""
    snap = state.snapshot
    key = (snap.unseen, tuple(snap.played), tuple(snap.remaining), tuple(snap.voids), state.concealed())
    if key not in _LAYOUTS:
        _LAYOUTS.clear()
        _LAYOUTS[key] = layouts_hands(state)
    return _LAYOUTS[key]


def brute_force(state: PlayState, tables: Mapping[tuple[Seat, int], Reference],
                factor: Callable[[Hands], Fraction] = lambda h: Fraction(1)) -> Expected:
    """Every lawful layout of ``state``, weighed; what count, support and every field of odds must be."""
    seats = state.concealed()
    unseen = list(CardSet(state.snapshot.unseen))
    by_hand: dict[Seat, dict[int, Fraction]] = {s: {} for s in seats}  # a seat's dealt hand -> summed weight
    raw_split: dict[tuple[int, ...], Fraction] = {}  # every seat's four dealt lengths -> summed weight
    total, support = Fraction(0), 0
    weighed = []
    for hands in every_layout(state):
        w = layout_weight(hands, tables, factor)
        weighed.append((hands, w))
        if not w:
            continue
        total += w
        support += 1
        for seat in seats:
            m = hands[seat].mask
            by_hand[seat][m] = by_hand[seat].get(m, Fraction(0)) + w
        key = tuple(h.bit_count() for seat in seats for h in _holdings(hands[seat].mask))
        raw_split[key] = raw_split.get(key, Fraction(0)) + w
    t = total or Fraction(1)
    holder = {c: {s: Fraction(0) for s in seats} for c in unseen}
    length: dict[Seat, dict[int, dict[int, Fraction]]] = {s: {q: {} for q in range(4)} for s in seats}
    hcp: dict[Seat, dict[int, Fraction]] = {s: {} for s in seats}
    for seat in seats:
        for m, w in by_hand[seat].items():
            hand = CardSet(m)
            for card in hand:
                if card in holder:
                    holder[card][seat] += w / t
            hcp[seat][hand.hcp] = hcp[seat].get(hand.hcp, Fraction(0)) + w / t
            for q in range(4):
                n = hand.length(q)
                length[seat][q][n] = length[seat][q].get(n, Fraction(0)) + w / t
    split: dict[int, dict[tuple[int, ...], Fraction]] = {q: {} for q in range(4)}
    for key, w in raw_split.items():
        for q in range(4):
            k = tuple(key[4 * i + q] for i in range(len(seats)))
            split[q][k] = split[q].get(k, Fraction(0)) + w / t
    return Expected(total, support, holder, {s: {q: dict(sorted(d.items())) for q, d in by.items()}
                                             for s, by in length.items()}, hcp, split, weighed)


def assert_space_equals(space: LayoutSpace | DealerLayouts, exp: Expected, label: object = "") -> None:
    """count(), support() and every field of odds() equal the brute force exactly (an empty view refuses odds)."""
    assert space.count() == exp.total, label
    assert space.support() == exp.support, label
    if not exp.total:
        assert space.empty, label
        with pytest.raises(InconsistentCardsError):
            space.odds()
        with pytest.raises(InconsistentCardsError):
            space.sample_masks(1, 1)
        return
    odds = space.odds()
    assert odds.layouts == exp.support, label
    assert odds.weight == exp.total, label
    assert odds.holder == exp.holder, label
    assert odds.length == exp.length, label
    assert odds.hcp == exp.hcp, label
    assert odds.split == exp.split, label


def assert_samples_valid(state: PlayState, deals_: Sequence[Deal], tables: Mapping[tuple[Seat, int], Reference],
                         factor: Callable[[Hands], Fraction] = lambda h: Fraction(1)) -> None:
    """Each sample keeps the visible hands, the played cards and the voids, and has a non-zero weight."""
    for deal in deals_:
        hands: Hands = {s: CardSet(deal[s].mask) for s in Seat}
        assert_keeps_the_play(state, hands)
        assert layout_weight(hands, tables, factor) > 0, deal


# -- random weight tables ---------------------------------------------------------------------------------

WEIGHTS = st.one_of(st.sampled_from([0, 1, 2, 3, 7]), st.fractions(min_value=0, max_value=6, max_denominator=12))


@st.composite
def weight_table(draw: st.DrawFn, possible: Sequence[int]) -> tuple[Any, Reference]:
    """A table in one of the accepted forms (int keys, rank-text keys, a function), and the reference weight.

    Keys are mostly holdings the seat may really have been dealt (``possible``), so the weights bite.
    """
    form = draw(st.sampled_from(["ints", "text", "function", "formula"]))
    if form == "formula":  # every holding weighs something: zeros and several denominators
        a, m, d = draw(st.integers(1, 97)), draw(st.integers(2, 6)), draw(st.integers(1, 4))

        def formula(h: int, a: int = a, m: int = m, d: int = d) -> Fraction:
            return Fraction(h * a % m, 1 + h % d)
        return formula, formula
    keys = draw(st.lists(st.sampled_from(sorted(possible)), min_size=1, max_size=3, unique=True))
    if draw(st.booleans()):
        keys.append(draw(st.integers(0, 8191)))
    given_w = {h: draw(WEIGHTS) for h in keys}

    def reference(h: int, table: dict[int, Any] = given_w) -> Fraction:
        return Fraction(table.get(h, 1))
    if form == "ints":
        return dict(given_w), reference
    if form == "text":
        return {ranks_text(h): w for h, w in given_w.items()}, reference
    return (lambda h, table=given_w: table.get(h, 1)), reference


def possible_holdings(state: PlayState, seat: Seat, suit: int) -> list[int]:
    """The dealt holdings ``seat`` may have in ``suit`` (brute force)."""
    return sorted({holding_in(h[seat], suit) for h in every_layout(state)})


def draw_weights(data: st.DataObject, state: PlayState, seats: Sequence[Seat], suits: Sequence[int]
                 ) -> tuple[HoldingWeights, dict[tuple[Seat, int], Reference]]:
    """Random tables for every (seat, suit) given: the library's HoldingWeights and the reference."""
    given_t: dict[tuple[Any, Any], Any] = {}
    reference: dict[tuple[Seat, int], Reference] = {}
    for seat in seats:
        for suit in suits:
            table, ref = data.draw(weight_table(possible_holdings(state, seat, suit)))
            key_seat = data.draw(st.sampled_from([seat, seat.name]))
            key_suit = data.draw(st.sampled_from([Suit(suit), suit, "SHDC"[suit]]))
            given_t[(key_seat, key_suit)] = table
            reference[(seat, suit)] = ref
    return HoldingWeights(given_t), reference


def view_factors(state: PlayState, text: str, tag_weights: Mapping[Tag, int | Fraction]
                 ) -> list[tuple[str, Callable[[Hands], Fraction], Mapping[Tag, Fraction] | None]]:
    """The three views with the inference ``x`` (``text``, by LHO) in force, and each one's factor."""
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    views: list[tuple[str, Callable[[Hands], Fraction], Mapping[Tag, Fraction] | None]] = [
        ("lawful", lambda h: Fraction(1), None)]
    if state.statuses()["x"].status.value in ("active", "confirmed"):  # an impossible claim is not agreed
        views.append(("agreement", lambda h: Fraction(int(holds(claim, h))), None))
    d = DEFAULT_WEIGHTS
    views.append(("weighted", lambda h: d[Tag.CONSISTENT] if holds(claim, h) else d[Tag.INCONSISTENT], None))
    yes, no = Fraction(tag_weights[Tag.CONSISTENT]), Fraction(tag_weights[Tag.INCONSISTENT])
    custom = {t: Fraction(w) for t, w in tag_weights.items()}
    views.append(("weighted", lambda h: yes if holds(claim, h) else no, custom))
    return views


# -- 1. restricted choice ---------------------------------------------------------------------------------


def restricted_choice_state() -> PlayState:
    """Trick 9: West leads the 3, dummy's ace, East drops the queen, South the 4. The jack is the only unseen
    spade; West and East have four unseen places each (no void shown), so a layout with the jack East
    is as likely, lawfully, as one with it West."""
    state = PlayState("S4 C2 C3 C4 C5", declarer="S", contract="NT", dummy="SA D2 D3 D4 D5", leader="W",
                      played={"N": "SK ST S9 S8 S7 S6 S5 S2", "S": "DA DK DQ DJ DT D9 D8 D7",
                              "W": "HA HK HQ HJ HT H9 D6 CA", "E": "CK CQ CJ CT C9 C8 C7 C6"})
    for card in ("S3", "SA", "SQ", "S4"):
        state.play(card)
    return state


def qj_half(h: int) -> Fraction:
    """East would have dropped the jack half the time from Q-J, the queen always from a singleton."""
    return Fraction(1, 2) if h == bits("QJ") else Fraction(1)


@pytest.mark.parametrize("table", [
    {"QJ": Fraction(1, 2), "Q": 1},
    {bits("QJ"): Fraction(1, 2), bits("Q"): 1},
    {"qj": Fraction(2, 4)},
    qj_half,
], ids=["text", "ints", "lowercase-only-QJ", "function"])
def test_restricted_choice(table: Any) -> None:
    """East drops the SQ under the ace; with Q-J weighing 1/2 and Q alone 1, P(East holds SJ) is exactly the
    brute-force 1/3 (and West 2/3), not the lawful 1/2; count and support too."""
    state = restricted_choice_state()
    jack = Card.parse("SJ")
    assert [c for c in CardSet(state.snapshot.unseen) if c.suit == Suit.S] == [jack]
    hw = HoldingWeights({(Seat.E, Suit.S): table})
    space = state.layouts(View("lawful", holdings=hw))
    exp = brute_force(state, {(Seat.E, int(Suit.S)): qj_half})
    assert_space_equals(space, exp)
    assert exp.holder[jack] == {Seat.E: Fraction(1, 3), Seat.W: Fraction(2, 3)}
    assert space.odds().holder[jack][Seat.E] == Fraction(1, 3)
    lawful = state.layouts().odds().holder[jack]
    assert lawful == {Seat.E: Fraction(1, 2), Seat.W: Fraction(1, 2)}
    assert lawful != space.odds().holder[jack]
    # 70 layouts: 35 with the jack East weigh 1/2, 35 with it West weigh 1
    assert space.count() == Fraction(35, 2) + 35 and space.support() == comb(8, 4)


def test_restricted_choice_on_west_weighs_west_only() -> None:
    """Weights given to West apply to West's dealt holding (S3 or SJ3: the Q-J entry never applies): J-3
    weighing 5 gives West the jack 5/6, as brute force says."""
    state = restricted_choice_state()
    hw = HoldingWeights({(Seat.W, Suit.S): {"QJ": Fraction(1, 2), "J3": 5}})
    space = state.layouts(View("lawful", holdings=hw))
    ref = {(Seat.W, 0): lambda h: Fraction(5) if h == bits("J3") else Fraction(1)}
    exp = brute_force(state, ref)
    assert_space_equals(space, exp)
    assert space.odds().holder[Card.parse("SJ")] == {Seat.W: Fraction(5, 6), Seat.E: Fraction(1, 6)}


# -- 2. both defenders, two suits, every view (hypothesis) ------------------------------------------------


@pytest.mark.slow
@settings(max_examples=examples(20), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.integers(36, 44), st.randoms(use_true_random=False), st.data())
def test_weights_on_both_defenders_equal_brute_force_in_every_view(
        deal: Deal, declarer: Seat, n: int, rnd: random.Random, data: st.DataObject) -> None:
    """Random endings, random tables (zero weights, Fractions of several denominators, every accepted form) on
    both defenders in two suits; with a random claim by LHO, in the lawful, agreement and weighted views
    (default and custom tag weights): count, support and every field of odds equal brute force exactly, and
    samples carry no holding of weight 0."""
    state = ending(deal, declarer, n, rnd)
    seats = state.concealed()
    assert len(seats) == 2
    suits = data.draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    hw, reference = draw_weights(data, state, seats, suits)
    text = data.draw(claim_texts(("LHO", "RHO"), list(CardSet(state.snapshot.unseen))))
    state.add_inference(dict(name="x", by="LHO", claim=text))
    tag_weights: dict[Tag, int | Fraction] = {Tag.CONSISTENT: data.draw(WEIGHTS), Tag.UNSPECIFIED: Fraction(1, 2),
                   Tag.INCONSISTENT: data.draw(WEIGHTS)}
    for kind, factor, tw in view_factors(state, text, tag_weights):
        exp = brute_force(state, reference, factor)
        space = state.layouts(View(kind, weights=tw, holdings=hw))
        assert_space_equals(space, exp, (kind, tw, text))
        if exp.total:
            assert_samples_valid(state, space.sample(30, seed=rnd.randrange(1000)), reference, factor)


# -- 3. three concealed hands (hypothesis) ----------------------------------------------------------------


@settings(max_examples=examples(12), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.just(10), st.randoms(use_true_random=False), st.data())
def test_three_concealed_hands_with_weights_equal_brute_force(
        deal: Deal, declarer: Seat, tricks: int, rnd: random.Random, data: st.DataObject) -> None:
    """Dummy not seen (three concealed hands, the HCP odds read per seat): weights on two of the three seats,
    in one or two suits; count, support and odds equal brute force, lawful and weighted."""
    state = three_concealed(deal, declarer, tricks, rnd)
    assert len(state.concealed()) == 3
    seats = data.draw(st.lists(st.sampled_from(state.concealed()), min_size=2, max_size=2, unique=True))
    suits = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    hw, reference = draw_weights(data, state, seats, suits)
    exp = brute_force(state, reference)
    assert_space_equals(state.layouts(View("lawful", holdings=hw)), exp, "lawful")
    text = data.draw(claim_texts(("LHO", "RHO", "partner"), list(CardSet(state.snapshot.unseen))))
    state.add_inference(dict(name="x", by="LHO", claim=text))
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    d = DEFAULT_WEIGHTS
    exp = brute_force(state, reference, lambda h: d[Tag.CONSISTENT] if holds(claim, h) else d[Tag.INCONSISTENT])
    assert_space_equals(state.layouts(View("weighted", holdings=hw)), exp, ("weighted", text))


# -- 4. exact sampling ------------------------------------------------------------------------------------

CHI_P = 1e-4  # a sample passes when its chi-square p-value is above this
N_SAMPLES = 20_000
HEART_FACTORS = {"6": Fraction(4), "5": Fraction(1, 2), "4": Fraction(1), "3": Fraction(3), "2": Fraction(1, 5)}
ZERO_HEARTS = bits("875")  # East's dealt hearts that weigh 0 (East has played the 8 and the 7)


def sampling_state() -> PlayState:
    """After six tricks (South declares, dummy seen): 14 unseen cards, of them the H6-H2 (no honour: a suit's
    rows differ in weight only inside a group of equal length) and two clubs West cannot hold (void)."""
    return PlayState("SQ SJ HQ HJ DK CK C3", declarer="S", contract="NT", dummy="SA SK HA HK DA CA C2",
                     leader="S", voids={"W": "C"},
                     played={"W": "HT H9 DQ DJ ST S6", "E": "H8 H7 CQ CJ DT S5",
                             "N": "S4 S3 D5 D4 C7 C6", "S": "S2 D3 D2 CT C5 C4"})


def east_hearts(h: int) -> Fraction:
    """East's dealt hearts: a factor per unseen heart held; 8-7-5 exactly weighs 0."""
    if h == ZERO_HEARTS:
        return Fraction(0)
    w = Fraction(1)
    for r, f in HEART_FACTORS.items():
        if h >> RANKS.index(r) & 1:
            w *= f
    return w


WEST_DIAMONDS: dict[str, int | Fraction] = {"QJ": 5, "QJ9": Fraction(1, 4), "QJ96": 2, "QJ9876": Fraction(7, 3)}


def west_diamonds(h: int) -> Fraction:
    return Fraction(WEST_DIAMONDS.get(ranks_text(h), 1))


def sampling_weights() -> tuple[HoldingWeights, dict[tuple[Seat, int], Reference]]:
    tables: dict[Any, Any] = {(Seat.E, Suit.H): east_hearts, ("W", "D"): dict(WEST_DIAMONDS)}
    hw = HoldingWeights(tables)
    return hw, {(Seat.E, 1): east_hearts, (Seat.W, 2): west_diamonds}


def holding_distribution(exp: Expected, seat: Seat, suit: int) -> dict[int, Fraction]:
    """P(seat's dealt holding in suit), from the brute force's weighed layouts."""
    out: dict[int, Fraction] = {}
    for hands, w in exp.weights:
        h = holding_in(hands[seat], suit)
        out[h] = out.get(h, Fraction(0)) + w / exp.total
    return out


def sampled_holdings(masks: np.ndarray, seat: Seat, suit: int) -> list[int]:
    """Each sampled deal's holding of ``seat`` in ``suit`` (read through CardSet, not the mask layout)."""
    return [holding_in(CardSet(int(m)), suit) for m in masks[:, int(seat)]]


def chi_p(observed: Mapping[int, int], exact: Mapping[int, Fraction], n: int) -> float:
    """Chi-square p-value of observed holdings against exact probabilities (cells in holding order)."""
    keys = sorted(set(exact) | set(observed))
    return chi_square([observed.get(k, 0) for k in keys], [exact.get(k, Fraction(0)) for k in keys], n)[2]


def biased_within_groups(exact: Mapping[int, Fraction], base: int, unseen: int) -> dict[int, Fraction]:
    """What a sampler that chose a group's rows uniformly would give: the right length, then any of the
    holdings of that length equally (``base`` the cards already known in the holding)."""
    by_len: dict[int, Fraction] = {}
    for h, p in exact.items():
        by_len[(h & ~base).bit_count()] = by_len.get((h & ~base).bit_count(), Fraction(0)) + p
    out = {}
    for sub in range(1 << 13):
        if sub & ~unseen == 0:
            k = sub.bit_count()
            out[base | sub] = by_len.get(k, Fraction(0)) / comb(unseen.bit_count(), k)
    return out


def assert_chi_square_has_power(exact: Mapping[int, Fraction], wrong: Mapping[int, Fraction], n: int) -> None:
    """A sampler drawing from ``wrong`` would fail at ``n`` samples: both its expected counts and a random draw
    from it give a p-value far below the threshold."""
    keys = sorted(set(exact) | set(wrong))
    expected_counts = {k: round(float(wrong.get(k, 0)) * n) for k in keys}
    assert chi_p(expected_counts, exact, n) < CHI_P * 1e-6
    probs = np.array([float(wrong.get(k, 0)) for k in keys])
    drawn = np.random.default_rng(12345).multinomial(n, probs / probs.sum())
    assert chi_p(dict(zip(keys, drawn.tolist())), exact, n) < CHI_P


def test_sampling_is_exact_by_chi_square() -> None:
    """20,000 samples with non-uniform weights inside groups: East's heart holding and West's diamond holding
    pass chi-square against the exact brute-force law, while a sampler uniform inside a group (or ignoring
    the weights altogether) would fail at this size; weight-0 holdings never appear."""
    state = sampling_state()
    hw, reference = sampling_weights()
    space = state.layouts(View("lawful", holdings=hw))
    exp = brute_force(state, reference)
    assert_space_equals(space, exp)
    lawful = brute_force(state, {})
    masks = space.sample_masks(N_SAMPLES, seed=2024)
    assert masks.shape == (N_SAMPLES, 4) and masks.dtype == np.uint64
    unseen = CardSet(state.snapshot.unseen)
    for seat, suit, base in ((Seat.E, 1, bits("87")), (Seat.W, 2, bits("QJ"))):
        exact = holding_distribution(exp, seat, suit)
        unseen_bits = holding_in(unseen, suit)
        assert_chi_square_has_power(exact, biased_within_groups(exact, base, unseen_bits), N_SAMPLES)
        assert_chi_square_has_power(exact, holding_distribution(lawful, seat, suit), N_SAMPLES)
        got = sampled_holdings(masks, seat, suit)
        counts: dict[int, int] = {}
        for h in got:
            counts[h] = counts.get(h, 0) + 1
        assert all(exact.get(h, 0) > 0 for h in counts), "a sampled holding has weight 0"
        assert chi_p(counts, exact, N_SAMPLES) > CHI_P, (seat, suit)
    east = sampled_holdings(masks, Seat.E, 1)
    assert ZERO_HEARTS not in east
    assert holding_distribution(lawful, Seat.E, 1)[ZERO_HEARTS] > Fraction(1, 100)  # lawfully common


def test_sampling_past_int64_is_exact_by_chi_square() -> None:
    """The same weights times 2**70 (the sums pass 63 bits: Python integers, one uniform integer a layout read
    as a path): the same law, so the same chi-square checks hold; weight-0 holdings never appear; same seed,
    same samples."""
    state = sampling_state()
    huge = 2 ** 70

    def east(h: int) -> Fraction:
        return east_hearts(h) * huge

    def west(h: int) -> Fraction:
        return west_diamonds(h) * huge
    space = state.layouts(View("lawful", holdings=HoldingWeights({(Seat.E, Suit.H): east, (Seat.W, Suit.D): west})))
    assert space.dtype is object
    exp = brute_force(state, sampling_weights()[1])
    masks = space.sample_masks(N_SAMPLES, seed=2025)
    assert np.array_equal(masks, space.sample_masks(N_SAMPLES, seed=2025))
    for seat, suit in ((Seat.E, 1), (Seat.W, 2)):
        exact = holding_distribution(exp, seat, suit)
        counts: dict[int, int] = {}
        for h in sampled_holdings(masks, seat, suit):
            counts[h] = counts.get(h, 0) + 1
        assert all(exact.get(h, 0) > 0 for h in counts), "a sampled holding has weight 0"
        assert chi_p(counts, exact, N_SAMPLES) > CHI_P, (seat, suit)
    assert_samples_valid(state, [Deal.from_masks([int(x) for x in row]) for row in masks[:200]],
                         sampling_weights()[1])


def test_sampling_is_reproducible_and_respects_the_play() -> None:
    """Same seed, same samples (masks and deals alike); every sample keeps the played cards, visible hands and
    West's club void, and has a non-zero weight."""
    state = sampling_state()
    hw, reference = sampling_weights()
    space = state.layouts(View("lawful", holdings=hw))
    a, b = space.sample_masks(500, seed=7), space.sample_masks(500, seed=7)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, space.sample_masks(500, seed=8))
    deals_ = space.sample(500, seed=7)
    assert deals_ == [Deal.from_masks([int(x) for x in row]) for row in a]
    assert space.sample(50, seed=random.Random(3)) == space.sample(50, seed=random.Random(3))
    assert_samples_valid(state, deals_, reference)
    assert all(d[Seat.W].length(Suit.C) == 0 for d in deals_)


def test_zero_one_weights_are_sampled_exactly() -> None:
    """Weights of only 0 and 1 (the heaviest row weighs exactly 1, as an unweighted row does): samples still
    skip every weight-0 holding, and East's hearts pass chi-square (a sampler that took such a suit for
    unweighted, choosing a group's rows uniformly, would fail)."""
    state = sampling_state()

    def no_six(h: int) -> Fraction:
        return Fraction(0) if h >> RANKS.index("6") & 1 or h == bits("873") else Fraction(1)
    space = state.layouts(View("lawful", holdings=HoldingWeights({(Seat.E, Suit.H): no_six})))
    exp = brute_force(state, {(Seat.E, 1): no_six})
    assert_space_equals(space, exp)
    n = 5000
    masks = space.sample_masks(n, seed=99)
    exact = holding_distribution(exp, Seat.E, 1)
    counts: dict[int, int] = {}
    for h in sampled_holdings(masks, Seat.E, 1):
        counts[h] = counts.get(h, 0) + 1
    assert all(exact.get(h, 0) > 0 for h in counts), sorted(h for h in counts if not exact.get(h, 0))
    assert chi_p(counts, exact, n) > CHI_P
    assert_chi_square_has_power(exact, biased_within_groups(exact, bits("87"), holding_in(
        CardSet(state.snapshot.unseen), 1)), n)


# -- 5. the Python-integer path ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["lawful", "agreement", "weighted"])
def test_python_int_path_equals_int64_path(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forcing Python integers (as if the sums overflowed int64) gives the same count, support and odds as the
    int64 path, both equal to brute force; samples stay valid."""
    text = "hearts(RHO) >= 3 || hcp(LHO) >= 4"

    def build() -> PlayState:
        state = sampling_state()
        state.add_inference(dict(name="x", by="LHO", claim=text))
        return state

    hw, reference = sampling_weights()
    state = build()
    claim = parse_claim(text, viewer=state.viewer, declarer=state.declarer)
    d = DEFAULT_WEIGHTS
    factor: Callable[[Hands], Fraction] = {
        "lawful": lambda h: Fraction(1), "agreement": lambda h: Fraction(int(holds(claim, h))),
        "weighted": lambda h: d[Tag.CONSISTENT] if holds(claim, h) else d[Tag.INCONSISTENT]}[kind]
    fast = state.layouts(View(kind, holdings=hw))
    assert fast.dtype is np.int64
    monkeypatch.setattr(LayoutGraph, "_overflows", lambda self, w, mult: True)
    slow = build().layouts(View(kind, holdings=hw))  # a fresh state: nothing cached
    assert slow.dtype is object
    exp = brute_force(state, reference, factor)
    assert_space_equals(slow, exp, kind)
    assert_space_equals(fast, exp, kind)
    assert slow.odds() == fast.odds()
    assert_samples_valid(state, slow.sample(200, seed=4) + slow.sample(50, seed=random.Random(4)), reference, factor)


BIG = 2 ** 40


def big_weights() -> tuple[HoldingWeights, dict[tuple[Seat, int], Reference]]:
    """Numerators near 2**40 on four (seat, suit) pairs, over different denominators."""
    def e_hearts(h: int) -> Fraction:
        return (BIG + 1) * east_hearts(h)

    def w_diamonds(h: int) -> Fraction:
        return Fraction(BIG - 3, 7) * west_diamonds(h)

    def e_spades(h: int) -> Fraction:
        return Fraction(BIG + h, 1 + h % 3)

    def w_hearts(h: int) -> Fraction:
        return Fraction(BIG - h, 5) if h % 2 else Fraction(BIG + 11 * h)

    ref: dict[tuple[Seat, int], Reference] = {(Seat.E, 1): e_hearts, (Seat.W, 2): w_diamonds,
                                              (Seat.E, 0): e_spades, (Seat.W, 1): w_hearts}
    hw = HoldingWeights({(Seat.E, Suit.H): e_hearts, (Seat.W, Suit.D): {h: w_diamonds(h) for h in range(8192)},
                         (Seat.E, Suit.S): e_spades, (Seat.W, Suit.H): w_hearts})
    return hw, ref


def test_huge_weights_take_python_integers_and_stay_exact() -> None:
    """Weights near 2**40 on four pairs overflow int64 by themselves: the space switches to Python integers,
    and count, support, odds equal brute force; samples (the Python-integer sampler) are valid, reproducible
    and pass chi-square on East's hearts."""
    state = sampling_state()
    hw, reference = big_weights()
    space = state.layouts(View("lawful", holdings=hw))
    assert space.dtype is object
    exp = brute_force(state, reference)
    assert_space_equals(space, exp)
    n = 4000
    masks = space.sample_masks(n, seed=11)
    assert np.array_equal(masks, space.sample_masks(n, seed=11))
    assert_samples_valid(state, [Deal.from_masks([int(x) for x in row]) for row in masks[:300]], reference)
    exact = holding_distribution(exp, Seat.E, 1)
    counts: dict[int, int] = {}
    for h in sampled_holdings(masks, Seat.E, 1):
        counts[h] = counts.get(h, 0) + 1
    assert ZERO_HEARTS not in counts
    assert chi_p(counts, exact, n) > CHI_P
    assert_chi_square_has_power(exact, biased_within_groups(exact, bits("87"), holding_in(
        CardSet(state.snapshot.unseen), 1)), n)


def test_constant_factors_cancel_in_odds() -> None:
    """Multiplying a table by a constant multiplies the count by it and leaves the odds unchanged, exactly."""
    state = sampling_state()
    hw, _ = sampling_weights()
    scaled = HoldingWeights({(Seat.E, Suit.H): lambda h: (BIG + 1) * east_hearts(h),
                             (Seat.W, Suit.D): {k: Fraction(BIG - 3, 7) * Fraction(v) for k, v in WEST_DIAMONDS.items()}
                             | {h: Fraction(BIG - 3, 7) for h in range(8192) if ranks_text(h) not in WEST_DIAMONDS}})
    small, big = state.layouts(View("lawful", holdings=hw)), state.layouts(View("lawful", holdings=scaled))
    assert big.count() == small.count() * (BIG + 1) * Fraction(BIG - 3, 7)
    assert big.support() == small.support()
    a, b = small.odds(), big.odds()
    assert (a.holder, a.length, a.hcp, a.split) == (b.holder, b.length, b.hcp, b.split)


# -- 6. bad input, immutability, equality -----------------------------------------------------------------

ES = ("E", "S")


@pytest.mark.parametrize("tables, quoted", [
    ({ES: {"QJ": 0.5}}, "0.5"),
    ({ES: lambda h: 0.5}, "0.5"),
    ({ES: {"QJ": -1}}, "-1"),
    ({ES: {"QJ": Fraction(-1, 3)}}, "Fraction(-1, 3)"),
    ({ES: lambda h: -2 if h == 5 else 1}, "-2"),
    ({ES: {"QJ": True}}, "True"),
    ({ES: {"QJ": "1/2"}}, "'1/2'"),
    ({ES: {"QJ": None}}, "None"),
    ({("X", "S"): {}}, "'X'"),
    ({(7, "S"): {}}, "(7, 'S')"),
    ({("E", "Z"): {}}, "'Z'"),
    ({("E", 9): {}}, "('E', 9)"),
    ({"ES": {}}, "'ES'"),
    ({("E",): {}}, "('E',)"),
    ({("E", "S", "H"): {}}, "('E', 'S', 'H')"),
    ({ES: {"QQ": 2}}, "'QQ'"),
    ({ES: {"QX": 2}}, "'QX'"),
    ({ES: {"1": 2}}, "'1'"),
    ({ES: {8192: 2}}, "8192"),
    ({ES: {-1: 2}}, "-1"),
    ({ES: {True: 2}}, "True"),
    ({ES: {2.0: 2}}, "2.0"),
    ({ES: [("QJ", 1)]}, "[('QJ', 1)]"),
    ({ES: 5}, "5"),
    ({ES: None}, "None"),
    ({ES: "QJ"}, "'QJ'"),
])
def test_bad_holding_weights_are_refused(tables: Any, quoted: str) -> None:
    """Float, negative, bool or non-numeric weights, bad seat/suit keys, bad holdings (text or int) and tables
    that are neither a mapping nor a function: InvalidArgumentError quoting the bad value."""
    with pytest.raises(InvalidArgumentError, match=re.escape(quoted)):
        HoldingWeights(tables)


@pytest.mark.parametrize("tables", [[(ES, {})], "ES", 5])
def test_holding_weights_must_be_a_mapping(tables: Any) -> None:
    """The whole argument must be a mapping of (seat, suit) to tables: anything else InvalidArgumentError."""
    with pytest.raises(InvalidArgumentError, match=re.escape(repr(tables))):
        HoldingWeights(tables)


def test_holding_bits_reads_ranks() -> None:
    """holding_bits agrees with this file's reading on every holding (ace bit 0, deuce bit 12), takes "10",
    lower case, "-" and "" for a void, and refuses repeated or unknown ranks quoting them."""
    for h in range(8192):
        assert holding_bits(ranks_text(h)) == h
    assert holding_bits("A2") == 1 | 1 << 12 and holding_bits("QJ") == 4 | 8
    assert holding_bits("k10") == holding_bits("KT") and holding_bits("") == holding_bits("-") == 0
    for bad in ("QQ", "QZ", "1", "K 10"):
        with pytest.raises(InvalidArgumentError, match=re.escape(repr(bad))):
            holding_bits(bad)


def test_holding_weights_are_frozen() -> None:
    """No attribute can be set, the tables' arrays are read-only, and changing the given dict afterwards
    changes nothing."""
    given_t: dict[Any, Any] = {"QJ": Fraction(1, 2)}
    hw = HoldingWeights({(Seat.E, Suit.S): given_t})
    with pytest.raises(AttributeError):
        hw._tables = {}
    with pytest.raises(AttributeError):
        hw._key = ()
    with pytest.raises(AttributeError):
        hw.extra = 1
    found = hw.table(Seat.E, Suit.S)
    assert found is not None
    with pytest.raises(ValueError):
        found[0][bits("QJ")] = 7
    given_t["QJ"] = Fraction(9)
    assert hw.weight(Seat.E, Suit.S, bits("QJ")) == Fraction(1, 2)
    assert hw.weight(Seat.E, Suit.S, bits("Q")) == 1 and hw.weight(Seat.W, Suit.S, bits("QJ")) == 1


def qj_half_k_three(h: int) -> Fraction:
    return {bits("QJ"): Fraction(1, 2), bits("K"): Fraction(3)}.get(h, Fraction(1))


def test_holding_weights_equal_and_hash_by_value() -> None:
    """The same weights written differently (seat and suit forms, int or text keys, a function, another
    denominator) are equal with equal hashes, serve as one cache key for a View, and differ when a weight,
    seat or suit differs."""
    forms = [
        HoldingWeights({(Seat.E, Suit.S): {"QJ": Fraction(1, 2), "K": 3}}),
        HoldingWeights({("E", "S"): {bits("K"): 3, bits("QJ"): Fraction(2, 4)}}),
        HoldingWeights({("east", 0): qj_half_k_three}),
        HoldingWeights({(Seat.E, "S"): {"qj": Fraction(1, 2), "K": Fraction(6, 2), "A": Fraction(5, 5)}}),
    ]
    for other in forms[1:]:
        assert other == forms[0] and hash(other) == hash(forms[0])
    assert len(set(forms)) == 1
    for different in (HoldingWeights({ES: {"QJ": Fraction(1, 3), "K": 3}}),
                      HoldingWeights({("W", "S"): {"QJ": Fraction(1, 2), "K": 3}}),
                      HoldingWeights({("E", "H"): {"QJ": Fraction(1, 2), "K": 3}}),
                      HoldingWeights({ES: {"QJ": Fraction(1, 2)}}), HoldingWeights()):
        assert different != forms[0]
    assert forms[0] != "weights" and not HoldingWeights() and forms[0]
    views = {View("lawful", holdings=f) for f in forms}
    assert len(views) == 1
    state = restricted_choice_state()
    assert state.layouts(View(holdings=forms[0])) is state.layouts(View(holdings=forms[2]))


def test_view_refuses_holdings_that_are_not_holding_weights() -> None:
    """View(holdings=...) takes HoldingWeights or None only, quoting what it got."""
    with pytest.raises(InvalidArgumentError, match="123"):
        View(holdings=123)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match=re.escape("{('E', 'S')")):
        View(holdings={ES: {"QJ": 1}})  # type: ignore[arg-type]
    assert View(holdings=None) == View() and View(holdings=HoldingWeights()).holdings is not None


def test_times_multiplies_weights() -> None:
    """times() weighs each pair by the product of both sets' weights, and the space equals brute force."""
    state = sampling_state()
    a = HoldingWeights({(Seat.E, Suit.H): east_hearts})
    tables: dict[Any, Any] = {(Seat.E, Suit.H): {"876": 3, "87": 0}, (Seat.W, Suit.D): dict(WEST_DIAMONDS)}
    b = HoldingWeights(tables)
    both = a.times(b)
    assert both.weight(Seat.E, Suit.H, bits("876")) == east_hearts(bits("876")) * 3
    assert both.weight(Seat.E, Suit.H, bits("87")) == 0
    ref = {(Seat.E, 1): lambda h: east_hearts(h) * (3 if h == bits("876") else 0 if h == bits("87") else 1),
           (Seat.W, 2): west_diamonds}
    assert_space_equals(state.layouts(View("lawful", holdings=both)), brute_force(state, ref))


def test_all_weights_zero_empties_the_view() -> None:
    """When every possible holding weighs 0 the view is empty: count and support 0, odds and samples refused."""
    state = restricted_choice_state()
    hw = HoldingWeights({(Seat.E, Suit.S): {"QJ": 0, "Q": 0}})
    space = state.layouts(View("lawful", holdings=hw))
    assert_space_equals(space, brute_force(state, {(Seat.E, 0): lambda h: Fraction(0)}))
