"""The documentation builds cleanly, and every example in README.md and docs/ runs as written.

* The Sphinx build (``docs/``, into a temporary folder) must finish without errors, and without
  warnings from the hand-written pages; warnings from module docstrings are reported as pytest
  warnings, not failures (the docstrings belong to the packages' owners).
* Code blocks (```` ```lang ```` in Markdown, ``.. code-block:: lang`` in reStructuredText):

  - ``python``: executed; the blocks of one page share one namespace, in order, so a later block
    may use what an earlier one defined;
  - ``sh``/``bash``/``shell``: every command that runs ``kibitz`` (also ``.venv/bin/kibitz`` after
    ``&&``, and ``... | kibitz ...``) is run by bash, with ``kibitz`` being this checkout's entry
    point, in a scratch folder where ``scenarios/`` is the project's; the lines of one page share
    the folder, in order (a file one writes, the next may read). It must exit with status 0. Other
    commands (installing, benchmarks) are not run;
  - anything else (``text``, ``json``, ``toml``, ``console``, ...): output or data, not run.

  A line (or a Python block) containing ``docs-test: skip`` is not run: use it for commands that
  take minutes or need what CI does not have. Examples that need the ``bot`` extra (endplay) are
  skipped without it.
* The language reference's table (``docs/language.rst``) says which parser accepts each form;
  each row's example is checked against the parsers.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
import tomllib
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
SKIP = "docs-test: skip"
README_MAX_BYTES = 10 * 1024
PYTHON = {"python", "py", "python3"}
SHELL = {"sh", "bash", "shell"}
HAS_ENDPLAY = importlib.util.find_spec("endplay") is not None

pytestmark = pytest.mark.docs


def pages() -> list[Path]:
    """README.md and the hand-written pages of docs/ (not the generated API pages or help)."""
    generated = {DOCS / "api", DOCS / "_generated", DOCS / "_build"}
    found = [p for p in sorted(DOCS.rglob("*.rst")) if not any(g in p.parents for g in generated)]
    return [README, *found]


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the first line of code
    lang: str
    code: str

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The page's code blocks, in order."""
    text = page.read_text()
    out: list[Block] = []
    if page.suffix == ".md":
        for m in re.finditer(r"^```([\w+-]*)[ \t]*\n(.*?)^```", text, re.M | re.S):
            line = text.count("\n", 0, m.start(2)) + 1
            out.append(Block(page, line, m.group(1).lower(), m.group(2)))
        return out
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)\.\. (?:code-block|code|sourcecode)::\s*(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group(1))
        i += 1
        while i < len(lines) and re.match(r"^\s+:[\w-]+:", lines[i]):  # directive options
            i += 1
        body: list[str] = []
        start = i + 1
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i])
            i += 1
        while body and not body[0].strip():
            body.pop(0)
            start += 1
        out.append(Block(page, start, (m.group(2) or "text").lower(), textwrap.dedent("\n".join(body)).strip("\n") + "\n"))
    return out


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


PAGES = pages()


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder where ``scenarios/`` is the project's; examples run from it."""
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- Python examples ---------------------------------------------------------------------------

@pytest.mark.parametrize("page", [p for p in PAGES if any(b.lang in PYTHON for b in blocks(p))], ids=page_id)
def test_python_examples_run(page: Path, scratch: Path) -> None:
    namespace: dict[str, object] = {"__name__": "__docs__"}
    skipped = []
    for block in blocks(page):
        if block.lang not in PYTHON:
            continue
        if SKIP in block.code or ("inference.apps.bot" in block.code and not HAS_ENDPLAY):
            skipped.append(block.where())
            continue
        try:
            exec(compile(block.code, block.where(), "exec"), namespace)  # noqa: S102 - our own documentation
        except Exception as exc:
            raise AssertionError(f"the example at {block.where()} fails: {type(exc).__name__}: {exc}") from exc
    if skipped:
        pytest.skip(f"not run: {', '.join(skipped)} (marked '{SKIP}', or needs the bot extra)")


def test_readme_has_examples() -> None:
    assert sum(b.lang in PYTHON for b in blocks(README)) >= 3


# -- shell examples ----------------------------------------------------------------------------

def kibitz_function() -> str:
    """A bash function ``kibitz`` that runs this checkout's entry point (from pyproject.toml)."""
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["kibitz"]
    module, _, func = target.partition(":")
    code = f"import sys; from {module} import {func}; sys.exit({func}())"
    return f'kibitz() {{ "{sys.executable}" -c "{code}" "$@"; }}'


def split_and(line: str) -> list[str]:
    """``a && b`` -> ``[a, b]``, leaving ``&&`` inside quotes alone."""
    parts, current, quote, i = [], "", "", 0
    while i < len(line):
        ch = line[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif line.startswith("&&", i):
            parts.append(current.strip())
            current, i = "", i + 2
            continue
        current += ch
        i += 1
    return [*parts, current.strip()]


def shell_commands(block: Block) -> list[tuple[str, str]]:
    """The ``kibitz`` commands of a shell block, as (where, command); skipped ones have command ''."""
    out = []
    text = block.code.replace("\\\n", " ")
    for k, line in enumerate(text.splitlines()):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{block.page.relative_to(ROOT)}:{block.line + k}"
        for segment in split_and(stripped):
            if not re.search(r"(^|\|\s*)(\S*/)?kibitz(\s|$)", segment):
                continue  # installing, benchmarks: not run
            if SKIP in line or (re.search(r"kibitz\s+play\b", segment) and not HAS_ENDPLAY):
                out.append((where, ""))
                continue
            out.append((where, re.sub(r"(^|\|\s*)\S*/kibitz(\s|$)", r"\1kibitz\2", segment)))
    return out


def _repeated_elsewhere() -> set[str]:
    """The places of the commands that an earlier place already runs, word for word, when they read only the
    repository's files (no redirection, no pipe, no file but under ``scenarios/``): run once, not again."""
    first: dict[str, str] = {}
    again: set[str] = set()
    for page in PAGES:
        for block in blocks(page):
            if block.lang not in SHELL:
                continue
            for where, command in shell_commands(block):
                files = [w for w in shlex.split(command)[2:] if " " not in w and ("/" in w or "." in w)] if command \
                    else []  # words that may name a file (a condition in quotes has spaces; a number neither)
                pure = bool(command) and not set("<>|;") & set(command) and all(
                    f.startswith("scenarios/") for f in files)
                if pure and command in first:
                    again.add(where)
                elif pure:
                    first[command] = where
    return again


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in PAGES if any(b.lang in SHELL for b in blocks(p))], ids=page_id)
def test_shell_examples_run(page: Path, scratch: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    env.pop("COLUMNS", None)
    prelude = f"set -o pipefail\n{kibitz_function()}\n"
    ran, skipped = 0, []
    repeated = _repeated_elsewhere()
    for block in blocks(page):
        if block.lang not in SHELL:
            continue
        for where, command in shell_commands(block):
            if not command or where in repeated:
                skipped.append(where)
                continue
            result = subprocess.run(["bash", "-c", prelude + command], cwd=scratch, env=env,
                                    capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
            assert result.returncode == 0, (f"{where}: `{command}` exited with {result.returncode}\n"
                                            f"{result.stderr[-2000:]}")
            ran += 1
    if not ran and skipped:
        pytest.skip(f"not run: {', '.join(skipped)}")


# -- the language reference ---------------------------------------------------------------------

def list_table(page: Path, name: str) -> list[list[str]]:
    """The rows (lists of cells' text) of the ``.. list-table::`` with ``:name: name``."""
    text = page.read_text()
    starts = [mm for mm in re.finditer(r"^\.\. list-table::.*\n((?:   :[\w-]+:.*\n)*)", text, re.M)
              if f":name: {name}\n" in mm.group(1)]
    assert len(starts) == 1, f"no list-table named {name} in {page}"
    body = text[starts[0].end():]
    rows: list[list[str]] = []
    for line in body.splitlines():
        if line.strip() and not line.startswith("   "):
            break
        if line.startswith("   * - "):
            rows.append([line[7:].strip()])
        elif line.startswith("     - "):
            rows[-1].append(line[7:].strip())
        elif line.strip() and rows:
            rows[-1][-1] += " " + line.strip()
    return rows


def literal(cell: str) -> str:
    m = re.fullmatch(r"``(.*)``", cell.strip())
    assert m, f"the example cell should be one literal: {cell!r}"
    return m.group(1)


def accepts(parse: object, text: str) -> bool:
    try:
        parse(text)  # type: ignore[operator]
    except (ValueError, TypeError):  # every error of both packages is a ValueError
        return False
    return True


def test_language_reference_matches_the_parsers() -> None:
    from dealer.spec.language import parse_spec
    from inference.claims.language import parse_claim

    rows = list_table(DOCS / "language.rst", "language-reference")
    header, rows = rows[0], rows[1:]
    col = {name: header.index(name) for name in ("form", "dealer", "claims", "example")}
    assert len(rows) >= 15
    wrong = []
    for row in rows:
        example = literal(row[col["example"]])
        for column, parse in (("dealer", parse_spec),
                              ("claims", lambda t: parse_claim(t, viewer="S", declarer="S"))):
            documented = row[col[column]].split()[0] == "yes"
            if accepts(parse, example) != documented:
                wrong.append(f"{row[col['form']]}: {column} says {row[col[column]]!r} for {example!r}")
    assert not wrong, "docs/language.rst disagrees with the parsers:\n" + "\n".join(wrong)


# -- README size -----------------------------------------------------------------------------------

def test_readme_is_short_and_points_to_the_docs() -> None:
    text = README.read_text()
    assert len(text.encode()) <= README_MAX_BYTES, f"README.md is {len(text.encode())} bytes; move detail to docs/"
    assert "## Quick start" in text and "docs/" in text
    for page in re.findall(r"docs/[\w/.-]+\.rst", text):
        assert (ROOT / page).is_file(), f"README.md points to {page}, which does not exist"


# -- the Sphinx build ------------------------------------------------------------------------------

@pytest.mark.slow
def test_sphinx_build_is_clean(tmp_path: Path) -> None:
    pytest.importorskip("sphinx", reason="Sphinx is in the test extra")
    # the dummy builder reads every page and resolves every reference as the html builder does, and writes nothing
    out, warnings_file, doctrees = tmp_path / "out", tmp_path / "warnings.txt", tmp_path / "doctrees"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "dummy", "-E", "-q", "--keep-going", "-d", str(doctrees),
         "-w", str(warnings_file), str(DOCS), str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    lines = warnings_file.read_text().splitlines() if warnings_file.is_file() else []
    messages = [line for line in lines if "WARNING" in line or "ERROR" in line or "CRITICAL" in line]
    from_docstrings = [m for m in messages if "docstring of" in m or re.search(r"\.py:\d*:? ", m)]
    ours = [m for m in messages if m not in from_docstrings]
    assert not ours, "Sphinx warnings from the docs pages:\n" + "\n".join(ours)
    for message in from_docstrings:
        warnings.warn(f"Sphinx, in a docstring: {message}", stacklevel=1)
    # every module has its API page (they are generated by docs/conf.py from the packages)
    import pkgutil

    import dealer
    import inference

    for package in (dealer, inference):
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            if not info.name.endswith("__main__"):
                assert (doctrees / "api" / f"{info.name}.doctree").is_file(), f"no API page for {info.name}"
    shutil.rmtree(out, ignore_errors=True)
