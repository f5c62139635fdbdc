"""Evaluating expressions of the ``dealer`` language on one deal, card by card, without numpy.

A deal is four hands as 52-bit sets (North, East, South, West; bit ``13 * suit + rank``, the ace rank 0,
as :mod:`dealer.lang.evaluate` reads them). A suit's length is a bit count; a point count is a sum, over
the ranks that score, of the points of the rank times the cards held in it (one bit count per rank). The
one interpreter (:mod:`dealer.lang.interpret`) reads the tree over :class:`DealReader`, a reader of one
row: values are plain Python ints and bools, and ``&&`` stops at the first item that fails. This is what
lets the everyday run start without numpy (:mod:`dealer.run.quick`); :func:`unread` finds what is not read
here.

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

__all__ = ["DealReader", "Points", "unread", "script_points", "holding_values", "cccc_shape_points", "ALT_DEFAULTS",
           "STANDARD_POINTS", "HOLDING_COUNTS", "LTC"]

#: ``hcp``'s points by rank, ace first: 4-3-2-1.
STANDARD_POINTS: tuple[int, ...] = (4, 3, 2, 1) + (0,) * 9
#: The default alternate counts ``pt0``..``pt9``, ace first: tens, jacks, queens, kings, aces,
#: top2 (AK), top3, top4, top5 (AKQJT) and c13 (A=6 K=4 Q=2 J=1).
ALT_DEFAULTS: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 0, 1) + (0,) * 8, (0, 0, 0, 1) + (0,) * 9, (0, 0, 1) + (0,) * 10, (0, 1) + (0,) * 11,
    (1,) + (0,) * 12, (1, 1) + (0,) * 11, (1, 1, 1) + (0,) * 10, (1, 1, 1, 1) + (0,) * 9,
    (1, 1, 1, 1, 1) + (0,) * 8, (6, 4, 2, 1) + (0,) * 9,
)
#: The hand counts valued holding by holding (a table of the 8,192 holdings, built on first use).
HOLDING_COUNTS = ("losers", "quality", "cccc", "ltc")
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


#: The losing trick count of a suit, in hundredths, by its top three cards (``x`` below the ten, ``-``
#: for none): the "modern" count of the dealer fork (DealerV2), with half losers.
LTC: dict[str, int] = {
    **dict.fromkeys(("AKQ", "AK-", "A--", "---"), 0),
    **dict.fromkeys(("AQJ", "AKJ", "AQ-", "K--"), 50),
    **dict.fromkeys(("KQx", "KQT", "KQJ", "AQx", "AQT", "AKx", "AKT", "Kx-", "KT-", "KJ-", "KQ-", "Ax-", "AT-", "AJ-",
                     "x--", "T--", "J--", "Q--"), 100),
    **dict.fromkeys(("KJT", "AJT"), 150),
    **dict.fromkeys(("QJx", "QJT", "Kxx", "KTx", "KJx", "Axx", "ATx", "AJx", "xx-", "Tx-", "Jx-", "JT-", "Qx-", "QT-",
                     "QJ-"), 200),
    **dict.fromkeys(("Qxx", "QTx"), 250),
    **dict.fromkeys(("xxx", "Txx", "Jxx", "JTx"), 300),
}


def _losers(holding: int) -> int:
    """``dealer``'s losers: void 0, singleton 1 less the ace, doubleton 2 less A and K, else 3 less A, K, Q."""
    length = min(holding.bit_count(), 3)
    return length - (holding & ((1 << length) - 1)).bit_count()


def _ltc(holding: int) -> int:
    top = "".join("AKQJT"[i] if i < 5 else "x" for i in range(13) if holding >> i & 1)[:3]
    return LTC[top.ljust(3, "-")]


def _quality(holding: int) -> int:
    """Suit quality times 100, the Bridge World (October 1982) count ``dealer`` uses: each of A K Q J counts 4 3
    2 1 tenths of the length; past six cards the missing Q and J are made up by the extra length; up to six,
    the ten and the nine add a full or half tenth when higher honours back them."""
    length = holding.bit_count()
    a, k, q, j, t, nine, eight = (holding >> i & 1 for i in range(7))
    factor = length * 10
    out = factor * (4 * a + 3 * k + 2 * q + j)
    if length > 6:
        return out + min(3 - 2 * q - j, length - 6) * factor
    higher = a + k + q + j
    ten = (factor if higher > 1 or j else factor // 2) * t
    return out + ten + (factor // 2 if higher == 2 or t or eight else 0) * nine


def _cccc(holding: int) -> int:
    """The honour part of ``cccc`` in one suit, times 100, quality left out."""
    length = holding.bit_count()
    a, k, q, j, t, nine = (holding >> i & 1 for i in range(6))
    out = 300 * a + k * (200 - 150 * (length == 1)) + q * (100 - 75 * (length == 1) - 25 * (length == 2)
                                                           - 25 * (a + k == 0))
    above_j = a + k + q
    out += j * (50 * (above_j == 2) + 25 * (above_j == 1)) + t * (25 * (above_j + j == 2)
                                                                 + 25 * (above_j + j == 1 and nine == 1))
    return out


@cache
def holding_values(kind: str) -> tuple[int, ...]:
    """A count of :data:`HOLDING_COUNTS` for each of the 8,192 holdings of a suit (bit 0 the ace): the one
    definition, which the batches' tables (:mod:`dealer.lang.evaluate`) are built from.

    >>> [holding_values(kind)[0b111] for kind in HOLDING_COUNTS]  # AKQ
    [0, 270, 870, 0]
    """
    if kind == "cccc":  # its honours' part and the suit's quality
        return tuple(_cccc(h) + quality for h, quality in enumerate(holding_values("quality")))
    value = {"losers": _losers, "quality": _quality, "ltc": _ltc}[kind]
    return tuple(value(h) for h in range(1 << 13))


def cccc_shape_points(lengths: Sequence[int]) -> int:
    """The shape part of ``cccc``: 100 a card short of three in a suit, less 100; a flat hand -50."""
    short = sum(max(0, 3 - x) * 100 for x in lengths)
    return -50 if short == 0 else short - 100


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
        """A hand count on the deal: over the hand, or in one suit (``cccc``: the hand's, its shape's part
        added)."""
        hand = self.deal[node.seat]
        if node.kind in HOLDING_COUNTS:
            values = holding_values(node.kind)
            if node.kind == "cccc":
                holdings = [hand >> 13 * suit & 0x1FFF for suit in range(4)]
                return sum(values[h] for h in holdings) + cccc_shape_points([h.bit_count() for h in holdings])
            suits = range(4) if node.suit is None else (int(node.suit),)
            return sum(values[hand >> 13 * suit & 0x1FFF] for suit in suits)
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


def unread(node: Node) -> Node | None:
    """The first part of ``node`` not read on one deal (the double-dummy solver, ``imps``, ``score``), or None.

    >>> from dealer.lang.syntax import parse_condition
    >>> str(unread(parse_condition("hcp(north) > 10 && tricks(north, spades) > 9")))
    'tricks(north, spades)'
    """
    for n in walk_once(node):
        kind = type(n)
        if kind not in DealReader.leaves and (kind not in STRUCTURE or kind in (Imps, Score)):
            return n
    return None
