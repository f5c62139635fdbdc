"""The weighted view past the layout graph's limit: a signed sum of the exact dealer's views.

In the weighted view a layout's weight is its holdings' weight times one factor per claim (``w_true``
where the claim holds, ``w_false`` where it fails) and one per group of readings (the weight of the
first reading that holds). Each factor is a polynomial in the claims' truths: ``w_false + (w_true -
w_false)[C]``, and a group's first-hit weight likewise. Multiplied out (a truth squared is itself),
their product is a sum over sets ``S`` of claims of ``coef(S) [every claim of S holds]``
(:func:`expand`). So the view's total weight is the sum of ``coef(S)`` times the dealer's weighted
count of the lawful layouts where the claims of ``S`` hold (:class:`~inference.exact.dealing.DealerLayouts`,
one per term), and every odd is the same sum over the terms' odds: exact, with the dealer's counts.

Samples: a term drawn in proportion to ``coef(S)`` times its count among the terms of positive
coefficient, a layout from that term's dealer, kept with probability (its weight) / (its weight
under the positive terms only). That is exact rejection; nothing is rejected when every coefficient
is positive (every claim weighs at least as much when it holds as when it fails, as the default tag
weights do). The terms are at most the budget's ``mixture_terms``; the share of draws kept is
at least its ``mixture_kept`` (:mod:`dealer.budget`); past either the view is refused (:class:`~inference.errors.TooComplexError`).
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import lcm
from typing import Iterable, Sequence, TypeVar

import numpy as np

from dealer.budget import current
from dealer import Card, Deal, Seat
from dealer.rng import RandomSource

from inference.claims.language import And, Claim
from inference.exact.dealing import DealerLayouts
from inference.errors import InconsistentCardsError, TooComplexError
from inference.claims.features import Feature, evaluate, hand_values
from inference.exact.odds import Odds
from inference.exact.sampling import draw_generator
from inference.exact.position import Position
from inference.claims.weights import HoldingWeights

__all__ = ["Polynomial", "expand", "DealerMixture"]


#: A sum of ``coef * [every claim of the set holds]``, by the set of claims' indices.
Polynomial = dict[frozenset[int], Fraction]

Single = tuple[Claim, Fraction, Fraction]
Group = Sequence[tuple[Claim, Fraction]]


def _times(a: Polynomial, b: Polynomial) -> Polynomial:
    """The product of two polynomials in truths (a truth squared is itself: the sets join)."""
    out: Polynomial = {}
    for s, x in a.items():
        for t, y in b.items():
            out[s | t] = out.get(s | t, Fraction(0)) + x * y
    return {k: v for k, v in out.items() if v}


def _group(members: Group, first: int) -> Polynomial:
    """A group's first-hit weight (claims numbered from ``first``; the last member always holds)."""
    poly: Polynomial = {frozenset(): Fraction(members[-1][1])}
    for j in range(len(members) - 2, -1, -1):  # w [C] + (1 - [C]) rest  =  rest + [C] (w - rest)
        i = frozenset({first + j})
        with_claim = {k | i: -v for k, v in poly.items()}
        with_claim[i] = with_claim.get(i, Fraction(0)) + Fraction(members[j][1])
        poly = {k: v for k, v in {**poly, **with_claim}.items() if v}
        _check_terms(poly)  # a long group doubles the terms at each member: refuse before they are many
    return poly


def expand(singles: Sequence[Single], groups: Sequence[Group], nonzero: bool = False
           ) -> tuple[list[Claim], Polynomial]:
    """The claims read and the polynomial of a layout's weight (``nonzero``: of whether it is not 0).

    >>> from inference.claims.language import parse_claim
    >>> c = parse_claim("hcp(N) >= 12")
    >>> expand([(c, Fraction(1), Fraction(1, 20))], [])[1] == {frozenset(): Fraction(1, 20),
    ...                                                      frozenset({0}): Fraction(19, 20)}
    True
    """
    def w(x: Fraction) -> Fraction:
        return Fraction(int(x != 0)) if nonzero else Fraction(x)

    claims: list[Claim] = []
    poly: Polynomial = {frozenset(): Fraction(1)}
    for claim, w_true, w_false in singles:
        poly = _times(poly, {k: v for k, v in {frozenset(): w(w_false),
                                               frozenset({len(claims)}): w(w_true) - w(w_false)}.items() if v})
        claims.append(claim)
        _check_terms(poly)
    for members in groups:
        poly = _times(poly, _group([(c, w(x)) for c, x in members], len(claims)))
        claims.extend(c for c, _ in members[:-1])
        _check_terms(poly)
    return claims, poly


def _check_terms(poly: Polynomial) -> None:
    if len(poly) > (most := current().mixture_terms):
        raise TooComplexError(f"past the layout graph's limit, the weighted view's claims would need {len(poly):,} "
                              f"dealer terms, over the limit of {most}")


class DealerMixture:
    """The weighted view's layouts from the exact dealer: counts, odds and samples as signed sums of terms.

    ``singles``: (claim, weight where it holds, weight where it fails); ``groups``: readings as (claim,
    weight), the first that holds weighing the layout, the last always holding (as
    :class:`~inference.exact.layouts.LayoutSpace` reads a view).
    """

    def __init__(self, position: Position, singles: Sequence[Single], groups: Sequence[Group],
                 holdings: HoldingWeights | None = None) -> None:
        self.position, self.holdings = position, holdings
        self.seats = position.concealed
        self.dtype: object = object
        self.claims, self.polynomial = expand(singles, groups)
        self._nonzero = expand(singles, groups, nonzero=True)[1]
        terms = [(coef, self._term(s)) for s, coef in self.polynomial.items()]
        self.terms = [(coef, t) for coef, t in terms if not t.empty]
        self._weight = sum((coef * Fraction(t.count()) for coef, t in self.terms), Fraction(0))
        positive = sum((coef * Fraction(t.count()) for coef, t in self.terms if coef > 0), Fraction(0))
        least = current().mixture_kept
        if positive and self._weight / positive < least:
            raise TooComplexError(f"past the layout graph's limit, the weighted view would keep "
                                  f"{float(self._weight / positive):.2%} of the dealer's draws, under the limit of "
                                  f"{least} ({float(least):.2%})")

    def _term(self, members: Iterable[int]) -> DealerLayouts:
        claims = [self.claims[i] for i in sorted(members)]
        return DealerLayouts(self.position, And(tuple(claims)) if claims else None, self.holdings)

    def count(self) -> "int | Fraction":
        """The view's total weight."""
        return int(self._weight) if self._weight.denominator == 1 else self._weight

    def support(self) -> int:
        """The number of layouts of non-zero weight."""
        return int(sum(coef * self._term(s).support() for s, coef in self._nonzero.items()))

    @property
    def empty(self) -> bool:
        """Whether the view keeps no layout of non-zero weight."""
        return self._weight == 0

    def odds(self) -> Odds:
        """Exact odds: each term's odds, weighed by its coefficient times its weight."""
        if self.empty:
            raise InconsistentCardsError("no layout in this view: it is empty")
        holder: dict[Card, dict[Seat, Fraction]] = {}
        length: dict[Seat, dict[int, dict[int, Fraction]]] = {seat: {s: {} for s in range(4)} for seat in self.seats}
        hcp: dict[Seat, dict[int, Fraction]] = {seat: {} for seat in self.seats}
        split: dict[int, dict[tuple[int, ...], Fraction]] = {s: {} for s in range(4)}
        for coef, term in self.terms:
            share = coef * Fraction(term.count()) / self._weight
            odds = term.odds()
            for card, by in odds.holder.items():
                for seat, p in by.items():
                    _add(holder.setdefault(card, {}), seat, share * p)
            for seat in self.seats:
                for s in range(4):
                    for n, p in odds.length[seat][s].items():
                        _add(length[seat][s], n, share * p)
                for h, p in odds.hcp[seat].items():
                    _add(hcp[seat], h, share * p)
            for s in range(4):
                for key, p in odds.split[s].items():
                    _add(split[s], key, share * p)
        return Odds(self.support(), self.count(), holder,
                    {seat: {s: _nonzero(d) for s, d in by.items()} for seat, by in length.items()},
                    {seat: _nonzero(d) for seat, d in hcp.items()}, {s: _nonzero(d) for s, d in split.items()})

    def weights_of(self, masks: np.ndarray) -> tuple[list[Fraction], list[Fraction]]:
        """Each layout's claim weight and its weight under the positive terms only (``masks``: dealt hands)."""
        hands = {seat: masks[:, int(seat)].astype(np.int64) for seat in Seat}
        seen: dict[Feature, np.ndarray] = {}

        def value(key: Feature) -> np.ndarray:
            if key not in seen:
                seen[key] = hand_values(key, hands[key.seat])
            return seen[key]

        truths = [evaluate(c, value, len(masks)) for c in self.claims]
        full = [Fraction(0)] * len(masks)
        positive = [Fraction(0)] * len(masks)
        for term_set, coef in self.polynomial.items():  # a term the dealer found empty holds nowhere
            held = np.ones(len(masks), dtype=bool)
            for i in term_set:
                held &= truths[i]
            for r in np.flatnonzero(held).tolist():
                full[r] += coef
                if coef > 0:
                    positive[r] += coef
        return full, positive

    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` layouts drawn exactly, as an ``(n, 4)`` uint64 array of dealt hands (N, E, S, W)."""
        gen = draw_generator(n, self.empty, seed)
        rng = random.Random(int(gen.integers(0, 2 ** 63)))
        positive = [(coef * Fraction(t.count()), t) for coef, t in self.terms if coef > 0]
        scale = lcm(*(w.denominator for w, _ in positive))
        cumulative = np.cumsum(np.array([int(w * scale) for w, _ in positive], dtype=object))
        signed = any(coef < 0 for coef, _ in self.terms)
        kept: list[np.ndarray] = []
        have = 0
        while have < n:
            want = n - have if not signed else max(16, 2 * (n - have))
            labels = np.searchsorted(cumulative, [rng.randrange(int(cumulative[-1])) for _ in range(want)],
                                     side="right")
            drawn = np.zeros((want, 4), dtype=np.uint64)
            for j, (_, term) in enumerate(positive):
                rows = np.flatnonzero(labels == j)
                if len(rows):
                    drawn[rows] = term.sample_masks(len(rows), gen)
            if signed:
                full, pos = self.weights_of(drawn)
                keep = [rng.randrange((f / p).denominator) < (f / p).numerator for f, p in zip(full, pos)]
                drawn = drawn[np.array(keep, dtype=bool)]
            kept.append(drawn[:n - have])
            have += len(kept[-1])
        return np.concatenate(kept) if kept else np.zeros((0, 4), dtype=np.uint64)

    def sample(self, n: int, seed: RandomSource = None) -> list[Deal]:
        """``n`` complete deals drawn exactly from the view."""
        return [Deal.from_masks([int(x) for x in row]) for row in self.sample_masks(n, seed)]


_K = TypeVar("_K", int, Seat, "tuple[int, ...]")


def _add(table: dict[_K, Fraction], key: _K, value: Fraction) -> None:
    table[key] = table.get(key, Fraction(0)) + value


def _nonzero(table: dict[_K, Fraction]) -> dict[_K, Fraction]:
    return {k: v for k, v in sorted(table.items()) if v}
