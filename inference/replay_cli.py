"""``kibitz replay``: a scenario file, or a real deal from PBN/LIN, card by card with the bounds it changed."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from dealer import Seat

from .errors import RecordError
from .records import PlayRecord, Skipped, read_records
from .render import bounds_table, render_bounds, render_update
from .replay import replay_record, step_json
from .scenario import run_scenario

__all__ = ["register"]


def _select(path: str, board: str | None, record: int | None) -> list[PlayRecord]:
    chosen: list[PlayRecord] = []
    problems: list[str] = []
    for item in read_records(path):
        if isinstance(item, RecordError):
            text = str(item)
            idx = _index_of(text)
            if (record is not None and idx == record) or (board is not None and f"board {board} " in text):
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


def _index_of(text: str) -> int | None:
    import re

    m = re.search(r"\(record (\d+)", text)
    return int(m.group(1)) if m else None


def _cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    path = args.file
    viewer = Seat.parse(args.seat) if args.seat else None
    if Path(path).suffix.lower() == ".toml":
        return _replay_scenario(path, args, out)
    records = _select(path, args.board, args.record)
    lines: list[str] = []
    for rec in records:
        view = viewer if viewer is not None else rec.declarer
        if not args.json:
            lines.append(f"{rec.label}: {rec.contract} by {rec.declarer.name_long}; viewer {view.name_long}"
                         + (f" ({rec.quirk})" if rec.quirk else ""))
        state = None
        for state, step in replay_record(rec, view):
            if args.json:
                lines.append(json.dumps(step_json(step, rec.board if len(records) > 1 else None)))
                continue
            for update in step.updates:
                lines.append(render_update(update, state))
        if not args.json and state is not None:
            names = [f"{state.name(s)[:5]}" for s in state.bounds().concealed]
            lines.append("bounds at the end:\n" + bounds_table(state.bounds(), names))
            if len(rec.play) < 52:
                lines.append(f"play ends after {len(rec.play)} cards" + (f" (claim: {rec.claim} tricks)"
                                                                         if rec.claim is not None else ""))
    out.write("\n".join(lines) + "\n")
    return 0


def _replay_scenario(path: str, args: argparse.Namespace, out: TextIO) -> int:
    run = run_scenario(path)
    state = run.state
    lines = []
    if args.json:
        for label, update in run.updates:
            if update.card is None:
                continue
            obj = {"trick": update.trick, "seat": update.seat.name if update.seat is not None else None, "card": str(update.card),
                   "event": label, "changes": [c.as_dict() for c in update.changes],
                   "statuses": [sc.as_dict() for sc in update.statuses]}
            lines.append(json.dumps(obj))
    else:
        lines.append(f"{run.scenario.title}  [{path}]")
        for label, update in run.updates:
            lines.append(render_update(update, state))
        lines.append("bounds at the end:")
        lines.append(render_bounds(state.bounds(), state))
        passed = sum(c.ok for c in run.checks)
        lines.append(f"expectations: {passed} of {len(run.checks)} hold")
        for c in run.failures():
            lines.append(f"  FAILED after {c.after}: {c.what} ({c.detail})")
    out.write("\n".join(lines) + "\n")
    return 0 if run.ok else 1


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``replay`` to the ``kibitz`` subcommands."""
    p = sub.add_parser(
        "replay",
        help="replay a scenario (.toml) or a real deal (PBN/LIN) with the bounds each card changes",
        description="Print each trick and card with the lawful bounds it changed and why. FILE is a scenario "
                    "(.toml; its expectations are checked, exit 1 if one fails) or a PBN/LIN file of played deals.",
    )
    p.add_argument("file")
    p.add_argument("--board", help="the board to replay (default: every record in the file)")
    p.add_argument("--record", type=int, help="the record to replay, by its 1-based position in the file")
    p.add_argument("--seat", help="the viewer (default: declarer)")
    p.add_argument("--json", action="store_true", help="one JSON object per card played")
    p.set_defaults(handler=_cmd_replay)



