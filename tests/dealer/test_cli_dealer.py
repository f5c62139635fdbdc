"""``kibitz count``, ``kibitz deal`` and ``kibitz stats`` from the command line."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
from pathlib import Path

import pytest

from dealer import Deal, Seat
from dealer.exact import ExactDealer
from dealer.spec import DealSpec
from inference.cli import main


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if stdin is not None:
            import sys

            old = sys.stdin
            sys.stdin = io.StringIO(stdin)
            try:
                status = main(list(argv))
            finally:
                sys.stdin = old
        else:
            status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def deals_in(pbn: str) -> list[Deal]:
    return [Deal.from_pbn(m) for m in re.findall(r'\[Deal "([^"]+)"\]', pbn)]


def test_count_json_matches_the_api() -> None:
    status, out, _ = run("count", "--json", "spades(west) == 9 && shape(east, xx66)")
    assert status == 0
    obj = json.loads(out)
    dealer = ExactDealer(DealSpec.parse("spades(west) == 9 && shape(east, xx66)"))
    assert obj["deals"] == dealer.count()
    assert obj["constrained"] == 556_991_252_532_000
    num, den = map(int, obj["probability"].split("/"))
    assert num * 53_644_737_765_488_792_839_237_440_000 == dealer.count() * den


def test_count_text_output() -> None:
    status, out, _ = run("count", "hcp(north) == 3")
    assert status == 0
    assert "15,636,342,960 ways to deal N" in out and "probability:" in out


def test_count_impossible_says_why() -> None:
    status, out, _ = run("count", "--json", "spades(north) >= 7 && spades(south) >= 7")
    obj = json.loads(out)
    assert status == 0 and obj["deals"] == 0 and "north" in obj["impossible"] and "south" in obj["impossible"]


def test_deal_pbn_is_valid_and_satisfies_the_spec() -> None:
    status, out, _ = run("deal", "shape(east, any 5332) && hcp(east) == 34", "-n", "20", "--seed", "7")
    assert status == 0
    deals = deals_in(out)
    assert len(deals) == 20
    for deal in deals:
        assert deal[Seat.E].hcp == 34 and sorted(deal[Seat.E].shape) == [2, 3, 3, 5]
    assert out.startswith("% PBN 2.1")
    games = out.strip().split("\n\n")[1:]
    for number, game in enumerate(games, start=1):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        assert tags["Board"] == str(number)
        assert tags["Deal"].startswith(tags["Dealer"] + ":")
        for tag in ("Event", "Site", "Date", "West", "North", "East", "South", "Vulnerable", "Scoring",
                    "Declarer", "Contract", "Result"):
            assert tag in tags


def test_deal_same_seed_same_output_and_formats() -> None:
    spec = "hcp(west) >= 11 && hcp(west) <= 15 && hcp(east) >= 6 && hcp(east) <= 10"
    _, a, _ = run("deal", spec, "-n", "30", "--seed", "3", "--format", "oneline")
    _, b, _ = run("deal", spec, "-n", "30", "--seed", "3", "--format", "oneline")
    _, c, _ = run("deal", spec, "-n", "30", "--seed", "4", "--format", "oneline")
    assert a == b != c
    lines = a.splitlines()
    assert len(lines) == 30 and all(11 <= Deal.from_pbn(x)[Seat.W].hcp <= 15 for x in lines)
    _, j, _ = run("deal", spec, "-n", "30", "--seed", "3", "--format", "json")
    objs = [json.loads(x) for x in j.splitlines()]
    assert [o["deal"] for o in objs] == lines
    assert all(Deal.from_pbn(o["deal"])[Seat.E].to_pbn() == o["hands"]["E"] for o in objs)


def test_deal_to_file_and_spec_file(tmp_path: Path) -> None:
    spec = tmp_path / "weak2.dl"
    spec.write_text("predeal north SAKQ\ncondition hearts(south) == 6 && hcp(south) <= 10\nproduce 4\n")
    target = tmp_path / "out.pbn"
    status, out, _ = run("deal", "-f", str(spec), "--seed", "1", "-o", str(target))
    assert status == 0 and out == ""
    deals = deals_in(target.read_text())
    assert len(deals) == 4 and all("SA" in d[Seat.N] and d[Seat.S].length("H") == 6 for d in deals)


@pytest.mark.parametrize("argv,fragment", [
    (["deal", "spades(north) >= 7 && spades(south) >= 7", "-n", "1"], "no deal satisfies the spec"),
    (["deal", "spades(west) >= 5 || hearts(east) >= 5"], "an '||' that joins east and west"),
    (["count", "hcp(north) >"], "<spec>:1:13: expected a number"),
    (["deal", "-f", "/no/such/file.dl"], "cannot read spec file"),
    (["deal", "hcp(north) > 3", "-n", "-1"], "invalid -n -1"),
    (["count", "hcp(north) > 3 && hcp(south) > 3 && hcp(east) > 3 && hcp(west) > 3", "--limit", "1000"],
     "beyond the limit of 1,000"),
])
def test_bad_input_exit_2(argv: list[str], fragment: str) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.startswith("kibitz: error:") and fragment in err


def test_stats_of_a_pbn_file_against_the_spec(tmp_path: Path) -> None:
    spec = "spades(west) == 9 && shape(east, xx66)"
    target = tmp_path / "d.pbn"
    run("deal", spec, "-n", "3000", "--seed", "5", "-o", str(target))
    status, out, _ = run("stats", str(target), "--spec", spec, "--seat", "W", "--seat", "E", "--json")
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
    status, out, _ = run("stats", str(target), "--spec", "hcp(north) >= 10", "--seat", "N", "--feature", "hcp")
    assert status == 0
    assert "IMPOSSIBLE VALUES SEEN" in out and "p = 0" in out


def test_stats_from_stdin_and_sampled() -> None:
    _, pbn, _ = run("deal", "hcp(south) >= 20", "-n", "200", "--seed", "9", "--format", "oneline")
    status, out, _ = run("stats", "-", "--seat", "S", "--feature", "hcp", stdin=pbn)
    assert status == 0 and out.startswith("200 deals")
    status, out, _ = run("stats", "--spec", "hcp(south) >= 20", "-n", "2000", "--seat", "S", "--feature", "hcp")
    assert status == 0 and "chi-square" in out


def test_stats_plot(tmp_path: Path) -> None:
    target = tmp_path / "plot.png"
    status, _, err = run("stats", "--spec", "hcp(south) >= 20", "-n", "500", "--seat", "S",
                         "--feature", "hcp", "--plot", str(target))
    if importlib.util.find_spec("matplotlib") is None:
        assert status == 2 and "pip install 'kibitz[plot]'" in err
    else:
        assert status == 0 and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_stats_bad_file() -> None:
    status, _, err = run("stats", "/no/such.pbn")
    assert status == 2 and "cannot read '/no/such.pbn'" in err
