"""Conditions on one seat, evaluated over every (shape, HCP) class of a hand.

A seat's dealt suit lengths and HCP take 560 x 38 values in all. The
:class:`FeatureGrid` lists them; :func:`grid_mask` evaluates a condition on one
seat over the whole grid at once (numpy), which is how a spec becomes the exact
set of (shape, HCP) classes each seat may be dealt. Features the grid does not
carry (a specific card, HCP in one suit) are dealt another way (holding
filters, predealt cards) and are refused here.

>>> from dealer.lang.syntax import parse_condition
>>> int(grid_mask(parse_condition("shape(north, any 4333) && hcp(north) >= 20"), GRID).sum())
72
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Any, Callable

import numpy as np

from dealer.errors import UnsupportedSpecError
from dealer.lang.expr import (
    Always, And, Arith, Compare, Cond, Const, Expr, Hcp, Length, Node, Not, Or, ShapeIn, Ternary, Truth, Xor, walk_once,
)
from dealer.cards.shapes import ALL_SHAPES

__all__ = ["FeatureGrid", "GRID", "MAX_HCP", "grid_values", "grid_mask", "shared_nodes", "ARITH", "COMPARE", "c_divide",
           "c_modulo"]

#: The most HCP one hand can hold (AKQJ AKQ AKQ AKQ).
MAX_HCP = 37



def c_divide(a: Any, b: Any) -> Any:
    """``a / b`` as in C (truncated toward zero), on ints or numpy arrays; 0 where ``b`` is 0.

    >>> c_divide(-7, 2), c_divide(7, 0)
    (-3, 0)
    """
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


class FeatureGrid:
    """Every (shape, HCP) class of a 13-card hand: 560 shapes x 38 totals.

    ``lengths[s]`` and ``hcp`` are flat int arrays over the grid; a condition
    on one seat evaluates to a boolean array of the same size. ``known`` gives the values of
    some nodes (by ``id``) that the grid does not carry itself (:meth:`widened`).
    """

    def __init__(self) -> None:
        shapes = np.array(ALL_SHAPES, dtype=np.int16)  # (560, 4)
        n_h = MAX_HCP + 1
        self.n_shapes = len(ALL_SHAPES)
        self.n_hcp = n_h
        self.lengths = tuple(np.repeat(shapes[:, s], n_h) for s in range(4))
        self.hcp = np.tile(np.arange(n_h, dtype=np.int16), self.n_shapes)
        self.shape_index = np.repeat(np.arange(self.n_shapes), n_h)
        self.size = self.n_shapes * n_h
        self.known: dict[int, np.ndarray] = {}
        self.cache: dict[int, np.ndarray] | None = None
        self.shared: frozenset[int] = frozenset()

    def evaluating(self, root: Node) -> "FeatureGrid":
        """The same grid with an empty cache for one evaluation of ``root``: the values of the nodes
        used in several places in it are kept (by ``id``), and only theirs."""
        out = FeatureGrid.__new__(FeatureGrid)
        out.__dict__.update(self.__dict__)
        out.cache = {}
        out.shared = shared_nodes(root)
        return out

    def widened(self, known: dict[int, np.ndarray], root: Node) -> "FeatureGrid":
        """The grid as a row, ``(1, size)``, where the nodes of ``known`` (by ``id``) take the values given
        as columns, ``(k, 1)``: ``root`` evaluates to ``(k, size)`` (numpy broadcasting), its row ``i``
        the classes where it holds when the known nodes take their ``i``-th values. A node used in
        several places in ``root`` is evaluated once (use the grid for ``root`` only)."""
        out = self.evaluating(root)
        out.lengths = tuple(x[None, :] for x in self.lengths)
        out.hcp = self.hcp[None, :]
        out.shape_index = self.shape_index[None, :]
        out.known = known
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


#: The grid every spec is evaluated on.
GRID = FeatureGrid()


def _refuse(node: Node) -> UnsupportedSpecError:
    return UnsupportedSpecError(f"{node.pos}: {node} is not a shape or HCP feature of one seat")


def _evaluated(node: Any, grid: FeatureGrid, compute: Callable[[Any, FeatureGrid], np.ndarray]) -> np.ndarray:
    """``compute(node, grid)``, within one evaluation whose grid keeps the values of shared parts."""
    if grid.cache is None:  # one evaluation: a part used in several places is evaluated once
        grid = grid.evaluating(node)
    assert grid.cache is not None
    done = grid.cache.get(id(node))
    if done is None:
        done = compute(node, grid)
        if id(node) in grid.shared:
            grid.cache[id(node)] = done
    return done


def grid_values(expr: Expr, grid: FeatureGrid = GRID) -> np.ndarray:
    """An expression's value on every class of ``grid`` (the expression reads one seat at most)."""
    known = grid.known.get(id(expr))
    return known if known is not None else _evaluated(expr, grid, _grid_values)


def _grid_values(expr: Expr, grid: FeatureGrid) -> np.ndarray:
    if isinstance(expr, Const):
        return np.full(grid.size, expr.value, dtype=np.int64)
    if isinstance(expr, Length):
        return grid.lengths[expr.suit].astype(np.int64)
    if isinstance(expr, Hcp):
        return grid.hcp.astype(np.int64)
    if isinstance(expr, Arith):
        return np.asarray(ARITH[expr.op](grid_values(expr.left, grid), grid_values(expr.right, grid)))
    if isinstance(expr, Truth):
        return grid_mask(expr.item, grid).astype(np.int64)
    if isinstance(expr, Ternary):
        return np.where(grid_mask(expr.test, grid), grid_values(expr.then, grid), grid_values(expr.other, grid))
    raise _refuse(expr)


def grid_mask(cond: Cond, grid: FeatureGrid = GRID) -> np.ndarray:
    """Where on ``grid`` the condition holds (a condition on one seat at most)."""
    known = grid.known.get(id(cond))
    return np.asarray(known != 0) if known is not None else _evaluated(cond, grid, lambda c, g: _grid_mask(c, g))


def _grid_mask(cond: Cond, grid: FeatureGrid) -> np.ndarray:
    if isinstance(cond, Always):
        return np.full(grid.size, cond.value, dtype=bool)
    if isinstance(cond, Compare):
        return np.asarray(COMPARE[cond.op](grid_values(cond.left, grid), grid_values(cond.right, grid)), dtype=bool)
    if isinstance(cond, ShapeIn):
        ok = np.array([s in cond.shapes for s in ALL_SHAPES], dtype=bool)
        return ok[grid.shape_index]
    if isinstance(cond, And):
        out = np.ones(grid.size, dtype=bool)
        for c in cond.items:
            out = out & grid_mask(c, grid)
        return out
    if isinstance(cond, Or):
        out = np.zeros(grid.size, dtype=bool)
        for c in cond.items:
            out = out | grid_mask(c, grid)
        return out
    if isinstance(cond, Xor):
        count = np.zeros(grid.size, dtype=np.int64)
        for c in cond.items:
            count = count + grid_mask(c, grid)
        return np.asarray(count == 1)
    if isinstance(cond, Not):
        return ~grid_mask(cond.item, grid)
    raise _refuse(cond)
