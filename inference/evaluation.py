"""Exact verdicts on claims over a position's lawful layouts.

:class:`Evaluator` decides a claim exactly: *satisfiable* (true in some lawful
layout) and *valid* (true in every one), and gives the *support* of features
(their extremes where the claim holds). For a claim about one concealed seat
(or two seats when only two are concealed: the other holds the rest), it
enumerates per suit the holdings the seat can have there (subsets of the suit's
unseen cards), keeps only the per-suit features the claim reads, and combines
the suits with the hand-size constraint (packed int64 keys, the first suits'
tables cached by prefix, since a card changes one suit). With three concealed
seats the rows are kept only where the remainder is lawful for the other two;
a claim relating two of three concealed seats goes to the joint pass
(:mod:`inference.joint`). Every feature row kept is reached by some lawful
layout, so the answers are exact.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence, cast

import numpy as np

from dealer import CARDS, Seat
from dealer.arrays import unique_ints

from .claims import Claim, Not, claim_text
from .dealing import dealer_count, dealer_support
from .errors import InconsistentCardsError, InvalidArgumentError, TooComplexError
from .features import Feature, FeatureValues, Kind, evaluate, features_of, hand_value
from .joint import joint_support, random_witness
from .kernel import holding_of, suit_options, unique_rows
from .lawful import Bounds, SeatBounds
from .position import Position, Verdict

__all__ = ["Evaluator", "FeatureTable", "support_bounds"]

#: A table of achievable feature rows of one concealed seat, its column index, and the seat.
FeatureTable = tuple[np.ndarray, dict[tuple[object, ...], int], Seat]
_TOP = {Kind.HONOURS: 5, Kind.ABOVE: 12, Kind.CARD: 1, Kind.SUIT_HCP: 10}


def _column(f: Feature) -> tuple[object, ...]:
    """A per-suit feature's column label in a seat's table (the seat is the table's)."""
    return (f.kind.value, f.arg)


def _contributions(layout: tuple[Any, ...], param: tuple[Any, ...]) -> np.ndarray:
    """One suit's options as rows of the table's columns (see ``Evaluator._table``)."""
    width, _, hcp_needed, hcp_col = layout
    unseen_s, base, a_void, others_void, feats, keep_x, start = param
    specs = ((Kind.HCP.value, 0),) + feats if hcp_needed else feats
    opts = suit_options(unseen_s, base, a_void, others_void, specs)  # (count, [hcp], feats...)
    contrib = np.zeros((len(opts), width), dtype=np.int64)
    contrib[:, 0] = opts[:, 0]
    col = 1
    if hcp_needed:
        contrib[:, hcp_col] = opts[:, 1]
        col = 2
    if keep_x:
        contrib[:, start] = opts[:, 0]
    for j in range(len(feats)):
        contrib[:, start + (1 if keep_x else 0) + j] = opts[:, col + j]
    return contrib


@lru_cache(maxsize=4096)
def _packed_prefix(layout: tuple[Any, ...], params: tuple[tuple[Any, ...], ...], vacancy: int) -> np.ndarray:
    """Packed table keys after the suits in ``params`` (cached by prefix: a card changes one suit)."""
    if not params:
        return np.zeros(1, dtype=np.int64)
    keys = _packed_prefix(layout, params[:-1], vacancy)
    radix = np.array(layout[1], dtype=np.int64)
    ckeys = _contributions(layout, params[-1]) @ radix
    combo = (keys[:, None] + ckeys[None, :]).ravel()
    return unique_ints(combo[combo % 14 <= vacancy])


class Evaluator:
    """Exact verdicts on claims, and feature supports, over a position's lawful layouts."""

    def __init__(self, position: Position) -> None:
        self.position = position
        if len(position.concealed) > 3:
            raise InvalidArgumentError("at most three concealed seats")
        self.vacancy = {s: position.vacancy(s) for s in position.concealed}
        self._tables: dict[tuple[Seat, frozenset[Feature]], FeatureTable] = {}

    # -- the feature table ------------------------------------------------------
    def table(self, keys: frozenset[Feature], a: Seat) -> FeatureTable:
        """Achievable features of concealed seat ``a`` (``keys`` are ``a``'s), as rows; also the column index.

        With three concealed seats the rows are filtered so that the remainder is lawful for the
        other two.
        """
        cached = self._tables.get((a, keys))
        if cached is None:
            cached = self._table(keys, a)
            self._tables[(a, keys)] = cached
        return cached

    def _table(self, keys: frozenset[Feature], a: Seat) -> FeatureTable:
        pos = self.position
        if a not in pos.concealed:
            raise InvalidArgumentError(f"{a.name_long} is not concealed")
        others = tuple(s for s in pos.concealed if s != a)
        three = len(others) == 2
        hcp_needed = any(key.kind == Kind.HCP for key in keys)
        lengths_needed = {key.suit for key in keys if key.kind == Kind.LENGTH}
        per_suit: list[list[tuple[str, int]]] = [[], [], [], []]
        for key in sorted(keys, key=str):
            if key.kind in (Kind.HONOURS, Kind.SUIT_HCP, Kind.ABOVE, Kind.CARD):
                per_suit[key.suit].append((key.kind.value, key.bit))
        # columns: 0 total count, [1 hcp], then per suit: [x_s], other per-suit features
        index: dict[tuple[object, ...], int] = {}
        width = 1
        if hcp_needed:
            index[("hcp",)] = width
            width += 1
        suit_specs = []
        for s in range(4):
            keep_x = three or s in lengths_needed
            feats = tuple(dict.fromkeys(per_suit[s]))
            ncols = 0
            if keep_x:
                index[("x", s)] = width
                ncols += 1
            for kind, bit in feats:
                arg = s * 13 + bit if Kind(kind).of_card else s
                index[(kind, arg)] = width + ncols
                ncols += 1
            suit_specs.append((keep_x, feats, width))
            width += ncols
        # each column's largest value, for packing a row into one int64 key
        top = [13] + ([37] if hcp_needed else [])
        for keep_x, feats, _ in suit_specs:
            top += ([13] if keep_x else []) + [_TOP[Kind(kind)] for kind, _ in feats]
        radix = np.ones(width, dtype=np.int64)
        for c in range(1, width):
            radix[c] = radix[c - 1] * (top[c - 1] + 1)
        packed_ok = float(radix[-1]) * (top[-1] + 1) < 2.0 ** 62
        params = []
        for s, (keep_x, feats, start) in enumerate(suit_specs):
            a_void = pos.void(a, s)
            others_void = all(pos.void(o, s) for o in others) if others else False
            params.append((pos.unseen_in(s), holding_of(pos.known[a], s), a_void, others_void, feats, keep_x, start))
        layout = (width, tuple(int(r) for r in radix), hcp_needed, index.get(("hcp",), 0))
        if packed_ok:
            # the last suit's step keeps only full hands, so it is not worth caching or sorting first
            prefix = _packed_prefix(layout, tuple(params[:3]), self.vacancy[a])
            last = _contributions(layout, params[3]) @ np.array(layout[1], dtype=np.int64)
            combo = (prefix[:, None] + last[None, :]).ravel()
            packed = unique_ints(combo[combo % 14 == self.vacancy[a]])
            rows = (packed[:, None] // radix[None, :]) % (np.array(top, dtype=np.int64) + 1)[None, :]
        else:  # pragma: no cover - only for claims reading very many features
            rows = np.zeros((1, width), dtype=np.int64)
            for s in range(4):
                contrib = _contributions(layout, params[s])
                combo = (rows[:, None, :] + contrib[None, :, :]).reshape(-1, width)
                rows = unique_rows(combo[combo[:, 0] <= self.vacancy[a]])
            rows = rows[rows[:, 0] == self.vacancy[a]]
        if three:
            rows = rows[self._remainder_lawful(rows, index, others)]
        return rows, index, a

    def _remainder_lawful(self, rows: np.ndarray, index: dict[tuple[object, ...], int],
                          others: tuple[Seat, ...]) -> np.ndarray:
        pos = self.position
        j, l_ = others
        ok = np.ones(len(rows), dtype=bool)
        lo = np.zeros(len(rows), dtype=np.int64)
        hi = np.zeros(len(rows), dtype=np.int64)
        for s in range(4):
            rest = pos.unseen_in(s).bit_count() - rows[:, index[("x", s)]]
            j_void, l_void = pos.void(j, s), pos.void(l_, s)
            if j_void and l_void:
                ok &= rest == 0
            lo += rest * (l_void and not j_void)
            hi += rest * (not j_void)
        return ok & (lo <= self.vacancy[j]) & (self.vacancy[j] <= hi)

    def features(self, rows: np.ndarray, index: dict[tuple[object, ...], int], a: Seat) -> FeatureValues:
        """A function from a feature (of any seat) to its values over ``rows`` of ``a``'s table."""
        pos = self.position
        n = len(rows)
        others = tuple(s for s in pos.concealed if s != a)

        def own(key: Feature) -> np.ndarray:
            if key.kind == Kind.LENGTH:
                return rows[:, index[("x", key.suit)]] + holding_of(pos.known[a], key.suit).bit_count()
            if key.kind == Kind.HCP:
                return rows[:, index[("hcp",)]]
            return rows[:, index[_column(key)]]

        def value(key: Feature) -> np.ndarray:
            if key.seat not in pos.concealed:
                return np.full(n, pos.known_value(key), dtype=np.int64)
            if key.seat == a:
                return own(key)
            if len(others) != 1:
                raise InvalidArgumentError(
                    f"with three concealed seats a claim may only speak of one of them ({a.name} here)")
            # the other concealed seat holds every unseen card A does not: its value is the total less A's
            if key.kind == Kind.CARD and not pos.unseen >> key.arg & 1:
                return np.full(n, pos.known_value(key), dtype=np.int64)
            whole = hand_value(key, pos.unseen | pos.known[a] | pos.known[key.seat])
            return whole - own(key.at(a))

        return value

    # -- claims -----------------------------------------------------------------------
    def focus(self, keys: "frozenset[Feature] | set[Feature]") -> Seat:
        """The concealed seat whose holdings are enumerated for these features.

        With two concealed seats either will do (the other holds the rest); with three, the
        features may name only one concealed seat.
        """
        pos = self.position
        if not pos.concealed:
            raise InvalidArgumentError("no concealed seat")
        named = [s for s in pos.concealed if any(k.seat == s for k in keys)]
        if len(pos.concealed) == 3 and len(named) > 1:
            raise InvalidArgumentError(
                "with three concealed seats a claim may speak of only one of them, not "
                + " and ".join(s.name_long for s in named))
        return named[0] if named else pos.concealed[0]

    def _needed(self, keys: "frozenset[Feature] | set[Feature]", a: Seat) -> frozenset[Feature]:
        """Features of seat ``a`` that express ``keys`` (the other concealed seat's, through ``a``'s).

        With three concealed seats the table keeps every suit's length anyway, so it always keeps HCP
        too: then the claims about one seat (an auction's, mostly about lengths and HCP) share one table.
        """
        needed = {key.at(a) for key in keys if key.seat in self.position.concealed}
        if len(self.position.concealed) == 3:
            needed.add(Feature.hcp(a))
        return frozenset(needed)

    def truth(self, claim: Claim) -> np.ndarray:
        """The claim's truth value over every achievable feature row of the position."""
        keys = features_of(claim)
        a = self.focus(keys)
        rows, index, _ = self.table(self._needed(keys, a), a)
        return evaluate(claim, self.features(rows, index, a), len(rows))

    def _joint(self, keys: "frozenset[Feature] | set[Feature]") -> bool:
        named = {key.seat for key in keys if key.seat in self.position.concealed}
        return len(self.position.concealed) == 3 and len(named) > 1

    def satisfiable(self, claim: Claim) -> bool:
        """Exact: is the claim true in some lawful layout?"""
        pos = self.position
        if self._joint(features_of(claim)):
            # a witness proves it at once; only when random layouts find none is the exact pass run
            return random_witness(pos, claim) or bool(_joint_support(pos, claim, [Feature.length(pos.concealed[0], 0)]))
        return bool(self.truth(claim).any())

    def verdict(self, claim: Claim) -> Verdict:
        """Exact: true in some lawful layout? in all of them?"""
        pos = self.position
        if self._joint(features_of(claim)):
            target = [Feature.length(pos.concealed[0], 0)]
            try:
                return Verdict(bool(joint_support(pos, claim, target)), not joint_support(pos, Not(claim), target))
            except TooComplexError:  # the dealer's tables count it exactly, when it can take the claim
                some, every = dealer_count(pos, claim), dealer_count(pos)
                if some is None or every is None:
                    raise
                return Verdict(some > 0, some == every)
        t = self.truth(claim)
        return Verdict(bool(t.any()), bool(t.all()) and len(t) > 0)

    def support(self, claim: Claim, features: Sequence[Feature]) -> dict[Feature, tuple[int, int]]:
        """Min and max of each feature over the lawful layouts where ``claim`` holds (empty if none)."""
        keys = set(features_of(claim)) | set(features)
        if self._joint(keys):
            return _joint_support(self.position, claim, features)
        a = self.focus(keys)
        rows, index, _ = self.table(self._needed(keys, a), a)
        value = self.features(rows, index, a)
        t = evaluate(claim, value, len(rows))
        if not t.any():
            return {}
        return {f: (int(value(f)[t].min()), int(value(f)[t].max())) for f in features}


def support_bounds(position: Position, claim: Claim, lawful: Bounds) -> Bounds:
    """Tight bounds of every concealed seat over the lawful layouts where ``claim`` holds.

    Raises :class:`~inference.errors.InconsistentCardsError` when no lawful layout satisfies it.
    """
    concealed = lawful.concealed
    named = {key.seat for key in features_of(claim) if key.seat in concealed}
    targets = {seat: [Feature.length(seat, s) for s in range(4)] + [Feature.hcp(seat)] for seat in concealed}
    everything: dict[Feature, tuple[int, int]] = {}
    joint = len(concealed) == 3 and len(named) > 0
    if joint:
        everything = _joint_support(position, claim, [f for seat in concealed for f in targets[seat]])
    ev = Evaluator(position)
    seats = []
    for seat in concealed:
        support = everything if joint else ev.support(claim, targets[seat])
        if not support:
            raise InconsistentCardsError(f"no lawful layout satisfies the agreement view: {claim_text(claim)}")
        length = tuple(support[Feature.length(seat, s)] for s in range(4))
        seats.append((seat, SeatBounds(length, support[Feature.hcp(seat)])))  # type: ignore[arg-type]
    return Bounds(tuple(seats), lawful.holders)


def _joint_support(position: Position, claim: Claim, targets: Sequence[Feature]) -> dict[Feature, tuple[int, int]]:
    """:func:`~inference.joint.joint_support`, or the exact dealer's answer where the joint pass is refused."""
    try:
        return joint_support(position, claim, targets)
    except TooComplexError:
        answer = dealer_support(position, claim, targets)
        if answer is None:
            raise
        return answer
