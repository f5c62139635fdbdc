"""Distributions over a layout graph: the weight of the layouts for each value of an additive feature.

A feature the plan carries exactly is read off the final states; any other (a seat's HCP with three
hands concealed) takes a forward pass from the flow's forward sums carrying, per state, the weight of
each total so far, closed by the backward sums (:func:`sum_distribution`: int64 with sparse products;
on the exact path each state's totals packed into one Python integer). A split suit's lengths come
from what comes into and goes out of each state between its two parts (:func:`pair_distribution`).
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from dealer.arrays import INT64_LIMIT
from dealer.budget import current

from inference.claims.features import Feature, holding_values
from inference.exact.graph import Flow, LayoutGraph, sum_by
from inference.exact.kernel import holding_of

__all__ = ["distribution", "row_values", "sum_distribution", "pair_distribution"]



def distribution(graph: LayoutGraph, feature: Feature, flow: Flow) -> list[int]:
    """The weight of the layouts for each value ``0, 1, ...`` of a concealed seat's feature (a sum over
    the suits, such as HCP), exact. A feature the plan carries exactly is read off the final states;
    any other takes a forward pass carrying, per state, the weight of each value so far."""
    if feature in graph.plan.exact:
        carried = np.asarray(graph.values(feature), dtype=np.int64)
        weights = sum_by(carried, flow.forward[-1] * flow.final_weight, int(carried.max(initial=0)) + 1)
        return [int(x) for x in weights]
    return sum_distribution(graph, row_values(graph, feature), flow)


def row_values(graph: LayoutGraph, feature: Feature) -> list[np.ndarray]:
    """Per position of the walk, each row's share of a concealed seat's feature (the known cards count in
    their suit's first part)."""
    i = graph.seats.index(feature.seat)
    known = graph.position.known[feature.seat]
    return [holding_values(feature.kind, feature.bit, step.masks[:, i] | (holding_of(known, s) if first else 0))
            if s in feature.suits else np.zeros(len(step.masks), dtype=np.int64)
            for step, (s, _, first, _) in zip(graph.steps, graph.parts)]


def sum_distribution(graph: LayoutGraph, values: Sequence[np.ndarray], flow: Flow, start: int = 0) -> list[int]:
    """The weight of the layouts for each total ``0, 1, ...`` of per-row values, exact (``values[j]``: each
    row's value at position ``start + j``; the positions past them add 0): a pass from the flow's
    forward sums at ``start``, carrying per state the weight of each total so far, closed by the
    backward sums.

    A state's weights by total sum to its forward sum, so the pass is in int64 whenever the forward sums
    it crosses fit, even where the backward sums (the final states' weights) do not; otherwise each
    state's weights by total are packed into one Python integer."""
    stop = start + len(values)
    widest = _widest(flow.forward[start:stop + 1], [graph.steps[start + j].group_weight for j in range(len(values))])
    if widest >= INT64_LIMIT.bit_length() - 1:  # a sum of two might not fit
        return _packed_distribution(graph, values, flow, start, widest)
    top = sum(int(v.max(initial=0)) for v in values)
    ways = np.zeros((len(graph.layers[start]), top + 1), dtype=np.int64)
    ways[:, 0] = flow.forward[start].astype(np.int64)
    for j, v in enumerate(values):
        ways = _convolve(graph, start + j, ways, v)
    ends = flow.backward[stop]
    if ends.dtype != object:
        return [int(x) for x in (ways * ends[:, None]).sum(axis=0)]
    live = np.flatnonzero(ends)
    return [int(x) for x in ends[live] @ ways[live].astype(object)] if len(live) else [0] * (top + 1)


def _widest(layers: Sequence[np.ndarray], weights: Sequence[np.ndarray]) -> int:
    """The bits of the largest forward sum in ``layers`` and of the largest group weight in ``weights``."""
    arrays = list(layers) + list(weights)
    return max((int(a.max()).bit_length() for a in arrays if len(a)), default=0)


def _packed_distribution(graph: LayoutGraph, values: Sequence[np.ndarray], flow: Flow, start: int,
                         widest: int) -> list[int]:
    """:func:`sum_distribution` past int64: each state's weights by total packed into one Python integer,
    a total every ``slot`` bits (wider than any forward sum crossed, so no slot carries into the next),
    so an edge's shift of its source's totals by its rows' values is one product of integers
    (Kronecker substitution), not one product per total; unpacked before the backward sums close it."""
    stop = start + len(values)
    slot = widest + 1
    packed = np.array([int(x) for x in flow.forward[start]] + [0], dtype=object)[:-1]
    top = 0
    for j, v in enumerate(values):
        step, (src, grp, dst) = graph.steps[start + j], graph.links[start + j]
        width = int(v.max(initial=0)) + 1
        top += width - 1
        by_key = sum_by(step.group * width + v, step.weight, len(step.adds) * width)
        poly = [0] * len(step.adds)
        for key in np.flatnonzero(by_key).tolist():
            poly[key // width] += int(by_key[key]) << (key % width * slot)
        product = packed[src] * np.array(poly + [0], dtype=object)[:-1][grp]
        packed = np.array([0] * (len(graph.layers[start + j + 1]) + 1), dtype=object)[:-1]
        np.add.at(packed, dst, product)
    by_value = [0] * (top + 1)
    for word, end in zip(packed.tolist(), flow.backward[stop].tolist()):
        if word and end:
            for k, w in enumerate(_unpacked(word, slot, top + 1)):
                by_value[k] += w * int(end)
    return by_value


def _unpacked(word: int, slot: int, n: int) -> list[int]:
    """The ``n`` values packed in ``word``, one every ``slot`` bits, lowest first."""
    mask = (1 << slot) - 1
    return [word >> (k * slot) & mask for k in range(n)]


def pair_distribution(graph: LayoutGraph, p: int, codes: tuple[np.ndarray, np.ndarray], flow: Flow) -> list[int]:
    """The weight of the layouts for each total ``0, 1, ...`` of a value of the groups at positions ``p``
    and ``p + 1`` (``codes[j][g]``: group ``g``'s value), exact: per state between the two, what comes in
    and what goes out, by value, then their products summed over the states."""
    width = int(codes[0].max(initial=0)) + int(codes[1].max(initial=0)) + 1
    middle = len(graph.layers[p + 1])
    src, grp, dst = graph.links[p]
    into = sum_by(dst * width + codes[0][grp], flow.forward[p][src] * graph.steps[p].group_weight[grp],
                  middle * width).reshape(middle, width)
    src, grp, dst = graph.links[p + 1]
    out = sum_by(src * width + codes[1][grp], graph.steps[p + 1].group_weight[grp] * flow.backward[p + 2][dst],
                 middle * width).reshape(middle, width)
    if into.dtype == object or out.dtype == object:
        return _sparse_pair(into.astype(object).reshape(-1), out.astype(object).reshape(-1), width, flow.total)
    total = np.zeros(width, dtype=into.dtype)
    for c in np.flatnonzero(into.any(axis=0)):
        total[c:] += (into[:, c] @ out)[:width - c]
    return [int(x) for x in total]


def _sparse_pair(into: np.ndarray, out: np.ndarray, width: int, total: int) -> list[int]:
    """:func:`pair_distribution`'s sums on the exact path (Python integers; each at most ``total``), packed:
    each state's weights going out by value in one integer (a value every ``slot`` bits, wider than the
    total), so that for each value coming in, the sum over the states of in times out is one dot product
    of integers; those shifted by their value in and summed give every total at once. Only the nonzero
    (state, value) entries are touched."""
    slot = total.bit_length() + 1
    packed = np.zeros(len(out) // width, dtype=object)
    for c, keys in _by_value(np.flatnonzero(out), width):
        packed[keys // width] += out[keys] << (c * slot)
    word = 0
    for c, keys in _by_value(np.flatnonzero(into), width):
        word += int(np.dot(into[keys], packed[keys // width])) << (c * slot)
    return _unpacked(word, slot, width)


def _by_value(keys: np.ndarray, width: int) -> Iterator[tuple[int, np.ndarray]]:
    """Keys ``state * width + value`` grouped by value: each value and its keys."""
    values = keys % width
    order = np.argsort(values, kind="stable")
    keys, values = keys[order], values[order]
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1]))).tolist()
    for a, b in zip(starts, starts[1:] + [len(keys)]):
        yield int(values[a]), keys[a:b]


def _convolve(graph: LayoutGraph, s: int, ways: np.ndarray, values: np.ndarray) -> np.ndarray:
    """One position of :func:`sum_distribution`: each edge shifts its source's values by its rows' values.

    For each shift, the edges form a sparse matrix from sources to destinations (duplicates summed),
    applied to the sources' value vectors at once; integer arithmetic throughout (Python integers
    for the exact path, where scipy's sparse matrices cannot go).
    """
    from scipy import sparse  # type: ignore[import-untyped]  # (loaded on first use: it is slow to import)

    step = graph.steps[s]
    src, grp, dst = graph.links[s]
    width = ways.shape[1]
    spread = np.zeros((len(step.adds), int(values.max(initial=0)) + 1), dtype=np.int64)
    np.add.at(spread, (step.group, values), step.weight.astype(np.int64))
    out = np.zeros((len(graph.layers[s + 1]), width), dtype=np.int64)
    for v in range(spread.shape[1]):
        by_edge = spread[grp, v]
        live = by_edge != 0
        if not live.any():
            continue
        if live.sum() < current().sparse_edges:  # below, numpy.add.at
            np.add.at(out[:, v:], dst[live], ways[src[live], :width - v] * by_edge[live][:, None])
            continue
        moves = sparse.csr_matrix((by_edge[live], (dst[live], src[live])), shape=(len(out), len(ways)))
        out[:, v:] += moves @ ways[:, :width - v]
    return out
