"""Value of inference: the reference declarer with the lawful view against the agreement and weighted
views and against the omniscient declarer, on real deals with their auctions and opening leads.

Run: ``python benchmarks/bot.py [--deals 1000] [-n 30] [--book natural-wide] [--jobs 2 | --scheduler
tcp://host:8786]`` (needs ``pip install 'kibitz[bot]'``). The deals are played on worker processes
(:func:`inference.distributed.run_map`: ``--jobs`` local worker processes, or a cluster's workers);
``--jobs 1`` plays them in this process. Each deal's play depends on its seed alone, so the numbers are
the same however the deals are shared.

Deals: records of ``../shared/corpus`` with an auction in which a defender made a non-pass call or
passed before anyone opened, taken in turn from each source folder (files in name order; a deal
played at several tables is taken once). Each is played in its recorded contract by its recorded
declarer; the recorded opening lead is made, then the defenders defend double dummy, giving standard
count among double-dummy-equal cards when following to declarer's leads
(:class:`inference.apps.bot.AgreementDefence`); with ``--defence model`` they choose among double-dummy-equal
cards as a model of real defenders does (:class:`inference.apps.bot.ModelDefence`; fit it on the evaluation
half, ``kibitz defence CORPUS --half evaluation --model eval.json``, so that it is not declarer's own
model, and pass ``--defence-model eval.json``), with ``--defence random`` at random (seeded by the deal
and the position, so the views stay paired); then declarer reads no lead or count signals. Without the corpus: deals from the exact dealer with a fixed
seed, 3NT by the North-South hand with more HCP, no auction.

Declarer plays each deal four times: sampling ``n`` layouts a decision from the lawful, the agreement
and the weighted view (the auction read with ``--book`` and the record's explanations, the lead read
by ``fourth-best-nt`` against notrump, count signals; :class:`inference.apps.bot.CardReader`), and as the
omniscient declarer who sees every card (double dummy: the ceiling). The same seed is used in every
view of a deal. Prints mean tricks, paired differences from the lawful view with 95% intervals (normal
approximation over deals), the share of the lawful-to-omniscient gap each view recovers (95% interval
from a seeded paired bootstrap), and per decision: the tricks each view's choices lost double dummy,
and at the first card where a view chose differently from the lawful view, which choice was right
double dummy. ``--views`` may add ``unweighted`` (the weighted view without the defence model: the
auction alone), ``model`` (the weighted view without the auction: the defence model alone) and ``true`` (declarer told each defender's true suit lengths and HCP once dummy is down:
what any inference about lengths and HCP could win). ``--views lawful,reseeded`` plays the lawful view twice, the second time with another seed:
the noise floor, what the samples alone change (``--report main.jsonl control.jsonl`` joins the rows).
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
from itertools import zip_longest
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS  # noqa: E402
from dealer import Card, Deal, Seat  # noqa: E402
from dealer.tables.exact import ExactDealer  # noqa: E402
from dealer.spec.spec import DealSpec  # noqa: E402
from inference.rules.contract import Contract, Strain  # noqa: E402
from inference.io.records import PlayRecord, read_records  # noqa: E402

VIEWS = ("lawful", "agreement", "weighted")
ALL = (*VIEWS, "omniscient")
#: The views whose results ``--reuse`` copies from an earlier run (neither reads the declarer's model).
REUSABLE = ("lawful", "omniscient")
#: More declarers (``--views``): the weighted view without the defence model (the auction alone), the weighted
#: view without the auction (the defence model alone), and the declarer who knows each defender's true suit
#: lengths and HCP (the agreement view on those claims).
UNWEIGHTED, MODEL_ONLY, TRUE = "unweighted", "model", "true"
#: The defenders (``--defence``): signals by stated agreements, or double dummy choosing among equal cards by a
#: model of real defenders (``--defence-model``), or at random.
DEFENCES = ("agreement", "model", "random")
#: The noise floor: the lawful view again with another seed (``--views lawful,reseeded``). What it changes
#: against the lawful view is what 30 samples a decision change by chance.
RESEEDED = "reseeded"
Job = dict[str, Any]


def heard_defenders(rec: PlayRecord) -> bool:
    """Whether a defender made a non-pass call, or passed before anyone opened, in the record's auction."""
    from inference.auction.context import call_token, omitted_passes

    if rec.dealer is None or not rec.calls:
        return False
    try:
        tokens = ["P"] * omitted_passes(rec.dealer, rec.calls, rec.declarer) + [call_token(c) for c in rec.calls]
    except ValueError:
        return False
    defenders = (rec.declarer.lho, rec.declarer.rho)
    opened = False
    for i, t in enumerate(tokens):
        seat = Seat((int(rec.dealer) + i) % 4)
        if seat in defenders and (t != "P" or not opened):
            return True
        opened = opened or t not in ("P", "X", "XX")
    return False


def _folder_records(folder: Path) -> Iterator[tuple[str, PlayRecord]]:
    for f in sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".pbn", ".lin")):
        for r in read_records(f):
            if isinstance(r, PlayRecord) and r.play and heard_defenders(r):
                yield folder.name, r


def corpus_jobs(n: int, corpus: Path) -> list[Job]:
    """The first ``n`` qualifying records, one folder after another in turn."""
    out: list[Job] = []
    seen: set[tuple[str, int]] = set()
    streams = [_folder_records(d) for d in sorted(p for p in corpus.iterdir() if p.is_dir())]
    while streams and len(out) < n:
        for stream in list(streams):
            item = next(stream, None)
            while item is not None and (item[1].deal.to_pbn(), int(item[1].declarer)) in seen:
                item = next(stream, None)
            if item is None:
                streams.remove(stream)
                continue
            folder, rec = item
            seen.add((rec.deal.to_pbn(), int(rec.declarer)))
            out.append({"pbn": rec.deal.to_pbn(), "contract": str(rec.contract), "declarer": int(rec.declarer),
                        "lead": str(rec.play[0]), "dealer": int(rec.dealer or 0), "calls": rec.calls,
                        "vulnerable": rec.vulnerable, "explanations": rec.explanations,
                        "source": folder, "label": rec.label.replace(str(corpus) + os.sep, ""), "index": len(out)})
            if len(out) >= n:
                break
    return out


def dealer_jobs(n: int, first: int) -> list[Job]:
    out: list[Job] = []
    for masks in ExactDealer(DealSpec()).sample_masks(n, 11):
        deal = Deal.from_masks([int(m) for m in masks])
        declarer = Seat.N if deal[Seat.N].hcp >= deal[Seat.S].hcp else Seat.S
        out.append({"pbn": deal.to_pbn(), "contract": "3NT", "declarer": int(declarer), "lead": None,
                    "calls": (), "source": "dealer", "label": f"dealt {len(out) + 1}", "index": first + len(out)})
    return out


def replay_tables(deal: Deal, declarer: Seat, strain: Strain, cards: list[str]) -> list[tuple[Any, Card, int]]:
    """(table, card chosen, card number) at each of declarer's side's choices with two or more legal cards."""
    from inference.apps.bot import Table
    from inference.rules.trick import Trick, legal_cards

    hands = list(deal.masks)
    current = Trick(declarer.lho)
    out = []
    for k, text in enumerate(cards):
        card = Card.parse(text)
        seat = current.to_play
        if seat not in (declarer.lho, declarer.rho) and len(legal_cards(hands[seat], current.led_suit)) > 1:
            held = tuple(h | sum(c.bit for s, c in current.cards if s == i) for i, h in enumerate(hands))
            out.append((Table(held, current.leader, tuple(c for _, c in current.cards), strain), card, k))
        hands[seat] &= ~card.bit
        current = current.add(card, strain)
        if current.complete:
            current = current.next_trick()
    return out


def auction_truth(job: Job, declarer: Seat, deal: Deal, book: str) -> tuple[int, int, int]:
    """(the auction's claims about the defenders, those tagged consistent, consistent ones false on the deal)."""
    from inference.auction.reading import auction_inferences
    from inference.claims.language import parse_claim
    from inference.claims.features import evaluate, hand_value
    from inference.claims.inferences import Tag

    if not job.get("calls"):
        return 0, 0, 0
    infs = [i for i in auction_inferences(Seat(job["dealer"]), job["calls"], book, job["vulnerable"],
                                          job["explanations"] or None, declarer) if i.by in (declarer.lho, declarer.rho)]
    consistent = [i for i in infs if i.tag == Tag.CONSISTENT]
    false = sum(not bool(evaluate(parse_claim(i.claim), lambda f: _one(hand_value(f, deal.masks[f.seat])), 1)[0])
                for i in consistent)
    return len(infs), len(consistent), false


def _one(value: int) -> Any:
    import numpy as np

    return np.array([value])


class TrueHands:
    """A card reader that tells declarer each defender's true suit lengths and HCP once dummy is down."""

    def __init__(self, deal: Deal, declarer: Seat) -> None:
        self.deal, self.declarer = deal, declarer

    def after_lead(self, state: Any, lead: Card) -> None:
        claims = []
        for who, seat in (("LHO", self.declarer.lho), ("RHO", self.declarer.rho)):
            hand = self.deal[seat]
            s, h, d, c = hand.shape
            claims.append(dict(name=f"{who} true hand", by=who, claim=f"spades({who}) == {s} && hearts({who}) == {h} "
                               f"&& diamonds({who}) == {d} && clubs({who}) == {c} && hcp({who}) == {hand.hcp}"))
        state.add_inferences(claims)

    def after_trick(self, state: Any) -> None:
        """Nothing more to read."""


def kept_share(state: Any) -> float:
    """The share of the lawful layouts the weighted view effectively keeps: ``(sum w)**2 / (N * sum w**2)``
    over every lawful layout, exactly (``n`` layouts drawn with these weights from the lawful view would
    have an effective sample size of ``n`` times it)."""
    from inference.exact.layouts import View

    try:
        first, second = state.layouts("weighted").count(), state.layouts(View("weighted", power=2)).count()
        return float(first * first / (state.layouts("lawful").count() * second))
    except Exception:  # a view that cannot be built is counted by the bot's fallbacks
        return float("nan")


_MODELS: dict[str, Any] = {}


def _defence(job: Job, solver: Any, lead: Any, carding: Any, opening: Card | None) -> Any:
    """The job's defenders, fresh for one view (every view meets the same choices: seeded by the deal)."""
    from inference.apps.bot import AgreementDefence, ModelDefence
    from inference.defence.model import load_model

    kind = job.get("defence", "agreement")
    if kind == "agreement":
        return AgreementDefence(lead, carding, solver, opening=opening)
    model = None
    if kind == "model":
        name = job.get("defence_model") or "default"
        model = _MODELS.get(name) or _MODELS.setdefault(name, load_model(name))
    from inference.auction.context import suits_bid

    bids = suits_bid(Seat(job["dealer"]), job["calls"], Seat(job["declarer"])) if job.get("calls") else None
    return ModelDefence(model, solver, opening=opening, seed=job["index"], bids=bids)


def play_one(job: Job) -> dict[str, object]:
    """Play one deal in every view; returns tricks, card sequences, per-decision losses and seconds per view."""
    from inference.apps.bot import CardReader, DoubleDummy, HeardAuction, play_deal
    from inference.state.leads import load_carding_agreement, load_lead_agreement

    deal = Deal.from_pbn(job["pbn"])
    declarer = Seat(job["declarer"])
    contract = Contract.parse(job["contract"])
    solver = DoubleDummy()
    lead = load_lead_agreement("fourth-best-nt")
    carding = load_carding_agreement("standard-count")
    opening = Card.parse(job["lead"]) if job.get("lead") else None
    heard = None
    if job.get("calls"):
        heard = HeardAuction(Seat(job["dealer"]), tuple(job["calls"]), job["book"], job["vulnerable"],
                             tuple(job["explanations"]), None if job.get("likelihood") == "none" else "default",
                             restore_passes=True)
    row: dict[str, object] = {"index": job["index"], "source": job["source"], "label": job["label"],
                              "nt": contract.strain.trump is None}
    row["claims"], row["consistent"], row["false"] = auction_truth(job, declarer, deal, job["book"])
    views = tuple(job.get("views") or ALL)
    reused: dict[str, object] = job.get("reused") or {}  # an earlier run's results of views that do not change
    for key, value in reused.items():
        row[key] = value
    played = tuple(v for v in views if v not in {k.split(" ")[0] for k in reused})
    signals = job.get("defence", "agreement") == "agreement"  # the readings of leads and count, when they hold
    for view in played:
        start = time.perf_counter()
        reader: Any = CardReader(lead if contract.strain.trump is None and signals else None,
                                 carding if signals else None, auction=None if view == MODEL_ONLY else heard)
        if view == TRUE:
            reader = TrueHands(deal, declarer)
        plays = {"omniscient": "lawful", RESEEDED: "lawful", UNWEIGHTED: "weighted", MODEL_ONLY: "weighted",
                 TRUE: "agreement"}
        shares: list[float] = []
        result = play_deal(deal, declarer, contract, _defence(job, solver, lead, carding, opening),
                           n=job["n"], seed=1000 * job["index"] + (view == RESEEDED), view=plays.get(view, view),
                           solver=solver, reader=reader, tricks=0 if view == "omniscient" else job["tricks"],
                           defence_model=None if view == UNWEIGHTED else job.get("declarer_model") or "default",
                           on_decision=(lambda st: shares.append(kept_share(st))) if plays.get(view, view) == "weighted"
                           else None)
        if shares:
            row[f"{view} kept"] = statistics.median(shares)
        row[view] = result.declarer_tricks
        row[f"{view} fallbacks"] = result.fallbacks
        row[f"{view} s"] = time.perf_counter() - start
        row[f"{view} cards"] = [str(p.card) for p in result.cards]
    # every choice of declarer's side, judged double dummy on the true deal
    for view in played:
        points = replay_tables(deal, declarer, contract.strain, row[f"{view} cards"])  # type: ignore[arg-type]
        scores = solver.solve([t for t, _, _ in points])
        losses = [max(s.values()) - s[c] for s, (_, c, _) in zip(scores, points)]
        row[f"{view} decisions"] = len(losses)
        row[f"{view} wrong"] = sum(x > 0 for x in losses)
        row[f"{view} lost"] = sum(losses)
    # the first card where a view chose differently from the lawful view: the position is the same
    lawful_cards: list[str] = row.get("lawful cards", [])  # type: ignore[assignment]
    for view in views if "lawful" in views else ():
        if view == "lawful":
            continue
        cards: list[str] = row[f"{view} cards"]  # type: ignore[assignment]
        k = next((i for i, (a, b) in enumerate(zip_longest(lawful_cards, cards)) if a != b), None)
        row[f"{view} diverged"] = None
        if k is not None:
            table = next(t for t, _, i in replay_tables(deal, declarer, contract.strain, lawful_cards) if i == k)
            s = solver.solve([table])[0]
            row[f"{view} diverged"] = s[Card.parse(cards[k])] - s[Card.parse(lawful_cards[k])]
    return row


def play_all(jobs: list[Job], workers: int = 1, scheduler: str | None = None, bar: Any = None,
             on_row: Any = None) -> list[dict[str, object]]:
    """:func:`play_one` on every job, in the jobs' order: in this process (``workers`` 1, no
    ``scheduler``) or on workers; ``bar`` (tqdm) moves and ``on_row(row)`` is called as each deal finishes."""
    from inference.distributed import run_map  # in this process for one worker and no scheduler

    def done(key: Any, row: dict[str, object]) -> None:
        if bar is not None:
            bar.update(1)
        if on_row is not None:
            on_row(row)

    return run_map(play_one, jobs, jobs=workers, scheduler=scheduler, name="bot", on_result=done)


def interval(diffs: list[int]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval of paired differences (normal approximation)."""
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return mean, mean - half, mean + half


def gap_share(view: list[int], lawful: list[int], ceiling: list[int], draws: int = 2000) -> tuple[float, float, float]:
    """Share of the lawful-to-omniscient gap recovered, with a 95% paired bootstrap interval (seed 2026)."""
    def share(idx: list[int]) -> float:
        gap = sum(ceiling[i] - lawful[i] for i in idx)
        return sum(view[i] - lawful[i] for i in idx) / gap if gap else float("nan")

    n = len(view)
    rng = random.Random(2026)
    boot = sorted(share([rng.randrange(n) for _ in range(n)]) for _ in range(draws))
    return share(list(range(n))), boot[int(0.025 * draws)], boot[int(0.975 * draws) - 1]


def report(rows: list[dict[str, object]], header: str) -> None:
    """Print the tables (markdown)."""
    def col(key: str) -> list[int]:
        return [int(r[key]) for r in rows]  # type: ignore[call-overload]

    shown = [v for v in (*ALL, UNWEIGHTED, MODEL_ONLY, TRUE, RESEEDED) if all(v in r for r in rows)]
    lawful, ceiling = col("lawful"), col("omniscient") if "omniscient" in shown else None
    print(header)
    print()
    print("| view | mean tricks | minus lawful: mean [95% CI] | share of the gap to omniscient [95% CI] "
          "| better / same / worse deals | choices lost a trick DD | tricks lost DD a deal | seconds a deal (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for view in shown:
        tricks = col(view)
        diffs = [a - b for a, b in zip(tricks, lawful)]
        mean, lo, hi = interval(diffs)
        better, worse = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
        if view == "lawful":
            cmp, share = "(baseline)", "0"
        else:
            cmp = f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"
            share = "-"
            if ceiling is not None:
                s, slo, shi = gap_share(tricks, lawful, ceiling)
                share = f"{s:.1%} [{slo:.1%}, {shi:.1%}]"
        wrong, decisions = sum(col(f"{view} wrong")), sum(col(f"{view} decisions"))
        secs = statistics.median(float(r[f"{view} s"]) for r in rows)  # type: ignore[arg-type]
        print(f"| {view} | {statistics.fmean(tricks):.3f} | {cmp} | {share} | {better} / {len(rows) - better - worse} / "
              f"{worse} | {wrong} of {decisions} ({wrong / max(decisions, 1):.1%}) | "
              f"{statistics.fmean(col(f'{view} lost')):.3f} | {secs:.2f} |")
    print()
    print("At the first card where a view chose differently from the lawful view (the same position), "
          "which choice was right double dummy:")
    print()
    print("| view | deals where the choices differed | view's card better / as good / worse | mean tricks (view - lawful) |")
    print("|---|---:|---:|---:|")
    for view in shown[1:]:
        d = [int(r[f"{view} diverged"]) for r in rows if r[f"{view} diverged"] is not None]  # type: ignore[call-overload]
        better, worse = sum(x > 0 for x in d), sum(x < 0 for x in d)
        average = f"{statistics.fmean(d):+.3f}" if d else "-"
        print(f"| {view} | {len(d)} of {len(rows)} | {better} / {len(d) - better - worse} / {worse} | {average} |")
    claims, consistent, false = sum(col("claims")), sum(col("consistent")), sum(col("false"))
    wrong_deals = sum(int(r["false"]) > 0 for r in rows)  # type: ignore[call-overload]
    fallbacks = {v: sum(col(f"{v} fallbacks")) for v in (*VIEWS[1:], UNWEIGHTED, MODEL_ONLY, TRUE) if v in shown}
    print()
    print(f"The auctions gave {claims} claims about the defenders ({claims / len(rows):.1f} a deal), {consistent} "
          f"tagged agreement-consistent; {false} of those were false on the real hand ({wrong_deals} deals: there "
          f"the agreement view excludes the real layout). Decisions that fell back to the lawful view: "
          + ", ".join(f"{v} {k}" for v, k in fallbacks.items()) + ".")
    for view in shown:
        kept = [float(r[f"{view} kept"]) for r in rows if f"{view} kept" in r]  # type: ignore[arg-type]
        kept = [k for k in kept if k == k]
        if kept:
            print(f"The {view} view keeps effectively {statistics.median(kept):.1%} of the lawful layouts (median over "
                  f"deals of each deal's median decision; 10th percentile {sorted(kept)[len(kept) // 10]:.1%}): "
                  f"n layouts drawn from the lawful view and weighed would have an effective sample size "
                  f"((sum w)^2 / sum w^2) of n times that.")
    nt = sum(bool(r["nt"]) for r in rows)
    sources: dict[str, int] = {}
    for r in rows:
        sources[str(r["source"])] = sources.get(str(r["source"]), 0) + 1
    print(f"Contracts: {nt} in notrump, {len(rows) - nt} in a suit. Deals by source: "
          + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())) + ".")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("-n", type=int, default=30, help="layouts per decision")
    ap.add_argument("--book", default="natural-wide", help="the bidding book declarer reads the auction with")
    ap.add_argument("--tricks", type=int, default=13, help="tricks the bot plays before both sides go double dummy")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scheduler", metavar="ADDRESS", help="a Dask cluster's scheduler (tcp://host:8786)")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--json", metavar="OUT", help="also write every deal's row (JSON lines, as each deal finishes) to OUT")
    ap.add_argument("--views", default=",".join(ALL),
                    help=f"the views to play, comma-separated, of "
                         f"{', '.join((*ALL, UNWEIGHTED, MODEL_ONLY, TRUE, RESEEDED))} "
                         "(lawful is needed)")
    ap.add_argument("--defence", choices=DEFENCES, default="agreement",
                    help="the defenders: count signals by stated agreements (default), or double dummy choosing among "
                         "equal cards by --defence-model, or at random (seeded by the deal and the position)")
    ap.add_argument("--defence-model", default="default", metavar="M",
                    help="the defenders' model with --defence model (a file; fit one on the evaluation half with "
                         "kibitz defence CORPUS --half evaluation)")
    ap.add_argument("--likelihood", choices=("default", "none"), default="default",
                    help="the auction's graded likelihood in declarer's weighted view (none: the calls' measured "
                         "ratios, as before 0.3.7)")
    ap.add_argument("--resume", metavar="ROWS",
                    help="with --json ROWS: play only the deals not already in ROWS and append theirs (a long run "
                         "continued in several sittings; the tables then cover every row)")
    ap.add_argument("--reuse", metavar="ROWS",
                    help="copy the lawful and omniscient views' results of the deals in ROWS (an earlier run's rows) "
                         "instead of playing them again: they do not depend on the declarer's model or the weighted "
                         "view, so a run that changes only those need not replay them (the same commit's lawful "
                         "path, the same deals, -n and defence)")
    ap.add_argument("--report", metavar="ROWS", nargs="+",
                    help="print the tables from --json files of rows instead of playing (rows of several runs, "
                         "e.g. one with --views lawful,reseeded, are joined by deal; deals missing from one are left out)")
    args = ap.parse_args()
    if args.report:
        merged: dict[int, dict[str, Any]] = {}
        seen_in: dict[int, int] = {}
        for name in args.report:
            with open(name, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        row = json.loads(line)
                        merged.setdefault(int(row["index"]), {}).update(row)
                        seen_in[int(row["index"])] = seen_in.get(int(row["index"]), 0) + 1
        saved = [merged[i] for i in sorted(merged) if seen_in[i] == len(args.report)]
        report(saved, f"# Kibitz bot benchmark, rows of {' + '.join(args.report)}: {len(saved)} deals")
        return
    views = tuple(v.strip() for v in args.views.split(",") if v.strip())
    known = (*ALL, UNWEIGHTED, MODEL_ONLY, TRUE, RESEEDED)
    unknown = [v for v in views if v not in known]
    if unknown or "lawful" not in views:
        ap.error(f"--views {args.views!r}: expected lawful and any of {', '.join(known)}")
    from tqdm import tqdm

    corpus = Path(args.corpus)
    jobs = corpus_jobs(args.deals, corpus) if corpus.is_dir() else []
    jobs += dealer_jobs(args.deals - len(jobs), len(jobs)) if len(jobs) < args.deals else []
    for job in jobs:
        job.update(n=args.n, tricks=args.tricks, book=args.book, views=views, defence=args.defence,
                   defence_model=args.defence_model, likelihood=args.likelihood)
    if args.reuse:
        with open(args.reuse, encoding="utf-8") as f:
            earlier = {int(r["index"]): r for r in map(json.loads, filter(str.strip, f))}
        for job in jobs:
            old = earlier.get(int(job["index"]))
            if old is not None:
                job["reused"] = {k: v for k, v in old.items() if k.split(" ")[0] in REUSABLE and k.split(" ")[0] in views}
    done: list[dict[str, Any]] = []
    if args.resume:
        if args.json != args.resume:
            ap.error("--resume ROWS needs --json ROWS (the same file: its rows are kept and new ones appended)")
        with open(args.resume, encoding="utf-8") as f:
            done = [json.loads(line) for line in f if line.strip()]
        have = {int(r["index"]) for r in done}
        jobs = [j for j in jobs if j["index"] not in have]
    start = time.perf_counter()
    out = open(args.json, "a" if args.resume else "w", encoding="utf-8") if args.json else None  # a stopped run keeps rows

    def write(row: dict[str, object]) -> None:
        if out is not None:
            out.write(json.dumps(row) + "\n")
            out.flush()

    rows = done + play_all(jobs, args.jobs, args.scheduler, tqdm(total=len(jobs), desc="deals", file=sys.stderr), write)
    rows.sort(key=lambda r: int(r["index"]))  # type: ignore[call-overload]
    elapsed = time.perf_counter() - start
    if out is not None:
        out.close()
    report(rows, f"# Kibitz bot benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
                 f"Python {platform.python_version()}; {len(rows)} deals, book {args.book} (likelihood "
                 f"{args.likelihood}), {args.n} layouts a "
                 f"decision, {args.defence} defence, {args.scheduler or f'{args.jobs} processes'}, {elapsed:.0f} s")


if __name__ == "__main__":
    main()
