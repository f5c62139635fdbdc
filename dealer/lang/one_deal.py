"""Evaluating expressions of the ``dealer`` language on one deal, card by card, without numpy.

A deal is four hands as 52-bit sets (North, East, South, West; bit ``13 * suit + rank``, the ace rank 0,
as :mod:`dealer.lang.evaluate` reads them). A suit's length is a bit count; a point count is a sum, over
the ranks that score, of the points of the rank times the cards held in it (one bit count per rank). The
one interpreter (:mod:`dealer.lang.interpret`) reads the tree over :class:`DealReader`, a reader of one
row: values are plain Python ints and bools, and ``&&`` stops at the first item that fails. This is what
lets the everyday run start without numpy (:mod:`dealer.run.quick`); :func:`readable` says whether a
tree is read here.

>>> from random import Random
>>> from dealer.cards.deal import Deal
>>> from dealer.lang.syntax import SPEC_DIALECT, parse_condition, parse_expression
>>> deal = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT98.JT 765.765.765.8765 432.432.432.9432").masks
>>> reader = DealReader(script_points(None), Random(1))
>>> reader.evaluate(parse_expression("hcp(north) + top3(north, spades) * 100 + losers(east)", SPEC_DIALECT), deal)
348
>>> reader.evaluate(parse_condition("shape(south, 3334) && hascard(west, 2S)"), deal)
True
"""

from __future__ import annotations

from functools import cache
from random import Random
from typing import TYPE_CHECKING, Any, Sequence

from dealer.lang.expr import (
    Cond, HandCount, HasCard, Hcp, Imps, Length, Node, Random as RandomNode, Score, ShapeIn, SuitHcp, walk_once,
)
from dealer.lang.interpret import STRUCTURE, Reader, interpret

if TYPE_CHECKING:
    from dealer.lang.statements import ScriptSyntax

__all__ = ["DealReader", "Points", "readable", "script_points", "ALT_DEFAULTS", "STANDARD_POINTS", "ONE_DEAL_COUNTS"]

#: ``hcp``'s points by rank, ace first: 4-3-2-1.
STANDARD_POINTS: tuple[int, ...] = (4, 3, 2, 1) + (0,) * 9
#: The default alternate counts ``pt0``..``pt9``, ace first: tens, jacks, queens, kings, aces,
#: top2 (AK), top3, top4, top5 (AKQJT) and c13 (A=6 K=4 Q=2 J=1).
ALT_DEFAULTS: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 0, 1) + (0,) * 8, (0, 0, 0, 1) + (0,) * 9, (0, 0, 1) + (0,) * 10, (0, 1) + (0,) * 11,
    (1,) + (0,) * 12, (1, 1) + (0,) * 11, (1, 1, 1) + (0,) * 10, (1, 1, 1, 1) + (0,) * 9,
    (1, 1, 1, 1, 1) + (0,) * 8, (6, 4, 2, 1) + (0,) * 9,
)
#: The hand counts read on one deal (the others, ``quality``, ``cccc`` and ``ltc``, by tables of holdings).
ONE_DEAL_COUNTS = frozenset({f"pt{i}" for i in range(10)} | {"controls", "losers"})
_CONTROLS = (2, 1) + (0,) * 11
_RANKS = tuple(sum(1 << (13 * suit + rank) for suit in range(4)) for rank in range(13))
_SUITS = tuple(0x1FFF << (13 * suit) for suit in range(4))

#: A script's point tables: ``hcp``'s points by rank (ace first) and the ten alternate counts'.
Points = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]


def script_points(syntax: "ScriptSyntax | None") -> Points:
    """The point tables a script sets (``pointcount``, ``altcount``), the standard ones elsewhere."""
    if syntax is None:
        return STANDARD_POINTS, ALT_DEFAULTS
    alt = list(ALT_DEFAULTS)
    for i, values in syntax.altcounts.items():
        alt[i] = values
    return syntax.pointcount if syntax.pointcount is not None else STANDARD_POINTS, tuple(alt)


@cache
def _scoring(points: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The ranks that score: (points, the rank's cards in the four suits)."""
    return tuple((p, _RANKS[rank]) for rank, p in enumerate(points) if p)


def _counted(points: tuple[int, ...], hand: int) -> int:
    return sum(p * (hand & cards).bit_count() for p, cards in _scoring(points))


def _losers(hand: int, suits: Sequence[int]) -> int:
    """``dealer``'s losers: void 0, singleton 1 less the ace, doubleton 2 less A and K, else 3 less A, K, Q."""
    out = 0
    for suit in suits:
        holding = hand >> (13 * suit) & 0x1FFF
        length = min(holding.bit_count(), 3)
        out += length - (holding & ((1 << length) - 1)).bit_count()
    return out


class DealReader(Reader):
    """Reads the leaves on one deal: lengths and point counts by bit counts, ``hascard`` a bit, ``rnd`` the
    run's random stream (a Python :class:`random.Random`)."""

    one_row = True
    phrase = "cannot be evaluated on one deal"

    def __init__(self, points: Points, rng: Random) -> None:
        self.points, self.alt = points
        self.rng = rng
        self.deal: Sequence[int] = (0, 0, 0, 0)

    def evaluate(self, node: Node, deal: Sequence[int], memo: dict[int, Any] | None = None) -> Any:
        """``node``'s value on ``deal`` (four hand bit-sets): an int, or a bool for a condition."""
        self.deal = deal
        return interpret(node, self, dtype=bool if isinstance(node, Cond) else int, memo=memo)

    def count(self, node: HandCount) -> int:
        """A hand count of :data:`ONE_DEAL_COUNTS` on the deal: over the hand, or in one suit."""
        hand = self.deal[node.seat]
        suits = range(4) if node.suit is None else (int(node.suit),)
        if node.kind == "losers":
            return _losers(hand, suits)
        if node.suit is not None:
            hand &= _SUITS[node.suit]
        points = _CONTROLS if node.kind == "controls" else self.alt[int(node.kind[2:])]
        return _counted(points, hand)

    leaves = {
        Length: lambda r, node, run: (r.deal[node.seat] >> 13 * node.suit & 0x1FFF).bit_count(),
        Hcp: lambda r, node, run: _counted(r.points, r.deal[node.seat]),
        SuitHcp: lambda r, node, run: _counted(r.points, r.deal[node.seat] & _SUITS[node.suit]),
        HandCount: lambda r, node, run: r.count(node),
        ShapeIn: lambda r, node, run: tuple((r.deal[node.seat] & s).bit_count() for s in _SUITS) in node.shapes,
        HasCard: lambda r, node, run: bool(r.deal[node.seat] >> node.card.index & 1),
        RandomNode: lambda r, node, run: int(r.rng.random() * run.number(node.limit)),
    }


def readable(node: Node) -> bool:
    """Whether every node of ``node`` is read on one deal (no double-dummy solver, no table of holdings)."""
    for n in walk_once(node):
        kind = type(n)
        if kind is HandCount:
            if n.kind not in ONE_DEAL_COUNTS:  # type: ignore[attr-defined]
                return False
        elif kind not in DealReader.leaves and (kind not in STRUCTURE or kind in (Imps, Score)):
            return False
    return True
