"""Printing benchmark: deals written per second, Kibitz's writers and Debian's ``dealer``.

Run: ``python benchmarks/printing.py [--deals 100000] [--programs 1000000] [--repeat 3]``.
Prints two tables (median of ``--repeat`` runs):

1. In one process, the same unconstrained deals written to ``/dev/null`` by ``kibitz deal``'s
   writer (``dealer.cards.pbnio.write_deals``, a batch at a time) and by the writer it replaced (a deal
   at a time, kept as ``tests/dealer/pbn_oracle.py``), in each ``--format``; the ratio of the two.
   Also ``printall``'s columns (``kibitz dealer``), batch against per deal (text in memory).
2. Whole programs, started cold, printing ``--programs`` unconstrained deals to ``/dev/null``:
   ``kibitz deal --format F``, ``kibitz dealer`` with a script's print action, and ``dealer``
   (Debian's, ``/usr/games/dealer``) with the same script. Deals per second of wall time,
   program start included.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from dealer.tables.exact import ExactDealer  # noqa: E402
from dealer.cards.pbnio import FORMATS, write_deals  # noqa: E402
from dealer.spec.spec import DealSpec  # noqa: E402
from dealer.cards.printing import columns_text  # noqa: E402
from dealer.cards.seat import Seat  # noqa: E402
from tests.dealer.pbn_oracle import columns_per_deal, write_deals_per_deal  # noqa: E402

DEALER = shutil.which("dealer") or "/usr/games/dealer"
#: The print actions compared between ``kibitz dealer`` and ``dealer``.
ACTIONS = ("printoneline", "printpbn", "printall")


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def writers(deals: int, repeat: int) -> None:
    """Table 1: the batch writer against the per-deal writer, in this process."""
    masks = ExactDealer(DealSpec()).sample_masks(deals, 1)
    few = masks[:max(deals // 10, 1000)]  # the per-deal writer is slow: a tenth of the deals
    print("| format | per-deal writer deals/s | batch writer deals/s | ratio |")
    print("|---|---:|---:|---:|")
    with open(os.devnull, "w", encoding="utf-8") as null:
        for fmt in FORMATS:
            old = len(few) / median_time(lambda: write_deals_per_deal(few, null, fmt), repeat)
            new = len(masks) / median_time(lambda: write_deals(masks, null, fmt), repeat)
            print(f"| {fmt} | {old:,.0f} | {new:,.0f} | {new / old:.1f}x |")
            sys.stdout.flush()
    old = len(few) / median_time(lambda: columns_per_deal(few, tuple(Seat), 1), repeat)
    new = len(masks) / median_time(lambda: columns_text(masks, tuple(Seat), 1), repeat)
    print(f"| printall (kibitz dealer) | {old:,.0f} | {new:,.0f} | {new / old:.1f}x |")


def run_wall(argv: list[str], repeat: int) -> float:
    """Median wall time of a program writing to ``/dev/null``."""
    env = dict(os.environ, PYTHONPATH=ROOT)

    def once() -> None:
        with open(os.devnull, "wb") as null:
            subprocess.run(argv, stdout=null, stderr=subprocess.PIPE, check=True, env=env)

    return median_time(once, repeat)


def programs(deals: int, repeat: int) -> None:
    """Table 2: whole programs printing unconstrained deals."""
    kibitz = [sys.executable, "-m", "inference.commands"]
    have_dealer = os.path.exists(DEALER)
    print(f"| program | output | seconds for {deals:,} deals | deals/s |")
    print("|---|---|---:|---:|")
    for fmt in FORMATS:
        t = run_wall(kibitz + ["deal", "-n", str(deals), "--seed", "1", "--format", fmt, "1"], repeat)
        print(f"| kibitz deal | --format {fmt} | {t:.2f} | {deals / t:,.0f} |")
        sys.stdout.flush()
    with tempfile.TemporaryDirectory() as tmp:
        for action in ACTIONS:
            path = os.path.join(tmp, f"{action}.dl")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"produce {deals}\naction {action}\n")
            t = run_wall(kibitz + ["dealer", path, "--seed", "1"], repeat)
            print(f"| kibitz dealer | {action} | {t:.2f} | {deals / t:,.0f} |")
            sys.stdout.flush()
            if have_dealer:
                t = run_wall([DEALER, "-s", "1", path], repeat)
                print(f"| dealer | {action} | {t:.2f} | {deals / t:,.0f} |")
                sys.stdout.flush()
    if not have_dealer:
        print(f"\n(dealer not found at {DEALER}: apt-get install dealer)")


def main() -> None:
    """Print both tables."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=100_000, help="deals written in process (table 1)")
    ap.add_argument("--programs", type=int, default=1_000_000, help="deals printed by each program (table 2)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"# Kibitz printing benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}")
    print(f"# median of {args.repeat} runs; to {os.devnull}")
    print()
    writers(args.deals, args.repeat)
    print()
    programs(args.programs, args.repeat)


if __name__ == "__main__":
    main()
