"""Splitting conditions joined by ``&&`` into what each seat's tables hold.

:meth:`~dealer.spec.spec.DealSpec.from_conditions` hands its conditions here. Each is looked at alone:

* ``hascard(seat, card)`` is a predealt card, ``!hascard`` a forbidden one;
* a condition on one seat's holding in one suit (``hcp(north, spades) >= 3``, ``top3(north, spades)
  >= 2 || spades(north) >= 6``) is a filter on the holding (:class:`~dealer.spec.holding.HoldingTable`);
* any other condition on one seat goes into the seat's (shape, count) classes, with HCP or one other
  count of card values on the classes' axis and, beside it, a side count
  (:mod:`dealer.spec.sidecount`): a second whole-hand count that sums a value per suit (``losers``) and
  the parts of the condition that read one suit's holding only (``top4(east, clubs) < 2`` inside an
  ``||`` with the shape);
* what is left (conditions across seats, a third whole-hand count, ``tricks``...) is refused, or
  appended to ``residual`` for the caller to deal another way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from dealer.arrays import unique_rows
from dealer.budget import current
from dealer.cards.cardset import CardSet
from dealer.lang.evaluate import STANDARD, Counts, cccc_shape
from dealer.errors import ImpossibleSpecError, UnsupportedSpecError
from dealer.lang.expr import (
    Always, And, Compare, Cond, Const, HandCount, HasCard, Hcp, Length, Node, Not, Or, Pos, ShapeIn, SuitHcp, walk,
)
from dealer.lang.grid import GRID, MAX_HCP, grid_mask
from dealer.lang.interpret import STRUCTURAL, Interpreter, Reader, interpret
from dealer.spec.holding import HOLDINGS, HoldingTable
from dealer.cards.seat import Seat
from dealer.spec.cross import grid_reads, seat_parts
from dealer.spec.sidecount import SideCount, SideFeature, replace_nodes
from dealer.cards.suit import Suit

__all__ = ["SeatParts", "split_conditions", "points_fit", "holding_values"]


@dataclass(frozen=True)
class SeatParts:
    """What one seat's tables get from the conditions (the fields of a :class:`~dealer.spec.spec.SeatSpec`)."""

    predeal: CardSet = field(default_factory=CardSet)
    forbidden: CardSet = field(default_factory=CardSet)
    condition: Cond | None = None
    holdings: dict[Suit, Callable[[CardSet], Any]] = field(default_factory=dict)
    points: tuple[int, ...] | None = None
    side: SideCount | None = None


def points_fit(points: tuple[int, ...]) -> bool:
    """True when a count (13 values, ace first) fits the tables: >= 0, at most 10 a suit, 37 a hand."""
    return (len(points) == 13 and all(isinstance(v, int) and v >= 0 for v in points) and sum(points) <= 10
            and sum(sorted(points * 4, reverse=True)[:13]) <= MAX_HCP)


def _contains(cond: Node, kinds: tuple[type, ...]) -> bool:
    return any(isinstance(node, kinds) for node in walk(cond))


def _gather(root: Node, take: Callable[[Node], bool]) -> list[Node]:
    """The highest nodes below ``root`` (or ``root``) that ``take`` accepts, left to right, each once."""
    out: list[Node] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if take(node):
            out.append(node)
        else:
            stack.extend(reversed(node.children()))
    return out


def _flatten(cond: Cond) -> list[Cond]:
    """The conjuncts of ``cond``, each once (a part joined to itself twice is one conjunct)."""
    return [c for c in _gather(cond, lambda n: not isinstance(n, And)) if isinstance(c, Cond)]


Reads = tuple[frozenset[tuple[Seat, Suit]], frozenset[tuple[Seat, Suit]]] | None


def _reads(node: Node, memo: dict[int, Reads]) -> Reads:
    """The (seat, suit) holdings ``node`` reads and the lengths it reads; None if it reads anything else."""
    key = id(node)
    if key in memo:
        return memo[key]
    out: Reads
    if isinstance(node, SuitHcp) or (isinstance(node, HandCount) and node.suit is not None
                                     and node.kind not in ("quality", "cccc")):
        assert node.suit is not None
        out = frozenset({(node.seat, node.suit)}), frozenset()
    elif isinstance(node, HasCard):
        out = frozenset({(node.seat, node.card.suit)}), frozenset()
    elif isinstance(node, Length):
        out = frozenset(), frozenset({(node.seat, node.suit)})
    elif isinstance(node, STRUCTURAL):
        keys: frozenset[tuple[Seat, Suit]] = frozenset()
        lengths: frozenset[tuple[Seat, Suit]] = frozenset()
        out = None
        for child in node.children():
            got = _reads(child, memo)
            if got is None:
                break
            keys, lengths = keys | got[0], lengths | got[1]
        else:
            out = keys, lengths
    else:
        out = None
    memo[key] = out
    return out


def _holding_key(node: Node, memo: dict[int, Reads] | None = None) -> tuple[Seat, Suit] | None:
    """The one seat's suit whose holding alone ``node`` reads (its length allowed beside), or None."""
    got = _reads(node, {} if memo is None else memo)
    if got is None or len(got[0]) != 1 or not got[1] <= got[0]:
        return None
    return next(iter(got[0]))


class _HoldingReader(Reader):
    """Reads the leaves over one suit's 8,192 holdings: its length, HCP and other counts (``counts``' tables),
    whether a card is held."""

    phrase = "does not read one suit's holding"
    shape = (HOLDINGS,)

    def __init__(self, counts: Counts) -> None:
        self.counts = counts

    def _card(self, node: HasCard, run: Interpreter) -> np.ndarray:
        return (np.arange(HOLDINGS, dtype=np.int64) >> (node.card.index % 13)) & 1

    leaves = {
        SuitHcp: lambda r, node, run: r.counts.table("hcp"),
        HandCount: lambda r, node, run: r.counts.table(node.kind),
        Length: lambda r, node, run: r.counts.table("length"),
        HasCard: _card,
    }


def holding_values(node: Node, counts: Counts = STANDARD) -> np.ndarray:
    """The value of ``node`` (which reads one suit's holding only) on each of the suit's 8,192 holdings (int64,
    a condition as 1 or 0).

    >>> from dealer.lang.syntax import parse_condition
    >>> v = holding_values(parse_condition("hcp(north, spades) >= 3 || hascard(north, S2)"))
    >>> int(v[0b1]), int(v[0b10]), int(v[1 << 12])   # the ace; the king; the two
    (1, 1, 1)
    """
    return np.asarray(interpret(node, _HoldingReader(counts), dtype=np.int64))


def _suit_filter(cond: Cond, counts: Counts) -> tuple[Seat, Suit, HoldingTable] | None:
    """``hcp(north, spades) >= 3``, ``top3(north, spades) >= 2 || spades(north) >= 6``... -> (north, spades,
    the holding's table): any condition on one seat's holding in one suit that reads a count in the suit."""
    key = _holding_key(cond)
    if key is None or isinstance(cond, HasCard):
        return None
    seat, suit = key
    return seat, suit, HoldingTable(int(suit), holding_values(cond, counts) != 0, str(cond))


def _suit_parts(c: Node) -> list[Node]:
    """The largest parts of ``c`` that read one suit's holding only (none when ``c`` reads no holding);
    a part used in several places is listed once."""
    memo: dict[int, Reads] = {}
    return _gather(c, lambda n: _holding_key(n, memo) is not None)


def _family(c: Node) -> set[str] | None:
    """The whole-hand counts ``c`` uses (``hcp``, ``controls``, ``pt6``...); None if it uses one the tables cannot."""
    kinds: set[str] = set()
    for n in walk(c):
        if isinstance(n, Hcp):
            kinds.add("hcp")
        elif isinstance(n, HandCount):
            if n.suit is not None or n.kind == "quality":
                return None
            kinds.add(n.kind)
    return kinds


def _family_points(kind: str, counts: Counts) -> tuple[int, ...] | None:
    if kind == "hcp":
        return counts.points
    if kind == "controls":
        return (2, 1) + (0,) * 11
    if kind.startswith("pt"):
        return counts.alt[int(kind[2:])]
    return None  # losers, ltc: no sum of card values


def _as_hcp(c: Node, kind: str) -> Node:
    """``c`` with the whole-hand count ``kind`` written as ``hcp`` (the seat's table counts it instead)."""
    return replace_nodes(c, lambda n: Hcp(n.seat, pos=n.pos) if isinstance(n, HandCount) and n.kind == kind
                         and n.suit is None else None)


def _caps(conds: list[Cond]) -> dict[tuple[Seat, str], int | None]:
    """Per (seat, whole-hand count), the value from which the conditions tell no total apart (None: every total
    counts): known when each use of the count is compared with a constant."""
    caps: dict[tuple[Seat, str], int | None] = {}
    for top in conds:
        for node in walk(top):
            for child in node.children():
                if not isinstance(child, HandCount) or child.suit is not None:
                    continue
                key = (child.seat, child.kind)
                if key in caps and caps[key] is None:
                    continue
                other = (node.right if child is node.left else node.left) if isinstance(node, Compare) else None
                if isinstance(node, Compare) and isinstance(other, Const):
                    # "x >= c" and "x < c" tell c and up apart from below; the other comparisons c + 1
                    op = node.op if child is node.left else _MIRRORED.get(node.op, node.op)
                    caps[key] = max(other.value + (op not in (">=", "<")), 0, caps.get(key) or 0)
                else:
                    caps[key] = None
    return caps


_MIRRORED = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}


def _side_feature(kind: str, counts: Counts, cap: int | None = None) -> SideFeature | None:
    if kind == "cccc" and cap is not None:  # its shape part (-50 at least) comes beside the total
        cap -= int(cccc_shape(list(GRID.lengths)).min())
    try:
        table = counts.table(kind)
        step = np.gcd.reduce(np.unique(table)) or 1
        feature = SideFeature(table, kind=kind, cap=None if cap is None else -(-cap // int(step)))
    except (ValueError, UnsupportedSpecError):
        return None
    return feature if feature.size <= current().side_totals else None


Plan = tuple[str | None, tuple[SideFeature, ...]]


Blanked = dict[int, tuple[Node, list[Node]]]


def _blanked(c: Node, memo: Blanked) -> tuple[Node, list[Node]]:
    """``c`` with its one-suit parts written as true (a condition) or 0 (a number), and the parts."""
    done = memo.get(id(c))
    if done is None:
        parts = _suit_parts(c)
        ids = {id(p) for p in parts}
        blank = replace_nodes(c, lambda n: (Always(True) if isinstance(n, Cond) else Const(0)) if id(n) in ids
                              else None)
        done = memo[id(c)] = (blank, parts)
    return done


def _count_plan(conds: list[Cond], counts: Counts, side_counts: bool, hcp_seats: frozenset[Seat],
                memo: Blanked, cross_sides: bool = False) -> dict[Seat, Plan]:
    """Per seat, the count its tables' axis holds and the whole-hand count beside it (the side's).

    HCP goes on the axis when a seat reads it (or a condition across seats reads it) and it fits;
    another count of card values when it is the only one; the other counts (``losers``, ``controls``
    beside ``hcp``...) are carried beside, in the side count, while their totals fit together. With
    ``cross_sides``, the counts the parts of conditions across seats read count too.
    """
    used: dict[Seat, set[str]] = {seat: {"hcp"} for seat in hcp_seats}
    for top in conds:
        for c in _flatten(top):
            seats = c.seats()
            if len(seats) == 1:
                used.setdefault(next(iter(seats)), set()).update(_family(_blanked(c, memo)[0]) or set())
            else:  # HCP across seats is counted through the seats' labels: on their axis
                for n in walk(c):
                    if isinstance(n, Hcp):
                        used.setdefault(n.seat, set()).add("hcp")
                for seat, parts in (seat_parts(c).items() if cross_sides else ()):
                    for part in parts:
                        used.setdefault(seat, set()).update(_family(_blanked(part, memo)[0]) or set())
    plan: dict[Seat, Plan] = {}
    caps = _caps(conds)
    for seat, kinds in used.items():
        fitting = sorted(k for k in kinds if (p := _family_points(k, counts)) is not None and points_fit(p))
        axis = "hcp" if "hcp" in fitting else (fitting[0] if fitting else None)
        sides: list[SideFeature] = []
        for kind in sorted(kinds - {axis}) if side_counts else ():
            feature = None if kind == "hcp" and axis is not None else _side_feature(kind, counts,
                                                                                     caps.get((seat, kind)))
            if feature is not None and prod(f.size for f in sides) * feature.size <= current().side_totals:
                sides.append(feature)
        plan[seat] = (axis, tuple(sides))
    return plan


def _on_tables(c: Cond, seat: Seat, plan: Plan, side_counts: bool, memo: Blanked) -> tuple[Cond, list[Node]] | None:
    """``c`` as the seat's tables read it (its axis count written as ``hcp``) and its one-suit parts, or None."""
    axis, sides = plan
    blank, parts = _blanked(c, memo) if side_counts else (c, [])
    kinds = _family(blank)
    if kinds is None or not kinds <= {axis, *(f.kind for f in sides)}:
        return None
    if _contains(blank, (HasCard, SuitHcp)):
        return None
    rewritten = c if axis in (None, "hcp") else _as_hcp(c, axis)
    check = blank if axis in (None, "hcp") else _as_hcp(blank, axis)
    if sides:
        check = replace_nodes(check, lambda n: Const(0) if any(f.reads(n, seat) for f in sides) else None)
    assert isinstance(rewritten, Cond) and isinstance(check, Cond)
    return (rewritten, parts) if _tableable(check) else None


def _refusal(c: Cond, seats: frozenset[Seat]) -> UnsupportedSpecError:
    names = " and ".join(s.name_long for s in sorted(seats))
    if isinstance(c, Or) or _contains(c, (Or,)):
        why = (f"an '||' that joins {names} cannot be dealt exactly: each seat is dealt from "
               "its own table, so conditions on different seats must be joined by '&&'")
    elif isinstance(c, Not):
        why = (f"a '!' over a condition on {names} is an '||' in disguise and cannot be dealt "
               "exactly; state each seat's condition separately, joined by '&&'")
    else:
        why = (f"this condition relates {names} to each other; the exact dealer takes "
               "conditions on one seat at a time, joined by '&&'")
    return UnsupportedSpecError(f"{c.pos}: {c}: {why}")


def _tableable(c: Cond) -> bool:
    """True when a condition on one seat can go into the seat's (shape, HCP) table as it is."""
    if _contains(c, (HasCard, SuitHcp, HandCount)):
        return False
    try:
        grid_mask(c, GRID)
    except UnsupportedSpecError:
        return False
    return True


def _side_of(whole: tuple[SideFeature, ...], taken: list[tuple[Cond, list[Node]]], counts: Counts,
             residual: list[Cond] | None, wanted: Sequence[list[Node]] = ()) -> tuple[list[Cond], SideCount | None]:
    """The conditions a seat's tables keep and its side count: the parts on single suits join, suit by
    suit, while the totals fit; then those of ``wanted`` (the parts on single suits of the seat's parts of
    conditions across seats, each list all or none), while they fit."""
    kept: list[Cond] = []
    by_suit: dict[int, list[tuple[list[Node], np.ndarray]]] = {}  # per suit: (equal parts, their values)

    def size(groups: dict[int, list[tuple[list[Node], np.ndarray]]]) -> int:
        out = prod(f.size for f in whole)
        for rows in groups.values():
            out *= len(unique_rows(np.stack([v for _, v in rows]).T))
        return out

    for c, parts in [*taken, *((None, w) for w in wanted)]:
        more = {suit: list(rows) for suit, rows in by_suit.items()}
        aliases: list[tuple[list[Node], Node]] = []
        for p in parts:
            key = _holding_key(p)
            assert key is not None
            rows = more.setdefault(int(key[1]), [])
            same = next((nodes for nodes, _ in rows if nodes[0] is p or nodes[0] == p), None)
            if same is not None:
                aliases.append((same, p))
            else:
                rows.append(([p], holding_values(p, counts)))
        if size(more) > (most := current().side_totals):
            if c is None:
                continue
            if residual is None:
                raise UnsupportedSpecError(f"{c.pos}: {c}: its parts on single suits, with the seat's other ones, "
                                           f"take more than {most} totals beside the shape")
            residual.append(c)
            continue
        by_suit = more
        for nodes, p in aliases:
            nodes.append(p)
        if c is not None:
            kept.append(c)
    features = list(whole)
    features += [SideFeature(np.stack([v for _, v in rows]), suit=suit, parts=tuple(tuple(n) for n, _ in rows))
                 for suit, rows in sorted(by_suit.items())]
    return kept, (SideCount(tuple(features)) if features else None)


def split_conditions(conds: list[Cond], predeals: Mapping[Seat, tuple[CardSet, Pos]],
                     residual: list[Cond] | None = None, counts: Counts = STANDARD, side_counts: bool = True,
                     hcp_seats: frozenset[Seat] = frozenset(), cross_sides: bool = False) -> dict[Seat, SeatParts]:
    """Each seat's part of ``conds`` (see the module doc); what no table holds goes to ``residual``
    (or raises :class:`~dealer.errors.UnsupportedSpecError` with the reason without one). With
    ``cross_sides``, the side counts carry what the residual's conditions across seats read of each seat
    beyond its shape and HCP, while the totals fit (:meth:`~dealer.spec.spec.DealSpec.from_conditions`)."""
    predeal = {s: c for s, (c, _) in predeals.items()}
    forbidden: dict[Seat, CardSet] = {}
    per_seat: dict[Seat, list[tuple[Cond, list[Node]]]] = {}
    filters: dict[Seat, dict[Suit, list[Callable[[CardSet], Any]]]] = {}
    memo: Blanked = {}
    cross_sides = cross_sides and side_counts
    plan = _count_plan(conds, counts, side_counts, hcp_seats, memo, cross_sides)
    wanted: dict[Seat, list[Node]] = {}  # the parts of conditions across seats the side counts should read
    for top in conds:
        for c in _flatten(top):
            seats = c.seats()
            if not seats and not _contains(c, (HasCard, ShapeIn, Length, Hcp, SuitHcp)):
                if residual is not None and not _tableable(c):
                    residual.append(c)
                    continue
                if not bool(grid_mask(c, GRID)[0]):
                    raise ImpossibleSpecError(f"{c.pos}: the condition {c} is never true: no deal satisfies it")
                continue
            if len(seats) > 1:
                if residual is not None:
                    residual.append(c)
                    for seat, parts in (seat_parts(c).items() if cross_sides else ()):
                        wanted.setdefault(seat, []).extend(p for p in parts if not grid_reads(p))
                    continue
                raise _refusal(c, seats)
            seat = next(iter(seats))
            if isinstance(c, HasCard):
                _never_if(c, c.card in forbidden.get(seat, CardSet())
                          or any(c.card in cards for other, cards in predeal.items() if other != seat))
                predeal[seat] = predeal.get(seat, CardSet()) | CardSet([c.card])
                continue
            if isinstance(c, Not) and isinstance(c.item, HasCard):
                _never_if(c, c.item.card in predeal.get(seat, CardSet()))
                forbidden[seat] = forbidden.get(seat, CardSet()) | CardSet([c.item.card])
                continue
            f = _suit_filter(c, counts)  # any condition on one suit's holding alone is a filter on it
            if f is not None:
                filters.setdefault(seat, {}).setdefault(f[1], []).append(f[2])
                continue
            on_tables = _on_tables(c, seat, plan.get(seat, (None, ())), side_counts, memo)
            if on_tables is not None:
                per_seat.setdefault(seat, []).append(on_tables)
                continue
            if residual is not None:
                residual.append(c)
                continue
            raise UnsupportedSpecError(
                f"{c.pos}: {c}: the exact tables hold one seat's lengths, shape and whole-hand counts (HCP or "
                "another sum of card values, and sums over the suits such as losers, their totals within the "
                "budget's side_totals), with parts on single suits, not this; 'kibitz count' and 'kibitz dealer' "
                "deal it by filtering an exact superset (an estimate)")
    out: dict[Seat, SeatParts] = {}
    for seat in Seat:
        axis, wholes = plan.get(seat, (None, ()))
        taken = per_seat.get(seat, [])
        extra = wanted.get(seat, [])
        read = tuple(f for f in wholes if any(f.reads(n, seat) for c in [*(c for c, _ in taken), *extra]
                                              for n in walk(c)))
        kept, side = _side_of(read, taken, counts, residual, [_blanked(p, memo)[1] for p in extra])
        cond: Cond | None = None
        if kept:
            cond = kept[0] if len(kept) == 1 else And(tuple(kept), pos=kept[0].pos)
        holdings = {suit: _all_of(fns) for suit, fns in filters.get(seat, {}).items()}
        if cond is None and seat not in predeal and seat not in forbidden and not holdings and side is None:
            continue
        points = _family_points(axis, counts) if axis is not None else None
        out[seat] = SeatParts(predeal.get(seat, CardSet()), forbidden.get(seat, CardSet()), cond, holdings,
                              None if points == STANDARD.points else points, side)
    return out


def _never_if(c: Cond, never: bool) -> None:
    """Raise :class:`~dealer.errors.ImpossibleSpecError` when ``never``: a card condition the other conditions or
    the predealt cards make false (the card is elsewhere), so no deal meets the spec."""
    if never:
        raise ImpossibleSpecError(f"{c.pos}: the condition {c} is never true with the others: the card is "
                                  "predealt to, or asked of, another seat")


def _all_of(fns: list[Callable[[CardSet], Any]]) -> Callable[[CardSet], Any]:
    if len(fns) == 1:
        return fns[0]
    tables = [f for f in fns if isinstance(f, HoldingTable)]
    if len(tables) == len(fns):
        table = tables[0]
        for t in tables[1:]:
            table = table & t
        return table

    def combined(holding: CardSet) -> bool:
        return all(f(holding) for f in fns)

    combined.__name__ = " && ".join(getattr(f, "__name__", type(f).__name__) for f in fns)
    return combined
