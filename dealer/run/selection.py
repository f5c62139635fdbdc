"""Deal and select: ``dealer``'s own way, random deals kept where the whole condition holds.

Each random deal completes the script's ``predeal`` uniformly (:class:`RandomDeals`), so each deal kept is uniform over the deals meeting the condition: the output is
the ``dealer`` program's in distribution, with no table of the condition built and nothing
counted. This is the cheap way when the condition keeps many random deals: ``kibitz dealer``
starts with it (:func:`select`) and leaves it for the exact tables (:mod:`dealer.run.runner`) when
the deals kept so far predict more random deals than the budget's ``select_deals``.

>>> from dealer.lang.expr import Compare, Const, Hcp
>>> from dealer.cards.seat import Seat
>>> selection = Selection([Compare(">=", Hcp(Seat.N), Const(10))], {})
>>> import numpy as np
>>> done = selection.select(5, 10_000, np.random.default_rng(1), most=100_000)
>>> len(done.deals), done.finished, done.used >= 5
(5, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from dealer.cards.cardset import CardSet
from dealer.errors import SpecError
from dealer.lang.evalcontract import check_solver
from dealer.lang.evaluate import STANDARD, Counts, check_runnable, evaluate
from dealer.lang.actions import DoubleDummyRow, ParContract, Report
from dealer.lang.double_dummy import SOLVER_NODES, batch_solver
from dealer.lang.expr import And, Cond, LeadTricks, Node, Pos, conjuncts, walk_once
from dealer.lang.statements import Action, EvalContract, EvalTable, check_predeals
from dealer.tables.pool import deal_pool
from dealer.cards.seat import Seat

__all__ = ["Filter", "RandomDeals", "Selection", "Selected", "PILOT", "joined", "kept_until", "check_evaluable"]

#: The random deals dealt first, from whose rate kept the rest is predicted.
PILOT = 4096
_BATCH = 65536


@dataclass(frozen=True)
class Selected:
    """What deal-and-select gave: the deals kept, the random deals used, and whether it went to the end."""

    deals: np.ndarray
    used: int
    finished: bool



class RandomDeals:
    """Random deals completing the predealt cards, each completion equally likely: ``dealer``'s random deals."""

    def __init__(self, predeals: "Mapping[Seat, tuple[CardSet, Pos]]") -> None:
        check_predeals(predeals)
        placed = [predeals[seat][0].mask if seat in predeals else 0 for seat in Seat]
        seen = placed[0] | placed[1] | placed[2] | placed[3]
        self.placed = np.array(placed, dtype=np.uint64)
        self.free = np.array([i for i in range(52) if not seen >> i & 1], dtype=np.uint64)
        self.vacancies = [13 - m.bit_count() for m in placed]

    def sample_masks(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` deals as an ``(n, 4)`` array of hand bit-sets (North, East, South, West)."""
        seats = [seat for seat, vacancy in enumerate(self.vacancies) if vacancy]
        masks = [np.full(n, self.placed[seat], dtype=np.uint64) for seat in seats]
        bits = [np.uint64(1) << card for card in self.free]
        if seats:
            deal_pool(rng, [self.vacancies[seat] for seat in seats], n, masks, bits)
        out = np.tile(self.placed, (n, 1))
        for seat, mask in zip(seats, masks):
            out[:, seat] = mask
        return out


class Filter:
    """Conditions tested on deals in turn, those that ask the double-dummy solver last: it sees only the
    deals the others keep."""

    def __init__(self, conditions: Sequence[Cond], counts: Counts = STANDARD) -> None:
        self.counts = counts
        parts = conjuncts(conditions)
        asks = [c for c in parts if any(isinstance(n, SOLVER_NODES) for n in walk_once(c))]
        #: The parts, those that ask the double-dummy solver last and joined into one: a deal the others keep
        #: is solved once, in every strain they read.
        self.parts: list[Cond] = [c for c in parts if not any(c is a for a in asks)]
        if asks:
            self.parts.append(asks[0] if len(asks) == 1 else And(tuple(asks), pos=asks[0].pos))
        #: Whether a condition asks the double-dummy solver (a deal takes it some 0.04 s).
        self.solves = bool(asks)
        #: How many deals the filter has had solved double dummy so far.
        self.solved = 0

    def holds(self, masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """Whether each deal meets every condition (``rng`` draws ``rnd`` values)."""
        ok = np.ones(len(masks), dtype=bool)
        for i, part in enumerate(self.parts):
            rows = np.flatnonzero(ok)
            if len(rows) == 0:
                break
            ok[rows] = evaluate(part, masks[rows], self.counts, rng=rng) != 0
            self.solved += len(rows) if self.solves and i == len(self.parts) - 1 else 0
        return ok


class Selection(Filter):
    """Random deals completing the predeal, kept where every condition holds."""

    def __init__(self, conditions: Sequence[Cond], predeals: "Mapping[Seat, tuple[CardSet, Pos]]",
                 counts: Counts = STANDARD) -> None:
        super().__init__(conditions, counts)
        self.random = RandomDeals(predeals)

    def select(self, produce: int, generate: int, rng: np.random.Generator, *, most: int, later: int = 0,
               before: tuple[int, int] = (0, 0)) -> Selected:
        """Deal random deals until ``produce`` are kept or ``generate`` are dealt, as ``dealer`` does; stop
        early (``finished`` False) when the rate kept so far predicts more than ``most`` random deals.

        A run dealt in parts asks part by part: ``later`` is how many deals it will want after these, and
        ``before`` the deals it kept and dealt by selection in its earlier parts, so the rate and the
        prediction are the whole run's (``most`` counts from the run's start)."""
        kept: list[np.ndarray] = []
        got = used = 0
        kept_before, used_before = before
        while got < produce and used < generate:
            rate = (kept_before + got + 1) / (used_before + used + 2)
            wanted = (produce - got) / rate
            left = most - used_before - used
            if (used or used_before) and wanted + later / rate > left and generate - used > left:
                return Selected(joined(kept), used, False)
            batch = min(_BATCH, generate - used, max(PILOT if not (used or used_before) else 64, int(1.25 * wanted) + 1))
            masks = self.random.sample_masks(batch, rng)
            ok, looked = kept_until(masks, self.holds(masks, rng), produce - got)
            kept.append(ok)
            got += len(ok)
            used += looked
        return Selected(joined(kept), used, True)


def check_evaluable(nodes: Sequence[Node], actions: Sequence[Action],
                    predeals: Mapping[Seat, tuple[CardSet, Pos]] | None = None) -> None:
    """Refuse, naming line and column, a node that cannot be evaluated on deals, an action that needs the
    double-dummy solver where it is missing, or a ``leadtricks`` whose opening leader the script does not
    predeal whole (``predeals``, the suokko fork's rule): before any deal is dealt or printed."""
    for node in nodes:
        check_runnable(node)
    for action in actions:
        if isinstance(action, (EvalContract, EvalTable)):
            check_solver(action)
        elif isinstance(action, Report):
            for item in action.items:
                if isinstance(item, (DoubleDummyRow, ParContract)):
                    batch_solver(action.pos, "trix" if isinstance(item, DoubleDummyRow) else "parcontract")
    leads = [n for node in nodes for n in walk_once(node) if isinstance(n, LeadTricks)]
    for n in leads:
        leader, held = n.seat.lho, len((predeals or {}).get(n.seat.lho, (CardSet(), Pos()))[0])
        if held != 13:
            raise SpecError(f"{n.pos}: {n}: the opening leader, "
                            f"{leader.name_long}, must be predealt all 13 cards (the script predeals {held})")
        if leader != leads[0].seat.lho:
            raise SpecError(f"{n.pos}: {n}: every leadtricks of a script must "
                            f"have the same opening leader ({leads[0]} has {leads[0].seat.lho.name_long})")


def joined(kept: list[np.ndarray]) -> np.ndarray:
    """Batches of deals as one ``(n, 4)`` array (none: an empty one)."""
    return np.concatenate(kept) if kept else np.zeros((0, 4), dtype=np.uint64)


def kept_until(masks: np.ndarray, flags: np.ndarray, need: int) -> tuple[np.ndarray, int]:
    """The deals of ``masks`` where ``flags`` hold, at most ``need`` of them, and how many deals that looked
    at: up to the one that completed ``need`` (as ``dealer`` stops at the deal that completes its
    production), else all of them.

    >>> kept_until(np.arange(8).reshape(4, 2), np.array([False, True, True, True]), 2)
    (array([[2, 3],
           [4, 5]]), 3)
    """
    rows = np.flatnonzero(flags)
    if len(rows) >= need:
        return masks[rows[:need]], int(rows[need - 1]) + 1
    return masks[rows], len(masks)
