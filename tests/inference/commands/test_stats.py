"""``kibitz stats``: tables of PBN deals or sampled ones, against the exact frequencies of a spec."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path


from inference.commands.stats import TABLE_KEYS
from tests.inference.commands.helpers import run


def test_stats_of_a_pbn_file_against_the_spec(tmp_path: Path) -> None:
    spec = "spades(west) == 9 && shape(east, xx66)"
    target = tmp_path / "d.pbn"
    run("deal", spec, "-n", "3000", "--seed", "5", "-o", str(target))
    status, out, _ = run("stats", str(target), "--spec", spec, "--hand", "W", "--hand", "E", "--json")
    assert status == 0
    obj = json.loads(out)
    assert obj["deals"] == 3000
    tables = {(t["seat"], t["feature"]): t for t in obj["tables"]}
    assert tables[("W", "S")]["observed"] == {"9": 3000}
    assert tables[("W", "S")]["exact"] == {"9": "1/1"}
    assert all(t["p_value"] > 1e-4 for t in obj["tables"])
    assert tables[("E", "pattern")]["observed"].keys() <= {"6-6-1-0", "6-6-0-1"} | {"6-6-1-0"}


def test_stats_flags_deals_that_break_the_spec(tmp_path: Path) -> None:
    target = tmp_path / "plain.pbn"
    run("deal", "hcp(north) >= 0", "-n", "500", "--seed", "2", "-o", str(target))
    status, out, _ = run("stats", str(target), "--spec", "hcp(north) >= 10", "--hand", "N", "--feature", "hcp")
    assert status == 0
    assert "IMPOSSIBLE VALUES SEEN" in out and "p = 0" in out


def test_stats_from_stdin_and_sampled() -> None:
    _, pbn, _ = run("deal", "hcp(south) >= 20", "-n", "200", "--seed", "9", "--format", "oneline")
    status, out, _ = run("stats", "-", "--hand", "S", "--feature", "hcp", stdin=pbn)
    assert status == 0 and out.startswith("200 deals")
    status, out, _ = run("stats", "--spec", "hcp(south) >= 20", "-n", "2000", "--hand", "S", "--feature", "hcp")
    assert status == 0 and "chi-square" in out


def test_stats_plot(tmp_path: Path) -> None:
    target = tmp_path / "plot.png"
    status, _, err = run("stats", "--spec", "hcp(south) >= 20", "-n", "500", "--hand", "S",
                         "--feature", "hcp", "--plot", str(target))
    if importlib.util.find_spec("matplotlib") is None:
        assert status == 2 and "pip install 'kibitz[plot]'" in err
    else:
        assert status == 0 and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_stats_bad_file() -> None:
    status, _, err = run("stats", "/no/such.pbn")
    assert status == 2 and "cannot read deal file '/no/such.pbn'" in err



def test_stats_json_tables_have_the_same_keys_with_or_without_a_spec(tmp_path: Path) -> None:
    target = tmp_path / "d.pbn"
    run("deal", "hcp(north) >= 20", "-n", "300", "--seed", "3", "-o", str(target))
    _, bare, _ = run("stats", str(target), "--hand", "N", "--json")
    _, tested, _ = run("stats", str(target), "--spec", "hcp(north) >= 20", "--hand", "N", "--json")
    for obj in (json.loads(bare), json.loads(tested)):
        assert obj["deals"] == 300 and len(obj["tables"]) == 6
        for table in obj["tables"]:
            assert list(table) == list(TABLE_KEYS) and table["seat"] == "N"
            assert sum(table["observed"].values()) == 300
    assert all(t["exact"] is None and t["p_value"] is None and t["note"] is None for t in json.loads(bare)["tables"])
    hcp = next(t for t in json.loads(tested)["tables"] if t["feature"] == "hcp")
    assert min(map(int, hcp["exact"])) == 20 and hcp["impossible_seen"] == [] and hcp["dof"] > 0


def test_stats_hand_filters_and_seat_is_not_a_stats_option(tmp_path: Path) -> None:
    status, out, _ = run("stats", "--spec", "hcp(south) >= 20", "-n", "200", "--hand", "S", "--hand", "W", "--json")
    assert status == 0 and {t["seat"] for t in json.loads(out)["tables"]} == {"S", "W"}
    status, out, err = run("stats", "--spec", "hcp(south) >= 20", "-n", "200", "--seat", "S")
    assert status == 2 and out == "" and "unrecognized arguments: --seat" in err  # argparse's, in one line
