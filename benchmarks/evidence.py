"""Evidence benchmark: what the defence model costs a card, and the weighted view's odds and samples with it.

Run: ``cd /work/main && .venv/bin/python benchmarks/evidence.py [--records 12] [--cards 40] [--corpus PATH]``.
Records: complete corpus records (the LIN files sorted, shuffled with ``random.Random(3)``, the first
complete record of each file). Each is replayed from declarer's view for its first ``--cards`` cards,
twice: with the shipped defence model and without. After every card: the card played (``play``, and
with the model the weight update, ``defence_weights``), the weighted view's exact odds (built afresh)
and 1,000 layouts (``sample_masks``); the lawful view's odds and samples beside them, in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS, complete_records  # noqa: E402
from inference.state.play import PlayState  # noqa: E402
from inference.io.records import PlayRecord  # noqa: E402


def records(corpus: str, n: int) -> list[PlayRecord]:
    """The first complete record of each LIN file, files shuffled with a fixed seed, until ``n``."""
    files = sorted(Path(corpus).rglob("*.lin"))
    random.Random(3).shuffle(files)
    out: list[PlayRecord] = []
    for f in files:
        if len(out) >= n:
            break
        out += complete_records([f], 1)
    return out


def replay(rec: PlayRecord, cards: int, model: str | None, times: dict[str, list[float]]) -> None:
    """Time each card, then the odds and 1,000 samples of the weighted and lawful views."""
    tag = "model" if model else "no model"
    state = PlayState(str(rec.deal[rec.declarer]), declarer=rec.declarer, contract=str(rec.contract),
                      defence_model=model)
    for i, card in enumerate(rec.play[:cards]):
        t = time.perf_counter()
        state.play(card)
        if i == 0:
            state.table_dummy(str(rec.deal[rec.declarer.partner]))
        state.defence_weights()
        times[f"card played ({tag})"].append(time.perf_counter() - t)
        for view in ("weighted", "lawful") if model else ("weighted",):
            t = time.perf_counter()
            state.odds(view)
            times[f"{view} odds ({tag})"].append(time.perf_counter() - t)
            t = time.perf_counter()
            state.sample_masks(1000, seed=1, view=view)
            times[f"{view} 1,000 samples ({tag})"].append(time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--records", type=int, default=12)
    ap.add_argument("--cards", type=int, default=40)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    args = ap.parse_args()
    chosen = records(args.corpus, args.records)
    times: dict[str, list[float]] = defaultdict(list)
    for rec in chosen:
        for model in ("default", None):
            replay(rec, args.cards, model, times)
    print(f"# Kibitz evidence benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {len(chosen)} records, first {args.cards} cards")
    print()
    print("| measure | timed | median | 90th percentile | worst |")
    print("|---|---:|---:|---:|---:|")
    for name in sorted(times):
        xs = sorted(times[name])
        print(f"| {name} | {len(xs)} | {statistics.median(xs) * 1000:.1f} ms | {xs[int(0.9 * len(xs))] * 1000:.1f} ms | "
              f"{xs[-1] * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
