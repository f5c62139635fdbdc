"""The layout graph: a position's lawful layouts, suit by suit, and the passes that answer every question.

A *layout* gives every unseen card to a concealed seat, lawfully (hand sizes, voids). Inside a
suit the lawful constraints cannot tell one unseen card from another, so the graph goes suit by
suit: a suit's *step* lists every way of sharing its unseen cards among the concealed seats (the
*rows*, dropping those a local filter forbids) and groups them by what they add to a state (the
seats' counts of cards and the plan's columns, :mod:`inference.exact.columns`). Layer ``p`` holds the
states reachable after ``p`` positions of the walk; an edge joins a state, a group and the state it
leads to. Every path from the first layer to the last is a class of layouts; a group's rows are
interchangeable on it.

A position is a suit, or a *part* of one (:class:`Part`): when nothing reads a suit's holdings
whole and its groups are many (HCP on several hands: thousands), the suit is walked as its honours
(at most 81 ways among three seats) then its spot cards, which only add counts; the columns are
sums over cards, so they add up across the parts, and a state meets tens of groups, not thousands.

One graph, several passes:

* **exists** / **alive** (:meth:`LayoutGraph.alive`): the states from which an accepted final
  state is reached;
* **count** and **weigh** (:meth:`LayoutGraph.flow`): forward and backward sums of exact integer
  weights (a row's weight is the product of its holdings' weights, :mod:`inference.claims.weights`;
  int64 while every sum fits, Python integers beyond);
* **extremes** (:meth:`LayoutGraph.extremes`): the tight minimum and maximum of features over the
  accepted layouts (max-plus over live edges);
* **odds** and **sample**: :mod:`inference.exact.layouts` reads them off the flow and the steps' rows.

The one limit is the budget's ``graph_pairs`` (:mod:`dealer.budget`; edges at one position); past it the
graph refuses with :class:`~inference.errors.TooComplexError`, and the solver
(:mod:`inference.exact.solver`) asks the exact dealer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, NamedTuple, Sequence, cast

import numpy as np

from dealer.budget import current
from dealer import Seat, Suit
from dealer.arrays import unique_inverse, unique_rows

from inference.exact.columns import Column, Columns, Compiled, SuitReader
from inference.errors import InconsistentCardsError, InvalidArgumentError
from inference.claims.features import Feature, Kind, evaluate, holding_values
from inference.exact.kernel import assignments, holding_of, join_counts, popcount13
from inference.claims.weights import HoldingWeights

__all__ = ["Part", "SuitStep", "Flow", "LayoutGraph", "INT64_ROOM", "WALK", "sum_by"]

#: Sums stay in int64 while a floating-point bound on them stays below this; past it, Python integers.
INT64_ROOM = 2.0 ** 60
#: The honours of a suit (A K Q J, as 13-bit positions): the cards with HCP.
HONOUR_CARDS = 0b1111
#: The order the suits are walked in. Measured on real auctions before the lead, the suits with the most
#: groups first halved the worst record's time and doubled others'; an order chosen by the pairs each
#: promised did worse than both. Layers, links and steps are kept by position, so another order (not with
#: shape columns, whose codes follow it) needs only this.
WALK = (0, 1, 2, 3)


class Part(NamedTuple):
    """A position of the walk: a suit, its unseen cards dealt there, and whether it is the suit's first
    part (which counts the known cards) and last part (after which the suit is complete)."""

    in_suit: int
    unseen: int
    first: bool
    last: bool


class _Option(NamedTuple):
    """A suit's ways to be walked: whole, or (when it may) ``split`` in two parts, which together have
    ``groups`` distinct sums (the whole suit's groups) and ``part_groups`` groups."""

    whole: Part
    split: tuple[Part, Part] | None = None
    groups: int = 0
    part_groups: int = 0


@dataclass(frozen=True)
class SuitStep:
    """One position's ways of sharing its unseen cards (a suit's, or a part's), grouped by what they add to a state.

    ``masks[r, i]`` is the unseen cards concealed seat ``i`` takes in row ``r``; ``group[r]`` the
    row's group; ``adds[g]`` what group ``g`` adds to a state (counts of the first seats, then the
    columns); ``weight[r]`` the row's exact integer weight and ``group_weight[g]`` the sum over the
    group's rows (counts when nothing is weighted); ``group_count[g]`` its rows of weight above 0.
    """

    masks: np.ndarray
    group: np.ndarray
    adds: np.ndarray
    weight: np.ndarray
    group_weight: np.ndarray
    group_count: np.ndarray

    @cached_property
    def span(self) -> tuple[np.ndarray, np.ndarray]:
        """The least (at most 0) and greatest (at least 0) amount the groups add to each column."""
        if not len(self.adds):
            return np.zeros(self.adds.shape[1], dtype=np.int64), np.zeros(self.adds.shape[1], dtype=np.int64)
        return np.minimum(self.adds.min(axis=0), 0), np.maximum(self.adds.max(axis=0), 0)

    @cached_property
    def order(self) -> np.ndarray:
        """The rows ordered by group (found once, when first asked)."""
        return cast(np.ndarray, np.argsort(self.group, kind="stable"))

    @cached_property
    def starts(self) -> np.ndarray:
        """Where each group starts among :attr:`order` (every group has a row; the last entry: the end)."""
        return cast(np.ndarray, np.searchsorted(self.group[self.order], np.arange(len(self.adds) + 1)))

    @property
    def weighted(self) -> bool:
        """Whether some row weighs other than 1."""
        return bool(self.weight.dtype == object or not np.all(self.weight == 1))


@dataclass(frozen=True)
class Flow:
    """Forward and backward sums over a graph: ``forward[s][state]`` the weighted ways to reach a state of
    layer ``s``, ``backward[s][state]`` the weighted ways to finish from it; ``total`` their sum."""

    forward: tuple[np.ndarray, ...]
    backward: tuple[np.ndarray, ...]
    final_weight: np.ndarray
    total: int

    @property
    def exact_python(self) -> bool:
        """Whether the sums are Python integers (past int64)."""
        return self.forward[0].dtype == object


@lru_cache(maxsize=1024)
def _plain_step(suit: int, unseen_suit: int, void: tuple[bool, ...], bases: tuple[int, ...],
                columns: tuple[Column, ...], filters: tuple[object, ...], reader: SuitReader) -> SuitStep:
    """A suit's step with every row weighing 1 (built once for every graph that shares its arguments)."""
    masks, dealt, group, adds = _rows(suit, unseen_suit, void, bases, columns, filters, reader)
    count = np.bincount(group, minlength=len(adds)).astype(np.int64)
    weight = np.ones(len(masks), dtype=np.int64)
    for a in (count, weight):
        a.setflags(write=False)
    return SuitStep(masks, group, adds, weight, count, count)


def _rows(suit: int, unseen_suit: int, void: tuple[bool, ...], bases: tuple[int, ...], columns: tuple[Column, ...],
          filters: tuple[object, ...], reader: SuitReader) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A suit's rows kept by the filters, their dealt holdings, and (group index, group adds)."""
    k = len(reader.seats)
    masks = assignments(unseen_suit, k, void)
    dealt = masks | np.array(bases, dtype=np.int64)[None, :]
    if filters:
        keep = np.ones(len(masks), dtype=bool)
        values = reader.values(dealt)
        for atom in filters:
            keep &= evaluate(atom, values, len(masks))  # type: ignore[arg-type]
        masks, dealt = masks[keep], dealt[keep]
    cols = [popcount13(masks[:, i]) for i in range(k - 1)]
    cols += [c.contribution(suit, dealt, reader) for c in columns]
    table = np.stack(cols, axis=1) if cols else np.zeros((len(masks), 0), dtype=np.int64)
    if not len(masks):
        return masks, dealt, np.zeros(0, dtype=np.intp), np.zeros((0, table.shape[1]), dtype=np.int64)
    adds, group = unique_rows(table, return_inverse=True)
    for a in (masks, dealt, group, adds):
        a.setflags(write=False)
    return masks, dealt, group, adds


def _row_weights(dealt: np.ndarray, seats: tuple[Seat, ...], suit: int, weights: HoldingWeights | None
                 ) -> tuple[np.ndarray, int]:
    """Each row's exact weight (numerators) and the suit's common denominator."""
    out: np.ndarray = np.ones(len(dealt), dtype=np.int64)
    denominator = 1
    for i, seat in enumerate(seats):
        table = weights.table(seat, suit) if weights else None
        if table is None:
            continue
        numerators, d = table
        factor = numerators[dealt[:, i]]
        bound = float(np.max(out, initial=1)) * float(np.max(factor, initial=1))
        if out.dtype == object or factor.dtype == object or bound >= INT64_ROOM:
            out = out.astype(object) * factor.astype(object)
        else:
            out = out * factor
        denominator *= d
    return out, denominator


def sum_by(keys: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Exact sums of ``values`` grouped by small non-negative integer ``keys`` (int64 while they fit, else
    Python integers)."""
    if values.dtype != object and float(np.max(values, initial=0)) * max(len(values), 1) < INT64_ROOM:
        out = np.zeros(size, dtype=np.int64)
    else:
        out, values = np.zeros(size, dtype=object), values.astype(object)
    np.add.at(out, keys, values)
    return out


class LayoutGraph:
    """Every lawful layout of a position, grouped suit by suit by what ``plan`` needs to tell apart.

    ``weights`` weigh each layout by its concealed seats' dealt holdings. ``limit``: the most edges one
    position of the walk may build (default: the budget's ``graph_pairs``).
    """

    def __init__(self, plan: Columns, weights: HoldingWeights | None = None, limit: int | None = None) -> None:
        pos = plan.position
        if not pos.concealed:
            raise InvalidArgumentError("no concealed seat: every card is known")
        self.plan = plan
        self.position = pos
        self.seats = pos.concealed
        self.k = len(self.seats)
        self.vacancy = [pos.vacancy(s) for s in self.seats]
        self.start = self.k - 1  # the plan's columns follow the first seats' counts
        self.tops = [(self.start + j, c.top) for j, c in enumerate(plan.columns) if c.top is not None]
        options = [self._parts(suit, weights) for suit in WALK]
        self.low, self.radix = self._packing(options)
        # no clamp, class, prune or collapse: states can be joined as packed keys
        self._plain = not (self.tops or plan.prunes or plan.musts or plan.collapses
                           or any(c.shape is not None for c in plan.columns))
        self.layers: list[np.ndarray] = [np.zeros((1, self.start + len(plan.columns)), dtype=np.int64)]
        self.links: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        if self.radix is not None:
            self._keys = [np.array([-int(self.low @ self.radix)], dtype=np.int64)]
            self._add_keys: list[np.ndarray] = []
        #: The walk: each position's part and step (a suit is split or not as its join's size asks).
        self.parts: tuple[Part, ...] = ()
        self.steps: tuple[SuitStep, ...] = ()
        self.scale = 1  # the product of the steps' denominators: a layout weighing 1 adds ``scale``
        for i, option in enumerate(options):
            walked = self._choose(option, len(self.layers[-1]))
            for j, part in enumerate(walked):
                step, denominator = self._step(part, weights)
                self.parts += (part,)
                self.steps += (step,)
                self.scale *= denominator
                rest = walked[j + 1:] + tuple(o.whole for o in options[i + 1:])
                self._advance(len(self.parts) - 1, rest, limit)
        #: The suit each position of the walk reads (layers, links and steps are by position).
        self.suits = tuple(part.in_suit for part in self.parts)
        self.depth = len(self.parts)
        final = self.layers[-1]
        self.accept = np.ones(len(final), dtype=bool)
        for i in range(self.k - 1):
            self.accept &= final[:, i] == self.vacancy[i]
        if self.accept.any():
            self.accept &= self.truth(plan.filter)

    def _key(self, part: Part) -> tuple[int, tuple[bool, ...], tuple[int, ...]]:
        """A part's unseen cards, the seats' voids there, and the known cards it counts (its suit's first part only)."""
        pos = self.position
        void = tuple(pos.void(seat, part.in_suit) for seat in self.seats)
        bases = tuple(holding_of(pos.known[seat], part.in_suit) if part.first else 0 for seat in self.seats)
        return part.unseen, void, bases

    def _parts(self, suit: int, weights: HoldingWeights | None) -> _Option:
        """A suit whole, and its honours then its spot cards when nothing reads the suit's holdings whole
        and three hands can take it (each part's groups: at most 81 and 55)."""
        whole = Part(suit, self.position.unseen_in(suit), True, True)
        if sum(not self.position.void(seat, suit) for seat in self.seats) < current().split_takers:
            return _Option(whole)  # two hands share a suit in few groups: no look at its parts (it would cost)
        columns, filters, _ = self.plan.step_key(suit)
        honours, spots = whole.unseen & HONOUR_CARDS, whole.unseen & ~HONOUR_CARDS
        if (not honours or not spots or filters or any(c.atoms and c.atoms[0] for c in columns)
                or (weights and any(weights.table(seat, suit) is not None for seat in self.seats))):
            return _Option(whole)
        parts = Part(suit, honours, True, False), Part(suit, spots, False, True)
        adds = [_plain_step(suit, *self._key(part), *self.plan.step_key(suit)).adds for part in parts]
        pairs = (adds[0][:, None, :] + adds[1][None, :, :]).reshape(-1, adds[0].shape[1])
        return _Option(whole, parts, len(unique_rows(pairs)), len(adds[0]) + len(adds[1]))

    @staticmethod
    def _choose(option: _Option, states: int) -> tuple[Part, ...]:
        """The parts to walk a suit in, met by ``states`` states: split when the whole suit's groups are many,
        or when its join would be large and the parts' groups are fewer together than the whole's."""
        if not option.split:
            return (option.whole,)
        budget = current()
        if option.groups >= budget.split_groups or (states * option.groups >= budget.split_pairs
                                                    and option.part_groups < option.groups):
            return option.split
        return (option.whole,)

    def _step(self, part: Part, weights: HoldingWeights | None) -> tuple[SuitStep, int]:
        s = part.in_suit
        cards, void, bases = self._key(part)
        if not len(assignments(cards, self.k, void)):
            raise InconsistentCardsError(f"no lawful layout: no concealed hand can take the unseen {Suit(s).name_long}")
        plain = _plain_step(s, cards, void, bases, *self.plan.step_key(s))
        if not weights or not any(weights.table(seat, s) is not None for seat in self.seats):
            return plain, 1
        dealt = plain.masks | np.array(bases, dtype=np.int64)[None, :]
        masks, group, adds = plain.masks, plain.group, plain.adds
        weight, denominator = _row_weights(dealt, self.seats, s, weights)
        count = np.bincount(group[weight != 0], minlength=len(adds)).astype(np.int64)
        return SuitStep(masks, group, adds, weight, sum_by(group, weight, len(adds)), count), denominator

    def _reach(self, p: int, rest: tuple[Part, ...]) -> tuple[np.ndarray, np.ndarray, int, int, list[int]]:
        """After position ``p``, with the parts ``rest`` still to walk: the range of each first seat's count of
        cards that can still fill its hand, the range of their total (the last seat takes the rest), and what
        the later parts can give each."""
        pos, vac = self.position, self.vacancy
        later = [sum(t.unseen.bit_count() for t in rest if not pos.void(seat, t.in_suit)) for seat in self.seats]
        dealt = sum(t.unseen.bit_count() for t in self.parts[:p + 1])
        lo = np.array([v - n for v, n in zip(vac[:-1], later[:-1])], dtype=np.int64)
        hi = np.array(vac[:-1], dtype=np.int64)
        return lo, hi, dealt - vac[-1], dealt - vac[-1] + later[-1], later

    def _advance(self, p: int, rest: tuple[Part, ...], limit: int | None) -> None:
        """Join layer ``p`` with the groups of the suit at position ``p``: the states that keep every seat
        able to fill its hand."""
        k = self.k
        prev, adds = self.layers[p], self.steps[p].adds
        lo, hi, total_lo, total_hi, later = self._reach(p, rest)
        if len(prev) * len(adds) <= current().small_join or k == 1:  # every pair, checked below
            src = np.repeat(np.arange(len(prev)), len(adds))
            grp = np.tile(np.arange(len(adds)), len(prev))
        else:
            src, grp = join_counts(prev, adds, self.vacancy, later, limit, what="the layouts")
        counts = prev[src, :k - 1] + adds[grp, :k - 1]
        total = counts.sum(axis=1)
        ok = ((counts >= lo) & (counts <= hi)).all(axis=1) & (total >= total_lo) & (total <= total_hi)
        if self._plain and self.radix is not None:  # states as packed keys: the join is one addition
            self._add_keys.append(adds @ self.radix)
            src, grp = src[ok], grp[ok]
            keys, first, dst = unique_inverse(self._keys[p][src] + self._add_keys[p][grp])
            self._keys.append(keys)
            self.links.append((src, grp, dst.astype(np.int64)))
            self.layers.append(prev[src[first]] + adds[grp[first]])
            return
        combo = prev[src] + adds[grp]
        for col, top in self.tops:
            np.minimum(combo[:, col], top, out=combo[:, col])
        suit, last = self.parts[p].in_suit, self.parts[p].last
        for col, (table, dead) in self._classes(suit) if last else ():  # shape prefixes replaced by their classes
            combo[:, col] = table[combo[:, col]]
        for col, op, value in self.plan.prunes:  # a sum that only grows has passed its bound for good
            ok &= ~_past(combo[:, self.start + col], op, value)
        for j in self.plan.musts if last else ():  # a shape the filter needs and no completion reaches
            ok &= combo[:, self.start + j] != self.plan.columns[j].classes(suit)[1]  # type: ignore[index]
        self._collapse(combo)
        src, grp, combo = src[ok], grp[ok], combo[ok]
        nxt, dst = self._unique(combo)
        self.links.append((src, grp, dst))
        self.layers.append(nxt)

    def _collapse(self, combo: np.ndarray) -> None:
        """States where a read claim is false for good forget its own columns (they merge)."""
        start = self.start
        for c in self.plan.collapses:
            dead = np.zeros(len(combo), dtype=bool)
            if c.failure is not None:
                dead |= combo[:, start + c.failure] == 1
            for col, op, value in c.tests:
                dead |= _past(combo[:, start + col], op, value)
            if dead.any():
                for j in c.owned:
                    combo[dead, start + j] = 0
                combo[dead, start + c.marker[0]] = c.marker[1]

    def _classes(self, s: int) -> list[tuple[int, tuple[np.ndarray, int]]]:
        """The shape columns' class tables after suit ``s`` (a plan with shape columns walks S H D C)."""
        out = []
        for j, column in enumerate(self.plan.columns):
            found = column.classes(s)
            if found is not None:
                out.append((self.start + j, found))
        return out

    def _unique(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The distinct states among ``rows`` (sorted) and each row's index among them."""
        if self.radix is None or not len(rows):
            nxt, dst = unique_rows(rows, return_inverse=True)
            return nxt, dst.astype(np.int64)
        _, first, dst = unique_inverse((rows - self.low) @ self.radix)
        return rows[first], dst.astype(np.int64)

    def _packing(self, options: Sequence[_Option]) -> tuple[np.ndarray, np.ndarray | None]:
        """The lowest value of each state column and the radix that packs a state into one int64 (None: too
        wide), whichever way each suit is walked."""
        low = np.zeros(self.start + len(self.plan.columns), dtype=np.int64)
        high = np.zeros_like(low)
        for option in options:  # a split suit's rows are its parts' rows summed: its parts' spans bound both ways
            for part in option.split or (option.whole,):
                span = _plain_step(part.in_suit, *self._key(part), *self.plan.step_key(part.in_suit)).span
                low += span[0]
                high += span[1]
        for col, top in self.tops:
            high[col] = min(int(high[col]), top)
        for j, column in enumerate(self.plan.columns):
            if column.shape is not None:
                low[self.start + j], high[self.start + j] = 0, 14 ** 4 - 1
        spans = (high - low + 1).astype(np.float64)
        if float(np.prod(spans)) >= 2.0 ** 62:
            return low, None
        radix = np.concatenate([np.cumprod(spans[::-1])[::-1][1:], [1.0]]).astype(np.int64)
        return low, radix

    # -- reading final states --------------------------------------------------------------------
    def truth(self, compiled: Compiled, rows: np.ndarray | None = None) -> np.ndarray:
        """A compiled claim's truth over the final states (or ``rows`` of final states)."""
        return self.plan.truth(compiled, self.layers[-1] if rows is None else rows, self.start)

    def values(self, feature: Feature) -> np.ndarray:
        """A feature the plan carries exactly (or knows), over the final states."""
        return self.plan.reader(self.layers[-1], self.start)(feature)

    # -- passes ---------------------------------------------------------------------------------------
    def alive(self, accept: np.ndarray | None = None) -> list[np.ndarray]:
        """Per layer, the states from which an accepted final state is reached."""
        accept = self.accept if accept is None else accept
        alive = [np.zeros(len(layer), dtype=bool) for layer in self.layers]
        alive[-1] = accept.astype(bool)
        for s in range(self.depth - 1, -1, -1):
            src, _, dst = self.links[s]
            alive[s][src[alive[s + 1][dst]]] = True
        return alive

    def exists(self, accept: np.ndarray | None = None) -> bool:
        """Whether some layout is accepted."""
        return bool(self.alive(accept)[0][0])

    def extremes(self, targets: Sequence[Feature], accept: np.ndarray | None = None) -> dict[Feature, tuple[int, int]]:
        """Min and max of each target (a feature of any seat) over the accepted layouts; empty if none.

        A min-plus and a max-plus pass over the live edges, every target at once: a group's rows are
        interchangeable on an edge, so a target's extremes over a group's rows are reached.
        """
        alive = self.alive(accept)
        if not alive[0][0]:
            return {}
        out = {t: (self.position.known_value(t),) * 2 for t in targets if t.seat not in self.seats}
        split = {suit for suit in self.suits if self.suits.count(suit) > 1}  # walked in parts
        local = [t for t in targets if t.seat in self.seats and len(t.suits) == 1]
        spread = [t for t in targets if t.seat in self.seats and len(t.suits) > 1]
        for p, suit in enumerate(self.suits):  # a feature of one suit: the groups on live edges there
            mine = [t for t in local if t.suits[0] == suit]
            if mine and suit in split and self.parts[p].first:  # summed over the suit's parts
                out.update(self._spread_extremes(mine, alive, p, p + self.suits.count(suit)))
            elif mine and suit not in split:
                src, grp, dst = self.links[p]
                used = np.unique(grp[alive[p][src] & alive[p + 1][dst]])
                g_lo, g_hi = self._group_extremes(p, mine)
                for j, t in enumerate(mine):
                    out[t] = (int(g_lo[used, j].min()), int(g_hi[used, j].max()))
        if spread:  # a sum over the suits: min-plus and max-plus over the live edges
            out.update(self._spread_extremes(spread, alive, 0, self.depth))
        return out

    def _spread_extremes(self, targets: Sequence[Feature], alive: list[np.ndarray], start: int, stop: int
                         ) -> dict[Feature, tuple[int, int]]:
        """The extremes of features summed over the positions ``start`` to ``stop - 1`` of the walk (HCP: all
        of them; a suit walked in parts: its parts), every target at once, edge by edge."""
        lo = np.zeros((len(self.layers[start]), len(targets)), dtype=np.int64)
        hi = np.zeros_like(lo)
        for p in range(start, stop):
            g_lo, g_hi = self._group_extremes(p, targets)
            src, grp, dst = self.links[p]
            live = np.flatnonzero(alive[p][src] & alive[p + 1][dst])
            order = live[np.argsort(dst[live], kind="stable")]
            ends = dst[order]
            starts = np.flatnonzero(np.concatenate(([True], ends[1:] != ends[:-1])))
            lo_next = np.zeros((len(self.layers[p + 1]), len(targets)), dtype=np.int64)
            hi_next = np.zeros_like(lo_next)
            lo_next[ends[starts]] = np.minimum.reduceat(lo[src[order]] + g_lo[grp[order]], starts, axis=0)
            hi_next[ends[starts]] = np.maximum.reduceat(hi[src[order]] + g_hi[grp[order]], starts, axis=0)
            lo, hi = lo_next, hi_next
        final = alive[stop]
        return {t: (int(lo[final, j].min()), int(hi[final, j].max())) for j, t in enumerate(targets)}

    def _group_extremes(self, p: int, targets: Sequence[Feature]) -> tuple[np.ndarray, np.ndarray]:
        """Each group's least and greatest value of each target in the part at position ``p`` (a group x
        target array each; the known cards count in the suit's first part)."""
        step, (s, unseen, first, _) = self.steps[p], self.parts[p]
        k, groups = self.k, len(step.adds)
        lo = np.zeros((groups, len(targets)), dtype=np.int64)
        hi = np.zeros_like(lo)
        for j, t in enumerate(targets):
            if s not in t.suits:
                continue
            i = self.seats.index(t.seat)
            base = holding_of(self.position.known[t.seat], s) if first else 0
            if t.kind == Kind.LENGTH:  # a count of cards: the group's own key (the last seat's: the rest)
                taken = step.adds[:, i] if i < k - 1 else unseen.bit_count() - step.adds[:, :k - 1].sum(axis=1)
                lo[:, j] = hi[:, j] = taken + base.bit_count()
                continue
            value = holding_values(t.kind, t.bit, step.masks[step.order, i] | base)
            lo[:, j] = np.minimum.reduceat(value, step.starts[:-1])
            hi[:, j] = np.maximum.reduceat(value, step.starts[:-1])
        return lo, hi

    def flow(self, final_weight: np.ndarray | None = None, counting: bool = False) -> Flow:
        """Forward and backward sums of exact weights (``final_weight``: an integer per final state,
        default 1 on accepted states); rows weigh their holdings' weights, or 1 each (those above 0)
        when ``counting``."""
        weight = self.accept.astype(np.int64) if final_weight is None else final_weight
        mult = [step.group_count if counting else step.group_weight for step in self.steps]
        python = weight.dtype == object or self._overflows(weight, mult)
        dtype: Any = object if python else np.int64
        mult = [m.astype(dtype) for m in mult]
        forward = [np.ones(1, dtype=dtype)]
        for s in range(self.depth):
            src, grp, dst = self.links[s]
            f = np.zeros(len(self.layers[s + 1]), dtype=dtype)
            np.add.at(f, dst, forward[s][src] * mult[s][grp])
            forward.append(f)
        backward: list[np.ndarray] = [np.zeros(0, dtype=dtype)] * (self.depth + 1)
        backward[-1] = weight.astype(dtype)
        for s in range(self.depth - 1, -1, -1):
            src, grp, dst = self.links[s]
            b = np.zeros(len(self.layers[s]), dtype=dtype)
            np.add.at(b, src, mult[s][grp] * backward[s + 1][dst])
            backward[s] = b
        return Flow(tuple(forward), tuple(backward), weight.astype(dtype), int(backward[0][0]))

    def _overflows(self, final_weight: np.ndarray, mult: Sequence[np.ndarray]) -> bool:
        """Whether some sum might not fit in int64 (bounded in floating point, layer by layer)."""
        widest = max(len(layer) for layer in self.layers)
        bound = float(self.k) ** self.position.unseen.bit_count() * float(np.max(final_weight, initial=1)) * widest
        for step in self.steps:
            bound *= float(np.max(step.weight, initial=1))
        if bound < INT64_ROOM:
            # a sum counts at most every layout (k ** unseen), each weighing at most its heaviest rows
            return False
        fwd = [np.ones(1)]
        for s in range(self.depth):
            src, grp, dst = self.links[s]
            f = np.zeros(len(self.layers[s + 1]))
            np.add.at(f, dst, fwd[s][src] * mult[s][grp].astype(np.float64))
            fwd.append(f)
            if f.sum() >= INT64_ROOM:
                return True
        back = final_weight.astype(np.float64)
        if back.sum() >= INT64_ROOM or (fwd[-1] * back).sum() >= INT64_ROOM:
            return True
        for s in range(self.depth - 1, -1, -1):
            src, grp, dst = self.links[s]
            b = np.zeros(len(self.layers[s]))
            np.add.at(b, src, mult[s][grp].astype(np.float64) * back[dst])
            if b.sum() >= INT64_ROOM or (fwd[s] * b).sum() >= INT64_ROOM:
                return True
            back = b
        return False

    def count(self) -> int:
        """Number of accepted layouts (weighted by the holdings' weights, times :attr:`scale`)."""
        return self.flow().total


def _past(values: np.ndarray, op: str, bound: int) -> np.ndarray:
    """Where a test ``value op bound`` of a sum that only grows has failed for good."""
    return cast(np.ndarray, values >= bound if op == "<" else values > bound)

