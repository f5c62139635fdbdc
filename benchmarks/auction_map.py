"""The map of the corpus's calls and their ceiling: which contexts a book leaves unread, and the bits there.

Run: ``python benchmarks/auction_map.py [--book sayc] [--jobs 2] [--top 30] [--corpus PATH]``.
Every auction of the corpus is read with the book (:mod:`inference.auction.census`); a call's context
is its side (unopened, opener, other), round, contested or quiet, and the call. Contexts are fitted
on the calibration half and scored on the evaluation half: the bits a call's context says about its
caller's HCP and suit lengths (a perfect per-context model's estimate, features one at a time).
Prints the coverage, the bits in read and unread calls, and the contexts with the most unread bits.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS  # noqa: E402
from inference.auction.census import SHRINK, take_census  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--book", default="sayc")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    args = ap.parse_args()
    start = time.time()
    census = take_census([args.corpus], args.book, jobs=args.jobs)
    n = census.calls
    read = sum(r.read for r in census.rows)
    total, unread = census.bits(), census.bits(read=False)
    calls, dread, dbits = census.defenders
    print(f"# Kibitz auction map, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; book {args.book}; {census.records:,} auctions; contexts fitted on the "
          f"calibration half (shrink {SHRINK}), scored on the evaluation half; {time.time() - start:.0f} s")
    print()
    print(f"Evaluation half: {n:,} calls in {len(census.rows):,} contexts; read (book or explanation) "
          f"{read:,} ({100 * read / n:.1f}%); defenders' calls {calls:,}, read {100 * dread / max(calls, 1):.1f}%.")
    print(f"Ceiling (a perfect per-context model, HCP and four lengths one at a time): {total / n:.3f} bits a call "
          f"on average; in the calls read {census.bits(read=True) / max(read, 1):.3f}, in those unread "
          f"{unread / max(n - read, 1):.3f}; the unread calls hold {100 * unread / total:.1f}% of the bits; "
          f"defenders' calls {dbits / max(calls, 1):.3f} bits a call.")
    print()
    print("| context (side, round, contested, call) | calls | read | bits a call (HCP + lengths) | unread bits | "
          "share of all unread bits |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in census.rows[:args.top]:
        left = (r.calls - r.read) * r.bits
        print(f"| {r.key} | {r.calls:,} | {100 * r.read / r.calls:.0f}% | {r.bits:.2f} ({r.hcp_bits:.2f} + "
              f"{r.length_bits:.2f}) | {left:,.0f} | {100 * left / unread:.1f}% |")


if __name__ == "__main__":
    main()
