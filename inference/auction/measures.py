"""Measured figures of a book's claims: hits of calls, exact prior, and the weight they give a claim.

A rule claim measured on real hands (:mod:`inference.auction.calibration`) held on ``hits`` of the
``n`` calls it was made on; a random hand satisfies it with the exact probability ``prior``. A
layout where the claim holds is then ``accuracy / prior`` times as likely as a random one, and one
where it fails ``(1 - accuracy) / (1 - prior)``: their ratio (:func:`measured_weight`) is the
weight the weighted view gives the claim (:attr:`inference.claims.inferences.Inference.weight`) instead of
the fixed factor of its tag. The figures measured on ``../shared/corpus`` ship beside each book
(``data/auction/<book>.calibration.json``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources

from dealer.proportion import wilson

__all__ = ["divergence", "Level", "wilson", "load_measures", "measured_weight"]


@dataclass(frozen=True)
class Level:
    """One claim of a chain (the claim, or its i-th fallback) measured: hits of n, interval, prior."""

    hits: int
    n: int
    prior: Fraction | None

    @property
    def accuracy(self) -> float:
        """hits / n (0 when nothing matched)."""
        return self.hits / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the accuracy."""
        return wilson(self.hits, self.n)

    @property
    def likelihood_ratio(self) -> float | None:
        """Accuracy over prior: how much likelier the claim is after the call than for a random hand."""
        return None if self.prior is None or self.prior == 0 or not self.n else self.accuracy / float(self.prior)

    @property
    def bits(self) -> float | None:
        """What the claim tells of the callers' real hands, in bits a call: the expected log-likelihood ratio
        ``a log2(a / p) + (1 - a) log2((1 - a) / (1 - p))`` of accuracy ``a`` against the prior ``p`` (the
        Kullback-Leibler divergence); None without a prior or a measure.

        >>> round(Level(9, 10, Fraction(1, 2)).bits or 0, 3)
        0.531
        """
        if self.prior is None or not 0 < self.prior < 1 or not self.n:
            return None
        return divergence(self.accuracy, float(self.prior))


def divergence(a: float, p: float) -> float:
    """The Kullback-Leibler divergence, in bits, of a claim true with probability ``a`` from one true with
    probability ``p`` (``0 < p < 1``): ``a log2(a / p) + (1 - a) log2((1 - a) / (1 - p))``.

    >>> divergence(0.5, 0.5), round(divergence(1.0, 0.25), 3)
    (0.0, 2.0)
    """
    return sum(x * math.log2(x / y) for x, y in ((a, p), (1 - a, 1 - p)) if x > 0)


@lru_cache(maxsize=16)
def load_measures(book: str) -> dict[tuple[str, str], tuple[Level, ...]]:
    """The figures measured for a shipped book (``data/auction/<book>.calibration.json``), by (rule id,
    claim label): each level's hits, calls and exact prior. Empty when none were shipped."""
    res = resources.files("inference") / "data" / "auction" / f"{book}.calibration.json"
    try:
        data = json.loads(res.read_text(encoding="utf-8"))
    except (OSError, FileNotFoundError):
        return {}
    out: dict[tuple[str, str], tuple[Level, ...]] = {}
    for row in data["rules"]:
        out[(row["rule"], row["label"])] = tuple(
            Level(lv["hits"], lv["n"], None if lv["prior"] is None else Fraction(lv["prior"])) for lv in row["levels"])
    return out


def measured_weight(level: Level) -> float | None:
    """The odds ratio ``(a / p) / ((1 - a) / (1 - p))`` of a measured claim (accuracy ``a`` smoothed as
    ``(hits + 1) / (n + 2)``, exact prior ``p``); None without a prior or a measure.

    >>> round(measured_weight(Level(99, 100, Fraction(1, 2))) or 0, 1)
    50.0
    """
    if level.prior is None or not 0 < level.prior < 1 or not level.n:
        return None
    a = Fraction(level.hits + 1, level.n + 2)
    return float((a / level.prior) / ((1 - a) / (1 - level.prior)))
