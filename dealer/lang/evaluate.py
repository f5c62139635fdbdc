"""Evaluating expressions of the ``dealer`` language on many deals at once.

Deals come as an ``(n, 4)`` array of hand bit-sets (North, East, South, West;
see :meth:`~dealer.tables.exact.ExactDealer.sample_masks`). Every per-seat feature
is a sum over the four suits of a table indexed by the 13-bit holding, so an
expression costs a few numpy operations per node whatever ``n`` is.
:class:`Counts` holds the tables a script may change (``pointcount``,
``altcount``); ``tricks`` asks the double-dummy solver of the bot extra.

>>> from dealer.lang.syntax import parse_expression, SPEC_DIALECT
>>> from dealer.cards.deal import Deal
>>> masks = np.array([Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT98.JT 765.765.765.8765 432.432.432.9432").masks])
>>> evaluate(parse_expression("hcp(north) + top3(north, spades) * 100 + losers(east)", SPEC_DIALECT), masks)
array([348])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from dealer.errors import UnsupportedSpecError
from dealer.lang.double_dummy import SOLVER_NODES, batch_solver, lead_tricks, par_scores, solved_tables, tricks_of
from dealer.lang.expr import (
    HandCount, HasCard, Hcp, LeadTricks, Length, Node, Par, Random, ShapeIn, SuitHcp, Tricks, walk_once,
)
from dealer.lang.interpret import Interpreter, Reader, interpret
from dealer.lang.one_deal import ALT_DEFAULTS, LTC, STANDARD_POINTS, holding_values, script_points
from dealer.cards.shapes import ShapeSet

if TYPE_CHECKING:
    from dealer.lang.statements import ScriptSyntax

__all__ = ["Counts", "STANDARD", "ALT_DEFAULTS", "evaluate", "holding_table", "loser_table",
           "check_runnable", "quality_table", "cccc_suit_table", "cccc_shape", "ltc_table", "LTC"]

_HOLDINGS = np.arange(1 << 13)
_BITS = (_HOLDINGS[:, None] >> np.arange(13)) & 1  # (8192, 13): bit 0 is the ace

def holding_table(points: tuple[int, ...]) -> np.ndarray:
    """For every 13-bit holding, the sum of ``points`` (ace first) over its cards."""
    return np.asarray(_BITS @ np.asarray(points, dtype=np.int64), dtype=np.int64)


def loser_table() -> np.ndarray:
    """Losers of every holding, as the ``dealer`` program counts them (:func:`~dealer.lang.one_deal.holding_values`)."""
    return np.asarray(holding_values("losers"), dtype=np.int64)


def ltc_table() -> np.ndarray:
    """The losing trick count (hundredths) of every holding, by its three highest cards."""
    return np.asarray(holding_values("ltc"), dtype=np.int64)


def quality_table() -> np.ndarray:
    """Suit quality of every holding, times 100: the Bridge World (October 1982) count that ``dealer`` uses."""
    return np.asarray(holding_values("quality"), dtype=np.int64)


def cccc_suit_table() -> np.ndarray:
    """The honour part of ``cccc`` in one suit (quality included), times 100, for every holding."""
    return np.asarray(holding_values("cccc"), dtype=np.int64)


def cccc_shape(lengths: list[np.ndarray]) -> np.ndarray:
    """The shape part of ``cccc`` over arrays of suit lengths (:func:`~dealer.lang.one_deal.cccc_shape_points`)."""
    short = sum(np.maximum(0, 3 - x) * 100 for x in lengths)
    return np.asarray(np.where(short == 0, -50, short - 100), dtype=np.int64)


@dataclass(frozen=True)
class Counts:
    """The point tables of a script: ``points`` for ``hcp`` (ace first), ``alt`` for ``pt0``..``pt9``."""

    points: tuple[int, ...] = STANDARD_POINTS
    alt: tuple[tuple[int, ...], ...] = ALT_DEFAULTS
    tables: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of_script(cls, syntax: "ScriptSyntax") -> "Counts":
        """The point tables a script sets (``pointcount``, ``altcount``), the standard ones elsewhere."""
        points, alt = script_points(syntax)
        return cls(points=points, alt=alt)

    @property
    def standard_points(self) -> bool:
        """True when ``hcp`` counts 4-3-2-1."""
        return self.points == STANDARD.points

    def table(self, kind: str) -> np.ndarray:
        """The per-holding table of a feature: ``length``, ``hcp``, ``pt0``..``pt9``, ``controls``, ``losers``, ``ltc``..."""
        cached = self.tables.get(kind)
        if cached is not None:
            return cached
        if kind == "length":
            t = _BITS.sum(axis=1).astype(np.int64)
        elif kind == "hcp":
            t = holding_table(self.points)
        elif kind.startswith("pt"):
            t = holding_table(self.alt[int(kind[2:])])
        elif kind == "controls":
            t = holding_table((2, 1) + (0,) * 11)
        elif kind == "losers":
            t = loser_table()
        elif kind == "quality":
            t = quality_table()
        elif kind == "cccc":
            t = cccc_suit_table()
        elif kind == "ltc":
            t = ltc_table()
        else:
            raise UnsupportedSpecError(f"{kind!r} is not a count of the language")
        self.tables[kind] = t
        return np.asarray(t)


#: The ``dealer`` program's default tables.
STANDARD = Counts()


class _DealReader(Reader):
    """Reads the leaves over deals: every per-seat count is a sum over the suits of a table indexed by the
    13-bit holding; ``hascard`` a bit; ``tricks`` the solver; ``rnd`` the script's random stream."""

    phrase = "cannot be evaluated on deals"

    def __init__(self, masks: np.ndarray, counts: Counts, rng: np.random.Generator | None,
                 strains: str = "") -> None:
        self.masks = masks
        self.counts = counts
        self.rng = rng
        self.shape = (len(masks),)
        self.suits: dict[tuple[int, int], np.ndarray] = {}
        self.strains = strains  # the strains the tree's ``tricks`` read: solved together, once
        self.tables: list[Any] | None = None

    def holding(self, seat: int, suit: int) -> np.ndarray:
        """The seat's 13-bit holding in the suit on every deal (cached)."""
        key = (seat, suit)
        h = self.suits.get(key)
        if h is None:
            h = ((self.masks[:, seat] >> np.uint64(13 * suit)) & np.uint64(0x1FFF)).astype(np.int64)
            self.suits[key] = h
        return h

    def feature(self, kind: str, seat: int, suit: int | None) -> np.ndarray:
        """A count of :meth:`Counts.table` for the seat: in one suit, or summed over the four."""
        table = self.counts.table(kind)
        if suit is not None:
            return np.asarray(table[self.holding(seat, suit)])
        return np.asarray(sum(table[self.holding(seat, s)] for s in range(4)))

    def solved(self, node: Tricks) -> list[Any]:
        """The deals' double-dummy tables: solved once, in batches, for every strain the tree reads."""
        if self.tables is None or node.strain not in self.strains:
            self.strains = "".join(sorted(set(self.strains + node.strain)))
            self.tables = solved_tables(self.masks, self.strains, node.pos, "tricks")
        return self.tables

    def _hand_count(self, node: HandCount, run: Interpreter) -> np.ndarray:
        if node.kind == "cccc":
            shape = cccc_shape([self.feature("length", node.seat, s) for s in range(4)])
            return np.asarray(self.feature("cccc", node.seat, None) + shape)
        return self.feature(node.kind, node.seat, None if node.suit is None else int(node.suit))

    def _shape(self, node: ShapeIn, run: Interpreter) -> np.ndarray:
        lengths = [self.feature("length", node.seat, s) for s in range(4)]
        return np.asarray(_shape_table(node.shapes)[lengths[0], lengths[1], lengths[2], lengths[3]])

    def _rnd(self, node: Random, run: Interpreter) -> np.ndarray:
        return _random(node, np.broadcast_to(run.number(node.limit), self.shape), self.rng)

    leaves = {
        Length: lambda r, node, run: r.feature("length", node.seat, node.suit),
        Hcp: lambda r, node, run: r.feature("hcp", node.seat, None),
        SuitHcp: lambda r, node, run: r.feature("hcp", node.seat, node.suit),
        HandCount: _hand_count,
        ShapeIn: _shape,
        HasCard: lambda r, node, run: (r.masks[:, node.seat] & np.uint64(1 << node.card.index)) != 0,
        Tricks: lambda r, node, run: tricks_of(r.solved(node), node.seat, node.strain),
        LeadTricks: lambda r, node, run: lead_tricks(r.masks, node.seat, node.strain, node.pos),
        Par: lambda r, node, run: par_scores(r.masks, node.side, node.vulnerable, node.pos),
        Random: _rnd,
    }


@lru_cache(maxsize=1024)
def _shape_table(shapes: ShapeSet) -> np.ndarray:
    """Whether each (spades, hearts, diamonds, clubs) is one of ``shapes``, as a 14^4 table (built once a set)."""
    ok = np.zeros((14, 14, 14, 14), dtype=bool)
    for s in shapes:
        ok[s] = True
    ok.setflags(write=False)
    return ok


def _random(node: Random, limit: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
    """``rnd(n)`` on each deal: ``n`` times a uniform draw in [0, 1), truncated toward zero (as ``dealer``)."""
    if rng is None:
        raise UnsupportedSpecError(f"line {node.pos.line}, column {node.pos.column}: 'rnd' needs the script's "
                                   "random stream (evaluate it with a generator)")
    return np.asarray(np.trunc(rng.random(len(limit)) * limit), dtype=np.int64)


def check_runnable(node: Node) -> None:
    """Raise :class:`~dealer.errors.UnsupportedSpecError` naming line, column and feature if ``node``
    uses a feature this installation cannot evaluate (``tricks`` without the bot extra)."""
    for n in walk_once(node):
        if isinstance(n, SOLVER_NODES):
            batch_solver(n.pos, n.text().partition("(")[0])


def evaluate(node: Node, masks: np.ndarray, counts: Counts = STANDARD,
             memo: dict[int, np.ndarray] | None = None, rng: np.random.Generator | None = None, *,
             per_lead: bool = False) -> np.ndarray:
    """The value of ``node`` on every deal of ``masks`` (``(n, 4)`` uint64): int64, conditions as 1 or 0.

    ``memo`` (keyed by node identity) shares values between expressions evaluated on the same deals.
    ``rng`` gives the values of ``rnd(n)``: one uniform draw per deal for each ``rnd`` node, in deal
    order, when the node is first evaluated (a node met twice keeps its values, through the memo).
    A value per opening lead (``leadtricks``) is its mean over the leads, truncated; with ``per_lead``
    it stays one, ``out[lead, deal]`` (a value of one per deal is then ``out[deal]``).
    """
    strains = "".join(sorted({n.strain for n in walk_once(node) if isinstance(n, Tricks)}))
    reader = _DealReader(np.asarray(masks, dtype=np.uint64), counts, rng, strains)
    if not per_lead:
        return np.asarray(interpret(node, reader, dtype=np.int64, memo=memo))
    out = Interpreter(reader, memo).number(node)
    return np.broadcast_to(out, out.shape[:-1] + reader.shape if out.ndim > 1 else reader.shape).copy()
