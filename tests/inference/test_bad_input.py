"""Every bad argument to the public API is the project's own error, in one line, and changes nothing.

Table-driven: each case calls one API entry point with a value of the wrong type, out of range, too
large or too deep, and checks the error class, that its message is one short line naming the value,
and that the play state is exactly as it was (same snapshot, same ply).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import pytest

from dealer import DealerError, Seat
from dealer.errors import InvalidSeedError, SpecError, SpecSyntaxError
from dealer.tables.exact import ExactDealer
from dealer.spec.spec import DealSpec, SeatSpec
from inference.errors import InferenceError, InvalidArgumentError, UndoError
from inference.claims.inferences import Tag
from inference.exact.layouts import View
from inference.state.play import PlayState

HAND = "KQ.QJ2.K87.AJ543"
DUMMY = "A5.K98765.A4.K76"


def fresh() -> PlayState:
    """South declares 3NT: the lead, dummy, and one inference in force."""
    state = PlayState(HAND, declarer="S", contract="3NT")
    state.add_inference(dict(name="5S", by="LHO", claim="spades(LHO) >= 5", tag="consistent"))
    state.play("CQ")
    state.table_dummy(DUMMY)
    return state


STATE_CASES: list[tuple[str, Callable[[PlayState], Any], type[Exception], str]] = [
    ("add_inference(None)", lambda s: s.add_inference(None), InvalidArgumentError, "got None"),  # type: ignore[arg-type]
    ("add_inference(5)", lambda s: s.add_inference(5), InvalidArgumentError, "got 5"),  # type: ignore[arg-type]
    ("fallbacks=5", lambda s: s.add_inference(dict(name="x", by="LHO", claim="hcp(LHO) > 3", fallbacks=5)),
     InvalidArgumentError, "fallbacks"),
    ("by=1", lambda s: s.add_inference(dict(name="x", by=1, claim="hcp(LHO) > 3")), InvalidArgumentError, "got 1"),
    ("claim=3", lambda s: s.add_inference(dict(name="x", by="LHO", claim=3)), InvalidArgumentError, "claim"),
    ("claim 1 MB", lambda s: s.add_inference(dict(name="x", by="LHO", claim="hcp(LHO) > 3 && " * 70_000 + "1")),
     InvalidArgumentError, "at most 20000 characters"),
    ("200 parentheses", lambda s: s.add_inference(dict(name="x", by="LHO", claim="(" * 200 + "1" + ")" * 200)),
     InvalidArgumentError, "nested more than"),
    ("huge number", lambda s: s.add_inference(dict(name="x", by="LHO", claim="hcp(LHO) >= 99999999999999999999")),
     InvalidArgumentError, "too large"),
    ("tag=7", lambda s: s.add_inference(dict(name="x", by="LHO", claim="hcp(LHO) > 3", tag=7)),
     InvalidArgumentError, "invalid tag 7"),
    ("undo_to(True)", lambda s: s.undo_to(True), UndoError, "True"),  # type: ignore[arg-type]
    ("undo_to(99)", lambda s: s.undo_to(99), UndoError, "99"),
    ("at(-1)", lambda s: s.at(-1), UndoError, "-1"),
    ("table_dummy early='no'", lambda s: s.table_dummy(DUMMY, early="no"), InvalidArgumentError, "'no'"),  # type: ignore[arg-type]
    ("play(5)", lambda s: s.play(5), InferenceError, "5"),  # type: ignore[arg-type]
    ("play 10 MB card", lambda s: s.play("S" + "A" * 10_000_000), InferenceError, "characters"),
    ("play seat=3", lambda s: s.play("C6", 3), InvalidArgumentError, "got 3"),  # type: ignore[arg-type]
    ("agreement_bounds('bogus')", lambda s: s.agreement_bounds("bogus"), InvalidArgumentError, "bogus"),  # type: ignore[arg-type]
    ("agreement_bounds(['bogus'])", lambda s: s.agreement_bounds(["bogus"]), InvalidArgumentError, "bogus"),  # type: ignore[arg-type]
    ("agreement_bounds(5)", lambda s: s.agreement_bounds(5), InvalidArgumentError, "5"),  # type: ignore[arg-type]
    ("sample(10**12)", lambda s: s.sample(10 ** 12, 1), InvalidArgumentError, "1,000,000"),
    ("sample(-1)", lambda s: s.sample(-1, 1), InvalidArgumentError, "-1"),
    ("sample seed -1", lambda s: s.sample(1, -1), InvalidArgumentError, "invalid seed -1"),
    ("sample seed 'x'", lambda s: s.sample(1, "x"), InvalidArgumentError, "'x'"),  # type: ignore[arg-type]
    ("add_auction bad call", lambda s: s.add_auction("N", ["1H", "9Z"], book="sayc"), InvalidArgumentError, "9Z"),
    ("add_auction calls text", lambda s: s.add_auction("N", "1H P", book="sayc"), InvalidArgumentError, "list of calls"),  # type: ignore[arg-type]
    ("add_auction bad book", lambda s: s.add_auction("N", ["1H"], book="nope"), InvalidArgumentError, "nope"),
    ("add_auction dealer 5", lambda s: s.add_auction(5, ["1H"], book="sayc"), InvalidArgumentError, "got 5"),  # type: ignore[arg-type]
    ("layouts('psychic')", lambda s: s.layouts("psychic"), InvalidArgumentError, "psychic"),
    ("View policy bogus", lambda s: View("agreement", policy=["bogus"]), InvalidArgumentError, "bogus"),  # type: ignore[arg-type]
    ("View weight 0.5", lambda s: View("weighted", weights={Tag.CONSISTENT: 0.5}), InvalidArgumentError, "0.5"),  # type: ignore[dict-item]
]


@pytest.mark.parametrize("name,call,error,fragment", STATE_CASES, ids=[c[0] for c in STATE_CASES])
def test_bad_arguments_change_nothing(name: str, call: Callable[[PlayState], Any], error: type[Exception],
                                      fragment: str) -> None:
    state = fresh()
    before = (state.ply, state.snapshot, dict(state.statuses()))
    with pytest.raises(error) as info:
        call(state)
    message = str(info.value)
    assert isinstance(info.value, (InferenceError, DealerError)) and isinstance(info.value, ValueError)
    assert "\n" not in message and len(message) < 400 and fragment in message, message[:300]
    assert (state.ply, state.snapshot, dict(state.statuses())) == before
    state.play("C6")  # and the state goes on
    assert state.ply == before[0] + 1


def test_string_tags_are_read_not_ignored() -> None:
    """A policy of plain strings means those tags (it used to fall back silently to the lawful view)."""
    state = fresh()
    assert state.agreement_bounds(["consistent"])[0] == state.agreement_bounds()[0]
    assert state.agreement_bounds("consistent")[0] == state.agreement_bounds()[0]
    assert state.agreement_bounds()[0] != state.bounds()
    lawful, agreement = state.layouts("lawful").count(), state.layouts(View("agreement", policy="consistent")).count()
    assert agreement < lawful and agreement == state.layouts("agreement").count()
    partial = View("weighted", weights={"unspecified": Fraction(1, 3)})  # the other tags keep their defaults
    assert state.layouts(partial).count() == state.layouts("weighted").count()


CONSTRUCTOR_CASES: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    ("PlayState won='ab'", lambda: PlayState(HAND, declarer="S", won="ab"), InvalidArgumentError, "won"),  # type: ignore[arg-type]
    ("PlayState declarer=2", lambda: PlayState(HAND, declarer=2), InvalidArgumentError, "got 2"),  # type: ignore[arg-type]
    ("PlayState hand=5", lambda: PlayState(5, declarer="S"), InvalidArgumentError, "got 5"),  # type: ignore[arg-type]
    ("PlayState contract=3", lambda: PlayState(HAND, declarer="S", contract=3), InvalidArgumentError, "got 3"),  # type: ignore[arg-type]
    ("ExactDealer(None)", lambda: ExactDealer(None), SpecError, "got None"),  # type: ignore[arg-type]
    ("ExactDealer limit='x'", lambda: ExactDealer(DealSpec(), limit="x"), SpecError, "'x'"),  # type: ignore[arg-type]
    ("ExactDealer sample 10**12", lambda: ExactDealer(DealSpec()).sample_masks(10 ** 12, 1), SpecError, "1,000,000"),
    ("ExactDealer seed -1", lambda: ExactDealer(DealSpec()).sample_masks(1, -1), InvalidSeedError, "-1"),
    ("DealSpec(seats=[1])", lambda: DealSpec(seats=[1]), SpecError, "mapping"),  # type: ignore[arg-type]
    ("SeatSpec(predeal=5)", lambda: SeatSpec(predeal=5), SpecError, "got 5"),
    ("holding weight 0.5", lambda: ExactDealer(DealSpec(seats={Seat.N: SeatSpec(holdings={"S": lambda h: 0.5})})),
     SpecError, "0.5"),
    ("holding filter raises", lambda: ExactDealer(DealSpec(seats={Seat.N: SeatSpec(holdings={"S": lambda h: 1 // 0})})),
     SpecError, "ZeroDivisionError"),
    ("500 parentheses", lambda: DealSpec.parse("(" * 500 + "hcp(north) > 3" + ")" * 500), SpecSyntaxError, "nested"),
    ("2**40", lambda: DealSpec.parse(f"hcp(north) >= {2 ** 40}"), SpecSyntaxError, "too large"),
    ("spec of 2 MB", lambda: DealSpec.parse("hcp(north) > 3 && " * 120_000 + "1"), SpecSyntaxError, "1,000,000"),
]


@pytest.mark.parametrize("name,call,error,fragment", CONSTRUCTOR_CASES, ids=[c[0] for c in CONSTRUCTOR_CASES])
def test_bad_constructions(name: str, call: Callable[[], Any], error: type[Exception], fragment: str) -> None:
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert isinstance(info.value, (InferenceError, DealerError)) and isinstance(info.value, ValueError)
    assert "\n" not in message and len(message) < 400 and fragment in message, message[:300]


def test_undo_error_is_both_kinds() -> None:
    """Documented: every error of the package is a ValueError; an undo past the start is an IndexError too."""
    state = PlayState(HAND, declarer="S")
    with pytest.raises(IndexError):
        state.pop()
    with pytest.raises(ValueError):
        state.pop()
