"""``kibitz replay`` on scenarios and on PBN/LIN files."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from dealer import Seat
from inference.commands.replay import ROW_KEYS
from inference.rules.contract import Strain
from inference.io.records import read_pbn
from tests.inference.commands.helpers import run
from tests.inference.helpers import random_play
from tests.inference.test_bulk import folder
from tests.inference.test_records import DEAL, pbn_rows, pbn_text

ROOT = Path(__file__).resolve().parents[3]


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
    assert status == 1 and "w.toml:37: after 1.3" in out


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


def card_blocks(text: str) -> list[tuple[int, int, str, str]]:
    """``(trick, card number, card, the lines under it until the next card)`` from the text output."""
    found = list(re.finditer(r"^trick (\d+), card (\d): .* plays? (\w+)(?:, .*)?$", text, re.M))
    ends = [m.start() for m in found[1:]] + [text.find("bounds at the end")]
    return [(int(m[1]), int(m[2]), m[3], text[m.end():end]) for m, end in zip(found, ends)]


def check_rows_against_text(rows: list[dict], text: str) -> None:
    """One row per card, in order, with the card's text block's changes and statuses, and bounds after them."""
    blocks = card_blocks(text)
    assert [(r["trick"], r["event"], r["card"]) for r in rows] == [(t, f"{t}.{n}", c) for t, n, c, _ in blocks]
    for row, (_, _, _, block) in zip(rows, blocks):
        assert list(row) == list(ROW_KEYS)
        shown = [line for line in block.splitlines() if re.match(r"  \S", line) and "(no bound changes)" not in line]
        assert len(shown) == len(row["changes"]) + len(row["statuses"]) + bool(row["evidence"])
        assert (f"  evidence: {row['evidence']}" in block.splitlines()) == bool(row["evidence"])
        for item in row["changes"] + row["statuses"]:
            assert item["reason"] in block or item.get("quantity") == "located"
        last = {(c["seat"], c["quantity"]): c["new"] for c in row["changes"]}
        for (seat, quantity), new in last.items():
            if quantity in row["bounds"].get(seat, {}):
                assert row["bounds"][seat][quantity] == new, (row["event"], seat, quantity)


def test_replay_json_one_schema_for_records_and_scenarios() -> None:
    scenario = ROOT / "scenarios/seed/14-15-lead-interpretations.toml"
    record = ROOT / "scenarios/records/example.pbn"
    status, out, _ = run("replay", str(scenario), "--json")
    assert status == 0
    from_scenario = [json.loads(line) for line in out.splitlines()]
    _, text, _ = run("replay", str(scenario))
    check_rows_against_text(from_scenario, text)
    assert all(r["board"] is None and r["record"] is None for r in from_scenario)
    assert from_scenario[0]["statuses"]  # the lead's readings come after the opening lead: in its row
    from inference.apps.scenario import run_scenario

    assert from_scenario[-1]["bounds"] == run_scenario(scenario).state.bounds().as_dict()
    status, out, _ = run("replay", str(record), "--board", "1", "--json")
    assert status == 0
    from_record = [json.loads(line) for line in out.splitlines()]
    _, text, _ = run("replay", str(record), "--board", "1")
    check_rows_against_text(from_record, text)
    assert len(from_record) == 52 and all(r["board"] == "1" and r["record"] == 1 for r in from_record)
    assert {tuple(r) for r in from_scenario} == {tuple(r) for r in from_record} == {ROW_KEYS}
    table = text.split("bounds at the end:\n", 1)[1].splitlines()[1:3]
    assert [line.split()[1:] for line in table] == [[f"{lo}-{hi}" for lo, hi in cells.values()]
                                                    for cells in from_record[-1]["bounds"].values()]


def test_replay_json_of_every_record_names_each_board() -> None:
    status, out, _ = run("replay", str(ROOT / "scenarios/records/example.pbn"), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and [r["board"] for r in rows] == ["1"] * 52 + ["2"] * 52
    assert [r["record"] for r in rows] == [1] * 52 + [2] * 52
    _, one, _ = run("replay", str(ROOT / "scenarios/records/example.pbn"), "--record", "2", "--json")
    assert [json.loads(line) for line in one.splitlines()] == rows[52:]


def test_kibitz_replay_folder_summary(tmp_path: Path) -> None:
    root = folder(tmp_path)
    status, out, err = run("replay", str(root), "--no-progress")
    assert status == 0, err
    assert re.search(r"records read +4\n", out) and re.search(r"soundness violations +0\n", out)
    assert re.search(r"rejected +1\n +card played twice +1\n", out) and re.search(r"passed out +1\n", out)
    assert re.search(r"throughput +[\d,]+ cards/s", out)
    status, out, _ = run("replay", str(root / "a.pbn"), "--summary", "--json")
    obj = json.loads(out)
    assert (obj["read"], obj["replayed"], obj["cards"], obj["soundness_violations"]) == (2, 2, 69, 0)
    status, _, err = run("replay", str(root), "--board", "7")
    assert status == 2 and "--board" in err
    status, _, err = run("replay", str(tmp_path / "nothing-here"), str(root))
    assert status == 2 and "nothing-here" in err


def test_replay_help_documents_the_row_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from inference.commands import main

    assert main(["replay", "--help"]) == 0  # main returns the status; it never raises SystemExit
    out = capsys.readouterr().out
    assert all(f'"{key}"' in out for key in ROW_KEYS) and "null for a scenario" in out
