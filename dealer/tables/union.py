"""Cross-seat ``||``, ``!`` and ``^^``, counted and dealt exactly as a union of disjoint per-seat specs.

A condition such as ``hascard(west, 2C) || hascard(east, 2D)`` cannot go into
per-seat tables, but each of its *atoms* (the largest parts that speak of one
seat and that the tables can hold, negated or not) can. Every assignment of
true/false to the atoms that makes the condition true is a conjunction of
per-seat conditions (a *cube*); the cubes are disjoint and together they are
exactly the condition. So the count is the sum of the cubes' exact counts,
and a deal drawn by first choosing a cube in proportion to its count (with
exact integer arithmetic) and then a deal of that cube is uniform over the
condition. The cubes are the paths to "true" of a decision tree that sets
one atom at a time and stops as soon as the condition is decided, so a cube
sets only the atoms it needs: ``a || b || c`` has 3 cubes (``a``,
``!a && b``, ``!a && !b && c``) where all assignments would be 7. This is done for at most
the budget's ``union_atoms`` atoms and ``union_parts`` cubes (:mod:`dealer.budget`).

>>> from dealer.lang.syntax import parse_condition
>>> u = UnionDealer.build([], [parse_condition("hascard(west, C2) || hascard(east, D2)")], {})
>>> len(u.parts) if u is not None else 0
2
>>> def c(text): return ExactDealer(DealSpec.parse(text)).count()
>>> u.count() == c("hascard(west, C2)") + c("hascard(east, D2)") - c("hascard(west, C2) && hascard(east, D2)")
True
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate, product
from math import prod
from typing import Iterator, Mapping, Sequence

import numpy as np

from dealer.cards.cardset import CardSet
from dealer.spec.cross import CrossCondition
from dealer.budget import current
from dealer.errors import SpecError, SpecLimitError, UnsupportedSpecError
from dealer.lang.evaluate import STANDARD, Counts
from dealer.tables.design import TablesDesign
from dealer.tables.exact import ExactDealer
from dealer.tables.reach import StreamedTables
from dealer.lang.expr import And, Compare, Cond, HasCard, Node, Not, Or, Pos, Xor
from dealer.rng import RandomSource, make_rng
from dealer.cards.seat import Seat
from dealer.spec.spec import DealSpec

__all__ = ["UnionDealer", "negate", "atoms_of"]


class _TooManyCubes(Exception):
    """The decision tree of a union is larger than its budget."""

_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def negate(c: Cond) -> Cond:
    """The negation of ``c``, as a per-seat table can hold it (comparisons flip, ``!!x`` is ``x``)."""
    if isinstance(c, Not):
        return c.item
    if isinstance(c, Compare):
        return Compare(_FLIP[c.op], c.left, c.right, pos=c.pos)
    return Not(c, pos=c.pos)


@lru_cache(maxsize=4096)
def _holds_alone(c: Cond, counts: Counts, side_counts: bool = True, side_totals: int = 0) -> bool:
    """True when ``c`` and its negation can each be dealt exactly as a spec of their own (remembered: a
    script's variable is asked about once wherever it is used, and the runner and the union ask alike;
    ``side_totals``, the budget's in force, is part of the question)."""
    if len(c.seats()) != 1:
        return False
    for x in (c, negate(c)):
        try:
            DealSpec.from_conditions([x], {}, counts=counts, side_counts=side_counts)
        except SpecError:
            return False
    return True


def atoms_of(c: Cond, counts: Counts = STANDARD, side_counts: bool = True) -> list[Cond] | None:
    """The atoms of ``c`` (largest parts the tables hold alone), or None if some leaf is no atom.

    ``side_counts=False``: a seat's tables hold one whole-hand count only (no :mod:`dealer.spec.sidecount`).
    """
    if _holds_alone(c, counts, side_counts, current().side_totals):
        return [c]
    if isinstance(c, (And, Or, Xor)):
        out: list[Cond] = []
        for item in c.items:
            sub = atoms_of(item, counts, side_counts)
            if sub is None:
                return None
            out.extend(sub)
        return out
    if isinstance(c, Not):
        return atoms_of(c.item, counts, side_counts)
    return None


def _truth(c: Node, values: Mapping[int, bool]) -> bool | None:
    """``c``'s value when its atoms (by ``id``) have ``values``: None while it depends on one not yet set."""
    key = id(c)
    if key in values:
        return values[key]
    if isinstance(c, (And, Or)):
        decisive = isinstance(c, Or)  # the value that decides: true for ||, false for &&
        items = [_truth(x, values) for x in c.items]
        if decisive in items:
            return decisive
        return None if None in items else not decisive
    if isinstance(c, Xor):
        items = [_truth(x, values) for x in c.items]
        if items.count(True) >= 2:
            return False
        return None if None in items else items.count(True) == 1
    if isinstance(c, Not):
        inner = _truth(c.item, values)
        return None if inner is None else not inner
    return None  # an atom not yet set


def _placed_cards(conditions: Sequence[Cond], literal_sets: list[list[Cond]]) -> list[list[Cond]]:
    """The parts with each "a seat lacks a card" (``!hascard(west, 2C)``) on a seat that nothing else in its
    part constrains written as the card held by one of the other three seats, a part for each (disjoint,
    for a card is in one hand): a card placed leaves the seat free to deal with the others, where a card
    forbidden makes the tables follow the seat. Parts are split while the parts stay within
    the budget's ``union_placed_parts``; the others keep their forbidden cards."""
    out: list[list[Cond]] = []
    for k, literals in enumerate(literal_sets):
        bound = {s for c in list(conditions) + literals if not _is_card(c) for s in c.seats()}
        if not bound:  # only cards: tables that follow the seats' card counts are small already
            out.append(literals)
            continue
        options: list[list[Cond]] = []
        for c in literals:
            if isinstance(c, Not) and isinstance(c.item, HasCard) and c.item.seat not in bound:
                options.append([HasCard(s, c.item.card, pos=c.pos) for s in Seat if s != c.item.seat])
            else:
                options.append([c])
        ways = prod(len(o) for o in options)
        if len(out) + ways + len(literal_sets) - k - 1 > current().union_placed_parts:
            out.append(literals)
            continue
        out.extend(list(chosen) for chosen in product(*options))
    return out


def _implied_away(cube: list[tuple[Cond, bool]], exclusive: dict[tuple[int, int], bool], counts: Counts,
                  side_counts: bool) -> list[Cond]:
    """A cube's literals, without each ``!a`` that a positive literal ``b`` of the same seat implies (no hand
    meets ``a && b``: exclusive shapes, say): the cube's deals are the same, and its spec reads fewer parts
    (``!(6 spades && ...) && (6 hearts && ...)`` is the second alone). ``exclusive`` remembers the pairs."""
    positive = [a for a, v in cube if v]
    out = []
    for a, v in cube:
        if not v and any(_exclusive(a, b, exclusive, counts, side_counts) for b in positive):
            continue
        out.append(a if v else negate(a))
    return out


def _exclusive(a: Cond, b: Cond, memo: dict[tuple[int, int], bool], counts: Counts, side_counts: bool) -> bool:
    """True when ``a`` and ``b`` read the same one seat and no hand meets both (False when it cannot tell). Each
    holds alone, so their side counts together take at most the square of the budget's ``side_totals``: the
    check (one seat's automaton, no tables) may take that many."""
    key = (id(a), id(b))
    if key not in memo:
        memo[key] = False
        if len(a.seats()) == 1 and a.seats() == b.seats():
            budget = current()
            try:
                with budget.replace(side_totals=budget.side_totals ** 2).applied():
                    memo[key] = TablesDesign(DealSpec.from_conditions([a, b], {}, counts=counts,
                                                                      side_counts=side_counts)).dead
            except SpecError:
                pass
    return memo[key]


def _is_card(c: Cond) -> bool:
    """``hascard(...)`` or its negation."""
    return isinstance(c, HasCard) or (isinstance(c, Not) and isinstance(c.item, HasCard))


def _cubes(residual: Sequence[Cond], atoms: Sequence[Sequence[Cond]]) -> Iterator[list[tuple[int, bool]]]:
    """Disjoint assignments to some of the atoms (each a list of occurrences of one atom) that make every
    residual condition true whatever the other atoms are: the paths to "true" of a decision tree that
    sets the atoms in order, stopping as soon as the conditions are decided (Shannon expansion)."""
    visits = 0

    def walk_tree(i: int, chosen: list[tuple[int, bool]], values: dict[int, bool]) -> Iterator[list[tuple[int, bool]]]:
        nonlocal visits
        visits += 1
        if visits > current().union_visits:
            raise _TooManyCubes
        verdicts = [_truth(c, values) for c in residual]
        if False in verdicts:
            return
        if None not in verdicts:
            yield list(chosen)
            return
        for v in (True, False):
            for occurrence in atoms[i]:
                values[id(occurrence)] = v
            yield from walk_tree(i + 1, chosen + [(i, v)], values)
        for occurrence in atoms[i]:
            values.pop(id(occurrence), None)

    yield from walk_tree(0, [], {})


def _part(spec: DealSpec, across: CrossCondition | None, room: int, any_way: bool, slow: int,
          stream: int) -> ExactDealer | None:
    """A union part's tables within ``room`` cells (any kind when ``any_way``, else dense, then kept reachable
    states up to ``slow``), then streamed up to ``stream`` states at one position (0: not); None if none fits."""
    tries = [("auto", room)] if any_way else [("dense", room), ("compact", min(room, slow))]
    tries += [("streamed", stream)] if stream else []
    try:
        design = TablesDesign(spec, across)  # sized for each way before any table is built
    except SpecLimitError:  # a seat's side count needs more raw states than the budget allows
        return None
    sized = ((cap, design.size(max(cap, 1), backend)) for backend, cap in tries)
    fit = next(((cap, sizing) for cap, sizing in sized if sizing.fits), None)
    if fit is None:
        return None
    cap, sizing = fit
    return ExactDealer(spec, limit=max(cap, 1), across=across, design=design, sizing=sizing)


class UnionDealer:
    """Counts and deals, exactly and uniformly, a union of disjoint specs (one :class:`ExactDealer` each)."""

    def __init__(self, parts: Sequence[ExactDealer]) -> None:
        self.parts = [p for p in parts if not p.is_empty]
        self.counts = [int(p.count()) for p in self.parts]
        self.total = sum(self.counts)
        self.cumulative = list(accumulate(self.counts))

    @classmethod
    def build(cls, conditions: Sequence[Cond], residual: Sequence[Cond],
              predeals: "Mapping[Seat, tuple[CardSet, Pos]]", *, limit: int | None = None,
              counts: Counts = STANDARD, across: CrossCondition | None = None,
              cells: int | None = None, slow: int = 1_000_000, side_counts: bool = True,
              stream: int = 0) -> "UnionDealer | None":
        """The union for ``conditions`` (what the tables hold) and ``residual`` (boolean combinations of atoms),
        or None (:meth:`attempt` says why)."""
        return cls.attempt(conditions, residual, predeals, limit=limit, counts=counts, across=across, cells=cells,
                           slow=slow, side_counts=side_counts, stream=stream)[0]

    @classmethod
    def attempt(cls, conditions: Sequence[Cond], residual: Sequence[Cond],
                predeals: "Mapping[Seat, tuple[CardSet, Pos]]", *, limit: int | None = None,
                counts: Counts = STANDARD, across: CrossCondition | None = None,
                cells: int | None = None, slow: int = 1_000_000, side_counts: bool = True, stream: int = 0
                ) -> "tuple[UnionDealer | None, str]":
        """The union for ``conditions`` and ``residual``, and a line on how it was built or why it was not.

        None when a residual condition has a leaf that is no atom, there are more atoms or parts than
        the budget's ``union_atoms`` or ``union_parts``, or the parts' tables together would take more
        than ``cells`` cells (each part at most ``limit``): the caller then filters the residual instead. With ``cells``, a
        part tries dense tables first (the fast kind, refused at once when too large), then tables of
        the reachable states up to ``slow`` cells (slower to build, and to find too large).
        ``across``: conditions across seats every part also counts through its seats' labels.
        ``side_counts=False``: a seat's tables hold one whole-hand count only (no :mod:`dealer.spec.sidecount`).
        ``stream``: for a union that only counts, a part's tables may at last be counted one position at a
        time, ``stream`` states a position at most (streamed tables: they cannot deal; 0: never).
        """
        budget = current()
        limit = budget.tables if limit is None else limit
        if across is not None and max(across.totals) > 1:  # its labels read side counts the parts may not carry
            return None, "the labels across seats read the seats' side counts: no union of parts with other ones"
        found_atoms: dict[str, list[Cond]] = {}  # equal atoms written twice are one atom
        for c in residual:
            found = atoms_of(c, counts, side_counts)
            if found is None:
                return None, f"{c} has a part the tables cannot hold alone"
            for a in found:
                same = found_atoms.setdefault(str(a), [])
                if not any(a is b for b in same):  # one part used twice (a script's variable) is one occurrence
                    same.append(a)
        if len(found_atoms) > budget.union_atoms:
            return None, f"{len(found_atoms)} atoms, beyond the budget's union_atoms ({budget.union_atoms})"
        atoms = list(found_atoms.values())
        hcp_seats = frozenset(across.seats) if across is not None else frozenset()
        cubes = []
        try:
            for cube in _cubes(residual, atoms):
                cubes.append(cube)
                if len(cubes) > budget.union_parts:
                    return None, f"more than {budget.union_parts} parts (the budget's union_parts)"
        except _TooManyCubes:
            return None, f"its decision tree passes the budget's union_visits ({budget.union_visits:,})"
        parts: list[ExactDealer] = []
        spent = streamed = 0
        literal_sets = []
        ready: dict[int, DealSpec] = {}  # the specs of the cubes, by their literals: a part not split reuses it
        exclusive: dict[tuple[int, int], bool] = {}
        for cube in cubes:  # the cubes that can be dealt (a tree over the atoms also sets contradictory ones)
            literals = _implied_away([(atoms[i][0], v) for i, v in cube], exclusive, counts, side_counts)
            try:
                ready[id(literals)] = DealSpec.from_conditions(list(conditions) + literals, predeals, counts=counts,
                                                               side_counts=side_counts, hcp_seats=hcp_seats)
            except UnsupportedSpecError:
                return None, f"the part {' && '.join(map(str, literals))} does not fit the tables"
            except SpecError:
                continue
            literal_sets.append(literals)
        for literals in _placed_cards(conditions, literal_sets):
            try:
                spec = ready.get(id(literals)) or DealSpec.from_conditions(
                    list(conditions) + literals, predeals, counts=counts, side_counts=side_counts, hcp_seats=hcp_seats)
            except UnsupportedSpecError:  # the atoms do not fit the tables together with the other conditions
                return None, f"the part {' && '.join(map(str, literals))} does not fit the tables"
            except SpecError:  # e.g. one card predealt to two seats, or a constant false: no deal
                continue
            if any(spec.seat(s).points is not None for s in hcp_seats):  # the labels across seats read HCP off their axis
                return None, "a part counts points the condition across seats reads off the HCP axis"
            room = limit if cells is None else min(limit, cells - spent)
            part = _part(spec, across, room, cells is None, slow, stream)
            if part is None:
                return None, (f"its parts' tables pass {max(room, 0):,} cells" + ("" if cells is None else
                                                                              f" ({cells:,} together)")
                              + (f" and {stream:,} states at one position, streamed" if stream else ""))
            parts.append(part)
            kept = not isinstance(part.tables, StreamedTables)
            streamed += not kept
            spent += part.cells if kept else 0  # a streamed part keeps no table
        return cls(parts), f"{len(parts)} disjoint parts, {spent:,} table cells" + (
            f", {streamed} of them streamed (counted, not kept)" if streamed else "")

    @property
    def cells(self) -> int:
        """The table cells its parts keep, together (a streamed part keeps none)."""
        return sum(0 if isinstance(part.tables, StreamedTables) else part.cells for part in self.parts)

    def count(self) -> int:
        """The number of deals in the union, exactly."""
        return self.total

    def count_constrained(self) -> int:
        """The union's count (its parts' unconstrained seats included): what ``kibitz count`` reports."""
        return self.total

    @property
    def is_empty(self) -> bool:
        """True when no deal is in the union."""
        return self.total == 0

    def explain_empty(self) -> str:
        """Why the union is empty (empty string if it is not)."""
        return "" if self.total else "no combination of the conditions joined by '||' can be dealt"

    @property
    def tracked(self) -> tuple[Seat, ...]:
        """Seats dealt through tables in some part."""
        return tuple(sorted({s for p in self.parts for s in p.tracked}))

    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` deals, uniform over the union: each part chosen with exact probability count/total."""
        rng = make_rng(seed)
        if self.total == 0:
            raise SpecError("no deal satisfies the condition")
        r_hi, r_lo = _uniform_below(self.total, n, rng)
        choice = np.zeros(n, dtype=np.int64)
        for c in self.cumulative[:-1]:  # the part of r: how many boundaries lie at or below it
            choice += _at_least(r_hi, r_lo, c)
        out = np.empty((n, 4), dtype=np.uint64)
        for j, part in enumerate(self.parts):
            where = np.flatnonzero(choice == j)
            if len(where):
                out[where] = part.sample_masks(len(where), rng)
        return out


def _split128(value: int) -> tuple[np.uint64, np.uint64]:
    return np.uint64(value >> 64), np.uint64(value & ((1 << 64) - 1))


def _at_least(hi: np.ndarray, lo: np.ndarray, value: int) -> np.ndarray:
    """Where the 128-bit integers ``hi * 2**64 + lo`` are at least ``value``."""
    v_hi, v_lo = _split128(value)
    return np.asarray((hi > v_hi) | ((hi == v_hi) & (lo >= v_lo)))


def _uniform_below(total: int, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n`` independent uniform integers in ``[0, total)`` (``total`` < 2**128), as high and low 64-bit words.

    Random bits up to ``total``'s bit length, rejection of those at or above ``total``: exact.
    """
    if not 0 < total < 1 << 128:
        raise ValueError(f"total {total} out of range")
    nbits = total.bit_length()
    hi = np.zeros(n, dtype=np.uint64)
    lo = np.zeros(n, dtype=np.uint64)
    todo = np.arange(n)
    while len(todo):
        k = len(todo)
        lo_new = rng.integers(0, 1 << min(nbits, 64), size=k, dtype=np.uint64, endpoint=False) if nbits < 64 \
            else rng.integers(0, np.iinfo(np.uint64).max, size=k, dtype=np.uint64, endpoint=True)
        hi_new = (rng.integers(0, 1 << (nbits - 64), size=k, dtype=np.uint64, endpoint=False) if nbits > 64
                  else np.zeros(k, dtype=np.uint64))
        hi[todo], lo[todo] = hi_new, lo_new
        todo = todo[_at_least(hi_new, lo_new, total)]
    return hi, lo
