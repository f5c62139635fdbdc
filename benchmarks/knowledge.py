"""Knowledge benchmark: how much each view knows about who holds each unseen card, on the evaluation half.

Run: ``cd /work/main && .venv/bin/python benchmarks/knowledge.py [--records 300] [--every] [--book sayc]
[--corpus PATH] [--seed 1] [--defence-model M] [--power P] [--views lawful,both,...] [--half calibration]
[--likelihood none] [--save ROWS.json] [--against ROWS.json] [--overlap]``.
Records: the complete records (all 52 cards played, legal) of the evaluation half of the corpus's
split (:mod:`inference.io.halves`), one a file (``--every``: all of them), files shuffled with ``--seed``, the
first ``--records``. Each is replayed
from declarer's view; at each card of declarer's side once dummy is down (a *decision*), each view's
exact odds give, for every unseen card, the probability that its true holder holds it; the measure
is ``-log2`` of it, averaged over the (decision, card) pairs: **bits a card**. Views: lawful;
agreement (the auction read with ``--book`` and the explanations); weighted with the auction only;
weighted with the defence model only (``inference/data/defence``); weighted with both; and the
ceiling "each defender's true lengths and HCP known" (the agreement view of one claim per defender);
on request, the ceilings of his true lengths alone (``true-lengths``) and his true HCP alone
(``true-hcp``). ``--views`` picks some by short name (lawful, agreement, auction, model, both, true,
true-lengths, true-hcp; lawful is always run, as the reference); ``--defence-model`` a model file to
compare with the shipped one; ``--power`` the evidence's power; ``--half calibration`` runs on the
calibration half (for tuning). The truth is 0 bits. A true card with
probability 0 is counted (it must not happen in a weighted view). Intervals: 95%, bootstrapped by
record (with ``--every`` the records of one file are alike, so these intervals are somewhat too narrow).
``--save`` keeps each record's bits per view; ``--against`` a saved run prints each view's difference from
it paired by record (two likelihoods or models compared on the same records: most of the records' noise
cancels), with its interval bootstrapped by record and how many records know more or less.
``--overlap`` also reads each figure by what the other half (the calibration half, for the evaluation half)
holds of the record (:mod:`inference.io.overlap`: fresh deals; the deal, with another auction; the deal and its auction): a
held-out gain found only where the deal and its auction were seen in calibration is memory, not knowledge.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from beforelead import tight_claims  # noqa: E402  (the one form of the true-hand claims)
from corpus import DEFAULT_CORPUS  # noqa: E402
from dealer import Card, Seat  # noqa: E402
from inference.defence.evidence import DEFAULT_POWER, DefenceEvidence  # noqa: E402
from inference.defence.model import load_model  # noqa: E402
from inference.io.halves import CALIBRATION, EVALUATION, HALVES, corpus_files  # noqa: E402
from inference.io.overlap import Overlap, sighting  # noqa: E402
from inference.state.play import PlayState  # noqa: E402
from inference.io.records import PlayRecord, read_records  # noqa: E402

#: name -> (uses the auction, uses the defence model, the view asked, the truth it adds: lengths, HCP, or both)
VIEWS: dict[str, tuple[bool, bool, str, str]] = {
    "lawful": (False, False, "lawful", ""),
    "agreement (auction)": (True, False, "agreement", ""),
    "weighted, auction only": (True, False, "weighted", ""),
    "weighted, defence model only": (False, True, "weighted", ""),
    "weighted, auction and defence model": (True, True, "weighted", ""),
    "true lengths and HCP known": (False, False, "agreement", "lengths and HCP"),
    "true lengths known": (False, False, "agreement", "lengths"),
    "true HCP known": (False, False, "agreement", "HCP"),
}
#: The views' short names (``--views``); the last two are not run unless asked for.
SHORT = dict(zip(("lawful", "agreement", "auction", "model", "both", "true", "true-lengths", "true-hcp"), VIEWS))
DEFAULT_VIEWS = ("lawful", "agreement", "auction", "model", "both", "true")


def evaluation_records(corpus: str, n: int, seed: int, half: str = EVALUATION, every: bool = False
                       ) -> list[PlayRecord]:
    """``n`` complete records of the evaluation half (or ``half``), in a fixed shuffled order: the first of
    each file (the files are many, the records of one file alike), or with ``every`` all of them."""
    files = corpus_files([corpus])
    random.Random(seed).shuffle(files)
    out: list[PlayRecord] = []
    for f in files:
        for r in read_records(f.path):
            if isinstance(r, PlayRecord) and r.complete and f.half(r.index) == half:
                out.append(r)
                if not every:
                    break
        if len(out) >= n:
            break
    return out[:n]


def state_for(rec: PlayRecord, auction: bool, model: object, truth: str, book: str,
              likelihood: str | None = "default") -> PlayState:
    """Declarer's state at the start of play with what the view hears (``model``: the defence model, or None;
    ``likelihood``: the auction's, as ``add_auction`` takes it)."""
    state = PlayState(str(rec.deal[rec.declarer]), declarer=rec.declarer, contract=str(rec.contract),
                      defence_model=model)
    if auction and rec.calls and rec.dealer is not None:
        state.add_auction(rec.dealer, rec.calls, book=book, vulnerability=rec.vulnerable,
                          explanations=rec.explanations, likelihood=likelihood, restore_passes=True)
    if truth:
        state.add_inferences(tight_claims(rec, lengths="lengths" in truth, hcp="HCP" in truth))
    return state


def record_bits(rec: PlayRecord, book: str, timings: dict[str, list[float]], views: list[str],
                defence_model: object = "default", likelihood: str | None = "default"
                ) -> dict[str, tuple[float, int, int]]:
    """Per view: the record's summed bits, (decision, card) pairs, and true cards given probability 0."""
    holder = {Card.from_index(i): s for s in Seat for i in range(52) if rec.deal[s].mask >> i & 1}
    out = {}
    for name in views:
        auction, model, view, truth = VIEWS[name]
        state = state_for(rec, auction, defence_model if model else None, truth, book, likelihood)
        bits, pairs, zeros = 0.0, 0, 0
        for i, card in enumerate(rec.play):
            if i >= 1 and state.to_play in (rec.declarer, rec.declarer.partner):
                t = time.perf_counter()
                odds = state.odds(view)
                timings[name].append(time.perf_counter() - t)
                for c, by in odds.holder.items():
                    p = by.get(holder[c], 0)
                    pairs += 1
                    if p == 0:
                        zeros += 1
                    else:
                        bits -= math.log2(p)
            state.play(card)
            if i == 0:
                state.table_dummy(str(rec.deal[rec.declarer.partner]))
        out[name] = (bits, pairs, zeros)
    return out


def bootstrap(per_record: list[tuple[float, int, int]], seed: int = 1) -> tuple[float, float, float]:
    """Mean bits a card and its 95% interval, resampling records."""
    bits = np.array([b for b, _, _ in per_record])
    pairs = np.array([n for _, n, _ in per_record])
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(bits), size=(1000, len(bits)))
    means = bits[picks].sum(axis=1) / np.maximum(pairs[picks].sum(axis=1), 1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(bits.sum() / max(pairs.sum(), 1)), float(lo), float(hi)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--records", type=int, default=300)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--book", default="sayc")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--defence-model", default="default")
    ap.add_argument("--power", type=Fraction, default=None,
                    help=f"the power the model's evidence is raised to (default {DEFAULT_POWER}): for tuning")
    ap.add_argument("--half", choices=HALVES, default=EVALUATION, help="the calibration half: for tuning")
    ap.add_argument("--every", action="store_true",
                    help="every complete record of the half (at most --records), not the first of each file")
    ap.add_argument("--views", default=",".join(DEFAULT_VIEWS), help=f"some of {', '.join(SHORT)}")
    ap.add_argument("--likelihood", default="default",
                    help="the auction's graded likelihood: default (shipped with the book), a file, or none")
    ap.add_argument("--save", metavar="ROWS.json", help="write each record's bits per view (for --against)")
    ap.add_argument("--against", metavar="ROWS.json",
                    help="a run saved with --save: each view's difference from it, paired by record")
    ap.add_argument("--overlap", action="store_true",
                    help="also by what the calibration half holds of each record (its deal; its deal and auction)")
    args = ap.parse_args()
    unknown = set(args.views.split(",")) - set(SHORT)
    if unknown:
        ap.error(f"unknown view(s) {', '.join(sorted(unknown))}: choose among {', '.join(SHORT)}")
    views = [SHORT[v] for v in SHORT if v == "lawful" or v in args.views.split(",")]
    records = evaluation_records(args.corpus, args.records, args.seed, args.half, args.every)
    model: object = args.defence_model
    if args.power is not None:
        model = DefenceEvidence(load_model(args.defence_model), power=args.power)
    per: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    rows: dict[str, dict[str, tuple[float, int, int]]] = {}
    timings: dict[str, list[float]] = defaultdict(list)
    failed: list[str] = []
    start = time.time()
    for k, rec in enumerate(records, 1):
        print(f"{k}/{len(records)} {rec.label}", file=sys.stderr, flush=True)
        try:
            found = record_bits(rec, args.book, timings, views, model,
                                None if args.likelihood == "none" else args.likelihood)
        except Exception as exc:  # noqa: BLE001  (counted and shown, never fatal)
            failed.append(f"{rec.label}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        rows[rec.label] = found
        for name, value in found.items():
            per[name].append(value)
    report(args, records, per, timings, failed, time.time() - start)
    groups = overlap_groups(args.corpus, records, args.half) if args.overlap else {}
    if groups:
        by_group(rows, groups)
    if args.save:
        with open(args.save, "w") as fh:
            json.dump({"args": vars(args), "rows": rows}, fh, default=str)
    if args.against:
        with open(args.against) as fh:
            base = json.load(fh)["rows"]
        paired(rows, base, args.against)
        for group in Overlap.group_names():
            paired({k: v for k, v in rows.items() if groups.get(k) == group}, base, args.against, group=group)


def overlap_groups(corpus: str, records: list[PlayRecord], half: str) -> dict[str, str]:
    """Each record's group (:mod:`inference.io.overlap`) by what the other half than ``half`` holds of it, by
    label."""
    overlap = Overlap.of_corpus([corpus], half=CALIBRATION if half == EVALUATION else EVALUATION)
    return {r.label: overlap.group(*sighting(r)) for r in records}


def by_group(rows: dict[str, dict[str, tuple[float, int, int]]], groups: dict[str, str]) -> None:
    """Per group of records (by overlap with the calibration half): each view's bits a card and the share of
    that group's lawful bits it removes."""
    print()
    print("By what the other half holds of the record (seen: its deal, or its deal and its auction):")
    print()
    print("| view | group | records | bits a card [95%] | lawful's bits removed |")
    print("|---|---|---:|---:|---:|")
    for group in Overlap.group_names():
        labels = [k for k in rows if groups.get(k) == group]
        lawful = bootstrap([rows[k]["lawful"] for k in labels])[0] if labels else math.nan
        for view in VIEWS:
            got = [rows[k][view] for k in labels if view in rows[k]]
            if got:
                mean, lo, hi = bootstrap(got)
                print(f"| {view} | {group} | {len(got)} | {mean:.4f} [{lo:.4f}, {hi:.4f}] | "
                      f"{100 * (1 - mean / lawful):.1f}% |")


def paired_difference(mine: np.ndarray, theirs: np.ndarray, seed: int = 1) -> tuple[float, float, float]:
    """Bits a card of ``mine`` minus ``theirs`` (rows of (bits, pairs), record by record alike) and its 95%
    interval, resampling records."""
    picks = np.random.default_rng(seed).integers(0, len(mine), size=(1000, len(mine)))
    diffs = mine[picks, 0].sum(axis=1) / mine[picks, 1].sum(axis=1) - \
        theirs[picks, 0].sum(axis=1) / theirs[picks, 1].sum(axis=1)
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    return float(mine[:, 0].sum() / mine[:, 1].sum() - theirs[:, 0].sum() / theirs[:, 1].sum()), float(lo), float(hi)


def paired(rows: dict[str, dict[str, tuple[float, int, int]]], base: dict[str, dict[str, list[float]]],
           name: str, seed: int = 1, group: str = "") -> None:
    """Each view's bits a card minus the saved run's, over the records both hold, with a 95% interval
    bootstrapped by record (the same records and views, so most of their noise cancels); ``group``: the
    records given are those of one overlap group."""
    if not rows:
        return
    print()
    print(f"Paired with {name} (this run minus that one; negative: this run knows more)"
          f"{', records: ' + group if group else ''}:")
    print()
    print("| view | records | difference in bits a card [95%] | records better / worse |")
    print("|---|---:|---:|---:|")
    for view in VIEWS:
        labels = [k for k in rows if view in rows[k] and view in base.get(k, {})]
        if not labels:
            continue
        mine = np.array([rows[k][view][:2] for k in labels], dtype=float)
        theirs = np.array([base[k][view][:2] for k in labels], dtype=float)
        diff, lo, hi = paired_difference(mine, theirs, seed)
        better = int((mine[:, 0] / mine[:, 1] < theirs[:, 0] / theirs[:, 1] - 1e-12).sum())
        worse = int((mine[:, 0] / mine[:, 1] > theirs[:, 0] / theirs[:, 1] + 1e-12).sum())
        print(f"| {view} | {len(labels)} | {diff:+.4f} [{lo:+.4f}, {hi:+.4f}] | {better} / {worse} |")


def report(args: argparse.Namespace, records: list[PlayRecord], per: dict[str, list[tuple[float, int, int]]],
           timings: dict[str, list[float]], failed: list[str], seconds: float) -> None:
    """The table: bits a card per view, the share of lawful's bits removed, zeros, the odds' median time."""
    print(f"# Kibitz knowledge benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {len(records) - len(failed)} {args.half}-half records "
          f"({'every record' if args.every else 'one a file'}) "
          f"(seed {args.seed}, book {args.book}, defence model {args.defence_model}, likelihood {args.likelihood}"
          f"{'' if args.power is None else f', power {args.power}'}), {seconds:.0f} s")
    print()
    print("| view | (decision, card) pairs | bits a card [95%] | lawful's bits removed | true cards at p=0 | odds median |")
    print("|---|---:|---:|---:|---:|---:|")
    lawful = bootstrap(per["lawful"])[0] if per["lawful"] else math.nan
    for name in VIEWS:
        rows = per[name]
        if not rows:
            continue
        mean, lo, hi = bootstrap(rows)
        removed = 1 - mean / lawful if lawful else math.nan
        zeros = sum(z for _, _, z in rows)
        med = statistics.median(timings[name]) * 1000 if timings[name] else math.nan
        print(f"| {name} | {sum(n for _, n, _ in rows):,} | {mean:.4f} [{lo:.4f}, {hi:.4f}] | {100 * removed:.1f}% | "
              f"{zeros} | {med:.1f} ms |")
    print("| the truth | | 0 | 100% | | |")
    if failed:
        print()
        print(f"{len(failed)} records failed:")
        for f in failed:
            print(f"  - {f}")


if __name__ == "__main__":
    main()
