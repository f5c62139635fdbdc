"""The exact constrained dealer: count and deal the completions of a spec.

>>> dealer = ExactDealer(DealSpec.parse("spades(west) == 9 && shape(east, xx66)"))
>>> dealer.count_constrained()          # Pavlicek's T: West-East sides
556991252532000
>>> [d[Seat.W].length(Suit.S) for d in dealer.sample(3, seed=1)]
[9, 9, 9]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial, prod
from typing import Iterator, Sequence

import numpy as np

from dealer.tables.automaton import (
    SeatAutomaton, SuitAutomaton, build_projected_automaton, build_seat_automaton, build_suit_automaton,
    feature_projection, labels_from_mask,
)
from dealer.cards.cardset import CardSet
from dealer.spec.cross import CrossCondition
from dealer.lang.grid import GRID, MAX_HCP
from dealer.cards.deal import Deal
from dealer.budget import current
from dealer.tables.engine import make_tables
from dealer.errors import ImpossibleSpecError, SpecError
from dealer.checks import check_int, shown
from dealer.cards.numbering import D
from dealer.tables.order import candidate_orders, dense_size, honours_last
from dealer.tables.pool import deal_pool, split_labels
from dealer.rng import RandomSource, make_rng
from dealer.cards.seat import Seat
from dealer.cards.shapes import ALL_SHAPES, shape_index
from dealer.spec.sidecount import refine_labels
from dealer.spec.spec import DealSpec, SeatSpec
from dealer.cards.suit import Suit

__all__ = ["ExactDealer", "FEATURES", "ORDERS", "pattern_of", "clear_caches"]

#: The card orders the tables may read in (:mod:`dealer.tables.order`): ``auto`` picks the one with the fewest states.
ORDERS = ("auto", "suit-major", "honours-last")

#: Per-seat features whose exact distribution :meth:`ExactDealer.distribution` gives.
FEATURES = ("S", "H", "D", "C", "hcp", "pattern")

#: Hand patterns (lengths sorted longest first), e.g. (4, 3, 3, 3).
PATTERNS: tuple[tuple[int, ...], ...] = tuple(sorted({tuple(sorted(s, reverse=True)) for s in ALL_SHAPES},
                                                     reverse=True))
_PATTERN_ID = {p: i for i, p in enumerate(PATTERNS)}
_PATTERN_OF_SHAPE = np.array([_PATTERN_ID[tuple(sorted(s, reverse=True))] for s in ALL_SHAPES])


def pattern_of(shape: Sequence[int]) -> str:
    """The pattern of a shape as text: ``(5, 2, 3, 3)`` -> ``'5-3-3-2'``."""
    return "-".join(str(x) for x in sorted(shape, reverse=True))


@lru_cache(maxsize=64)
def _suit_automaton(key: bytes) -> SuitAutomaton:
    return build_suit_automaton(np.frombuffer(key, dtype=np.int32))


@lru_cache(maxsize=64)
def _projected(order: tuple[int, ...], predeal: int, forbidden: int, grid: bytes, suits: tuple[int, ...],
               hcp_matters: bool, points: tuple[int, ...]) -> SeatAutomaton:
    labels = np.frombuffer(grid, dtype=np.int32)
    return build_projected_automaton(order, predeal, forbidden, labels, suits, hcp_matters, points)


@lru_cache(maxsize=64)
def _suit_major(order: tuple[int, ...], predeal: int, forbidden: int, grid: bytes,
                points: tuple[int, ...]) -> SeatAutomaton:
    return build_seat_automaton(order, predeal, forbidden, _suit_automaton(grid), {}, points, None)


def clear_caches() -> None:
    """Forget the automata built so far, so the next setup is a cold one (what a benchmark measures)."""
    _suit_automaton.cache_clear()
    _projected.cache_clear()
    _suit_major.cache_clear()


def _labels(spec: SeatSpec, seat: Seat, feature: str | None) -> np.ndarray:
    labels = labels_from_mask(spec.accepted(seat))
    if feature is None:
        return labels
    if feature in ("S", "H", "D", "C"):
        values = GRID.lengths[Suit.parse(feature)].astype(np.int32)
    elif feature == "hcp":
        values = GRID.hcp.astype(np.int32)
    elif feature == "pattern":
        values = _PATTERN_OF_SHAPE[GRID.shape_index].astype(np.int32)
    else:
        raise ValueError(f"unknown feature {feature!r}: expected one of {', '.join(FEATURES)}")
    return np.where(labels >= 0, values, -1).astype(np.int32)


@dataclass(frozen=True)
class _Plan:
    free: tuple[int, ...]
    predeal: tuple[int, int, int, int]
    tracked: tuple[Seat, ...]
    pool: tuple[Seat, ...]
    vacancies: tuple[int, int, int, int]


class ExactDealer:
    """Counts and deals, exactly and uniformly, the deals that satisfy a spec.

    Construction builds the tables (the "setup"); :meth:`count` is then
    immediate and :meth:`sample_masks`/:meth:`sample` draw independent deals,
    each satisfying the spec, each satisfying deal equally likely (or, with
    holding weights, proportionally to its weight).

    ``limit`` bounds the table size; a spec beyond it raises
    :class:`~dealer.errors.SpecLimitError`. ``backend`` forces the dense or
    the compact (reachable states only) tables; by default the dense ones
    are used when they fit the limit. ``order`` forces the order the tables
    read the cards in (:data:`ORDERS`, :mod:`dealer.tables.order`); by default the
    one whose tables promise the fewest states. Every order gives the same
    count and the same distribution of deals.
    """

    def __init__(self, spec: "DealSpec | str", *, limit: int | None = None, backend: str = "auto",
                 across: CrossCondition | None = None, order: str = "auto",
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
        #: Conditions across seats counted through the seats' labels (None: none).
        self.across = across
        accept = across.accept if across is not None else None
        self.limit = limit
        self._observe = observe = _observe
        self.backend = backend
        self._order = order
        predeal = [self.spec.seat(s).predeal.mask for s in Seat]
        placed = predeal[0] | predeal[1] | predeal[2] | predeal[3]
        free = tuple(i for i in range(52) if not (placed >> i & 1))
        vacancies = tuple(13 - m.bit_count() for m in predeal)
        self._constant = Fraction(1)
        self._complete_failures: list[str] = []
        tracked, pool, accept = self._seats(predeal, vacancies, accept)
        self._spread: dict[Seat, int] = {}  # a seat's labels are joint label * spread + its own
        self._side: dict[Seat, np.ndarray] = {}  # a seat's side map (dealer.spec.sidecount)
        label_grids = [self._label_grid(seat) for seat in tracked]
        projections = [feature_projection(g) for g in label_grids]
        free, honours = self._choose_order(free, tracked, label_grids, projections, predeal)
        self.order = "honours-last" if honours else "suit-major"
        self._plan = _Plan(free, tuple(predeal), tuple(tracked), tuple(pool), vacancies)  # type: ignore[arg-type]
        self._dead = bool(self._complete_failures) or any(not a.feasible for a in self.automata)
        if accept is not None and not accept.any():
            self._dead = True
        self._final = None if self._dead or accept is None else self._final_accept(accept)
        self.tables = make_tables([] if self._dead else self.automata, len(free), bool(pool), limit,
                                  backward=observe is None, backend=backend, final=self._final)
        for a in self.automata:
            self._constant *= Fraction(a.constant, a.scale)

    def _seats(self, predeal: Sequence[int], vacancies: Sequence[int], accept: np.ndarray | None
               ) -> tuple[list[Seat], list[Seat], np.ndarray | None]:
        """The seats whose cards the tables track, those dealt from the pool, and the joint acceptance with the
        labels of seats whose 13 cards are all predealt fixed (their weights and failures noted)."""
        across, observe = self.across, self._observe
        tracked: list[Seat] = []
        pool: list[Seat] = []
        for seat in Seat:
            ss = self.spec.seat(seat)
            observed = observe is not None and observe[0] == seat
            if vacancies[seat] == 0:
                ok, weight = _check_complete(ss, seat, predeal[seat])
                self._constant *= weight
                if not ok:
                    self._complete_failures.append(
                        f"{seat.name_long}'s 13 predealt cards {CardSet(predeal[seat]).to_pbn()} fail its conditions"
                    )
                if across is not None and accept is not None and seat in across.seats:  # its label is known
                    axis = across.seats.index(seat)
                    label = across.label_of(seat, _cell(CardSet(predeal[seat]).shape, predeal[seat]))
                    keep = np.zeros(accept.shape[axis], dtype=bool)
                    if label >= 0:
                        keep[label] = True
                    accept = np.where(np.expand_dims(keep, [i for i in range(accept.ndim) if i != axis]),
                                      accept, False)
            elif ss.is_free and not observed and (across is None or seat not in across.seats):
                pool.append(seat)
            else:
                tracked.append(seat)
        return tracked, pool, accept

    def _label_grid(self, seat: Seat) -> np.ndarray:
        """A tracked seat's labels over the shape x HCP grid: its own, joined with its joint labels and split by
        its side count's totals (noting the spread and the side map)."""
        across, observe = self.across, self._observe
        feature = observe[1] if observe is not None and observe[0] == seat else None
        own = _labels(self.spec.seat(seat), seat, feature)
        if across is not None and seat in across.seats:
            spread = int(own.max()) + 1 if own.size and own.max() >= 0 else 1
            cross = across.labels[across.seats.index(seat)]
            own = np.where((own >= 0) & (cross >= 0), cross * spread + own, -1).astype(np.int32)
            self._spread[seat] = spread
        masks = self.spec.seat(seat).side_masks(seat)
        if masks is not None:  # a second count beside the axis: labels split by the totals they accept
            own, side_map = refine_labels(own, masks)
            self._side[seat] = side_map
        return own

    def _choose_order(self, free: tuple[int, ...], tracked: Sequence[Seat], label_grids: Sequence[np.ndarray],
                      projections: Sequence[tuple[tuple[int, ...], bool]], predeal: Sequence[int]
                      ) -> tuple[tuple[int, ...], bool]:
        """The order the tables read the free cards in, and whether it is honours-last (sets :attr:`automata`).

        HCP-light seats (HCP and at most two suit lengths, no holding filters) read the spot cards first
        and the 16 honours last: HCP is tracked only over the last 16 positions, where the counts of
        completions are small. Shape-heavy seats read the cards suit by suit, unless the tables of an
        honours-last order are smaller (dealer.tables.order).
        """
        order = self._order
        simple = all(
            not self.spec.seat(seat).holdings and self.spec.seat(seat).points is None and seat not in self._side
            for seat in tracked
        )
        if order == "honours-last" and not simple:
            raise SpecError("order 'honours-last' needs seats without holding conditions, point counts or "
                            "second counts")
        plain = simple and bool(tracked) and any(h for _, h in projections)
        honours = plain and all(len(suits) <= 2 for suits, _ in projections)
        honours = honours if order == "auto" else order == "honours-last"
        cards = honours_last(free) if honours else tuple(free)
        self.automata: list[SeatAutomaton] = self._automata(cards, honours, tracked, label_grids, projections,
                                                             predeal)
        if plain and order != "suit-major" and dense_size(self.automata) > current().order_search_from:
            # the candidates come likeliest first: the first that beats the default is taken
            for other in candidate_orders(free, [suits for suits, _ in projections]):
                automata = self._automata(other, True, tracked, label_grids, projections, predeal)
                if dense_size(automata) < dense_size(self.automata):
                    cards, honours, self.automata = other, True, automata
                    break
        return cards, honours

    def _automata(self, order: tuple[int, ...], honours: bool, tracked: Sequence[Seat],
                  label_grids: Sequence[np.ndarray], projections: Sequence[tuple[tuple[int, ...], bool]],
                  predeal: Sequence[int]) -> list[SeatAutomaton]:
        """The tracked seats' automata over the free cards in ``order`` (projected ones when ``honours``)."""
        automata = []
        for seat, grid, (suits, hcp_matters) in zip(tracked, label_grids, projections):
            ss = self.spec.seat(seat)
            points = tuple(ss.card_points)
            key = grid.astype(np.int32).tobytes()
            if honours:
                automata.append(_projected(order, predeal[seat], ss.forbidden.mask, key, suits, hcp_matters, points))
            elif not ss.holdings and ss.side is None:
                automata.append(_suit_major(order, predeal[seat], ss.forbidden.mask, key, points))
            else:
                filters = {int(s): fn for s, fn in ss.holdings.items()}
                side = None if ss.side is None else (ss.side.increments, self._side[seat])
                automata.append(build_seat_automaton(order, predeal[seat], ss.forbidden.mask,
                                                     _suit_automaton(key), filters, points, side))
        return automata

    def _final_accept(self, accept: np.ndarray) -> np.ndarray:
        """The joint acceptance read on the tracked seats' final states (one axis per tracked seat)."""
        assert self.across is not None
        tracked = self._plan.tracked
        index = []
        for axis, seat in enumerate(self.across.seats):
            if seat in tracked:
                a = self.automata[tracked.index(seat)]
                index.append(a.labels.astype(np.int64) // self._spread[seat])
            else:  # fully predealt: its label was fixed above
                index.append(np.arange(accept.shape[axis]))
        table = np.asarray(np.asarray(accept[np.ix_(*index)]).any(
            axis=tuple(i for i, s in enumerate(self.across.seats) if s not in tracked)))
        view = [self.automata[i].size[-1] if s in self.across.seats else 1 for i, s in enumerate(tracked)]
        sizes = tuple(a.size[-1] for a in self.automata)
        return np.array(np.broadcast_to(table.reshape(view), sizes))  # (ascontiguousarray makes a 0-d array 1-d)

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
        value = self.tables.total() * self._constant
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
        if self.across is not None and ExactDealer(self.spec, limit=self.limit).count_constrained():
            return f"the seats' own conditions can hold, but never together with {self.across}"
        return _diagnose(self.spec, self._complete_failures, self.limit)

    def distribution(self, seat: Seat | str, feature: str) -> dict[int | str, "int | Fraction"]:
        """Exact number of satisfying deals for each value of a seat's feature.

        ``feature``: ``S``/``H``/``D``/``C`` (dealt length), ``hcp``, or
        ``pattern`` (keys like ``'4-4-3-2'``). Values with no deal are left out.
        """
        seat = Seat.parse(seat)
        if feature not in FEATURES:
            raise ValueError(f"unknown feature {feature!r}: expected one of {', '.join(FEATURES)}")
        predeal = self._plan.predeal[seat]
        if self._plan.vacancies[seat] == 0:
            hand = CardSet(predeal)
            value = _feature_value(hand, feature)
            return {value: self.count()} if not self.is_empty else {}
        if self.is_empty:
            return {}
        observed = ExactDealer(self.spec, limit=self.limit, backend=self.backend, across=self.across,
                               order=self._order, _observe=(seat, feature))
        if observed._dead:  # pragma: no cover - the spec is not empty, so neither is this
            return {}
        pos = observed.tracked.index(seat)
        final = observed.tables.forward_final()
        labels = observed.automata[pos].labels % observed._spread.get(seat, 1 << 30)
        if observed._final is not None:
            final = final * observed._final
        ways = observed._pool_ways() * observed._constant
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


def _cell(shape: tuple[int, int, int, int], mask: int) -> int:
    """The grid class of a complete hand (standard HCP)."""
    return shape_index(shape) * (MAX_HCP + 1) + CardSet(mask).hcp


def _check_complete(spec: SeatSpec, seat: Seat, mask: int) -> tuple[bool, Fraction]:
    """Whether a fully predealt seat meets its conditions, and its holding weight."""
    hand = CardSet(mask)
    if not spec.accepts(seat, mask):
        return False, Fraction(0)
    weight = Fraction(1)
    for suit, fn in spec.holdings.items():
        w = Fraction(fn(hand.suit(suit)))
        weight *= w
    if spec.forbidden & hand:
        return False, Fraction(0)
    return weight > 0, weight


def _diagnose(spec: DealSpec, complete_failures: list[str], limit: int) -> str:
    """Name the smallest set of seats whose constraints cannot all hold."""
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
            if ExactDealer(DealSpec(seats=seats), limit=limit).count_constrained() == 0:
                what = "cannot be dealt" if size == 1 else "cannot all hold together"
                return f"{describe(group)} -- {what}"
    return describe(constrained)  # pragma: no cover - the whole spec is the smallest set
