"""``kibitz count``: the exact number of deals satisfying a spec, as text and as JSON."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from dealer.tables.exact import ExactDealer
from dealer.spec.spec import DealSpec
from inference.commands.count import JSON_KEYS
from tests.inference.commands.helpers import run
from tests.inference.helpers import needs_solver


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


@pytest.mark.parametrize("argv,fragment", [
    (["count", "hcp(north) >"], "<spec>:1:13: expected a number"),
])
def test_bad_input_exit_2(argv: list[str], fragment: str) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.startswith("kibitz: error:") and fragment in err


def test_count_json_has_the_same_keys_whatever_the_spec(tmp_path: Path) -> None:
    _, possible, _ = run("count", "--json", "hcp(north) == 3")
    _, impossible, _ = run("count", "--json", "spades(north) >= 7 && spades(south) >= 7")
    _, estimated, _ = run("count", "--json", "hcp(north) > 3 && hcp(south) > 3 && hcp(east) > 3 && hcp(west) > 3",
                          "--limit", "1000", "--draws", "2000", "--seed", "1")
    a, b, c = json.loads(possible), json.loads(impossible), json.loads(estimated)
    assert list(a) == list(b) == list(c) == list(JSON_KEYS)
    assert c["exact"] is False and c["drawn"] == 2000 and 0 < c["accepted"] <= 2000 and c["solved"] == 0
    assert a["drawn"] is a["accepted"] is a["solved"] is None
    assert a["impossible"] is None and b["impossible"] and b["deals"] == 0
    spec = tmp_path / "n3.dl"
    spec.write_text("condition hcp(north) == 3\n")
    _, from_file, _ = run("count", "--json", "-f", str(spec))
    assert json.loads(from_file)["deals"] == a["deals"] == ExactDealer(DealSpec.parse("hcp(north) == 3")).count()


def test_tables_beyond_the_limit_are_filtered_not_refused() -> None:
    status, out, _ = run("count", "hcp(north) > 3 && hcp(south) > 3 && hcp(east) > 3 && hcp(west) > 3",
                         "--limit", "1000", "--draws", "5000", "--seed", "1")
    assert status == 0 and "exact:        no (an estimate)" in out and "filtered by:" in out


def test_a_later_condition_replaces_an_earlier_one_with_a_note(tmp_path: Path) -> None:
    """As in dealer, the last condition counts; the replaced one is named on standard error."""
    spec = tmp_path / "two.dl"
    spec.write_text("hcp(north) >= 15\nhearts(south) >= 5\n")
    status, out, err = run("count", "--json", str(spec))
    assert status == 0
    assert json.loads(out)["deals"] == ExactDealer(DealSpec.parse("hearts(south) >= 5")).count()
    assert f"{spec}:1 is replaced by a later one" in err and err.count("\n") == 1
    status, _, err = run("count", "--json", "hcp(north) >= 15 && hearts(south) >= 5")
    assert status == 0 and err == ""


def test_a_predeal_count_gives_the_share_of_its_completions() -> None:
    """North and East predealt whole, South ten cards: the last 16 cards complete the deal in C(16, 3) ways;
    the share meeting the condition is counted here by listing them all."""
    from itertools import combinations

    from dealer import CardSet

    text = "predeal north SAKQJT98765432\npredeal east HAKQJT98765432\npredeal south DAKQJT98765\nhcp(south) >= 12"
    status, out, _ = run("count", "--json", text)
    obj = json.loads(out)
    rest = list(CardSet.parse("D432CAKQJT98765432"))
    assert len(rest) == 16
    met = sum(1 for three in combinations(rest, 3) if 10 + CardSet(three).hcp >= 12)  # South's diamonds: 10 HCP
    assert status == 0 and obj["completions"] == 560
    assert obj["share_of_completions"] == str(Fraction(met, 560)) and 0 < met < 560
    status, text_out, _ = run("count", text)
    assert f"{obj['deals']:,} of 560 completions of the predealt cards" in text_out
    _, plain, _ = run("count", "--json", "hcp(north) >= 12")
    assert json.loads(plain)["completions"] is None and json.loads(plain)["share_of_completions"] is None


def test_a_hascard_condition_is_not_a_predealt_card_in_the_share() -> None:
    """As in ``dealer``, ``hascard`` is a condition: the share is of the completions of the ``predeal`` statements
    only (the 560 of the test above), here the ones where South holds the club ace, listed one by one."""
    from itertools import combinations

    from dealer import Card, CardSet

    text = ("predeal north SAKQJT98765432\npredeal east HAKQJT98765432\npredeal south DAKQJT98765\n"
            "hascard(south, CA) && hcp(south) >= 15")
    status, out, _ = run("count", "--json", text)
    obj = json.loads(out)
    rest = list(CardSet.parse("D432CAKQJT98765432"))
    met = sum(1 for three in combinations(rest, 3) if Card.parse("CA") in three and 10 + CardSet(three).hcp >= 15)
    assert status == 0 and obj["completions"] == 560 and 0 < met < 560
    assert obj["share_of_completions"] == str(Fraction(met, 560))


@pytest.mark.parametrize("text, shown", [
    ("hascard(west, 2C) || hascard(east, 2D)", "(hascard(west, C2) || hascard(east, D2))"),
    ("predeal north SAK\ncondition hcp(south) >= 10 || hcp(north) >= 20",
     "hascard(north, SA) && hascard(north, SK) && (hcp(south) >= 10 || hcp(north) >= 20)"),
    ("condition (hcp(north) >= 20 || hcp(south) >= 20) && spades(east) >= 5",
     "(hcp(north) >= 20 || hcp(south) >= 20) && spades(east) >= 5"),
])
def test_the_spec_shown_is_all_that_was_counted(text: str, shown: str, tmp_path: Path) -> None:
    """An exact count by a union of parts or by labels across seats shows the whole condition, not one part."""
    path = tmp_path / "s.dl"
    path.write_text(text + "\n")
    status, out, _ = run("count", str(path))
    assert status == 0 and "exact:        yes" in out and out.splitlines()[0] == f"spec:         {shown}", out
    assert json.loads(run("count", "--json", str(path))[1])["spec"] == shown


@needs_solver
def test_an_estimate_shows_its_seed_and_draws_the_same_again() -> None:
    """A fresh seed is shown with an estimate (text and JSON): given back, it gives the same estimate."""
    import re

    spec = "hcp(north) >= 20 && tricks(north, notrump) >= 10"
    status, out, _ = run("count", spec, "--draws", "20", "--json")
    first = json.loads(out)
    assert status == 0 and first["exact"] is False and isinstance(first["seed"], int)
    again = json.loads(run("count", spec, "--draws", "20", "--json", "--seed", str(first["seed"]))[1])
    assert (again["estimate"], again["accepted"], again["seed"]) == (first["estimate"], first["accepted"], first["seed"])
    status, text, _ = run("count", spec, "--draws", "20", "--seed", "11")
    assert status == 0 and re.search(r"met the whole condition.*; seed 11$", text, flags=re.M)


@needs_solver
def test_an_estimates_spec_is_all_it_counts() -> None:
    """Estimated (a double-dummy filter), the spec still shows the condition held by labels across seats."""
    spec = "hcp(north) + hcp(south) >= 25 && tricks(north, notrump) >= 9"
    status, out, _ = run("count", spec, "--draws", "5", "--seed", "1")
    assert status == 0 and "exact:        no" in out
    shown = "(hcp(north) + hcp(south)) >= 25 && tricks(north, notrump) >= 9"
    assert out.splitlines()[0] == f"spec:         {shown}" and "filtered by:  tricks(north, notrump) >= 9" in out
    assert json.loads(run("count", spec, "--draws", "5", "--seed", "1", "--json")[1])["spec"] == shown
