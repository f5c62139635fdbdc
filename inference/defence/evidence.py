"""The defenders' cards as evidence: per-holding weights for the weighted view, from a defence model.

Each card a defender has played multiplies the weight of every holding he may have been dealt in
that suit by the model's probability of that card from what the holding was at that moment (the
dealt holding less his earlier cards of the suit), in that card's situation (the phase, the trick
so far, the cards of the suit gone). A layout's weight is the product over the defenders' cards, so
the posterior over layouts is the prior times the likelihood of the play the defenders chose.

The choice of suit on a lead or a discard depends on every suit the defender held; it is a *per-suit
approximation*: the chosen suit's holding is weighed by the rate at which real defenders choose a
suit like it (its length, honours and top) in its role (who bid it, who led it, trumps:
:func:`~inference.defence.cards.suit_role`), and the suits he did not choose weigh nothing. A discard
by a defender void in the suit led also weighs his trump holding by the rate of discarding rather
than ruffing from it. Each (seat, suit) table of products is then set on a grid of ``bits`` bits relative to its
likeliest holding (``round(2**bits * w / max w)``, at least 1 where ``w > 0``), so the weights stay
small integers; ``bits=None`` keeps the exact products (Python integers in the graph). Each card's
probability enters raised to ``power`` (:data:`DEFAULT_POWER`, a tempered likelihood; 1: the model
at full strength).

>>> from inference.defence.model import load_model
>>> evidence = DefenceEvidence(load_model())
>>> evidence.bits, evidence.power
(16, Fraction(3, 4))
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Callable, Iterator, Sequence

import numpy as np

from dealer import Card, Seat
from dealer.arrays import exact_ints

from inference.rules.contract import Strain
from inference.rules.trick import Trick
from inference.claims.weights import HoldingWeights
from inference.errors import InvalidArgumentError
from inference.defence.cards import Phase, Situation, defenders_situations
from inference.defence.model import DefenceModel, load_model

__all__ = ["DefenceEvidence", "DEFAULT_BITS", "DEFAULT_POWER", "CardFactor", "defenders_cards", "defence_evidence"]

#: The grid the weights are set on (bits relative to the likeliest holding of a seat in a suit).
DEFAULT_BITS = 16
#: The power each card's probability is raised to in the weights (a tempered likelihood: the per-suit
#: model's cards are not independent evidence, and at full strength it is overconfident). Chosen on the
#: calibration half with ``benchmarks/knowledge.py --half calibration`` (docs/defence.rst).
DEFAULT_POWER = Fraction(3, 4)
_SUIT = 0x1FFF

#: A model as a function: (situation, holding at that moment, the card's position 0..12) -> probability.
CardFactor = Callable[[Situation, int, int], Fraction]


def defenders_cards(tricks: Sequence[Trick], declarer: Seat, strain: Strain, first_trick: bool, gone_before: int = 0,
                    bids: Sequence[int] | None = None) -> Iterator[tuple[Seat, Card, Situation, int]]:
    """Every defender's card in ``tricks`` (completed ones, then the trick in progress), with its situation and
    every card played before it (a 52-bit mask); ``first_trick``: whether ``tricks[0]`` is the first trick of
    the hand (its lead is the opening lead); ``gone_before``: the cards played before ``tricks``; ``bids``: each
    seat's suits bid in the auction (:func:`~inference.defence.cards.suits_bid`; None: not heard)."""
    return defenders_situations((t.cards for t in tricks), declarer, strain, first_trick, gone_before, bids)


@dataclass(frozen=True)
class _Table:
    """One defender's evidence in one suit so far: the exact product for each holding he may have been dealt
    (those left out weigh 0), and his cards of the suit played so far."""

    products: dict[int, Fraction]
    earlier: int


#: Evidence kept for this many plays (prefixes), so a card played costs one table's update.
KEPT = 512


@dataclass(eq=False)
class DefenceEvidence:
    """A defence model (or any card factor) turned into per-holding weights for the weighted view.

    Not a value: it owns its caches (the factors met, the tables of recent plays, their grids), the one
    mutable part, shared by the play states that use it; ``model``, ``group`` and ``bits`` stay as given.
    """

    model: "DefenceModel | CardFactor"
    group: str = "human"
    bits: int | None = DEFAULT_BITS
    power: Fraction = DEFAULT_POWER
    _factors: dict[tuple[Situation, int, int], Fraction] = field(default_factory=dict, compare=False, repr=False)
    _weights: dict[tuple[Situation, int, int], Fraction] = field(default_factory=dict, compare=False, repr=False)
    _trump_weights: dict[tuple[Situation, int], Fraction] = field(default_factory=dict, compare=False, repr=False)
    _steps: "OrderedDict[tuple[object, ...], dict[tuple[Seat, int], _Table]]" = field(
        default_factory=OrderedDict, compare=False, repr=False)
    _grids: dict[int, tuple[_Table, np.ndarray, int]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.power, (int, Fraction)) or isinstance(self.power, bool) or self.power <= 0:
            raise InvalidArgumentError(f"the evidence's power must be a fraction above 0, not {self.power}")
        self.power = Fraction(self.power)

    def factor(self, situation: Situation, holding: int, position: int) -> Fraction:
        """The weight the card at ``position`` gives ``holding`` (13-bit, what was held then): the model's
        :meth:`~inference.defence.model.DefenceModel.card_evidence`, or the function's value."""
        key = (situation, holding, position)
        found = self._factors.get(key)
        if found is None:
            if isinstance(self.model, DefenceModel):
                found = self.model.card_evidence(situation, holding, position, self.group)
            else:
                found = Fraction(self.model(situation, holding, position))
            self._factors[key] = found
        return found

    def weight(self, situation: Situation, holding: int, position: int) -> Fraction:
        """The factor the weighted view multiplies in: :meth:`factor` raised to :attr:`power` (a power other than
        1 is taken in floating point, then kept as that float's exact fraction: deterministic)."""
        p = self.factor(situation, holding, position)
        if self.power == 1 or not p:
            return p
        key = (situation, holding, position)
        found = self._weights.get(key)
        if found is None:
            found = self._weights[key] = Fraction(float(p) ** float(self.power))
        return found

    def weights(self, tricks: Sequence[Trick], declarer: Seat, strain: Strain, played_before: Sequence[int],
                visible: int, bids: Sequence[int] | None = None, *, viewer: Seat | None = None) -> HoldingWeights:
        """The weights of every holding a defender may have been dealt, given the defenders' cards in ``tricks``.

        ``played_before[seat]``: its cards played before ``tricks`` (a mid-hand start's); ``visible``: the
        dealt cards of the hands the viewer sees (its own, and dummy's once tabled); ``bids``: each seat's suits
        bid (:func:`~inference.defence.cards.suits_bid`; None: the auction not heard). A defender's table in a
        suit covers every holding with his cards of the suit played so far and any of the cards neither
        visible nor played when he first played in it, so it serves every later position of the same play. A
        defender who is the ``viewer`` sees his own hand: he has no table (his cards weigh nothing he does not know).
        """
        gone_before = played_before[0] | played_before[1] | played_before[2] | played_before[3]
        key: tuple[object, ...] = (declarer, strain, tuple(played_before), visible)
        tables: dict[tuple[Seat, int], _Table] = {}
        for seat, card, situation, played in defenders_cards(tricks, declarer, strain, not gone_before, gone_before,
                                                             bids):
            key += (card.index, situation, played)  # what the update reads
            found = self._steps.get(key)
            if found is None:
                found = dict(tables)
                pair = (seat, int(card.suit))
                before = found.get(pair) or _Table(self._domain(pair, played_before[seat], visible | played, card),
                                                   played_before[seat] >> (13 * pair[1]) & _SUIT)
                found[pair] = self._update(before, situation, card.index % 13)
                if situation.phase == Phase.DISCARD and situation.trump is not None and self._ruffs:
                    pair = (seat, situation.trump)  # he discarded rather than ruff: what trumps did he hold?
                    before = found.get(pair) or _Table(self._domain(pair, played_before[seat], visible | played),
                                                       played_before[seat] >> (13 * pair[1]) & _SUIT)
                    found[pair] = self._update_trumps(before, situation)
                self._steps[key] = found
                if len(self._steps) > KEPT:
                    self._steps.popitem(last=False)
            tables = found
        return HoldingWeights.from_arrays({pair: self._grid(table) for pair, table in tables.items()
                                           if pair[0] != viewer})

    def _update(self, table: _Table, situation: Situation, position: int) -> _Table:
        """The table times the card's probability from each holding (what it was when the card was played)."""
        products = {h: w * self.weight(situation, h & ~table.earlier, position) if w else w
                    for h, w in table.products.items()}
        return _Table(products, table.earlier | 1 << position)

    def _update_trumps(self, table: _Table, situation: Situation) -> _Table:
        """The trumps' table times, for each holding (what it was then), the weight of discarding rather than
        ruffing from it (:meth:`~inference.defence.model.DefenceModel.trump_choice`)."""
        products = {h: w * self.trump_weight(situation, h & ~table.earlier) if w else w
                    for h, w in table.products.items()}
        return _Table(products, table.earlier)

    def trump_weight(self, situation: Situation, trumps: int) -> Fraction:
        """The factor a ruff-or-discard choice gives ``trumps`` (what the defender held then), to :attr:`power`."""
        assert isinstance(self.model, DefenceModel)
        found = self._trump_weights.get((situation, trumps))
        if found is None:
            p = self.model.trump_choice(situation, trumps, self.group)
            found = p if self.power == 1 else Fraction(float(p) ** float(self.power))
            self._trump_weights[(situation, trumps)] = found
        return found

    @property
    def _ruffs(self) -> bool:
        """Whether the model weighs the choice to ruff or discard (a model object does; a card function not)."""
        return isinstance(self.model, DefenceModel)

    @staticmethod
    def _domain(pair: tuple[Seat, int], played_before: int, out: int, card: Card | None = None) -> dict[int, Fraction]:
        """Every holding ``pair``'s seat may have been dealt in the suit, each weighing 1: its cards played
        (before the ones weighed, and ``card``) and any subset of the suit's cards not in ``out``."""
        suit = pair[1]
        base = (played_before >> (13 * suit) & _SUIT) | (0 if card is None else 1 << (card.index % 13))
        free = ~(out >> (13 * suit)) & _SUIT & ~base
        holdings, sub = [], free
        while True:  # every subset of the free cards
            holdings.append(base | sub)
            if not sub:
                break
            sub = (sub - 1) & free
        return dict.fromkeys(holdings, Fraction(1))

    def _grid(self, table: _Table) -> tuple[np.ndarray, int]:
        """A table as numerators over the 8,192 holdings: on the grid of :attr:`bits` (``round(2**bits * w /
        max w)``, at least 1 where ``w > 0``), or exact over a common denominator when ``bits`` is None."""
        cached = self._grids.get(id(table))
        if cached is not None and cached[0] is table:
            return cached[1], cached[2]
        top = max(table.products.values(), default=Fraction(0))
        holdings = np.fromiter(table.products, dtype=np.int64, count=len(table.products))
        if self.bits is None or not top:
            denominator = lcm(*(w.denominator for w in table.products.values()))
            values: list[int] = [int(w * denominator) for w in table.products.values()]
        else:
            denominator, scale = 1, 2 ** self.bits / top
            values = [max(1, round(w * scale)) if w else 0 for w in table.products.values()]
        weights = exact_ints(values)
        out = np.zeros(1 << 13, dtype=weights.dtype)
        out[holdings] = weights
        if len(self._grids) > KEPT:
            self._grids.clear()
        self._grids[id(table)] = (table, out, denominator)
        return out, denominator


def defence_evidence(given: object) -> DefenceEvidence | None:
    """What a ``defence_model`` argument stands for: None; a shipped model's name or a model file (str); a
    :class:`DefenceModel`; a :class:`DefenceEvidence`; or a function ``(situation, holding, position)``."""
    if given is None or isinstance(given, DefenceEvidence):
        return given
    if isinstance(given, str):
        return DefenceEvidence(load_model(given))
    if isinstance(given, DefenceModel) or callable(given):
        return DefenceEvidence(given)
    raise InvalidArgumentError(f"invalid defence model {given!r}: expected a name such as 'default', a model file, "
                               "a DefenceModel, a DefenceEvidence, a function, or None")
