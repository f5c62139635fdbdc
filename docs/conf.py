"""Sphinx configuration of Kibitz's documentation.

Plain Sphinx, the built-in alabaster theme, no network at build time. The API
pages are written here, at every build, by walking the packages ``dealer``
and ``inference`` with :mod:`pkgutil`: one ``automodule`` page per module, so
a module that is added or renamed appears without editing the docs. The
``kibitz`` command's reference is written the same way, from the argument
parser of the installed entry point (``[project.scripts]`` in pyproject.toml).

Build: ``python -m sphinx -b html docs docs/_build/html`` (``tests/test_docs.py``
builds into a temporary folder and fails on a warning from these pages).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import pkgutil
import sys
import tomllib
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

project = "Kibitz"
author = "the Kibitz authors"
copyright = "2026, the Kibitz authors"
release = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
]
root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
html_theme = "alabaster"
html_static_path: list[str] = []
html_theme_options = {"description": "exact play-time inference for bridge", "page_width": "1180px"}
highlight_language = "none"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "signature"
# optional extras (kibitz[bot], kibitz[plot]): the docs build without them
autodoc_mock_imports = ["endplay", "matplotlib"]
napoleon_google_docstring = True
napoleon_numpy_docstring = False

PACKAGES = ("dealer", "inference")
API = DOCS / "api"  # generated; ignored by git
CLI_HELP = DOCS / "_generated" / "cli_help.rst"  # generated; ignored by git


def _write(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it (keeps incremental builds incremental)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def discover_modules() -> dict[str, bool]:
    """Every module and subpackage of the two packages (name -> is a package); ``__main__`` left out.

    Only the packages are imported here; a module that fails to import is reported by autodoc, on
    its own page, as a warning (which ``tests/test_docs.py`` turns into a failure).
    """
    found: dict[str, bool] = {}
    for package in PACKAGES:
        pkg = importlib.import_module(package)
        found[package] = True
        for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
            if info.name.rsplit(".", 1)[-1] != "__main__":
                found[info.name] = info.ispkg
    return dict(sorted(found.items()))


def write_api_stubs() -> list[str]:
    """One page per module under ``docs/api/``; stale pages of vanished modules are removed."""
    modules = discover_modules()
    wanted = set()
    for name, is_package in modules.items():
        title = f"``{name}``"
        lines = [title, "=" * len(title), "", f".. automodule:: {name}"]
        if is_package:
            # a package re-exports its modules' names: document them where they are defined
            lines += ["   :no-members:", "", "Modules:", "", ".. toctree::", "   :maxdepth: 1", ""]
            lines += [f"   {sub}" for sub in modules if sub.rpartition(".")[0] == name]
        lines.append("")
        path = API / f"{name}.rst"
        wanted.add(path)
        _write(path, "\n".join(lines))
    if API.is_dir():
        for stale in API.glob("*.rst"):
            if stale not in wanted:
                stale.unlink()
    return list(modules)


def kibitz_parser() -> argparse.ArgumentParser:
    """The argument parser behind the ``kibitz`` entry point named in pyproject.toml.

    Uses the entry point's module's ``build_parser()`` if it has one; otherwise
    runs its ``main([])`` and catches the parser it builds.
    """
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["kibitz"]
    module_name, _, func = target.partition(":")
    module = importlib.import_module(module_name)
    build = getattr(module, "build_parser", None)
    if callable(build):
        parser = build()
        assert isinstance(parser, argparse.ArgumentParser)
        return parser

    class Caught(Exception):
        pass

    original = argparse.ArgumentParser.parse_args

    def catch(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise Caught(self)

    argparse.ArgumentParser.parse_args = catch  # type: ignore[method-assign,assignment]
    try:
        getattr(module, func)([])
    except Caught as caught:
        found = caught.args[0]
        assert isinstance(found, argparse.ArgumentParser)
        return found
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    raise RuntimeError(f"cannot find the argument parser of {target}")


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """``kibitz``'s subcommands, in the order they are registered."""
    for action in parser._actions:  # argparse has no public accessor for subparsers
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def write_cli_help() -> list[str]:
    """``docs/_generated/cli_help.rst``: ``kibitz --help`` and every subcommand's ``--help``, verbatim."""
    os.environ["COLUMNS"] = "100"  # argparse wraps help to the terminal: fix the width
    parser = kibitz_parser()
    commands = subcommands(parser)
    out = [".. This file is written by docs/conf.py at every build; do not edit.", ""]

    def block(title: str, p: argparse.ArgumentParser, label: str) -> None:
        with contextlib.redirect_stdout(io.StringIO()) as text:
            p.print_help()
        out.extend([f".. _{label}:", "", title, "~" * len(title), "", ".. code-block:: text", ""])
        out.extend(("   " + line).rstrip() for line in text.getvalue().splitlines())
        out.append("")

    block("kibitz", parser, "help-kibitz")
    for name, sub in commands.items():
        block(f"kibitz {name}", sub, f"help-{name}")
    _write(CLI_HELP, "\n".join(out))
    return list(commands)


def plain_outside_types(app: object, doctree: object) -> None:
    """Signatures' types from outside the packages (``int``, ``numpy.ndarray``, ``typing.Any``) as plain text:
    with no intersphinx (no network at build) nothing here can resolve them, and each would cost Sphinx a
    search through every object of the packages (a fifth of the build)."""
    from sphinx import addnodes

    for node in list(doctree.findall(addnodes.pending_xref)):  # type: ignore[attr-defined]
        target = node.get("reftarget", "")
        if node.get("refdomain") == "py" and _outside(target):
            node.replace_self(node.children)


def _outside(target: str) -> bool:
    """Whether a Python reference names a builtin or an object of a module outside the packages."""
    import builtins

    head = target.split(".")[0]
    if "." not in target:
        return hasattr(builtins, target) or target == "None"
    return head not in PACKAGES and head in sys.modules


def setup(app: object) -> None:
    """Write the generated pages before Sphinx reads the sources; external types as text."""
    write_api_stubs()
    write_cli_help()
    app.connect("doctree-read", plain_outside_types)  # type: ignore[attr-defined]
