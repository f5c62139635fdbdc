"""``kibitz number``: deal <-> number on the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings

from dealer import D, Deal, number_to_deal
from tests.inference.commands.helpers import run
from tests.strategies import deal_numbers, examples


@settings(max_examples=examples(25))
@given(deal_numbers())
def test_number_round_trip(number: int) -> None:
    status, out, _ = run("number", str(number))
    assert status == 0
    deal = Deal.from_pbn(out.strip())
    assert deal == number_to_deal(number)
    status, out, _ = run("number", deal.to_pbn("W"))
    assert status == 0 and int(out) == number


@pytest.mark.parametrize("arg,fragment", [
    (str(D), "out of range"),
    ("-1", "out of range"),
    ("N:AKQJ.AKQ.AKQ.AKQ - - -", "incomplete deal"),
    ("N:AKQJ.AKQ.AKQ.AKQ", "expected 4 hands"),
    ("hello", "invalid PBN deal 'hello'"),
])
def test_bad_input_exit_2(arg: str, fragment: str) -> None:
    status, out, err = run("number", arg)
    assert status == 2
    assert out == ""
    assert err.startswith("kibitz: error:") and fragment in err


def test_console_script_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "inference.commands", "--help"], capture_output=True, text=True,
                          check=True)
    assert "number" in proc.stdout


def test_several_items_checked_before_any_is_printed() -> None:
    status, out, err = run("number", "0", "hello")
    assert status == 2 and out == "" and "invalid PBN deal 'hello'" in err
    status, out, _ = run("number", "0", str(D - 1), "--first", "W")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2 and all(line.startswith("W:") for line in lines)
    assert Deal.from_pbn(lines[1]) == number_to_deal(D - 1)
