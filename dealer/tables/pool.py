"""Free cards dealt at random among seats with places left: every split equally likely.

Card by card, a seat is drawn in proportion to the places it has left (:func:`hypergeometric_steps`),
which makes every way to split the cards among the seats equally likely; numpy deals many deals
at once. The exact dealer deals its unconstrained seats so (:mod:`dealer.tables.exact`), and so does
``kibitz dealer``'s deal and select (:mod:`dealer.run.selection`).

>>> import numpy as np
>>> masks = [np.zeros(5, dtype=np.uint64) for _ in range(2)]
>>> deal_pool(np.random.default_rng(1), [1, 2], 5, masks, [np.uint64(1), np.uint64(2), np.uint64(4)])
>>> [bin(int(a | b)) for a, b in zip(*masks)] == ["0b111"] * 5
True
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

__all__ = ["split_labels", "deal_pool", "hypergeometric_steps"]


def split_labels(rng: np.random.Generator, vacancies: list[int], n: int) -> np.ndarray:
    """For each of ``n`` samples, a uniformly random order of pool-seat labels.

    Row ``j`` is the label (index into the pool seats) of the sample's
    ``j``-th pool card: drawn in proportion to the places each seat has left,
    which makes every split of the pool among its seats equally likely.
    """
    total = sum(vacancies)
    out = np.empty((total, n), dtype=np.int8)
    for j, hits in enumerate(hypergeometric_steps(rng, vacancies, n)):
        lab = np.zeros(n, dtype=np.int8)
        for i, hit in enumerate(hits[1:], start=1):
            lab += hit.view(np.int8) * np.int8(i)
        out[j] = lab
    return out


def deal_pool(rng: np.random.Generator, vacancies: list[int], n: int,
                    masks: list[np.ndarray], bits: list[np.uint64]) -> None:
    """Deal card ``j`` (bit ``bits[j]``) to pool seat ``i`` by adding it to ``masks[i]``."""
    if len(vacancies) == 1:
        masks[0] += np.uint64(sum(int(b) for b in bits))
        return
    for j, hits in enumerate(hypergeometric_steps(rng, vacancies, n)):
        for i, hit in enumerate(hits):
            masks[i] += hit * bits[j]


def hypergeometric_steps(rng: np.random.Generator, vacancies: list[int], n: int) -> Iterator[list[np.ndarray]]:
    """Card by card, which seat gets it: one boolean array per seat, each seat in proportion to its places left."""
    total = sum(vacancies)
    left = [np.full(n, v, dtype=np.int16) for v in vacancies]
    for j in range(total):
        r = rng.integers(0, total - j, size=n, dtype=np.int16)
        cum = left[0].copy()
        below = [r < cum]
        for i in range(1, len(vacancies) - 1):
            cum += left[i]
            below.append(r < cum)
        hits = [below[0]]
        for i in range(1, len(vacancies) - 1):
            hits.append(below[i] & ~below[i - 1])
        hits.append(~below[-1])
        for i, hit in enumerate(hits):
            left[i] -= hit.view(np.int8)
        yield hits
