"""``kibitz view``: the play in the browser: one self-contained HTML page, card by card.

The page shows the four hands at the table (the viewer's and dummy's cards; a concealed hand as
the cards it has played and the unknown rest), the auction, and a slider (arrow keys and buttons)
through the play; at each card, the lawful and agreement bounds of each concealed hand as range
bars, who holds each unseen card (exact probabilities as a heat map), the splits of each suit,
the inferences with their statuses and why they changed, and the narration of ``kibitz replay``.
Kibitz computes all of it when the page is written (:mod:`inference.apps.viewer`); the page only
shows it, offline (:mod:`inference.apps.viewer_page`).

FILE is a scenario (``.toml``) or a PBN/LIN file (``--board``/``--record`` pick the record; default
the first with a play). With ``--all``, FILE may be several files and folders: every scenario and every
record under them gets a page in the folder ``-o DIR``, with an ``index.html`` linking them.
"""

from __future__ import annotations

import argparse
import io
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from dealer import DealerError

from inference.errors import InferenceError, InvalidArgumentError
from inference.commands.options import (Subparsers, add_book, add_defence_model, add_file, add_n, add_output, add_record, add_seat,
                      defence_model, written_to, add_likelihood, likelihood)

if TYPE_CHECKING:
    from inference.auction.likelihood import Likelihood
    from inference.io.records import PlayRecord

__all__ = ["register", "run_view", "write_all"]


def _scenario_data(path: str | Path, model: str | None = "default",
                   graded: "Likelihood | str | None" = "default") -> dict[str, Any]:
    from inference.apps.scenario import run_scenario
    from inference.apps.viewer import scenario_page

    return scenario_page(run_scenario(path, model, graded))


def _record_data(rec: PlayRecord, seat: str | None, book: str | None = None,
                 model: str | None = "default", graded: "Likelihood | str | None" = "default") -> dict[str, Any]:
    from inference.apps.viewer import record_page

    from inference.claims.arguments import seat_argument

    viewer = seat_argument(seat, "--seat") if seat else None
    return record_page(rec, viewer, book=book, defence_model=model, likelihood=graded)


def run_view(args: argparse.Namespace, out: TextIO) -> int:
    """Write the page of one play (to ``-o`` or standard output), or with ``--all`` a folder of pages and an index."""
    from inference.apps.viewer_page import page_html
    from inference.commands.inputs import first_record

    if args.all:
        if args.board is not None or args.record is not None:
            raise InvalidArgumentError("--board and --record pick one record; not with --all")
        if not args.output:
            raise InvalidArgumentError("--all writes a folder of pages: name it with -o DIR")
        count, problems = write_all(args.file, Path(args.output), args.seat, args.n, args.book, defence_model(args),
                                    likelihood(args))
        out.write(f"wrote {count} page{'s' if count != 1 else ''} and {Path(args.output) / 'index.html'}"
                  + (f"; {len(problems)} not shown (listed in the index)" if problems else "") + "\n")
        return 0
    if len(args.file) != 1:
        raise InvalidArgumentError(f"one FILE makes one page ({len(args.file)} given); for several, use --all -o DIR")
    path = args.file[0]
    if Path(path).is_dir():
        raise InvalidArgumentError(f"{path!r} is a folder: use --all -o DIR for a page per record")
    if Path(path).suffix.lower() == ".toml":
        if args.board is not None or args.record is not None or args.seat:
            raise InvalidArgumentError("--board, --record and --seat are for PBN/LIN files; a scenario names its viewer")
        data = _scenario_data(path, defence_model(args), likelihood(args))
    else:
        rec = first_record(path, args.board, args.record)  # neither given: the first replayable record
        data = _record_data(rec, args.seat, args.book, defence_model(args), likelihood(args))
    page = page_html(data)
    if args.output:
        _write(Path(args.output), page)
    else:
        out.write(page)
    return 0


def _write(path: Path, text: str) -> None:
    with written_to(str(path), io.StringIO()) as fh:
        fh.write(text)


def write_all(paths: list[str], folder: Path, seat: str | None = None, limit: int | None = None,
              book: str | None = None, model: str | None = "default",
              graded: "Likelihood | str | None" = "default") -> tuple[int, list[str]]:
    """A page for every scenario and record under ``paths`` in ``folder``, and ``folder/index.html``.

    Returns the number of pages written and, for each input that made no page, why. ``limit``: at
    most this many pages; ``model``: the defence model of the evidence lines (None: none); ``graded``: the
    auction's likelihood (as ``PlayState.add_auction`` takes it).
    """
    from inference.apps.bulk import record_files
    from inference.io.records import Skipped, read_records
    from inference.apps.viewer_page import index_html, page_html, page_name

    if limit is not None and limit < 1:
        raise InvalidArgumentError(f"invalid -n {limit}: expected a number of pages >= 1")
    scenarios: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            scenarios += sorted(f for f in p.rglob("*.toml") if f.is_file())
        elif p.suffix.lower() == ".toml" and p.is_file():
            scenarios.append(p)
    records = record_files([p for p in paths if Path(p).is_dir() or Path(p).suffix.lower() != ".toml"])
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidArgumentError(f"cannot make the folder {str(folder)!r}: {exc.strerror}") from None
    entries: list[tuple[str, str, str]] = []
    problems: list[str] = []

    taken: set[str] = set()

    def add(name: str, make: Any, label: str) -> None:
        try:
            data = make()
        except (InferenceError, DealerError) as exc:
            problems.append(f"{label}: {exc}")
            return
        stem, n = name.removesuffix(".html"), 2
        while name in taken:  # the same file name in two folders (or two endings): each its own page
            name, n = f"{stem}-{n}.html", n + 1
        taken.add(name)
        _write(folder / name, page_html(data))
        steps = len(data["steps"]) - 1
        entries.append((name, data["title"], f"{label} · {data['contract']} by {data['declarer']} · {steps} cards"))

    for scen in scenarios:
        if limit is not None and len(entries) >= limit:
            break
        add(page_name(scen.stem), lambda s=scen: _scenario_data(s, model, graded), str(scen))
    for file in records:
        try:
            for item in read_records(file):
                if limit is not None and len(entries) >= limit:
                    break
                if isinstance(item, (InferenceError, DealerError)):
                    problems.append(str(item))
                elif isinstance(item, Skipped):
                    problems.append(f"{file}, board {item.board} (record {item.index}): {item.reason}")
                else:
                    add(page_name(file.stem, item.board, item.index), lambda r=item: _record_data(r, seat, book, model, graded), item.label)
        except (InferenceError, DealerError) as exc:  # the file itself: unreadable, binary, too large
            problems.append(str(exc))
    if not entries and not problems:
        raise InvalidArgumentError(f"no scenario, PBN or LIN file in {', '.join(map(repr, paths))}")
    title = "Kibitz: " + ", ".join(paths)
    _write(folder / "index.html", index_html(title, entries, problems))
    return len(entries), problems


def register(sub: Subparsers) -> None:
    """Add ``view`` to the ``kibitz`` subcommands."""
    p = sub.add_parser(
        "view",
        help="write the play as one self-contained HTML page: bounds, odds and statuses card by card",
        description=textwrap.fill(
            "Write a page (HTML, works offline) that steps through the play with the arrow keys: the hands at "
            "the table, the auction, and at each card the lawful and agreement bounds of the concealed hands, "
            "who holds each unseen card (exact), the suit splits, the inferences and why they changed. FILE is "
            "a scenario (.toml) or a PBN/LIN file; with --all, files and folders, one page per scenario or "
            "record plus an index.", 79),
    )
    add_file(p, "a scenario or a PBN/LIN file; with --all, files and folders", many=True)
    add_record(p, "the first replayable record in the file")
    add_seat(p)
    add_book(p)
    add_defence_model(p)
    add_likelihood(p)
    p.add_argument("--all", action="store_true",
                   help="a page for every scenario and record under FILE..., and an index.html, in the folder -o DIR")
    add_n(p, "pages with --all", None, "every one")
    add_output(p)
    p.set_defaults(handler=run_view)
