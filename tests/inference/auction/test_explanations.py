"""Explanations: records carry them per call; readable ones become claims overriding the book, with a
wider fallback; unreadable ones give no claim and are counted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dealer import CardSet, Seat
from inference.auction import read_auction
from inference.auction.explanations import read_explanation
from inference.claims.language import parse_claim
from inference.io.records import AuctionRecord, PlayRecord, read_auctions, read_lin, read_pbn
from tests.inference.test_inferences import holds

CORPUS = Path(os.environ.get("KIBITZ_CORPUS", Path(__file__).resolve().parents[3].parent / "shared" / "corpus"))


@pytest.mark.parametrize("text,call,claim", [
    ("5+ !H; 11-21 HCP", "1H", "length(caller, hearts) >= 5 && hcp(caller) >= 11 && hcp(caller) <= 21"),
    ("15-17", "1N", "hcp(caller) >= 15 && hcp(caller) <= 17"),
    ("2+", "1C", "length(caller, clubs) >= 2"),
    ("16+", "1C", "hcp(caller) >= 16"),
    ("4+!s", "2C", "length(caller, spades) >= 4"),
    ("2+ clubs", "1C", "length(caller, clubs) >= 2"),
    ("3- !S", "X", "length(caller, spades) <= 3"),
    ("6+ !S; 11+ HCP; 12-16 total points", "2S", "length(caller, spades) >= 6 && hcp(caller) >= 11"),
    ("rebiddable !D; 13-18 total points", "2D", "hcp(caller) <= 18"),  # HCP are at most the total points
    ("21- HCP", "4S", "hcp(caller) <= 21"),
    ("10-12 bal", "1N", "hcp(caller) >= 10 && hcp(caller) <= 12 && shape(caller, any 4333 + any 4432 + any 5332)"),
])
def test_readable(text: str, call: str, claim: str) -> None:
    read = read_explanation(text, call)
    assert read is not None and read[0] == claim


@pytest.mark.parametrize("text", ["forcing", "Stayman", "majors", "", "11-13,17-19 or clubs", "9-11, no 4cM",
                                  "p/c", "5-5"])
def test_unreadable(text: str) -> None:
    assert read_explanation(text, "1C") is None


def test_fallback_is_one_step_wider() -> None:
    claim, fallback = read_explanation("5+ !H; 11-21 HCP", "1H") or ("", "")
    assert fallback == "length(caller, hearts) >= 4 && hcp(caller) >= 10 && hcp(caller) <= 22"
    hand = {s: CardSet() for s in Seat}
    hand[Seat.N] = CardSet.from_pbn("A32.KQ32.K32.432")  # four hearts, 12 HCP: the fallback only
    assert not holds(parse_claim(claim.replace("caller", "N")), hand)
    assert holds(parse_claim(fallback.replace("caller", "N")), hand)


def test_explanation_overrides_the_book_and_unreadable_is_counted() -> None:
    reading = read_auction("N", ["1NT", "Pass", "2C"], "sayc", "None", ["12-14", None, "puppet"])
    assert reading.calls[0].source == "explanation"
    assert [i.claim for i in reading.calls[0].inferences] == ["hcp(N) >= 12 && hcp(N) <= 14"]
    assert reading.calls[0].inferences[0].fallbacks == ("hcp(N) >= 11 && hcp(N) <= 15",)
    assert reading.calls[2].source == "book" and reading.calls[2].unreadable  # "puppet": the book reads 2C
    assert reading.unreadable == 1


_LIN = ("pn|a,b,c,d|st||md|1S23456789TJQKA,H23456789TJQKA,D23456789TJQKA,|sv|o|"
        "mb|1C!|an|2+ !C; 11-21 HCP|mb|p|mb|1N|an|forcing|mb|p|mb|p|mb|p|pc|cA|")


def test_lin_records_carry_explanations(tmp_path: Path) -> None:
    path = tmp_path / "x.lin"
    path.write_text(_LIN)
    (rec,) = list(read_auctions(path))
    assert isinstance(rec, AuctionRecord)
    assert rec.calls == ("1C", "Pass", "1NT", "Pass", "Pass", "Pass")
    assert rec.explanations == ("2+ !C; 11-21 HCP", None, "forcing", None, None, None)
    (played,) = list(read_lin(_LIN))  # the record with its play carries them too
    assert isinstance(played, PlayRecord) and played.explanations == rec.explanations


_PBN = """[Event "x"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[Auction "N"]
1S =1= Pass 2S =2= AP
[Note "1:5+ spades"]
[Note "2:3+ !S, 6-10"]
"""


def test_pbn_notes_are_explanations() -> None:
    (rec,) = list(read_pbn(_PBN))
    assert not isinstance(rec, PlayRecord)  # no play recorded
    (auction,) = [r for r in read_auctions_text(_PBN)]
    assert auction.explanations == ("5+ spades", None, "3+ !S, 6-10", None, None, None)


def read_auctions_text(text: str) -> list[AuctionRecord]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.pbn"
        path.write_text(text)
        return [r for r in read_auctions(path) if isinstance(r, AuctionRecord)]


@pytest.mark.corpus
def test_corpus_explanations_are_aligned_with_calls() -> None:
    folder = CORPUS / "bbo-robot-daylongs-ben"
    if not folder.exists():
        pytest.skip("corpus absent")
    explained = 0
    for path in sorted(folder.rglob("*.pbn"))[:5]:
        for rec in read_auctions(path):
            assert isinstance(rec, AuctionRecord)
            assert not rec.explanations or len(rec.explanations) == len(rec.calls)
            explained += sum(1 for e in rec.explanations if e)
    assert explained > 0
