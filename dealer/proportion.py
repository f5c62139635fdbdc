"""The Wilson score interval of a proportion: what an estimate's count and a rule's accuracy quote.

>>> [round(x, 4) for x in wilson(50, 100)]
[0.4038, 0.5962]
"""

from __future__ import annotations

import math

__all__ = ["wilson"]


def wilson(accepted: int, drawn: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``accepted / drawn``; (0, 1) when nothing was
    drawn.

    >>> [round(x, 3) for x in wilson(95, 100)]
    [0.888, 0.978]
    >>> wilson(0, 300)[0], wilson(300, 300)[1]
    (0.0, 1.0)
    """
    if drawn == 0:
        return (0.0, 1.0)
    p = accepted / drawn
    denom = 1 + z * z / drawn
    centre = (p + z * z / (2 * drawn)) / denom
    half = z * math.sqrt(p * (1 - p) / drawn + z * z / (4 * drawn * drawn)) / denom
    low = 0.0 if accepted == 0 else max(0.0, centre - half)  # exactly the ends when none or all were accepted:
    high = 1.0 if accepted == drawn else min(1.0, centre + half)  # the rounding of centre - half is not 0
    return (low, high)
