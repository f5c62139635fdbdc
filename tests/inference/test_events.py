"""The play state's values and how seats are named: no module below the play state imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dealer import Seat
from inference.state.events import Viewpoint, agree, possessive, relative_name
from inference.rules.lawful import lawful_bounds
from inference.state.render import render_bounds

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file (functions and ``if TYPE_CHECKING:`` included)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


@pytest.mark.parametrize("name", ["state/events", "state/reasons", "state/render", "rules/trick", "state/reexamination",
                                  "claims/arguments"])
def test_values_and_words_never_import_the_play_state(name: str) -> None:
    found = imported_modules(ROOT / "inference" / f"{name}.py")
    assert not {".play", "inference.state.play"} & found, found


def test_play_imports_reasons_at_top_level() -> None:
    tree = ast.parse((ROOT / "inference" / "state" / "play.py").read_text())
    top = {"." * n.level + (n.module or "") for n in tree.body if isinstance(n, ast.ImportFrom)}
    assert {"inference.state.reasons", "inference.state.events", "inference.rules.trick"} <= top
    nested = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and n not in tree.body]
    assert not [ast.unparse(n) for n in nested if "reasons" in ast.unparse(n) or "events" in ast.unparse(n)]


@pytest.mark.parametrize("viewer,declarer,names", [
    (Seat.S, Seat.S, {Seat.N: "dummy", Seat.E: "RHO", Seat.S: "we", Seat.W: "LHO"}),
    (Seat.W, Seat.S, {Seat.N: "LHO", Seat.E: "partner", Seat.S: "RHO", Seat.W: "we"}),
    (Seat.E, Seat.N, {Seat.N: "RHO", Seat.E: "we", Seat.S: "LHO", Seat.W: "partner"}),
    (Seat.N, Seat.S, {Seat.N: "we", Seat.E: "LHO", Seat.S: "declarer", Seat.W: "RHO"}),
])
def test_viewpoint_names_as_relative_name(viewer: Seat, declarer: Seat, names: dict[Seat, str]) -> None:
    view = Viewpoint(viewer, declarer)
    assert {s: view.name(s) for s in Seat} == names == {s: relative_name(s, viewer, declarer) for s in Seat}


def test_render_takes_any_seat_names() -> None:
    """The renderers need only names for the seats, not a play state."""
    bounds = lawful_bounds((Seat.W, Seat.E), ((1 << 26) - 1) << 26, {}, {})
    text = render_bounds(bounds, Viewpoint(Seat.S, Seat.S))
    assert text.startswith("LHO (W)\n") and "\nRHO (E)\n" in text


@pytest.mark.parametrize("subject,verb,form", [
    ("we", "plays", "play"), ("we", "has", "have"), ("we", "is", "are"), ("we", "was", "were"),
    ("we", "shows", "show"), ("we", "holds", "hold"), ("we", "follows", "follow"), ("we", "catches", "catch"),
    ("we", "plays", "play"), ("LHO", "plays", "plays"), ("partner", "has", "has"), ("dummy", "is", "is"),
])
def test_the_verb_agrees_with_we(subject: str, verb: str, form: str) -> None:
    assert agree(subject, verb) == form


def test_possessive() -> None:
    assert [possessive(relative_name(s, Seat.S, Seat.N)) for s in Seat] == ["declarer's", "RHO's", "our", "LHO's"]
