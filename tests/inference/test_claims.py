"""The claim language: relative seats, play-only functions, messages, and the "one fewer" fallback."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import CardSet, Seat
from dealer.lang.grid import COMPARE
from inference.claims.language import And, Compare, Length, claim_text, iter_atoms, one_fewer, parse_claim
from inference.errors import InvalidArgumentError
from inference.claims.features import Feature, features_of
from tests.inference.test_inferences import holds
from tests.strategies import deals, examples


@pytest.mark.parametrize("text,expected", [
    ("hearts(LHO) >= 5", "hearts(LHO) >= 4"),
    ("hearts(LHO) > 4", "hearts(LHO) > 3"),          # was "> 2": two fewer
    ("spades(LHO) < 3", "spades(LHO) < 4"),          # was "< 5": two more
    ("spades(LHO) <= 2", "spades(LHO) <= 3"),
    ("5 <= hearts(LHO)", "4 <= hearts(LHO)"),        # number first: was left unchanged
    ("3 > spades(RHO)", "4 > spades(RHO)"),
    ("hearts(RHO) == 6", "hearts(RHO) >= 5 && hearts(RHO) <= 7"),
    ("hearts(partner) >= 0", "hearts(partner) >= 0"),
    ("hcp(LHO) >= 12", "hcp(LHO) >= 12"),            # only lengths get the extra card
    ("hearts(LHO) >= 5 && hcp(LHO) >= 11", "hearts(LHO) >= 4 && hcp(LHO) >= 11"),
    ("!(spades(W) >= 4)", "!(spades(W) >= 5)"),      # under a not: the inner claim narrows, the whole widens
    ("hearts(LHO) > spades(LHO)", "hearts(LHO) > spades(LHO)"),
])
def test_one_fewer(text: str, expected: str) -> None:
    assert one_fewer(text) == expected


def test_one_fewer_keeps_seats_as_written() -> None:
    text = "hearts(dummy) >= 5 && spades(partner) <= 1 && clubs(W) == 3 && diamonds(me) > 2"
    assert one_fewer(text) == ("hearts(dummy) >= 4 && spades(partner) <= 2 && clubs(W) >= 2 && clubs(W) <= 4 "
                               "&& diamonds(me) > 1")
    with pytest.raises(InvalidArgumentError, match="a fifth"):
        one_fewer("hearts(dummy) >= 5 && hearts(partner) >= 1 && hearts(W) >= 1 && hearts(me) >= 1 && hearts(N) > 1")


_LENGTH_ATOMS = st.builds(
    lambda suit, seat, op, n, flip: f"{n} {op} {suit}({seat})" if flip else f"{suit}({seat}) {op} {n}",
    st.sampled_from(["spades", "hearts", "diamonds", "clubs"]), st.sampled_from(["LHO", "RHO"]),
    st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), st.integers(0, 8), st.booleans())


@st.composite
def length_claims(draw: st.DrawFn, depth: int = 2) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(_LENGTH_ATOMS)
    joiner = draw(st.sampled_from(["&&", "||"]))
    text = f"({draw(length_claims(depth - 1))}) {joiner} ({draw(length_claims(depth - 1))})"
    return f"!({text})" if draw(st.booleans()) else text


def _holds(text: str, hands: dict[Seat, CardSet]) -> bool:
    return holds(parse_claim(text, viewer="S"), hands)


@settings(max_examples=examples(80), deadline=None)
@given(length_claims(), deals())
def test_one_fewer_is_wider_and_one_card_wider_only(text: str, deal: object) -> None:
    """Wherever a claim holds, its fallback holds; and each length atom moved by exactly one card."""
    hands = {s: deal[s] for s in Seat}  # type: ignore[index]
    fallback = one_fewer(text)
    assert not _holds(text, hands) or _holds(fallback, hands), (text, fallback)
    for atom in iter_atoms(parse_claim(fallback, viewer="S")):
        assert isinstance(atom, Compare)


def test_the_one_fewer_of_one_comparison_admits_one_more_length_each_way_it_can() -> None:
    for op in ("==", "<", "<=", ">", ">="):
        for n in range(0, 9):
            text = f"hearts(LHO) {op} {n}"
            before = {v for v in range(14) if COMPARE[op](v, n)}
            after = {v for v in range(14) if _holds(one_fewer(text), {Seat.W: _hand_with_hearts(v)})}
            if not before:
                continue
            wanted = set(before)
            if op in (">", ">=", "=="):
                wanted.add(max(min(before) - 1, 0))
            if op in ("<", "<=", "=="):
                wanted.add(min(max(before) + 1, 13))
            assert after == wanted, (text, one_fewer(text))


def _hand_with_hearts(n: int) -> CardSet:
    hearts = ["HA", "HK", "HQ", "HJ", "HT", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2"][:n]
    others = ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2"][:13 - n]
    return CardSet.parse(" ".join(hearts + others))


def test_relative_seats_and_play_functions() -> None:
    claim = parse_claim("longest(LHO, 2) >= 9 && honours(RHO, spades) >= 2 && rank(partner, HQ) == 1", viewer="E",
                        declarer="N")
    assert claim_text(claim) == "longest(S, 2) >= 9 && honours(N, spades) >= 2 && rank(W, HQ) == 1"
    assert parse_claim("hcp(dummy) > 3", viewer="E", declarer="N").seats() == {Seat.S}
    assert isinstance(parse_claim("hearts(LHO) > 3 and hearts(LHO) < 6"), And)


def test_features_of_a_claim() -> None:
    claim = parse_claim("shape(LHO, any 5332) && hcp(RHO, hearts) >= 3 && rank(RHO, S5) == 2", viewer="S")
    assert features_of(claim) == {*(Feature.length(Seat.W, s) for s in range(4)), Feature.suit_hcp(Seat.E, 1),
                                  Feature.card(Seat.E, parse_claim("hascard(E, S5)").card),  # type: ignore[attr-defined]
                                  Feature.above(Seat.E, parse_claim("hascard(E, S5)").card)}  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad,fragment", [
    ("hearts(LHO) >= ", "column 16"),
    ("(" * 150 + "hcp(LHO) > 3" + ")" * 150, "nested more than 100"),
    ("hcp(LHO) >= 99999999999999999999", "too large"),
    ("hcp(LHO) + 3", "expected a condition"),
    ("x" * 5000, "characters"),                     # a long text is shortened in the message
])
def test_bad_claims_are_one_clear_error(bad: str, fragment: str) -> None:
    with pytest.raises(InvalidArgumentError, match=fragment) as info:
        parse_claim(bad, viewer="S")
    assert len(str(info.value)) < 400 and "\n" not in str(info.value)


def test_a_claim_is_never_a_number_length() -> None:
    assert isinstance(parse_claim("hearts(LHO) >= 5", viewer="S"), Compare)
    assert isinstance(parse_claim("hearts(LHO) >= 5", viewer="S").left, Length)  # type: ignore[attr-defined]
