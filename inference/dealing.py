"""Claims over several concealed hands, answered by the exact dealer.

A position's lawful layouts are exactly the deals that give each seat its known cards (a visible
hand whole, a concealed seat's played cards), with each void shown kept. When a claim is a
conjunction of conditions on one seat each, in the dealer's own language (lengths, HCP, shapes,
specific cards, HCP in a suit), the dealer's per-seat tables count those deals exactly: the claim
holds in some lawful layout when the count is not zero, and each seat's exact distribution of a
length or of its HCP gives tight bounds. The joint pass (:mod:`inference.joint`) carries every
feature the claim reads through its states and can grow past its limit with three hands
concealed; the dealer's tables carry, per seat, only what that seat's conditions tell apart, so
they answer where the joint pass is refused. Claims the dealer cannot deal exactly (``longest``,
``honours``, ``rank``, a relation between seats) are not answered here (``None``).
"""

from __future__ import annotations

from typing import Sequence

from dealer import CardSet, DealerError, Seat, Suit
from dealer.exact import ExactDealer
from dealer.expr import Compare, Const, Cond, Length, Pos
from dealer.spec import DealSpec

from .claims import Claim, Honours, Longest, Rank
from .features import Feature, Kind
from .kernel import holding_of
from .position import Position

__all__ = ["lawful_spec", "dealer_count", "dealer_support"]

_FEATURE = {int(Suit.S): "S", int(Suit.H): "H", int(Suit.D): "D", int(Suit.C): "C"}


def lawful_spec(position: Position, claim: Claim | None = None) -> DealSpec | None:
    """The spec of the position's lawful layouts where ``claim`` holds; None if the dealer cannot take it."""
    if claim is not None and any(isinstance(n, (Longest, Honours, Rank)) for n in claim.walk()):
        return None
    conds: list[Cond] = [] if claim is None else [claim]
    for seat in position.concealed:
        for s in range(4):
            if position.void(seat, s):
                conds.append(Compare("==", Length(seat, Suit(s)), Const(holding_of(position.known[seat], s).bit_count())))
    predeals = {seat: (CardSet(position.known[seat]), Pos()) for seat in Seat if position.known[seat]}
    try:
        return DealSpec.from_conditions(conds, predeals)
    except DealerError:  # a relation between seats, or anything the per-seat tables cannot deal exactly
        return None


def _dealer(position: Position, claim: Claim | None) -> ExactDealer | None:
    spec = lawful_spec(position, claim)
    if spec is None:
        return None
    try:
        return ExactDealer(spec, backend="compact")
    except DealerError:  # past the dealer's own table limit
        return None


def dealer_count(position: Position, claim: Claim | None = None) -> int | None:
    """The exact number of lawful layouts where ``claim`` holds (all of them for None), or None."""
    dealer = _dealer(position, claim)
    if dealer is None:
        return None
    count = dealer.count()
    return int(count)


def dealer_support(position: Position, claim: Claim, targets: Sequence[Feature]
                   ) -> dict[Feature, tuple[int, int]] | None:
    """Min and max of each target (a concealed seat's length or HCP) over the lawful layouts where
    ``claim`` holds, exactly (empty if none); None when the dealer cannot take the claim."""
    dealer = _dealer(position, claim)
    if dealer is None:
        return None
    if dealer.count() == 0:
        return {}
    out: dict[Feature, tuple[int, int]] = {}
    for t in targets:
        if t.kind not in (Kind.LENGTH, Kind.HCP):
            return None
        name = "hcp" if t.kind == Kind.HCP else _FEATURE[t.arg]
        values = [int(v) for v, c in dealer.distribution(t.seat, name).items() if c]
        out[t] = (min(values), max(values))
    return out
