"""An independent, deliberately simple oracle for the exact dealer.

Nothing here uses the dealer's own counting code (``dealer.tables.automaton``,
``dealer.tables.engine``, ``dealer.tables.exact``) nor the vectorised ``Cond.mask``: only
the card vocabulary (cards, card sets, seats, suits, shape sets) and the
spec / condition data classes, which are read node by node and evaluated on
concrete hands (or on a concrete (shape, HCP) class) by :func:`eval_cond`.

Counters
--------
* :func:`brute_force_count` / :func:`brute_force_tally`: enumerate every
  completion of the predealt cards (every way to give each free card to a
  seat with room for it) and test each seat on its final 13 cards.
* :func:`single_seat_count`: one constrained seat, no predeal. Pavlicek's
  method: a hand is its honours (AKQJ, 2**16 subsets) plus, in each suit,
  ``length - honours`` of the nine spot cards; a class (shape, HCP) holds
  ``sum over honour sets with that HCP of prod_s C(9, l_s - h_s)`` hands.
* :func:`single_seat_count_by_holdings`: the same count found a second way,
  from the 8192 holdings of each suit (this one also handles forbidden
  cards, predealt cards, holding filters/weights and blocked cards).
* :func:`two_seat_hcp_count`: two seats constrained by HCP only: share out
  the 16 honours rank by rank, then the 36 spot cards by binomials.
* :func:`two_seat_shape_count`: two seats constrained by shape only:
  ``sum over shape pairs of prod_s C(13, a_s) * C(13 - a_s, b_s)``.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from math import comb, factorial
from typing import Callable, Iterator, Mapping, Sequence

from dealer.cards.card import HCP_BY_INDEX
from dealer.cards.cardset import CardSet
from dealer.lang.evaluate import LTC
from dealer.lang.expr import (
    Always, And, Arith, Compare, Cond, Const, Expr, HandCount, HasCard, Hcp, Length, Node, Not, Or, ShapeIn, SuitHcp,
)
from dealer.cards.seat import Seat
from dealer.cards.shapes import ALL_SHAPES
from dealer.spec.spec import DealSpec, SeatSpec
from dealer.cards.suit import Suit

__all__ = [
    "Features", "eval_expr", "eval_cond", "hand_weight", "class_ok", "pattern_of",
    "iter_completions", "brute_force_count", "brute_force_tally", "brute_force_count_fn",
    "single_seat_count", "single_seat_count_by_holdings", "single_seat_table",
    "two_seat_hcp_count", "two_seat_shape_count", "multinomial", "check_deal_masks",
    "feature_value", "MAX_FREE", "holding_feature", "deal_value", "deal_function",
]

#: The most free cards :func:`brute_force_count` agrees to enumerate.
MAX_FREE = 12
FULL = (1 << 52) - 1
_SUIT13 = (1 << 13) - 1
_HONOR_VALUES = (4, 3, 2, 1)  # A K Q J


# ---------------------------------------------------------------------------
# features of a concrete hand and a home-made condition evaluator
# ---------------------------------------------------------------------------

def hand_shape(mask: int) -> tuple[int, int, int, int]:
    return tuple(((mask >> (13 * s)) & _SUIT13).bit_count() for s in range(4))  # type: ignore[return-value]


# HCP of the four honour bits (A K Q J) of one suit, from the card table itself
_HCP_NIBBLE = tuple(sum(HCP_BY_INDEX[r] for r in range(4) if n >> r & 1) for n in range(16))
assert all(HCP_BY_INDEX[13 * s + r] == 0 for s in range(4) for r in range(4, 13))


def hand_hcp(mask: int) -> int:
    return (_HCP_NIBBLE[mask & 0xF] + _HCP_NIBBLE[mask >> 13 & 0xF]
            + _HCP_NIBBLE[mask >> 26 & 0xF] + _HCP_NIBBLE[mask >> 39 & 0xF])


def pattern_of(shape: Sequence[int]) -> str:
    """``(3, 5, 2, 3)`` -> ``'5-3-3-2'``."""
    return "-".join(str(n) for n in sorted(shape, reverse=True))


class Features:
    """What a condition may look at: a shape and an HCP total, and maybe the actual cards."""

    __slots__ = ("shape", "hcp", "mask")

    def __init__(self, shape: Sequence[int] | None, hcp: int | None, mask: int | None = None) -> None:
        self.shape = None if shape is None else tuple(shape)
        self.hcp = hcp
        self.mask = mask

    @classmethod
    def of_hand(cls, mask: int) -> "Features":
        return cls(hand_shape(mask), hand_hcp(mask), mask)


def eval_expr(expr: Expr, f: Features) -> int:
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Length):
        if f.shape is None:
            raise LookupError("this condition looks at a suit length")
        return f.shape[int(expr.suit)]
    if isinstance(expr, SuitHcp):
        if f.mask is None:
            raise LookupError("hcp(seat, suit) needs the actual cards")
        return hand_hcp(f.mask & (_SUIT13 << (13 * int(expr.suit))))
    if isinstance(expr, Hcp):
        if f.hcp is None:
            raise LookupError("this condition looks at HCP")
        return f.hcp
    if isinstance(expr, Arith):
        a, b = eval_expr(expr.left, f), eval_expr(expr.right, f)
        if expr.op == "+":
            return a + b
        if expr.op == "-":
            return a - b
        if expr.op == "*":
            return a * b
        raise ValueError(f"unknown operator {expr.op!r}")
    raise TypeError(f"unknown expression node {expr!r}")


def eval_cond(cond: Cond, f: Features) -> bool:
    if isinstance(cond, Always):
        return bool(cond.value)
    if isinstance(cond, Compare):
        a, b = eval_expr(cond.left, f), eval_expr(cond.right, f)
        op = cond.op
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        if op == ">=":
            return a >= b
        raise ValueError(f"unknown comparison {op!r}")
    if isinstance(cond, ShapeIn):
        if f.shape is None:
            raise LookupError("this condition looks at the shape")
        return f.shape in cond.shapes
    if isinstance(cond, HasCard):
        if f.mask is None:
            raise LookupError("hascard needs the actual cards")
        return bool(f.mask >> cond.card.index & 1)
    if isinstance(cond, And):
        return all(eval_cond(c, f) for c in cond.items)
    if isinstance(cond, Or):
        return any(eval_cond(c, f) for c in cond.items)
    if isinstance(cond, Not):
        return not eval_cond(cond.item, f)
    raise TypeError(f"unknown condition node {cond!r}")


def class_ok(ss: SeatSpec, shape: Sequence[int] | None, hcp: int | None) -> bool:
    """Whether a hand of this (shape, HCP) class meets the seat's length/shape/HCP/condition constraints.

    ``shape`` or ``hcp`` may be None when the seat's constraints do not look
    at it (a LookupError is raised if they do).
    """
    f = Features(shape, hcp)
    for suit, (lo, hi) in ss.lengths.items():
        if shape is None:
            raise LookupError("lengths need the shape")
        if not lo <= shape[int(suit)] <= hi:
            return False
    if ss.shapes is not None:
        if shape is None:
            raise LookupError("shapes need the shape")
        if tuple(shape) not in ss.shapes:
            return False
    if ss.hcp is not None:
        if hcp is None:
            raise LookupError("an HCP range needs the HCP")
        if not ss.hcp[0] <= hcp <= ss.hcp[1]:
            return False
    if ss.condition is not None and not eval_cond(ss.condition, f):
        return False
    return True


def _as_weight(value: object) -> int | Fraction:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, Fraction)):
        return value
    raise TypeError(f"holding weight must be bool, int or Fraction, got {value!r}")


def hand_weight(ss: SeatSpec, mask: int) -> int | Fraction:
    """The weight of dealing this 13-card hand (given as a mask) to a seat with spec ``ss``: 0 if refused."""
    assert mask.bit_count() == 13, mask
    if ss.predeal.mask & ~mask:
        return 0
    if ss.forbidden.mask & mask:
        return 0
    f = Features.of_hand(mask)
    for suit, (lo, hi) in ss.lengths.items():
        if not lo <= f.shape[int(suit)] <= hi:
            return 0
    if ss.shapes is not None and f.shape not in ss.shapes:
        return 0
    if ss.hcp is not None and not ss.hcp[0] <= f.hcp <= ss.hcp[1]:
        return 0
    if ss.condition is not None and not eval_cond(ss.condition, f):
        return 0
    weight: int | Fraction = 1
    for suit, fn in ss.holdings.items():
        s = int(Suit.parse(suit))
        w = _as_weight(fn(CardSet(mask & (_SUIT13 << (13 * s)))))
        if w == 0:
            return 0
        weight *= w
    return weight


def feature_value(mask: int, feature: str) -> int | str:
    """A seat feature as :meth:`ExactDealer.distribution` names it: ``S H D C hcp pattern``."""
    if feature in ("S", "H", "D", "C"):
        return hand_shape(mask)["SHDC".index(feature)]
    if feature == "hcp":
        return hand_hcp(mask)
    if feature == "pattern":
        return pattern_of(hand_shape(mask))
    raise ValueError(feature)


# ---------------------------------------------------------------------------
# (a) brute force over every completion of the predealt cards
# ---------------------------------------------------------------------------

WeightFn = Callable[[int], "int | Fraction | bool"]


def iter_completions(predeal: Sequence[int], weight_fns: Sequence[WeightFn | None],
                     max_free: int = MAX_FREE) -> Iterator[tuple[tuple[int, int, int, int], int | Fraction]]:
    """Every completion of the predealt masks (N, E, S, W) with nonzero weight, and its weight.

    A completion gives each free card to one seat so that every seat ends
    with 13 cards. A seat's weight function sees its final 13-card mask; the
    weight of a completion is the product (seats with None weigh 1). A seat
    whose weight is 0 stops the enumeration of what lies below it (this only
    skips terms that are 0 anyway).
    """
    assert len(predeal) == 4
    used = 0
    for m in predeal:
        assert m & used == 0, "cards predealt twice"
        assert m.bit_count() <= 13
        used |= m
    free = [i for i in range(52) if not used >> i & 1]
    room = [13 - m.bit_count() for m in predeal]
    assert sum(room) == len(free)
    # the work is the number of completions; allow as many as ``max_free`` cards dealt evenly would give
    budget = multinomial(max_free, [max_free // 4 + (k < max_free % 4) for k in range(4)])
    assert len(free) <= max_free or multinomial(len(free), room) <= budget, (
        f"{len(free)} free cards: too many for brute force")

    def rec(seat: int, remaining: list[int], hands: list[int], weight: int | Fraction):
        if seat == 4:
            yield tuple(hands), weight
            return
        for chosen in itertools.combinations(remaining, room[seat]):
            mask = predeal[seat]
            for i in chosen:
                mask |= 1 << i
            fn = weight_fns[seat]
            w = _as_weight(fn(mask)) if fn is not None else 1
            if w == 0:
                continue
            rest = [i for i in remaining if i not in chosen]
            yield from rec(seat + 1, rest, hands + [mask], weight * w)

    yield from rec(0, free, [], 1)


def _spec_weight_fns(spec: DealSpec) -> tuple[list[int], list[WeightFn | None]]:
    predeal = []
    fns: list[WeightFn | None] = []
    for seat in Seat:
        ss = spec.seats.get(seat)
        if ss is None:
            predeal.append(0)
            fns.append(None)
        else:
            predeal.append(ss.predeal.mask)
            fns.append(functools.partial(hand_weight, ss))
    return predeal, fns


def brute_force_count(spec: DealSpec, max_free: int = MAX_FREE) -> int | Fraction:
    """Sum over every complete deal extending the predeals of the product of the seats' weights."""
    predeal, fns = _spec_weight_fns(spec)
    return sum((w for _, w in iter_completions(predeal, fns, max_free)), 0)


def brute_force_tally(spec: DealSpec, seat: Seat | str, feature: str,
                      max_free: int = MAX_FREE) -> dict[int | str, int | Fraction]:
    """Weighted number of deals by the value of ``feature`` of ``seat``'s hand (zero entries left out)."""
    s = int(Seat.parse(seat))
    predeal, fns = _spec_weight_fns(spec)
    out: dict[int | str, int | Fraction] = {}
    for hands, w in iter_completions(predeal, fns, max_free):
        key = feature_value(hands[s], feature)
        out[key] = out.get(key, 0) + w
    return {k: v for k, v in out.items() if v != 0}


def brute_force_count_fn(predeal: Mapping[Seat, CardSet] | Sequence[int],
                         seat_predicates: Mapping[Seat, Sequence[Callable[[int], bool]]],
                         max_free: int = MAX_FREE) -> int:
    """Brute force with plain per-seat predicates on the final 13-card masks (for text specs)."""
    if isinstance(predeal, Mapping):
        masks = [predeal.get(s, CardSet()).mask for s in Seat]
    else:
        masks = list(predeal)
    fns: list[WeightFn | None] = []
    for seat in Seat:
        preds = list(seat_predicates.get(seat, ()))
        fns.append((lambda m, preds=preds: all(p(m) for p in preds)) if preds else None)
    return sum((w for _, w in iter_completions(masks, fns, max_free)), 0)


def check_deal_masks(spec: DealSpec, row: Sequence[int]) -> str | None:
    """Why a sampled deal (four hand masks N, E, S, W) breaks the spec; None if it is fine."""
    hands = [int(x) for x in row]
    if len(hands) != 4:
        return f"expected 4 hands, got {len(hands)}"
    union = 0
    for seat, m in zip(Seat, hands):
        if m.bit_count() != 13:
            return f"{seat.name} holds {m.bit_count()} cards"
        if m & union:
            return f"{seat.name} shares cards with an earlier seat"
        union |= m
    if union != FULL:
        return "the hands do not cover the deck"
    for seat, m in zip(Seat, hands):
        ss = spec.seats.get(seat)
        if ss is not None and hand_weight(ss, m) == 0:
            return f"{seat.name}'s hand {CardSet(m).to_pbn()} breaks its spec"
    return None


# ---------------------------------------------------------------------------
# (b) one constrained seat, no predeal: Pavlicek's honours-and-spots count
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _honour_groups() -> dict[tuple[tuple[int, int, int, int], int], int]:
    """All 2**16 honour sets grouped by (honours per suit, HCP) -> how many sets."""
    groups: dict[tuple[tuple[int, int, int, int], int], int] = {}
    for bits in range(1 << 16):
        counts = []
        hcp = 0
        for s in range(4):
            nib = bits >> (4 * s) & 0xF
            counts.append(nib.bit_count())
            for r in range(4):
                if nib >> r & 1:
                    hcp += _HONOR_VALUES[r]
        if sum(counts) > 13:
            continue
        key = (tuple(counts), hcp)
        groups[key] = groups.get(key, 0) + 1  # type: ignore[index]
    return groups  # type: ignore[return-value]


@functools.lru_cache(maxsize=None)
def single_seat_table() -> dict[tuple[tuple[int, int, int, int], int], int]:
    """Number of 13-card hands in each (shape, HCP) class, by Pavlicek's method (spec-independent)."""
    by_counts: dict[tuple[int, int, int, int], dict[int, int]] = {}
    for (counts, hcp), n in _honour_groups().items():
        by_counts.setdefault(counts, {})[hcp] = n
    table: dict[tuple[tuple[int, int, int, int], int], int] = {}
    for shape in ALL_SHAPES:
        for counts, hcps in by_counts.items():
            ways = 1
            for length, honours in zip(shape, counts):
                spots = length - honours
                if not 0 <= spots <= 9:
                    ways = 0
                    break
                ways *= comb(9, spots)
            if not ways:
                continue
            for hcp, n in hcps.items():
                key = (shape, hcp)
                table[key] = table.get(key, 0) + n * ways
    return table


def single_seat_count(seat_spec: SeatSpec) -> int | Fraction:
    """Hands one seat may be dealt (= ``count_constrained()`` of a spec with only this seat).

    Plain length/shape/HCP/condition specs are counted with Pavlicek's
    honours-and-spots table; forbidden cards or holding filters send the
    count to :func:`single_seat_count_by_holdings`.
    """
    assert not seat_spec.predeal, "single_seat_count takes no predeal"
    if seat_spec.forbidden or seat_spec.holdings:
        return single_seat_count_by_holdings(seat_spec)
    return sum(n for (shape, hcp), n in single_seat_table().items() if class_ok(seat_spec, shape, hcp))


def single_seat_count_by_holdings(seat_spec: SeatSpec, blocked: int = 0) -> int | Fraction:
    """Weighted number of 13-card hands for one seat, from each suit's 8192 holdings.

    Each holding of each suit is tried on its own: it must hold the seat's
    predealt cards of that suit, none of its forbidden or ``blocked`` cards,
    and it is weighted by the seat's holding filter for the suit. Holdings
    are grouped by (length, HCP); the four suits are then combined shape by
    shape, and each (shape, HCP) class kept if the seat's conditions accept it.
    """
    pre, forb = seat_spec.predeal.mask, seat_spec.forbidden.mask
    assert pre & blocked == 0
    per_suit: list[dict[int, dict[int, int | Fraction]]] = []
    for s in range(4):
        fn = seat_spec.holdings.get(Suit(s))
        table: dict[int, dict[int, int | Fraction]] = {}
        for h in range(1 << 13):
            mask = h << (13 * s)
            if pre & (_SUIT13 << (13 * s)) & ~mask:
                continue
            if mask & (forb | blocked):
                continue
            w = _as_weight(fn(CardSet(mask))) if fn is not None else 1
            if w == 0:
                continue
            length, hcp = h.bit_count(), hand_hcp(mask)
            row = table.setdefault(length, {})
            row[hcp] = row.get(hcp, 0) + w
        per_suit.append(table)
    total: int | Fraction = 0
    for shape in ALL_SHAPES:
        dist: dict[int, int | Fraction] = {0: 1}
        for s in range(4):
            row = per_suit[s].get(shape[s])
            if not row:
                dist = {}
                break
            new: dict[int, int | Fraction] = {}
            for p, a in dist.items():
                for q, b in row.items():
                    new[p + q] = new.get(p + q, 0) + a * b
            dist = new
        for hcp, n in dist.items():
            if class_ok(seat_spec, shape, hcp):
                total += n
    return total


def multinomial(total: int, parts: Sequence[int]) -> int:
    assert sum(parts) == total and all(p >= 0 for p in parts)
    out = factorial(total)
    for p in parts:
        out //= factorial(p)
    return out


# ---------------------------------------------------------------------------
# (c) two constrained seats, no predeal
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _two_seat_honours() -> dict[tuple[int, int, int, int], int]:
    """Ways to share the 16 honours among seat 1, seat 2 and the rest, by (h1, hcp1, h2, hcp2).

    Rank by rank: of the four cards of a rank, ``a`` go to seat 1 and ``b`` to
    seat 2, in ``4! / (a! b! (4-a-b)!)`` ways.
    """
    options = [(a, b, multinomial(4, (a, b, 4 - a - b))) for a in range(5) for b in range(5 - a)]
    out: dict[tuple[int, int, int, int], int] = {}
    for choice in itertools.product(options, repeat=4):
        h1 = h2 = p1 = p2 = 0
        ways = 1
        for value, (a, b, n) in zip(_HONOR_VALUES, choice):
            h1 += a
            h2 += b
            p1 += a * value
            p2 += b * value
            ways *= n
        if h1 > 13 or h2 > 13:
            continue
        key = (h1, p1, h2, p2)
        out[key] = out.get(key, 0) + ways
    return out


def two_seat_hcp_count(spec1: SeatSpec, spec2: SeatSpec) -> int:
    """Ways to deal two seats whose constraints look at HCP only (the rest stays undealt)."""
    total = 0
    for (h1, p1, h2, p2), ways in _two_seat_honours().items():
        if not class_ok(spec1, None, p1) or not class_ok(spec2, None, p2):
            continue
        spots1, spots2 = 13 - h1, 13 - h2
        total += ways * comb(36, spots1) * comb(36 - spots1, spots2)
    return total


def two_seat_shape_count(spec1: SeatSpec, spec2: SeatSpec) -> int:
    """Ways to deal two seats whose constraints look at shape only (the rest stays undealt)."""
    shapes1 = [s for s in ALL_SHAPES if class_ok(spec1, s, None)]
    shapes2 = [s for s in ALL_SHAPES if class_ok(spec2, s, None)]
    total = 0
    for a in shapes1:
        for b in shapes2:
            ways = 1
            for x, y in zip(a, b):
                if x + y > 13:
                    ways = 0
                    break
                ways *= comb(13, x) * comb(13 - x, y)
            total += ways
    return total


# ---------------------------------------------------------------------------
# counts of one suit's holding and conditions on four concrete hands

#: How the script language names the alternate counts ``pt5`` .. ``pt9``.
_ALT_NAMES = {"pt5": "top2", "pt6": "top3", "pt7": "top4", "pt8": "top5", "pt9": "c13"}


@functools.cache
def holding_feature(kind: str, h: int) -> int:
    """A count of the 13-bit holding ``h`` (bit 0 the ace), from its ranks, as the ``dealer`` manual
    defines it: ``hcp``, ``controls``, ``length``, ``top2`` .. ``top5``, ``losers``, ``c13`` and the
    fork's ``ltc`` (read from its table by the three highest cards)."""
    ranks = [i for i in range(13) if h >> i & 1]
    if kind == "hcp":
        return sum(4 - r for r in ranks if r < 4)
    if kind == "controls":
        return sum(2 - r for r in ranks if r < 2)
    if kind == "length":
        return len(ranks)
    if kind.startswith("top"):
        return sum(1 for r in ranks if r < int(kind[3:]))
    if kind == "losers":
        if not ranks:
            return 0
        top = {0, 1, 2} if len(ranks) >= 3 else {0, 1} if len(ranks) == 2 else {0}
        return min(len(ranks), 3) - len(top & set(ranks))
    if kind == "c13":
        return sum((6, 4, 2, 1)[r] for r in ranks if r < 4)
    if kind == "ltc":
        top = "".join("AKQJT"[r] if r < 5 else "x" for r in ranks)[:3]
        return LTC[top.ljust(3, "-")]
    raise AssertionError(f"the oracle has no count {kind!r}")


def _suit_of(mask: int, suit: int) -> int:
    return mask >> (13 * suit) & _SUIT13


@functools.lru_cache(maxsize=1 << 16)  # bounded: brute force meets millions of hands in a run
def _hand_feature(kind: str, hand: int, suits: tuple[int, ...]) -> int:
    """``kind`` summed over the hand's ``suits`` (cached: brute force meets the same hands again and again)."""
    return sum(holding_feature(kind, _suit_of(hand, j)) for j in suits)


_COMPARE = {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__, ">": int.__gt__,
            ">=": int.__ge__}


def deal_value(node: Node, hands: Sequence[int]) -> int:
    """The value of ``node`` on four hands (N, E, S, W masks): the oracle's own evaluator."""
    return deal_function(node)(hands)


DealFn = Callable[[Sequence[int]], int]


def deal_function(node: Node) -> DealFn:
    """``node`` as a function of four hands (N, E, S, W masks), read node by node once: for brute force,
    which asks it of every deal."""
    return _compile(node)


def _compile(node: Node) -> DealFn:
    """``node`` as a function of four hands, read node by node once (brute force calls it on every deal)."""
    if isinstance(node, Const):
        return lambda hands, v=node.value: v
    if isinstance(node, (Hcp, HandCount)):
        kind = "hcp" if isinstance(node, Hcp) else _ALT_NAMES.get(node.kind, node.kind)
        suits = (0, 1, 2, 3) if isinstance(node, Hcp) or node.suit is None else (int(node.suit),)
        return lambda hands, seat=node.seat: _hand_feature(kind, hands[seat], suits)
    if isinstance(node, SuitHcp):
        return lambda hands, seat=node.seat, j=int(node.suit): holding_feature("hcp", _suit_of(hands[seat], j))
    if isinstance(node, HasCard):
        return lambda hands, seat=node.seat, i=node.card.index: hands[seat] >> i & 1
    if isinstance(node, Length):
        return lambda hands, seat=node.seat, j=int(node.suit): _suit_of(hands[seat], j).bit_count()
    if isinstance(node, ShapeIn):
        return lambda hands, seat=node.seat, shapes=node.shapes: int(hand_shape(hands[seat]) in shapes)
    if isinstance(node, Arith):
        left, right, op = _compile(node.left), _compile(node.right), node.op
        return lambda hands: {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}[op](left(hands), right(hands))
    if isinstance(node, Compare):
        left, right, compare = _compile(node.left), _compile(node.right), _COMPARE[node.op]
        return lambda hands: int(compare(left(hands), right(hands)))
    if isinstance(node, (And, Or)):
        items, join = [_compile(x) for x in node.items], all if isinstance(node, And) else any
        return lambda hands: int(join(f(hands) for f in items))
    if isinstance(node, Not):
        item = _compile(node.item)
        return lambda hands: int(not item(hands))
    raise AssertionError(f"the oracle does not read {node}")
