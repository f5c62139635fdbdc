"""Before-lead benchmark: agreement bounds, exact odds and 1,000 samples with three hands concealed.

Run: ``cd /work/main && .venv/bin/python benchmarks/beforelead.py [--records 100] [--book sayc]
[--setting tight|auction|both] [--corpus PATH]``. Records: the corpus's PBN and LIN files, sorted then
shuffled with ``random.Random(1)``, the first complete record of each file until ``--records`` are
taken (the next file's warms up imports and the book, untimed). Declarer's view before the opening
lead (dummy, LHO and RHO concealed), in two settings. *tight*: one inference per defender, its true
shape and HCP (``spades(LHO) == s && ... && hcp(LHO) == x``); the true deal must lie inside the
agreement bounds (every concealed seat's lengths and HCP), violations are counted. *auction*: the
record's auction and explanations read with ``--book`` (``PlayState.add_auction``, as ``kibitz
replay --book`` does; the reading is timed too).

Bounds are timed from the first add to ``agreement_bounds()``; the exact odds (``odds("agreement")``)
and 1,000 samples (``sample(1000, seed=1, view="agreement")``) are each timed on a fresh state with
the inferences already added, the call alone. Errors (``InferenceError``, e.g. ``TooComplexError``) are
counted by kind, never fatal. The machine may be shared: compare figures taken in one run.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS, complete_records  # noqa: E402
from inference.errors import InferenceError  # noqa: E402
from inference.rules.lawful import Bounds  # noqa: E402
from inference.state.play import PlayState  # noqa: E402
from inference.io.records import PlayRecord  # noqa: E402

SETTINGS = ("tight", "auction")
#: The calls timed on a fresh state with the inferences already added, beside the bounds.
CALLS: dict[str, Callable[[PlayState], object]] = {
    "exact odds (agreement)": lambda s: s.odds("agreement"),
    "1,000 samples (agreement)": lambda s: s.sample(1000, seed=1, view="agreement"),
}


@dataclass
class Row:
    """One measure in one setting: times (seconds, with the record's label) and errors by kind."""

    times: list[tuple[float, str]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


def pick_records(corpus: Path, n: int) -> list[PlayRecord]:
    """The first complete record of each file, files sorted then shuffled with Random(1), until ``n``."""
    files = sorted(corpus.rglob("*.pbn")) + sorted(corpus.rglob("*.lin"))
    random.Random(1).shuffle(files)
    out: list[PlayRecord] = []
    for f in files:
        out += complete_records([f], 1) if len(out) < n else []
    return out


def tight_claims(rec: PlayRecord, lengths: bool = True, hcp: bool = True) -> list[dict[str, str]]:
    """One inference per defender: its true shape and HCP (or only one of them)."""
    out = []
    for who, seat in (("LHO", rec.declarer.lho), ("RHO", rec.declarer.rho)):
        hand = rec.deal[seat]
        s, h, d, c = hand.shape
        parts = ([f"spades({who}) == {s} && hearts({who}) == {h} && diamonds({who}) == {d} && clubs({who}) == {c}"]
                 if lengths else []) + ([f"hcp({who}) == {hand.hcp}"] if hcp else [])
        out.append(dict(name=f"{who} true hand", by=who, claim=" && ".join(parts)))
    return out


def fresh_state(rec: PlayRecord) -> PlayState:
    return PlayState(str(rec.deal[rec.declarer]), declarer=rec.declarer, contract=str(rec.contract))


def add(state: PlayState, rec: PlayRecord, setting: str, book: str) -> int:
    """Add the setting's inferences to ``state``; how many it holds after."""
    if setting == "tight":
        state.add_inferences(tight_claims(rec))
    elif rec.calls and rec.dealer is not None:  # as replay_record guards it
        state.add_auction(rec.dealer, rec.calls, book=book, vulnerability=rec.vulnerable,
                          explanations=rec.explanations, restore_passes=True)
    return len(state.snapshot.inferences)


def outside(rec: PlayRecord, bounds: Bounds) -> list[str]:
    """The concealed seats' true quantities outside ``bounds``, as ``"E S=5 not in [0, 4]"``."""
    out = []
    for seat, b in bounds.seats:
        hand = rec.deal[seat]
        for q, true in zip(("S", "H", "D", "C", "HCP"), (*hand.shape, hand.hcp)):
            lo, hi = b.get(q)
            if not lo <= true <= hi:
                out.append(f"{seat.name} {q}={true} not in [{lo}, {hi}]")
    return out


def timed(row: Row, label: str, run: Callable[[], object]) -> tuple[object, str | None]:
    """Run ``run``, add its time (or its error's kind) to ``row``; (its result, None) or (None, the kind)."""
    start = time.perf_counter()
    try:
        result = run()
    except Exception as exc:  # InferenceError: the engine's refusal; anything else a bug, marked apart
        kind = type(exc).__name__ if isinstance(exc, InferenceError) else f"unexpected {type(exc).__name__}"
        row.errors[kind] += 1
        print(f"  {label}: {kind}: {str(exc)[:300]}", file=sys.stderr)
        return None, kind
    row.times.append((time.perf_counter() - start, label))
    return result, None


def run_setting(records: list[PlayRecord], corpus: Path, setting: str, book: str,
                rows: dict[tuple[str, str], Row], added: list[int], violations: list[str]) -> None:
    """Time the three measures of one setting on every record; count inferences and unsound bounds."""
    bounds_row = rows.setdefault((setting, "agreement bounds"), Row())
    for i, rec in enumerate(records, 1):
        where = os.path.relpath(rec.source, corpus) if os.path.isabs(rec.source) else rec.source
        label = f"{where} board {rec.board} (record {rec.index}), {rec.contract} by {rec.declarer.name}"
        print(f"{setting} {i}/{len(records)} {label}", file=sys.stderr, flush=True)
        state, count = fresh_state(rec), []

        def bounds() -> Bounds:
            count.append(add(state, rec, setting, book))
            return state.agreement_bounds()[0]

        got, error = timed(bounds_row, label, bounds)
        if setting == "auction" and count:
            added.append(count[0])
        if setting == "tight" and isinstance(got, Bounds):
            violations += [f"{label}: {v}" for v in outside(rec, got)]
        for measure, call in CALLS.items():
            row, other = rows.setdefault((setting, measure), Row()), fresh_state(rec)
            if count:  # the add went through above: again, untimed, then the call alone
                add(other, rec, setting, book)
                timed(row, label, lambda: call(other))
            else:
                row.errors[f"{error} (in the add)"] += 1


def show(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms" if seconds < 1 else f"{seconds:,.2f} s"


def print_table(records: int, book: str, rows: dict[tuple[str, str], Row], added: list[int],
                violations: list[str]) -> None:
    print(f"# Kibitz before-lead benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} "
          f"cores, Python {platform.python_version()}, numpy {np.__version__}; {records} corpus records")
    print()
    print("| setting | measure | timed | median | 90th percentile | worst | errors |")
    print("|---|---|---:|---:|---:|---:|---|")
    for (setting, measure), row in rows.items():
        t = sorted(s for s, _ in row.times)
        p90 = statistics.quantiles(t, n=10, method="inclusive")[-1] if len(t) > 1 else (t[0] if t else 0.0)
        errors = ", ".join(f"{k} {v}" for k, v in row.errors.most_common()) or "0"
        name = setting if setting == "tight" else f"auction ({book})"
        cells = (show(statistics.median(t)), show(p90), show(t[-1])) if t else ("-", "-", "-")
        print(f"| {name} | {measure} | {len(t)} | {' | '.join(cells)} | {errors} |")
    print()
    if added:
        print(f"Auction setting: median {statistics.median(added):g} inferences added (max {max(added)}); "
              f"{sum(1 for n in added if n == 0)} of {len(added)} auctions gave none.")
    if any(s == "tight" for s, _ in rows):
        print(f"Soundness (tight setting, true deal inside the agreement bounds): {len(violations)} violations.")
        for v in violations:
            print(f"  - {v}")
    print()
    print("Slowest record per row:")
    for (setting, measure), row in rows.items():
        if row.times:
            seconds, label = max(row.times)
            print(f"  - {setting}, {measure}: {show(seconds)}, {label}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--records", type=int, default=100)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--book", default="sayc")
    ap.add_argument("--setting", choices=("tight", "auction", "both"), default="both")
    args = ap.parse_args()
    corpus = Path(args.corpus).resolve()
    records = pick_records(corpus, args.records + 1)
    warm = records[args.records:] or records[:1]
    records = records[:args.records]
    settings = SETTINGS if args.setting == "both" else (args.setting,)
    for setting in settings:  # warm-up: lazy imports, the book, numpy's first calls; discarded
        run_setting(warm, corpus, setting, args.book, {}, [], [])
    rows: dict[tuple[str, str], Row] = {}
    added: list[int] = []
    violations: list[str] = []
    for setting in settings:  # the timed run
        run_setting(records, corpus, setting, args.book, rows, added, violations)
    print_table(len(records), args.book, rows, added, violations)


if __name__ == "__main__":
    main()
