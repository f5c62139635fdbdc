"""Every scenario file is a test; malformed scenario files are reported with file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.errors import ScenarioError
from inference.apps.scenario import parse_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.toml"))


def test_there_are_seed_scenarios() -> None:
    names = {p.name for p in SCENARIOS}
    assert {"02-07-five-card-ending.toml", "08-10-declaring-side-and-trick-one.toml", "16-hcp-bounds.toml"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenario_expectations_hold(path: Path) -> None:
    run = run_scenario(path)
    assert run.checks, "a scenario must expect something"
    assert run.ok, "\n".join(f"after {c.after}: {c.what}: {c.detail}" for c in run.failures())


GOOD = '''title = "t"
declarer = "S"
contract = "3NT"
play = """
SK S2 H5 SA
"""

[hands]
S = "A.A432.A432.A432"
N = "2.KJT.KJT9.KJT98"

[[expect]]
after = "1.3"
bounds.E = { S = 0 }
'''


@pytest.mark.parametrize("mutate,fragment", [
    (lambda t: t.replace('contract = "3NT"', 'contract = "3NT'), "invalid TOML"),
    (lambda t: t.replace('S = "A.A432.A432.A432"', 'Q = "A.A432.A432.A432"'), "line 9, field hands"),
    (lambda t: t.replace('declarer = "S"', 'declarer = "Z"'), "line 2, field declarer"),
    (lambda t: t.replace('after = "1.3"', 'after = "never"'), "line 13, field expect.0.after"),
    (lambda t: t.replace("bounds.E = { S = 0 }", 'bounds.E = { S = "lots" }'), "line 14, field expect.0.bounds"),
    (lambda t: t.replace('title = "t"', 'title = "t"\ncolour = "red"'), "field colour"),
])
def test_parse_errors_name_line_and_field(mutate: object, fragment: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(mutate(GOOD), "my.toml")  # type: ignore[operator]
    assert str(info.value).startswith("my.toml") and fragment in str(info.value), str(info.value)


def test_illegal_card_in_play_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("SK S2 H5 SA", "SK S2\nH5 CA"))
    with pytest.raises(ScenarioError) as info:
        run_scenario(bad)
    text = str(info.value)
    assert "bad.toml, line 6, field play (card 4, 'CA')" in text and "not south's" not in text


def test_bad_hand_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace('S = "A.A432.A432.A432"', 'S = "A.A432.A432.A43Z"'))
    with pytest.raises(ScenarioError, match=r"bad.toml, line 9, field hands.S"):
        run_scenario(bad)


def test_failed_expectation_is_reported(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(GOOD.replace("bounds.E = { S = 0 }", "bounds.E = { S = 3 }"))
    run = run_scenario(wrong)
    assert not run.ok and run.failures()[0].detail == "got [0, 0]"
