"""Layouts answered by the exact dealer, where the layout graph would pass its limit.

A position's lawful layouts are exactly the deals that give each seat its known cards (a visible
hand whole, a concealed seat's played cards), with each void shown kept. When a claim is a
conjunction of conditions on one seat each, in the dealer's own language (lengths, HCP, shapes,
specific cards, HCP in a suit), the dealer's per-seat tables count those deals exactly: the claim
holds in some lawful layout when the count is not zero, and each seat's exact distribution of a
length or of its HCP gives tight bounds. Per-holding weights become the dealer's holding weights.
:class:`DealerLayouts` gives a view's exact counts, odds and samples the same way (odds take one
count per unseen card and seat, so they are slower than the graph's). The layout graph
(:mod:`inference.exact.graph`) carries what a claim tells apart jointly; the dealer's tables carry, per
seat, what that seat's conditions tell apart, so they can answer where the graph is refused.
Claims the dealer cannot deal exactly (``longest``, ``honours``, ``rank``, a relation between
seats) are not answered here (``None``); the graph carries those compactly.

The solver (:mod:`inference.exact.solver`) decides which one answers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Sequence, cast

import numpy as np

from dealer import CARDS, Card, CardSet, Deal, DealerError, Seat, Suit
from dealer.errors import ImpossibleSpecError
from dealer.tables.exact import ExactDealer
from dealer.lang.expr import Always, And, Compare, Const, Cond, HasCard, Length, Node, Pos
from dealer.rng import RandomSource
from dealer.spec.sidecount import replace_nodes
from dealer.spec.spec import DealSpec, SeatSpec

from inference.claims.language import CardCount, Claim, Honours, Longest, Rank
from inference.errors import InconsistentCardsError, InvalidArgumentError, TooComplexError
from inference.claims.features import Feature, Kind
from inference.exact.kernel import holding_of
from inference.exact.odds import Odds
from inference.exact.position import Position
from inference.claims.weights import HoldingWeights

__all__ = ["lawful_spec", "dealer_count", "dealer_support", "DealerLayouts"]

_FEATURE = {int(Suit.S): "S", int(Suit.H): "H", int(Suit.D): "D", int(Suit.C): "C"}


def lawful_spec(position: Position, claim: Claim | None = None, holdings: HoldingWeights | None = None
                ) -> DealSpec | None:
    """The spec of the position's lawful layouts where ``claim`` holds, weighted by ``holdings``; None if
    the dealer cannot take it."""
    if claim is not None and any(isinstance(n, (Longest, Honours, Rank, CardCount)) for n in claim.walk()):
        return None
    conds: list[Cond] = [] if claim is None else [_known_cards_read(position, claim)]
    for seat in position.concealed:
        for s in range(4):
            if position.void(seat, s):
                conds.append(Compare("==", Length(seat, Suit(s)), Const(holding_of(position.known[seat], s).bit_count())))
    predeals = {seat: (CardSet(position.known[seat]), Pos()) for seat in Seat if position.known[seat]}
    try:
        spec = DealSpec.from_conditions(conds, predeals)
    except ImpossibleSpecError:  # no deal at all (a known card claimed by another seat): seen by the caller
        raise
    except DealerError:  # a relation between seats, or anything the per-seat tables cannot deal exactly
        return None
    return spec if not holdings else _weighted(spec, holdings)


def _known_cards_read(position: Position, claim: Claim) -> Cond:
    """The claim with each test of a known card replaced by its truth (the dealer deals a known card once)."""
    def swap(node: Node) -> Node | None:
        if isinstance(node, HasCard) and any(position.known[s] >> node.card.index & 1 for s in Seat):
            return Always(bool(position.known[node.seat] >> node.card.index & 1))
        return None

    return cast(Cond, replace_nodes(claim, swap))


def _weighted(spec: DealSpec, holdings: HoldingWeights) -> DealSpec:
    """The spec with each weighted (seat, suit)'s holdings weighed (times any filter already there)."""
    seats = dict(spec.seats)
    for seat, suit in holdings.pairs:
        base = seats.get(seat, SeatSpec())
        table = dict(base.holdings)
        table[Suit(suit)] = _holding_weight(holdings, seat, suit, table.get(Suit(suit)))
        seats[seat] = base.replace(holdings=table)
    return DealSpec(seats=seats, text=spec.text)


def _holding_weight(holdings: HoldingWeights, seat: Seat, suit: int, before: Any) -> Any:
    def weight(holding: CardSet) -> Fraction:
        w = holdings.weight(seat, suit, holding.mask >> (13 * suit) & 0x1FFF)
        return w if before is None else w * Fraction(before(holding))

    return weight


class _NoDeal:
    """The dealer of a spec no deal satisfies (known statically): every count 0."""

    is_empty = True

    def count(self) -> int:
        return 0

    def distribution(self, seat: Seat | str, feature: str) -> dict[int | str, int]:
        return {}

    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        raise InconsistentCardsError("no layout in this view: it is empty")


def _dealer(position: Position, claim: Claim | None, holdings: HoldingWeights | None = None
            ) -> ExactDealer | _NoDeal | None:
    """The dealer of the lawful layouts where ``claim`` holds (None: it cannot take them)."""
    try:
        spec = lawful_spec(position, claim, holdings)
    except ImpossibleSpecError:
        return _NoDeal()
    if spec is None:
        return None
    try:
        return ExactDealer(spec, backend="compact")
    except DealerError:  # past the dealer's own table limit
        return None


def dealer_count(position: Position, claim: Claim | None = None) -> int | None:
    """The exact number of lawful layouts where ``claim`` holds (all of them for None), or None."""
    dealer = _dealer(position, claim)
    if dealer is None:
        return None
    count = dealer.count()
    return int(count)


def dealer_support(position: Position, claim: Claim, targets: Sequence[Feature]
                   ) -> dict[Feature, tuple[int, int]] | None:
    """Min and max of each target (a concealed seat's length, HCP, or whether it holds a card) over the lawful
    layouts where ``claim`` holds, exactly (empty if none); None when the dealer cannot take the claim."""
    if any(t.kind not in (Kind.LENGTH, Kind.HCP, Kind.CARD) for t in targets):
        return None
    dealer = _dealer(position, claim)
    if dealer is None:
        return None
    if dealer.count() == 0:
        return {}
    out: dict[Feature, tuple[int, int]] = {}
    cards = [t for t in targets if t.kind == Kind.CARD]
    holder = DealerLayouts(position, claim).odds().holder if cards else {}  # one count per (card, seat)
    for t in cards:
        p = holder.get(CARDS[t.arg], {}).get(t.seat, Fraction(0))
        out[t] = (int(p == 1), int(p > 0))
    for t in targets:
        if t.kind != Kind.CARD:
            name = "hcp" if t.kind == Kind.HCP else _FEATURE[t.arg]
            values = [int(v) for v, c in dealer.distribution(t.seat, name).items() if c]
            out[t] = (min(values), max(values))
    return out


class DealerLayouts:
    """A view's layouts counted, weighed and drawn by the exact dealer (the lawful layouts where ``claim``
    holds, weighted by ``holdings``); the same questions as :class:`~inference.exact.layouts.LayoutSpace`."""

    def __init__(self, position: Position, claim: Claim | None, holdings: HoldingWeights | None = None) -> None:
        dealer = _dealer(position, claim, holdings)
        if dealer is None:
            raise TooComplexError("past the layout graph's limit, and the exact dealer cannot take this view's "
                                  "claims (a relation between seats, longest, honours or rank)")
        self.position, self.claim, self.holdings, self.dealer = position, claim, holdings, dealer
        self.seats = position.concealed
        self.dtype: object = object

    def count(self) -> "int | Fraction":
        """The number of layouts (their total weight, with holding weights)."""
        value = Fraction(self.dealer.count())
        return int(value) if value.denominator == 1 else value

    def support(self) -> int:
        """The number of layouts of non-zero weight."""
        weights = self.holdings
        if not weights:
            return int(self.dealer.count())
        nonzero = HoldingWeights({(seat, suit): _nonzero(weights, seat, suit) for seat, suit in weights.pairs})
        found = _dealer(self.position, self.claim, nonzero)
        return 0 if found is None else int(found.count())

    @property
    def empty(self) -> bool:
        """Whether the view keeps no layout."""
        return self.dealer.is_empty

    def _share(self, extra: Claim | None = None, position: Position | None = None) -> Fraction:
        """The weight of the layouts where ``extra`` also holds (or of ``position``'s), over the total."""
        claim = self.claim if extra is None else extra if self.claim is None else And((self.claim, extra))
        found = _dealer(position or self.position, claim, self.holdings)
        if found is None:  # pragma: no cover - a narrower spec of the same kind
            raise TooComplexError("the exact dealer cannot take a narrower view of the same claims")
        return Fraction(found.count()) / Fraction(self.dealer.count())

    def odds(self) -> Odds:
        """Exact odds, from the dealer's distributions and one count per unseen card and concealed seat but one."""
        if self.empty:
            raise InconsistentCardsError("no layout in this view: it is empty")
        total = Fraction(self.dealer.count())
        length = {seat: {s: {int(n): Fraction(c) / total for n, c in sorted(
            self.dealer.distribution(seat, "SHDC"[s]).items())} for s in range(4)} for seat in self.seats}
        hcp = {seat: {int(h): Fraction(c) / total for h, c in sorted(self.dealer.distribution(seat, "hcp").items())}
               for seat in self.seats}
        holder: dict[Card, dict[Seat, Fraction]] = {}
        for i in range(52):
            if self.position.unseen >> i & 1:  # a seat void in the suit holds none of it; the last, the rest
                card = CARDS[i]
                by = {seat: Fraction(0) if self.position.void(seat, card.suit) else
                      self._share(position=self.position.with_card(card, seat)) for seat in self.seats[:-1]}
                last = self.seats[-1]
                by[last] = Fraction(0) if self.position.void(last, card.suit) else 1 - sum(by.values(), Fraction(0))
                holder[card] = by
        split = {s: self._split(s, length) for s in range(4)}
        return Odds(self.support(), self.count(), holder, length, hcp, split)

    def _split(self, s: int, length: dict[Seat, dict[int, dict[int, Fraction]]]) -> dict[tuple[int, ...], Fraction]:
        """One suit's joint lengths of the concealed seats (the last seat's is what is left)."""
        pos = self.position
        dealt = pos.unseen_in(s).bit_count() + sum(holding_of(pos.known[seat], s).bit_count() for seat in self.seats)
        first = self.seats[0]
        out: dict[tuple[int, ...], Fraction] = {}
        for a, p in length[first][s].items():
            if len(self.seats) == 2:
                out[(a, dealt - a)] = p
                continue
            given = Compare("==", Length(first, Suit(s)), Const(a))
            for b, c in _dealer_distribution(pos, self.claim, given, self.holdings, self.seats[1], s).items():
                out[(a, int(b), dealt - a - int(b))] = Fraction(c) / Fraction(self.dealer.count())
        return {k: v for k, v in out.items() if v}

    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` layouts drawn exactly by the dealer, as an ``(n, 4)`` uint64 array of dealt hands."""
        if self.empty:
            raise InconsistentCardsError("no layout in this view: it is empty")
        try:
            return self.dealer.sample_masks(n, seed)
        except DealerError as exc:
            raise InvalidArgumentError(str(exc)) from None

    def sample(self, n: int, seed: RandomSource = None) -> list[Deal]:
        """``n`` complete deals drawn exactly from the view."""
        return [Deal.from_masks([int(x) for x in row]) for row in self.sample_masks(n, seed)]


def _nonzero(weights: HoldingWeights, seat: Seat, suit: int) -> "Callable[[int], int]":
    """1 for the holdings of non-zero weight, else 0."""
    return lambda holding: int(weights.weight(seat, suit, holding) != 0)


def _dealer_distribution(position: Position, claim: Claim | None, given: Claim, holdings: HoldingWeights | None,
                         seat: Seat, suit: int) -> dict[int | str, Any]:
    found = _dealer(position, given if claim is None else And((claim, given)), holdings)
    if found is None:  # pragma: no cover - a narrower spec of the same kind
        raise TooComplexError("the exact dealer cannot take a narrower view of the same claims")
    return {k: v for k, v in found.distribution(seat, "SHDC"[suit]).items() if v}
