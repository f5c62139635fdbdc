"""Pavlicek numbering on hand masks: the same bijection as the Deal form, and below it in the imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given

from dealer import Deal, DealNumberError, InvalidDealError, deal_to_number
from dealer.cards.pavlicek import D, masks_to_number, number_to_masks
from tests.dealer.test_numbering import reference_number
from tests.strategies import deal_numbers, deals

ROOT = Path(__file__).resolve().parents[2]


@given(deal_numbers())
def test_number_masks_number(number: int) -> None:
    masks = number_to_masks(number)
    assert sorted(m.bit_count() for m in masks) == [13] * 4 and masks[0] | masks[1] | masks[2] | masks[3] == (1 << 52) - 1
    assert masks_to_number(masks) == number


@pytest.mark.parametrize("bad", [-1, D, 1.5, "7", True])
def test_out_of_range(bad: object) -> None:
    with pytest.raises(DealNumberError):
        number_to_masks(bad)  # type: ignore[arg-type]


@given(deals())
def test_mask_form_is_the_deal_form(deal: Deal) -> None:
    """:mod:`dealer.cards.pavlicek` works on hand masks; ``Deal.number``/``Deal.from_number`` and the
    :mod:`dealer.cards.numbering` functions are the same bijection."""
    n = masks_to_number(deal.masks)
    assert n == deal.number() == deal_to_number(deal) == reference_number(deal)
    assert number_to_masks(n) == deal.masks and Deal.from_number(n) == deal


@pytest.mark.parametrize("masks", [
    (0, 0, 0, 0),
    number_to_masks(0)[:3],
    (number_to_masks(0)[0],) * 4,  # 13 cards each, but the same 13
    (number_to_masks(0)[0] | 1 << 51, number_to_masks(0)[1], number_to_masks(0)[2], number_to_masks(0)[3]),
    (-1, 0, 0, 0),
])
def test_masks_that_are_not_a_deal(masks: tuple[int, ...]) -> None:
    with pytest.raises(InvalidDealError):
        masks_to_number(masks)


def test_numbering_sits_above_deal_and_pavlicek_below() -> None:
    """No cycle: ``pavlicek`` imports neither ``deal`` nor ``numbering``; ``deal`` never imports ``numbering``
    (not even inside a function); ``numbering`` imports ``deal``."""
    def imports(name: str) -> set[str]:
        tree = ast.parse((ROOT / "dealer" / "cards" / f"{name}.py").read_text())
        return {(node.module or "").rsplit(".", 1)[-1] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert not {"deal", "numbering"} & imports("pavlicek")
    assert "numbering" not in imports("deal") and "pavlicek" in imports("deal")
    assert "deal" in imports("numbering")
