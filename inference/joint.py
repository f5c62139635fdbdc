"""Claims over several concealed hands at once, exactly: the joint pass.

With three hands concealed (before dummy is seen) or a claim relating two
hands, the suits' unseen cards are shared among the concealed seats jointly.
:func:`joint_support` walks the suits forward over states (cards each seat
holds so far, the features the claim reads so far), keeps the states from which
the claim can be met, and reads off the extremes of target features.
:func:`random_witness` tries random lawful layouts first: one that satisfies a
claim proves it satisfiable at once.

State columns carry only what the claim can tell apart: an HCP total the claim
only compares with constants is clamped (:func:`hcp_caps`), a suit's length or
honours only by which side of each constant it falls (:func:`value_classes`).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from dealer import Seat
from dealer.cardset import SUIT_MASK
from dealer.grid import COMPARE

from .claims import Claim, Compare, Const, Hcp, Honours, Length, iter_atoms
from .features import Feature, FeatureValues, Kind, evaluate, features_of
from .kernel import assignments, holding_of, join_counts, popcount13, suit_feature, unique_rows
from .position import Position

__all__ = [
    "constant_comparisons", "hcp_caps", "value_classes", "random_witness", "joint_support", "state_columns",
    "feature_values",
]

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _bare(expr: object) -> Feature | None:
    if isinstance(expr, Hcp):
        return Feature.hcp(expr.seat)
    if isinstance(expr, Length):
        return Feature.length(expr.seat, expr.suit)
    if isinstance(expr, Honours):
        return Feature.honours(expr.seat, expr.suit)
    return None


def constant_comparisons(claim: Claim) -> dict[Feature, set[tuple[str, int]]]:
    """The features a claim reads only as ``feature op constant``: feature -> {(op, constant)}.

    A feature that appears anywhere else (in a sum, a relation between features, ``longest``,
    ``rank``, ``shape``) is left out: its exact value matters.
    """
    found: dict[Feature, set[tuple[str, int]]] = {}
    spoiled: set[Feature] = set()
    for atom in iter_atoms(claim):
        if not isinstance(atom, Compare):
            spoiled.update(features_of(atom))
            continue
        for side, other, op in ((atom.left, atom.right, atom.op), (atom.right, atom.left, _FLIP[atom.op])):
            key = _bare(side)
            if key is not None and isinstance(other, Const):
                found.setdefault(key, set()).add((op, int(other.value)))
            elif not isinstance(side, Const):
                spoiled.update(features_of(side))
    return {key: tests for key, tests in found.items() if key not in spoiled}


def hcp_caps(claim: Claim) -> dict[Feature, int]:
    """For each HCP feature the claim only compares with constants: one more than the largest.

    HCP totals are sums of non-negative per-suit parts, so a running total can be clamped at the cap
    without changing any comparison: ``min(a + b, cap) == min(min(a, cap) + b, cap)``.
    """
    return {key: max(max(c for _, c in tests), 0) + 1
            for key, tests in constant_comparisons(claim).items() if key.kind == Kind.HCP}


def value_classes(claim: Claim) -> dict[Feature, np.ndarray]:
    """For each suit-local feature (a suit's length or honours) read only against constants: a table
    mapping each value 0..13 to the smallest value every comparison of the claim treats alike."""
    out: dict[Feature, np.ndarray] = {}
    for key, tests in constant_comparisons(claim).items():
        if key.kind == Kind.HCP:
            continue
        signature: dict[tuple[bool, ...], int] = {}
        table = np.zeros(14, dtype=np.int64)
        for v in range(14):
            sig = tuple(bool(COMPARE[op](v, c)) for op, c in sorted(tests))
            table[v] = signature.setdefault(sig, v)
        out[key] = table
    return out


def state_columns(features: Sequence[Feature], start: int) -> dict[Feature, int]:
    """Feature -> column of a joint pass's state rows, for state features laid out from column ``start``."""
    return {f: c for c, f in enumerate(features, start=start)}


def feature_values(rows: np.ndarray, column: Mapping[Feature, int], pos: Position) -> FeatureValues:
    """The feature reader :func:`~inference.features.evaluate` needs: a state column where there is one,
    else the value of the seat's known cards (a visible hand, or what is known of a concealed one),
    the same on every row."""
    n = len(rows)

    def value(key: Feature) -> np.ndarray:
        if key in column:
            return rows[:, column[key]]
        return np.full(n, pos.known_value(key), dtype=np.int64)

    return value


def random_witness(position: Position, claim: Claim, n: int = 4096, seed: int = 0) -> bool:
    """True if one of ``n`` random lawful layouts satisfies ``claim`` (a proof); False proves nothing.

    Deterministic (a fixed seed), so a status never depends on the run. Layouts that break a void
    shown are dropped (they are not lawful).
    """
    pos = position
    seats = pos.concealed
    cards = np.array([i for i in range(52) if pos.unseen >> i & 1], dtype=np.int64)
    vac = [pos.vacancy(s) for s in seats]
    if len(cards) != sum(vac) or not len(cards):
        return False
    labels = np.repeat(np.arange(len(seats)), vac)
    rng = np.random.default_rng(seed)
    perm = rng.permuted(np.broadcast_to(labels, (n, len(labels))), axis=1)
    bits = np.left_shift(np.int64(1), cards)
    dealt = {seat: (perm == i).astype(np.int64) @ bits | pos.known[seat] for i, seat in enumerate(seats)}
    ok = np.ones(n, dtype=bool)
    for seat in seats:
        for s in range(4):
            if pos.void(seat, s):
                ok &= (dealt[seat] >> (13 * s) & SUIT_MASK) == holding_of(pos.known[seat], s)
    if not ok.any():
        return False
    hands = {seat: dealt[seat][ok] for seat in seats}
    m = int(ok.sum())

    def value(key: Feature) -> np.ndarray:
        if key.seat not in hands:
            return np.full(m, pos.known_value(key), dtype=np.int64)
        hand = hands[key.seat]
        if key.kind == Kind.HCP:
            return sum((suit_feature(Kind.HCP, 0, hand >> (13 * s) & SUIT_MASK) for s in range(4)),
                       np.zeros(m, dtype=np.int64))
        return suit_feature(key.kind, key.bit, hand >> (13 * key.suit) & SUIT_MASK)

    return bool(evaluate(claim, value, m).any())


def _unseen_count(pos: Position, suits: range, seat: Seat | None = None) -> int:
    return sum(pos.unseen_in(t).bit_count() for t in suits if seat is None or not pos.void(seat, t))


def joint_support(position: Position, claim: Claim, targets: Sequence[Feature]) -> dict[Feature, tuple[int, int]]:
    """Min and max of each target feature over the lawful layouts where ``claim`` holds (empty if none).

    Exact for any claim over any concealed seats: each suit's unseen cards are assigned to the
    concealed seats in every lawful way, grouped by the features the claim needs; a forward pass
    over the suits finds the reachable states (cards held so far, features so far), a backward pass
    keeps those from which the claim can be met, and the targets' extremes are read off them.
    Targets may be lengths and HCP of concealed seats.
    """
    pos = position
    seats = pos.concealed
    k = len(seats)
    vac = [pos.vacancy(s) for s in seats]
    state_feats = sorted({f for f in features_of(claim) if f.seat in seats}, key=str)
    length_targets = [t for t in targets if t.kind == Kind.LENGTH and t.seat in seats]
    hcp_targets = [t for t in targets if t.kind == Kind.HCP and t.seat in seats]
    # per-suit option tables: columns = counts of the first k-1 seats, then the state features
    options = []
    for s in range(4):
        masks = assignments(pos.unseen_in(s), k, tuple(pos.void(seat, s) for seat in seats))
        dealt = masks | np.array([holding_of(pos.known[seat], s) for seat in seats], dtype=np.int64)
        counts = popcount13(masks)
        cols = [counts[:, i] for i in range(k - 1)]
        for f in state_feats:
            if f.kind == Kind.HCP or f.suit == s:
                cols.append(suit_feature(f.kind, f.bit, dealt[:, seats.index(f.seat)]))
            else:
                cols.append(np.zeros(len(masks), dtype=np.int64))
        key_part = np.stack(cols, axis=1) if cols else np.zeros((len(masks), 0), dtype=np.int64)
        hcps = [suit_feature(Kind.HCP, 0, dealt[:, seats.index(t.seat)]) for t in hcp_targets]
        options.append((key_part, counts, hcps))
    # forward pass over states (key columns only, additive); HCP totals the claim only compares with
    # constants are clamped (see hcp_caps), and each state meets only the options that keep every
    # seat within reach of its vacant places
    width = (k - 1) + len(state_feats)
    caps = hcp_caps(claim)
    capped = [(k - 1 + j, caps[f]) for j, f in enumerate(state_feats) if f in caps]
    classes = value_classes(claim)  # a suit's length or honours: only which side of each constant counts
    classed = [(k - 1 + j, classes[f], f.suit) for j, f in enumerate(state_feats) if f in classes]
    forward = [np.zeros((1, width), dtype=np.int64)]
    links = []
    for s in range(4):
        key_part = options[s][0]
        for col, cap in capped:
            key_part[:, col] = np.minimum(key_part[:, col], cap)
        for col, table, suit in classed:
            if suit == s:
                key_part[:, col] = table[key_part[:, col]]
        uniq_opts, opt_index = unique_rows(key_part, return_inverse=True)
        states = forward[s]
        later = [_unseen_count(pos, range(s + 1, 4), seat) for seat in seats]
        if k > 1:
            src, opt = join_counts(states, uniq_opts, vac, later, what="an exact check of claims on three hands")
        else:
            src = np.repeat(np.arange(len(states)), len(uniq_opts))
            opt = np.tile(np.arange(len(uniq_opts)), len(states))
        combo = states[src] + uniq_opts[opt]
        for col, cap in capped:
            np.minimum(combo[:, col], cap, out=combo[:, col])
        ok = np.ones(len(combo), dtype=bool)
        for i in range(1, k - 1):
            ok &= (combo[:, i] <= vac[i]) & (combo[:, i] >= vac[i] - later[i])
        # the last seat's count so far must not pass its hand size either, nor fall out of reach
        last = _unseen_count(pos, range(s + 1)) - combo[:, :k - 1].sum(axis=1)
        ok &= (last <= vac[-1]) & (last >= vac[-1] - later[-1])
        nxt, inv = unique_rows(combo[ok], return_inverse=True)
        links.append((src[ok], opt[ok], inv, uniq_opts, opt_index))
        forward.append(nxt)
    final = forward[4]
    accept = np.ones(len(final), dtype=bool)
    for i in range(k - 1):
        accept &= final[:, i] == vac[i]
    # the last seat's count is then right too (totals match)
    if accept.any():
        value = feature_values(final, state_columns(state_feats, k - 1), pos)
        accept &= evaluate(claim, value, len(final))
    if not accept.any():
        return {}
    # backward: which states can still reach an accepted final state
    alive = [np.zeros(len(layer), dtype=bool) for layer in forward]
    alive[4] = accept
    for s in range(3, -1, -1):
        src, opt, inv, _, _ = links[s]
        good = alive[s + 1][inv]
        alive[s][src[good]] = True
    out: dict[Feature, tuple[int, int]] = {}
    # length targets: options used on live edges at their suit
    for t in length_targets:
        s = t.suit
        seat_i = seats.index(t.seat)
        src, opt, inv, uniq_opts, opt_index = links[s]
        live_edge = alive[s][src] & alive[s + 1][inv]
        rows = np.isin(opt_index, np.unique(opt[live_edge]))
        vals = options[s][1][rows, seat_i]
        base = holding_of(pos.known[t.seat], s).bit_count()
        out[t] = (base + int(vals.min()), base + int(vals.max()))
    # HCP targets: max-plus / min-plus over live edges, per option group extremes
    for j, t in enumerate(hcp_targets):
        best_hi = np.full(len(forward[0]), 0, dtype=np.int64)
        best_lo = np.full(len(forward[0]), 0, dtype=np.int64)
        for s in range(4):
            src, opt, inv, uniq_opts, opt_index = links[s]
            hv = options[s][2][j]
            grp_hi = np.full(len(uniq_opts), -10 ** 6, dtype=np.int64)
            grp_lo = np.full(len(uniq_opts), 10 ** 6, dtype=np.int64)
            np.maximum.at(grp_hi, opt_index, hv)
            np.minimum.at(grp_lo, opt_index, hv)
            live_edge = alive[s][src] & alive[s + 1][inv]
            nxt_hi = np.full(len(forward[s + 1]), -10 ** 6, dtype=np.int64)
            nxt_lo = np.full(len(forward[s + 1]), 10 ** 6, dtype=np.int64)
            np.maximum.at(nxt_hi, inv[live_edge], best_hi[src[live_edge]] + grp_hi[opt[live_edge]])
            np.minimum.at(nxt_lo, inv[live_edge], best_lo[src[live_edge]] + grp_lo[opt[live_edge]])
            best_hi, best_lo = nxt_hi, nxt_lo
        # dealt HCP: the per-suit values already include the seat's known cards of each suit
        out[t] = (int(best_lo[alive[4]].min()), int(best_hi[alive[4]].max()))
    return out

