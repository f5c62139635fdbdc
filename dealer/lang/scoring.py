"""Duplicate scores and IMPs: what ``score(...)`` and ``imps(...)`` of the ``dealer`` language compute.

>>> score(False, 3, "N", np.array([9])).tolist(), imps(np.array([430 - 400])).tolist()
([400], [1])
"""

from __future__ import annotations

import numpy as np

__all__ = ["IMP_STEPS", "imps", "score"]

#: The score differences where each IMP starts (20 is 1 IMP, ..., 4000 is 24).
IMP_STEPS = np.array([20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
                      1750, 2000, 2250, 2500, 3000, 3500, 4000])


def imps(difference: np.ndarray) -> np.ndarray:
    """IMPs of score differences, with their signs.

    >>> imps(np.array([10, 20, -620, 4500])).tolist()
    [0, 1, -12, 24]
    """
    d = np.asarray(difference, dtype=np.int64)
    return np.asarray(np.sign(d) * np.searchsorted(IMP_STEPS, np.abs(d), side="right"), dtype=np.int64)


def score(vulnerable: bool, level: int, strain: str, tricks: np.ndarray, doubled: int = 0) -> np.ndarray:
    """Declarer's duplicate score of a contract (``doubled`` 0, 1 or 2) when declarer takes ``tricks`` (0..13).

    >>> score(False, 3, "N", np.array([9, 10, 8])).tolist()
    [400, 430, -50]
    >>> score(True, 6, "S", np.array([12])).tolist()
    [1430]
    >>> score(True, 2, "H", np.array([13, 7]), doubled=1).tolist(), score(False, 2, "S", np.array([5]), 1).tolist()
    ([1670, -200], [-500])
    """
    t = np.asarray(tricks, dtype=np.int64)
    per = 20 if strain in "CD" else 30
    first = per + (10 if strain == "N" else 0)
    factor = (1, 2, 4)[doubled]
    contract_points = (first + per * (level - 1)) * factor
    bonus = ((500 if vulnerable else 300) if contract_points >= 100 else 50) + (0, 50, 100)[doubled]
    if level == 6:
        bonus += 750 if vulnerable else 500
    elif level == 7:
        bonus += 1500 if vulnerable else 1000
    over = t - (level + 6)
    overtrick = per if doubled == 0 else (200 if vulnerable else 100) * doubled
    made = contract_points + bonus + overtrick * np.maximum(over, 0)
    down = -over
    if doubled == 0:
        penalty = down * (100 if vulnerable else 50)
    elif vulnerable:
        penalty = (300 * down - 100) * doubled
    else:  # 100, 300, 500, then 300 a trick
        penalty = (np.where(down <= 3, 200 * down - 100, 300 * down - 400)) * doubled
    return np.asarray(np.where(over >= 0, made, -penalty), dtype=np.int64)
