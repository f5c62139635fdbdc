"""One interpreter of the syntax tree, whatever the tree is evaluated over.

A node of :mod:`dealer.lang.expr` means the same everywhere: ``&&`` is "both hold", ``/`` truncates
toward zero, ``imps`` looks a score difference up in the IMP scale. Only the *leaves* are read
differently from one layer to another: ``hcp(north)`` is a column of one seat's (shape, HCP) classes
(:mod:`dealer.lang.grid`), a sum of table lookups over dealt hands (:mod:`dealer.lang.evaluate`), a
table over one suit's 8,192 holdings (:mod:`dealer.spec.splitting`), an axis of the seats' joint labels
(:mod:`dealer.spec.cross`) or a feature of lawful layouts (:mod:`inference.claims.features`). So the
structure (:data:`STRUCTURE`) is interpreted here, once, and each layer brings a :class:`Reader` for
its leaves.

Values are numpy arrays that broadcast against each other (or plain Python ints and bools for a reader of
one row: :class:`Values` is what a value is, numpy imported only for arrays): numbers are int64, conditions bool (a
reader may give a condition as 0/1 numbers: nonzero is true), and a constant stays 0-d until
:func:`interpret` broadcasts the result to the reader's :attr:`Reader.shape`. A value may carry one
leading axis more than that shape, a value per opening lead (``leadtricks``): it is worked on lead by
lead, ``&&``, ``||``, ``^^`` and the result as a condition hold where it holds for every lead
(:meth:`Interpreter.holds`), and the result as a number is the mean over the leads (:meth:`Interpreter.mean`). The reader is asked
first for every node, so a reader that was given the values of compound parts (the seats' parts of
a condition across seats, the side count's features) has them used as they are. A node that neither the
reader nor the structure knows fails in one place, :func:`refusal`, with one message:
``<where>: <node> <what the reader reads>``, raised as the reader's exception.

>>> import numpy as np
>>> from dealer.lang.expr import Hcp
>>> from dealer.lang.syntax import SPEC_DIALECT, parse_condition, parse_expression
>>> class Points(Reader):
...     phrase = "is not read by this example"
...     leaves = {Hcp: lambda reader, node, run: np.arange(5)}
...     shape = (5,)
>>> interpret(parse_condition("hcp(north) >= 3 || hcp(north) * 2 == 2"), Points(), dtype=bool).tolist()
[False, True, False, True, True]
>>> interpret(parse_expression("hcp(north) * 2 - 1", SPEC_DIALECT), Points(), dtype=np.int64).tolist()
[-1, 1, 3, 5, 7]
>>> interpret(parse_expression("7 / 2", SPEC_DIALECT), Points(), dtype=np.int64).tolist()   # a constant, broadcast
[3, 3, 3, 3, 3]
>>> interpret(parse_condition("spades(north) >= 3"), Points(), dtype=bool)
Traceback (most recent call last):
...
dealer.errors.UnsupportedSpecError: <condition>:1:1: spades(north) is not read by this example

Over one row (:attr:`Reader.one_row`) the values are Python ints and bools, and ``&&`` and ``||`` stop at the
first item that decides them (no numpy is imported):

>>> class Seven(Reader):
...     one_row = True
...     leaves = {Hcp: lambda reader, node, run: 7}
>>> interpret(parse_condition("hcp(north) > 6 && (hcp(north) / 2 == 3 || spades(north) > 1)"), Seven(), dtype=bool)
True
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Any, Callable, ClassVar, Container, Mapping, Sequence

from dealer.errors import UnsupportedSpecError
from dealer.lang.expr import (
    Always, And, Arith, Compare, Const, Imps, Node, Not, Or, Score, Ternary, Truth, Xor, walk_once,
)

__all__ = ["Reader", "Interpreter", "Values", "interpret", "refusal", "shared_nodes", "STRUCTURE", "STRUCTURAL",
           "ARITH", "COMPARE", "c_divide", "c_modulo"]


def c_divide(a: Any, b: Any) -> Any:
    """``a / b`` as in C (truncated toward zero), on ints or numpy arrays; 0 where ``b`` is 0.

    >>> c_divide(-7, 2), c_divide(7, 0), c_divide(True, 1)
    (-3, 0, 1)
    """
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            return 0
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    import numpy as np

    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)
    out = np.where(b == 0, 0, q)
    return int(out) if out.ndim == 0 else out


def c_modulo(a: Any, b: Any) -> Any:
    """``a % b`` as in C (the sign of ``a``), on ints or numpy arrays; 0 where ``b`` is 0.

    >>> c_modulo(-7, 2), c_modulo(7, 0)
    (-1, 0)
    """
    if isinstance(a, int) and isinstance(b, int):
        return 0 if b == 0 else a - c_divide(a, b) * b
    import numpy as np

    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    out = np.where(b == 0, 0, a - np.asarray(c_divide(a, b)) * b)
    return int(out) if out.ndim == 0 else out


#: The arithmetic operators as functions (on ints or numpy arrays alike).
ARITH: dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul,
                                                 "/": c_divide, "%": c_modulo}
#: The comparison operators as functions (on ints or numpy arrays alike).
COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}

#: How a reader reads one kind of leaf: ``leaf(reader, node, run)`` -> the node's values.
Leaf = Callable[[Any, Any, "Interpreter"], Any]


class Values:
    """What a value is over a reader's rows: numpy arrays over many rows (the default), or plain Python ints
    and bools over one row (:attr:`Reader.one_row`). The structure's rules make values only through these."""

    def number(self, value: Any) -> Any:
        """A value as numbers (a condition: 1 where it holds, else 0)."""
        raise NotImplementedError

    def truth(self, value: Any) -> Any:
        """A value as a condition: true where it is not 0."""
        raise NotImplementedError

    def constant(self, value: int | bool) -> Any:
        """A constant number (an int) or condition (a bool)."""
        raise NotImplementedError

    def all_of(self, run: "Interpreter", items: Sequence[Node]) -> Any:
        """Where every item holds (``&&``)."""
        raise NotImplementedError

    def any_of(self, run: "Interpreter", items: Sequence[Node]) -> Any:
        """Where some item holds (``||``)."""
        raise NotImplementedError

    def negation(self, value: Any) -> Any:
        """Where a condition does not hold."""
        raise NotImplementedError

    def choice(self, test: Any, then: Any, other: Any) -> Any:
        """``then`` where ``test`` holds, else ``other``."""
        raise NotImplementedError

    def per_row(self, value: Any, rows: int, mean: bool) -> Any:
        """A value over the rows: one per lead beyond ``rows`` axes holds where every lead does (its mean with
        ``mean``)."""
        raise NotImplementedError


class _Ints(Values):
    """Values over one row: Python ints (numbers) and bools (conditions); ``&&`` and ``||`` stop early."""

    def number(self, value: Any) -> Any:
        return int(value)

    def truth(self, value: Any) -> Any:
        return value if value is True or value is False else value != 0

    def constant(self, value: int | bool) -> Any:
        return value

    def all_of(self, run: "Interpreter", items: Sequence[Node]) -> Any:
        for item in items:
            if not run.holds(item):
                return False
        return True

    def any_of(self, run: "Interpreter", items: Sequence[Node]) -> Any:
        for item in items:
            if run.holds(item):
                return True
        return False

    def negation(self, value: Any) -> Any:
        return not self.truth(value)

    def choice(self, test: Any, then: Any, other: Any) -> Any:
        return then if test else other

    def per_row(self, value: Any, rows: int, mean: bool) -> Any:
        return value


class _Arrays(Values):
    """Values over many rows: numpy arrays (int64 numbers, bool conditions) that broadcast."""

    def __init__(self) -> None:
        import numpy

        self.np = numpy

    def number(self, value: Any) -> Any:
        out = self.np.asarray(value)
        return out.astype(self.np.int64) if out.dtype == self.np.bool_ else out

    def truth(self, value: Any) -> Any:
        out = self.np.asarray(value)
        return out if out.dtype == self.np.bool_ else self.np.asarray(out != 0)

    def constant(self, value: int | bool) -> Any:
        return self.np.asarray(value, dtype=bool if isinstance(value, bool) else self.np.int64)

    def all_of(self, run: "Interpreter", items: Sequence[Node]) -> Any:
        out = self.np.asarray(True)
        for item in items:
            out = out & run.holds(item)
        return self.np.asarray(out)

    def any_of(self, run: "Interpreter", items: Sequence[Node]) -> Any:
        out = self.np.asarray(False)
        for item in items:
            out = out | run.holds(item)
        return self.np.asarray(out)

    def negation(self, value: Any) -> Any:
        return self.np.asarray(~self.truth(value))

    def choice(self, test: Any, then: Any, other: Any) -> Any:
        return self.np.asarray(self.np.where(test, then, other), dtype=self.np.int64)

    def per_row(self, value: Any, rows: int, mean: bool) -> Any:
        out = value
        while out.ndim > rows:
            out = self.np.asarray(c_divide(out.sum(axis=0), out.shape[0]) if mean else out.all(axis=0))
        return out


_ONE_ROW = _Ints()
_MANY_ROWS: list[_Arrays] = []  # made on first use: numpy is imported then


def _values(one_row: bool) -> Values:
    if one_row:
        return _ONE_ROW
    if not _MANY_ROWS:
        _MANY_ROWS.append(_Arrays())
    return _MANY_ROWS[0]


class Reader:
    """How one layer reads the leaves of the tree: the base of every layer's reader.

    Subclasses set :attr:`leaves` (node type -> how to read it), or override :meth:`read` where a
    reader was given the values of some nodes whatever their type; :attr:`error` and :attr:`phrase`
    make the refusal of a node nobody reads; :attr:`shape` is the shape of a value over the
    reader's rows (the deals, the classes, the holdings...); :attr:`one_row` makes the values plain
    Python ints and bools over one row (a deal read card by card, without numpy).
    """

    #: The exception raised for a node that neither the reader nor the structure evaluates.
    error: ClassVar[type[Exception]] = UnsupportedSpecError
    #: What the reader reads, as its refusal says it after the node: ``cannot be evaluated on deals``.
    phrase: ClassVar[str] = "cannot be evaluated"
    #: The leaves this reader reads, by node type (the exact type: a subclass is a node of its own).
    leaves: ClassVar[Mapping[type, Leaf]] = {}
    #: The shape of one value over the reader's rows.
    shape: tuple[int, ...] = ()
    #: Whether the reader reads one row, its values plain Python ints and bools (else numpy arrays).
    one_row: ClassVar[bool] = False

    def read(self, node: Node, run: "Interpreter") -> Any:
        """The values of ``node`` if this reader reads it, else None (the structure is asked next).

        ``run`` evaluates the node's children where a leaf needs them (``rnd``'s limit).
        """
        leaf = self.leaves.get(type(node))
        return None if leaf is None else leaf(self, node, run)


def refusal(node: Node, reader: Reader) -> Exception:
    """The one error for a node that neither ``reader`` nor the structure evaluates.

    >>> str(refusal(Const(3), Reader()))
    '<spec>:1:1: 3 cannot be evaluated'
    """
    return reader.error(f"{node.pos}: {node} {reader.phrase}")


class Interpreter:
    """One evaluation over one reader's rows: the values of the nodes met so far, by ``id``.

    ``memo`` may be shared by the caller between evaluations over the same rows (and may hold the
    values of nodes no reader reads); ``keep`` is the ``id`` of the nodes whose values are kept
    (None: every node's), for readers whose values are too large to keep them all.
    """

    __slots__ = ("reader", "memo", "keep", "values")

    def __init__(self, reader: Reader, memo: dict[int, Any] | None = None,
                 keep: Container[int] | None = None) -> None:
        self.reader = reader
        self.memo: dict[int, Any] = {} if memo is None else memo
        self.keep = keep
        #: What the values are: numpy arrays, or Python ints over one row.
        self.values = _values(reader.one_row)

    def value(self, node: Node) -> Any:
        """``node``'s values: read by the reader, else made by the structure, else refused."""
        key = id(node)
        out = self.memo.get(key)
        if out is not None:
            return out
        out = self.reader.read(node, self)
        if out is None:
            rule = STRUCTURE.get(type(node))
            if rule is None:
                raise refusal(node, self.reader)
            out = rule(node, self)
        if self.keep is None or key in self.keep:
            self.memo[key] = out
        return out

    def number(self, node: Node) -> Any:
        """``node``'s values as numbers (a condition: 1 where it holds, else 0)."""
        return self.values.number(self.value(node))

    def truth(self, node: Node) -> Any:
        """``node``'s values as a condition: true where they are not 0."""
        return self.values.truth(self.value(node))

    def holds(self, node: Node) -> Any:
        """``node``'s values as a condition over the reader's rows: a value per lead (``leadtricks``, a leading
        axis beyond the reader's :attr:`Reader.shape`) holds where it holds for every lead."""
        return self.values.per_row(self.truth(node), len(self.reader.shape), False)

    def mean(self, node: Node) -> Any:
        """``node``'s values as numbers over the reader's rows: a value per lead counts as its mean over the
        leads, truncated toward zero (as the suokko fork converts it to a number)."""
        return self.values.per_row(self.number(node), len(self.reader.shape), True)


class _OneRow(Interpreter):
    """An evaluation over one row: the same rules, a value's conversions done in place (no numpy)."""

    __slots__ = ()

    def number(self, node: Node) -> Any:
        out = self.value(node)
        return int(out) if out.__class__ is bool else out

    def truth(self, node: Node) -> Any:
        out = self.value(node)
        return out if out.__class__ is bool else out != 0

    holds = truth
    mean = number


def interpret(node: Node, reader: Reader, *, dtype: Any, memo: dict[int, Any] | None = None,
              only_shared: bool = False) -> Any:
    """``node``'s values over ``reader``'s rows, as ``dtype`` (``bool``: conditions; ``np.int64``: numbers,
    a condition as 1 or 0), broadcast to :attr:`Reader.shape`; over one row (:attr:`Reader.one_row`), a
    Python bool or int.

    ``memo`` keeps the values of every node by ``id`` and may be shared between calls on the same rows;
    ``only_shared`` keeps only those of the nodes ``node`` reaches by several paths
    (:func:`shared_nodes`), for readers whose values are large.
    """
    keep = shared_nodes(node) if only_shared else None
    if reader.one_row:
        one = _OneRow(reader, memo, keep)
        return one.truth(node) if dtype is bool else one.number(node)
    run = Interpreter(reader, memo, keep)
    import numpy as np

    out = run.holds(node) if dtype is bool else np.asarray(run.mean(node), dtype=dtype)
    if out.shape != reader.shape:
        out = np.broadcast_to(out, reader.shape).copy()
    return out


def shared_nodes(root: Node) -> frozenset[int]:
    """The ``id`` of every node that ``root`` reaches by more than one path (each node looked at once).

    >>> from dealer.lang.syntax import parse_condition
    >>> c = parse_condition("hcp(north) > 3")
    >>> len(shared_nodes(c)), len(shared_nodes(And((c, Not(c)))))
    (0, 1)
    """
    parents: Counter[int] = Counter(id(child) for node in walk_once(root) for child in node.children())
    return frozenset(key for key, n in parents.items() if n > 1)


# -- the structure: one rule per node type ------------------------------------------------------

def _const(node: Const, run: Interpreter) -> Any:
    return run.values.constant(int(node.value))


def _always(node: Always, run: Interpreter) -> Any:
    return run.values.constant(bool(node.value))


def _arith(node: Arith, run: Interpreter) -> Any:
    return run.values.number(ARITH[node.op](run.number(node.left), run.number(node.right)))


def _compare(node: Compare, run: Interpreter) -> Any:
    return run.values.truth(COMPARE[node.op](run.number(node.left), run.number(node.right)))


def _and(node: And, run: Interpreter) -> Any:
    return run.values.all_of(run, node.items)


def _or(node: Or, run: Interpreter) -> Any:
    return run.values.any_of(run, node.items)


def _xor(node: Xor, run: Interpreter) -> Any:
    count = run.values.constant(0)
    for item in node.items:
        count = count + run.values.number(run.holds(item))
    return run.values.truth(count == 1)


def _not(node: Not, run: Interpreter) -> Any:
    return run.values.negation(run.truth(node.item))


def _truth(node: Truth, run: Interpreter) -> Any:
    return run.values.number(run.truth(node.item))


def _ternary(node: Ternary, run: Interpreter) -> Any:
    return run.values.choice(run.truth(node.test), run.number(node.then), run.number(node.other))


def _imps(node: Imps, run: Interpreter) -> Any:
    from dealer.lang.scoring import imps

    return imps(run.number(node.item))


def _score(node: Score, run: Interpreter) -> Any:
    from dealer.lang.scoring import score

    return score(node.vulnerable, node.level, node.strain, run.number(node.tricks), node.doubled)


#: How the structure is interpreted, by node type: every node whose meaning is the same whatever the rows.
STRUCTURE: dict[type, Callable[[Any, Interpreter], Any]] = {
    Const: _const, Always: _always, Arith: _arith, Compare: _compare, And: _and, Or: _or, Xor: _xor, Not: _not,
    Truth: _truth, Ternary: _ternary, Imps: _imps, Score: _score,
}
#: The structural node types (the keys of :data:`STRUCTURE`): what every reader evaluates without reading.
STRUCTURAL: tuple[type[Node], ...] = tuple(STRUCTURE)
