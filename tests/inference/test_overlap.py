"""What the calibration half holds of an evaluation record (:mod:`inference.io.overlap`), on a generated corpus."""

from __future__ import annotations

import json
import random
from pathlib import Path

from dealer import Deal

from inference.io.halves import CALIBRATION, Halves
from inference.io.overlap import FRESH, SAME_AUCTION, SAME_DEAL, Overlap, sighting
from inference.io.records import AuctionRecord, read_auctions


def _deal(draw: random.Random) -> Deal:
    cards = list(range(52))
    draw.shuffle(cards)
    return Deal.from_masks([sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)])


def _corpus(root: Path) -> None:
    """One folder, 24 records over 12 deals, each deal with one of two auctions (spelt two ways)."""
    draw = random.Random(3)
    deals = [_deal(draw) for _ in range(12)]
    auctions = ["1NT Pass 3NT Pass Pass Pass", "1NT P 3NT AP"], ["Pass 1S Pass 4S Pass Pass Pass"]
    root.mkdir()
    names = [("f/a.pbn", i) for i in range(1, 25)]
    (root / "records.jsonl").write_text("".join(json.dumps({"file": f, "index": i}) + "\n" for f, i in names))
    boards = []
    for i in range(1, 25):
        deal, pick = deals[draw.randrange(12)], draw.randrange(4)
        calls = auctions[0][pick] if pick < 2 else auctions[1][0]
        boards.append(f'[Board "{i}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal.to_pbn()}"]\n'
                      f'[Auction "N"]\n{calls}\n')
    (root / "f").mkdir()
    (root / "f" / "a.pbn").write_text("\n".join(boards))


def test_groups_are_what_the_calibration_half_holds(tmp_path) -> None:
    """Each record's group is computed by hand from the calibration half's records (calls compared as read)."""
    root = tmp_path / "corpus"
    _corpus(root)
    halves = Halves.of_corpus(root)
    records = [r for r in read_auctions(root / "f" / "a.pbn") if isinstance(r, AuctionRecord)]
    assert len(records) == 24
    calibration = [r for r in records if halves.half("f/a.pbn", r.index) == CALIBRATION]
    overlap = Overlap.of_corpus([root])
    assert overlap.deals == {r.deal.masks for r in calibration}
    assert len({r.calls for r in records}) == 2  # the reader spells the 1NT auction's two forms alike
    seen: dict[str, list[int]] = {group: [] for group in Overlap.group_names()}
    for r in records:
        same = [c for c in calibration if c.deal.masks == r.deal.masks]
        expected = SAME_AUCTION if any(c.calls == r.calls for c in same) else SAME_DEAL if same else FRESH
        assert overlap.group(*sighting(r)) == expected
        if halves.half("f/a.pbn", r.index) != CALIBRATION:
            seen[expected].append(r.index)
    assert all(seen.values()), seen  # the evaluation half exercises every group
    evaluation = [r for r in records if halves.half("f/a.pbn", r.index) != CALIBRATION]
    assert overlap.split([r.index for r in evaluation], [sighting(r) for r in evaluation]) == seen
    pair = next(r for r in calibration if "1NT" in r.calls)
    assert overlap.group(pair.deal.masks, ["1nt", "P", "3NT", "AP"]) == SAME_AUCTION  # calls compared as read
    assert overlap.group(pair.deal.masks, ["1NT", "Pass", "Pass", "Pass"]) == SAME_DEAL
