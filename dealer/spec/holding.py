"""One suit's holdings: filters given as tables of their 8,192 values, and the automaton over a suit's free cards.

The script layer turns a condition on one seat's holding in one suit (``hcp(north, spades) >= 3``,
``top4(west, clubs) < 2``) into a :class:`HoldingTable`. It is still a plain function of the holding,
so it can stand wherever a :class:`~dealer.spec.spec.SeatSpec` takes a holding filter, but the automaton
builder reads its table at once (numpy) instead of calling it once per subset of the free cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Callable, Sequence

import numpy as np

from dealer.arrays import unique_inverse
from dealer.cards.card import HCP_BY_INDEX
from dealer.cards.cardset import CardSet
from dealer.checks import shown
from dealer.errors import SpecError

__all__ = ["HOLDINGS", "HoldingTable", "MAX_HOLDING_WEIGHT", "N_LETTERS", "SUIT_COUNTS", "letter", "HoldingAutomaton",
           "build_holding_automaton"]

#: The number of holdings of one suit (13 bits, ace first).
HOLDINGS = 1 << 13
#: The counts one suit's letters tell apart (HCP 0..10 in a suit).
SUIT_COUNTS = 11
#: Letters are (length 0..13, count 0..10) pairs coded ``length * 11 + count``.
N_LETTERS = 14 * SUIT_COUNTS


def letter(length: int, hcp: int) -> int:
    """The letter code of a suit holding of ``length`` cards with ``hcp`` points.

    >>> letter(5, 7)
    62
    """
    return length * SUIT_COUNTS + hcp


@dataclass(frozen=True, eq=False)
class HoldingTable:
    """A filter or weight on a seat's holding in ``suit``: ``values[h]`` for the 13-bit holding ``h``.

    >>> t = HoldingTable(0, np.array([h.bit_count() >= 2 for h in range(HOLDINGS)]), "length >= 2")
    >>> t(CardSet(["SA", "SK"])), t(CardSet(["SA", "HK"]))
    (1, 0)
    >>> (t & t).name
    'length >= 2 && length >= 2'
    """

    suit: int
    values: np.ndarray = field(repr=False)
    name: str = "holding table"

    def __post_init__(self) -> None:
        values = np.asarray(self.values).astype(np.int64)
        if values.shape != (HOLDINGS,) or (values < 0).any():
            raise ValueError(f"a holding table needs {HOLDINGS} values >= 0, got shape {values.shape}")
        object.__setattr__(self, "values", values)

    @property
    def __name__(self) -> str:  # what the spec's description and error messages print
        return self.name

    def __call__(self, holding: CardSet) -> int:
        """The value for the cards of ``holding`` in this table's suit."""
        return int(self.values[(holding.mask >> (13 * self.suit)) & (HOLDINGS - 1)])

    def __and__(self, other: "HoldingTable") -> "HoldingTable":
        """Both filters at once (values multiplied: a weight, or 0/1 for a filter)."""
        if other.suit != self.suit:
            raise ValueError(f"cannot join holding tables of suits {self.suit} and {other.suit}")
        return HoldingTable(self.suit, self.values * other.values, f"{self.name} && {other.name}")


@dataclass(frozen=True)
class HoldingAutomaton:
    """Layered automaton over one suit's free cards, for one seat.

    Offsets ``k = 0..r`` (``r`` free cards in the suit, aces first); at
    offset ``k`` there are ``size[k]`` states; ``next0[k]``/``next1[k]``
    give the offset-``k+1`` state after not taking / taking card ``k`` (-1:
    dead). Final states emit ``letter`` (dealt length and HCP in the suit,
    predealt cards included) and an integer ``weight`` (> 0).
    """

    size: tuple[int, ...]
    next0: tuple[np.ndarray, ...]
    next1: tuple[np.ndarray, ...]
    letter: np.ndarray
    weight: np.ndarray
    side: np.ndarray | None = None  # per final state, what the suit adds to a side count (None: nothing)


def _scaled_weights(values: Sequence[object]) -> tuple[list[int], int]:
    """Turn bools/ints/Fractions into ints with a common denominator (returned)."""
    fracs = []
    for v in values:
        if isinstance(v, bool):
            fracs.append(Fraction(int(v)))
        elif isinstance(v, (int, Fraction)):
            fracs.append(Fraction(v))
        else:  # a float is refused: weights are exact
            raise SpecError(f"a holding filter must return a bool, an int or a Fraction (exact), got {shown(v)}")
        if fracs[-1] < 0:
            raise SpecError(f"a holding weight cannot be negative, got {shown(v)}")
    den = 1
    for f in fracs:
        den = lcm(den, f.denominator)
    return [int(f * den) for f in fracs], den



def _renumber(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal non-negative keys get one id (0, 1, ... in key order), -1 stays -1; and one representative each."""
    live = key >= 0
    ids = np.full(len(key), -1, dtype=np.int64)
    uniq, _, inv = unique_inverse(key[live])
    ids[live] = inv.reshape(-1)
    rep = np.zeros(len(uniq), dtype=np.int64)
    rep[inv.reshape(-1)] = np.nonzero(live)[0]
    return ids, rep

#: The most an integer holding weight may be (the automaton keys a holding by its weight beside its letter).
MAX_HOLDING_WEIGHT = 1 << 52


def _subset_weights(cards: Sequence[int], predeal_suit: int, holding_filter: Callable[[CardSet], object] | None,
                    ok: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, int]:
    """Each subset's integer weight under ``holding_filter`` (0 where not ``ok``; ``h``: its 13-bit holding) and
    the denominator the weights were scaled by."""
    if holding_filter is None:
        return np.ones(len(ok), dtype=np.int64), 1
    if isinstance(holding_filter, HoldingTable):  # read the table for every subset at once
        return np.where(ok, holding_filter.values[h], 0), 1
    raw: list[object] = []
    for s in range(len(ok)):
        if not ok[s]:
            raw.append(0)
            continue
        mask = predeal_suit
        for k, card in enumerate(cards):
            if s >> k & 1:
                mask |= 1 << card
        try:
            raw.append(holding_filter(CardSet(mask)))
        except Exception as exc:  # noqa: BLE001 - the user's function: its fault becomes the spec's error
            name = getattr(holding_filter, "__name__", "the holding filter")
            raise SpecError(f"holding filter {name} failed on {CardSet(mask).to_text() or '(void)'}: "
                            f"{type(exc).__name__}: {shown(str(exc), 100)}") from None
    ints, den = _scaled_weights(raw)
    top = max(ints, default=0)
    if top >= MAX_HOLDING_WEIGHT:
        name = getattr(holding_filter, "__name__", "the holding filter")
        raise SpecError(f"holding filter {name}: a weight of {top:,} (over a common denominator {den:,}) is past "
                        f"{MAX_HOLDING_WEIGHT:,}, the most a holding may weigh; scale the weights down")
    return np.array(ints, dtype=np.int64), den


def build_holding_automaton(cards: Sequence[int], allowed: Sequence[bool], predeal_suit: int,
                            holding_filter: Callable[[CardSet], object] | None = None,
                            points: Sequence[int] = HCP_BY_INDEX,
                            side: np.ndarray | None = None) -> tuple[HoldingAutomaton, int]:
    """Automaton over ``cards`` (free card indices of one suit, ascending).

    ``allowed[k]`` says whether the seat may take card ``k``; ``predeal_suit``
    is the mask of the seat's predealt cards in the suit. Returns the
    automaton and the denominator its weights were scaled by. ``points`` (per card index) is the
    count the letters carry in place of HCP (at most 10 in a suit). ``side`` (per 13-bit holding)
    is what the holding adds to a side count (:class:`~dealer.spec.sidecount.SideCount`); final states
    remember it.
    """
    r = len(cards)
    pre_len = predeal_suit.bit_count()
    pre_hcp = sum(points[i] for i in range(52) if predeal_suit >> i & 1)
    subsets = np.arange(1 << r, dtype=np.int64)
    ok = np.ones(1 << r, dtype=bool)
    length = np.full(1 << r, pre_len, dtype=np.int64)
    hcp = np.full(1 << r, pre_hcp, dtype=np.int64)
    for k, card in enumerate(cards):
        took = (subsets >> k) & 1
        if not allowed[k]:
            ok &= took == 0
        length += took
        hcp += took * points[card]
    ok &= length <= 13
    base = 13 * (cards[0] // 13 if cards else (predeal_suit.bit_length() - 1) // 13 if predeal_suit else 0)
    h = np.full(1 << r, (predeal_suit >> base) & (HOLDINGS - 1), dtype=np.int64)  # each subset's holding
    for k, card in enumerate(cards):
        h |= ((subsets >> k) & 1) << (card - base)
    weights, den = _subset_weights(cards, predeal_suit, holding_filter, ok, h)
    ok &= weights > 0
    letters = np.where(ok, length * SUIT_COUNTS + np.minimum(hcp, SUIT_COUNTS - 1), -1)
    # final signature: (letter, weight, side increment)
    final_key = np.where(ok, letters * (int(weights.max()) + 1) + weights, -1)
    added = np.zeros(1 << r, dtype=np.int64) if side is None else np.asarray(side)[h]
    final_key, _ = _renumber(final_key)
    final_key = np.where(final_key >= 0, final_key * (int(added.max()) + 1) + added, -1)
    ids, rep = _renumber(final_key)
    final_letter = letters[rep].astype(np.int32)
    final_weight = weights[rep]
    final_side = None if side is None else added[rep]
    sizes = [len(rep)]
    next0: list[np.ndarray] = []
    next1: list[np.ndarray] = []
    cur_ids = ids
    for k in range(r - 1, -1, -1):
        s = np.arange(1 << k, dtype=np.int64)
        n0 = cur_ids[s]
        n1 = cur_ids[s | (1 << k)]
        m = sizes[0]
        key = np.where((n0 >= 0) | (n1 >= 0), (n0 + 1) * (m + 1) + (n1 + 1), -1)
        new_ids, rep = _renumber(key)
        next0.insert(0, n0[rep].astype(np.int32))
        next1.insert(0, n1[rep].astype(np.int32))
        sizes.insert(0, len(rep))
        cur_ids = new_ids
    return HoldingAutomaton(tuple(sizes), tuple(next0), tuple(next1), final_letter, final_weight, final_side), den
