"""The ``kibitz`` dispatcher: its commands, cheap start-up (no heavy import for ``--help`` or ``number``), errors."""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import inference.commands
from inference.commands import build_parser
from tests.inference.commands.helpers import run

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("numpy", "scipy", "pydantic", "networkx", "tqdm", "constraint", "inference.state.play", "inference.exact.layouts",
         "dealer.tables.exact", "dealer.tables.engine")
COMMANDS = {"number", "count", "deal", "dealer", "stats", "replay", "sample", "odds", "serve", "play", "view",
            "rules", "defence", "likelihood"}


def imported_by(code: str) -> list[str]:
    """The heavy modules a fresh interpreter has imported after running ``code``."""
    probe = code + f"\nimport sys, json\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True,
                          timeout=120)
    result: list[str] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_parser_and_help_import_nothing_heavy() -> None:
    code = ("import contextlib, io\nfrom inference.commands import build_parser, main\nbuild_parser()\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    for argv in (['--help'], ['serve', '--help'], ['play', '--help'], ['stats', '--help']):\n"
            "        try:\n            main(argv)\n        except SystemExit:\n            pass")
    assert imported_by(code) == []


def test_number_imports_nothing_heavy() -> None:
    code = ("import contextlib, io\nfrom inference.commands import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['number', '0']) == 0")
    assert imported_by(code) == []


def test_the_probe_sees_heavy_imports() -> None:
    """The start-up tests could fail: running a command that needs the engine shows it imported."""
    code = ("import contextlib, io\nfrom inference.commands import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['count', 'hcp(north) >= 20']) == 0")
    assert {"numpy", "dealer.tables.exact"} <= set(imported_by(code))


def test_every_command_is_registered() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == COMMANDS
    for name, p in sub.choices.items():
        assert callable(p.get_default("handler")), name


def test_python_dash_m_runs_the_command() -> None:
    proc = subprocess.run([sys.executable, "-m", "inference.commands", "number", "0"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("N:AKQJ.AKQ.AKQ.AKQ ")
    proc = subprocess.run([sys.executable, "-m", "inference.commands", "count", "-f", "/no/such.dl"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("kibitz: error: cannot read spec file")


@pytest.mark.parametrize("argv", [
    ["number", "hello"],
    ["count", "-f", "/no/such.dl"],
    ["deal", "hcp(north) > 3", "-n", "-1"],
    ["sample", "/no/such.pbn"],
    ["replay", "/no/such.pbn"],
    ["odds", "/no/such.pbn"],
    ["play", "/no/such.pbn"],
    ["stats", "/no/such.pbn"],
])
def test_errors_are_one_line_and_exit_2(argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.startswith("kibitz: error: ") and err.count("\n") == 1


def test_command_modules_are_documented() -> None:
    """Every module of the package has a docstring, an ``__all__``, and documents each public name."""
    for info in pkgutil.iter_modules(inference.commands.__path__):
        module = importlib.import_module(f"inference.commands.{info.name}")
        assert module.__doc__ and hasattr(module, "__all__"), module.__name__
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                assert obj.__doc__, f"{module.__name__}.{name}"
    assert inference.commands.__all__ == ["build_parser", "main"]


@pytest.mark.parametrize("preset", [None, "1"])
def test_numpy_is_not_asked_for_huge_pages_unless_the_caller_chose(preset: str | None) -> None:
    """kibitz turns numpy's transparent-huge-page advice off before numpy loads (steadier setups), but
    leaves a value the caller set."""
    code = (
        "from inference.commands import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['count', 'hcp(north) >= 30'])\n"
        "import numpy\n"
        "print(numpy._core.multiarray._get_madvise_hugepage())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if preset is not None:
        env["NUMPY_MADVISE_HUGEPAGE"] = preset
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                          env=env)
    assert proc.stdout.strip() == ("False" if preset is None else "True")
