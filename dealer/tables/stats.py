"""Deal statistics: tabulate what deals hold, and test it against the exact distribution.

Pavlicek checked his dealer by tabulating batches of ten million deals with a
statistics analyzer; :func:`tabulate` does the same for suit lengths, HCP and
patterns per seat, and :func:`compare` sets the observed counts beside the
exact expectation under a spec (from :meth:`ExactDealer.distribution`) with a
chi-square test.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np
from scipy.stats import chi2  # type: ignore[import-untyped]

from dealer.cards.cardset import SUIT_MASK
from dealer.errors import SpecLimitError
from dealer.tables.exact import FEATURES, ExactDealer, pattern_of
from dealer.cards.seat import Seat

__all__ = ["Tally", "tabulate", "tabulate_masks", "FeatureTest", "compare", "chi_square"]

_SUIT_SHIFT = {"S": 0, "H": 13, "D": 26, "C": 39}
_POPCOUNT = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)
_HCP_NIBBLE = np.array([4 * (n & 1) + 3 * (n >> 1 & 1) + 2 * (n >> 2 & 1) + (n >> 3 & 1) for n in range(16)])


@dataclass
class Tally:
    """Observed counts per (seat, feature) -> value -> count, over ``deals`` deals."""

    deals: int = 0
    counts: dict[tuple[Seat, str], Counter[int | str]] = field(default_factory=dict)

    def table(self, seat: Seat, feature: str) -> Counter[int | str]:
        return self.counts.setdefault((seat, feature), Counter())


def tabulate_masks(masks: np.ndarray, tally: Tally | None = None) -> Tally:
    """Add deals given as an ``(n, 4)`` uint64 mask array to ``tally``."""
    tally = tally or Tally()
    tally.deals += len(masks)
    m = masks.astype(np.uint64)
    for seat in Seat:
        col = m[:, seat]
        lengths = []
        hcp = np.zeros(len(col), dtype=np.int64)
        for suit, shift in _SUIT_SHIFT.items():
            holding = (col >> np.uint64(shift)) & np.uint64(SUIT_MASK)
            length = _POPCOUNT[holding.astype(np.int64)]
            lengths.append(length)
            hcp += _HCP_NIBBLE[(holding & np.uint64(0xF)).astype(np.int64)]
            tally.table(seat, suit).update(length.tolist())
        tally.table(seat, "hcp").update(hcp.tolist())
        shapes = np.sort(np.stack(lengths, axis=1), axis=1)[:, ::-1]
        keys: np.ndarray | list[np.ndarray]
        counts: np.ndarray | list[int]
        keys, counts = np.unique(shapes, axis=0, return_counts=True) if len(col) else ([], [])
        table = tally.table(seat, "pattern")
        for key, c in zip(keys, counts):
            table[pattern_of(key.tolist())] += int(c)
    return tally


def tabulate(deals: Iterable["object"], tally: Tally | None = None) -> Tally:
    """Add :class:`~dealer.cards.deal.Deal` values to ``tally``."""
    rows = [d.masks for d in deals]  # type: ignore[attr-defined]
    return tabulate_masks(np.array(rows, dtype=np.uint64).reshape(-1, 4), tally)


@dataclass(frozen=True)
class FeatureTest:
    """Observed vs exact for one seat's feature, with the chi-square verdict."""

    seat: Seat
    feature: str
    rows: tuple[tuple[int | str, int, Fraction], ...]  # value, observed, exact probability
    statistic: float
    dof: int
    p_value: float
    impossible_seen: tuple[int | str, ...]  # values observed that the spec makes impossible
    note: str = ""  # why no exact distribution is given (then rows carry probability -1)


def chi_square(observed: Sequence[int], probabilities: Sequence[Fraction], total: int,
               min_expected: float = 5.0) -> tuple[float, int, float]:
    """Pearson's chi-square of counts against exact probabilities.

    Neighbouring cells are pooled (in the given order) until each expects at
    least ``min_expected``; returns (statistic, degrees of freedom, p-value).
    """
    cells: list[tuple[int, float]] = []
    acc_o, acc_e = 0, 0.0
    for o, p in zip(observed, probabilities):
        acc_o += o
        acc_e += float(p) * total
        if acc_e >= min_expected:
            cells.append((acc_o, acc_e))
            acc_o, acc_e = 0, 0.0
    if acc_e > 0 or acc_o > 0:
        if cells:
            o, e = cells.pop()
            cells.append((o + acc_o, e + acc_e))
        else:
            cells.append((acc_o, acc_e))
    if len(cells) < 2:
        return 0.0, 0, 1.0
    stat = sum((o - e) ** 2 / e for o, e in cells if e > 0)
    dof = len(cells) - 1
    return stat, dof, float(chi2.sf(stat, dof))


def compare(tally: Tally, dealer: ExactDealer, seats: Sequence[Seat] = tuple(Seat),
            features: Sequence[str] = FEATURES) -> list[FeatureTest]:
    """Test every (seat, feature) table of ``tally`` against the exact distribution under ``dealer``'s spec."""
    total = dealer.count()
    out = []
    for seat in seats:
        for feature in features:
            observed = tally.table(seat, feature)
            try:
                exact = dealer.distribution(seat, feature)
            except SpecLimitError as exc:
                rows = tuple((k, v, Fraction(-1)) for k, v in sorted(observed.items(), key=lambda kv: str(kv[0])))
                out.append(FeatureTest(seat, feature, rows, float("nan"), 0, float("nan"), (),
                                       note=f"no exact distribution: {exc}"))
                continue
            keys = sorted(set(exact) | set(observed), key=lambda k: (isinstance(k, str), k)) \
                if feature != "pattern" else sorted(set(exact) | set(observed), key=_pattern_key)
            rows = tuple((k, observed.get(k, 0), Fraction(exact.get(k, 0)) / total) for k in keys)
            impossible = tuple(k for k, o, p in rows if o and p == 0)
            stat, dof, p = chi_square([o for _, o, _ in rows], [pr for _, _, pr in rows], tally.deals)
            if impossible:
                p = 0.0
            out.append(FeatureTest(seat, feature, rows, stat, dof, p, impossible))
    return out


def _pattern_key(p: int | str) -> tuple[int, ...]:
    return tuple(-int(x) for x in str(p).split("-"))
