"""A test per rule family of the shipped books: a matching auction gives the expected claims about the
caller, and each claim is true of a hand meeting the meaning and false of a counterexample."""

from __future__ import annotations

import pytest

from dealer import CardSet, Seat
from inference.auction import auction_inferences, available_books, load_book, read_auction
from inference.claims.language import parse_claim
from tests.inference.test_inferences import holds

# (family, calls with North dealing, index of the call, expected claims, a hand meeting the meaning,
#  a counterexample). Hands are PBN: spades.hearts.diamonds.clubs.
CASES = [
    ("unopened pass, first seat", ["Pass"], 0, ["hcp(N) <= 11"],
     "KJ32.Q32.K32.J32", "AK32.Q32.K32.J32"),
    ("unopened pass, third seat", ["Pass", "Pass", "Pass"], 2, ["hcp(S) <= 12"],
     "KJ32.Q32.K32.J32", "AK32.KQ2.K32.J32"),
    ("1NT opening", ["1NT"], 0,
     ["hcp(N) >= 15 && hcp(N) <= 17", "shape(N, any 4333 + any 4432 + any 5332)"],
     "AK32.KQ2.K32.J32", "AK432.KQ432.K2.2"),
    ("2NT opening", ["Pass", "2NT"], 1,
     ["hcp(E) >= 20 && hcp(E) <= 21", "shape(E, any 4333 + any 4432 + any 5332)"],
     "AK32.AK2.KQ2.Q32", "AK32.Q32.K32.J32"),
    ("strong 2C", ["2C"], 0, ["hcp(N) >= 18"], "AKQ2.AK2.KQ2.Q32", "KQJT987.AK2.2.32"),
    ("weak two", ["2H"], 0, ["length(N, hearts) == 6", "hcp(N) >= 5 && hcp(N) <= 11"],
     "32.KQJ932.32.432", "AK.AKQJ32.K32.32"),
    ("preempt", ["Pass", "Pass", "3D"], 2, ["length(S, diamonds) >= 7", "hcp(S) <= 10"],
     "2.32.KQJ9832.432", "AK.32.AKQ9832.32"),
    ("one-suit opening, major", ["1S"], 0,
     ["length(N, spades) >= 5", "hcp(N) >= 10 && hcp(N) <= 21"], "AKJ32.K32.Q32.32", "AKJ2.K32.Q32.432"),
    ("one-suit opening, minor", ["1D"], 0,
     ["length(N, diamonds) >= 3", "hcp(N) >= 10 && hcp(N) <= 21"], "AK32.K32.Q32.432", "AK32.K432.Q2.432"),
    ("pass over an opening", ["1H", "Pass"], 1, ["hcp(E) <= 16"], "AK32.32.K32.Q432", "AK32.2.AK32.KQ32"),
    ("pass over 1NT", ["1NT", "Pass"], 1, ["hcp(E) <= 15"], "AK32.32.K32.Q432", "AK32.2.AK32.KQ32"),
    ("one-level overcall", ["1D", "1S"], 1, ["length(E, spades) >= 5", "hcp(E) >= 8 && hcp(E) <= 17"],
     "AQJ32.32.32.K432", "AQJ2.32.432.K432"),
    ("two-level overcall", ["1S", "2C"], 1, ["length(E, clubs) >= 5", "hcp(E) >= 10 && hcp(E) <= 17"],
     "32.A32.K2.AQJ432", "32.32.K32.QJ5432"),
    ("jump overcall", ["1C", "2S"], 1, ["length(E, spades) >= 6", "hcp(E) <= 11"],
     "KQJ932.32.432.32", "AKQJ93.A2.K32.32"),
    ("1NT overcall", ["1H", "1NT"], 1, ["hcp(E) >= 15 && hcp(E) <= 18"],
     "AK32.KQ2.K32.J32", "K432.Q32.K32.J32"),
    ("takeout double", ["1H", "X"], 1, ["hcp(E) >= 11", "length(E, hearts) <= 3"],
     "AK32.2.KJ32.Q432", "AK32.Q432.KJ3.32"),
    ("Michaels over a minor", ["1C", "2C"], 1, ["length(E, spades) >= 5 && length(E, hearts) >= 5"],
     "KQ932.AJ932.2.32", "KQ932.AJ9.32.432"),
    ("Michaels over a major", ["1H", "2H"], 1,
     ["length(E, spades) >= 5 && (length(E, clubs) >= 5 || length(E, diamonds) >= 5)"],
     "KQ932.2.AJ932.32", "KQ932.2.AJ9.5432"),
    ("unusual 2NT over a major", ["1S", "2NT"], 1, ["length(E, clubs) >= 5 && length(E, diamonds) >= 5"],
     "2.32.KQ932.AJ932", "2.5432.KQ9.AJ932"),
    ("unusual 2NT over a minor", ["1D", "2NT"], 1, ["length(E, hearts) >= 5 && length(E, clubs) >= 5"],
     "2.KQ932.32.AJ932", "2.KQ932.AJ932.32"),
    ("simple raise", ["1H", "Pass", "2H"], 2, ["length(S, hearts) >= 3", "hcp(S) >= 6 && hcp(S) <= 10"],
     "32.K32.Q432.J432", "32.K2.Q5432.J432"),
    ("new suit at one level", ["1D", "Pass", "1S"], 2, ["length(S, spades) >= 4", "hcp(S) >= 6"],
     "KJ32.32.Q432.432", "KJ3.32.Q5432.432"),
    ("1NT response", ["1D", "Pass", "1NT"], 2, ["hcp(S) >= 6 && hcp(S) <= 10"],
     "K32.Q32.J432.Q32", "AK2.KQ2.J432.Q32"),
    ("pass of partner's opening", ["1D", "Pass", "Pass"], 2, ["hcp(S) <= 5"],
     "Q432.J32.5432.32", "K432.K32.5432.32"),
    ("Stayman", ["1NT", "Pass", "2C"], 2, ["length(S, spades) >= 4 || length(S, hearts) >= 4"],
     "KJ32.Q32.K32.432", "KJ3.Q32.K432.432"),
    ("transfer to hearts", ["1NT", "Pass", "2D"], 2, ["length(S, hearts) >= 5"],
     "32.QJ432.K32.432", "432.QJ43.K32.432"),
    ("transfer to spades", ["1NT", "Pass", "2H"], 2, ["length(S, spades) >= 5"],
     "QJ432.32.K32.432", "QJ43.432.K32.432"),
    ("opener's 1NT rebid", ["1D", "Pass", "1S", "Pass", "1NT"], 4, ["hcp(N) >= 12 && hcp(N) <= 14"],
     "K32.KQ2.QJ32.K32", "AK2.KQ2.AJ32.K32"),
    ("opener's own-suit rebid", ["1H", "Pass", "1S", "Pass", "2H"], 4,
     ["length(N, hearts) >= 6", "hcp(N) <= 15"], "2.AQJ932.K32.432", "2.AKJ9.AK32.432"),
    ("balancing pass", ["1H", "Pass", "Pass", "Pass"], 3, ["hcp(W) <= 15"],
     "K32.32.QJ32.K432", "AK2.32.AKJ2.K432"),
    ("Blackwood reply", ["1S", "Pass", "3S", "Pass", "4NT", "Pass", "5D"], 6, ["aces(S) == 1"],
     "KQ32.A32.K32.Q32", "AQ32.A32.K32.Q32"),
    ("Gerber reply", ["1NT", "Pass", "4C", "Pass", "4S"], 4, ["aces(N) == 2"],
     "AK32.A32.K32.Q32", "KQ32.A32.K32.Q32"),
]


def _holds(text: str, hand: str, seat: Seat) -> bool:
    hands = {s: CardSet() for s in Seat}
    hands[seat] = CardSet.from_pbn(hand)
    return holds(parse_claim(text), hands)


@pytest.mark.parametrize("family,calls,index,claims,good,bad", CASES, ids=[c[0] for c in CASES])
def test_family(family: str, calls: list[str], index: int, claims: list[str], good: str, bad: str) -> None:
    seat = Seat(index % 4)
    made = [i for i in auction_inferences("N", calls, "sayc", "None") if i.name.endswith(
        f"(call {index + 1})") or f"(call {index + 1}) [" in i.name]
    assert [i.claim for i in made] == claims
    assert all(i.by == seat and i.kind == "call" for i in made)
    for inf in made:
        assert _holds(inf.claim, good, seat), (inf.claim, good)
        for fallback in inf.fallbacks:  # one step wider: true wherever the claim is
            assert _holds(fallback, good, seat)
    assert not all(_holds(inf.claim, bad, seat) for inf in made), (claims, bad)


def test_every_family_of_the_issue_is_covered() -> None:
    families = {r.family for r in load_book("sayc").rule}
    assert {"unopened pass", "one-suit opening", "1NT opening", "2NT opening", "strong 2C", "weak two", "preempt",
            "pass over an opening", "one-level overcall", "two-level overcall", "jump overcall", "1NT overcall",
            "takeout double", "Michaels", "unusual 2NT", "simple response", "Stayman", "transfers", "Blackwood reply",
            "Gerber reply"} <= families


def test_fallbacks_are_wider() -> None:
    """On every hand of a fixed list, a claim that holds implies its fallbacks hold (one step wider)."""
    hands = [c[4] for c in CASES] + [c[5] for c in CASES]
    for name in available_books():
        for rule in load_book(name).rule:
            for claim in rule.claim:
                values = {"x": "spades", "y": "hearts", "M": "hearts", "m": "diamonds", "other_M": "spades",
                          "other_m": "clubs", "trump": "hearts", "trump_letter": "H", **load_book(name).params}
                from inference.auction.book import render
                text = render(claim.text, Seat.N, values)
                for fb in claim.fallbacks:
                    wider = render(fb, Seat.N, values)
                    for hand in hands:
                        if _holds(text, hand, Seat.N):
                            assert _holds(wider, hand, Seat.N), (name, rule.id, wider, hand)


def test_passes_carry_their_negative_inference() -> None:
    infs = auction_inferences("E", ["Pass", "Pass", "1S", "Pass", "Pass", "Pass"], "sayc", "None")
    assert [(i.by.name, i.claim) for i in infs[:2]] == [("E", "hcp(E) <= 11"), ("S", "hcp(S) <= 11")]
    assert infs[0].name == "E passed in first or second seat: at most 11 HCP (call 1)"
    assert ("N", "hcp(N) <= 16") in [(i.by.name, i.claim) for i in infs]  # the pass over 1S


def test_uncovered_call_gives_no_claim_and_is_counted() -> None:
    reading = read_auction("N", ["1NT", "Pass", "4C", "Pass"], "sayc", "None")
    assert reading.calls[2].source == "uncovered" and reading.calls[2].inferences == ()
    assert reading.count("uncovered") == 1  # 4C: Gerber is not in the book
    assert reading.count("book") == 3 and reading.calls[3].rule_id == "pass-other-quiet"  # the general rule


def test_artificial_call_claims_only_what_it_shows() -> None:
    reading = read_auction("N", ["2C", "Pass", "2D"], "sayc", "None")
    assert reading.calls[2].source == "book" and reading.calls[2].rule is not None
    assert reading.calls[2].rule.artificial and reading.calls[2].inferences == ()


def test_vulnerability_and_jump_select_rules() -> None:
    # 1S-(2H) is a simple two-level overcall, 1H-(2S) a jump
    simple = read_auction("N", ["1S", "2H"], "sayc").calls[1]
    jump = read_auction("N", ["1H", "2S"], "sayc").calls[1]
    assert simple.rule_id == "overcall-2" and jump.rule_id == "overcall-jump"


@pytest.mark.parametrize("calls,asked", [
    (["1S", "Pass", "3S", "Pass", "4NT", "Pass"], "blackwood"),
    (["1NT", "Pass", "4NT", "Pass"], "none"),           # quantitative: the side's last bid was notrump
    (["1S", "Pass", "3S", "Pass", "4NT", "5C"], "none"),  # the opponents did not pass it
    (["1NT", "Pass", "4C", "Pass"], "gerber"),
    (["1S", "Pass", "2NT", "Pass", "4C", "Pass"], "none"),  # 4C over a notrump response, not an opening
])
def test_what_partner_asked(calls: list[str], asked: str) -> None:
    from inference.auction.context import contexts
    assert contexts(Seat.N, [*calls, "5D"])[-1].asked == asked


def test_key_card_replies_count_the_trump_king_and_queen() -> None:
    """natural-wide and robots read the replies to 4NT as Roman Key Card Blackwood, the side's last suit trumps:
    5C/5D say not two (or five), 5H/5S two (or five), without and with the queen."""
    calls = ["1H", "Pass", "1S", "Pass", "3H", "Pass", "4NT", "Pass"]
    for book in ("natural-wide", "robots"):
        five_s = [i.claim for i in auction_inferences("N", [*calls, "5S"], book, "None")][-2:]
        assert five_s == ["keycards(N, hearts) == 2 || keycards(N, hearts) == 5", "hascard(N, HQ)"]
        five_c = [i.claim for i in auction_inferences("N", [*calls, "5C"], book, "None")][-1]
        assert _holds(five_c, "A32.Q32.K32.K432", Seat.N) and not _holds(five_c, "A32.K32.K32.K432", Seat.N)
        assert _holds(five_s[0], "A32.AQ2.K32.K432", Seat.N) and not _holds(five_s[0], "K32.KQ2.K32.K432", Seat.N)
        assert _holds(five_s[1], "A32.AQ2.K32.K432", Seat.N) and not _holds(five_s[1], "A32.AK2.K32.K432", Seat.N)


def test_natural_wide_is_wider_and_leaves_stayman_uncovered() -> None:
    wide = auction_inferences("N", ["1NT", "Pass", "2C"], "natural-wide", "None")
    assert [i.claim for i in wide] == ["hcp(N) >= 12 && hcp(N) <= 18", "hcp(E) <= 11"]  # 2C (Stayman) uncovered
    assert read_auction("N", ["1NT", "Pass", "2C"], "natural-wide", "None").calls[2].source == "uncovered"


@pytest.mark.parametrize("name", ["sayc", "natural-wide"])
def test_shipped_calibration_backs_the_consistent_tags(name: str) -> None:
    """Every agreement-consistent claim of a shipped book measured at least 99% on the corpus (the
    figures shipped beside the book), and the figures are of this book's rules (not stale)."""
    from inference.auction.measures import load_measures

    measures = load_measures(name)
    book = load_book(name)
    assert measures, "no calibration shipped"
    for rule in book.rule:
        for claim in rule.claim:
            levels = measures.get((rule.id, claim.label))
            if claim.tag.value == "agreement-consistent":
                assert levels is not None and levels[0].n >= 100, (rule.id, claim.label)
                assert levels[0].accuracy >= 0.99, (rule.id, claim.label, levels[0].accuracy)
    known = {(r.id, c.label) for r in book.rule for c in r.claim} | {("explanation", "")}
    assert set(measures) <= known
