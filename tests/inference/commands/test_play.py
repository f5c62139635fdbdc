"""``kibitz play``: the reference declarer on a recorded deal, from the command line (extra ``kibitz[bot]``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.commands.play import record_tricks
from inference.rules.contract import Strain
from inference.io.records import PlayRecord, read_pbn
from tests.inference.commands.helpers import run
from tests.inference.helpers import hide_endplay, needs_solver

EXAMPLE = Path(__file__).resolve().parents[3] / "scenarios" / "records" / "example.pbn"

def test_without_the_extra_kibitz_play_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_endplay(monkeypatch)
    status, out, err = run("play", str(EXAMPLE), "--board", "2", "-n", "3")
    assert status == 2 and "kibitz[bot]" in err


@needs_solver
def test_kibitz_play_prints_every_card_and_the_result() -> None:
    status, out, err = run("play", str(EXAMPLE), "--board", "2", "-n", "3", "--tricks", "2")
    assert status == 0, err
    lines = out.splitlines()
    assert sum(1 for line in lines if line.startswith("  trick")) == 52
    assert sum("won by" in line for line in lines) == 13
    assert "3 lawful layouts:" in out and "double dummy (past --tricks)" in out
    assert lines[-2].startswith("declarer's side took ")
    assert "(the record: 10; double dummy from the lead: 10)" in lines[-2]


def test_kibitz_play_rejects_bad_input() -> None:
    status, out, err = run("play", str(EXAMPLE), "--board", "2", "-n", "0")
    assert status == 2 and "invalid -n 0" in err and out == ""
    status, out, err = run("play", str(EXAMPLE), "--board", "2", "--seed", "-5")
    assert status == 2 and "invalid --seed -5" in err and out == ""
    status, out, err = run("play", str(EXAMPLE), "--board", "2", "--tricks", "14")
    assert status == 2 and "invalid --tricks 14" in err and out == ""
    status, _, err = run("play", str(EXAMPLE), "--board", "9")
    assert status == 2 and "board 9" in err
    status, out, err = run("play", str(EXAMPLE), "--board", "2", "--defence-model", "/no/such/model.json")
    assert status == 2 and "'/no/such/model.json'" in err and out == ""
    status, out, err = run("play", str(EXAMPLE), "--board", "2", "--likelihood", "/no/such/likelihood.json")
    assert status == 2 and "'/no/such/likelihood.json'" in err and out == ""


def test_kibitz_play_takes_the_weighted_views_switches() -> None:
    for model, heard in (("none", "none"), ("default", "default")):
        status, out, err = run("play", str(EXAMPLE), "--board", "2", "-n", "2", "--tricks", "1", "--view", "weighted",
                               "--book", "sayc", "--defence-model", model, "--likelihood", heard, "--quiet")
        assert status == 0, err
        assert "2 weighted layouts a decision" in out and "(the record: 10;" in out


def test_record_tricks_counts_the_recorded_play() -> None:
    records = [r for r in read_pbn(EXAMPLE.read_text()) if isinstance(r, PlayRecord)]
    assert records and all(len(r.play) == 52 for r in records)
    tricks = {rec.board: record_tricks(rec.play, rec.declarer, rec.contract.strain) for rec in records}
    assert tricks["2"] == 10  # the record kibitz play quotes for board 2
    assert all(0 <= t <= 13 for t in tricks.values() if t is not None)
    assert record_tricks(records[0].play[:48], records[0].declarer, Strain.NT) is None
