"""Project invariants: the README quick start is what CI runs; the package boundary holds."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_quick_start_has_two_commands_and_ci_runs_the_second() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci.splitlines()
    assert "kibitz" in commands[0]


def test_quick_start_example_exists() -> None:
    first = quick_start_commands()[0]
    for token in first.split():
        if token.startswith("scenarios/"):
            assert (ROOT / token).is_file(), token


def test_dealer_never_imports_inference() -> None:
    for path in (ROOT / "dealer").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n == "inference" or n.startswith("inference.") for n in names), path


@pytest.mark.parametrize("package", ["dealer", "inference"])
def test_public_names_exist_and_are_documented(package: str) -> None:
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__):
        module = importlib.import_module(f"{package}.{info.name}")
        assert module.__doc__, module.__name__
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                assert getattr(obj, "__doc__", None), f"{module.__name__}.{name} has no docstring"


def test_mypy_strict_is_clean() -> None:
    """Both packages type-check under ``mypy --strict`` (the settings in pyproject.toml)."""
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra")
    out, err, status = api.run(["--strict", "--no-incremental", "--config-file", str(ROOT / "pyproject.toml"),
                                str(ROOT / "dealer"), str(ROOT / "inference")])
    assert status == 0, out + err
