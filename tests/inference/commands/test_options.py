"""The shared options: one meaning per option name, and the mirrored choices equal the engine's."""

from __future__ import annotations

import argparse

from inference.commands import build_parser
from inference.commands.options import DEFAULT_TABLES, FEATURES, FORMATS, VIEWS, agreement_names


def commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_mirrored_choices_equal_the_engines() -> None:
    from dealer.tables.exact import FEATURES as EXACT_FEATURES
    from dealer.cards.pbnio import FORMATS as PBN_FORMATS
    from inference.exact.layouts import VIEWS as LAYOUT_VIEWS
    from inference.state.leads import available_agreements

    from dealer.budget import DEFAULT

    assert (VIEWS, FORMATS, FEATURES, DEFAULT_TABLES) == (LAYOUT_VIEWS, PBN_FORMATS, EXACT_FEATURES, DEFAULT.tables)
    for folder in ("leads", "carding"):
        assert agreement_names(folder) == available_agreements(folder) != []


def test_one_meaning_per_option_name() -> None:
    """An option name has the same action, destination, type and choices in every command that takes it."""
    seen: dict[str, tuple[object, ...]] = {}
    for name, parser in commands().items():
        for action in parser._actions:
            for flag in action.option_strings:
                meaning = (type(action), action.dest, action.type, action.choices)
                if flag in seen:
                    assert meaning == seen[flag][:4], f"{flag} in {name} and {seen[flag][4]}"
                else:
                    seen[flag] = (*meaning, name)
    assert "--hand" in seen and seen["--hand"][4] == "stats"


def test_seat_is_the_viewer_wherever_it_appears() -> None:
    with_seat = {name for name, p in commands().items() if any("--seat" in a.option_strings for a in p._actions)}
    assert with_seat == {"replay", "sample", "odds", "view"}
    for name in with_seat:
        action = next(a for a in commands()[name]._actions if "--seat" in a.option_strings)
        assert action.help is not None and "viewer" in action.help and action.default is None


def test_seat_picks_the_viewer_in_odds() -> None:
    parser = build_parser()
    args = parser.parse_args(["odds", "f.pbn", "--seat", "E", "--board", "3", "--after", "4", "--view", "agreement"])
    assert (args.file, args.seat, args.board, args.after, args.view, args.record) == ("f.pbn", "E", "3", 4,
                                                                                       "agreement", None)
    args = parser.parse_args(["stats", "f.pbn", "--hand", "E", "--hand", "W"])
    assert args.hand == ["E", "W"] and not hasattr(args, "seat")
