"""``kibitz number``: deal <-> number on the command line."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

import pytest
from hypothesis import given, settings

from dealer import D, Deal, number_to_deal
from inference.cli import main
from tests.strategies import deal_numbers


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


@settings(max_examples=25)
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
    proc = subprocess.run([sys.executable, "-m", "inference.cli", "--help"], capture_output=True, text=True,
                          check=True)
    assert "number" in proc.stdout
