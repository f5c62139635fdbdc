"""``kibitz replay``: a scenario file, or a real deal from PBN/LIN, card by card with the bounds it changed.

``--json`` prints one object per card played, with the same keys (:data:`ROW_KEYS`) whether FILE
is a scenario or a PBN/LIN file::

    {"board": "7" | null, "record": 1 | null, "event": "1.3", "trick": 1, "seat": "E", "card": "H5",
     "bounds": {"W": {"S": [lo, hi], "H": ..., "D": ..., "C": ..., "HCP": [lo, hi]}, "E": {...}},
     "changes": [{"seat", "quantity", "old", "new", "reason"}, ...],
     "statuses": [{"inference", "old", "new", "reason"}, ...], "evidence": "E's SJ: ..." | null}

``board`` and ``record`` (the record's 1-based position in the file) are null for a scenario;
``event`` is the card's place, ``trick.card``, as scenarios name it. ``changes`` and ``statuses``
are what the card changed and what the events after it and before the next card changed (dummy
tabled after the opening lead, the inferences and leads a scenario reads there): the lines the
text output prints under the card. The first row's ``statuses`` start with those set before the
lead (the auction, read with ``--book``). ``bounds`` are the lawful bounds of the concealed seats after
all of them, as the next card is about to be played. ``evidence`` is what a defender's card says most
strongly under the defence model (``--defence-model``; :mod:`inference.defence.reading`), the text's
``evidence:`` line; null for declarer's side's cards and with ``--defence-model none``.

With several files or a folder (or ``--summary``), ``--json`` prints one summary object instead
(:meth:`inference.apps.bulk.Summary.as_json` and ``seconds``).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from inference.errors import InvalidArgumentError
from inference.commands.options import (Subparsers, plain, add_book, add_defence_model, add_file, add_json, add_progress, add_record, add_seat,
                      add_workers, defence_model, progress_wanted, add_likelihood, likelihood)

if TYPE_CHECKING:
    from inference.apps.bulk import Summary
    from inference.state.play import PlayState

__all__ = ["ROW_KEYS", "register", "replay_rows", "run_replay"]

#: The keys of every ``--json`` row, whatever the input.
ROW_KEYS = ("board", "record", "event", "trick", "seat", "card", "bounds", "changes", "statuses", "evidence")


def card_evidence(state: PlayState) -> dict[int, str]:
    """What each defender's card of ``state``'s play says most strongly, by the card's ply, read as the next
    card is about to be played (dummy tabled after the lead), as the text and the rows print it."""
    out: dict[int, str] = {}
    card = 0
    for ply in range(1, state.ply + 1):
        then = state.at(ply)
        if then.snapshot.update.card is not None:
            card = ply
        reading = then.reading() if card else None
        if reading is not None:
            out[card] = reading.text()
    return out


def replay_rows(state: PlayState, board: str | None = None, record: int | None = None) -> list[dict[str, Any]]:
    """The ``--json`` rows of a finished replay: one per card of ``state``'s play, each with :data:`ROW_KEYS`.

    The events after a card and before the next (dummy tabled, inferences read) fold into the card's
    row; the statuses set before the first card (the auction read with ``--book``) open the first row's.
    """
    rows: list[dict[str, Any]] = []
    before: list[dict[str, str]] = []
    evidence = card_evidence(state)
    for ply in range(1, state.ply + 1):
        then = state.at(ply)
        update = then.snapshot.update
        if update.card is not None:
            assert update.seat is not None
            card_no = len(then.snapshot.current.cards) or 4
            rows.append({"board": board, "record": record, "event": f"{update.trick}.{card_no}",
                         "trick": update.trick, "seat": update.seat.name, "card": str(update.card),
                         "bounds": {}, "changes": [], "statuses": [] if rows else before,
                         "evidence": evidence.get(ply)})
        elif not rows:
            before += [sc.as_dict() for sc in update.statuses]
            continue
        rows[-1]["changes"] += [c.as_dict() for c in update.changes]
        rows[-1]["statuses"] += [sc.as_dict() for sc in update.statuses]
        rows[-1]["bounds"] = then.bounds().as_dict()
    return rows


def run_replay(args: argparse.Namespace, out: TextIO) -> int:
    """Replay a scenario or the chosen records card by card (text or ``--json`` rows), or summarize many files."""
    from inference.claims.arguments import seat_argument
    from inference.state.render import bounds_table, render_update
    from inference.apps.replay import replay_record
    from inference.commands.inputs import refuse_record_options, select_records

    paths = args.file
    if len(paths) > 1 or Path(paths[0]).is_dir() or args.summary:
        return _replay_many(paths, args, out)
    path = paths[0]
    if args.jobs != 1 or args.scheduler is not None:
        raise InvalidArgumentError("--jobs and --scheduler share out a summary's files (several files, a folder, or "
                                   "--summary); one file replayed card by card runs in this process")
    viewer = seat_argument(args.seat, "--seat") if args.seat else None
    if Path(path).suffix.lower() == ".toml":
        refuse_record_options(path, args.board, args.record, args.seat)
        return _replay_scenario(path, args, out)
    malformed: list[str] = []
    records = select_records(path, args.board, args.record, malformed)
    lines: list[str] = []
    for rec in records:
        view = viewer if viewer is not None else rec.declarer
        if not args.json:
            lines.append(f"{rec.label}: {rec.contract} by {rec.declarer.name_long}; viewer {view.name_long}"
                         + (f" ({rec.quirk})" if rec.quirk else ""))
        state = None
        for state, step in replay_record(rec, view, book=args.book, defence_model=defence_model(args),
                                         likelihood=likelihood(args)):
            if not args.json:
                reading = state.reading()
                for update in step.updates:
                    evidence = reading.text() if reading is not None and update.card is not None else None
                    lines.append(render_update(update, state, evidence))
        if args.json and state is not None:
            lines += [json.dumps(row) for row in replay_rows(state, rec.board, rec.index)]
        elif state is not None:
            names = [state.name(s)[:8] for s in state.bounds().concealed]
            lines.append("bounds at the end:\n" + bounds_table(state.bounds(), names))
            if len(rec.play) < 52:
                lines.append(f"play ends after {len(rec.play)} cards" + (f" (claim: {rec.claim} tricks)"
                                                                         if rec.claim is not None else ""))
    out.write("\n".join(lines) + "\n")
    for problem in malformed:  # the others were replayed; each one passed over is named, and the status says so
        sys.stderr.write(f"kibitz: error: {problem}\n")
    return 2 if malformed else 0


def _replay_many(paths: list[str], args: argparse.Namespace, out: TextIO) -> int:
    """Every record under ``paths`` from declarer's view: counts, rejections by reason, soundness, throughput."""
    from tqdm import tqdm

    from inference.apps.bulk import plan, record_files, replay_many, workers

    if args.board is not None or args.record is not None or args.seat:
        raise InvalidArgumentError("--board, --record and --seat pick one record; not with several files or a folder")
    scenarios = [p for p in paths if Path(p).suffix.lower() == ".toml"]
    if scenarios:
        raise InvalidArgumentError(f"{scenarios[0]!r} is a scenario: replay it on its own (kibitz replay FILE.toml); "
                                   "several files or a folder are PBN and LIN records")
    files = record_files(paths)
    if not files:
        raise InvalidArgumentError(f"no PBN or LIN files in {', '.join(map(repr, paths))}")
    show = progress_wanted(args)
    bar = tqdm(total=sum(f.stat().st_size for f in files), unit="B", unit_scale=True, file=sys.stderr,
               disable=not show, dynamic_ncols=True)
    sizes = {f: f.stat().st_size for f in files}
    parts = {path: n for path, _, n in plan(files, workers(args.jobs) > 1 or args.scheduler is not None)}

    def progress(total: "Summary", path: Path) -> None:
        bar.update(sizes[path] / parts[path])
        bar.set_postfix(records=f"{total.read:,}", cards=f"{total.cards:,}", unsound=len(total.violations),
                        refresh=False)

    start = time.perf_counter()
    try:
        summary = replay_many(files, jobs=args.jobs, scheduler=args.scheduler, progress=progress)
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
    where = (f"Dask cluster {args.scheduler}" if args.scheduler is not None
             else f"{procs} process{'es' if procs > 1 else ''}")
    lines = [f"{summary.files:,} file{'s' if summary.files != 1 else ''}, every record from declarer's view "
             f"({where})"]
    lines += [f"  {label:<{width}}{n:>10,}" + (f"   {extra}" if extra else "") for label, n, extra in rows]
    lines += [f"    {v}" for v in summary.violations[:10]]
    rate = summary.cards / wall if wall > 0 else 0.0
    lines.append(f"  {'throughput':<{width}}{rate:>10,.0f} cards/s ({summary.replayed / wall if wall else 0:,.1f} "
                 f"records/s; {wall:,.1f} s)")
    out.write("\n".join(lines) + "\n")
    return 1 if summary.violations else 0


def _replay_scenario(path: str, args: argparse.Namespace, out: TextIO) -> int:
    from inference.state.render import render_bounds, render_update
    from inference.apps.scenario import run_scenario

    run = run_scenario(path, defence_model(args), likelihood(args))
    state = run.state
    lines = []
    if args.json:
        lines += [json.dumps(row) for row in replay_rows(state)]
    else:
        lines.append(f"{run.scenario.title}  [{path}]")
        evidence = card_evidence(state)
        plies = {id(state.at(p).snapshot.update): p for p in range(1, state.ply + 1)}
        for label, update in run.updates:
            lines.append(render_update(update, state, evidence.get(plies.get(id(update), 0))))
        lines.append("bounds at the end:")
        lines.append(render_bounds(state.bounds(), state))
        passed = sum(c.ok for c in run.checks)
        lines.append(f"expectations: {passed} of {len(run.checks)} hold")
    failed = [f"FAILED {path}:{c.line}: after {c.after}: {c.what} ({c.detail})" for c in run.failures()]
    if args.json:  # the rows stay JSON: which expectations failed goes to standard error
        sys.stderr.write("".join(f"kibitz: {f}\n" for f in failed))
    else:
        lines += [f"  {f}" for f in failed]
    out.write("\n".join(lines) + "\n")
    return 0 if run.ok else 1


def register(sub: Subparsers) -> None:
    """Add ``replay`` to the ``kibitz`` subcommands."""
    p = sub.add_parser(
        "replay",
        help="replay a scenario (.toml) or a real deal (PBN/LIN) with the bounds each card changes",
        description=textwrap.fill(
            "Print each trick and card with the lawful bounds it changed and why. FILE is a scenario "
            "(.toml; its expectations are checked, exit 1 if one fails) or a PBN/LIN file of played deals. "
            "Given several files or a folder (every PBN/LIN under it), replay every record from declarer's "
            "view and print a summary instead: records read, rejected by reason, soundness violations "
            "(exit 1 if any) and throughput.", 79),
        epilog=plain("--json" + (__doc__ or "").split("--json``", 1)[1].split("\n\nWith several", 1)[0])
        .replace(" (:data:`ROW_KEYS`)", "").replace("::", ":").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_file(p, "a scenario, a PBN/LIN file, or several files and folders (summary)", many=True)
    add_book(p)
    add_defence_model(p)
    add_likelihood(p)
    p.add_argument("--summary", action="store_true",
                   help="only count: records read, rejected by reason, soundness violations, throughput "
                        "(the default for several files or a folder)")
    add_workers(p)
    add_progress(p, " during a summary")
    add_record(p, "every record in the file")
    add_seat(p)
    add_json(p, "the replay (one object per card; a summary: one object)")
    p.set_defaults(handler=run_replay)
