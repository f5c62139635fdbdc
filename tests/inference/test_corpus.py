"""Real played deals: our reading agrees with the corpus's independent checker, and replays are sound.

Reads ``../shared/corpus`` (or ``$KIBITZ_CORPUS``); skipped when it is absent.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
from collections import defaultdict
from pathlib import Path

import pytest

from dealer import CardSet, Seat
from inference.errors import RecordError
from inference.io.records import PlayRecord, Skipped, read_records
from inference.apps.replay import replay_record

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("KIBITZ_CORPUS", ROOT.parent / "shared" / "corpus"))
pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not (CORPUS / "records.jsonl").is_file(), reason=f"no corpus at {CORPUS}")]


def verdicts() -> dict[str, dict[int, dict[str, str]]]:
    out: dict[str, dict[int, dict[str, str]]] = defaultdict(dict)
    for line in (CORPUS / "records.jsonl").read_text().splitlines():
        o = json.loads(line)
        out[o["file"]][o["index"]] = o
    return out


def sample_files() -> list[str]:
    by_source: dict[str, list[str]] = defaultdict(list)
    if not (CORPUS / "records.jsonl").is_file():
        return []
    for f in sorted(verdicts()):
        by_source[f.split("/")[0]].append(f)
    rnd = random.Random(2026)
    picked = []
    for source, files in sorted(by_source.items()):
        picked += rnd.sample(files, min(3, len(files)))
    return picked


FILES = sample_files()


@functools.lru_cache(maxsize=None)
def records_of(name: str) -> tuple[object, ...]:
    return tuple(read_records(CORPUS / name))


def _index(item: object) -> int:
    if isinstance(item, RecordError):
        import re

        m = re.search(r"\(record (\d+)", str(item))
        assert m, str(item)
        return int(m.group(1))
    return item.index  # type: ignore[attr-defined, no-any-return]


@pytest.mark.parametrize("name", FILES)
def test_reading_agrees_with_the_independent_checker(name: str) -> None:
    table = verdicts()[name]
    items = list(records_of(name))
    assert len(items) == len(table)
    for item in items:
        v = table[_index(item)]
        status, rotated = v["status"], v.get("status_if_rotated_rows", "")
        if isinstance(item, PlayRecord):
            assert status.startswith("ok") or (item.quirk == "rotated-rows" and rotated.startswith("ok")), v
            assert (len(item.play) == 52) == (status == "ok-full" or rotated == "ok-full")
        elif isinstance(item, Skipped):
            assert status in ("no-play", "passed-out"), v
        else:
            assert status == "illegal" and not rotated.startswith("ok"), (v, str(item))
            assert f"board {v['label'].replace('Board ', '')}" in str(item) or "board" in str(item)
            assert "trick" in str(item) or "md" in str(item) or "Deal" in str(item)


@pytest.mark.parametrize("name", FILES)
def test_replays_are_sound(name: str) -> None:
    """From declarer's and a defender's view, the true deal lies inside every bound after every card."""
    records = list(itertools.islice((r for r in read_records(CORPUS / name) if isinstance(r, PlayRecord)), 2))
    for rec in records:
        for viewer in (rec.declarer, rec.declarer.lho):
            for state, step in replay_record(rec, viewer):
                for seat, sb in step.bounds.seats:
                    hand = rec.deal[seat]
                    for s in range(4):
                        assert sb.length[s][0] <= hand.length(s) <= sb.length[s][1], (rec.label, step)
                    assert sb.hcp[0] <= hand.hcp <= sb.hcp[1]
                for card in CardSet(state.snapshot.unseen):
                    assert rec.deal.holder(card) in step.bounds.possible_holders(card)
                assert state.to_play == Seat((state.snapshot.current.leader + len(state.snapshot.current.cards)) % 4)


def test_flagged_files_are_rejected_precisely() -> None:
    flagged = [f for f in verdicts() if f.startswith("bbo-vugraph-flagged/")]
    errors = [r for f in flagged for r in read_records(CORPUS / f) if isinstance(r, RecordError)]
    assert len(errors) == 151
    assert any("revokes" in str(e) for e in errors)
    assert any("belongs to" in str(e) for e in errors)
