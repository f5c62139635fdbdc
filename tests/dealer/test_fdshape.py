"""DealerV2's ``shape{...}`` patterns against the expansions its documentation and its Perl expander give
(dealerv2/Dealer-Version-2-: docs/README_FDshapes.txt, lib/Dist.pm) and against plain shape lists."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from dealer.cards.shapes import ShapeSet
from dealer.lang.fdshape import ALL_SHAPES, expand_fd_shape
from dealer.lang.statements import parse_statements
from dealer.run.script_dealer import ScriptDealer


def _digits(text: str) -> set[tuple[int, ...]]:
    return {tuple(int(c) for c in word) for word in text.split(" + ")}


def test_the_documented_expansions() -> None:
    """README_FDshapes: ``shape{west,(54xx):h>s,d>c}`` is these ten; ``1+xxx - (7+xxx)`` removes every hand
    with a seven to nine card suit from spades 1 to 9."""
    ten = "0454 + 1354 + 1453 + 1543 + 2452 + 2542 + 3451 + 3541 + 4531 + 4540"
    assert set(expand_fd_shape("west,(54xx):h>s,d>c")[1]) == _digits(ten)
    seven_up = {s for s in ALL_SHAPES if any(7 <= x <= 9 for x in s)}
    spades = {s for s in ALL_SHAPES if 1 <= s[0] <= 9}
    assert set(expand_fd_shape("north, 1+xxx - (7+xxx) ")[1]) == spades - seven_up


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("0123456789x"), min_size=4, max_size=4), st.booleans())
def test_plain_positions_equal_the_dealer_list(positions: list[str], any_order: bool) -> None:
    """Four digits or x: the same shapes as ``shape(seat, 54xx)`` (``any 54xx`` for a group in parentheses)."""
    pattern = "".join(positions)
    if pattern.count("x") == 0 and sum(int(c) for c in pattern) != 13 or \
            sum(int(c) for c in pattern if c != "x") > 13:
        return
    text = f"({pattern})" if any_order else pattern
    got = set(expand_fd_shape(f"south, {text}")[1])
    assert got == set(ShapeSet.parse(("any " if any_order else "") + pattern))


def test_suit_letters_ranges_and_majors() -> None:
    assert set(expand_fd_shape("east, 3d2c4s4h")[1]) == {(4, 4, 3, 2)}
    assert set(expand_fd_shape("east, 5M(xxx)")[1]) == {s for s in ALL_SHAPES if 5 in s[:2]}
    assert set(expand_fd_shape("east, 5h(431)")[1]) == {(a, 5, b, c) for a, b, c in itertools.permutations((4, 3, 1))}
    got = set(expand_fd_shape("east, [67]d[0-3]c[0-3]h[0-3]s")[1])
    assert got == {s for s in ALL_SHAPES if s[2] in (6, 7) and max(s[0], s[1], s[3]) <= 3}
    assert set(expand_fd_shape("east, x5-xx:s+h>=10 or c==0")[1]) == {
        s for s in ALL_SHAPES if s[1] <= 5 and s[0] <= 9 and (s[0] + s[1] >= 10 or s[3] == 0)}


@pytest.mark.parametrize("body, fragment", [
    ("North, 4333", "seat in lower case"), ("north, 433", "four suit positions"),
    ("north, xxxx:h=c", "cannot read the condition"), ("north, xxxx:__import__('os')", "cannot read the condition"),
    ("north, (43)3x", "come last"), ("north, 4?33", "cannot read"),
])
def test_patterns_dealerv2_refuses_are_errors(body: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        expand_fd_shape(body)


def test_in_a_script_counts_as_the_plain_list() -> None:
    fd = ScriptDealer(parse_statements("condition shape{north, 5+xxx - (7+xxx)} && hcp(north) >= 11")).count()
    plain = ScriptDealer(parse_statements(
        "condition shape(north, 5xxx + 6xxx - any 7xxx - any 8xxx - any 9xxx) && hcp(north) >= 11")).count()
    assert fd.exact and fd.deals == plain.deals
