"""dealer.tables.union: a condition of many atoms under '||' and '!' counted exactly, against inclusion-exclusion."""

from __future__ import annotations

from itertools import combinations

import pytest

from dealer.tables.exact import ExactDealer
from dealer.run.script_dealer import ScriptDealer
from dealer.spec.spec import DealSpec
from dealer.lang.statements import parse_statements
from dealer.lang.syntax import parse_condition
from dealer.cards.seat import Seat
from dealer.budget import current
from dealer.tables.union import UnionDealer

SUITS = ("spades", "hearts", "diamonds", "clubs")


def exact(text: str) -> int:
    return int(ExactDealer(DealSpec.parse(text)).count())


def inclusion_exclusion(events: list[str]) -> int:
    """|E1 or ... or Ek| from the exact counts of the conjunctions (each one per-seat spec)."""
    return sum((-1) ** (k + 1) * exact(" && ".join(f"({e})" for e in group))
               for k in range(1, len(events) + 1) for group in combinations(events, k))


@pytest.mark.parametrize("events", [
    # a preempt in any of three suits: 7 atoms on one seat (suit holdings, lengths, HCP)
    [f"top5(south, {s}) > 1 && {s}(south) > 6 && hcp(south) < 10" for s in SUITS[:3]],
    # the leveling code's shape: atoms on two seats, suit holdings and cards
    ["hascard(west, C3) && hcp(west, clubs) < 4", "hascard(east, D3) && hcp(east, diamonds) < 4",
     "hascard(west, H3) && hearts(west) >= 2"],
])
def test_a_union_of_many_atoms_counts_as_inclusion_exclusion(events: list[str]) -> None:
    cond = " || ".join(f"({e})" for e in events)
    union = UnionDealer.build([], [parse_condition(cond)], {})
    assert union is not None and len(union.parts) <= current().union_parts
    assert union.count() == inclusion_exclusion(events)
    run = ScriptDealer(parse_statements(f"condition {cond}\n", source="u.dl"))
    assert run.exact and run.count().deals == union.count()


def test_a_cube_sets_only_the_atoms_it_needs() -> None:
    """a || b || c || d || e || f || g on seven cards of two seats: 7 parts (not 127), exactly counted.

    (On one seat the whole '||' is that seat's own condition: dealer.spec.sidecount.)"""
    cards = [("north", c) for c in ("SA", "HA", "DA", "CA")] + [("south", c) for c in ("SK", "HK", "DK")]
    union = UnionDealer.build([], [parse_condition(" || ".join(f"hascard({s}, {c})" for s, c in cards))], {})
    assert union is not None and len(union.parts) == 7
    none = exact(" && ".join(f"!hascard({s}, {c})" for s, c in cards))
    assert union.count() == exact("1") - none


@pytest.mark.parametrize("events, west_free", [
    # the leveling code: West and East only hold or lack cards, so a card West lacks is placed with one of
    # the other three seats (three disjoint parts) and West is dealt with the unconstrained seats
    (["hcp(north) >= 12 && hcp(north) <= 14 && hascard(west, C2)", "!hascard(west, C3) && spades(north) >= 5"],
     True),
    # West constrained too: its lacking a card stays a forbidden card of its tables
    (["!hascard(west, C3) && hcp(west) >= 10", "hascard(north, SA) && !hascard(west, HA)"], False),
])
def test_a_card_a_free_seat_lacks_is_placed_with_the_others(events: list[str], west_free: bool) -> None:
    cond = " || ".join(f"({e})" for e in events)
    union = UnionDealer.build([], [parse_condition(cond)], {})
    assert union is not None
    assert union.count() == inclusion_exclusion(events)  # the oracle deals '!hascard' as a forbidden card
    tracked_west = any(Seat.W in part.tracked for part in union.parts)
    assert tracked_west is not west_free
    run = ScriptDealer(parse_statements(f"condition {cond}\n", source="u.dl"))
    assert run.exact and run.count().deals == union.count()
    run.filter = parse_condition(cond)  # the runner's evaluator checks every deal the union deals
    assert run.holds(union.sample_masks(400, seed=3)).all()


def test_a_negation_a_positive_atom_implies_is_left_out() -> None:
    """Branches on exclusive shapes: in the cube ``!a && b`` no hand meets ``a && b``, so the part is ``b`` alone
    and reads one suit's feature; with room for one such feature only, the union is still built, and counts
    as inclusion-exclusion (a side count too small for both suits at once proves ``!a`` was left out)."""
    events = ["shape(north, 6xxx - x6xx) && (hcp(north, spades) >= 5 || hcp(north) <= 6)",
              "shape(north, x6xx - 6xxx) && (hcp(north, hearts) >= 5 || hcp(north) <= 6)"]
    cond = parse_condition(" || ".join(f"({e})" for e in events))
    with current().replace(side_totals=2).applied():
        union, why = UnionDealer.attempt([], [cond], {})
    assert union is not None, why
    assert len(union.parts) == 2 and union.count() == inclusion_exclusion(events)
