"""Reusable hypothesis strategies for bridge values.

``cards()``, ``card_sets()``, ``hands()``, ``deals()``, ``partial_deals()``,
``deal_numbers()`` and ``seats()``/``suits()``/``ranks()``.
"""

from __future__ import annotations

import os

from hypothesis import strategies as st

from dealer import CARDS, Card, CardSet, D, Deal, Hand, PartialDeal, Rank, Seat, Suit

__all__ = [
    "examples", "EXAMPLES_SCALE",
    "cards", "card_sets", "hands", "deals", "partial_deals", "deal_numbers", "seats", "suits", "ranks",
]


#: Each property test's own example count is scaled by the hypothesis profile (``HYPOTHESIS_PROFILE``): ``ci``
#: (the default) 1, ``dev`` 1/2, ``thorough`` 10 (for a long run before a release).
EXAMPLES_SCALE = {"ci": 1.0, "dev": 0.5, "thorough": 10.0}.get(os.environ.get("HYPOTHESIS_PROFILE", "ci"), 1.0)


def examples(n: int) -> int:
    """A property test's example count ``n`` under the profile (at least 1)."""
    return max(1, round(n * EXAMPLES_SCALE))


def seats() -> st.SearchStrategy[Seat]:
    return st.sampled_from(list(Seat))


def suits() -> st.SearchStrategy[Suit]:
    return st.sampled_from(list(Suit))


def ranks() -> st.SearchStrategy[Rank]:
    return st.sampled_from(list(Rank))


def cards() -> st.SearchStrategy[Card]:
    return st.sampled_from(CARDS)


def card_sets(min_size: int = 0, max_size: int = 52) -> st.SearchStrategy[CardSet]:
    return st.lists(cards(), min_size=min_size, max_size=max_size, unique=True).map(CardSet)


def hands(min_size: int = 0, max_size: int = 13) -> st.SearchStrategy[Hand]:
    return st.lists(cards(), min_size=min_size, max_size=max_size, unique=True).map(Hand)


def deal_numbers() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, D - 1), st.sampled_from([0, 1, D - 2, D - 1]))


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    """A uniformly shuffled deal (hypothesis shrinks towards the identity order)."""
    order = draw(st.permutations(range(52)))
    masks = [0, 0, 0, 0]
    for position, index in enumerate(order):
        masks[position // 13] |= 1 << index
    return Deal.from_masks(masks)


@st.composite
def partial_deals(draw: st.DrawFn) -> PartialDeal:
    """A deal with some hands unknown and some cards missing from the known ones."""
    deal = draw(deals())
    hands: list[CardSet | None] = []
    for hand in deal.hands:
        if draw(st.booleans()):
            hands.append(None)
        else:
            keep = draw(st.lists(st.sampled_from(hand.cards()), unique=True))
            hands.append(CardSet(keep))
    return PartialDeal(hands)
