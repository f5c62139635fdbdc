"""``kibitz replay`` on scenarios and on PBN/LIN files."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

from dealer import Seat
from inference.cli import main
from inference.contract import Strain
from inference.records import read_pbn
from tests.inference.helpers import random_play
from tests.inference.test_records import DEAL, pbn_rows, pbn_text

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def write_pbn(tmp_path: Path, n: int = 52) -> tuple[Path, list]:
    cards = random_play(DEAL, Seat.S, Strain.H, random.Random(21), n)
    path = tmp_path / "one.pbn"
    path.write_text(pbn_text(DEAL, Seat.S, "4H", pbn_rows(DEAL, Seat.S, Strain.H, cards, Seat.W)))
    return path, cards


def test_replay_json_one_object_per_card(tmp_path: Path) -> None:
    path, cards = write_pbn(tmp_path)
    status, out, _ = run("replay", str(path), "--board", "7", "--json")
    assert status == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["card"] for o in objs] == [str(c) for c in cards]
    assert [o["trick"] for o in objs] == [i // 4 + 1 for i in range(52)]
    assert objs[0]["seat"] == "W"
    for o in objs:
        assert set(o["bounds"]) == {"W", "E"}  # declarer's view, dummy visible from the opening lead
        for seat, table in o["bounds"].items():
            assert set(table) == {"S", "H", "D", "C", "HCP"}
            hand = DEAL[Seat.parse(seat)]
            for q, (lo, hi) in table.items():
                value = hand.hcp if q == "HCP" else hand.length(q)
                assert lo <= value <= hi
    last = objs[-1]["bounds"]
    assert all(lo == hi for t in last.values() for lo, hi in t.values())


def test_replay_from_a_defender_and_text(tmp_path: Path) -> None:
    path, _ = write_pbn(tmp_path, 20)
    status, out, _ = run("replay", str(path), "--seat", "E", "--json")
    assert status == 0
    assert all(set(json.loads(x)["bounds"]) == {"W", "S"} for x in out.splitlines())
    status, out, _ = run("replay", str(path))
    assert status == 0 and "trick 1, card 1: LHO (W) plays" in out and "bounds at the end" in out
    assert "play ends after 20 cards" in out


def test_replay_scenario(tmp_path: Path) -> None:
    status, out, _ = run("replay", str(ROOT / "scenarios/seed/08-10-declaring-side-and-trick-one.toml"))
    assert status == 0 and "RHO showed out of spades: LHO was dealt the other 10" in out
    assert "expectations: " in out and "FAILED" not in out
    wrong = tmp_path / "w.toml"
    wrong.write_text((ROOT / "scenarios/seed/08-10-declaring-side-and-trick-one.toml").read_text()
                     .replace('bounds.E = { S = "0..0"', 'bounds.E = { S = "1..1"'))
    status, out, _ = run("replay", str(wrong))
    assert status == 1 and "FAILED after 1.3" in out


def test_replay_errors(tmp_path: Path) -> None:
    path, cards = write_pbn(tmp_path, 8)
    bad = tmp_path / "bad.pbn"
    bad.write_text(path.read_text().replace(str(cards[1]), str(cards[0]), 1))
    status, out, err = run("replay", str(bad))
    assert status == 2 and out == "" and "bad.pbn, board 7" in err and "trick 1" in err
    status, _, err = run("replay", str(path), "--board", "99")
    assert status == 2 and "no replayable play for board 99" in err
    status, _, err = run("replay", str(tmp_path / "missing.pbn"))
    assert status == 2 and "cannot read" in err
    assert next(read_pbn(path.read_text())) is not None
