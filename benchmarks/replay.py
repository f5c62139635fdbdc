"""Replay benchmark: one card's lawful update, a full deal, and the whole corpus.

Run: ``python benchmarks/replay.py [--deals 200] [--corpus ../shared/corpus] [--all]``.
Prints a table: median time of one card's update (all lawful bounds and the
events with reasons), of a full 52-card deal, and the corpus replayed from
declarer's view (records read, replayed, rejected, soundness violations).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS, complete_records  # noqa: E402
from dealer import CardSet  # noqa: E402
from inference.errors import RecordError  # noqa: E402
from inference.io.records import PlayRecord, Skipped, read_records  # noqa: E402
from inference.apps.replay import replay_record  # noqa: E402


def sound(rec: PlayRecord, step: object, state: object) -> bool:
    for seat, sb in step.bounds.seats:  # type: ignore[attr-defined]
        hand = rec.deal[seat]
        if not all(sb.length[s][0] <= hand.length(s) <= sb.length[s][1] for s in range(4)):
            return False
        if not sb.hcp[0] <= hand.hcp <= sb.hcp[1]:
            return False
    for card in CardSet(state.snapshot.unseen):  # type: ignore[attr-defined]
        if rec.deal.holder(card) not in step.bounds.possible_holders(card):  # type: ignore[attr-defined]
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--deals", type=int, default=200, help="full deals for the per-card timings")
    ap.add_argument("--all", action="store_true", help="replay the whole corpus (minutes)")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in (".pbn", ".lin"))
    print(f"# Kibitz replay benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    full = complete_records(files, args.deals)
    per_card: list[float] = []
    per_deal: list[float] = []
    for rec in full:
        start = time.perf_counter()
        last = start
        for _ in replay_record(rec):
            now = time.perf_counter()
            per_card.append(now - last)
            last = now
        per_deal.append(time.perf_counter() - start)
    print()
    print("| measure | median | 90th percentile |")
    print("|---|---:|---:|")
    q = statistics.quantiles
    print(f"| one card's update (bounds + events), {len(per_card):,} cards | {statistics.median(per_card) * 1e3:.3f} ms "
          f"| {q(per_card, n=10)[-1] * 1e3:.3f} ms |")
    print(f"| a full 52-card deal, {len(per_deal)} deals | {statistics.median(per_deal) * 1e3:.1f} ms "
          f"| {q(per_deal, n=10)[-1] * 1e3:.1f} ms |")
    if not args.all:
        return
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    violations = 0
    cards = 0
    start = time.perf_counter()
    for i, f in enumerate(files):
        for r in read_records(f):
            counts["read"] += 1
            if isinstance(r, RecordError):
                counts["rejected"] += 1
                text = str(r)
                key = "revoke" if "revokes" in text else "wrong player or order" if "belongs to" in text else \
                    "played twice" if "twice" in text else text.split(": ")[-1][:40]
                reasons[key] += 1
                continue
            if isinstance(r, Skipped):
                counts[r.reason] += 1
                continue
            counts["replayed"] += 1
            for state, step in replay_record(r):
                cards += 1
                if not sound(r, step, state):
                    violations += 1
        print(f"\r  {i + 1}/{len(files)} files, {counts['replayed']:,} replayed", end="", file=sys.stderr)
    elapsed = time.perf_counter() - start
    print(file=sys.stderr)
    print()
    print(f"Whole corpus ({len(files)} files): {counts['read']:,} records read, {counts['replayed']:,} replayed "
          f"({cards:,} cards), {counts['rejected']:,} rejected, {counts['passed out']:,} passed out, "
          f"{counts['no play recorded']:,} without play; soundness violations: {violations}; "
          f"{elapsed:.1f} s ({cards / elapsed:,.0f} cards/s).")
    print("Rejected by reason: " + ", ".join(f"{k}: {v}" for k, v in reasons.most_common()))


if __name__ == "__main__":
    main()
