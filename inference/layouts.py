"""Layouts of the unseen cards consistent with the play: exact counts, exact odds, exact sampling.

A *layout* assigns every unseen card to a concealed seat, lawfully (hand sizes, voids). Three views:

* **lawful** - every lawful layout counts once;
* **agreement** - the lawful layouts where the agreement view's claim holds (the inferences whose tags
  are in the policy, after the conflict policy);
* **weighted** - every lawful layout, weighted by the product over inferences of a likelihood that
  depends on the inference's tag and on whether its claim holds in the layout: by default 1 for an
  agreement-consistent reading, 1/2 for an unspecified one, 1/20 for an inconsistent one; a claim
  that does not hold counts as inconsistent; a group (the readings of a lead) weighs a layout by the
  reading that holds in it.

How: suit by suit, every way of sharing the suit's unseen cards among the concealed seats is grouped
by the features the claims read (and the seats' counts and HCP), with its multiplicity. A forward
pass over the suits counts the ways to reach each state; each final state gets its weight (the claims
are evaluated on its features); a backward pass sums weights. Odds are read off the edges, sampling
walks the suits choosing edges in proportion to their exact weight (Python integers, no floating
point) and then one of the group's card assignments uniformly. Nothing is rejected.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm
from typing import Any, Mapping, Sequence, cast

import numpy as np

from dealer import CARDS, Card, CardSet, Deal, DealerError, Seat
from dealer.checks import check_int, shown
from dealer.rng import RandomSource, make_rng

from .claims import And, Claim
from .errors import InconsistentCardsError, InvalidArgumentError
from .features import Feature, FeatureValues, Kind, evaluate, features_of
from .inferences import (
    DEFAULT_POLICY, Inference, InferenceState, Status, Tag, agreement_claim, agreement_units, parse_policy,
)
from .joint import feature_values, hcp_caps, state_columns, value_classes
from .kernel import assignments, holding_of, join_counts, popcount13, suit_feature, unique_rows
from .position import Position

__all__ = ["View", "Odds", "LayoutSpace", "DEFAULT_WEIGHTS", "VIEWS", "MAX_LAYOUTS_AT_ONCE", "layout_space"]

VIEWS = ("lawful", "agreement", "weighted")
#: The most layouts one call returns in memory (draw more in batches with one generator: the stream continues).
MAX_LAYOUTS_AT_ONCE = 1_000_000
#: Likelihood of an action given a layout, by the tag of the reading that holds in it.
DEFAULT_WEIGHTS: Mapping[Tag, Fraction] = {
    Tag.CONSISTENT: Fraction(1), Tag.UNSPECIFIED: Fraction(1, 2), Tag.INCONSISTENT: Fraction(1, 20)}


@dataclass(frozen=True)
class View:
    """Which layouts count and how much: ``kind`` lawful, agreement or weighted."""

    kind: str = "lawful"
    policy: frozenset[Tag] = frozenset({Tag.CONSISTENT})
    weights: Mapping[Tag, Fraction] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in VIEWS:
            raise InvalidArgumentError(f"invalid view {shown(self.kind)}: expected one of {', '.join(VIEWS)}")
        object.__setattr__(self, "policy", parse_policy(self.policy))
        if self.weights is not None:
            if not isinstance(self.weights, Mapping):
                raise InvalidArgumentError(f"invalid weights {shown(self.weights)}: expected {{tag: Fraction}}")
            weights = {}
            for tag, w in self.weights.items():
                if isinstance(w, bool) or not isinstance(w, (int, Fraction)) or w < 0:
                    raise InvalidArgumentError(f"invalid weight {shown(w)} for {shown(tag)}: expected an int or a "
                                               "Fraction >= 0 (exact: no floats)")
                weights[Tag.parse(tag)] = Fraction(w)
            object.__setattr__(self, "weights", weights)


@dataclass(frozen=True)
class Odds:
    """Exact odds in a view, as Fractions. Seats are the concealed ones.

    ``layouts`` is the number of layouts the view counts (in the weighted view, those of non-zero
    weight); ``weight`` is the view's total weight (equal to ``layouts`` except in the weighted view).
    """

    layouts: int
    weight: "int | Fraction"
    holder: dict[Card, dict[Seat, Fraction]]
    length: dict[Seat, dict[int, dict[int, Fraction]]]  # seat -> suit -> length -> probability
    hcp: dict[Seat, dict[int, Fraction]]
    split: dict[int, dict[tuple[int, ...], Fraction]]  # suit -> (dealt lengths of the concealed seats) -> p

    def as_json(self) -> dict[str, Any]:
        """``{"layouts": int, "weight": "n/d", "holder": {card: {seat: "n/d"}}, "length": {seat: {suit: {n: "n/d"}}},
        "hcp": {seat: {n: "n/d"}}, "split": {suit: {"a-b": "n/d"}}}``."""
        def frac(p: Fraction) -> str:
            return f"{p.numerator}/{p.denominator}"

        suits = "SHDC"
        return {
            "layouts": self.layouts,
            "weight": frac(Fraction(self.weight)),
            "holder": {str(c): {s.name: frac(p) for s, p in by.items()} for c, by in sorted(self.holder.items())},
            "length": {s.name: {suits[t]: {str(n): frac(p) for n, p in sorted(d.items())} for t, d in by.items()}
                       for s, by in self.length.items()},
            "hcp": {s.name: {str(h): frac(p) for h, p in sorted(d.items())} for s, d in self.hcp.items()},
            "split": {suits[t]: {"-".join(map(str, k)): frac(p) for k, p in sorted(d.items(), reverse=True)}
                      for t, d in self.split.items()},
        }


@lru_cache(maxsize=512)
def _suit_groups(unseen_suit: int, k: int, void: tuple[bool, ...], bases: tuple[int, ...],
                 specs: tuple[tuple[str, int, int], ...], hcp_seats: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Assignments of a suit's unseen cards to ``k`` seats, grouped by features.

    ``specs`` are (kind, seat index, bit) of the per-suit features wanted. Returns (group key rows:
    counts of the first k-1 seats, HCP of the first ``hcp_seats`` seats, spec features; group index of
    each assignment; assignment masks (rows, k)).
    """
    masks = assignments(unseen_suit, k, void)
    if not len(masks):
        return np.zeros((0, 0), dtype=np.int64), np.zeros(0, dtype=np.int64), masks
    dealt = masks | np.array(bases, dtype=np.int64)[None, :]
    cols = [popcount13(masks[:, i]) for i in range(k - 1)]
    cols += [suit_feature(Kind.HCP, 0, dealt[:, i]) for i in range(hcp_seats)]
    for kind, seat_i, bit in specs:
        cols.append(suit_feature(kind, bit, dealt[:, seat_i]))
    table = np.stack(cols, axis=1)
    groups, index = unique_rows(table, return_inverse=True)
    return groups, index, masks


def _sum_by(keys: np.ndarray, weights: np.ndarray, size: int) -> list[int]:
    """Exact sums of ``weights`` (int64 or Python ints) grouped by small non-negative integer ``keys``."""
    out = np.zeros(size, dtype=weights.dtype)
    np.add.at(out, keys, weights)
    return [int(x) for x in out]


class LayoutSpace:
    """The layouts of a position's unseen cards in one view: counts, odds and samples, all exact."""

    def __init__(self, position: Position, view: View = View(), inferences: Sequence[Inference] = (),
                 claims: Mapping[str, Sequence[Claim]] | None = None,
                 states: Mapping[str, InferenceState] | None = None, agreement: Claim | None = None,
                 *, exact_hcp: Seat | None = None) -> None:
        self.position = position
        self.view = view
        self._args = (inferences, claims, states, agreement)
        self._hcp_spaces: dict[Seat, LayoutSpace] = {}
        pos = position
        seats = pos.concealed
        if not seats:
            raise InvalidArgumentError("no concealed seat: every card is known")
        self.seats = seats
        k = len(seats)
        self.k = k
        vac = [13 - pos.known[s].bit_count() for s in seats]
        self.vacancy = vac
        # the claims the view reads, each a function of the final state's features
        weighted_claims: list[tuple[Claim, Fraction, Fraction]] = []  # claim, weight if true, weight if false
        group_members: dict[str, list[tuple[Claim, Fraction]]] = {}
        weights = {**DEFAULT_WEIGHTS, **(view.weights or {})}  # a tag left out keeps its default
        filter_claim: Claim | None = None
        if view.kind == "agreement":
            filter_claim = agreement if agreement is not None else And(())
        elif view.kind == "weighted":
            for inf in inferences:
                st = (states or {}).get(inf.name)
                if st is None or st.status == Status.SUPERSEDED:
                    continue
                claim = (claims or {})[inf.name][st.level]
                if inf.group:
                    group_members.setdefault(inf.group, []).append((claim, weights[inf.tag]))
                elif inf.weight is not None:  # a measured likelihood ratio (inference.auction): true vs false
                    weighted_claims.append((claim, Fraction(inf.weight).limit_denominator(10 ** 6), Fraction(1)))
                else:
                    weighted_claims.append((claim, weights[inf.tag], weights[Tag.INCONSISTENT]))
        all_claims = [c for c, _, _ in weighted_claims] + [c for ms in group_members.values() for c, _ in ms]
        if filter_claim is not None:
            all_claims.append(filter_claim)
        keys = sorted({key for c in all_claims for key in features_of(c) if key.seat in seats}, key=str)
        # with two concealed hands the state carries the first one's HCP (the other's is the rest); with
        # three, only the HCP the claims read (clamped where they only compare it with constants), and
        # each hand's HCP odds come from a space that carries that hand's exact HCP (``exact_hcp``)
        self.hcp_cols = 1 if k == 2 else 0
        joint = And(tuple(all_claims))
        caps = {} if self.hcp_cols else {key: cap for key, cap in hcp_caps(joint).items() if key.seat != exact_hcp}
        classes = value_classes(joint)
        if exact_hcp is not None and not self.hcp_cols and Feature.hcp(exact_hcp) not in keys:
            keys.append(Feature.hcp(exact_hcp))
        spec_cols: list[Feature] = []  # the claims' features of concealed seats carried in the state
        self.caps: list[tuple[int, int]] = []  # (state column, cap)
        for key in keys:
            if key.kind == Kind.HCP:
                if not self.hcp_cols:  # three hands: a column for this hand's HCP, over every suit
                    if key in caps:
                        self.caps.append((len(spec_cols), caps[key]))
                    spec_cols.append(key)
                continue
            spec_cols.append(key)
        self.spec_cols = spec_cols
        # state columns: counts of seats 0..k-2, the first seat's HCP when k == 2, the claims' features
        self.caps = [((k - 1) + self.hcp_cols + j, cap) for j, cap in self.caps]
        width = (k - 1) + self.hcp_cols + len(spec_cols)
        self.width = width
        self.groups: list[np.ndarray] = []
        self.members: list[tuple[np.ndarray, np.ndarray]] = []  # per suit: (group index of each assignment, masks)
        self.layers: list[np.ndarray] = [np.zeros((1, width), dtype=np.int64)]
        self.links: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # per suit: src, group, dst
        self.mult: list[np.ndarray] = []
        for s in range(4):
            suit_specs = [j for j, f in enumerate(spec_cols) if f.suit in (s, -1)]
            specs = tuple((spec_cols[j].kind.value, seats.index(spec_cols[j].seat), spec_cols[j].bit)
                          for j in suit_specs)
            void = tuple(pos.void(seat, s) for seat in seats)
            bases = tuple(holding_of(pos.known[seat], s) for seat in seats)
            groups, index, masks = _suit_groups(pos.unseen_in(s), k, void, bases, specs, self.hcp_cols)
            if not len(groups):
                raise InconsistentCardsError(f"no lawful layout: no concealed hand can take the unseen "
                                             f"{('spades', 'hearts', 'diamonds', 'clubs')[s]}")
            mult = np.bincount(index, minlength=len(groups)).astype(np.int64)
            contrib = np.zeros((len(groups), width), dtype=np.int64)
            lead = (k - 1) + self.hcp_cols
            contrib[:, :lead] = groups[:, :lead]
            for pos_in_suit, j in enumerate(suit_specs):
                values = groups[:, lead + pos_in_suit]
                table = classes.get(spec_cols[j])
                contrib[:, lead + j] = values if table is None else table[values]
            self.groups.append(contrib)
            self.members.append((index, masks))
            self.mult.append(mult)
        # a state's columns are sums of the suits' (non-negative) contributions: pack each state into
        # one int64 key (mixed radix) when the key space fits, so joining and merging are 1-D
        spans = sum(g.max(axis=0) for g in self.groups) + 1
        for col, cap in self.caps:
            spans[col] = min(int(spans[col]), cap + 1)
        packed = float(np.prod(spans.astype(np.float64))) < 2.0 ** 62
        radix = np.concatenate([np.cumprod(spans[::-1])[::-1][1:], [1]]).astype(np.int64) if packed else None
        prev_key = np.zeros(1, dtype=np.int64)
        for s in range(4):
            contrib = self.groups[s]
            prev = self.layers[s]
            # join each state with the groups that keep every seat able to reach its vacant places:
            # after this suit a seat holds at most its vacancy, and at least the vacancy less the
            # later suits' unseen cards it may take (so dead states are never built)
            later = [sum(pos.unseen_in(t).bit_count() for t in range(s + 1, 4) if not pos.void(seat, t))
                     for seat in seats]
            src, grp = join_counts(prev, contrib, vac, later, what="the layouts") if k > 1 else (
                np.repeat(np.arange(len(prev)), len(contrib)), np.tile(np.arange(len(contrib)), len(prev)))
            counts = prev[src, :k - 1] + contrib[grp, :k - 1]
            ok = np.ones(len(src), dtype=bool)
            for i in range(1, k - 1):
                ok &= (counts[:, i] <= vac[i]) & (counts[:, i] >= vac[i] - later[i])
            dealt = sum(pos.unseen_in(t).bit_count() for t in range(s + 1))
            last = dealt - counts.sum(axis=1)
            ok &= (last <= vac[-1]) & (last >= vac[-1] - later[-1])
            src, grp = src[ok], grp[ok]
            if self.caps:  # clamped columns: the sums are formed, clamped, then packed
                combo = prev[src] + contrib[grp]
                for col, cap in self.caps:
                    np.minimum(combo[:, col], cap, out=combo[:, col])
                if radix is not None:
                    prev_key, first, dst = np.unique(combo @ radix, return_index=True, return_inverse=True)
                    dst = dst.reshape(-1)
                    nxt = combo[first]
                else:
                    nxt, dst = unique_rows(combo, return_inverse=True)
            elif radix is not None:
                keys = cast(Any, prev_key[src] + contrib[grp] @ radix)
                prev_key, first, dst = np.unique(cast(np.ndarray, keys), return_index=True, return_inverse=True)
                dst = dst.reshape(-1)
                nxt = prev[src[first]] + contrib[grp[first]]
            else:
                nxt, dst = unique_rows(prev[src] + contrib[grp], return_inverse=True)
            self.links.append((src, grp, dst))
            self.layers.append(nxt)
        final = self.layers[4]
        accept = np.ones(len(final), dtype=bool)
        for i in range(k - 1):
            accept &= final[:, i] == vac[i]
        value = self._values(final)
        n = len(final)
        # integer weight of each final state: the product of one integer factor per claim (the claim's
        # likelihood times a per-claim scale), the scales multiplied into ``self.scale``
        factors: list[np.ndarray] = []
        scale = 1
        if filter_claim is not None and accept.any():
            accept &= evaluate(filter_claim, value, n).astype(bool)
        for claim, w_true, w_false in weighted_claims:
            truth = evaluate(claim, value, n).astype(bool)
            d = lcm(w_true.denominator, w_false.denominator)
            factors.append(np.where(truth, int(w_true * d), int(w_false * d)).astype(np.int64))
            scale *= d
        for members in group_members.values():
            hit = np.full(n, len(members), dtype=np.int64)
            for j, (claim, _) in reversed(list(enumerate(members))):
                hit = np.where(evaluate(claim, value, n).astype(bool), j, hit)
            ws = [w for _, w in members] + [weights[Tag.INCONSISTENT]]
            d = lcm(*(w.denominator for w in ws))
            factors.append(np.array([int(w * d) for w in ws], dtype=np.int64)[hit])
            scale *= d
        bound = 1
        for f in factors:
            bound *= max(1, int(f.max()) if len(f) else 1)
        final_weight: np.ndarray = accept.astype(np.int64) if bound < 2 ** 62 else accept.astype(object)
        for f in factors:
            final_weight = final_weight * (f if final_weight.dtype != object else f.astype(object))
        # keep the integers small: divide weights and scale by their common factor
        common = scale
        for w in np.unique(final_weight).tolist():
            common = gcd(common, int(w))
            if common == 1:
                break
        if common > 1:
            final_weight = final_weight // common
            scale //= common
        self.scale = scale
        # forward counts (ways to reach each state), backward weights (weighted ways to finish): int64
        # when a floating-point pass shows every value (and every layer's sum) stays below 2**60
        self.dtype = object if self._overflows(final_weight) else np.int64
        self.final_weight = final_weight.astype(self.dtype)
        self.forward: list[np.ndarray] = [np.ones(1, dtype=self.dtype)]
        for s in range(4):
            src, grp, dst = self.links[s]
            f = np.zeros(len(self.layers[s + 1]), dtype=self.dtype)
            np.add.at(f, dst, self.forward[s][src] * self.mult[s][grp].astype(self.dtype))
            self.forward.append(f)
        self.backward: list[np.ndarray] = [np.zeros(0, dtype=self.dtype)] * 5
        self.backward[4] = self.final_weight
        for s in range(3, -1, -1):
            src, grp, dst = self.links[s]
            b = np.zeros(len(self.layers[s]), dtype=self.dtype)
            np.add.at(b, src, self.mult[s][grp].astype(self.dtype) * self.backward[s + 1][dst])
            self.backward[s] = b
        self.total_scaled: int = int(self.backward[0][0])
        self._cum: dict[int, tuple[list[int], list[int], list[int]]] = {}
        self._csr_cache: dict[int, Any] = {}
        self._members_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def _overflows(self, final_weight: np.ndarray) -> bool:
        """Whether some count or weighted sum might not fit in int64 (checked in floating point)."""
        limit = 2.0 ** 60
        unseen = self.position.unseen.bit_count()
        widest = max(len(layer) for layer in self.layers)
        if float(self.k) ** unseen * float(final_weight.max(initial=1)) * widest < limit:
            # a count is at most k ** (cards dealt so far), a weighted completion k ** (cards left) times
            # the largest weight, and a layer's sum at most its number of states times that
            return False
        fwd = [np.ones(1)]
        for s in range(4):
            src, grp, dst = self.links[s]
            f = np.zeros(len(self.layers[s + 1]))
            np.add.at(f, dst, fwd[s][src] * self.mult[s][grp])
            fwd.append(f)
            if f.sum() >= limit:
                return True
        back = final_weight.astype(np.float64)
        if back.sum() >= limit or (fwd[4] * back).sum() >= limit:
            return True
        for s in range(3, -1, -1):
            src, grp, dst = self.links[s]
            b = np.zeros(len(self.layers[s]))
            np.add.at(b, src, self.mult[s][grp] * back[dst])
            if b.sum() >= limit or (fwd[s] * b).sum() >= limit:
                return True
            back = b
        return False

    def _values(self, rows: np.ndarray) -> FeatureValues:
        """The feature reader over state rows (see :func:`~inference.joint.feature_values`)."""
        seats, k = self.seats, self.k
        column = state_columns(self.spec_cols, (k - 1) + self.hcp_cols)
        for i in range(self.hcp_cols):
            column[Feature.hcp(seats[i])] = k - 1 + i
        base = feature_values(rows, column, self.position)
        if self.hcp_cols != k - 1:
            return base
        # every seat but the last carries its HCP: the last one's is what is left
        pos = self.position
        total_hcp = CardSet(pos.unseen).hcp + sum(CardSet(pos.known[s_]).hcp for s_ in seats)

        def value(key: Feature) -> np.ndarray:
            if key == Feature.hcp(seats[-1]):
                return total_hcp - sum((rows[:, k - 1 + i] for i in range(self.hcp_cols)),
                                       np.zeros(len(rows), dtype=np.int64))
            return base(key)

        return value

    def _hcp_space(self, seat: Seat) -> "LayoutSpace":
        """The same layouts, with ``seat``'s exact HCP in the state (three concealed hands)."""
        space = self._hcp_spaces.get(seat)
        if space is None:
            inferences, claims, states, agreement = self._args
            space = LayoutSpace(self.position, self.view, inferences, claims, states, agreement, exact_hcp=seat)
            self._hcp_spaces[seat] = space
        return space

    # -- counts and odds ------------------------------------------------------------------
    def count(self) -> "int | Fraction":
        """Number of layouts (weighted sum in the weighted view)."""
        value = Fraction(self.total_scaled, self.scale)
        return int(value) if value.denominator == 1 else value

    def support(self) -> int:
        """Number of layouts of non-zero weight (in the lawful and agreement views, :meth:`count`)."""
        return int(sum(int(x) for x in self.forward[4][self.final_weight > 0]))

    @property
    def empty(self) -> bool:
        return self.total_scaled == 0

    def odds(self) -> Odds:
        """Exact odds: who holds each unseen card, each concealed seat's dealt lengths and HCP, suit splits."""
        if self.empty:
            raise InconsistentCardsError("no layout in this view: it is empty")
        pos = self.position
        total = self.total_scaled
        holder: dict[Card, dict[Seat, Fraction]] = {}
        length: dict[Seat, dict[int, dict[int, Fraction]]] = {seat: {} for seat in self.seats}
        split: dict[int, dict[tuple[int, ...], Fraction]] = {}
        for s in range(4):
            src, grp, dst = self.links[s]
            edge = self.forward[s][src] * self.backward[s + 1][dst]
            per_group = np.zeros(len(self.groups[s]), dtype=self.dtype)
            np.add.at(per_group, grp, edge)
            index, masks = self.members[s]
            # weight of each assignment = weight of its group / 1 (every member of a group is equally likely)
            member_w = per_group[index]
            unseen_s = [b for b in range(13) if (pos.unseen >> (13 * s)) >> b & 1]
            bits = np.array(unseen_s, dtype=np.int64)
            for i, seat in enumerate(self.seats):
                has = (masks[:, i, None] >> bits[None, :]) & 1  # (assignments, unseen cards of the suit)
                if self.dtype is object:
                    held = [int(member_w[has[:, j].astype(bool)].sum()) for j in range(len(bits))]
                else:
                    held = (member_w @ has).tolist()
                for b, w in zip(unseen_s, held):
                    holder.setdefault(CARDS[13 * s + b], {})[seat] = Fraction(int(w), total)
            counts = np.stack([popcount13(masks[:, i]) for i in range(self.k)], axis=1)
            base = np.array([holding_of(pos.known[seat], s).bit_count() for seat in self.seats])
            radix = 14 ** np.arange(self.k, dtype=np.int64)
            by_split = _sum_by((counts + base[None, :]) @ radix, member_w, 14 ** self.k)
            split[s] = {}
            by_len: list[dict[int, int]] = [{} for _ in self.seats]
            for code, w in enumerate(by_split):
                if w:
                    key = tuple(code // 14 ** i % 14 for i in range(self.k))
                    split[s][key] = Fraction(w, total)
                    for i, n in enumerate(key):
                        by_len[i][n] = by_len[i].get(n, 0) + w
            for i, seat in enumerate(self.seats):
                length[seat][s] = {n: Fraction(w, total) for n, w in sorted(by_len[i].items())}
        hcp: dict[Seat, dict[int, Fraction]] = {}
        for seat in self.seats:
            space = self if self.hcp_cols == self.k - 1 else self._hcp_space(seat)
            fw = space.forward[4] * space.final_weight
            value = space._values(space.layers[4])
            by_h = _sum_by(np.asarray(value(Feature.hcp(seat)), dtype=np.int64), fw, 38)
            hcp[seat] = {h: Fraction(w, space.total_scaled) for h, w in enumerate(by_h) if w}
        return Odds(self.support(), self.count(), holder, length, hcp, split)

    # -- sampling ------------------------------------------------------------------------------
    def _choices(self, s: int, state: int) -> tuple[list[int], list[int], list[int]]:
        key = s * 10 ** 9 + state
        cached = self._cum.get(key)
        if cached is None:
            src, grp, dst = self.links[s]
            sel = np.nonzero(src == state)[0]
            weights = (self.mult[s][grp[sel]].astype(object) * self.backward[s + 1][dst[sel]]).tolist()
            cum = []
            acc = 0
            for w in weights:
                acc += int(w)
                cum.append(acc)
            cached = (cum, grp[sel].tolist(), dst[sel].tolist())
            self._cum[key] = cached
        return cached

    def _csr(self, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Suit ``s``'s edges by source state, with cumulative int64 weights (None if they do not fit)."""
        cached = self._csr_cache.get(s)
        if cached is not None or s in self._csr_cache:
            return cached
        src, grp, dst = self.links[s]
        order = np.argsort(src, kind="stable")
        if self.dtype is object:
            w = self.mult[s][grp].astype(object) * self.backward[s + 1][dst]
            if len(w) and sum(int(x) for x in w) >= 2 ** 62:
                self._csr_cache[s] = None
                return None
            w64 = np.array([int(x) for x in w[order]], dtype=np.int64)
        else:  # the layer's backward weights sum below 2**60 (checked when the space was built)
            w64 = (self.mult[s][grp] * self.backward[s + 1][dst])[order]
        cum = np.cumsum(w64)
        starts = np.searchsorted(src[order], np.arange(len(self.layers[s]) + 1))
        base = np.concatenate([[0], cum])[starts[:-1]]
        totals = np.concatenate([[0], cum])[starts[1:]] - base
        result = (cum, base, totals, grp[order], dst[order])
        self._csr_cache[s] = result
        return result

    def _sample_fast(self, n: int, gen: np.random.Generator) -> np.ndarray | None:
        """Vectorised exact sampling when every weight fits in 63 bits."""
        tables = [self._csr(s) for s in range(4)]
        if any(t is None for t in tables):
            return None
        hands = np.zeros((n, 4), dtype=np.int64)
        for seat in range(4):
            hands[:, seat] = self.position.known[seat]
        state = np.zeros(n, dtype=np.int64)
        for s in range(4):
            cum, base, totals, grp, dst = tables[s]  # type: ignore[misc]
            r = gen.integers(0, totals[state], dtype=np.int64)
            edge = np.searchsorted(cum, base[state] + r, side="right")
            g = grp[edge]
            state = dst[edge]
            index, masks = self.members[s]
            order, starts = self._member_index(s)
            size = starts[g + 1] - starts[g]
            pick = order[starts[g] + gen.integers(0, size, dtype=np.int64)]
            for i, seat in enumerate(self.seats):
                hands[:, seat] |= masks[pick, i] << (13 * s)
        return hands.astype(np.uint64)

    def _member_index(self, s: int) -> tuple[np.ndarray, np.ndarray]:
        cached = self._members_cache.get(s)
        if cached is None:
            index, _ = self.members[s]
            order = np.argsort(index, kind="stable")
            starts = np.searchsorted(index[order], np.arange(len(self.groups[s]) + 1))
            cached = (order, starts)
            self._members_cache[s] = cached
        return cached

    def sample_masks(self, n: int, seed: RandomSource = None) -> np.ndarray:
        """``n`` layouts as an ``(n, 4)`` uint64 array of *dealt* hands (N, E, S, W; known cards included).

        Exact: each layout is drawn with probability its weight over the total, with integer
        arithmetic only (vectorised while the weights fit in 63 bits, Python integers beyond).
        """
        check_int(n, "the number of layouts", InvalidArgumentError, lo=0, hi=MAX_LAYOUTS_AT_ONCE)
        if self.empty:
            raise InconsistentCardsError("no layout in this view: it is empty")
        try:
            gen = make_rng(seed)
        except DealerError as exc:
            raise InvalidArgumentError(str(exc)) from None
        fast = self._sample_fast(n, gen)
        if fast is not None:
            return fast
        # exact weights beyond 64 bits: Python integers, drawn from a stream seeded by the generator
        rng = random.Random(int(gen.integers(0, 2 ** 63)))
        out = np.zeros((n, 4), dtype=np.uint64)
        for seat in range(4):
            out[:, seat] = np.uint64(self.position.known[seat])
        # group members by group index, per suit (for a uniform pick inside a group)
        members_by_group = []
        for s in range(4):
            index, masks = self.members[s]
            order = np.argsort(index, kind="stable")
            starts = np.searchsorted(index[order], np.arange(len(self.groups[s]) + 1))
            members_by_group.append((order, starts, masks))
        seat_ids = [int(seat) for seat in self.seats]
        known = list(self.position.known)
        mask_lists = [(order.tolist(), starts.tolist(), masks.tolist()) for order, starts, masks in members_by_group]
        rows_out = []
        for _ in range(n):
            state = 0
            hands = list(known)
            for s in range(4):
                cum, grps, dsts = self._choices(s, state)
                j = bisect.bisect_right(cum, rng.randrange(cum[-1]))
                g, state = grps[j], dsts[j]
                order, starts, masks = mask_lists[s]
                pick = order[starts[g] + rng.randrange(starts[g + 1] - starts[g])]
                for i, seat in enumerate(seat_ids):
                    hands[seat] |= masks[pick][i] << (13 * s)
            rows_out.append(hands)
        if rows_out:
            out[:] = np.array(rows_out, dtype=np.uint64)
        return out

    def sample(self, n: int, seed: RandomSource = None) -> list[Deal]:
        """``n`` complete deals (every seat's 13 dealt cards) drawn exactly from the view."""
        return [Deal.from_masks([int(x) for x in row]) for row in self.sample_masks(n, seed)]


def layout_space(position: Position, inferences: Sequence[Inference], claims: Mapping[str, Sequence[Claim]],
                 states: Mapping[str, InferenceState], viewer: Seat, view: "str | View" = "lawful", *,
                 policy: "frozenset[Tag] | None" = None, weights: "Mapping[Tag, Fraction] | None" = None
                 ) -> LayoutSpace:
    """The layouts of a position's unseen cards in a view (see :class:`View`).

    ``claims`` holds each inference's claim and fallbacks, parsed; ``states`` its standing now. In the
    agreement view, when the claims can all hold (the space is not empty) the conflict policy has
    nothing to decide; otherwise it decides, and the view is built on its claim.
    """
    v = view if isinstance(view, View) else View(view, parse_policy(policy), weights)
    parsed = {name: tuple(cs) for name, cs in claims.items()}
    live = dict(states)
    if v.kind != "agreement":
        return LayoutSpace(position, v, inferences, parsed, live)
    units = agreement_units(inferences, parsed, live, v.policy, viewer)
    space = LayoutSpace(position, v, inferences, parsed, live, And(tuple(c for _, _, c in units)))
    if not space.empty or not units:
        return space
    agreement, _, _ = agreement_claim(position, inferences, parsed, live, v.policy, viewer)
    return LayoutSpace(position, v, inferences, parsed, live, agreement)
