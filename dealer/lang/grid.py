"""Conditions on one seat, evaluated over every (shape, HCP) class of a hand.

A seat's dealt suit lengths and HCP take 560 x 38 values in all. The
:class:`FeatureGrid` lists them; :func:`grid_mask` evaluates a condition on one
seat over the whole grid at once (numpy), which is how a spec becomes the exact
set of (shape, HCP) classes each seat may be dealt (:class:`GridReader` reads
the leaves; :mod:`dealer.lang.interpret` the rest). Features the grid does not
carry (a specific card, HCP in one suit) are dealt another way (holding
filters, predealt cards) and are refused here.

>>> from dealer.lang.syntax import parse_condition
>>> int(grid_mask(parse_condition("shape(north, any 4333) && hcp(north) >= 20"), GRID).sum())
72
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from dealer.lang.expr import Cond, Expr, Hcp, Length, Node, ShapeIn
from dealer.lang.interpret import STRUCTURAL, Interpreter, Reader, interpret
from dealer.cards.shapes import ALL_SHAPES, ShapeSet

__all__ = ["FeatureGrid", "GRID", "MAX_HCP", "grid_values", "grid_mask", "GridReader", "SEAT_NODES"]

#: The most HCP one hand can hold (AKQJ AKQ AKQ AKQ).
MAX_HCP = 37


class FeatureGrid:
    """Every (shape, HCP) class of a 13-card hand: 560 shapes x 38 totals.

    ``lengths[s]`` and ``hcp`` are flat int64 arrays over the grid; a condition on one seat evaluates
    to a boolean array of the same ``shape``. ``known`` gives the values of some nodes (by ``id``) that
    the grid does not carry itself (:meth:`widened`).
    """

    def __init__(self) -> None:
        shapes = np.array(ALL_SHAPES, dtype=np.int64)  # (560, 4)
        n_h = MAX_HCP + 1
        self.n_shapes = len(ALL_SHAPES)
        self.n_hcp = n_h
        self.lengths = tuple(np.repeat(shapes[:, s], n_h) for s in range(4))
        self.hcp = np.tile(np.arange(n_h, dtype=np.int64), self.n_shapes)
        self.shape_index = np.repeat(np.arange(self.n_shapes), n_h)
        for column in (*self.lengths, self.hcp, self.shape_index):
            column.setflags(write=False)  # the readers hand them out as they are
        self.size = self.n_shapes * n_h
        self.shape: tuple[int, ...] = (self.size,)
        self.known: dict[int, np.ndarray] = {}

    def widened(self, known: dict[int, np.ndarray]) -> "FeatureGrid":
        """The grid as a row, ``(1, size)``, where the nodes of ``known`` (by ``id``) take the values given
        as columns, ``(k, 1)``: a condition reading them evaluates to ``(k, size)`` (numpy broadcasting),
        its row ``i`` the classes where it holds when the known nodes take their ``i``-th values."""
        out = FeatureGrid.__new__(FeatureGrid)
        out.__dict__.update(self.__dict__)
        out.lengths = tuple(x[None, :] for x in self.lengths)
        out.hcp = self.hcp[None, :]
        out.shape_index = self.shape_index[None, :]
        out.known = known
        out.shape = np.broadcast_shapes((1, self.size), *(v.shape for v in known.values()))
        return out


#: The grid every spec is evaluated on.
GRID = FeatureGrid()


@lru_cache(maxsize=1024)
def _shapes_ok(shapes: ShapeSet) -> np.ndarray:
    """Whether each of the 560 shapes is one of ``shapes`` (built once a set)."""
    ok = np.array([s in shapes for s in ALL_SHAPES], dtype=bool)
    ok.setflags(write=False)
    return ok


class GridReader(Reader):
    """Reads the leaves over the (shape, HCP) classes of one seat: its lengths, HCP and shape tests, and the
    nodes whose values the grid was given (:attr:`FeatureGrid.known`, compound ones too)."""

    phrase = "is not a shape or HCP feature of one seat"

    def __init__(self, grid: FeatureGrid) -> None:
        self.grid = grid
        self.known = grid.known
        self.shape = grid.shape

    def read(self, node: Node, run: Interpreter) -> np.ndarray | None:
        """A known node's given values, else a leaf's values on the grid, else None."""
        if self.known:
            got = self.known.get(id(node))
            if got is not None:
                return got
        leaf = self.leaves.get(type(node))
        return None if leaf is None else leaf(self, node, run)

    leaves = {
        Length: lambda r, node, run: r.grid.lengths[node.suit],
        Hcp: lambda r, node, run: r.grid.hcp,
        ShapeIn: lambda r, node, run: _shapes_ok(node.shapes)[r.grid.shape_index],
    }


#: The nodes the grid evaluates, wherever they stand: the structure and one seat's lengths, HCP and shape.
SEAT_NODES: tuple[type[Node], ...] = STRUCTURAL + tuple(GridReader.leaves)


def grid_values(expr: Expr, grid: FeatureGrid = GRID) -> np.ndarray:
    """An expression's value on every class of ``grid`` (the expression reads one seat at most), int64.

    Raises :class:`~dealer.errors.UnsupportedSpecError` for what the classes do not determine.
    """
    return np.asarray(interpret(expr, GridReader(grid), dtype=np.int64, only_shared=True))


def grid_mask(cond: Cond, grid: FeatureGrid = GRID) -> np.ndarray:
    """Where on ``grid`` the condition holds (a condition on one seat at most), bool.

    A part used in several places is evaluated once; the values of the others are not kept.
    Raises :class:`~dealer.errors.UnsupportedSpecError` for what the classes do not determine.
    """
    return np.asarray(interpret(cond, GridReader(grid), dtype=bool, only_shared=True))
