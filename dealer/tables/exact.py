"""The exact constrained dealer: count and deal the completions of a spec.

>>> from dealer.cards.suit import Suit
>>> dealer = ExactDealer(DealSpec.parse("spades(west) == 9 && shape(east, xx66)"))
>>> dealer.count_constrained()          # Pavlicek's T: West-East sides
556991252532000
>>> [d[Seat.W].length(Suit.S) for d in dealer.sample(3, seed=1)]
[9, 9, 9]
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial, prod
from typing import Iterator, Sequence

import numpy as np

from dealer.budget import current
from dealer.cards.cardset import CardSet
from dealer.cards.deal import Deal
from dealer.cards.numbering import D
from dealer.cards.seat import Seat
from dealer.checks import check_int, shown
from dealer.lang.expr import Hcp, walk
from dealer.errors import ImpossibleSpecError, SpecError, SpecLimitError, UnsupportedSpecError
from dealer.rng import RandomSource, make_rng
from dealer.spec.cross import CrossCondition
from dealer.spec.spec import DealSpec, SeatSpec
from dealer.tables.automaton import SeatAutomaton
from dealer.tables.design import FEATURES, ORDERS, PATTERNS, CardPlan, Sizing, TablesDesign, clear_caches
from dealer.tables.engine import make_tables
from dealer.tables.pool import deal_pool, split_labels
from dealer.tables.reach import StreamedTables

__all__ = ["ExactDealer", "FEATURES", "ORDERS", "pattern_of", "clear_caches"]


def pattern_of(shape: Sequence[int]) -> str:
    """The pattern of a shape as text: ``(5, 2, 3, 3)`` -> ``'5-3-3-2'``."""
    return "-".join(str(x) for x in sorted(shape, reverse=True))


class ExactDealer:
    """Counts and deals, exactly and uniformly, the deals that satisfy a spec.

    Construction builds the tables (the "setup"); :meth:`count` is then
    immediate and :meth:`sample_masks`/:meth:`sample` draw independent deals,
    each satisfying the spec, each satisfying deal equally likely (or, with
    holding weights, proportionally to its weight).

    ``limit`` bounds the table size; a spec beyond it raises
    :class:`~dealer.errors.SpecLimitError`. ``backend`` forces the dense or
    the compact (reachable states only) tables; by default the dense ones
    are used when they fit the limit. ``backend="streamed"`` counts over the
    reachable states one position at a time (``limit`` states a position at
    most): it counts specs whose tables would not fit, exactly, but cannot deal
    (:meth:`sample_masks` raises :class:`~dealer.errors.SpecLimitError`). ``order`` forces the order the tables
    read the cards in (:data:`ORDERS`, :mod:`dealer.tables.order`); by default the
    one whose tables promise the fewest states. Every order gives the same
    count and the same distribution of deals.
    """

    def __init__(self, spec: "DealSpec | str", *, limit: int | None = None, backend: str = "auto",
                 across: CrossCondition | None = None, order: str = "auto",
                 design: TablesDesign | None = None, sizing: Sizing | None = None,
                 _observe: tuple[Seat, str] | None = None) -> None:
        if not isinstance(spec, (DealSpec, str)):
            raise SpecError(f"expected a DealSpec or the text of a spec, got {shown(spec)}")
        if order not in ORDERS:
            raise SpecError(f"unknown order {shown(order)}: expected one of {', '.join(ORDERS)}")
        if across is not None and not isinstance(across, CrossCondition):
            raise SpecError(f"across: expected a CrossCondition, got {shown(across)}")
        limit = current().tables if limit is None else limit
        check_int(limit, "limit", SpecError, lo=1)
        self.spec = DealSpec.parse(spec) if isinstance(spec, str) else spec
        if across is not None:
            for seat in sorted({n.seat for c in across.conditions for n in walk(c) if isinstance(n, Hcp)}):
                _hcp_on_axis(self.spec, seat, f"a condition across seats reads hcp({seat.name_long})")
        #: Conditions across seats counted through the seats' labels (None: none).
        self.across = across
        self.limit = limit
        self.backend = backend
        #: The tables before they were built (:mod:`dealer.tables.design`): seats, order, automata.
        self.design = design or TablesDesign(self.spec, across, order, _observe)
        if sizing is None and not self._dead:
            sizing = self.design.size(limit, backend)
        if sizing is not None and not sizing.fits:
            raise SpecLimitError(sizing.why)
        self.tables = sizing.streamed if sizing is not None and sizing.streamed is not None else make_tables(
            [] if self._dead else self.automata, len(self._plan.free), bool(self._plan.pool), limit,
            backward=_observe is None, backend=backend if sizing is None else sizing.backend,
            final=self.design.final, reached=None if sizing is None else sizing.reached)

    @property
    def order(self) -> str:
        """The order the tables read the cards in: ``honours-last`` or ``suit-major``."""
        return self.design.order

    @property
    def automata(self) -> list[SeatAutomaton]:
        """The tracked seats' automata."""
        return self.design.automata

    @property
    def _plan(self) -> CardPlan:
        return self.design.cards

    @property
    def _dead(self) -> bool:
        return self.design.dead

    # -- counts -----------------------------------------------------------------
    @property
    def tracked(self) -> tuple[Seat, ...]:
        """Seats dealt through the tables (constrained ones)."""
        return self._plan.tracked

    @property
    def pool(self) -> tuple[Seat, ...]:
        """Unconstrained seats, dealt the leftover cards at random."""
        return self._plan.pool

    @property
    def cells(self) -> int:
        """The table cells (joint states over all positions) the tables hold: their size."""
        return int(getattr(self.tables, "cells", 0))

    def _pool_ways(self) -> int:
        v = [self._plan.vacancies[s] for s in self._plan.pool]
        return factorial(sum(v)) // prod(factorial(x) for x in v)

    def count_constrained(self) -> "int | Fraction":
        """Weighted number of ways to deal the constrained seats (Pavlicek's T)."""
        if self._dead:
            return 0
        value = self.tables.total() * self.design.constant
        return int(value) if value.denominator == 1 else value

    def count(self) -> "int | Fraction":
        """Weighted number of complete deals satisfying the spec (an int without weights)."""
        value = self.count_constrained() * self._pool_ways()
        if isinstance(value, Fraction) and value.denominator == 1:
            return int(value)
        return value

    def probability(self) -> Fraction:
        """Chance that a random deal satisfies the spec, exactly."""
        return Fraction(self.count()) / D

    @property
    def is_empty(self) -> bool:
        """True when no deal satisfies the spec."""
        return self.count_constrained() == 0

    def explain_empty(self) -> str:
        """Which seats and conditions make the spec impossible (empty string if it is not)."""
        if not self.is_empty:
            return ""
        # the tables asked for again, smaller, are of the kind counted here (streamed ones past what is kept)
        backend = "streamed" if isinstance(self.tables, StreamedTables) else self.backend
        if self.across is not None and ExactDealer(self.spec, limit=self.limit, backend=backend).count_constrained():
            return f"the seats' own conditions can hold, but never together with {self.across}"
        return _diagnose(self.spec, self.design.complete_failures, self.limit, backend)

    def distribution(self, seat: Seat | str, feature: str) -> dict[int | str, "int | Fraction"]:
        """Exact number of satisfying deals for each value of a seat's feature.

        ``feature``: ``S``/``H``/``D``/``C`` (dealt length), ``hcp``, or
        ``pattern`` (keys like ``'4-4-3-2'``). Values with no deal are left out.
        """
        seat = Seat.parse(seat)
        if feature not in FEATURES:
            raise SpecError(f"unknown feature {feature!r}: expected one of {', '.join(FEATURES)}")
        if feature == "hcp":
            _hcp_on_axis(self.spec, seat, f"its HCP distribution asks for hcp({seat.name_long})")
        predeal = self._plan.predeal[seat]
        if self._plan.vacancies[seat] == 0:
            hand = CardSet(predeal)
            value = _feature_value(hand, feature)
            return {value: self.count()} if not self.is_empty else {}
        if self.is_empty:
            return {}
        observed = self._observed(seat, feature)
        if observed._dead:  # pragma: no cover - the spec is not empty, so neither is this
            return {}
        pos = observed.tracked.index(seat)
        final = observed.tables.forward_final()
        labels = observed.automata[pos].labels % observed.design.spread.get(seat, 1 << 30)
        if observed.design.final is not None:
            final = final * observed.design.final
        ways = observed._pool_ways() * observed.design.constant
        out: dict[int | str, int | Fraction] = {}
        axes = tuple(i for i in range(len(observed.tracked)) if i != pos)
        per_state = final.sum(axis=axes) if axes else final
        for state, label in enumerate(labels):
            c = per_state[state] * ways
            if c:
                key: int | str = "-".join(map(str, PATTERNS[label])) if feature == "pattern" else int(label)
                c = Fraction(c) + out.get(key, 0)  # several final states share a value under a joint condition
                out[key] = int(c) if c.denominator == 1 else c
        return dict(sorted(out.items(), key=lambda kv: (str(kv[0]) if feature == "pattern" else kv[0])))

    def _observed(self, seat: Seat, feature: str) -> "ExactDealer":
        """The tables that keep ``seat``'s ``feature`` in their final states: of this dealer's kind within its limit,
        else streamed (a distribution is a count: it needs no kept table), up to the budget's ``observed_states``."""
        limit = self.limit
        if not isinstance(self.tables, StreamedTables):
            try:
                return ExactDealer(self.spec, limit=limit, backend=self.backend, across=self.across,
                                   order=self.design.order_asked, _observe=(seat, feature))
            except SpecLimitError:
                limit = current().observed_states
        return ExactDealer(self.spec, limit=limit, backend="streamed", across=self.across,
                           order=self.design.order_asked, _observe=(seat, feature))

    # -- sampling -----------------------------------------------------------------
    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` deals as an ``(n, 4)`` uint64 array of hand bit-sets (North, East, South, West).

        ``seed``: an int, a numpy Generator (used as is, so consecutive calls continue its stream)
        or a ``random.Random``; the same seed gives the same deals.
        """
        check_int(n, "the number of deals", SpecError, lo=0, hi=current().deals_at_once)
        if self.is_empty:
            raise ImpossibleSpecError(f"no deal satisfies the spec: {self.explain_empty()}")
        gen = make_rng(seed)
        plan = self._plan
        out = np.zeros((n, 4), dtype=np.uint64)
        seat: Seat | int
        for seat in Seat:
            out[:, seat] = np.uint64(plan.predeal[seat])
        if n == 0 or not plan.free:
            return out
        dest = self.tables.sample(n, gen)  # (free cards, n)
        k = len(plan.tracked)
        masks = [out[:, s].copy() for s in Seat]
        pool = [int(s) for s in plan.pool]
        if k == 0:
            # nothing tracked: every free card is dealt to the pool seats directly
            bits = [np.uint64(1 << card) for card in plan.free]
            deal_pool(gen, [plan.vacancies[s] for s in pool], n, [masks[s] for s in pool], bits)
            return np.stack(masks, axis=1)
        labels = split_labels(gen, [plan.vacancies[s] for s in pool], n) if len(pool) > 1 else None
        rank = np.zeros(n, dtype=np.int64)
        cols = np.arange(n)
        for t, card in enumerate(plan.free):
            bit = np.uint64(1 << card)
            d = dest[t]
            for i, seat in enumerate(plan.tracked):
                masks[seat] += (d == i) * bit
            if not pool:
                continue
            if labels is None:
                masks[pool[0]] += (d == k) * bit
                continue
            is_pool = d == k
            lab = np.where(is_pool, labels[np.minimum(rank, len(labels) - 1), cols], -1)
            rank += is_pool
            for j, seat in enumerate(pool):
                masks[seat] += (lab == j) * bit
        return np.stack(masks, axis=1)

    def sample(self, n: int, seed: RandomSource = None) -> list[Deal]:
        """``n`` independent deals satisfying the spec (see :meth:`sample_masks`)."""
        masks = self.sample_masks(n, seed)
        return [Deal.from_masks([int(x) for x in row]) for row in masks]

    def deals(self, seed: RandomSource = None,
              batch: int = 4096) -> Iterator[Deal]:
        """An endless stream of independent deals, drawn in batches."""
        gen = make_rng(seed)
        while True:
            yield from self.sample(batch, gen)


def _feature_value(hand: CardSet, feature: str) -> int | str:
    if feature in ("S", "H", "D", "C"):
        return hand.length(feature)
    if feature == "hcp":
        return hand.hcp
    return pattern_of(hand.shape)


def _hcp_on_axis(spec: DealSpec, seat: Seat, why: str) -> None:
    """Refuse to read a seat's HCP from tables that count another whole-hand count in its place."""
    if spec.seat(seat).points is not None:
        raise UnsupportedSpecError(
            f"{seat.name_long}'s tables count another whole-hand count in place of HCP (the only count its "
            f"conditions use), and {why}: build the spec with DealSpec.from_conditions(..., "
            f"hcp_seats=frozenset({{Seat.{seat.name}}})) to keep HCP on its tables")


def _diagnose(spec: DealSpec, complete_failures: list[str], limit: int, backend: str = "auto") -> str:
    """Name the smallest set of seats whose constraints cannot all hold (a set whose tables pass ``limit`` is
    passed over)."""
    if complete_failures:
        return "; ".join(complete_failures)
    constrained = [s for s in Seat if s in spec.seats]

    def describe(seats: Sequence[Seat]) -> str:
        parts = []
        for s in seats:
            ss = spec.seats[s]
            cond = ss.feature_condition(s)
            bits = []
            if ss.predeal:
                bits.append(f"holds {ss.predeal.to_text()}")
            if ss.forbidden:
                bits.append(f"cannot hold {ss.forbidden.to_text()}")
            if cond is not None:
                bits.append(str(cond))
            if ss.holdings:
                bits.append("holding filters on " + ", ".join(x.name_long for x in ss.holdings))
            parts.append(f"{s.name_long}: " + " && ".join(bits))
        return "; ".join(parts)

    from itertools import combinations

    for size in range(1, len(constrained) + 1):
        for group in combinations(constrained, size):
            sub = DealSpec(seats={s: spec.seats[s] for s in group})
            # other seats keep their predeals so the cards available are the same
            seats = dict(sub.seats)
            for s in constrained:
                if s not in group and spec.seats[s].predeal:
                    seats[s] = SeatSpec(predeal=spec.seats[s].predeal)
            try:
                empty = ExactDealer(DealSpec(seats=seats), limit=limit, backend=backend).count_constrained() == 0
            except SpecLimitError:
                continue
            if empty:
                what = "cannot be dealt" if size == 1 else "cannot all hold together"
                return f"{describe(group)} -- {what}"
    return describe(constrained)  # pragma: no cover - the whole spec is the smallest set
