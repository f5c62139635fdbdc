"""Distributions over a layout graph: the weight of the layouts for each value of an additive feature.

A feature the plan carries exactly is read off the final states; any other (a seat's HCP with three
hands concealed) takes a forward pass from the flow's forward sums carrying, per state, the weight of
each total so far, closed by the backward sums (:func:`sum_distribution`: int64 with sparse products;
on the exact path each state's totals packed into one Python integer). A split suit's lengths come
from what comes into and goes out of each state between its two parts (:func:`pair_distribution`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

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
    backward sums."""
    if flow.exact_python:
        return _packed_distribution(graph, values, flow, start)
    top = sum(int(v.max(initial=0)) for v in values)
    ways = np.zeros((len(graph.layers[start]), top + 1), dtype=np.int64)
    ways[:, 0] = flow.forward[start]
    for j, v in enumerate(values):
        ways = _convolve(graph, start + j, ways, v)
    by_value = (ways * flow.backward[start + len(values)][:, None]).sum(axis=0)
    return [int(x) for x in by_value]


def _packed_distribution(graph: LayoutGraph, values: Sequence[np.ndarray], flow: Flow, start: int) -> list[int]:
    """:func:`sum_distribution` on the exact path: each state's weights by total packed into one Python
    integer, a total every ``slot`` bits (wider than any weight met, so no slot carries into the next),
    so an edge's shift of its source's totals by its rows' values is one product of integers
    (Kronecker substitution), not one product per total."""
    stop = start + len(values)
    widest = max(int(x).bit_length() for layer in flow.forward[start:stop + 1] for x in layer.tolist() + [0])
    slot = max(widest, int(flow.total).bit_length()) + 1
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
    ends = flow.backward[stop].tolist()
    total = sum(int(a) * int(b) for a, b in zip(packed.tolist(), ends) if a and b)
    mask = (1 << slot) - 1
    return [total >> (k * slot) & mask for k in range(top + 1)]


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
        return _sparse_pair(into.astype(object).reshape(-1), out.astype(object).reshape(-1), width)
    total = np.zeros(width, dtype=into.dtype)
    for c in np.flatnonzero(into.any(axis=0)):
        total[c:] += (into[:, c] @ out)[:width - c]
    return [int(x) for x in total]


def _sparse_pair(into: np.ndarray, out: np.ndarray, width: int) -> list[int]:
    """:func:`pair_distribution`'s sums on the exact path (Python integers): only the nonzero (state, value)
    entries in and out, each pair of one state's entries multiplied once, the products summed by total
    (a dense product would multiply every pair of values of every state, most of them 0)."""
    ins, outs = np.flatnonzero(into), np.flatnonzero(out)  # keys state * width + value, in state order
    in_state, out_state = ins // width, outs // width
    states = int(max(in_state.max(initial=-1), out_state.max(initial=-1))) + 1
    out_count = np.bincount(out_state, minlength=states)
    out_start = np.concatenate(([0], np.cumsum(out_count)[:-1]))
    per_in = out_count[in_state]  # how many out entries each in entry meets
    first = np.repeat(out_start[in_state] - np.concatenate(([0], np.cumsum(per_in)[:-1])), per_in)
    j = np.arange(int(per_in.sum())) + first
    i = np.repeat(np.arange(len(ins)), per_in)
    key = ins[i] % width + outs[j] % width
    order = np.argsort(key, kind="stable")
    key = key[order]
    products = (into[ins[i]] * out[outs[j]])[order]
    total = [0] * width
    if len(key):
        starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
        for k, v in zip(key[starts].tolist(), np.add.reduceat(products, starts).tolist()):
            total[k] = int(v)
    return total


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
