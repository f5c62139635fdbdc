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
    for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        assert module.__doc__, module.__name__
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                assert getattr(obj, "__doc__", None), f"{module.__name__}.{name} has no docstring"


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    """Both packages type-check under ``mypy --strict`` (the settings in pyproject.toml)."""
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra")
    out, err, status = api.run(["--strict", "--no-incremental", "--config-file", str(ROOT / "pyproject.toml"),
                                str(ROOT / "dealer"), str(ROOT / "inference")])
    assert status == 0, out + err


def _module_imports(package: str) -> dict[str, set[str]]:
    """Every module of ``package`` -> the modules of both packages it imports, at any level of the file
    (function-level and type-checking imports included: a cycle hidden inside a function is still one)."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        here = name.split(".") if rel.name == "__init__" else name.split(".")[:-1]
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                targets = [module] + [f"{module}.{a.name}" for a in node.names]
            else:
                continue
            out.update(t for t in targets if t.split(".")[0] in ("dealer", "inference"))
        graph[name] = out
    return graph


def test_no_import_cycles_between_modules() -> None:
    """No module reaches itself through imports (package __init__ re-exports aside)."""
    import networkx as nx

    graph = {**_module_imports("dealer"), **_module_imports("inference")}
    g = nx.DiGraph()
    for module, targets in graph.items():
        for t in targets:
            while t not in graph and "." in t:
                t = t.rsplit(".", 1)[0]
            if t in graph and t != module and not t.endswith("__init__") and t not in ("dealer", "inference"):
                g.add_edge(module, t)
    cycles = list(nx.simple_cycles(g))
    assert not cycles, cycles[:5]


#: Each package's layers, lowest first: a module imports only from its own layer or those below (the package's
#: top-level modules lie below them all: dealer's errors, checks, arrays, rng and budget; inference's errors and
#: distributed). docs/architecture.rst draws them.
LAYERS = {
    "dealer": ("cards", "lang", "spec", "tables", "run"),
    "inference": ("rules", "claims", "exact", "io", "auction", "defence", "state", "apps", "commands"),
}


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_only_go_down_the_layers(package: str) -> None:
    graph = _module_imports(package)
    rank = {layer: i for i, layer in enumerate(LAYERS[package])}
    on_disk = {p.name for p in (ROOT / package).iterdir() if (p / "__init__.py").is_file()}
    assert on_disk == set(LAYERS[package]), on_disk

    def layer(module: str) -> int:
        parts = module.split(".")
        if parts[0] != package:
            return -2  # the other package: inference stands on dealer (and dealer never imports inference)
        return rank.get(parts[1], -1) if len(parts) > 1 else -1  # -1: a top-level module

    for module, targets in graph.items():
        if module == package:
            continue  # the package's __init__ re-exports (its heavy names imported on first use)
        for target in targets:
            assert layer(target) <= layer(module), f"{module} imports {target}, a layer above it"


def test_no_private_name_is_imported_across_modules() -> None:
    for package in ("dealer", "inference"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                    private = [a.name for a in node.names if a.name.startswith("_")]
                    assert not private, f"{path.relative_to(ROOT)} imports {private} from {node.module}"


def test_modules_stay_small() -> None:
    """A module is one concept: none grows past about 600 lines."""
    for package in ("dealer", "inference"):
        for path in (ROOT / package).rglob("*.py"):
            lines = len(path.read_text().splitlines())
            assert lines <= 620, f"{path.relative_to(ROOT)} has {lines} lines"


def test_functions_stay_short() -> None:
    """No function is over 80 lines (the house habit): each says one thing."""
    for package in ("dealer", "inference"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    assert lines <= 80, f"{path.relative_to(ROOT)}:{node.lineno} {node.name} has {lines} lines"
