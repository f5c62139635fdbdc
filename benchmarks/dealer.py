"""Dealer benchmark: setup (count) time and deals/s for the specs of issue 3, beside deal-and-select.

Run: ``python benchmarks/dealer.py [--deals 100000] [--repeat 3] [--select-seconds 2]``.
Prints two tables (median of ``--repeat`` runs): the exact dealer on specs, with the baseline
(plain random deals filtered by the spec, time-capped) in the same process and the printing rates
(``kibitz deal``'s PBN writer, and the batch printers of ``kibitz dealer``: printoneline,
printpbn); then whole scripts (``dealer.run.runner``): exact or estimate, setup, deals/s produced.
numpy's transparent-huge-page advice is off, as ``kibitz`` sets it (``NUMPY_MADVISE_HUGEPAGE=1`` in the
environment measures with it on).
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import sys
import time

os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")  # as the kibitz command runs (before numpy loads)

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dealer.lang.grid import MAX_HCP  # noqa: E402
from dealer.tables.exact import ExactDealer, clear_caches  # noqa: E402
from dealer.cards.pbnio import write_deals  # noqa: E402
from dealer.cards.printing import oneline_text, pbn_text  # noqa: E402
from dealer.run.script_dealer import ScriptDealer  # noqa: E402
from dealer.spec.spec import DealSpec  # noqa: E402
from dealer.lang.statements import parse_statements  # noqa: E402

BALANCED = "shape({s}, any 4333 + any 4432 + any 5332)"
SPECS = {
    "A": "spades(west) == 9",
    "B": "spades(west) == 9 && shape(east, xx66)",
    "C": "hcp(north) == 3",
    "D": "hcp(north) == 2 && hcp(south) <= 1",
    "E": "shape(east, any 5332) && hcp(east) == 34",
    "F": BALANCED.format(s="north") + " && hcp(north) >= 15 && hcp(north) <= 17 && "
         "hearts(south) >= 5 && hcp(south) >= 8 && hcp(south) <= 11",
    "G": "1",
    "H": "shape(north, any 4333) && hcp(north) >= 10 && hcp(north) <= 12 && "
         "shape(south, any 4441 + any 5440) && hcp(south) >= 11 && hcp(south) <= 15",
    "I": "hcp(west) >= 11 && hcp(west) <= 15 && hcp(east) >= 6 && hcp(east) <= 10",
    "J": "hcp(north) >= 4 && hcp(south) >= 4 && hcp(east) >= 4 && hcp(west) >= 4",
    "K": "spades(north) >= 5 && hearts(east) >= 5 && diamonds(south) >= 5 && clubs(west) >= 5",
    # S4's seats as a spec: four constrained seats, North shape-heavy (the honours-last order, dealer.tables.order)
    "L": BALANCED.format(s="north") + " && hcp(north) >= 15 && hcp(north) <= 17 && hearts(south) >= 5 && "
         "hcp(south) >= 8 && hcp(east) <= 10 && hcp(west) <= 10 && spades(west) <= 4",
}
#: Whole scripts: a cross-seat 'or' (a union of per-seat parts), per-seat counts in the tables, a
#: second count on one seat (losers beside HCP: a side count, dealer.spec.sidecount) beside cross-seat
#: arithmetic (exact through the seats' labels, dealer.spec.cross), a third count (filtered: an estimate)
#: and four constrained seats beyond the tables' patience.
SCRIPTS = {
    "S1": "condition (hcp(north) >= 20 or hcp(south) >= 20) and (hascard(west, 2C) or hascard(east, 2D))",
    "S2": "condition controls(north) >= 6 && top3(north, spades) >= 2 && shape(north, any 5332)",
    "S3": "condition hcp(north) + hcp(south) >= 26 && losers(north) <= 6",
    "S5": "condition hcp(north) + hcp(south) >= 26 && spades(north) + spades(south) >= 8",
    "S6": "condition hcp(east) > hcp(west) && hcp(north) + hcp(south) >= 20",
    "S7": "condition hcp(north) >= 12 && losers(north) <= 7 && cccc(north) >= 1200",
    "S4": BALANCED.format(s="north") + " && hcp(north) >= 15 && hcp(north) <= 17 && hearts(south) >= 5 && "
          "hcp(south) >= 8 && hcp(east) <= 10 && hcp(west) <= 10 && spades(west) <= 4",
}


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def deal_and_select(spec: DealSpec, seconds: float, rng: np.random.Generator) -> tuple[float, float, int, int]:
    """Plain random deals, kept when they satisfy the spec: (accepted/s, acceptance rate, accepted, dealt)."""
    plain = ExactDealer(DealSpec())
    masks_ok = {seat: ss.accepted(seat) for seat, ss in spec.seats.items()}
    pop = np.array([bin(i).count("1") for i in range(1 << 13)])
    hcp_n = np.array([4 * (n & 1) + 3 * (n >> 1 & 1) + 2 * (n >> 2 & 1) + (n >> 3 & 1) for n in range(16)])
    from dealer.cards.shapes import ALL_SHAPES

    shape_id = {s: i for i, s in enumerate(ALL_SHAPES)}
    index = np.full((14, 14, 14, 14), -1)
    for s, i in shape_id.items():
        index[s] = i
    dealt = kept = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        batch = plain.sample_masks(20_000, rng)
        ok = np.ones(len(batch), dtype=bool)
        for seat, accepted in masks_ok.items():
            col = batch[:, seat]
            hold = [((col >> np.uint64(13 * s)) & np.uint64(0x1FFF)).astype(np.int64) for s in range(4)]
            lengths = [pop[h] for h in hold]
            hcp = sum(hcp_n[h & 0xF] for h in hold)
            cell = index[lengths[0], lengths[1], lengths[2], lengths[3]] * (MAX_HCP + 1) + hcp
            if accepted is not None:
                ok &= accepted[cell]
        dealt += len(batch)
        kept += int(ok.sum())
    elapsed = time.perf_counter() - start
    return kept / elapsed, kept / dealt, kept, dealt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--select-seconds", type=float, default=2.0)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    print(f"# Kibitz dealer benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}")
    print(f"# median of {args.repeat} runs; {args.deals:,} deals per run; deal-and-select capped at "
          f"{args.select_seconds:g} s")
    print()
    print("| spec | setup (count) s | deals/s in memory | deals/s writing PBN | printoneline deals/s "
          "| printpbn deals/s | deal-and-select deals/s | acceptance | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, text in SPECS.items():
        if args.only and name not in args.only:
            continue
        spec = DealSpec.parse(text)
        def setup_once() -> None:
            clear_caches()  # measure a cold setup every time
            ExactDealer(spec)

        setup = median_time(setup_once, args.repeat)
        dealer = ExactDealer(spec)
        rng = np.random.default_rng(1)
        mem = median_time(lambda: dealer.sample_masks(args.deals, rng), args.repeat)
        n_pbn = max(args.deals // 10, 1000)

        def pbn() -> None:
            write_deals(dealer.sample_masks(n_pbn, rng), io.StringIO(), "pbn")

        pbn_t = median_time(pbn, args.repeat)
        masks = dealer.sample_masks(args.deals, rng)
        oneline_t = median_time(lambda: oneline_text(masks), args.repeat)
        printpbn_t = median_time(lambda: pbn_text(masks, 1, "bench"), args.repeat)
        rate, acc, kept, dealt = deal_and_select(spec, args.select_seconds, np.random.default_rng(2))
        rate_mem = args.deals / mem
        speedup = f"{rate_mem / rate:,.0f}x" if rate > 0 else "inf (none found)"
        acc_text = f"{acc:.3g}" if kept else f"0 of {dealt:,}"
        print(f"| {name} | {setup:.3f} | {rate_mem:,.0f} | {n_pbn / pbn_t:,.0f} | {args.deals / oneline_t:,.0f} "
              f"| {args.deals / printpbn_t:,.0f} | {rate:,.0f} | {acc_text} | {speedup} |")
        sys.stdout.flush()
    print_legend(args.only)
    print()
    print("| script | count | setup s | deals/s produced | old path (cross-seat filtered): count | setup s "
          "| deals/s | deals/s new / old |")
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for name, text in SCRIPTS.items():
        if args.only and name not in args.only:
            continue
        syntax = parse_statements(text)
        cells = []
        rates = []
        for across in (True, False):  # the new path, then the old one (cross-seat conditions filtered)
            setup = median_time(lambda: ScriptDealer(syntax, patience=1_000_000, across=across), args.repeat)
            run = ScriptDealer(syntax, patience=1_000_000, across=across)
            rng = np.random.default_rng(3)
            produce = median_time(lambda: run.produce(args.deals, 10 ** 15, rng), args.repeat)
            kind = "exact" if run.exact else "estimate" + (f" ({', '.join(s.name for s in run.loosened)} filtered)"
                                                            if run.loosened else "")
            cells += [kind, f"{setup:.2f}", f"{args.deals / produce:,.0f}"]
            rates.append(args.deals / produce)
        print(f"| {name} | {' | '.join(cells)} | {rates[0] / rates[1]:.2f}x |")
        sys.stdout.flush()
    print()
    for name, text in SCRIPTS.items():
        if not args.only or name in args.only:
            print(f"- {name}: `{text}`")


def print_legend(only: str = "") -> None:
    """The specs' legend under a table: one line per spec shown."""
    print()
    for name, text in SPECS.items():
        if not only or name in only:
            print(f"- {name}: `{text}`")


if __name__ == "__main__":
    main()
