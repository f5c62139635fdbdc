"""Inference benchmark: one card's update with 20 active inferences (all statuses), and a full replay.

Run: ``python benchmarks/inferences.py [--deals 40]``. Deals come from the corpus when present (else
random deals with a fixed seed); declarer is the viewer. After dummy is down, 20 inferences about the
defenders are added: lengths, HCP ranges, relations between suits, specific cards, a formula and an
XOR of cards, all agreement-consistent. Prints medians over every card of every deal, beside a
baseline that re-examines every status from scratch after every card.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import DEFAULT_CORPUS, complete_records  # noqa: E402
from dealer import Deal, Seat  # noqa: E402
from dealer.tables.exact import ExactDealer  # noqa: E402
from dealer.spec.spec import DealSpec  # noqa: E402
from inference.rules.contract import Strain  # noqa: E402
from inference.state.play import PlayState  # noqa: E402
from inference.rules.trick import trick_winner  # noqa: E402



def twenty(deal: Deal, declarer: Seat) -> list[dict[str, str]]:
    """Twenty inferences a real auction and carding could give, true of the deal (as actions usually are)."""
    out = []
    for who, seat in (("LHO", declarer.lho), ("RHO", declarer.rho)):
        hand = deal[seat]
        s, h, d, c = hand.shape
        hcp = hand.hcp
        longest2 = sum(sorted(hand.shape, reverse=True)[:2])
        out += [
            dict(name=f"{who} spades", by=who, claim=f"spades({who}) >= {max(s - 1, 0)}"),
            dict(name=f"{who} hearts", by=who, claim=f"hearts({who}) <= {h + 1}"),
            dict(name=f"{who} diamonds", by=who, claim=f"diamonds({who}) >= {max(d - 1, 0)}"),
            dict(name=f"{who} clubs", by=who, claim=f"clubs({who}) <= {c + 2}"),
            dict(name=f"{who} points", by=who, claim=f"hcp({who}) >= {max(hcp - 2, 0)} && hcp({who}) <= {hcp + 3}"),
            dict(name=f"{who} shape", by=who,
                 claim=f"hearts({who}) {'>=' if h >= d else '<'} diamonds({who}) || spades({who}) >= {s}"),
            dict(name=f"{who} opening", by=who, claim=f"hcp({who}) + longest({who}, 2) >= {hcp + longest2 - 2}"),
            dict(name=f"{who} honours", by=who,
                 claim=f"honours({who}, spades) >= {sum(1 for x in hand.suit('S') if x.rank >= 10)}"),
        ]
    lho, rho = deal[declarer.lho], deal[declarer.rho]
    out += [
        dict(name="club ace", by="LHO", claim="hascard(LHO, CA) || hascard(RHO, CA) || 1"),
        dict(name="heart ace", by="RHO",
             claim=f"{'' if 'HA' in lho else '!'}hascard(LHO, HA) || {'' if 'DA' in rho else '!'}hascard(RHO, DA)"),
        dict(name="spade queen", by="LHO", claim=f"{'' if 'SQ' in rho else '!'}hascard(RHO, SQ)"),
        dict(name="longest", by="RHO", claim=f"longest(RHO, 1) <= {max(rho.shape)}"),
    ]
    return out


def deals(n: int, corpus: Path) -> list[tuple[Deal, Seat, Strain, list]]:
    out = []
    if corpus.is_dir():
        for r in complete_records(sorted(corpus.rglob("*.pbn")) + sorted(corpus.rglob("*.lin")), n):
            out.append((r.deal, r.declarer, r.contract.strain, list(r.play)))
        if len(out) >= n:
            return out
    rng = random.Random(7)
    gen = ExactDealer(DealSpec())
    for masks in gen.sample_masks(n - len(out), 7):
        deal = Deal.from_masks([int(m) for m in masks])
        out.append((deal, Seat(rng.randrange(4)), Strain.NT, _random_play(deal, rng)))
    return out


def _random_play(deal: Deal, rng: random.Random) -> list:
    played: set[int] = set()
    leader, trick, out = Seat.W, [], []
    while len(out) < 52:
        seat = Seat((leader + len(trick)) % 4)
        hand = [c for c in deal[seat] if c.index not in played]
        follow = [c for c in hand if trick and c.suit == trick[0][1].suit]
        card = rng.choice(follow or hand)
        out.append(card)
        played.add(card.index)
        trick.append((seat, card))
        if len(trick) == 4:
            leader, trick = trick_winner(trick, Strain.NT), []
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    args = ap.parse_args()
    sample = deals(args.deals, Path(args.corpus))
    per_card, per_deal = run(sample, incremental=True)
    base_card, base_deal = run(sample, incremental=False)
    print(f"# Kibitz inference benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; 20 inferences in force from trick 1")
    print()
    print("| measure | median | 90th percentile | baseline median | ratio |")
    print("|---|---:|---:|---:|---:|")
    q = statistics.quantiles
    med = statistics.median
    print(f"| one card's update with all statuses, {len(per_card):,} cards | {med(per_card) * 1e3:.2f} ms "
          f"| {q(per_card, n=10)[-1] * 1e3:.2f} ms | {med(base_card) * 1e3:.2f} ms "
          f"| {med(base_card) / med(per_card):.1f}x |")
    print(f"| a full deal's replay (52 cards, adding the 20), {len(per_deal)} deals | "
          f"{med(per_deal):.3f} s | {q(per_deal, n=10)[-1]:.3f} s | {med(base_deal):.3f} s "
          f"| {med(base_deal) / med(per_deal):.1f}x |")
    print()
    print("Baseline: the same replays re-examining every status from scratch after every card.")


def run(sample: list[tuple[Deal, Seat, Strain, list]], *, incremental: bool) -> tuple[list[float], list[float]]:
    """Replay every deal; time each card's update (after trick 1's first card) and each whole deal."""
    per_card: list[float] = []
    per_deal: list[float] = []
    for deal, declarer, strain, play in sample:
        state = PlayState(deal[declarer], declarer=declarer, contract=strain)
        state._incremental = incremental
        start = time.perf_counter()
        for i, card in enumerate(play):
            t = time.perf_counter()
            state.play(card)
            if i == 0:
                state.table_dummy(deal[declarer.partner])
                state.add_inferences(twenty(deal, declarer))
            else:
                per_card.append(time.perf_counter() - t)
        per_deal.append(time.perf_counter() - start)
    return per_card, per_deal


if __name__ == "__main__":
    main()
