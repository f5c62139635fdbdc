"""Value of inference: the reference declarer with the lawful view against the agreement and weighted views.

Run: ``python benchmarks/bot.py [--deals 200] [-n 30] [--jobs 2 | --scheduler tcp://host:8786]`` (needs
``pip install 'kibitz[bot]'``). The deals are played on Dask (:func:`inference.distributed.run_map`:
``--jobs`` local worker processes, or a cluster's workers); ``--jobs 1`` plays them in this process.
Each deal's play depends on its seed alone, so the numbers are the same however the deals are shared.

Deals: the first complete records of ``../shared/corpus`` (their contract and declarer; the recorded
play is not used), or, without the corpus, deals from the exact dealer with a fixed seed played in
3NT by the North-South hand with more HCP. The defenders are simulated: they lead by the
``fourth-best-nt`` agreement, give standard count when following to declarer's leads, and otherwise
defend double dummy (:class:`inference.bot.AgreementDefence`). Declarer reads the lead and the
count signals into inferences (:class:`inference.bot.CardReader`) and plays each deal three times,
sampling ``n`` layouts a decision from the lawful, agreement and weighted views; the same seed is used
in every view of a deal. Prints declarer's mean tricks per view and the paired difference from the
lawful view with a 95% confidence interval (normal approximation over deals).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS, complete_records  # noqa: E402
from dealer import Deal, Seat  # noqa: E402
from dealer.exact import ExactDealer  # noqa: E402
from dealer.spec import DealSpec  # noqa: E402
from inference.contract import Contract  # noqa: E402

VIEWS = ("lawful", "agreement", "weighted")


def deals(n: int, corpus: Path) -> list[tuple[str, str, int, int]]:
    """(PBN deal, contract, declarer, index) for ``n`` deals."""
    out: list[tuple[str, str, int, int]] = []
    if corpus.is_dir():
        files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in (".pbn", ".lin"))
        for r in complete_records(files, n):
            out.append((r.deal.to_pbn(), str(r.contract), int(r.declarer), len(out)))
    if len(out) < n:
        for masks in ExactDealer(DealSpec()).sample_masks(n - len(out), 11):
            deal = Deal.from_masks([int(m) for m in masks])
            declarer = Seat.N if deal[Seat.N].hcp >= deal[Seat.S].hcp else Seat.S
            out.append((deal.to_pbn(), "3NT", int(declarer), len(out)))
    return out


def play_one(job: tuple[str, str, int, int, int, int]) -> dict[str, object]:
    """Play one deal in every view; returns tricks, fallbacks and seconds per view."""
    from inference.bot import AgreementDefence, CardReader, DoubleDummy, Table, play_deal
    from inference.leads import load_carding_agreement, load_lead_agreement

    pbn, contract_text, declarer_i, index, n, tricks = job
    deal = Deal.from_pbn(pbn)
    declarer = Seat(declarer_i)
    contract = Contract.parse(contract_text)
    solver = DoubleDummy()
    lead = load_lead_agreement("fourth-best-nt")
    carding = load_carding_agreement("standard-count")
    dd = solver.solve([Table(deal.masks, declarer.lho, (), contract.strain)])[0]
    row: dict[str, object] = {"index": index, "dd": 13 - max(dd.values())}
    for view in VIEWS:
        start = time.perf_counter()
        result = play_deal(deal, declarer, contract, AgreementDefence(lead, carding, solver), n=n, seed=1000 * index,
                           view=view, solver=solver, reader=CardReader(lead, carding), tricks=tricks)
        row[view] = result.declarer_tricks
        row[f"{view} fallbacks"] = result.fallbacks
        row[f"{view} s"] = time.perf_counter() - start
    return row


def play_all(jobs: list[tuple[str, str, int, int, int, int]], workers: int = 1, scheduler: str | None = None,
             bar: Any = None) -> list[dict[str, object]]:
    """:func:`play_one` on every job, in the jobs' order: in this process (``workers`` 1, no
    ``scheduler``) or on Dask; ``bar`` (tqdm) moves as each deal finishes."""
    from inference.distributed import run_map  # in this process for one worker and no scheduler

    return run_map(play_one, jobs, jobs=workers, scheduler=scheduler, name="bot",
                   on_result=None if bar is None else lambda k, row: bar.update(1))


def interval(diffs: list[int]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval of paired differences (normal approximation)."""
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return mean, mean - half, mean + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("-n", type=int, default=30, help="layouts per decision")
    ap.add_argument("--tricks", type=int, default=13, help="tricks the bot plays before both sides go double dummy")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scheduler", metavar="ADDRESS", help="a Dask cluster's scheduler (tcp://host:8786)")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    args = ap.parse_args()
    from tqdm import tqdm

    sample = deals(args.deals, Path(args.corpus))
    jobs = [(pbn, c, d, i, args.n, args.tricks) for pbn, c, d, i in sample]
    start = time.perf_counter()
    rows = play_all(jobs, args.jobs, args.scheduler, tqdm(total=len(jobs), desc="deals", file=sys.stderr))
    elapsed = time.perf_counter() - start
    source = "corpus" if Path(args.corpus).is_dir() else "dealer, seed 11"
    print(f"# Kibitz bot benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {len(rows)} deals ({source}), {args.n} layouts a decision, "
          f"{args.scheduler or f'{args.jobs} processes'}, {elapsed:.0f} s")
    print()
    print("| view | declarer's mean tricks | minus lawful: mean [95% CI] | better / same / worse deals "
          "| decisions on the lawful fallback | seconds a deal (median) |")
    print("|---|---:|---:|---:|---:|---:|")
    for view in VIEWS:
        tricks = [int(r[view]) for r in rows]  # type: ignore[call-overload]
        diffs = [int(r[view]) - int(r["lawful"]) for r in rows]  # type: ignore[call-overload]
        mean, lo, hi = interval(diffs)
        better = sum(d > 0 for d in diffs)
        worse = sum(d < 0 for d in diffs)
        cmp = "(baseline)" if view == "lawful" else f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        fallbacks = sum(int(r[f"{view} fallbacks"]) for r in rows)  # type: ignore[call-overload]
        secs = statistics.median(float(r[f"{view} s"]) for r in rows)  # type: ignore[arg-type]
        print(f"| {view} | {statistics.fmean(tricks):.3f} | {cmp} | {better} / {len(rows) - better - worse} / {worse} "
              f"| {fallbacks} | {secs:.2f} |")
    dd = [int(r["dd"]) for r in rows]  # type: ignore[call-overload]
    print()
    print(f"Double dummy (the best opening lead, both sides perfect): {statistics.fmean(dd):.3f} tricks.")


if __name__ == "__main__":
    main()
