"""What the shared options select: a spec (``SPEC``/``-f``), records (``FILE --board --record``), a play state.

Each function raises the engine's errors (:class:`~dealer.DealerError`,
:class:`~inference.errors.InferenceError`) with a message naming the file and the record; the
``kibitz`` dispatcher prints them as one line. Heavy modules are imported by the functions, not
by this module, so that declaring a command stays cheap.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from dealer import DealerError, Seat

from ..errors import InvalidArgumentError, RecordError

if TYPE_CHECKING:
    from dealer.language import Script

    from ..play import PlayState
    from ..records import PlayRecord

__all__ = ["load_script", "read_spec_text", "looks_like_path", "select_records", "record_index", "state_after"]


def looks_like_path(text: str) -> bool:
    """True when ``text`` reads as a file name (``scripts/1nt.dl``) rather than a spec (``hcp(north) > 10``)."""
    return bool(re.fullmatch(r"[\w./\\~:-]+", text.strip())) and bool(re.search(r"[/\\]|\.\w+$", text.strip()))


def read_spec_text(spec: str | None, spec_file: str | None) -> tuple[str, str]:
    """The text of a spec given inline or as a file (``-f``), and its source name for messages.

    An existing path given inline is read; one that looks like a path but does not exist is a
    :class:`~dealer.MissingFileError`, not a spec to parse.
    """
    from dealer import MissingFileError

    if spec_file is None and spec is not None and (os.path.isfile(spec) or looks_like_path(spec)):
        spec_file = spec
    if spec_file is not None:
        try:
            with open(spec_file, encoding="utf-8") as fh:
                return fh.read(), spec_file
        except FileNotFoundError:
            raise MissingFileError(f"cannot read spec file {spec_file!r}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise MissingFileError(f"cannot read spec file {spec_file!r}: {getattr(exc, 'strerror', None) or exc}") \
                from None
    if spec is None:
        raise DealerError("no spec given: pass it as an argument or with -f FILE")
    return spec, "<spec>"


def load_script(spec: str | None, spec_file: str | None) -> Script:
    """A spec given inline, or as a file (``-f``); an existing path given inline is read too."""
    from dealer.language import parse_script

    text, source = read_spec_text(spec, spec_file)
    return parse_script(text, source=source)


def record_index(message: str) -> int | None:
    """The record number a :class:`~inference.errors.RecordError` message names (``(record K``), if any."""
    m = re.search(r"\(record (\d+)", message)
    return int(m.group(1)) if m else None


def select_records(path: str, board: str | None = None, record: int | None = None) -> list[PlayRecord]:
    """The replayable records of ``path`` that ``--board``/``--record`` pick (every one when neither is given).

    With a board or a record, the first match only; a malformed or unplayable record that was asked for
    is an error, and so is finding nothing (the message counts the malformed records skipped).
    """
    from ..records import Skipped, read_records

    chosen: list[PlayRecord] = []
    problems: list[str] = []
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
        what = f"board {board}" if board is not None else f"record {record}" if record is not None else "any record"
        more = f"; {len(problems)} malformed records, first: {problems[0]}" if problems else ""
        raise RecordError(f"{path}: no replayable play for {what}{more}")
    return chosen


def state_after(path: str, board: str | None, record: int | None, after: int, seat: str | None) -> PlayState:
    """The play state after ``after`` cards of a record (or scenario), dummy visible, from ``seat``'s view."""
    if after < 0:
        raise InvalidArgumentError(f"invalid --after {after}: expected a number of cards >= 0")
    if Path(path).suffix.lower() == ".toml":
        return _scenario_state_after(path, after)
    from ..play import PlayState

    rec = select_records(path, board, record)[0]
    if after > len(rec.play):
        raise InvalidArgumentError(f"{rec.label}: only {len(rec.play)} cards were played, fewer than --after {after}")
    view = Seat.parse(seat) if seat else rec.declarer
    state = PlayState(rec.deal[view], declarer=rec.declarer, contract=rec.contract, viewer=view)
    dummy = rec.declarer.partner
    if after == 0 and dummy != view:
        state.table_dummy(rec.deal[dummy], early=True)
    for i, card in enumerate(rec.play[:after]):
        state.play(card)
        if i == 0 and dummy != view:
            state.table_dummy(rec.deal[dummy])
    return state


def _scenario_state_after(path: str, after: int) -> PlayState:
    from ..scenario import add_entry, by_after, load_scenario, scenario_events

    scenario = load_scenario(path)
    text = Path(path).read_text(encoding="utf-8")
    adds = by_after([*scenario.inference, *scenario.lead])
    has_dummy = scenario.declarer.partner in scenario.hands and scenario.declarer.partner != (
        scenario.viewer if scenario.viewer is not None else scenario.declarer)
    played = 0
    for label, st, update in scenario_events(scenario, path, text):
        for entry in adds.get(label, []):
            add_entry(entry, st, path, text)
        if update is not None and update.card is not None:
            played += 1
        if played > after:
            raise AssertionError("unreachable")  # pragma: no cover
        if played == after and (st.snapshot.dummy_tabled or not has_dummy or after == 0):
            if not (after == 0 and scenario.dummy_first and not st.snapshot.dummy_tabled):
                return st
    raise InvalidArgumentError(f"{path}: the scenario plays {played} cards, fewer than --after {after}")
