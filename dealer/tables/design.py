"""What a spec's tables will be, before any is built: the seats tracked, the card order, the automata, the size.

A :class:`TablesDesign` is the first half of an :class:`~dealer.tables.exact.ExactDealer`: which seats
the tables track and which are dealt from the pool, each tracked seat's labels over the shape x HCP
grid (its own, its labels across seats, its second count's totals), the order the free cards are
read in, and the seats' automata. From it the size of the tables is known before they are built:
:attr:`~TablesDesign.dense_cells` exactly (the product of the seats' states, position by position),
and :meth:`~TablesDesign.size` finds the compact tables' reachable states within a limit (kept, so
the tables built from the sizing do not find them again). The script planner
(:mod:`dealer.run.script_dealer`) sizes each way it weighs this way, then builds only the one it
chose.

>>> from dealer.spec.spec import DealSpec
>>> design = TablesDesign(DealSpec.parse("hcp(north) >= 20 && spades(south) >= 5"))
>>> [s.name for s in design.tracked], design.dense_cells > 0
(['N', 'S'], True)
>>> sizing = design.size(limit=10**6)
>>> sizing.fits, sizing.backend, sizing.cells == design.dense_cells
(True, 'dense', True)
>>> design.size(limit=10).text()[:40]
'refused, this spec reaches more than 10 '
>>> design.size(limit=10, backend="dense").why[:27]
'this spec needs 16,518 tabl'

"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np

from dealer.budget import current
from dealer.cards.cardset import CardSet
from dealer.cards.seat import Seat
from dealer.cards.shapes import ALL_SHAPES, shape_index
from dealer.cards.suit import Suit
from dealer.errors import SpecError
from dealer.lang.grid import GRID, MAX_HCP
from dealer.spec.cross import CrossCondition
from dealer.spec.sidecount import refine_labels, split_by_totals
from dealer.spec.spec import DealSpec, SeatSpec
from dealer.tables.automaton import (
    SeatAutomaton, SuitAutomaton, build_projected_automaton, build_seat_automaton, build_suit_automaton,
    feature_projection, labels_from_mask,
)
from dealer.tables.engine import BACKENDS, dense_cells, dense_refusal
from dealer.tables.order import candidate_orders, dense_size, honours_last
from dealer.tables.reach import Reach, StreamedTables, reach_within, stream_within

__all__ = ["TablesDesign", "Sizing", "CardPlan", "FEATURES", "ORDERS", "PATTERNS", "BACKENDS", "clear_caches"]

#: The card orders the tables may read in (:mod:`dealer.tables.order`): ``auto`` picks the one with the fewest states.
ORDERS = ("auto", "suit-major", "honours-last")


#: Per-seat features whose exact distribution :meth:`ExactDealer.distribution` gives.
FEATURES = ("S", "H", "D", "C", "hcp", "pattern")

#: Hand patterns (lengths sorted longest first), e.g. (4, 3, 3, 3).
PATTERNS: tuple[tuple[int, ...], ...] = tuple(sorted({tuple(sorted(s, reverse=True)) for s in ALL_SHAPES},
                                                     reverse=True))
_PATTERN_ID = {p: i for i, p in enumerate(PATTERNS)}
_PATTERN_OF_SHAPE = np.array([_PATTERN_ID[tuple(sorted(s, reverse=True))] for s in ALL_SHAPES])

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
class Sizing:
    """How large a design's tables are for a backend, found before they are built: ``backend`` the one that fits
    (``""`` when none does: ``why`` says so), ``cells`` their size, ``reached`` the compact tables' states."""

    backend: str
    cells: int
    why: str = ""
    reached: Reach | None = None
    #: The streamed tables' counts (backend ``streamed``: counted, not kept).
    streamed: StreamedTables | None = None

    @property
    def fits(self) -> bool:
        """Whether tables of this size may be built."""
        return bool(self.backend)

    def text(self) -> str:
        """The sizing in words, for a plan's step."""
        if not self.fits:
            return f"refused, {self.why}"
        return f"{self.backend}, {self.cells:,} " + ("states at one position at most" if self.streamed else "cells")


@dataclass(frozen=True)
class CardPlan:
    """Where the cards are: the free ones (in the order read), the predealt ones per seat, the seats."""

    free: tuple[int, ...]
    predeal: tuple[int, int, int, int]
    tracked: tuple[Seat, ...]
    pool: tuple[Seat, ...]
    vacancies: tuple[int, int, int, int]


class TablesDesign:
    """A spec's tables before they are built: seats, labels, card order, automata; their size for a limit.

    Set once at construction (nothing changes it after); ``across``: conditions across seats counted through
    the seats' labels; ``order``: one of :data:`ORDERS`; ``observe``: (seat, feature) whose values the final
    states keep (for :meth:`~dealer.tables.exact.ExactDealer.distribution`).
    """

    def __init__(self, spec: DealSpec, across: CrossCondition | None = None, order: str = "auto",
                 observe: tuple[Seat, str] | None = None) -> None:
        if order not in ORDERS:
            raise SpecError(f"unknown order {order!r}: expected one of {', '.join(ORDERS)}")
        self.spec = spec
        self.across = across
        self.observe = observe
        self.order_asked = order
        predeal = [spec.seat(s).predeal.mask for s in Seat]
        placed = predeal[0] | predeal[1] | predeal[2] | predeal[3]
        free = tuple(i for i in range(52) if not (placed >> i & 1))
        vacancies = tuple(13 - m.bit_count() for m in predeal)
        #: The product of the predealt seats' holding weights (and of the automata's constants).
        self.constant = Fraction(1)
        self.complete_failures: list[str] = []
        tracked, pool, accept = self._seats(predeal, vacancies, None if across is None else across.accept)
        self.spread: dict[Seat, int] = {}  # a seat's labels are joint label * spread + its own
        self.side: dict[Seat, np.ndarray] = {}  # a seat's side map (dealer.spec.sidecount)
        label_grids = [self._label_grid(seat) for seat in tracked]
        projections = [feature_projection(g) for g in label_grids]
        free, honours = self._choose_order(free, tracked, label_grids, projections, predeal)
        #: The order the free cards are read in: ``honours-last`` or ``suit-major``.
        self.order = "honours-last" if honours else "suit-major"
        self.cards = CardPlan(free, tuple(predeal), tuple(tracked), tuple(pool), vacancies)  # type: ignore[arg-type]
        #: True when no deal can meet the spec (found before any table).
        self.dead = bool(self.complete_failures) or any(not a.feasible for a in self.automata)
        if accept is not None and not accept.any():
            self.dead = True
        #: The joint acceptance over the tracked seats' final states (None: every one counts).
        self.final = None if self.dead or accept is None else self._final_accept(accept)
        for a in self.automata:
            self.constant *= Fraction(a.constant, a.scale)

    @property
    def tracked(self) -> tuple[Seat, ...]:
        """Seats dealt through the tables (constrained ones)."""
        return self.cards.tracked

    @property
    def dense_cells(self) -> int:
        """The dense tables' cells: the product of the tracked seats' states at each position, summed (exact)."""
        return 0 if self.dead else dense_cells(self.automata, len(self.cards.free))

    def size(self, limit: int | None = None, backend: str = "auto") -> Sizing:
        """The tables' size for ``backend`` (one of :data:`BACKENDS`) within ``limit`` cells (the budget's
        ``tables`` by default): dense when asked or when they fit, else the reachable states (found once); for
        ``streamed``, the counts themselves, ``limit`` states a position at most (counted, not kept)."""
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: expected {', '.join(BACKENDS)}")
        limit = current().tables if limit is None else limit
        dense = self.dense_cells
        if backend == "dense" or (backend == "auto" and dense <= limit):
            return Sizing("dense", dense) if dense <= limit else Sizing("", dense, dense_refusal(self.automata, dense,
                                                                                                  limit))
        if not dense:
            return Sizing("compact", 0)
        if backend == "streamed":
            counted = stream_within(self.automata, len(self.cards.free), bool(self.cards.pool), self.final, limit)
            if isinstance(counted, str):
                return Sizing("", dense, counted)
            return Sizing("streamed", counted.cells, streamed=counted)
        found = reach_within(self.automata, len(self.cards.free), bool(self.cards.pool), limit)
        if isinstance(found, str):
            return Sizing("", dense, found)
        return Sizing("compact", found.cells, reached=found)

    def _seats(self, predeal: Sequence[int], vacancies: Sequence[int], accept: np.ndarray | None
               ) -> tuple[list[Seat], list[Seat], np.ndarray | None]:
        """The seats whose cards the tables track, those dealt from the pool, and the joint acceptance with the
        labels of seats whose 13 cards are all predealt fixed (their weights and failures noted)."""
        across, observe = self.across, self.observe
        tracked: list[Seat] = []
        pool: list[Seat] = []
        for seat in Seat:
            ss = self.spec.seat(seat)
            observed = observe is not None and observe[0] == seat
            if vacancies[seat] == 0:
                ok, weight = _check_complete(ss, seat, predeal[seat])
                self.constant *= weight
                if not ok:
                    self.complete_failures.append(
                        f"{seat.name_long}'s 13 predealt cards {CardSet(predeal[seat]).to_pbn()} fail its conditions"
                    )
                if across is not None and accept is not None and seat in across.seats:  # its label is known
                    axis = across.seats.index(seat)
                    total = 0 if ss.side is None else ss.side.total(predeal[seat])
                    label = across.label_of(seat, _cell(CardSet(predeal[seat]).shape, predeal[seat]), total)
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
        across, observe = self.across, self.observe
        feature = observe[1] if observe is not None and observe[0] == seat else None
        own = _labels(self.spec.seat(seat), seat, feature)
        masks = self.spec.seat(seat).side_masks(seat)
        if across is not None and seat in across.seats:
            spread = int(own.max()) + 1 if own.size and own.max() >= 0 else 1
            cross = across.grid_labels(seat)
            self.spread[seat] = spread
            if len(cross) > 1:  # the labels read the side count's features: split by total at once
                if masks is None or len(masks) != len(cross):
                    raise SpecError(f"{seat.name_long}'s labels across seats were found for another side count")
                own, self.side[seat] = split_by_totals(np.where((own >= 0) & (cross >= 0), cross * spread + own, -1),
                                                       masks)
                return own
            own = np.where((own >= 0) & (cross[0] >= 0), cross[0] * spread + own, -1).astype(np.int32)
        if masks is not None:  # a second count beside the axis: labels split by the totals they accept
            own, side_map = refine_labels(own, masks)
            self.side[seat] = side_map
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
        order = self.order_asked
        simple = all(
            not self.spec.seat(seat).holdings and self.spec.seat(seat).points is None and seat not in self.side
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
                side = None if ss.side is None else (ss.side.increments, self.side[seat], ss.side.add)
                automata.append(build_seat_automaton(order, predeal[seat], ss.forbidden.mask,
                                                     _suit_automaton(key), filters, points, side))
        return automata

    def _final_accept(self, accept: np.ndarray) -> np.ndarray:
        """The joint acceptance read on the tracked seats' final states (one axis per tracked seat)."""
        assert self.across is not None
        tracked = self.cards.tracked
        index = []
        for axis, seat in enumerate(self.across.seats):
            if seat in tracked:
                a = self.automata[tracked.index(seat)]
                index.append(a.labels.astype(np.int64) // self.spread[seat])
            else:  # fully predealt: its label was fixed above
                index.append(np.arange(accept.shape[axis]))
        table = np.asarray(np.asarray(accept[np.ix_(*index)]).any(
            axis=tuple(i for i, s in enumerate(self.across.seats) if s not in tracked)))
        view = [self.automata[i].size[-1] if s in self.across.seats else 1 for i, s in enumerate(tracked)]
        sizes = tuple(a.size[-1] for a in self.automata)
        return np.array(np.broadcast_to(table.reshape(view), sizes))  # (ascontiguousarray makes a 0-d array 1-d)


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

