"""Constant folding of conditions: ``x && 0`` is ``0``, ``x || 1`` is ``1``, ``1 + 2 > 2`` is ``1``.

Scripts switch parts of a condition on and off with constants (``keep = 1``,
``levWeak = part and keep0`` in the bidding-practice scripts' "leveling" code).
A constant is no atom of a union (:mod:`dealer.tables.union`) and no per-seat table,
so a condition holding one would be filtered; folded first, the constant goes
and the rest is counted exactly. Folding never changes which deals a condition
accepts: only parts that mention no seat and draw no random number are
evaluated, and ``/`` and ``%`` are left alone (a division by zero stays where
the script wrote it).

>>> from dealer.lang.syntax import parse_condition
>>> str(fold(parse_condition("hcp(north) >= 12 && 1")))
'hcp(north) >= 12'
>>> str(fold(parse_condition("hcp(north) >= 12 || 2 > 1 + 1")))
'hcp(north) >= 12'
>>> str(fold(parse_condition("hcp(north) >= 12 || !(0)")))
'1'
"""

from __future__ import annotations

from typing import Any, Callable, cast

from dealer.lang.expr import Always, And, Arith, Compare, Cond, Const, Expr, Node, Not, Or, Ternary, Truth, Xor
from dealer.lang.interpret import ARITH, COMPARE
from dealer.lang.frozen import replace

__all__ = ["fold", "fold_number", "fold_conditions"]

#: The operators folded (the interpreter's own): ``/`` and ``%`` are left where the script wrote them.
_FOLDED = ("+", "-", "*")


def fold_number(e: Expr) -> Expr:
    """``e`` with its constant parts evaluated (``+ - *`` of constants, a constant test's branch).

    >>> from dealer.lang.syntax import parse_condition
    >>> fold(parse_condition("hcp(south) > 2 * 5")).right
    Const(value=10)
    """
    return _Folder().number(e)


def fold(c: Cond) -> Cond:
    """``c`` with its constant parts evaluated and dropped where they decide nothing.

    A part written once and used several times (a script's variable) is folded once and stays one
    object, and a part with nothing to fold is returned as it was: evaluation caches parts by
    identity, so a condition built from nested variables stays a small graph, not a huge tree.

    >>> from dealer.lang.syntax import parse_condition
    >>> str(fold(parse_condition("(hcp(north) >= 12 && 0) || spades(south) >= 5")))
    'spades(south) >= 5'
    """
    return _Folder().cond(c)


def fold_conditions(conditions: "list[Cond]") -> "list[Cond]":
    """A script's conditions folded (:func:`fold`), those folded to true left out."""
    return [f for f in map(fold, conditions) if f != Always(True)]


class _Folder:
    """One folding pass, remembering each part it folded (by identity)."""

    def __init__(self) -> None:
        self.done: dict[int, tuple[Node, Node]] = {}  # id -> (the part, its folded form): the part kept alive

    def _once(self, node: Node, compute: Callable[[Any], Node]) -> Node:
        hit = self.done.get(id(node))
        if hit is None:
            hit = self.done[id(node)] = (node, compute(node))
        return hit[1]

    def number(self, e: Expr) -> Expr:
        return cast(Expr, self._once(e, self._number))

    def cond(self, c: Cond) -> Cond:
        return cast(Cond, self._once(c, self._cond))

    def _number(self, e: Expr) -> Expr:
        if isinstance(e, Arith):
            left, right = self.number(e.left), self.number(e.right)
            if isinstance(left, Const) and isinstance(right, Const) and e.op in _FOLDED:
                return Const(int(ARITH[e.op](left.value, right.value)), pos=e.pos)
            return e if left is e.left and right is e.right else replace(e, left=left, right=right)
        if isinstance(e, Truth):
            item = self.cond(e.item)
            if isinstance(item, Always):
                return Const(int(item.value), pos=e.pos)
            return e if item is e.item else replace(e, item=item)
        if isinstance(e, Ternary):
            test = self.cond(e.test)
            if isinstance(test, Always):
                return self.number(e.then if test.value else e.other)
            then, other = self.number(e.then), self.number(e.other)
            if test is e.test and then is e.then and other is e.other:
                return e
            return replace(e, test=test, then=then, other=other)
        return e

    def _cond(self, c: Cond) -> Cond:
        if isinstance(c, Compare):
            left, right = self.number(c.left), self.number(c.right)
            if isinstance(left, Const) and isinstance(right, Const):
                return Always(bool(COMPARE[c.op](left.value, right.value)), pos=c.pos)
            return c if left is c.left and right is c.right else replace(c, left=left, right=right)
        if isinstance(c, Not):
            item = self.cond(c.item)
            if isinstance(item, Always):
                return Always(not item.value, pos=c.pos)
            return c if item is c.item else replace(c, item=item)
        if isinstance(c, (And, Or)):
            decisive = isinstance(c, Or)  # the value that decides: true for ||, false for &&
            items: list[Cond] = []
            for x in (self.cond(x) for x in c.items):
                if isinstance(x, Always):
                    if x.value == decisive:
                        return Always(decisive, pos=c.pos)
                    continue
                items.append(x)
            if not items:
                return Always(not decisive, pos=c.pos)
            if len(items) == 1:
                return items[0]
            same = len(items) == len(c.items) and all(a is b for a, b in zip(items, c.items))
            return c if same else replace(c, items=tuple(items))
        if isinstance(c, Xor):  # exactly one item holds
            parts = [self.cond(x) for x in c.items]
            true = sum(x.value for x in parts if isinstance(x, Always))
            rest = tuple(x for x in parts if not isinstance(x, Always))
            if true >= 2 or (true == 0 and not rest):
                return Always(False, pos=c.pos)
            if true == 1:  # the others all fail
                return Always(True, pos=c.pos) if not rest else Not(rest[0] if len(rest) == 1 else Or(rest),
                                                                     pos=c.pos)
            if len(rest) == 1:
                return rest[0]
            return c if all(a is b for a, b in zip(rest, c.items)) else replace(c, items=rest)
        return c
