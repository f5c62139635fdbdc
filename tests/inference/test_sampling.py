"""The big-integer sampler as a bijection: every integer below the total weight, read as a path through the graph,
gives each layout exactly as many times as it weighs (enumerated, not drawn: no chance involved)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from dealer import Seat
from dealer.budget import current

from inference.claims.weights import HoldingWeights
from inference.exact import sampling
from inference.exact.columns import plan
from inference.exact.graph import LayoutGraph
from inference.exact.position import Position
from inference.exact.sampling import Sampler


class _Counting:
    """Stands for ``random.Random``: ``randrange`` hands out 0, 1, 2, ... in turn."""

    def __init__(self, *_: object) -> None:
        self.next = 0

    def randrange(self, _: int) -> int:
        self.next += 1
        return self.next - 1


def _graph(seed: int, seats: tuple[Seat, ...], split: bool) -> tuple[LayoutGraph, np.ndarray, list[int]]:
    """A random position (a few unseen cards a seat), weights 0-3 on one seat's suit, final weights 0-5."""
    draw = random.Random(seed)
    deck = list(range(52))
    draw.shuffle(deck)
    unseen, known = 0, [0, 0, 0, 0]
    for s in range(4):
        for j, c in enumerate(deck[13 * s:13 * s + 13]):
            if Seat(s) in seats and j < (3 if len(seats) == 3 else 5):
                unseen |= 1 << c
            else:
                known[s] |= 1 << c
    position = Position(seats, unseen, (known[0], known[1], known[2], known[3]), (0, 0, 0, 0))
    budget = current().replace(split_groups=1, split_pairs=0) if split else current()
    with budget.applied():
        table = {h: draw.choice([0, 1, 2, 3]) for h in range(8192)}
        graph = LayoutGraph(plan(position), HoldingWeights({(seats[0], draw.randrange(4)): table}))
    final = np.array([draw.choice([0, 1, 2, 5]) for _ in graph.layers[-1]], dtype=np.int64) * graph.accept
    return graph, final, known


def _weights(graph: LayoutGraph, final: np.ndarray, known: list[int]) -> Counter[tuple[int, ...]]:
    """Each layout's exact weight, walking every row of every position (brute force over the graph)."""
    edges = [{(int(a), int(b)): int(c) for a, b, c in zip(*graph.links[s])} for s in range(graph.depth)]
    found: Counter[tuple[int, ...]] = Counter()

    def walk(s: int, state: int, weight: int, hands: list[int]) -> None:
        if s == graph.depth:
            if weight * int(final[state]):
                found[tuple(hands)] += weight * int(final[state])
            return
        step = graph.steps[s]
        for row in range(len(step.masks)):
            key = (state, int(step.group[row]))
            if int(step.weight[row]) and key in edges[s]:
                more = list(hands)
                for i, seat in enumerate(graph.seats):
                    more[int(seat)] |= int(step.masks[row, i]) << (13 * graph.suits[s])
                walk(s + 1, edges[s][key], weight * int(step.weight[row]), more)

    walk(0, 0, 1, list(known))
    return found


@pytest.mark.parametrize("seed,seats,split", [(s, (Seat.N, Seat.E, Seat.W), True) for s in range(3)]
                         + [(s, (Seat.E, Seat.W), False) for s in range(3)])
def test_every_integer_below_the_total_reads_as_one_layout(seed: int, seats: tuple[Seat, ...], split: bool,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    graph, final, known = _graph(seed, seats, split)
    flow = graph.flow(final)
    want = _weights(graph, final, known)
    assert sum(want.values()) == flow.total and any(not step.weighted for step in graph.steps)
    monkeypatch.setattr(sampling.random, "Random", _Counting)
    masks = Sampler(graph, flow).python(flow.total, np.random.default_rng(0))
    assert Counter(tuple(int(x) for x in row) for row in masks) == want
