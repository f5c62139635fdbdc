"""What a layout graph's states carry, and how claims are read from them.

The layout graph (:mod:`inference.exact.graph`) walks the suits one by one; a state
is what the layouts so far have in common that a question still needs. Besides
the concealed seats' counts of cards, that is a few *columns*, each a running
sum over the suits of something one suit's holdings give:

* a **sum** column carries ``coefficient x feature`` summed over features
  (``hcp(W)``; ``hcp(W) - hcp(E)``); when every coefficient is positive and the
  claims only compare the sum with constants, values past the largest constant
  are one value (the column is *capped*);
* a **failure** column is 1 once one of its atoms is false, where each atom
  depends on the cards of one suit only (``hearts(W) >= 5``,
  ``hascard(E, SQ)``): it is decided inside its suit's step, and the state
  keeps one bit for all the atoms of a conjunction.

A claim's atoms are sorted by the suits whose unseen cards can change them
(:func:`variable_suits`): none (decided now), one (a *local* atom: inside
its suit; a local conjunct of the view's filter removes holdings from that
suit's step and costs no column at all), or several (a linear comparison gets
a sum column, anything else reads exact features from sum columns of one
feature each). :func:`plan` compiles the claims once; :meth:`Columns.truth`
reads a claim's truth off the final states.

Adding a feature kind means defining it in :mod:`inference.claims.features` (its value
in one suit's holding and the suits it adds up over); columns read it through
that definition only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Callable, Sequence, Union, cast

import numpy as np

from dealer import Seat
from dealer.cards.cardset import SUIT_MASK
from dealer.lang.interpret import COMPARE

from inference.claims.language import And, Arith, Claim, Compare, Const, Expr, Not, Or, Xor
from inference.claims.features import Feature, FeatureValues, Kind, evaluate, features_of, holding_value, holding_values, leaf_feature
from inference.exact.kernel import holding_of
from inference.exact.position import Position

__all__ = ["Column", "Check", "Raw", "Fixed", "AllOf", "AnyOf", "OneOf", "Negation", "Compiled", "Columns",
           "variable_suits", "linear_form", "plan", "scope", "SuitReader", "suit_reader"]

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
#: Tests that a running sum, once past the constant, can never pass again (its parts are not negative).
_FALLS_FOR_GOOD = {"<": 0, "<=": 1, "==": 1}

_SUIT_SETS = tuple(frozenset(t for t in range(4) if m >> t & 1) for m in range(16))
#: Every shape of a 13-card hand: (spades, hearts, diamonds, clubs).
_SHAPE_ROWS = np.array([(a, b, c, 13 - a - b - c) for a in range(14) for b in range(14 - a) for c in range(14 - a - b)],
                       dtype=np.int64)
#: A linear form: (feature, coefficient) pairs in a fixed order.
Form = tuple[tuple[Feature, int], ...]


@dataclass(frozen=True)
class Column:
    """One quantity a graph's states carry beside the counts of cards.

    A *sum* (``terms``): ``sum(coefficient * feature)``, clamped at ``cap`` when one is set (every
    coefficient is positive, and values from ``cap`` up compare alike with every constant read). A
    *failure* flag (``atoms[s]``: the atoms local to suit ``s``): 1 once one of the atoms is false.
    A *shape* (``shape``: a seat and the codes of the shapes allowed, :func:`shape_code`): the seat's
    lengths so far as a prefix code, each replaced after its suit by the least prefix with the same
    completions into the set (:func:`shape_classes`); after the last suit, 1 if the shape is in it.
    """

    terms: Form = ()
    cap: int | None = None
    atoms: tuple[tuple[Claim, ...], ...] = ()
    shape: tuple[Seat, tuple[int, ...]] | None = None

    def at(self, suit: int) -> "Column":
        """What the column reads in one suit (the key of that suit's step)."""
        if self.atoms:
            return Column(atoms=(self.atoms[suit],))
        if self.shape is not None:
            return Column(shape=(self.shape[0], (suit,)))
        return Column(tuple(t for t in self.terms if suit in t[0].suits), self.cap)

    def contribution(self, suit: int, dealt: np.ndarray, reader: "SuitReader") -> np.ndarray:
        """What one suit's holdings add to the column (a projection :meth:`at` that suit): ``dealt`` has one
        row per holding, a column per concealed seat."""
        if self.atoms:
            fails = np.zeros(len(dealt), dtype=bool)
            for atom in self.atoms[0]:
                fails |= ~evaluate(atom, reader.values(dealt), len(dealt))
            return fails.astype(np.int64)
        if self.shape is not None:
            lengths = holding_values(Kind.LENGTH, 0, dealt[:, reader.seats.index(self.shape[0])])
            return cast(np.ndarray, lengths * 14 ** suit)
        out = np.zeros(len(dealt), dtype=np.int64)
        for f, coefficient in self.terms:
            out += coefficient * holding_values(f.kind, f.bit, dealt[:, reader.seats.index(f.seat)])
        return out

    @property
    def top(self) -> int | None:
        """The largest value the column keeps (None: not clamped)."""
        return 1 if self.atoms else None if self.shape is not None else self.cap

    def classes(self, suit: int) -> tuple[np.ndarray, int] | None:
        """For a shape column: the table replacing each prefix code after ``suit`` by its class, and the
        class of the prefixes with no completion (None for other columns)."""
        if self.shape is None:
            return None
        return shape_classes(self.shape[1])[suit]


def shape_code(lengths: Sequence[int]) -> int:
    """A shape (or the prefix of one) as ``sum(length[s] * 14 ** s)``."""
    return sum(int(n) * 14 ** s for s, n in enumerate(lengths))


@lru_cache(maxsize=256)
def shape_classes(allowed: tuple[int, ...]) -> tuple[tuple[np.ndarray, int], ...]:
    """Per suit: each prefix code's class (the least prefix with the same completions into ``allowed``),
    and the class of the prefixes with none; after the last suit, 1 for a shape in ``allowed``, else 0."""
    wanted = set(allowed)
    out = []
    for s in range(3):
        size = 14 ** (s + 1)
        completions: dict[int, set[int]] = {}
        for code in wanted:
            completions.setdefault(code % size, set()).add(code // size)
        table = np.zeros(size, dtype=np.int64)
        first: dict[frozenset[int], int] = {}
        for prefix in range(size):
            key = frozenset(completions.get(prefix, ()))
            table[prefix] = first.setdefault(key, prefix)
        table.setflags(write=False)
        out.append((table, first.get(frozenset(), -1)))
    final = np.zeros(14 ** 4, dtype=np.int64)
    final[list(wanted)] = 1
    final.setflags(write=False)
    out.append((final, 0))
    return tuple(out)


@dataclass(frozen=True)
class Check:
    """A column compared with a constant."""

    column: int
    op: str
    value: int


@dataclass(frozen=True)
class Raw:
    """An atom read from exact features (sum columns of one feature each, or known values)."""

    atom: Claim


@dataclass(frozen=True)
class Fixed:
    """A truth known now."""

    value: bool


@dataclass(frozen=True)
class AllOf:
    """Every item holds."""

    items: tuple["Compiled", ...]


@dataclass(frozen=True)
class AnyOf:
    """Some item holds."""

    items: tuple["Compiled", ...]


@dataclass(frozen=True)
class OneOf:
    """Exactly one item holds."""

    items: tuple["Compiled", ...]


@dataclass(frozen=True)
class Negation:
    """The item does not hold."""

    item: "Compiled"


#: A claim compiled against columns.
Compiled = Union[Check, Raw, Fixed, AllOf, AnyOf, OneOf, Negation]


def variable_suits(position: Position, feature: Feature) -> frozenset[int]:
    """The suits whose unseen cards can still change a feature (none for a visible seat's)."""
    if feature.seat not in position.concealed:
        return frozenset()
    suits = 15 if len(feature.suits) == 4 else 1 << feature.suits[0]
    return _SUIT_SETS[_open_suits(position.unseen, position.voids[feature.seat]) & suits]


@lru_cache(maxsize=4096)
def _open_suits(unseen: int, voids: int) -> int:
    """Which suits have unseen cards a seat with these voids may hold (4 bits)."""
    return sum(1 << t for t in range(4) if unseen >> (13 * t) & SUIT_MASK and not voids >> t & 1)


def linear_form(expr: Expr, known: Callable[[Feature], "int | None"]) -> tuple[dict[Feature, int], int] | None:
    """An expression as ``sum(coefficient * feature) + constant`` (None if it is not linear).

    ``known`` gives a feature's value when it is fixed already (folded into the constant), else None.
    """
    if isinstance(expr, Const):
        return {}, int(expr.value)
    f = leaf_feature(expr)
    if f is not None:
        value = known(f)
        return ({}, value) if value is not None else ({f: 1}, 0)
    if not isinstance(expr, Arith) or expr.op not in "+-*":
        return None
    left, right = linear_form(expr.left, known), linear_form(expr.right, known)
    if left is None or right is None:
        return None
    if expr.op == "*":
        if left[0] and right[0]:
            return None
        (terms, c), k = (left, right[1]) if left[0] else (right, left[1])
        return {f: v * k for f, v in terms.items() if v * k}, c * k
    sign = 1 if expr.op == "+" else -1
    terms = dict(left[0])
    for f, v in right[0].items():
        terms[f] = terms.get(f, 0) + sign * v
    return {f: v for f, v in terms.items() if v}, left[1] + sign * right[1]


@dataclass(frozen=True)
class SuitReader:
    """Features in one suit's step: the suit's holdings (``dealt``: a column per concealed seat) plus
    ``rest``, each feature's value from the other suits (fixed when an atom is local to this suit)."""

    seats: tuple[Seat, ...]
    suit: int
    rest: tuple[tuple[Feature, int], ...] = ()

    def values(self, dealt: np.ndarray) -> FeatureValues:
        """A feature reader over rows of dealt holdings of this suit."""
        rest, n = dict(self.rest), len(dealt)

        def value(f: Feature) -> np.ndarray:
            if f.seat not in self.seats or self.suit not in f.suits:
                return np.full(n, rest[f], dtype=np.int64)
            return holding_values(f.kind, f.bit, dealt[:, self.seats.index(f.seat)]) + rest.get(f, 0)

        return value


def scope(position: Position, claim: Claim) -> set[int]:
    """The suits whose unseen cards can change a claim."""
    return set().union(*(variable_suits(position, f) for f in features_of(claim)))


def suit_reader(position: Position, suit: int, atoms: Sequence[Claim]) -> SuitReader:
    """The reader of the atoms local to ``suit``: every feature they read, valued on the other suits' known cards."""
    rest: dict[Feature, int] = {}
    for atom in atoms:
        for f in features_of(atom):
            others = [t for t in f.suits if t != suit or f.seat not in position.concealed]
            rest[f] = sum(holding_value(f.kind, f.bit, holding_of(position.known[f.seat], t)) for t in others)
    return SuitReader(position.concealed, suit, tuple(sorted(rest.items(), key=lambda kv: str(kv[0]))))


@dataclass(frozen=True)
class Columns:
    """A compiled plan: the columns a graph carries, each suit's filters, and the claims compiled against them.

    ``filters[s]`` are atoms local to suit ``s`` that every layout must satisfy (the filter's local
    conjuncts); ``prunes`` are (column, op, constant) tests of the filter that a state, once it
    fails them, can never pass; ``musts`` are shape columns the filter needs (a state whose prefix
    has no completion is dropped); ``filter`` and ``claims`` are read off the final states.
    """

    position: Position
    columns: tuple[Column, ...]
    filters: tuple[tuple[Claim, ...], ...]
    prunes: tuple[tuple[int, str, int], ...]
    musts: tuple[int, ...]
    filter: Compiled
    claims: tuple[Compiled, ...]
    exact: dict[Feature, int] = field(default_factory=dict)
    collapses: tuple["Collapse", ...] = ()

    @property
    def trivial(self) -> bool:
        """Whether the plan keeps every lawful layout and reads nothing (its filter holds in every one)."""
        return self.filter == Fixed(True) and not self.columns and not any(self.filters) and not self.claims

    def step_key(self, suit: int) -> tuple[tuple[Column, ...], tuple[Claim, ...], SuitReader]:
        """What suit ``suit``'s step reads: the columns there, the filters, and the atoms' reader."""
        return self._step_keys[suit]

    @cached_property
    def _step_keys(self) -> tuple[tuple[tuple[Column, ...], tuple[Claim, ...], SuitReader], ...]:
        return tuple(self._step_key(suit) for suit in range(4))

    def _step_key(self, suit: int) -> tuple[tuple[Column, ...], tuple[Claim, ...], SuitReader]:
        columns = tuple(c.at(suit) for c in self.columns)
        atoms = list(self.filters[suit]) + [a for c in columns for a in (c.atoms[0] if c.atoms else ())]
        return columns, self.filters[suit], suit_reader(self.position, suit, atoms)

    def truth(self, compiled: Compiled, rows: np.ndarray, start: int) -> np.ndarray:
        """A compiled claim's truth over final state rows (the columns from ``start``)."""
        n = len(rows)
        if isinstance(compiled, Fixed):
            return np.full(n, compiled.value)
        if isinstance(compiled, Check):
            return np.asarray(COMPARE[compiled.op](rows[:, start + compiled.column], compiled.value), dtype=bool)
        if isinstance(compiled, Raw):
            return evaluate(compiled.atom, self.reader(rows, start), n)
        if isinstance(compiled, Negation):
            return ~self.truth(compiled.item, rows, start)
        parts = [self.truth(c, rows, start) for c in compiled.items]
        if isinstance(compiled, AllOf):
            return np.logical_and.reduce(parts) if parts else np.ones(n, dtype=bool)
        if isinstance(compiled, AnyOf):
            return np.logical_or.reduce(parts) if parts else np.zeros(n, dtype=bool)
        return cast(np.ndarray, np.sum(parts, axis=0) == 1) if parts else np.zeros(n, dtype=bool)

    def reader(self, rows: np.ndarray, start: int) -> FeatureValues:
        """Exact features over final state rows: a column of one feature where there is one, else its known value."""
        def value(f: Feature) -> np.ndarray:
            if f in self.exact:
                return rows[:, start + self.exact[f]]
            if variable_suits(self.position, f):
                raise KeyError(f"{f} is not carried by this graph")
            return np.full(len(rows), self.position.known_value(f), dtype=np.int64)

        return value


class _Planner:
    """Compiles claims into columns (one planner per graph)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.columns: list[Column] = []
        self.sums: dict[Form, int] = {}
        self.filters: list[list[Claim]] = [[], [], [], []]
        self.prunes: list[tuple[int, str, int]] = []
        self.musts: list[int] = []
        self._scopes: dict[Claim, set[int]] = {}

    def scope(self, claim: Claim) -> set[int]:
        found = self._scopes.get(claim)
        if found is None:
            found = scope(self.position, claim)
            self._scopes[claim] = found
        return found

    def known(self, f: Feature) -> int | None:
        return None if variable_suits(self.position, f) else self.position.known_value(f)

    def sum_column(self, terms: Form, cap: int | None) -> int:
        """The column of a linear form (shared); ``cap`` None keeps its exact value."""
        j = self.sums.get(terms)
        if j is None:
            j = len(self.columns)
            self.sums[terms] = j
            self.columns.append(Column(terms, cap))
            return j
        old = self.columns[j].cap
        if old is not None:
            self.columns[j] = Column(terms, None if cap is None else max(old, cap))
        return j

    def shape_column(self, atom: Claim, seat: Seat) -> int:
        """A column of the seat's shape classes for an atom that reads only that seat's lengths."""
        shapes = _SHAPE_ROWS

        def value(f: Feature) -> np.ndarray:
            if f.seat == seat and f.kind == Kind.LENGTH:
                return cast(np.ndarray, shapes[:, f.suit])
            return np.full(len(shapes), self.position.known_value(f), dtype=np.int64)

        truth = evaluate(atom, value, len(shapes))
        codes = tuple(sorted(shape_code(shape) for shape in shapes[truth].tolist()))
        self.columns.append(Column(shape=(seat, codes)))
        return len(self.columns) - 1

    def failure_column(self, atoms: Sequence[Claim]) -> int:
        by_suit: list[list[Claim]] = [[], [], [], []]
        for atom in atoms:
            by_suit[next(iter(self.scope(atom)))].append(atom)
        self.columns.append(Column(atoms=tuple(tuple(a) for a in by_suit)))
        return len(self.columns) - 1

    def exact(self, f: Feature) -> int:
        return self.sum_column(((f, 1),), None)

    def compile(self, claim: Claim, filtering: bool = False) -> Compiled:
        """A claim against columns; ``filtering``: it must hold (its local conjuncts become filters)."""
        scope = self.scope(claim)
        if not scope:
            return Fixed(bool(evaluate(claim, self._known_values, 1)[0]))
        if len(scope) == 1:  # decided inside one suit's step
            if filtering:
                self.filters[next(iter(scope))].append(claim)
                return Fixed(True)
            return Check(self.failure_column([claim]), "==", 0)
        if isinstance(claim, And):
            return self._conjunction(claim, filtering)
        if isinstance(claim, Or):
            local = [c for c in claim.items if self._local(c)]
            rest = [self.compile(c) for c in claim.items if not self._local(c)]
            if local:  # some local atom holds: a failure column of their negations is 1
                rest.insert(0, Check(self.failure_column([Not(c) for c in local]), "==", 1))
            return AnyOf(tuple(rest))
        if isinstance(claim, Xor):
            return OneOf(tuple(self.compile(c) for c in claim.items))
        if isinstance(claim, Not):
            return Negation(self.compile(claim.item))
        return self._atom(claim, filtering)

    def _local(self, claim: Claim) -> bool:
        return len(self.scope(claim)) == 1

    def _conjunction(self, claim: And, filtering: bool) -> Compiled:
        items = [c for c in _conjuncts(claim) if self.scope(c)
                 or not bool(evaluate(c, self._known_values, 1)[0])]  # conjuncts true now are dropped
        local = [c for c in items if self._local(c)]
        out: list[Compiled] = []
        if filtering:
            for atom in local:
                self.filters[next(iter(self.scope(atom)))].append(atom)
        elif local:
            out.append(Check(self.failure_column(local), "==", 0))
        out += [self.compile(c, filtering) for c in items if not self._local(c)]
        return AllOf(tuple(out))

    def _atom(self, atom: Claim, filtering: bool) -> Compiled:
        """An atom whose features change in several suits."""
        if isinstance(atom, Compare):
            test = self._linear(atom)
            if test is not None:
                col = self.columns[test.column]
                if filtering and col.cap is not None and test.op in _FALLS_FOR_GOOD:
                    self.prunes.append((test.column, test.op, test.value))
                return test
        seats = {f.seat for f in features_of(atom) if variable_suits(self.position, f)}
        if len(seats) == 1 and all(f.kind == Kind.LENGTH for f in features_of(atom) if f.seat in seats):
            j = self.shape_column(atom, seats.pop())
            if filtering:
                self.musts.append(j)
            return Check(j, "==", 1)
        for f in features_of(atom):
            if variable_suits(self.position, f):
                self.exact(f)
        return Raw(atom)

    def _known_values(self, f: Feature) -> np.ndarray:
        return np.full(1, self.position.known_value(f), dtype=np.int64)

    def _linear(self, atom: Compare) -> Check | None:
        """``form op constant`` for a comparison of linear sides: a test of the form's sum column."""
        left, right = linear_form(atom.left, self.known), linear_form(atom.right, self.known)
        if left is None or right is None:
            return None
        terms = dict(left[0])
        for f, v in right[0].items():
            terms[f] = terms.get(f, 0) - v
        form = sorted(((f, v) for f, v in terms.items() if v), key=lambda t: str(t[0]))
        if not form:
            return None
        op, value = atom.op, right[1] - left[1]
        if form[0][1] < 0:  # the first coefficient positive: -x op k is x flip(op) -k
            form = [(f, -v) for f, v in form]
            op, value = _FLIP[op], -value
        positive = all(v > 0 for _, v in form)
        j = self.sum_column(tuple(form), max(value, 0) + 1 if positive else None)
        return Check(j, op, value)


def _conjuncts(claim: Claim) -> list[Claim]:
    if isinstance(claim, And):
        return [c for item in claim.items for c in _conjuncts(item)]
    return [claim]


def plan(position: Position, filter: Claim | None = None, claims: Sequence[Claim] = (),
         exact: Sequence[Feature] = ()) -> Columns:
    """The columns a graph needs to read ``filter`` (which every layout must satisfy), ``claims`` (whose
    truth is read off each final state) and the exact values of ``exact`` features (the last plans made
    are remembered: a position's views and statuses ask for the same ones in turn)."""
    return _plan(position, filter, tuple(claims), tuple(exact))


@lru_cache(maxsize=256)
def _plan(position: Position, filter: Claim | None, claims: tuple[Claim, ...], exact: tuple[Feature, ...]) -> Columns:
    planner = _Planner(position)
    compiled_filter = Fixed(True) if filter is None else planner.compile(filter, filtering=True)
    compiled = tuple(planner.compile(c) for c in claims)
    exact_columns = {f: planner.exact(f) for f in exact if variable_suits(position, f)}
    for form, j in planner.sums.items():  # a feature carried exactly for an atom is read from its column
        if len(form) == 1 and form[0][1] == 1 and planner.columns[j].cap is None:
            exact_columns.setdefault(form[0][0], j)
    collapses = _collapses(planner.columns, compiled, compiled_filter, set(exact_columns.values()))
    return Columns(position, tuple(planner.columns), tuple(tuple(f) for f in planner.filters),
                   tuple(planner.prunes), tuple(planner.musts), compiled_filter, compiled, exact_columns, collapses)


@dataclass(frozen=True)
class Collapse:
    """How a claim read off the final states is known false early, and what it then stops needing.

    The claim is a conjunction; it is false for good once its failure column (``failure``) is 1 or
    one of its ``tests`` on a sum that only grows has passed. Its own columns (``owned``: read by
    no other claim) then carry nothing: they are set to one value, so such states merge; ``marker``
    keeps the verdict (the failure column set to 1, or the first test's column set past its bound).
    """

    failure: int | None
    tests: tuple[tuple[int, str, int], ...]
    owned: tuple[int, ...]
    marker: tuple[int, int]


def _referenced(compiled: Compiled) -> list[int]:
    """The columns a compiled claim reads (Raw atoms read exact columns: they are not collapsed)."""
    if isinstance(compiled, Check):
        return [compiled.column]
    if isinstance(compiled, Negation):
        return _referenced(compiled.item)
    if isinstance(compiled, (AllOf, AnyOf, OneOf)):
        return [j for c in compiled.items for j in _referenced(c)]
    return []


def _collapses(columns: Sequence[Column], claims: Sequence[Compiled], filter: Compiled, exact: set[int]
               ) -> tuple[Collapse, ...]:
    """The claims that can be known false before the last suit, and what that frees (see :class:`Collapse`)."""
    uses: dict[int, int] = {}
    for c in (filter, *claims):
        for j in set(_referenced(c)):
            uses[j] = uses.get(j, 0) + 1
    out = []
    for claim in claims:
        if not isinstance(claim, AllOf) or any(isinstance(c, Raw) for c in claim.items):
            continue
        failure = next((c.column for c in claim.items if isinstance(c, Check) and columns[c.column].atoms), None)
        tests = tuple((c.column, c.op, c.value) for c in claim.items if isinstance(c, Check)
                      and columns[c.column].cap is not None and not columns[c.column].atoms and c.op in _FALLS_FOR_GOOD)
        owned = tuple(j for j in sorted(set(_referenced(claim))) if uses.get(j) == 1 and j not in exact)
        if failure is None and not tests or not owned:
            continue
        marker = (failure, 1) if failure is not None else (tests[0][0], int(columns[tests[0][0]].cap or 0))
        out.append(Collapse(failure, tests, owned, marker))
    return tuple(out)
