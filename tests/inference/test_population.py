"""Populations: who played a record (its players' names, its source), the robots' book, ``--book auto``.

The robots' book is sayc's rules through ``base``: the merge is checked rule by rule against the
base; the players are read from PBN tags and LIN ``pn`` (a vugraph's closed room too); the
population decides the book ``--book auto`` reads with, and ``kibitz rules`` reports by it.
"""

from __future__ import annotations

import json
import random
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from dealer import Seat
from inference.apps.replay import replay_record
from inference.auction.book import load_book, with_base
from inference.auction.population import book_for, is_robot, population
from inference.commands import main
from inference.errors import InvalidArgumentError
from inference.io.records import read_auctions, read_pbn
from inference.rules.contract import Strain
from tests.inference.test_records import DEAL, pbn_rows, random_play

LIN = ("pn|Anna,Bob,Cleo,Dan,Eve,Finn,Gus,Hal|qx|o1|md|3{S},{W},{N},|sv|o|mb|p|mb|p|mb|p|mb|p|pg||"
       "qx|c1|md|3{S},{W},{N},|sv|o|mb|p|mb|p|mb|p|mb|p|pg||")


def _lin_text() -> str:
    hands = {seat: "".join(s + "".join(str(c)[1] for c in DEAL[seat] if str(c)[0] == s) for s in "SHDC")
             for seat in (Seat.S, Seat.W, Seat.N)}
    return LIN.format(S=hands[Seat.S], W=hands[Seat.W], N=hands[Seat.N])


def test_players_are_read_by_seat_from_lin_rooms_and_pbn_tags(tmp_path: Path) -> None:
    path = tmp_path / "x.lin"
    path.write_text(_lin_text())
    open_room, closed_room = list(read_auctions(path))
    assert open_room.players == ("Cleo", "Dan", "Anna", "Bob")  # pn is S, W, N, E
    assert closed_room.players == ("Gus", "Hal", "Eve", "Finn")
    cards = random_play(DEAL, Seat.E, Strain.S, random.Random(5), 8)
    rows = pbn_rows(DEAL, Seat.E, Strain.S, cards, Seat.S)
    text = (f'[Board "1"]\n[West "~~M1"]\n[North "GIB"]\n[East "~~M2"]\n[South "Zoe"]\n[Deal "{DEAL.to_pbn()}"]\n'
            f'[Auction "N"]\nPass 1S Pass 2S\nPass 4S AP\n[Play "S"]\n' + "\n".join(" ".join(r) for r in rows) + "\n*\n")
    rec = next(read_pbn(text))
    assert rec.players == ("GIB", "~~M2", "Zoe", "~~M1")  # type: ignore[union-attr]
    assert population("anywhere/x.pbn", rec.players) == "robots"  # type: ignore[union-attr]


@pytest.mark.parametrize("source, players, expected", [
    ("bot-matches-ben/Boards/a.pbn", ("x", "y", "z", "w"), "robots"),  # a robots' folder, whatever the names
    ("/data/bbo-robot-daylongs-ben/a.pbn", (), "robots"),
    ("bbo-vugraph/a.lin", ("~~a", "~~b", "Ann", "Bo"), "humans"),  # two robots are not enough
    ("bbo-vugraph/a.lin", ("~~a", "WBridge5", "Ann", "gib"), "robots"),
    ("bbo-vugraph/a.lin", (), "humans"),
    ("my-bot-matches-benches/a.lin", (), "humans"),  # a folder's whole name, not a part of one
])
def test_population_of_a_record(source: str, players: tuple[str, ...], expected: str) -> None:
    assert population(source, players) == expected
    assert book_for("auto", source, players) == ("robots" if expected == "robots" else "natural-wide")
    assert book_for("sayc", source, players) == "sayc" and book_for(None, source, players) is None


def test_robot_names() -> None:
    assert all(is_robot(n) for n in ("~~M25054gn", "GIB", "gib", "BEN", "WBridge5", "Jack", "Robot"))
    assert not any(is_robot(n) for n in ("Gibson", "Benny", "jackson", "domtp", ""))


def _raw(name: str) -> dict[str, object]:
    res = resources.files("inference") / "data" / "auction" / f"{name}.toml"
    return tomllib.loads(res.read_text(encoding="utf-8"))


def test_a_book_on_a_base_replaces_adds_and_drops_rules_by_id() -> None:
    base = load_book("sayc")
    ids = [r.id for r in base.rule]
    mine = {"name": "mine", "base": "sayc", "drop": [ids[2]], "params": {"nt_low": 14},
            "rule": [{"id": ids[1], "family": "f", "meaning": "m", "call": "P", "claim": []},
                     {"id": "new-one", "family": "f", "meaning": "m", "call": "7N", "claim": []}]}
    merged = with_base(mine, "<test>")
    got = [r["id"] for r in merged["rule"]]
    assert got == ["new-one", ids[0], ids[1], *ids[3:]]  # new first; replaced in place; dropped gone
    assert merged["rule"][2]["family"] == "f" and merged["name"] == "mine"
    assert merged["params"] == {**_raw("sayc")["params"], "nt_low": 14}  # type: ignore[dict-item]
    with pytest.raises(InvalidArgumentError, match="unknown shipped book 'nope'"):
        with_base({"name": "x", "base": "nope"}, "<test>")
    with pytest.raises(InvalidArgumentError, match="'no-such-rule' is not a rule of sayc"):
        with_base({"name": "x", "base": "sayc", "drop": ["no-such-rule"]}, "<test>")


def test_the_robots_book_is_saycs_rules_with_its_own_tags_and_calibration() -> None:
    robots, sayc = load_book("robots"), load_book("sayc")
    assert [r.id for r in robots.rule] == [r.id for r in sayc.rule]
    differ = [r.id for r, s in zip(robots.rule, sayc.rule) if r != s]
    assert differ == ["pass-unopened-12", "pass-unopened-3", "blackwood-5c", "blackwood-5d", "blackwood-5h",
                      "blackwood-5s"]
    assert all(c.tag.value == "agreement-unspecified" for r in robots.rule if r.id in differ for c in r.claim)
    assert all("keycards(" in r.claim[0].text for r in robots.rule if r.id.startswith("blackwood"))  # the robots' RKC
    res = resources.files("inference") / "data" / "auction" / "robots.calibration.json"
    shipped = json.loads(res.read_text(encoding="utf-8"))
    assert shipped["book"] == "robots" and "robots" in shipped["measured"] and shipped["records"] > 0


def test_auto_reads_a_robots_record_with_the_robots_book() -> None:
    cards = random_play(DEAL, Seat.E, Strain.S, random.Random(5), 8)
    rows = "\n".join(" ".join(r) for r in pbn_rows(DEAL, Seat.E, Strain.S, cards, Seat.S))
    texts = {}
    for names in ("", '[North "~~a"]\n[East "~~b"]\n[South "~~c"]\n[West "Ann"]\n'):
        rec = next(read_pbn(f'[Board "1"]\n{names}[Deal "{DEAL.to_pbn()}"]\n[Auction "N"]\nPass 1S Pass 2S\n'
                            f'Pass 4S AP\n[Play "S"]\n{rows}\n*\n'))
        for book in ("auto", "robots", "natural-wide"):
            _, step = next(replay_record(rec, book=book))  # type: ignore[arg-type]
            texts[bool(names), book] = [repr(u) for u in step.updates]
    assert texts[True, "auto"] == texts[True, "robots"] != texts[True, "natural-wide"]
    assert texts[False, "auto"] == texts[False, "natural-wide"]


def test_rules_by_population(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bot-matches-ben").mkdir()
    (tmp_path / "bot-matches-ben" / "a.lin").write_text(_lin_text())
    (tmp_path / "b.lin").write_text(_lin_text())
    assert main(["rules", str(tmp_path), "--book", "sayc", "--by-population", "--no-progress"]) == 0
    coverage = capsys.readouterr().out.split("coverage")[-1]
    assert "robots" in coverage and "humans" in coverage and "bot-matches-ben" not in coverage
    assert main(["rules", str(tmp_path), "--book", "sayc", "--population", "robots", "--no-progress"]) == 0
    assert "2 records read" in capsys.readouterr().out
