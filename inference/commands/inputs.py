"""What the shared options select: a spec (``SPEC``/``-f``), records (``FILE --board --record``), a play state.

Each function raises the engine's errors (:class:`~dealer.DealerError`,
:class:`~inference.errors.InferenceError`) with a message naming the file and the record; the
``kibitz`` dispatcher prints them as one line. Heavy modules are imported by the functions, not
by this module, so that declaring a command stays cheap.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from dealer.errors import InvalidFileError
from dealer.checks import read_text, shown

from inference.errors import InvalidArgumentError, RecordError

if TYPE_CHECKING:
    from inference.auction.likelihood import Likelihood
    from dealer.lang.statements import ScriptSyntax

    from inference.state.play import PlayState
    from inference.io.records import PlayRecord

__all__ = ["read_spec_text", "first_record", "select_records", "record_index", "refuse_record_options", "record_state_after",
           "state_after"]


def read_spec_text(spec: str | None, spec_file: str | None) -> tuple[str, str]:
    """The text of a spec given inline or as a file (``-f``), and its source name for messages.

    An existing path given inline is read; one that looks like a path but does not exist is an
    error saying so, not a spec to parse.
    """
    if spec_file is not None:
        return read_text(spec_file, "spec file", InvalidFileError), spec_file
    if spec is None:
        raise InvalidArgumentError("no spec given: pass it as an argument or with -f FILE")
    if spec == "-":  # as dealer: the script on standard input
        import sys

        return sys.stdin.read(), "<stdin>"
    if os.path.isfile(spec):
        return read_spec_text(None, spec)
    if os.path.isdir(spec):
        raise InvalidArgumentError(f"cannot read spec file {shown(spec, 80)}: it is a folder")
    if _looks_like_a_path(spec):
        raise InvalidArgumentError(f"cannot read spec file {shown(spec, 80)}: no such file (a spec inline needs a "
                                   "function such as hcp(north))")
    return spec, "<spec>"


def read_statements(spec: str | None, spec_file: str | None) -> "tuple[ScriptSyntax, str, str]":
    """A spec or ``dealer`` script (inline or a file), parsed; returns it, its text and its source name. As in ``dealer``,
    a later condition replaces an earlier one: each replaced condition gets a note on standard error
    (joining them with ``&&`` keeps both)."""
    text, source = read_spec_text(spec, spec_file)
    return parse_statements_noted(text, source), text, source


def parse_statements_noted(text: str, source: str) -> "ScriptSyntax":
    """A ``dealer`` script's text, parsed, with a note on standard error for each condition a later one replaces."""
    import sys

    from dealer.lang.statements import parse_statements

    script = parse_statements(text, source=source)
    for cond in script.replaced:
        sys.stderr.write(f"kibitz: note: the condition at {cond.pos.source}:{cond.pos.line} is replaced by a later one, as in dealer "
                         "(join them with && to require both)\n")
    for pos in script.replaced_actions:
        sys.stderr.write(f"kibitz: note: the action at {pos.source}:{pos.line} is replaced by a later one, as in dealer "
                         "(list them in one action statement to do both)\n")
    return script


def _looks_like_a_path(text: str) -> bool:
    """A word with a path separator or a script's file ending, and no call in it: a file the user meant."""
    word = text.strip()
    return (bool(word) and not any(c.isspace() for c in word) and "(" not in word
            and (os.sep in word or word.lower().endswith((".dl", ".dealer", ".txt", ".dlr"))))


def record_index(message: str) -> int | None:
    """The record number a :class:`~inference.errors.RecordError` message names (``(record K``), if any."""
    m = re.search(r"\(record (\d+)", message)
    return int(m.group(1)) if m else None


def first_record(path: str, board: str | None = None, record: int | None = None) -> PlayRecord:
    """The record ``--board``/``--record`` pick, else the file's first with play recorded; a malformed record
    before it is an error (never passed over in silence), which names it."""
    if board is not None or record is not None:
        return select_records(path, board, record)[0]
    from inference.io.records import Skipped, read_records

    for item in read_records(path):
        if isinstance(item, RecordError):
            raise RecordError(f"{item} (choose another record with --board or --record)")
        if not isinstance(item, Skipped):
            return item
    return select_records(path)[0]  # none: its error says so


def select_records(path: str, board: str | None = None, record: int | None = None,
                   problems: list[str] | None = None) -> list[PlayRecord]:
    """The replayable records of ``path`` that ``--board``/``--record`` pick (every one when neither is given).

    With a board or a record, the first match only; a malformed or unplayable record that was asked for
    is an error, and so is finding nothing (the message counts the malformed records skipped). When every
    record is wanted (neither given), the malformed ones passed over are added to ``problems`` if it is given.
    """
    from inference.io.records import Skipped, read_records

    chosen: list[PlayRecord] = []
    every = board is None and record is None
    problems = problems if problems is not None and every else []
    for item in read_records(path, record=record):  # with a record: only that one is parsed
        if isinstance(item, RecordError):
            text = str(item)
            if (record is not None and record_index(text) == record) or (board is not None
                                                                          and f"board {board} " in text):
                raise item
            problems.append(text)
            continue
        if record is not None and item.index != record:
            continue
        if board is not None and item.board != board and item.board.lstrip("oc") != board:
            continue
        if isinstance(item, Skipped):
            if record is not None or board is not None:
                if not chosen:
                    raise RecordError(f"{path}, board {item.board} (record {item.index}): {item.reason}")
            continue
        chosen.append(item)
        if board is not None or record is not None:
            break
    if not chosen:
        what = (f"record {record} as board {board}" if board is not None and record is not None else
                f"board {board}" if board is not None else f"record {record}" if record is not None else "any record")
        more = f"; {len(problems)} malformed records, first: {problems[0]}" if problems else ""
        raise RecordError(f"{path}: no replayable play for {what}{more}")
    return chosen


def refuse_record_options(path: str, board: str | None, record: int | None, seat: str | None) -> None:
    """A scenario file holds one hand seen from its own viewer: ``--board``, ``--record`` and ``--seat`` are refused."""
    given = [name for name, value in (("--board", board), ("--record", record), ("--seat", seat)) if value is not None]
    if given:
        verb = "picks" if len(given) == 1 else "pick"
        raise InvalidArgumentError(f"{' and '.join(given)} {verb} a record of a PBN/LIN file and its viewer; the "
                                   f"scenario {shown(path, 80)} is one hand, seen from the viewer it names")


def state_after(path: str, board: str | None, record: int | None, after: int, seat: str | None,
                book: str | None = None, defence_model: str | None = "default",
                likelihood: "Likelihood | str | None" = "default") -> PlayState:
    """The play state after ``after`` cards of a record (or scenario), dummy visible, from ``seat``'s view;
    with ``book``, the record's auction read with it first (``likelihood`` as ``PlayState.add_auction`` takes
    it); ``defence_model`` as :class:`PlayState` takes it."""
    return record_state_after(path, board, record, after, seat, book, defence_model, likelihood)[1]


def record_state_after(path: str, board: str | None, record: int | None, after: int, seat: str | None,
                       book: str | None = None, defence_model: str | None = "default",
                       likelihood: "Likelihood | str | None" = "default") -> "tuple[PlayRecord | None, PlayState]":
    """:func:`state_after`, and the record it played (None for a scenario)."""
    if after < 0:
        raise InvalidArgumentError(f"invalid --after {after}: expected a number of cards >= 0")
    if os.path.splitext(path)[1].lower() == ".toml":
        refuse_record_options(path, board, record, seat)
        return None, _scenario_state_after(path, after, defence_model, likelihood)
    from inference.auction.population import book_for
    from inference.state.play import PlayState

    rec = first_record(path, board, record)
    if after > len(rec.play):
        raise InvalidArgumentError(f"{rec.label}: only {len(rec.play)} cards were played, fewer than --after {after}")
    from inference.claims.arguments import seat_argument

    view = seat_argument(seat, "--seat") if seat else rec.declarer
    state = PlayState(rec.deal[view], declarer=rec.declarer, contract=rec.contract, viewer=view,
                      defence_model=defence_model)
    if book and rec.calls and rec.dealer is not None:
        state.add_auction(rec.dealer, rec.calls, book=book_for(book, rec.source, rec.players) or book,
                          vulnerability=rec.vulnerable,
                          explanations=rec.explanations, likelihood=likelihood, restore_passes=True)
    dummy = rec.declarer.partner
    if after == 0 and dummy != view:
        state.table_dummy(rec.deal[dummy], early=True)
    for i, card in enumerate(rec.play[:after]):
        state.play(card)
        if i == 0 and dummy != view:
            state.table_dummy(rec.deal[dummy])
    return rec, state


def _scenario_state_after(path: str, after: int, defence_model: str | None = "default",
                          likelihood: "Likelihood | str | None" = "default") -> PlayState:
    from inference.apps.scenario import add_entry, by_after, parse_scenario, read_scenario_text, scenario_events

    text = read_scenario_text(path)
    scenario = parse_scenario(text, path)
    adds = by_after([*scenario.inference, *scenario.lead, *([scenario.auction] if scenario.auction else [])])
    has_dummy = scenario.declarer.partner in scenario.hands and scenario.declarer.partner != (
        scenario.viewer if scenario.viewer is not None else scenario.declarer)
    played = 0
    for label, st, update in scenario_events(scenario, path, text, defence_model):
        for entry in adds.get(label, []):
            add_entry(entry, st, path, text, likelihood)
        if update is not None and update.card is not None:
            played += 1
        if played > after:
            raise AssertionError("unreachable")  # pragma: no cover
        if played == after and (st.snapshot.dummy_tabled or not has_dummy or after == 0):
            if not (after == 0 and scenario.dummy_first and not st.snapshot.dummy_tabled):
                return st
    raise InvalidArgumentError(f"{path}: the scenario plays {played} cards, fewer than --after {after}")
