"""Auction benchmark (issue 13, item 5): adding a whole auction's claims before the opening lead.

Run: ``python benchmarks/auction.py [--records 200] [--book sayc] [--corpus PATH] [--likelihood none]``. Takes every k-th
played record of the corpus (spread over all its folders; k so that about ``--records`` are taken),
builds declarer's play state before the opening lead (three hands concealed: dummy, LHO, RHO) and
times ``PlayState.add_auction`` with the book and the record's explanations: one event adding every
claim about the three concealed hands, and the keys of the auction's graded likelihood (``--likelihood
none``: without it; :mod:`inference.auction.likelihood`). Prints the median, 90th percentile and maximum time, the
claims added, and how many auctions were refused (an error such as ``TooComplexError``) by kind.
Each auction is timed once (the first add is the cost a player pays); the machine is shared, so
compare figures taken in one run.
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

from corpus import DEFAULT_CORPUS  # noqa: E402
from inference.errors import InferenceError  # noqa: E402
from inference.state.play import PlayState  # noqa: E402
from inference.io.records import PlayRecord, read_records  # noqa: E402


def played_records(corpus: Path, wanted: int) -> list[PlayRecord]:
    """About ``wanted`` played records with an auction, every k-th of the corpus in file order."""
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in (".pbn", ".lin") and "flagged" not in str(p))
    all_records = [r for f in files for r in read_records(f) if isinstance(r, PlayRecord) and r.calls]
    step = max(1, len(all_records) // wanted)
    return all_records[::step][:wanted]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--book", default="sayc")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS)
    parser.add_argument("--likelihood", default="default", help="the auction's likelihood: default or none")
    args = parser.parse_args()
    likelihood = None if args.likelihood == "none" else args.likelihood
    records = played_records(Path(args.corpus), args.records)
    times: list[float] = []
    claims: list[int] = []
    refused: Counter[str] = Counter()
    for rec in records:
        state = PlayState(rec.deal[rec.declarer], declarer=rec.declarer, contract=rec.contract)
        start = time.perf_counter()
        try:
            update = state.add_auction(rec.declarer if rec.dealer is None else rec.dealer, rec.calls, book=args.book,
                                       vulnerability=rec.vulnerable, explanations=rec.explanations,
                                       likelihood=likelihood, restore_passes=True)
        except InferenceError as exc:
            refused[type(exc).__name__] += 1
            times.append(time.perf_counter() - start)
            continue
        times.append(time.perf_counter() - start)
        claims.append(len(state.snapshot.inferences) if update is not None else 0)
    times.sort()
    print(f"auction benchmark: {len(records)} played corpus records, book {args.book} (likelihood "
          f"{args.likelihood}), declarer's view before the lead; {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d')}")
    print()
    print(f"{'':32} {'value':>10}")
    print(f"{'auctions':32} {len(times):>10}")
    print(f"{'claims added (median, max)':32} {statistics.median(claims) if claims else 0:>5} {max(claims or [0]):>4}")
    print(f"{'time median (ms)':32} {1000 * statistics.median(times):>10.0f}")
    print(f"{'time 90th percentile (ms)':32} {1000 * times[int(0.9 * (len(times) - 1))]:>10.0f}")
    print(f"{'time max (ms)':32} {1000 * times[-1]:>10.0f}")
    print(f"{'auctions over 100 ms':32} {sum(t > 0.1 for t in times):>10}")
    print(f"{'auctions over 1 s':32} {sum(t > 1 for t in times):>10}")
    print(f"{'refused':32} {sum(refused.values()):>10}  {dict(refused)}")


if __name__ == "__main__":
    main()
