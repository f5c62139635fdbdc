"""Sampling benchmark: 1,000 exact layouts and exact odds at tricks 1, 6 and 10 of real deals, every view.

Run: ``python benchmarks/sampling.py [--deals 30]``. Positions: declarer's view after the opening lead
(dummy down), after 5 tricks and after 9 tricks. The agreement and weighted views carry five
inferences about the defenders (true of the deal, as an auction's usually are). Beside each, a
rejection sampler: deal the unseen cards at random to the concealed hands and keep the deals
consistent with the play (in the agreement view, with the inferences; in the weighted view, keep
each with probability its weight over the largest weight). "ratio" is the rejection sampler's time
for 1,000 layouts over Kibitz's (build included), both measured in this process.

``--holdings`` adds a second table: the lawful view with per-holding weights on both defenders in two
suits (probabilities on a grid of 1/256, as a model of the defenders' carding gives), built, weighed
and sampled on the fast int64 path and, forced, on the exact Python-integer path it falls back to.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
from fractions import Fraction
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS, complete_records  # noqa: E402
from dealer import CardSet  # noqa: E402
from inference.exact.graph import LayoutGraph  # noqa: E402
from inference.exact.layouts import VIEWS, View, layout_space  # noqa: E402
from inference.state.play import PlayState  # noqa: E402
from inference.claims.weights import HoldingWeights  # noqa: E402


def five(deal, declarer) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    out = []
    for who, seat in (("LHO", declarer.lho), ("RHO", declarer.rho)):
        hand = deal[seat]
        longest = max(range(4), key=lambda s: hand.length(s))
        name = ("spades", "hearts", "diamonds", "clubs")[longest]
        out.append(dict(name=f"{who} long suit", by=who, claim=f"{name}({who}) >= {max(hand.length(longest) - 1, 0)}"))
        out.append(dict(name=f"{who} points", by=who,
                        claim=f"hcp({who}) >= {max(hand.hcp - 3, 0)} && hcp({who}) <= {hand.hcp + 3}"))
    out.append(dict(name="lead", by="LHO", claim=f"spades(LHO) <= {deal[declarer.lho].length(0) + 1}",
                    tag="unspecified"))
    return out


def rejection_rate(state: PlayState, claims, seconds: float = 0.3) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Accepted layouts per second and acceptance rate of deal-at-random-and-keep.

    ``claims`` is a list of (claim, weight if it holds, weight if not); a dealt layout is kept with
    probability (product of weights) / (largest possible product): plain rejection when every weight
    is 0 or 1, the textbook weighted rejection otherwise.
    """
    from inference.claims.features import evaluate

    snap = state.snapshot
    seats = state.concealed()
    unseen = np.array([c.index for c in CardSet(snap.unseen)], dtype=np.int64)
    need = [13 - CardSet(snap.played[s]).__len__() for s in seats]
    labels = np.repeat(np.arange(len(seats)), need)
    rng = np.random.default_rng(3)
    top = float(np.prod([max(t, f) for _, t, f in claims])) if claims else 1.0
    kept = dealt = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        perm = rng.permuted(np.broadcast_to(labels, (2000, len(labels))), axis=1)
        ok = np.ones(len(perm), dtype=bool)
        for i, seat in enumerate(seats):
            for s in range(4):
                if snap.voids[seat] >> s & 1:
                    in_suit = (unseen // 13) == s
                    ok &= ~((perm[:, in_suit] == i).any(axis=1))
        dealt += len(perm)
        if claims and ok.any():
            rows = [int(sum(1 << int(c) for c, lab in zip(unseen, row) if lab == 0)) | snap.played[seats[0]]
                    for row in perm[ok]]
            value = _hand_values(rows, state, seats)
            weight = np.ones(len(rows))
            for claim, w_true, w_false in claims:
                weight *= np.where(evaluate(claim, value, len(rows)).astype(bool), w_true, w_false)
            kept += int((rng.random(len(rows)) * top < weight).sum())
        else:
            kept += int(ok.sum())
    elapsed = time.perf_counter() - start
    return kept / elapsed, kept / max(dealt, 1)


def view_claims(state: PlayState, view: str):  # type: ignore[no-untyped-def]
    """The (claim, weight if true, weight if false) list a rejection sampler needs for a view."""
    from inference.claims.inferences import DEFAULT_POLICY, Status, Tag
    from inference.exact.statuses import agreement_claim
    from inference.exact.layouts import DEFAULT_WEIGHTS

    snap = state.snapshot
    parsed = {i.name: state._parsed_claims(i) for i in snap.inferences}
    states = {s.name: s for s in snap.states}
    if view == "lawful":
        return []
    if view == "agreement":
        claim, _, _ = agreement_claim(snap.position(), snap.inferences, parsed, states, DEFAULT_POLICY, state.viewer)
        return [(claim, 1.0, 0.0)]
    out = []
    for inf in snap.inferences:  # benchmark inferences are single readings (no groups)
        st = states[inf.name]
        if st.status != Status.SUPERSEDED:
            out.append((parsed[inf.name][st.level], float(DEFAULT_WEIGHTS[inf.tag]),
                        float(DEFAULT_WEIGHTS[Tag.INCONSISTENT])))
    return out


def _hand_values(masks: list[int], state: PlayState, seats):  # type: ignore[no-untyped-def]
    snap = state.snapshot
    a, b = seats
    known_all = snap.unseen | snap.played[a] | snap.played[b]
    hands = {a: [CardSet(m) for m in masks], b: [CardSet(known_all & ~m) for m in masks]}

    def value(key):  # type: ignore[no-untyped-def]
        seat = key[1]
        if seat not in hands:
            hand = CardSet(snap.remaining[seat] | snap.played[seat])
            rows = [hand] * len(masks)
        else:
            rows = hands[seat]
        kind = key[0]
        if kind == "len":
            return np.array([h.length(int(key[2])) for h in rows])
        if kind == "hcp":
            return np.array([h.hcp for h in rows])
        raise KeyError(kind)

    return value


def fresh(state: PlayState, view: "str | View"):  # type: ignore[no-untyped-def]
    """The state's layout space in ``view``, built from scratch (not the play state's cached one)."""
    snap = state.snapshot
    claims = {i.name: i.claims(state.viewer, state.declarer) for i in snap.inferences}
    return layout_space(snap.position(), snap.inferences, claims, {st.name: st for st in snap.states}, state.viewer, view)


def grid_weights(state: PlayState, seed: int) -> HoldingWeights:
    """Weights on a grid of 1/256 on both defenders' holdings in spades and hearts (seeded)."""
    rng = np.random.default_rng(seed)
    tables = {}
    for seat in (state.declarer.lho, state.declarer.rho):
        for suit in (0, 1):
            numerators = rng.integers(1, 257, size=8192)
            tables[(seat, suit)] = {h: Fraction(int(numerators[h]), 256) for h in range(8192)}
    return HoldingWeights(tables)  # type: ignore[arg-type]


def time_holdings(states: list[PlayState]) -> None:
    """The second table: holding weights on the int64 path and on the Python-integer path."""
    rows: dict[int, dict[str, list[float]]] = {}
    for trick, state in states:  # type: ignore[misc]
        view = View("lawful", holdings=grid_weights(state, 7))
        for path in ("int64", "python"):
            original = LayoutGraph._overflows
            if path == "python":
                LayoutGraph._overflows = lambda self, w, mult: True  # type: ignore[method-assign]
            try:
                t = time.perf_counter()
                space = fresh(state, view)
                space.odds()
                space.sample_masks(1000, 1)
                rows.setdefault(trick, {}).setdefault(path, []).append(time.perf_counter() - t)
                assert space.dtype is (object if path == "python" else np.int64)
            finally:
                LayoutGraph._overflows = original  # type: ignore[method-assign]
    print()
    print("| trick | holding weights: int64 path (build, odds, 1,000 layouts): median | max | Python integers: "
          "median | max | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for trick, cell in sorted(rows.items()):
        fast, slow = statistics.median(cell["int64"]), statistics.median(cell["python"])
        print(f"| {trick} | {fast * 1e3:.1f} ms | {max(cell['int64']) * 1e3:.1f} ms | {slow * 1e3:.1f} ms "
              f"| {max(cell['python']) * 1e3:.1f} ms | {slow / fast:.1f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--holdings", action="store_true", help="also time per-holding weights, both integer paths")
    args = ap.parse_args()
    weighted_states = []
    records = complete_records(sorted(Path(args.corpus).rglob("*.pbn")), args.deals)
    table: dict[tuple[int, str], dict[str, list[float]]] = {}
    for rec in records:
        for trick in (1, 6, 10):
            after = 1 if trick == 1 else 4 * (trick - 1)
            state = PlayState(rec.deal[rec.declarer], declarer=rec.declarer, contract=rec.contract)
            for i, card in enumerate(rec.play[:after]):
                state.play(card)
                if i == 0:
                    state.table_dummy(rec.deal[rec.declarer.partner])
            state.add_inferences(five(rec.deal, rec.declarer))
            weighted_states.append((trick, state))
            for view in VIEWS:
                cell = table.setdefault((trick, view), {"sample": [], "odds": [], "rej": [], "acc": []})
                t = time.perf_counter()
                space = fresh(state, view)
                space.sample_masks(1000, 1)
                cell["sample"].append(time.perf_counter() - t)
                t = time.perf_counter()
                fresh(state, view).odds()
                cell["odds"].append(time.perf_counter() - t)
                if len(cell["rej"]) < 5:
                    rate, acc = rejection_rate(state, view_claims(state, view))
                    cell["rej"].append(rate)
                    cell["acc"].append(acc)
    print(f"# Kibitz sampling benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}; {len(records)} corpus deals")
    print()
    print("| trick | view | 1,000 layouts (build + sample): median | max | exact odds, all unseen cards: median | max "
          "| rejection sampler: layouts/s | acceptance | rejection: 1,000 layouts | ratio |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (trick, view), cell in sorted(table.items()):
        ours = statistics.median(cell["sample"])
        rate = statistics.median(cell["rej"])
        theirs = 1000 / rate if rate else float("inf")
        print(f"| {trick} | {view} | {ours * 1e3:.1f} ms | {max(cell['sample']) * 1e3:.1f} ms "
              f"| {statistics.median(cell['odds']) * 1e3:.1f} ms | {max(cell['odds']) * 1e3:.1f} ms "
              f"| {rate:,.0f} | {statistics.median(cell['acc']):.3g} | {theirs * 1e3:,.1f} ms | {theirs / ours:,.1f}x |")
    if args.holdings:
        time_holdings(weighted_states)


if __name__ == "__main__":
    main()
