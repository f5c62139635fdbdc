"""Per-seat automata: the state a seat's constraints need, and nothing more.

A seat's constraints are a set of accepted classes (dealt shape, dealt HCP),
optionally labelled (for exact marginals), plus per-suit filters or weights
on exact holdings. We read a seat's hand one free card at a time, in card
index order (suits S H D C, ranks A down to 2), and build a *layered*
automaton: at position ``t`` the seat is in one of ``size[t]`` states, and
taking or not taking card ``t`` moves it to a state of position ``t + 1``
(or kills it). Two layers of minimisation keep it small:

1. :func:`build_suit_automaton`: a minimal layered DFA over per-suit
   *letters* (dealt length, dealt HCP in that suit), built from the accepted
   classes by backward residual signatures (numpy, all four levels).
2. :func:`~dealer.spec.holding.build_holding_automaton`: per suit, a minimal layered automaton over
   that suit's free cards whose final states emit a letter and a weight;
   without a filter it counts (length, hcp), with one it remembers exactly
   what the filter needs.

:func:`build_seat_automaton` glues them into one card-level automaton and
minimises it again, position by position (e.g. a seat constrained on HCP only
ends up with states (cards so far, HCP so far)), then drops states not
reachable from the start.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence, cast

import numpy as np

from dealer.arrays import unique_ints, unique_inverse, unique_rows
from dealer.budget import current
from dealer.cards.card import HCP_BY_INDEX
from dealer.cards.cardset import SUIT_MASK, CardSet
from dealer.errors import SpecLimitError
from dealer.lang.grid import GRID, MAX_HCP
from dealer.spec.holding import N_LETTERS, SUIT_COUNTS, HoldingAutomaton, build_holding_automaton, letter
from dealer.cards.shapes import ALL_SHAPES

#: A side count as the automaton reads it: per suit and holding increments, the side map, how totals add.
SideTotals = tuple[np.ndarray, np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray]]

__all__ = [
    "N_LETTERS", "letter", "SuitAutomaton", "build_suit_automaton", "HoldingAutomaton",
    "build_holding_automaton", "SeatAutomaton", "build_seat_automaton", "labels_from_mask",
    "feature_projection", "build_projected_automaton", "SideTotals",
]

_H = MAX_HCP + 1  # HCP totals 0..37
_HS = SUIT_COUNTS  # HCP within one suit 0..10

_LETTER_LEN = np.arange(N_LETTERS) // _HS
_LETTER_HCP = np.arange(N_LETTERS) % _HS


@dataclass(frozen=True)
class SuitAutomaton:
    """Minimal layered DFA over letters, suit by suit.

    ``delta[j]`` (``j = 0..3``) has shape ``(m_j, N_LETTERS)``: the state at
    level ``j + 1`` reached from each level-``j`` state on each letter, or -1
    (dead). Level 0 has the single start state 0; level-4 states are the
    labels ``0 .. n_labels - 1`` (one label: accept).
    """

    delta: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    n_labels: int


def _row_multipliers(n: int, seed: int = 20261123) -> np.ndarray:
    """``n`` fixed odd 62-bit multipliers for the row hash of :func:`_unique_rows` (Python's generator: numpy's
    random module, some 20 ms to import, is left to the runs that deal)."""
    draw = random.Random(seed)
    return np.array([draw.getrandbits(62) | 1 for _ in range(n)], dtype=np.int64)


_ROW_HASH = _row_multipliers(4096)


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows that are not all -1, and each row's index among them (-1 for dead rows).

    Rows are grouped by a 64-bit hash (a dot product that wraps), and the
    grouping is then checked row by row; a collision falls back to sorting.
    """
    live = (rows >= 0).any(axis=1)
    ids = np.full(len(rows), -1, dtype=np.int32)
    if not live.any():
        return np.zeros((0, rows.shape[1]), dtype=np.int32), ids
    sub = rows[live].astype(np.int64)
    with np.errstate(over="ignore"):
        h = sub @ _ROW_HASH[: sub.shape[1]]
    _, first, inverse = unique_inverse(h)
    inverse = inverse.reshape(-1)
    uniq = sub[first]
    if not np.array_equal(uniq[inverse], sub):  # pragma: no cover - 64-bit collision
        uniq, inverse = np.unique(sub, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    ids[live] = inverse
    return uniq.astype(np.int32), ids


def build_suit_automaton(labels: np.ndarray) -> SuitAutomaton:
    """The minimal suit-level DFA for a labelled set of (shape, HCP) classes.

    ``labels`` is an int array over :data:`~dealer.lang.grid.GRID`: -1 where
    the class is rejected, else its label (0 when there is only "accept").
    """
    n_labels = int(labels.max()) + 1 if labels.size and labels.max() >= 0 else 1
    lg = np.full((14, 14, 14, 14, _H + _HS), -1, dtype=np.int32)
    shapes = np.array(ALL_SHAPES)
    lg[shapes[:, 0], shapes[:, 1], shapes[:, 2], shapes[:, 3], :_H] = labels.reshape(len(ALL_SHAPES), _H)

    # level 3: prefix (l1, l2, l3), H3 -> row over letters (l4 forced, h4)
    pre3 = shapes[:, :3]
    l4 = shapes[:, 3]
    h3 = np.arange(_H)
    rows3 = np.full((len(pre3), _H, N_LETTERS), -1, dtype=np.int32)
    for h4 in range(_HS):
        vals = lg[pre3[:, 0, None], pre3[:, 1, None], pre3[:, 2, None], l4[:, None], h3[None, :] + h4]
        rows3[np.arange(len(pre3))[:, None], h3[None, :], (l4 * _HS + h4)[:, None]] = vals
    delta3, ids3 = _unique_rows(rows3.reshape(-1, N_LETTERS))
    t3 = np.full((14, 14, 14, _H + _HS), -1, dtype=np.int32)
    t3[pre3[:, 0, None], pre3[:, 1, None], pre3[:, 2, None], h3[None, :]] = ids3.reshape(len(pre3), _H)

    # level 2: prefix (l1, l2), H2 -> row over letters (l3, h3)
    pre2 = np.array([(a, b) for a in range(14) for b in range(14 - a)])
    lt, ht = _LETTER_LEN, _LETTER_HCP
    l3ok = (pre2[:, 0, None] + pre2[:, 1, None] + lt[None, :]) <= 13  # (P2, L)
    l3c = np.where(l3ok, lt[None, :], 0)
    rows2 = t3[pre2[:, 0, None, None], pre2[:, 1, None, None], l3c[:, None, :],
               h3[None, :, None] + ht[None, None, :]]
    rows2 = np.where(l3ok[:, None, :], rows2, -1)
    delta2, ids2 = _unique_rows(rows2.reshape(-1, N_LETTERS))
    t2 = np.full((14, 14, _H + _HS), -1, dtype=np.int32)
    t2[pre2[:, 0, None], pre2[:, 1, None], h3[None, :]] = ids2.reshape(len(pre2), _H)

    # level 1: prefix (l1), H1 -> row over letters (l2, h2)
    pre1 = np.arange(14)
    l2ok = (pre1[:, None] + lt[None, :]) <= 13
    l2c = np.where(l2ok, lt[None, :], 0)
    rows1 = t2[pre1[:, None, None], l2c[:, None, :], h3[None, :, None] + ht[None, None, :]]
    rows1 = np.where(l2ok[:, None, :], rows1, -1)
    delta1, ids1 = _unique_rows(rows1.reshape(-1, N_LETTERS))
    t1 = np.full((14, _H + _HS), -1, dtype=np.int32)
    t1[pre1[:, None], h3[None, :]] = ids1.reshape(14, _H)

    # level 0: the start state, over letters (l1, h1)
    row0 = t1[lt, ht].reshape(1, N_LETTERS).astype(np.int32)
    return SuitAutomaton((row0, delta1, delta2, delta3), n_labels)


@dataclass(frozen=True)
class SeatAutomaton:
    """A seat's card-level layered automaton over the ``n`` free cards.

    Position ``t`` has ``size[t]`` states (``size[0] == 1``, the start);
    ``next0[t]``/``next1[t]`` map them to position ``t + 1`` when the seat
    does not take / takes free card ``t`` (-1: dead). ``weight0``/``weight1``
    are integer weights of those moves (None: all 1). Final states (position
    ``n``) carry ``labels``. ``constant`` is the weight contributed by filtered
    suits with no free card; ``scale`` is the product of the denominators the
    holding weights were scaled by: true weight = constant * product of move
    weights / scale.
    """

    size: tuple[int, ...]
    next0: tuple[np.ndarray, ...]
    next1: tuple[np.ndarray, ...]
    weight0: tuple[np.ndarray | None, ...]
    weight1: tuple[np.ndarray | None, ...]
    labels: np.ndarray
    constant: int
    scale: int

    @property
    def n(self) -> int:
        return len(self.next0)

    @property
    def feasible(self) -> bool:
        return self.size[0] > 0


_DEAD = SeatAutomaton((0,), (), (), (), (), np.zeros(0, dtype=np.int32), 0, 1)


def build_seat_automaton(free_cards: Sequence[int], predeal: int, forbidden: int,
                         suit_auto: SuitAutomaton,
                         filters: dict[int, Callable[[CardSet], object]] | None = None,
                         points: Sequence[int] = HCP_BY_INDEX,
                         side: SideTotals | None = None) -> SeatAutomaton:
    """Glue the suit automaton and the per-suit holding automata into one, minimised.

    ``free_cards``: indices of the cards not placed anywhere, ascending.
    ``predeal``/``forbidden``: the seat's bit-sets. ``filters``: per suit
    index, a filter or weight on the seat's dealt holding in that suit. ``points``: the count
    (per card index) the classes' HCP axis stands for (4-3-2-1 by default). ``side``: a side count
    (:mod:`dealer.spec.sidecount`) as (per suit and holding increments, ``side_map``, how totals add): the
    automaton carries the total, and a final class ``q`` with total ``i`` ends in label ``side_map[q, i]``
    (-1: rejected).
    """
    glue = _Glue(free_cards, suit_auto, side)
    if not glue.add_holdings(predeal, forbidden, filters or {}, points) or not glue.reach_suits():
        return _DEAD
    return glue.automaton()


class _Glue:
    """The work of :func:`build_seat_automaton`: a seat's holding automata, suit by suit, joined through the suit
    automaton's states (and a side count's running total) into raw card-level moves, then minimised."""

    def __init__(self, free_cards: Sequence[int], suit_auto: SuitAutomaton,
                 side: SideTotals | None) -> None:
        self.free_cards = free_cards
        self.suit_auto = suit_auto
        self.increments: np.ndarray | None = None if side is None else side[0]
        self.side_map: np.ndarray | None = None if side is None else side[1]
        #: How a suit's side value joins the running totals (a sum; capped counts stop at their caps).
        self.add: Callable[[np.ndarray, np.ndarray], np.ndarray] = np.add if side is None else side[2]
        #: How many side totals the states tell apart (1: no side count).
        self.totals = 1 if self.side_map is None else self.side_map.shape[1]
        self.by_suit: list[list[int]] = [[], [], [], []]
        for c in free_cards:
            self.by_suit[c // 13].append(c)
        self.scale = 1
        self.fixed_weight = 1
        self.holdings: list[HoldingAutomaton] = []
        #: Per suit level: the reachable (suit-level state, side total) pairs, and their index by pair.
        self.reach: list[tuple[np.ndarray, np.ndarray]] = []
        self.lookup: list[np.ndarray] = []

    def add_holdings(self, predeal: int, forbidden: int, filters: dict[int, Callable[[CardSet], object]],
                     points: Sequence[int]) -> bool:
        """Build each suit's holding automaton; False when a suit with no free card fails its filter."""
        for j in range(4):
            pre = (predeal >> (13 * j) & SUIT_MASK) << (13 * j)
            cards = self.by_suit[j]
            allowed = [not (forbidden >> c & 1) for c in cards]
            ha, den = build_holding_automaton(cards, allowed, pre, filters.get(j), points,
                                              None if self.increments is None else self.increments[j])
            self.scale *= den
            self.holdings.append(ha)
            if not cards and ha.size[0] == 0:
                return False
            if not cards:
                self.fixed_weight *= int(ha.weight[0])
        return True

    def reach_suits(self) -> bool:
        """The (suit-level state, side total) pairs reachable after each suit with what its holdings produce;
        False when none survives a suit."""
        totals, suit_auto = self.totals, self.suit_auto
        states, running = np.array([0], dtype=np.int64), np.array([0], dtype=np.int64)
        for j in range(5):
            key = unique_ints(states * totals + running)
            self.reach.append((key // totals, key % totals))
            m = suit_auto.delta[j].shape[0] if j < 4 else suit_auto.n_labels
            table = np.full((max(m, 1), totals), -1, dtype=np.int64)
            table[self.reach[j][0], self.reach[j][1]] = np.arange(len(key))
            self.lookup.append(table)
            if j == 4:
                return True
            h = self.holdings[j]
            finals = unique_ints(h.letter * totals + (0 if h.side is None else h.side))
            nxt = suit_auto.delta[j][self.reach[j][0][:, None], (finals // totals)[None, :]].astype(np.int64)
            total = self.add(self.reach[j][1][:, None], (finals % totals)[None, :])
            live = (nxt >= 0) & (total < totals)
            states, running = nxt[live], total[live]
            if not len(states):
                return False
        return True

    def fold_empty(self, states: np.ndarray, running: np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Advance level-``j`` states (and side totals) through suits ``j..`` with no free cards."""
        while j < 4 and not self.by_suit[j]:
            lt = int(self.holdings[j].letter[0])
            states = np.where(states >= 0, self.suit_auto.delta[j][np.maximum(states, 0), lt], -1)
            added = self.holdings[j].side
            running = running if added is None else self.add(running, added[:1])
            j += 1
        return states, running, j

    def arrive(self, states: np.ndarray, running: np.ndarray, j: int) -> np.ndarray:
        """The raw state (or final label) of suit-level ``states`` with side totals ``running`` at level ``j``."""
        top = self.totals - 1
        states = np.where(running <= top, states, -1)  # a raw total past the largest one is never reached
        if j < 4:
            return np.where(states >= 0, self.lookup[j][np.maximum(states, 0), np.minimum(running, top)], -1)
        if self.side_map is None:
            return states
        return np.where(states >= 0, self.side_map[np.maximum(states, 0), np.minimum(running, top)], -1)

    def _moves(self, j: int, k: int) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        """The raw moves from the position of suit ``j``'s ``k``-th free card (not taking it, taking it): their
        targets, and their weights at the suit's end (None: all 1)."""
        ha, (pairs, running) = self.holdings[j], self.reach[j]
        a = np.repeat(np.arange(len(pairs)), ha.size[k])
        w = np.tile(np.arange(ha.size[k]), len(pairs))
        targets: list[np.ndarray] = []
        weights: list[np.ndarray | None] = []
        for nxt in (ha.next0[k], ha.next1[k]):
            held = nxt[w].astype(np.int64)
            if k + 1 < len(self.by_suit[j]):
                targets.append(np.where(held >= 0, a * ha.size[k + 1] + held, -1))
                weights.append(None)
                continue
            lt = ha.letter[np.maximum(held, 0)]
            after = np.where(held >= 0, self.suit_auto.delta[j][pairs[a], lt], -1)
            total = running[a] if ha.side is None else self.add(running[a], ha.side[np.maximum(held, 0)])
            targets.append(self.arrive(*self.fold_empty(after, total, j + 1)))
            weight = np.where(held >= 0, ha.weight[np.maximum(held, 0)], 0)
            weights.append(weight if (weight > 1).any() else None)
        return targets, weights

    def automaton(self) -> SeatAutomaton:
        """The raw moves position by position (forward), minimised (backward)."""
        suit_of = [c // 13 for c in self.free_cards]
        offset_of: list[int] = []
        for t in range(len(suit_of)):
            offset_of.append(0 if t == 0 or suit_of[t - 1] != suit_of[t] else offset_of[-1] + 1)
        raw = sum(len(self.reach[j][0]) * self.holdings[j].size[k] for j, k in zip(suit_of, offset_of))
        if self.totals > 1 and raw > (most := current().raw_states):  # memory: a side count can multiply the states
            # past what minimising can afford (without one, the states are bounded by lengths and counts)
            raise SpecLimitError(f"a seat's table needs {raw:,} states before minimising, more than "
                                 f"{most:,}: its side count (dealer.spec.sidecount) carries too many totals")
        moves = [self._moves(j, k) for j, k in zip(suit_of, offset_of)]
        states, running, j0 = self.fold_empty(np.array([0]), np.array([0]), 0)
        start = int(self.arrive(states, running, j0)[0])  # the initial raw state (no free card: the final label)
        if start < 0:
            return _DEAD
        if not moves:
            return SeatAutomaton((1,), (), (), (), (), np.array([start], dtype=np.int32), self.fixed_weight,
                                 self.scale)
        n_final = self.suit_auto.n_labels if self.side_map is None else max(int(self.side_map.max()) + 1, 1)
        return _minimize_layers([m[0][0] for m in moves], [m[0][1] for m in moves], [m[1][0] for m in moves],
                                [m[1][1] for m in moves], n_final, start * self.holdings[j0].size[0],
                                self.fixed_weight, self.scale)


@dataclass(frozen=True)
class _Layer:
    """One position's moves, per state: where declining and taking the card lead (-1: dead), and their
    weights (None: all 1)."""

    skip: np.ndarray
    take: np.ndarray
    skip_weight: np.ndarray | None
    take_weight: np.ndarray | None


def _minimize_layers(skip: list[np.ndarray], take: list[np.ndarray], skip_weight: list[np.ndarray | None],
                     take_weight: list[np.ndarray | None], n_final: int, start: int, constant: int,
                     scale: int) -> SeatAutomaton:
    """Minimise a layered automaton given raw transitions, then keep what the start reaches.

    ``skip[t]``/``take[t]`` map raw states of position ``t`` to raw states of position ``t + 1``
    when the seat declines / takes card ``t`` (-1: dead); raw final states are the labels
    ``0 .. n_final - 1``; ``skip_weight``/``take_weight`` are the moves' weights (None: all 1).
    """
    layers, start_of = _merge_equivalent(skip, take, skip_weight, take_weight, n_final)
    start_state = int(start_of[start]) if layers else start
    if start_state < 0:
        return _DEAD
    return _reachable(layers, start_state, constant, scale)


def _merge_equivalent(skip: list[np.ndarray], take: list[np.ndarray], skip_weight: list[np.ndarray | None],
                      take_weight: list[np.ndarray | None], n_final: int) -> tuple[list[_Layer], np.ndarray]:
    """Backward from the final labels: raw states with the same moves (targets and weights) become one.

    Returns each position's merged moves and, for position 0, each raw state's merged state (-1: dead).
    """
    n = len(skip)
    merged_next = np.arange(n_final, dtype=np.int64)  # the merged state of each raw state one position on
    n_next = n_final
    layers: list[_Layer] = [_Layer(np.zeros(0), np.zeros(0), None, None)] * n
    for t in range(n - 1, -1, -1):
        with_dead = np.append(merged_next, -1)  # index -1 (dead) reads -1
        to_skip, to_take = with_dead[skip[t]], with_dead[take[t]]
        columns = [to_skip, to_take]
        if skip_weight[t] is not None:
            columns.append(np.where(to_skip >= 0, cast(np.ndarray, skip_weight[t]), 0))
        if take_weight[t] is not None:
            columns.append(np.where(to_take >= 0, cast(np.ndarray, take_weight[t]), 0))
        live = (to_skip >= 0) | (to_take >= 0)
        merged = np.full(len(to_skip), -1, dtype=np.int64)
        if len(columns) == 2:
            distinct, _, inverse = unique_inverse(((to_skip + 1) * (n_next + 1) + (to_take + 1))[live])
        else:
            distinct, inverse = unique_rows(np.stack(columns, axis=1)[live], return_inverse=True)
        inverse = inverse.reshape(-1)
        merged[live] = inverse
        first = np.zeros(len(distinct), dtype=np.int64)  # one raw state standing for each merged state
        first[inverse] = np.nonzero(live)[0]
        kept_skip, kept_take = to_skip[first], to_take[first]
        layers[t] = _Layer(
            kept_skip, kept_take,
            None if skip_weight[t] is None else np.where(kept_skip >= 0, cast(np.ndarray, skip_weight[t])[first], 0),
            None if take_weight[t] is None else np.where(kept_take >= 0, cast(np.ndarray, take_weight[t])[first], 0))
        merged_next, n_next = merged, len(distinct)
    return layers, merged_next


def _reachable(layers: list[_Layer], start: int, constant: int, scale: int) -> SeatAutomaton:
    """The merged automaton cut to the states ``start`` reaches, renumbered position by position."""
    alive = np.array([start])
    sizes = [1]
    next0: list[np.ndarray] = []
    next1: list[np.ndarray] = []
    weight0: list[np.ndarray | None] = []
    weight1: list[np.ndarray | None] = []
    for layer in layers:
        to_skip, to_take = layer.skip[alive], layer.take[alive]
        reached = unique_ints(np.concatenate([to_skip[to_skip >= 0], to_take[to_take >= 0]]))
        number = np.full(max(int(reached.max()) + 1 if len(reached) else 1, 1), -1, dtype=np.int64)
        number[reached] = np.arange(len(reached))
        next0.append(np.where(to_skip >= 0, number[np.maximum(to_skip, 0)], -1).astype(np.int32))
        next1.append(np.where(to_take >= 0, number[np.maximum(to_take, 0)], -1).astype(np.int32))
        weight0.append(None if layer.skip_weight is None else layer.skip_weight[alive])
        weight1.append(None if layer.take_weight is None else layer.take_weight[alive])
        alive = reached
        sizes.append(len(reached))
    return SeatAutomaton(tuple(sizes), tuple(next0), tuple(next1), tuple(weight0), tuple(weight1),
                         alive.astype(np.int32), constant, scale)


def feature_projection(labels: np.ndarray) -> tuple[tuple[int, ...], bool]:
    """The fewest suits whose lengths the labels depend on, and whether they depend on HCP.

    ``labels`` is over :data:`~dealer.lang.grid.GRID`. A seat constrained by
    HCP only gives ``((), True)``; ``spades >= 5`` gives ``((0,), False)``.
    """
    table = labels.reshape(len(ALL_SHAPES), _H)
    hcp_matters = not bool((table == table[:, :1]).all())
    shapes = np.array(ALL_SHAPES)
    from itertools import combinations

    for size in range(5):
        for subset in combinations(range(4), size):
            if size:
                key = np.zeros(len(shapes), dtype=np.int64)
                for s in subset:
                    key = key * 14 + shapes[:, s]
            else:
                key = np.zeros(len(shapes), dtype=np.int64)
            _, first, group = unique_inverse(key)
            if (table[first[group.reshape(-1)]] == table).all():
                return subset, hcp_matters
    return (0, 1, 2, 3), hcp_matters  # pragma: no cover - the full shape always determines the labels


def build_projected_automaton(order: Sequence[int], predeal: int, forbidden: int, labels: np.ndarray,
                              suits: tuple[int, ...], hcp_matters: bool,
                              points: Sequence[int] = HCP_BY_INDEX) -> SeatAutomaton:
    """A seat's automaton over free cards in any ``order``, tracking only projected features.

    The state is (cards held, length in each suit of ``suits``, HCP if it
    matters), predealt cards included; final states get the label of the
    (projected shape, HCP) class. Minimised like the suit-major automaton.
    """
    table = labels.reshape(len(ALL_SHAPES), _H)
    shapes = np.array(ALL_SHAPES)
    dims = [14] * (1 + len(suits)) + [_H if hcp_matters else 1]
    final = np.full(dims[1:], -1, dtype=np.int64)
    values = table if hcp_matters else table[:, :1]
    if suits:
        final[tuple(shapes[:, s] for s in suits)] = values
    else:  # every shape has the same labels
        final[...] = values[0]
    radix = [int(np.prod(dims[:i])) for i in range(len(dims))]
    pre_len = [(predeal >> (13 * s) & SUIT_MASK).bit_count() for s in suits]
    pre_hcp = sum(points[i] for i in range(52) if predeal >> i & 1) if hcp_matters else 0
    start_code = predeal.bit_count() * radix[0] + sum(v * radix[1 + i] for i, v in enumerate(pre_len)) \
        + pre_hcp * radix[-1]
    n = len(order)
    layers = [np.array([start_code], dtype=np.int64)]
    take_codes: list[np.ndarray] = []
    for t, card in enumerate(order):
        codes = layers[t]
        c = codes // radix[0] % 14
        ok = c < 13
        if forbidden >> card & 1:
            ok &= False
        step = radix[0]
        suit = card // 13
        if suit in suits:
            pos = 1 + suits.index(suit)
            step += radix[pos]
        if hcp_matters:
            step += points[card] * radix[-1]
        took = np.where(ok, codes + step, -1)
        take_codes.append(took)
        layers.append(unique_ints(np.concatenate([codes, took[took >= 0]])))
    labels_final = np.full(len(layers[n]), -1, dtype=np.int64)
    codes = layers[n]
    c = codes // radix[0] % 14
    parts = tuple(codes // radix[1 + i] % 14 for i in range(len(suits))) + (codes // radix[-1] % dims[-1],)
    labels_final = np.where(c == 13, final[parts], -1)
    n_final = int(labels_final.max()) + 1 if len(labels_final) and labels_final.max() >= 0 else 1
    raw0: list[np.ndarray] = []
    raw1: list[np.ndarray] = []
    for t in range(n):
        nxt = layers[t + 1]
        i0 = np.searchsorted(nxt, layers[t])
        took = take_codes[t]
        i1 = np.where(took >= 0, np.searchsorted(nxt, np.maximum(took, 0)), -1)
        if t == n - 1:
            i0 = labels_final[i0]
            i1 = np.where(i1 >= 0, labels_final[np.maximum(i1, 0)], -1)
        raw0.append(i0.astype(np.int64))
        raw1.append(i1.astype(np.int64))
    if n == 0:
        label = int(labels_final[0])
        if label < 0:
            return _DEAD
        return SeatAutomaton((1,), (), (), (), (), np.array([label], dtype=np.int32), 1, 1)
    return _minimize_layers(raw0, raw1, [None] * n, [None] * n, n_final, 0, 1, 1)


def labels_from_mask(mask: np.ndarray | None) -> np.ndarray:
    """Labels (0 accept, -1 reject) over the grid from a boolean mask (None: accept all)."""
    if mask is None:
        return np.zeros(GRID.size, dtype=np.int32)
    return np.where(mask, 0, -1).astype(np.int32)
