"""Arguments as text or values: each turned into the engine's value, or an error naming the argument."""

from __future__ import annotations

import pytest

from dealer import CardSet, Seat, Suit
from inference.claims.arguments import cards_argument, contract_argument, inference_argument, seat_argument, voids_argument
from inference.rules.contract import Contract, Strain
from inference.errors import InvalidArgumentError, InvalidContractError
from inference.claims.inferences import Inference


def test_seat() -> None:
    assert seat_argument("w", "leader") == Seat.W == seat_argument(Seat.W, "leader")
    with pytest.raises(InvalidArgumentError, match="^leader: invalid seat 'X'"):
        seat_argument("X", "leader")


@pytest.mark.parametrize("text,expected", [("-", ""), ("  ", ""), ("AK.2..", "SA SK H2"), ("SA SK H2", "SA SK H2")])
def test_cards(text: str, expected: str) -> None:
    assert cards_argument(text, "dummy") == (CardSet.parse(expected) if expected else CardSet())
    same = CardSet.parse("AK.2..")
    assert cards_argument(same, "dummy") is same


def test_cards_error_names_the_argument() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^played\[W\]: "):
        cards_argument("S1", "played[W]")


def test_contract() -> None:
    assert contract_argument("4S") == Contract(4, Strain.S)
    assert contract_argument("NT") == Contract(1, Strain.NT) == contract_argument(Strain.NT)
    assert contract_argument("3NTX").doubled == 1
    with pytest.raises(InvalidContractError):
        contract_argument("8NT")


def test_voids() -> None:
    assert voids_argument(None) == [0, 0, 0, 0]
    masks = voids_argument({"E": "hearts, C", Seat.W: "SD"})
    assert masks == [0, 1 << Suit.H | 1 << Suit.C, 0, 1 << Suit.S | 1 << Suit.D]
    with pytest.raises(InvalidArgumentError, match=r"^voids\[E\]: "):
        voids_argument({"E": "X"})
    with pytest.raises(InvalidArgumentError, match=r"^voids\[Q\]: voids: invalid seat"):
        voids_argument({"Q": "S"})


def test_inference_by_a_seat_word() -> None:
    built = inference_argument(dict(name="1H", by="LHO", claim="hearts(LHO) >= 5"), Seat.S, Seat.S)
    assert isinstance(built, Inference) and built.by == Seat.W
    assert inference_argument(dict(name="x", by="partner", claim="hcp(W) > 1"), Seat.E, Seat.N).by == Seat.W
    given = Inference(name="x", by="W", claim="hcp(W) > 1")
    assert inference_argument(given, Seat.S, Seat.S) is given
    with pytest.raises(InvalidArgumentError, match="invalid inference 'x': by: "):
        inference_argument(dict(name="x", by="nobody", claim="hcp(W) > 1"), Seat.S, Seat.S)
