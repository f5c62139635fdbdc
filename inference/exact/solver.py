"""The one solver: every question about a position's layouts, answered by the layout graph or the exact dealer.

A :class:`Solver` answers, for one position, whether a claim holds in some lawful layout and in
every one (:meth:`~Solver.verdict`), the tight extremes of features where it holds
(:meth:`~Solver.support`), how many layouts it keeps (:meth:`~Solver.count`) and the layouts of a
view (:meth:`~Solver.layouts`: exact odds and samples). Each question goes first to the layout
graph (:mod:`inference.exact.graph`), built for the claim (its local conjuncts filter holdings inside
their suits, so even tight claims on every concealed hand stay small). Where the graph would pass
its limit, the same question goes to the exact dealer (:mod:`inference.exact.dealing`) when the claim is
in its language; only when neither can take it is it refused (:class:`~inference.errors.TooComplexError`).

Random lawful layouts are tried first (drawn exactly from the lawful graph, with a fixed seed): one
where the claim holds and one where it fails settle a verdict at once, a proof either way; only
what they cannot settle is counted exactly.
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

import numpy as np

from dealer.budget import current
from dealer import Card, Seat
from dealer.cards.cardset import SUIT_MASK

from inference.claims.language import Claim, Not, claim_text
from inference.exact.columns import plan
from inference.exact.dealing import dealer_count, dealer_support
from inference.errors import InconsistentCardsError, TooComplexError
from inference.claims.features import Feature, evaluate, hand_values
from inference.exact.graph import LayoutGraph
from inference.exact.sampling import Sampler
from inference.exact.kernel import holding_of
from inference.rules.lawful import Bounds, SeatBounds
from inference.exact.position import Position, Verdict

__all__ = ["Solver", "random_layouts", "random_witness", "support_bounds"]

_T = TypeVar("_T")
_RECENT: "dict[Position, Solver]" = {}


def random_layouts(position: Position, n: int | None = None, seed: int = 0) -> dict[Seat, np.ndarray]:
    """``n`` random lawful layouts as each concealed seat's dealt hands (52-bit masks); those that break
    a void shown are dropped (``n``: the budget's ``witness_layouts``). Deterministic (a fixed seed), so a
    status never depends on the run."""
    n = current().witness_layouts if n is None else n
    pos = position
    seats = pos.concealed
    cards = np.array([i for i in range(52) if pos.unseen >> i & 1], dtype=np.int64)
    vac = [pos.vacancy(s) for s in seats]
    if len(cards) != sum(vac) or not len(cards):
        return {seat: np.zeros(0, dtype=np.int64) for seat in seats}
    labels = np.repeat(np.arange(len(seats)), vac)
    rng = np.random.default_rng(seed)
    perm = rng.permuted(np.broadcast_to(labels, (n, len(labels))), axis=1)
    bits = np.left_shift(np.int64(1), cards)
    dealt = {seat: (perm == i).astype(np.int64) @ bits | pos.known[seat] for i, seat in enumerate(seats)}
    ok = np.ones(n, dtype=bool)
    for seat in seats:
        for s in range(4):
            if pos.void(seat, s):
                ok &= (dealt[seat] >> (13 * s) & SUIT_MASK) == holding_of(pos.known[seat], s)
    return {seat: dealt[seat][ok] for seat in seats}


def _holds_in(position: Position, hands: dict[Seat, np.ndarray], claim: Claim,
              seen: dict[Feature, np.ndarray] | None = None) -> bool:
    """Whether ``claim`` holds in one of the layouts ``hands`` (``seen``: features' values kept between calls)."""
    m = len(next(iter(hands.values()))) if hands else 0
    if not m:
        return False
    known = {} if seen is None else seen

    def value(key: Feature) -> np.ndarray:
        found = known.get(key)
        if found is None:
            if key.seat not in hands:
                found = np.full(m, position.known_value(key), dtype=np.int64)
            else:
                found = hand_values(key, hands[key.seat])
            known[key] = found
        return found

    return bool(evaluate(claim, value, m).any())


def random_witness(position: Position, claim: Claim, n: int | None = None, seed: int = 0) -> bool:
    """True if one of ``n`` random lawful layouts satisfies ``claim`` (a proof); False proves nothing."""
    return _holds_in(position, random_layouts(position, n, seed), claim)


class Solver:
    """Exact answers about one position's lawful layouts, from the layout graph or, past its limit, the dealer."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self._graphs: dict[Claim | None, LayoutGraph] = {}
        self._counts: dict[Claim | None, int] = {}
        self._witnesses: dict[Seat, np.ndarray] | None = None
        self._witness_values: dict[Feature, np.ndarray] = {}

    @classmethod
    def of(cls, position: Position) -> "Solver":
        """The solver of a position, shared by the callers that ask about it in turn (the last few kept; the
        budget's ``solvers_kept`` 0: none, each call a new one)."""
        if current().solvers_kept == 0:
            return cls(position)
        found = _RECENT.get(position)
        if found is None:
            found = cls(position)
            _RECENT[position] = found
            while len(_RECENT) > current().solvers_kept:
                _RECENT.pop(next(iter(_RECENT)))
        return found

    def witness(self, claim: Claim) -> bool:
        """True if one of the position's random lawful layouts satisfies ``claim`` (a proof; False proves nothing).

        The layouts are random deals of the unseen cards that keep the voids shown, or, when the voids
        reject most of them, drawn exactly from the lawful graph (a fixed seed either way: a status
        never depends on the run).
        """
        if self._witnesses is None:
            self._witnesses = random_layouts(self.position)
            kept = len(next(iter(self._witnesses.values()), ()))
            if kept < current().witness_layouts // 4:  # voids shown reject most random deals: draw from the graph
                try:
                    graph = self.graph()
                    hands = Sampler(graph, graph.flow()).draw(current().witness_layouts, np.random.default_rng(0))
                    self._witnesses = {seat: hands[:, seat].astype(np.int64) for seat in self.position.concealed}
                except TooComplexError:
                    pass
        return _holds_in(self.position, self._witnesses, claim, self._witness_values)

    def graph(self, claim: Claim | None = None) -> LayoutGraph:
        """The layout graph of the lawful layouts where ``claim`` holds (kept for this solver)."""
        found = self._graphs.get(claim)
        if found is None:
            found = LayoutGraph(plan(self.position, claim))
            self._graphs[claim] = found
        return found

    def answer(self, graph_answer: Callable[[], _T], dealer_answer: Callable[[], "_T | None"]) -> _T:
        """The graph's answer; past its limit, the dealer's (when it can take the question)."""
        try:
            return graph_answer()
        except TooComplexError:
            answer = dealer_answer()
            if answer is None:
                raise
            return answer

    def count(self, claim: Claim | None = None) -> int:
        """The exact number of lawful layouts where ``claim`` holds (every lawful layout for None)."""
        found = self._counts.get(claim)
        if found is None:
            found = self.answer(lambda: self.graph(claim).count(), lambda: dealer_count(self.position, claim))
            self._counts[claim] = found
        return found

    def satisfiable(self, claim: Claim) -> bool:
        """Exact: is the claim true in some lawful layout?"""
        if self.witness(claim):
            return True
        return self.answer(lambda: self.graph(claim).exists(),
                            lambda: _positive(dealer_count(self.position, claim)))

    def verdict(self, claim: Claim) -> Verdict:
        """Exact: true in some lawful layout? in all of them?

        Witnesses first: a lawful layout where the claim fails and one where it holds settle it;
        otherwise the graph counts the layouts where it holds against all of them.
        """
        if self.witness(Not(claim)):  # not valid: is it satisfiable?
            return Verdict(self.satisfiable(claim), False)
        some = self.count(claim)
        return Verdict(some > 0, some == self.count())

    def support(self, claim: Claim, targets: Sequence[Feature]) -> dict[Feature, tuple[int, int]]:
        """Min and max of each target feature over the lawful layouts where ``claim`` holds (empty if none)."""
        return self.answer(lambda: self.graph(claim).extremes(targets),
                            lambda: dealer_support(self.position, claim, targets))


def _positive(count: int | None) -> bool | None:
    return None if count is None else count > 0


def support_bounds(position: Position, claim: Claim, lawful: Bounds) -> Bounds:
    """Tight bounds of every concealed seat over the lawful layouts where ``claim`` holds.

    Raises :class:`~inference.errors.InconsistentCardsError` when no lawful layout satisfies it.
    """
    concealed = lawful.concealed
    if plan(position, claim).trivial:  # no claim narrows the lawful layouts: their bounds are tight already
        return lawful
    targets = {seat: [Feature.length(seat, s) for s in range(4)] + [Feature.hcp(seat)] for seat in concealed}
    shared = [i for i, mask in enumerate(lawful.holders) if mask & (mask - 1)]  # cards two seats or more may hold
    cards = [Feature.card(seat, Card.from_index(i)) for i in shared for seat in concealed if lawful.holders[i] >> seat & 1]
    support = Solver.of(position).support(claim, [f for seat in concealed for f in targets[seat]] + cards)
    if not support:
        raise InconsistentCardsError(f"no lawful layout satisfies the agreement view: {claim_text(claim)}")
    seats: list[tuple[Seat, SeatBounds]] = []
    for seat in concealed:
        length = tuple(support[Feature.length(seat, s)] for s in range(4))
        seats.append((seat, SeatBounds(length, support[Feature.hcp(seat)])))  # type: ignore[arg-type]
    holders = list(lawful.holders)
    for i in shared:  # a seat keeps a card only if some layout where the claim holds gives it the card
        holders[i] = sum(1 << f.seat for f in cards if f.arg == i and support[f][1] == 1)
    return Bounds(tuple(seats), tuple(holders))

