"""Double-dummy evidence benchmark: do real defenders' cards say more about the layout through double-dummy play?

Run: ``cd /work/main && .venv/bin/python benchmarks/dd_evidence.py [--records 12] [-n 16] [--strengths 0.6,0.7,0.8,0.9]
[--book sayc] [--half evaluation] [--seed 1]``. Needs the double-dummy solver (``kibitz[bot]``).

GIB and Ben weigh their samples by how well the defenders' past cards fit double-dummy play in each sampled
layout. The weighted view cannot hold such a weight exactly (it depends on the whole layout), so this
measures, on real records, what it would add to what the view knows, by importance weights:

* **How often real defenders play a double-dummy best card**: at every defender's card once dummy is down
  (the opening lead and the last trick left out), in the true layout and, on average, in ``-n`` layouts
  drawn from the weighted view (defence model on) given everything seen, that card included; over all those
  cards, and over those where the defender had another legal card. The position solved is the one before
  the card.
* **Bits a card** (:mod:`knowledge`'s measure on the same records, but counted only at the decisions of
  declarer's side that follow a defender's card after the lead: trick 1's first decision of declarer's side
  is left out, so lawful's figure differs from :mod:`knowledge`'s): ``-n`` layouts drawn from the weighted
  view, each weighed by ``D = prod a`` over those earlier defenders' cards best in it, times ``1 - a`` for
  those not; the probability that a defender holds an unseen card is the
  view's exact probability times the mean ``D`` of the drawn layouts in which he holds it, shrunk towards the
  mean over all by :data:`SHRINK` pseudo-layouts (normalised over the two defenders). The weighted view's own
  exact bits are beside it, and lawful's. The weighted bits with ``D`` are an *estimate* (``-n`` layouts), the
  others exact.

Records: as :mod:`knowledge` picks them (one a file, files shuffled with ``--seed``). Intervals: 95%,
bootstrapped by record; the last column is each measure's difference from the weighted view's exact bits,
paired by record (negative: the weights know more).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS  # noqa: E402
from knowledge import bootstrap, evaluation_records, paired_difference, state_for  # noqa: E402
from dealer import Card, Seat  # noqa: E402
from inference.apps.bot import DoubleDummy, Position  # noqa: E402
from inference.io.halves import EVALUATION, HALVES  # noqa: E402
from inference.io.records import PlayRecord  # noqa: E402
from inference.rules.trick import legal_cards  # noqa: E402
from inference.state.play import PlayState  # noqa: E402

#: Pseudo-layouts that shrink the mean ``D`` of the layouts where a defender holds a card towards the mean of all
#: (few drawn layouts give a noisy mean, and noise costs bits).
SHRINK = 4

#: One earlier defender's card and the position before it.
Earlier = tuple[Card, Position]


def best_in(solver: DoubleDummy, layouts: list[list[int]], earlier: list[Earlier]) -> list[list[bool]]:
    """For each layout (dealt masks N E S W), whether each earlier card was a double-dummy best card in it."""
    tables = [position.table(row) for row in layouts for (_, position) in earlier]
    solved = iter(solver.solve(tables))
    out = []
    for _ in layouts:
        row = []
        for card, _ in earlier:
            tricks = next(solved)
            row.append(tricks[card] == max(tricks.values()))
        out.append(row)
    return out


def decision_bits(state: PlayState, layouts: list[list[int]], best: list[list[bool]], holder: dict[Card, Seat],
                  strengths: list[float]) -> tuple[dict[str, float], int]:
    """Summed bits of one decision's unseen cards (lawful, weighted exact, weighted with ``D`` per strength), and
    how many unseen cards."""
    lawful = state.odds("lawful").holder
    weighted = state.odds("weighted").holder
    out = {"lawful": 0.0, "weighted": 0.0, **{f"a={a}": 0.0 for a in strengths}}
    weights = {a: [math.prod(a if b else 1 - a for b in row) for row in best] for a in strengths}
    means = {a: sum(d) / len(d) for a, d in weights.items()}
    for card, by in weighted.items():
        h = holder[card]
        if not by.get(h):  # never in a weighted view (no lawful layout is weighed 0); counted, not scored
            out["zeros"] = out.get("zeros", 0.0) + 1
            continue
        out["lawful"] -= math.log2(lawful[card][h])
        out["weighted"] -= math.log2(by[h])
        for a, d in weights.items():
            score = {}
            for seat, p in by.items():
                held = [w for w, row in zip(d, layouts) if row[seat] >> card.index & 1]
                score[seat] = float(p) * (sum(held) + SHRINK * means[a]) / (len(held) + SHRINK)
            out[f"a={a}"] -= math.log2(score[h] / sum(score.values()))
    return out, len(weighted) - int(out.pop("zeros", 0))


def record_row(rec: PlayRecord, args: argparse.Namespace, solver: DoubleDummy, strengths: list[float],
               salt: int) -> tuple[dict[str, float], int, list[tuple[bool, float, bool]]]:
    """One record: summed bits per measure, (decision, card) pairs, and per defender's card (best in the true
    layout, share of drawn layouts where it is best, whether he had another legal card)."""
    holder = {Card.from_index(i): s for s in Seat for i in range(52) if rec.deal[s].mask >> i & 1}
    true = [rec.deal[s].mask for s in Seat]
    state = state_for(rec, args.book != "none", "default", "", args.book)
    sums: dict[str, float] = {}
    pairs = 0
    cards: list[tuple[bool, float, bool]] = []
    earlier: list[Earlier] = []
    for i, card in enumerate(rec.play):
        seat = state.to_play
        side = seat in (rec.declarer, rec.declarer.partner)
        if i >= 1 and side and earlier:
            layouts = state.sample_masks(args.n, seed=salt + i, view="weighted").tolist()
            best = best_in(solver, layouts, earlier)
            bits, unseen = decision_bits(state, layouts, best, holder, strengths)
            for k, v in bits.items():
                sums[k] = sums.get(k, 0.0) + v
            pairs += unseen
        before = (card, Position.of(state))
        state.play(card)
        if i == 0:
            state.table_dummy(str(rec.deal[rec.declarer.partner]))
        elif not side and i < 48:
            drawn = state.sample_masks(args.n, seed=salt + 100 + i, view="weighted").tolist()
            flags = best_in(solver, [true] + drawn, [before])
            position = before[1]
            led = position.trick[0].suit if position.trick else None
            choice = len(legal_cards(true[seat] & ~position.gone, led)) > 1
            cards.append((flags[0][0], sum(f[0] for f in flags[1:]) / len(drawn), choice))
            earlier.append(before)
    return sums, pairs, cards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--records", type=int, default=12)
    ap.add_argument("-n", type=int, default=16, help="layouts drawn a decision (default 16)")
    ap.add_argument("--strengths", default="0.6,0.7,0.8,0.9", help="the weights a of a best card (1 - a otherwise)")
    ap.add_argument("--book", default="none", help="read the auction with this book too (default: none)")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--half", choices=HALVES, default=EVALUATION)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    strengths = [float(a) for a in args.strengths.split(",")]
    solver = DoubleDummy()
    records = evaluation_records(args.corpus, args.records, args.seed, args.half)
    rows: dict[str, list[tuple[float, int, int]]] = {}
    cards: list[tuple[bool, float]] = []
    start = time.time()
    for k, rec in enumerate(records):
        print(f"{k + 1}/{len(records)} {rec.label}", file=sys.stderr, flush=True)
        sums, pairs, found = record_row(rec, args, solver, strengths, 1_000_000 * k)
        cards += found
        for name, bits in sums.items():
            rows.setdefault(name, []).append((bits, pairs, 0))
    report(args, len(records), rows, cards, time.time() - start)


def report(args: argparse.Namespace, n_records: int, rows: dict[str, list[tuple[float, int, int]]],
           cards: list[tuple[bool, float, bool]], seconds: float) -> None:
    """The tables: best cards, bits a card per measure, and each weight's difference from the exact view paired
    by record."""
    print(f"# Kibitz double-dummy evidence benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; {n_records} {args.half}-half records "
          f"(seed {args.seed}), {args.n} layouts a decision, book {args.book}, the defence model as shipped; "
          f"{seconds:.0f} s")
    print()
    for what, chosen in (("", cards), (" with a choice", [c for c in cards if c[2]])):
        true_best = sum(t for t, _, _ in chosen) / max(len(chosen), 1)
        drawn_best = sum(d for _, d, _ in chosen) / max(len(chosen), 1)
        print(f"{len(chosen):,} defenders' cards after the lead{what}: a double-dummy best card in the true layout "
              f"{100 * true_best:.1f}%, in the weighted view's layouts {100 * drawn_best:.1f}%")
    print()
    print("| measure | bits a card [95%] | lawful's bits removed | minus weighted, exact, paired by record [95%] |")
    print("|---|---:|---:|---:|")
    lawful = bootstrap(rows["lawful"])[0] if rows.get("lawful") else math.nan
    exact = np.array([r[:2] for r in rows["weighted"]], dtype=float)
    for name, per in rows.items():
        mean, lo, hi = bootstrap(per)
        diff, d_lo, d_hi = paired_difference(np.array([r[:2] for r in per], dtype=float), exact)
        label = {"lawful": "lawful (exact)", "weighted": "weighted, exact"}.get(name, f"weighted with D, {name} "
                                                                              "(estimate)")
        print(f"| {label} | {mean:.4f} [{lo:.4f}, {hi:.4f}] | {100 * (1 - mean / lawful):.1f}% | "
              f"{diff:+.4f} [{d_lo:+.4f}, {d_hi:+.4f}] |")


if __name__ == "__main__":
    main()
