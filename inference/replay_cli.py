"""``kibitz replay``: a scenario file, or a real deal from PBN/LIN, card by card with the bounds it changed."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from dealer import Seat

from .errors import InvalidArgumentError, RecordError
from .records import PlayRecord, Skipped, read_records
from .render import bounds_table, render_bounds, render_update
from .replay import replay_record, step_json
from .scenario import run_scenario

__all__ = ["register"]

if TYPE_CHECKING:
    from .bulk import Summary


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
    paths = args.file
    if len(paths) > 1 or Path(paths[0]).is_dir() or args.summary:
        return _replay_many(paths, args, out)
    path = paths[0]
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


def _replay_many(paths: list[str], args: argparse.Namespace, out: TextIO) -> int:
    """Every record under ``paths`` from declarer's view: counts, rejections by reason, soundness, throughput."""
    import sys

    from tqdm import tqdm

    from .bulk import PART_BYTES, record_files, replay_many, workers

    if args.board is not None or args.record is not None or args.seat:
        raise InvalidArgumentError("--board, --record and --seat pick one record; not with several files or a folder")
    files = record_files(paths)
    if not files:
        raise InvalidArgumentError(f"no PBN or LIN files in {', '.join(map(repr, paths))}")
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    bar = tqdm(total=sum(f.stat().st_size for f in files), unit="B", unit_scale=True, file=sys.stderr,
               disable=not show, dynamic_ncols=True)
    sizes = {f: f.stat().st_size for f in files}
    parts = {f: (max(1, sizes[f] // PART_BYTES) if workers(args.jobs) > 1 else 1) for f in files}

    def progress(total: "Summary", path: Path) -> None:
        bar.update(sizes[path] / parts[path])
        bar.set_postfix(records=f"{total.read:,}", cards=f"{total.cards:,}", unsound=len(total.violations),
                        refresh=False)

    start = time.perf_counter()
    try:
        summary = replay_many(files, jobs=args.jobs, progress=progress)
    finally:
        bar.close()
    wall = time.perf_counter() - start
    if args.json:
        obj = summary.as_json()
        obj["seconds"] = round(wall, 3)
        out.write(json.dumps(obj) + "\n")
        return 1 if summary.violations else 0
    rejected = sum(summary.rejected.values())
    rows: list[tuple[str, int, str]] = [("records read", summary.read, ""),
                                        ("replayed", summary.replayed, f"({summary.cards:,} cards)"),
                                        ("rejected", rejected, "")]
    rows += [(f"  {reason}", n, "") for reason, n in summary.rejected.most_common()]
    rows += [(reason, n, "") for reason, n in summary.skipped.most_common()]
    rows.append(("soundness violations", len(summary.violations), ""))
    width = max(len(label) for label, _, _ in rows) + 2
    procs = workers(args.jobs)
    lines = [f"{summary.files:,} file{'s' if summary.files != 1 else ''}, every record from declarer's view "
             f"({procs} process{'es' if procs > 1 else ''})"]
    lines += [f"  {label:<{width}}{n:>10,}" + (f"   {extra}" if extra else "") for label, n, extra in rows]
    lines += [f"    {v}" for v in summary.violations[:10]]
    rate = summary.cards / wall if wall > 0 else 0.0
    lines.append(f"  {'throughput':<{width}}{rate:>10,.0f} cards/s ({summary.replayed / wall if wall else 0:,.1f} "
                 f"records/s; {wall:,.1f} s)")
    out.write("\n".join(lines) + "\n")
    return 1 if summary.violations else 0


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
                    "(.toml; its expectations are checked, exit 1 if one fails) or a PBN/LIN file of played deals. "
                    "Given several files or a folder (every PBN/LIN under it), replay every record from declarer's "
                    "view and print a summary instead: records read, rejected by reason, soundness violations "
                    "(exit 1 if any) and throughput.",
    )
    p.add_argument("file", nargs="+", help="a scenario, a PBN/LIN file, or several files and folders (summary)")
    p.add_argument("--summary", action="store_true",
                   help="only count: records read, rejected by reason, soundness violations, throughput "
                        "(the default for several files or a folder)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes for a summary (default: 1)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="a progress bar on stderr during a summary (default: when stderr is a terminal)")
    p.add_argument("--board", help="the board to replay (default: every record in the file)")
    p.add_argument("--record", type=int, help="the record to replay, by its 1-based position in the file")
    p.add_argument("--seat", help="the viewer (default: declarer)")
    p.add_argument("--json", action="store_true", help="one JSON object per card played")
    p.set_defaults(handler=_cmd_replay)



