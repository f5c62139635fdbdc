"""Constant folding of conditions: ``x && 0`` is ``0``, ``x || 1`` is ``1``, ``1 + 2 > 2`` is ``1``.

Scripts switch parts of a condition on and off with constants (``keep = 1``,
``levWeak = part and keep0`` in the bidding-practice scripts' "leveling" code).
A constant is no atom of a union (:mod:`dealer.union`) and no per-seat table,
so a condition holding one would be filtered; folded first, the constant goes
and the rest is counted exactly. Folding never changes which deals a condition
accepts: only parts that mention no seat and draw no random number are
evaluated, and ``/`` and ``%`` are left alone (a division by zero stays where
the script wrote it).

>>> from dealer.syntax import parse_condition
>>> str(fold(parse_condition("hcp(north) >= 12 && 1")))
'hcp(north) >= 12'
>>> str(fold(parse_condition("hcp(north) >= 12 || 2 > 1 + 1")))
'hcp(north) >= 12'
>>> str(fold(parse_condition("hcp(north) >= 12 || !(0)")))
'1'
"""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Callable

from .expr import Always, And, Arith, Compare, Cond, Const, Expr, Not, Or, Ternary, Truth, Xor

__all__ = ["fold", "fold_number"]

_ARITH: dict[str, Callable[[int, int], int]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def fold_number(e: Expr) -> Expr:
    """``e`` with its constant parts evaluated (``+ - *`` of constants, a constant test's branch).

    >>> from dealer.syntax import parse_condition
    >>> fold(parse_condition("hcp(south) > 2 * 5")).right
    Const(value=10)
    """
    if isinstance(e, Arith):
        left, right = fold_number(e.left), fold_number(e.right)
        if isinstance(left, Const) and isinstance(right, Const) and e.op in _ARITH:
            return Const(_ARITH[e.op](left.value, right.value), pos=e.pos)
        return replace(e, left=left, right=right)
    if isinstance(e, Truth):
        item = fold(e.item)
        return Const(int(item.value), pos=e.pos) if isinstance(item, Always) else replace(e, item=item)
    if isinstance(e, Ternary):
        test = fold(e.test)
        if isinstance(test, Always):
            return fold_number(e.then if test.value else e.other)
        return replace(e, test=test, then=fold_number(e.then), other=fold_number(e.other))
    return e


def fold(c: Cond) -> Cond:
    """``c`` with its constant parts evaluated and dropped where they decide nothing.

    >>> from dealer.syntax import parse_condition
    >>> str(fold(parse_condition("(hcp(north) >= 12 && 0) || spades(south) >= 5")))
    'spades(south) >= 5'
    """
    if isinstance(c, Compare):
        left, right = fold_number(c.left), fold_number(c.right)
        if isinstance(left, Const) and isinstance(right, Const):
            return Always(_COMPARE[c.op](left.value, right.value), pos=c.pos)
        return replace(c, left=left, right=right)
    if isinstance(c, Not):
        item = fold(c.item)
        return Always(not item.value, pos=c.pos) if isinstance(item, Always) else replace(c, item=item)
    if isinstance(c, (And, Or)):
        decisive = isinstance(c, Or)  # the value that decides: true for ||, false for &&
        items: list[Cond] = []
        for x in (fold(x) for x in c.items):
            if isinstance(x, Always):
                if x.value == decisive:
                    return Always(decisive, pos=c.pos)
                continue
            items.append(x)
        if not items:
            return Always(not decisive, pos=c.pos)
        return items[0] if len(items) == 1 else replace(c, items=tuple(items))
    if isinstance(c, Xor):  # exactly one item holds
        parts = [fold(x) for x in c.items]
        true = sum(x.value for x in parts if isinstance(x, Always))
        rest = tuple(x for x in parts if not isinstance(x, Always))
        if true >= 2 or (true == 0 and not rest):
            return Always(False, pos=c.pos)
        if true == 1:  # the others all fail
            return Always(True, pos=c.pos) if not rest else Not(rest[0] if len(rest) == 1 else Or(rest), pos=c.pos)
        return rest[0] if len(rest) == 1 else replace(c, items=rest)
    return c
