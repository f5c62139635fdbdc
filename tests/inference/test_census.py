"""The census of calls (:mod:`inference.auction.census`): exact random-hand laws, contexts, and the bits a
context's model gives, checked against direct computation."""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb
from pathlib import Path

from dealer import Seat
from inference.auction.census import SHRINK, Facts, _Model, census_file, context_key, hcp_law, length_law, take_census
from inference.auction.context import contexts
from inference.auction.book import load_book
from inference.io.halves import CALIBRATION, corpus_files
from inference.io.records import AuctionRecord, read_auctions

AUCTIONS = (["1S", "2H", "Pass", "Pass", "2S", "Pass", "Pass", "Pass"],
            ["Pass", "1NT", "Pass", "3NT", "Pass", "Pass", "Pass"],
            ["1D", "Pass", "1H", "1S", "2H", "Pass", "Pass", "Pass"])


def auction_corpus(root: Path, records: int = 12) -> Path:
    """Two folders of PBN files, one record each: deals by number, the auctions above in turn, with a listing."""
    import json

    from dealer.cards.numbering import number_to_deal

    lines = []
    for k in range(records):
        folder = ("humans", "bot-matches-ben")[k % 2]
        (root / folder).mkdir(parents=True, exist_ok=True)
        deal = number_to_deal(10 ** 27 + 7919 ** 6 * k)
        calls = AUCTIONS[k % len(AUCTIONS)]
        rows = [" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4)]
        text = (f'[Event "census"]\n[Board "{k + 1}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal.to_pbn()}"]\n'
                f'[Auction "N"]\n' + "\n".join(rows) + "\n")
        (root / folder / f"r{k}.pbn").write_text(text)
        lines.append(json.dumps({"file": f"{folder}/r{k}.pbn", "index": 1}))
    (root / "records.jsonl").write_text("\n".join(lines) + "\n")
    return root


def test_the_random_hands_laws_are_exact() -> None:
    hcp, length = hcp_law(), length_law()
    assert sum(hcp) == 1 == sum(length)
    assert sum(h * p for h, p in enumerate(hcp)) == 10  # 40 HCP among four hands
    assert sum(k * p for k, p in enumerate(length)) == Fraction(13, 4)
    assert hcp[0] == Fraction(comb(36, 13), comb(52, 13))  # no ace, king, queen or jack
    assert hcp[37] == Fraction(4, comb(52, 13))  # the aces, kings and queens, and one of four jacks


def test_contexts_tell_side_round_and_competition() -> None:
    calls = ["Pass", "1H", "Pass", "2H", "Pass", "Pass", "X", "Pass", "3H", "Pass", "Pass", "Pass"]
    keys = [context_key(c) for c in contexts(Seat.N, calls)]
    assert keys[:2] == ["unopened|r1|quiet|P", "unopened|r1|quiet|1H"]
    assert keys[2:4] == ["other|r1|quiet|P", "opener|r1|quiet|2H"]
    assert keys[6] == "other|r2|quiet|X"  # South's balancing double: his second call
    assert keys[8:10] == ["other|r3+|contested|3H", "opener|r3+|contested|P"]


def test_a_context_model_says_nothing_without_data_and_much_with_it() -> None:
    fact = Facts("k", "uncovered", True, 15, (5, 3, 3, 2))
    assert _Model([]).bits(fact) == (0.0, 0.0)  # no calibration calls: the random hand's law, 0 bits
    seen = [Facts("k", "book", False, 15, (5, 3, 3, 2))] * 48
    hcp, lengths = _Model(seen).bits(fact)
    p = (48 + SHRINK * hcp_law()[15]) / (48 + SHRINK)
    assert math.isclose(hcp, math.log2(p / hcp_law()[15])) and hcp > 0 and lengths > 0
    assert _Model(seen).bits(Facts("k", "book", False, 5, (5, 3, 3, 2)))[0] < 0  # 5 HCP: less likely than at random


def test_the_census_counts_every_evaluation_call(tmp_path: Path) -> None:
    root = auction_corpus(tmp_path / "corpus")
    census = take_census([root], "sayc")
    files = corpus_files([root])
    want = sum(len(r.calls) for f in files for r in read_auctions(f.path)
               if isinstance(r, AuctionRecord) and f.half(r.index) != CALIBRATION)
    assert census.calls == want > 0 and census.records == 12
    assert all(0 <= r.read <= r.calls for r in census.rows)
    assert math.isclose(census.bits(), census.bits(read=True) + census.bits(read=False))
    one = census_file((files[0], load_book("sayc")))
    assert {f.key.split("|")[0] for f in one.calibration + one.evaluation} <= {"unopened", "opener", "other"}
    assert take_census([root], "sayc", jobs=2) == census  # this machine's processes: the same census
