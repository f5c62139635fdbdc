"""The spec values: SeatSpec and DealSpec check their input, say every fault at once, and stay frozen."""

from __future__ import annotations

import pickle

import pytest

from dealer.cards.cardset import CardSet
from dealer.cards.seat import Seat
from dealer.cards.suit import Suit
from dealer.errors import SpecError
from dealer.spec.spec import DealSpec, SeatSpec


def test_text_becomes_cards_shapes_and_a_condition() -> None:
    spec = SeatSpec(predeal="SAK", lengths={"H": (2, 4)}, shapes="any 4333 + any 4432", hcp=12,
                    condition="hcp(north) >= 12")
    assert spec.predeal == CardSet.parse("SAK") and spec.lengths == {Suit.H: (2, 4)} and spec.hcp == (12, 12)
    assert spec.shapes is not None and (4, 3, 3, 3) in spec.shapes and (5, 3, 3, 2) not in spec.shapes
    assert str(spec.condition) == "hcp(north) >= 12"
    assert spec == SeatSpec(predeal=CardSet.parse("SAK"), lengths={Suit.H: (2, 4)}, shapes="any 4432 + any 4333",
                            hcp=(12, 12), condition=spec.condition)
    assert spec != SeatSpec(predeal="SAK") and hash(SeatSpec(hcp=3)) == hash(SeatSpec(hcp=(3, 3)))


def test_every_fault_is_named_with_its_field_and_value() -> None:
    with pytest.raises(SpecError) as info:
        SeatSpec(lengths={"S": (5, 3)}, hcp=(3, 50), predeal=7, colour="red")
    message = str(info.value)
    for fragment in ("lengths: cannot have hi=3 < lo=5", "hcp: hcp must lie in 0..37, got (3, 50)", "predeal:",
                     "got 7", "colour: unknown field"):
        assert fragment in message, message
    with pytest.raises(SpecError, match=r"seats\.N: hcp: expected a \(lo, hi\) pair, got 'x'"):
        DealSpec(seats={"N": {"hcp": "x"}})
    with pytest.raises(SpecError, match="SA predealt to south and to another seat"):
        DealSpec.from_dict({"N": {"predeal": "SA"}, "S": {"predeal": "SA"}})
    with pytest.raises(SpecError, match="mentions south"):
        DealSpec(seats={Seat.N: SeatSpec(condition="hcp(south) >= 3")})


def test_values_are_frozen_and_replace_checks_again() -> None:
    spec = SeatSpec(hcp=(10, 12))
    with pytest.raises(AttributeError, match="frozen"):
        spec.hcp = (0, 37)
    with pytest.raises(AttributeError, match="frozen"):
        DealSpec().text = "x"
    assert spec.replace(lengths={"S": 5}) == SeatSpec(hcp=(10, 12), lengths={"S": (5, 5)})
    assert spec.hcp == (10, 12) and spec.lengths == {}
    with pytest.raises(SpecError, match="hcp"):
        spec.replace(hcp=(12, 10))


def test_specs_pickle_and_a_copy_deals_the_same_count() -> None:
    from dealer.tables.exact import ExactDealer
    spec = DealSpec.from_dict({"W": {"lengths": {"S": (6, 13)}, "hcp": (11, 15)}, "N": {"predeal": "HAK"}})
    copy = pickle.loads(pickle.dumps(spec))
    assert copy == spec and copy is not spec
    assert ExactDealer(copy).count() == ExactDealer(spec).count() > 0
