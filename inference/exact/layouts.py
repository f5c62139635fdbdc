"""Layouts of the unseen cards consistent with the play: exact counts, exact odds, exact sampling.

A *layout* assigns every unseen card to a concealed seat, lawfully (hand sizes, voids). Three views:

* **lawful** - every lawful layout counts once;
* **agreement** - the lawful layouts where the agreement view's claim holds (the inferences whose tags
  are in the policy, after the conflict policy);
* **weighted** - every lawful layout, weighted by the product over inferences of a likelihood that
  depends on the inference's tag and on whether its claim holds in the layout: by default 1 for an
  agreement-consistent reading, 1/2 for an unspecified one, 1/20 for an inconsistent one; a claim
  that does not hold counts as inconsistent; a group (the readings of a lead) weighs a layout by the
  reading that holds in it.

How: one layout graph (:mod:`inference.exact.graph`) built for the view's claims: suit by suit, every way
of sharing the suit's unseen cards among the concealed seats, grouped by what the claims need to tell
apart, with each holding's weight (:class:`~inference.claims.weights.HoldingWeights`, ``View(holdings=...)``).
A forward pass weighs the ways to reach each state; each final state gets its weight (the claims are
read off it); a backward pass sums weights. Odds are read off the edges, sampling walks the suits
choosing edges in proportion to their exact weight and then one of the group's card assignments in
proportion to its own weight (integers only). Nothing is rejected. Past the graph's limit the lawful
and agreement views come from the exact dealer (:class:`~inference.exact.dealing.DealerLayouts`), and the
weighted view from a signed sum of the dealer's views (:class:`~inference.exact.mixture.DealerMixture`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Mapping, Sequence, Union, cast

import numpy as np

from dealer import CARDS, Card, Deal, Seat
from dealer.arrays import INT64_LIMIT, exact_ints
from dealer.checks import check_int, shown
from dealer.lang.expr import Node
from dealer.rng import RandomSource

from inference.claims.language import And, Claim
from inference.errors import InconsistentCardsError, InvalidArgumentError
from inference.claims.features import Feature
from inference.claims.inferences import Inference, InferenceState, Status, Tag, parse_policy
from inference.exact.statuses import agreement_claim, agreement_units
from inference.exact.columns import plan
from inference.exact.dealing import DealerLayouts
from inference.exact.distribution import distribution, pair_distribution
from inference.exact.mixture import DealerMixture
from inference.exact.graph import LayoutGraph, sum_by
from inference.exact.odds import Odds
from inference.exact.sampling import MAX_LAYOUTS_AT_ONCE, Sampler, draw_generator
from inference.exact.kernel import holding_of
from inference.exact.position import Position
from inference.exact.solver import Solver
from inference.claims.weights import HoldingWeights

__all__ = ["View", "Odds", "LayoutSpace", "Layouts", "DEFAULT_WEIGHTS", "VIEWS", "MAX_LAYOUTS_AT_ONCE", "layout_space"]

VIEWS = ("lawful", "agreement", "weighted")
#: Likelihood of an action given a layout, by the tag of the reading that holds in it.
DEFAULT_WEIGHTS: Mapping[Tag, Fraction] = {
    Tag.CONSISTENT: Fraction(1), Tag.UNSPECIFIED: Fraction(1, 2), Tag.INCONSISTENT: Fraction(1, 20)}


@dataclass(frozen=True)
class View:
    """Which layouts count and how much: ``kind`` lawful, agreement or weighted.

    ``weights`` replace the likelihoods of the tags in the weighted view; ``holdings``
    (:class:`~inference.claims.weights.HoldingWeights`) weigh every layout, in any view, by the
    concealed seats' dealt holdings (what a model of the defenders' play gives). ``power`` raises
    each layout's weight to that power: with 2, the view's count is the sum of the squared weights,
    so ``count(weighted) ** 2 / (count(lawful) * count(power 2))`` is the share of the lawful
    layouts the weighted view effectively keeps (its effective sample size over the number drawn).
    ``factors`` weigh the weighted view's layouts further: in each group of (claim, weight), the first claim
    that holds gives the layout its weight (none: 1), as a graded likelihood does (``hcp(E) == h`` for each
    ``h``: :mod:`inference.auction.likelihood`).
    """

    kind: str = "lawful"
    policy: frozenset[Tag] = frozenset({Tag.CONSISTENT})
    weights: Mapping[Tag, Fraction] | None = None
    holdings: HoldingWeights | None = None
    power: int = 1
    factors: tuple[tuple[tuple[Claim, Fraction], ...], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in VIEWS:
            raise InvalidArgumentError(f"invalid view {shown(self.kind)}: expected one of {', '.join(VIEWS)}")
        object.__setattr__(self, "policy", parse_policy(self.policy))
        if self.weights is not None:
            if not isinstance(self.weights, Mapping):
                raise InvalidArgumentError(f"invalid weights {shown(self.weights)}: expected {{tag: Fraction}}")
            weights = {}
            for tag, w in self.weights.items():
                if isinstance(w, bool) or not isinstance(w, (int, Fraction)) or w < 0:
                    raise InvalidArgumentError(f"invalid weight {shown(w)} for {shown(tag)}: expected an int or a "
                                               "Fraction >= 0 (exact: no floats)")
                weights[Tag.parse(tag)] = Fraction(w)
            object.__setattr__(self, "weights", weights)
        if self.holdings is not None and not isinstance(self.holdings, HoldingWeights):
            raise InvalidArgumentError(f"invalid holdings {shown(self.holdings)}: expected HoldingWeights")
        check_int(self.power, "the power of the weights", InvalidArgumentError, lo=1, hi=4)
        if not isinstance(self.factors, tuple) or not all(isinstance(g, tuple) for g in self.factors):
            raise InvalidArgumentError(f"invalid factors {shown(self.factors)}: expected a tuple of groups (tuples)")
        for group in self.factors:
            for member in group:
                ok = isinstance(member, tuple) and len(member) == 2 and isinstance(member[0], Node)
                weight: object = member[1] if ok else None
                if isinstance(weight, bool) or not isinstance(weight, (int, Fraction)) or weight < 0:
                    raise InvalidArgumentError(f"invalid factor {shown(member)}: expected (claim, an int or a "
                                               "Fraction >= 0)")

    def weighing(self) -> HoldingWeights | None:
        """The holding weights to the view's power."""
        if self.holdings is None or self.power == 1:
            return self.holdings
        out = self.holdings
        for _ in range(self.power - 1):
            out = out.times(self.holdings)
        return out


def _view_claims(view: View, inferences: Sequence[Inference], claims: Mapping[str, Sequence[Claim]] | None,
                 states: Mapping[str, InferenceState] | None) -> tuple[list[tuple[Claim, Fraction, Fraction]],
                                                                        list[list[tuple[Claim, Fraction]]]]:
    """The weighted view's claims: (claim, weight if true, weight if false), and each group's (claim, weight)."""
    weights = {tag: w ** view.power for tag, w in {**DEFAULT_WEIGHTS, **(view.weights or {})}.items()}
    singles: list[tuple[Claim, Fraction, Fraction]] = []
    groups: dict[str, list[tuple[Claim, Fraction]]] = {}
    if view.kind != "weighted":
        return singles, []
    for inf in inferences:
        st = (states or {}).get(inf.name)
        if st is None or st.status == Status.SUPERSEDED:
            continue
        claim = (claims or {})[inf.name][st.level]
        if inf.group:
            groups.setdefault(inf.group, []).append((claim, weights[inf.tag]))
        elif inf.weight is not None:  # a measured likelihood ratio (inference.auction): true vs false
            singles.append((claim, Fraction(inf.weight).limit_denominator(10 ** 6) ** view.power, Fraction(1)))
        else:
            singles.append((claim, weights[inf.tag], weights[Tag.INCONSISTENT]))
    extra = [[(c, Fraction(w) ** view.power) for c, w in members] + [(And(()), Fraction(1))] for members in view.factors]
    return singles, [members + [(And(()), weights[Tag.INCONSISTENT])] for members in groups.values()] + extra


def _final_weights(graph: LayoutGraph, singles: Sequence[tuple[Claim, Fraction, Fraction]],
                   groups: Sequence[Sequence[tuple[Claim, Fraction]]]) -> tuple[np.ndarray, int]:
    """Each final state's integer weight (the product of a factor per claim, 0 where not accepted) and the
    scale that stands for a weight of 1."""
    compiled = iter(graph.plan.claims)
    n = len(graph.layers[-1])
    factors: list[np.ndarray] = []
    scale = 1
    for _, w_true, w_false in singles:
        truth = graph.truth(next(compiled))
        d = lcm(w_true.denominator, w_false.denominator)
        factors.append(exact_ints([int(w_false * d), int(w_true * d)])[truth.astype(np.int64)])
        scale *= d
    for members in groups:  # the first reading that holds weighs the layout; none: the last (inconsistent)
        hit = np.full(n, len(members) - 1, dtype=np.int64)
        truths = [graph.truth(next(compiled)) for _ in members[:-1]]
        for j in range(len(truths) - 1, -1, -1):
            hit = np.where(truths[j], j, hit)
        d = lcm(*(w.denominator for _, w in members))
        factors.append(exact_ints([int(w * d) for _, w in members])[hit])
        scale *= d
    bound = 1
    for f in factors:
        bound *= max(1, int(f.max()) if len(f) else 1)
    weight: np.ndarray = graph.accept.astype(np.int64) if bound < INT64_LIMIT else graph.accept.astype(object)
    for f in factors:
        weight = weight * (f if weight.dtype != object else f.astype(object))
    common = scale  # keep the integers small: divide weights and scale by their common factor
    for w in np.unique(weight).tolist():
        common = gcd(common, int(w))
        if common == 1:
            break
    if common > 1:
        weight = weight // common
        scale //= common
    return weight, scale


class LayoutSpace:
    """The layouts of a position's unseen cards in one view: counts, odds and samples, all exact."""

    def __init__(self, position: Position, view: View = View(), inferences: Sequence[Inference] = (),
                 claims: Mapping[str, Sequence[Claim]] | None = None,
                 states: Mapping[str, InferenceState] | None = None, agreement: Claim | None = None) -> None:
        self.position = position
        self.view = view
        if not position.concealed:
            raise InvalidArgumentError("no concealed seat: every card is known")
        self.seats = position.concealed
        self.k = len(self.seats)
        singles, groups = _view_claims(view, inferences, claims, states)
        read = [c for c, _, _ in singles] + [c for members in groups for c, _ in members[:-1]]
        filter_claim = (agreement if agreement is not None else And(())) if view.kind == "agreement" else None
        # with two hands concealed, their exact HCP in the state cost no state (the second's is the rest
        # of the first's) and give the HCP odds off the final states; with three, a pass gives them
        exact = [Feature.hcp(seat) for seat in self.seats] if self.k == 2 else []
        self.graph = LayoutGraph(plan(position, filter_claim, read, exact), view.weighing())
        self.final_weight, self.scale = _final_weights(self.graph, singles, groups)
        self.flow = self.graph.flow(self.final_weight)
        self.total_scaled: int = self.flow.total
        self.sampler = Sampler(self.graph, self.flow)

    # -- counts and odds ------------------------------------------------------------------
    def count(self) -> "int | Fraction":
        """Number of layouts (weighted sum in the weighted view, or with holding weights)."""
        value = Fraction(self.total_scaled, self.scale * self.graph.scale)
        return int(value) if value.denominator == 1 else value

    def support(self) -> int:
        """Number of layouts of non-zero weight (in the lawful and agreement views, :meth:`count`)."""
        if any(step.weighted for step in self.graph.steps):
            return self.graph.flow((self.final_weight != 0).astype(np.int64), counting=True).total
        if self.view.kind == "weighted":  # the forward sums count layouts: no row is weighted
            return int(sum(int(x) for x in self.flow.forward[-1][self.final_weight != 0]))
        return self.total_scaled

    @property
    def empty(self) -> bool:
        """Whether the view keeps no layout."""
        return self.total_scaled == 0

    @property
    def dtype(self) -> object:
        """How the sums are held: ``numpy.int64``, or ``object`` (Python integers) past 63 bits."""
        return object if self.flow.exact_python else np.int64

    def _row_weights(self, s: int) -> np.ndarray:
        """Each row of the suit at position ``s`` of the walk: its exact share of the total weight (times the
        total)."""
        src, grp, dst = self.graph.links[s]
        step = self.graph.steps[s]
        per_group = sum_by(grp, self.flow.forward[s][src] * self.flow.backward[s + 1][dst], len(step.adds))
        if object in (per_group.dtype, step.weight.dtype):
            return cast(np.ndarray, per_group.astype(object)[step.group] * step.weight.astype(object))
        return cast(np.ndarray, per_group[step.group] * step.weight)

    def odds(self) -> Odds:
        """Exact odds: who holds each unseen card, each concealed seat's dealt lengths and HCP, suit splits."""
        if self.empty:
            raise InconsistentCardsError("no layout in this view: it is empty")
        total = self.total_scaled
        holder: dict[Card, dict[Seat, Fraction]] = {}
        length: dict[Seat, dict[int, dict[int, Fraction]]] = {seat: {} for seat in self.seats}
        split: dict[int, dict[tuple[int, ...], Fraction]] = {}
        for s in range(4):
            self._suit_odds(s, total, holder, length, split)
        hcp: dict[Seat, dict[int, Fraction]] = {}
        for seat in self.seats:
            by_h = distribution(self.graph, Feature.hcp(seat), self.flow)
            hcp[seat] = {h: Fraction(w, total) for h, w in enumerate(by_h) if w}
        return Odds(self.support(), self.count(), holder, length, split=split, hcp=hcp)

    def _part_holders(self, p: int, total: int, holder: dict[Card, dict[Seat, Fraction]]) -> np.ndarray:
        """Who holds each unseen card of the part at position ``p`` of the walk; the part's row weights."""
        part, masks = self.graph.parts[p], self.graph.steps[p].masks
        member_w = self._row_weights(p)
        for i, seat in enumerate(self.seats):
            column = masks[:, i]
            for b in range(13):
                if part.unseen >> b & 1:  # the card's sum over the rows that give it to the seat: at most the total
                    held = int(member_w[column >> b & 1 == 1].sum())
                    holder.setdefault(CARDS[13 * part.in_suit + b], {})[seat] = Fraction(held, total)
        return member_w

    def _suit_odds(self, s: int, total: int, holder: dict[Card, dict[Seat, Fraction]],
                   length: dict[Seat, dict[int, dict[int, Fraction]]],
                   split: dict[int, dict[tuple[int, ...], Fraction]]) -> None:
        """One suit's share of :meth:`odds`: who holds its unseen cards, its splits and lengths."""
        pos, graph = self.position, self.graph
        places = [p for p, suit in enumerate(graph.suits) if suit == s]  # the suit's parts in the walk
        member_w = [self._part_holders(p, total, holder) for p in places]
        base = [holding_of(pos.known[seat], s).bit_count() for seat in self.seats]
        radix = 14 ** np.arange(self.k - 1, dtype=np.int64)  # the last seat's length: the rest
        codes = []  # each group's code of the first seats' lengths (their counts lead a group's adds)
        for p in places:
            adds, first = graph.steps[p].adds, graph.parts[p].first
            codes.append((adds[:, :self.k - 1] + (np.array(base[:-1]) if first else 0)) @ radix)
        if len(places) == 1:
            step = graph.steps[places[0]]
            by_split = [int(x) for x in sum_by(codes[0][step.group], member_w[0], 14 ** (self.k - 1))]
        else:
            by_split = pair_distribution(graph, places[0], (codes[0], codes[1]), self.flow)
        rest = pos.unseen_in(s).bit_count() + sum(base)
        found: dict[tuple[int, ...], Fraction] = {}
        by_len: list[dict[int, int]] = [{} for _ in self.seats]
        for code, w in enumerate(by_split):
            if w:
                lengths = tuple(code // 14 ** i % 14 for i in range(self.k - 1))
                key = lengths + (rest - sum(lengths),)
                found[key] = Fraction(int(w), total)
                for i, n in enumerate(key):
                    by_len[i][n] = by_len[i].get(n, 0) + int(w)
        split[s] = dict(sorted(found.items(), key=lambda kv: kv[0][::-1]))  # the last seat's length first
        for i, seat in enumerate(self.seats):
            length[seat][s] = {n: Fraction(w, total) for n, w in sorted(by_len[i].items())}

    # -- sampling ------------------------------------------------------------------------------
    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` layouts as an ``(n, 4)`` uint64 array of *dealt* hands (N, E, S, W; known cards included).

        Exact: each layout is drawn with probability its weight over the total, with integer
        arithmetic only (vectorised while the weights fit in 63 bits, Python integers beyond).
        """
        return self.sampler.draw(n, draw_generator(n, self.empty, seed))

    def sample(self, n: int, seed: RandomSource = None) -> list[Deal]:
        """``n`` complete deals (every seat's 13 dealt cards) drawn exactly from the view."""
        return [Deal.from_masks([int(x) for x in row]) for row in self.sample_masks(n, seed)]


#: The layouts of a view, from the layout graph or (past its limit) the exact dealer.
Layouts = Union[LayoutSpace, DealerLayouts, DealerMixture]


def layout_space(position: Position, inferences: Sequence[Inference], claims: Mapping[str, Sequence[Claim]],
                 states: Mapping[str, InferenceState], viewer: Seat, view: "str | View" = "lawful", *,
                 policy: "frozenset[Tag] | None" = None, weights: "Mapping[Tag, Fraction] | None" = None
                 ) -> Layouts:
    """The layouts of a position's unseen cards in a view (see :class:`View`).

    ``claims`` holds each inference's claim and fallbacks, parsed; ``states`` its standing now. In the
    agreement view, when the claims can all hold (the space is not empty) the conflict policy has
    nothing to decide; otherwise it decides, and the view is built on its claim. The solver
    (:class:`~inference.exact.solver.Solver`) builds it on the layout graph, or past the graph's limit on
    the exact dealer (when the dealer can take the claims; the weighted view as a sum of its terms).
    """
    v = view if isinstance(view, View) else View(view, parse_policy(policy), weights)
    parsed = {name: tuple(cs) for name, cs in claims.items()}
    live = dict(states)
    solver = Solver.of(position)
    if v.kind != "agreement":
        def graph() -> Layouts:
            return LayoutSpace(position, v, inferences, parsed, live)

        def dealer() -> Layouts:
            if v.kind == "lawful":
                return DealerLayouts(position, None, v.weighing())
            singles, groups = _view_claims(v, inferences, parsed, live)
            return DealerMixture(position, singles, groups, v.weighing())

        return solver.answer(graph, dealer)
    units = agreement_units(inferences, parsed, live, v.policy, viewer)
    space = _agreement(solver, position, v, inferences, parsed, live, And(tuple(c for _, _, c in units)))
    if not space.empty or not units:
        return space
    agreement, _, _ = agreement_claim(position, inferences, parsed, live, v.policy, viewer)
    return _agreement(solver, position, v, inferences, parsed, live, agreement)


def _agreement(solver: Solver, position: Position, view: View, inferences: Sequence[Inference],
               parsed: Mapping[str, Sequence[Claim]], live: Mapping[str, InferenceState], claim: Claim) -> Layouts:
    """The agreement view on ``claim``: the graph's, or past its limit the dealer's."""
    def graph() -> Layouts:
        return LayoutSpace(position, view, inferences, parsed, live, claim)

    return solver.answer(graph, lambda: DealerLayouts(position, claim, view.weighing()))
