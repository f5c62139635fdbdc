"""``kibitz sample`` and ``kibitz odds``: layouts after K cards of a record or a scenario, from the command line."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from dealer import Card, Deal, Seat
from inference.rules.contract import Strain
from inference.state.play import PlayState
from tests.inference.commands.helpers import run
from tests.inference.helpers import random_play
from tests.inference.test_layouts import DEAL
from tests.inference.test_records import pbn_rows, pbn_text

ROOT = Path(__file__).resolve().parents[3]


def record_file(tmp_path: Path) -> tuple[Path, list]:
    cards = random_play(DEAL, Seat.S, Strain.H, random.Random(5), 52)
    path = tmp_path / "r.pbn"
    path.write_text(pbn_text(DEAL, Seat.S, "4H", pbn_rows(DEAL, Seat.S, Strain.H, cards, Seat.W)))
    return path, cards


def test_cli_odds_json(tmp_path: Path) -> None:
    path, cards = record_file(tmp_path)
    status, out, _ = run("odds", str(path), "--after", "5", "--json")
    assert status == 0
    obj = json.loads(out)
    assert set(obj) >= {"layouts", "holder", "length", "hcp"}
    assert set(obj["length"]) == {"W", "E"} and set(obj["hcp"]) == {"W", "E"}
    state = PlayState(DEAL[Seat.S], declarer="S", contract="4H")
    for i, c in enumerate(cards[:5]):
        state.play(c)
        if i == 0:
            state.table_dummy(DEAL[Seat.N])
    odds = state.layouts().odds()
    assert obj["layouts"] == odds.layouts
    for card, by in obj["holder"].items():
        assert sum(Fraction(v) for v in by.values()) == 1
        for seat, v in by.items():
            assert Fraction(v) == odds.holder[Card.parse(card)][Seat.parse(seat)]
    for seat in ("W", "E"):
        for suit in "SHDC":
            assert sum(Fraction(v) for v in obj["length"][seat][suit].values()) == 1


def test_cli_odds_text_shows_lengths_hcp_and_splits(tmp_path: Path) -> None:
    """The text form shows what ``--json`` holds: each seat's HCP and each suit's splits, as percentages."""
    path, _ = record_file(tmp_path)
    status, out, _ = run("odds", str(path), "--after", "5")
    _, text, _ = run("odds", str(path), "--after", "5", "--json")
    obj = json.loads(text)
    assert status == 0
    for seat in ("W", "E"):
        assert f"({seat}) dealt HCP:" in out
        for h, p in obj["hcp"][seat].items():
            assert f"{int(h):2}:{float(Fraction(p)):6.2%}" in out
    for suit, dist in obj["split"].items():
        line = next(x for x in out.splitlines() if x.startswith(f"  {suit}  ") and "-" in x.split()[1])
        assert all(f"{k}:{float(Fraction(p)):6.2%}" in line for k, p in dist.items()), (line, dist)


def test_cli_sample_pbn(tmp_path: Path) -> None:
    path, cards = record_file(tmp_path)
    status, out, _ = run("sample", str(path), "--after", "9", "-n", "25", "--seed", "4")
    assert status == 0
    deals = [Deal.from_pbn(m) for m in re.findall(r'\[Deal "([^"]+)"\]', out)]
    assert len(deals) == 25
    played = set(cards[:9])
    for d in deals:
        assert d[Seat.S] == DEAL[Seat.S] and d[Seat.N] == DEAL[Seat.N]
        for seat in Seat:
            for c in played:
                if DEAL.holder(c) == seat:
                    assert c in d[seat]
    _, again, _ = run("sample", str(path), "--after", "9", "-n", "25", "--seed", "4")
    assert again == out
    assert set(re.findall(r'\[Dealer "(\w)"\]', out)) == {"N"}
    assert set(re.findall(r'\[Vulnerable "([^"]+)"\]', out)) == {"?"}  # the record does not say


def test_cli_sample_json_is_format_json(tmp_path: Path) -> None:
    """``--json``, as the other commands spell it, is ``--format json``: JSON lines, the same layouts."""
    path, _ = record_file(tmp_path)
    status, out, _ = run("sample", str(path), "--after", "3", "-n", "5", "--seed", "2", "--json")
    assert status == 0 and out == run("sample", str(path), "--after", "3", "-n", "5", "--seed", "2", "--format", "json")[1]
    assert [json.loads(line)["board"] for line in out.splitlines()] == [1, 2, 3, 4, 5]
    status, _, err = run("sample", str(path), "--after", "3", "-n", "5", "--json", "--format", "oneline")
    assert status == 2 and "not allowed with argument" in err


def test_cli_sample_keeps_the_records_dealer_and_vulnerability(tmp_path: Path) -> None:
    """Every layout of a board is that board: its dealer and vulnerability, not those of the layout's number."""
    path, _ = record_file(tmp_path)
    path.write_text(path.read_text().replace('[Dealer "N"]', '[Dealer "E"]\n[Vulnerable "Both"]'))
    status, out, _ = run("sample", str(path), "--after", "3", "-n", "20", "--seed", "1")
    assert status == 0
    assert re.findall(r'\[Dealer "(\w)"\]', out) == ["E"] * 20
    assert re.findall(r'\[Vulnerable "(\w+)"\]', out) == ["All"] * 20  # as PBN spells it
    deals = [Deal.from_pbn(m) for m in re.findall(r'\[Deal "([^"]+)"\]', out)]
    assert all(m.startswith("E:") for m in re.findall(r'\[Deal "([^"]+)"\]', out))
    assert all(d[Seat.S] == DEAL[Seat.S] and d[Seat.N] == DEAL[Seat.N] for d in deals)


@pytest.mark.parametrize("view", ["lawful", "weighted"])
def test_cli_sample_gives_the_apis_layouts_past_a_batch(view: str, tmp_path: Path) -> None:
    """Same seed, same layouts: ``kibitz sample -n 10001`` writes what ``PlayState.sample_masks(10001, seed)`` draws."""
    path, cards = record_file(tmp_path)
    status, out, _ = run("sample", str(path), "--after", "9", "-n", "10001", "--seed", "7", "--view", view,
                         "--format", "oneline")
    assert status == 0
    state = PlayState(DEAL[Seat.S], declarer="S", contract="4H")
    for i, c in enumerate(cards[:9]):
        state.play(c)
        if i == 0:
            state.table_dummy(DEAL[Seat.N])
    masks = state.sample_masks(10001, 7, view)
    lines = out.splitlines()
    assert len(lines) == 10001
    for k in (0, 1, 9999, 10000):  # either side of the old batch of 10,000
        assert Deal.from_masks([int(x) for x in masks[k]]) == Deal.from_pbn(lines[k]), k


@pytest.mark.parametrize("argv,fragment", [
    (["odds", "X.pbn"], "cannot read"),
    (["sample", "R", "--after", "99"], "fewer than --after 99"),
    (["sample", "R", "-n", "-3"], "invalid -n -3"),
])
def test_cli_bad_input(tmp_path: Path, argv: list[str], fragment: str) -> None:
    path, _ = record_file(tmp_path)
    argv = [str(path) if a == "R" else str(tmp_path / a) if a.endswith(".pbn") else a for a in argv]
    status, out, err = run(*argv)
    assert status == 2 and out == "" and fragment in err


def test_cli_from_a_scenario_and_another_viewer(tmp_path: Path) -> None:
    scenario = str(ROOT / "scenarios/seed/08-10-declaring-side-and-trick-one.toml")
    status, out, _ = run("odds", scenario, "--after", "2", "--json")
    assert status == 0 and int(json.loads(out)["layouts"]) > 0
    status, out, err = run("sample", scenario, "--after", "99")
    assert status == 2 and out == "" and "fewer than --after 99" in err
    path, _ = record_file(tmp_path)
    status, out, _ = run("odds", str(path), "--after", "4", "--seat", "E", "--json")
    assert status == 0 and set(json.loads(out)["hcp"]) == {"W", "S"}  # East's view: dummy seen, W and S concealed


@pytest.mark.parametrize("argv", [["deal", "hcp(north) >= 20", "-n", "3"],
                                  ["sample", str(ROOT / "scenarios" / "records" / "example.pbn"), "-n", "3"]])
def test_a_fresh_seed_is_shown_and_draws_the_same_again(argv: list[str]) -> None:
    """Without --seed the PBN header shows the seed drawn: given back, it draws the same deals."""
    status, out, _ = run(*argv)
    found = re.search(r"^% seed: (\d+)$", out, flags=re.M)
    assert status == 0 and found is not None
    status, again, _ = run(*argv, "--seed", found.group(1))
    deals = re.findall(r'\[Deal "([^"]+)"\]', out)
    assert status == 0 and len(deals) == 3 and re.findall(r'\[Deal "([^"]+)"\]', again) == deals
