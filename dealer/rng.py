"""Randomness as a parameter: one way, for every layer, to turn a seed into a random stream.

Every sampler of Kibitz (the dealer's, the layouts', the bot's) takes a seed (a
non-negative int), a numpy ``Generator`` (used as is) or a ``random.Random``
(the generator is seeded from it), and turns it into a numpy Generator with
:func:`make_rng`: the same seed gives the same stream in every layer. (The everyday ``kibitz dealer`` run,
a few deals dealt one at a time without numpy, draws from a ``random.Random`` seeded with the same seed:
:mod:`dealer.run.quick`.)

>>> bool(make_rng(7).integers(0, 1000) == make_rng(7).integers(0, 1000))
True
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Union

from dealer.errors import InvalidSeedError

if TYPE_CHECKING:
    import random

    import numpy as np

__all__ = ["RandomSource", "fresh_seed", "make_rng"]

#: What a sampler accepts as its source of randomness.
RandomSource = Union[int, "np.random.Generator", "random.Random", None]


def fresh_seed() -> int:
    """A seed from fresh entropy, to be shown so that a run drawn with it can be drawn again."""
    return int.from_bytes(os.urandom(8), "little") % (1 << 63)


def make_rng(source: RandomSource) -> "np.random.Generator":
    """A numpy Generator from a seed, a Generator (used as is) or a ``random.Random``; ``None``: fresh entropy.

    >>> make_rng(-1)
    Traceback (most recent call last):
    ...
    dealer.errors.InvalidSeedError: invalid seed -1: expected a whole number >= 0, a numpy Generator or a random.Random
    """
    import numpy as np

    if isinstance(source, np.random.Generator):
        return source
    stdlib = sys.modules.get("random")  # a random.Random exists only once its module is imported
    if stdlib is not None and isinstance(source, stdlib.Random):
        return np.random.default_rng(source.getrandbits(128))
    if source is None:
        return np.random.default_rng()
    if isinstance(source, int) and not isinstance(source, bool) and source >= 0:
        return np.random.default_rng(source)
    shown = repr(source) if len(repr(source)) <= 40 else repr(source)[:40] + "..."
    raise InvalidSeedError(f"invalid seed {shown}: expected a whole number >= 0, a numpy Generator or a random.Random")
