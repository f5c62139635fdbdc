"""``kibitz rules CORPUS... --book B``: a bidding book checked against the callers' actual hands.

Walks every ``.pbn``/``.lin`` file under the paths (records without play, or whose play is
rejected, count too), reads every auction with the book (and the records' explanations) and
prints, per rule claim: the calls matched, the claim's and its fallbacks' accuracy on the caller's
hand with a 95% Wilson interval (``--half``: on one half of the corpus's split only), the claim's exact prior for a random hand and the likelihood
ratio (accuracy over prior); then the claim's accuracy per source folder and for the defenders,
and the coverage of all calls. ``--json`` prints :meth:`inference.auction.calibration.Calibration.as_dict`.
A progress bar goes to standard error (``--progress``; by default when it is a terminal). With
``--jobs J`` (J > 1) or ``--scheduler ADDRESS`` the files are shared among workers; same result.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, TextIO

from inference.commands.options import (Subparsers, plain, add_book, add_file, add_json, add_progress, add_workers, existing_paths,
                                        progress_wanted, written_to)
from inference.errors import InvalidArgumentError

if TYPE_CHECKING:
    from inference.auction.calibration import Calibration
    from inference.auction.measures import Level

__all__ = ["register", "run_rules", "format_table"]


def register(sub: Subparsers) -> None:
    """Add ``rules`` to the ``kibitz`` parser."""
    p = sub.add_parser("rules", help="check a bidding book against real auctions and hands",
                       description=plain(__doc__.split("\n\n")[0] if __doc__ else None))
    add_file(p, "PBN/LIN files or folders of played deals", many=True)
    add_book(p, required=True)
    add_json(p, "the calibration")
    p.add_argument("--calibration", metavar="OUT.json",
                   help="also write the figures in the form a book ships with (data/auction/<book>.calibration.json)")
    p.add_argument("--half", choices=("calibration", "evaluation"),
                   help="only the records of this half of the corpus's split (default: every record)")
    p.add_argument("--population", choices=("robots", "humans"),
                   help="only the records of this population: robots (robot matches and daylongs, or three "
                        "robots at the table) or humans (default: every record)")
    p.add_argument("--by-population", action="store_true",
                   help="accuracy and coverage by population (robots, humans) instead of by source folder")
    add_progress(p)
    add_workers(p)
    p.set_defaults(handler=run_rules)


def run_rules(args: argparse.Namespace, out: TextIO) -> int:
    """Calibrate the book on the files and print the table (or JSON)."""
    from inference.auction.book import load_book
    from inference.auction.calibration import calibrate

    book = load_book(args.book)
    existing_paths(args.file)
    show = progress_wanted(args)
    result = calibrate(args.file, book, progress=show, jobs=args.jobs, scheduler=args.scheduler, half=args.half,
                       population=args.population, by_population=args.by_population)
    if not result.records:  # nothing to measure: say so rather than print (or write) an empty table
        raise InvalidArgumentError(f"no record with an auction under {', '.join(map(repr, args.file))}"
                                   + (f" in the {args.half} half" if args.half else "")
                                   + (f" of the {args.population}" if args.population else ""))
    if args.calibration:
        import datetime

        from inference.auction.calibration import shipped_form

        half = (f", the {args.half} half" if args.half else "") + (f", {args.population}" if args.population else "")
        measured = (f"kibitz rules {' '.join(args.file)} ({result.records:,} records{half}), "
                    f"{datetime.date.today().isoformat()}")
        with written_to(args.calibration, out) as fh:
            json.dump(shipped_form(result, measured), fh, indent=1)
            fh.write("\n")
    if args.json:
        json.dump(result.as_dict(), out, indent=1)
        out.write("\n")
    else:
        out.write(format_table(result))
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}"


def _level(lv: "Level") -> str:
    lo, hi = lv.interval
    return f"{_pct(lv.accuracy)} [{_pct(lo)},{_pct(hi)}]"


def format_table(result: "Calibration") -> str:
    """The calibration as text tables (rules; per folder; coverage)."""
    from inference.auction.calibration import MIN_BITS

    w = max([28, *(len(row.rule) for row in result.rows)])  # the rule column: as wide as the longest id
    lines = [f"book {result.book}: {result.records:,} records read ({result.errors} unreadable)", "",
             f"{'rule':{w}} {'claim':9} {'tag':11} {'calls':>6}  {'claim % [95%]':20} {'fallback % [95%]':20} "
             f"{'prior %':>7} {'LR':>6} {'bits':>5}"]
    for row in result.rows:
        first = row.levels[0]
        fb = _level(row.levels[1]) if len(row.levels) > 1 else ""
        prior = f"{100 * float(first.prior):7.1f}" if first.prior is not None else (
            "    n/a" if row.rule != "explanation" else "      -")
        lr, bits = first.likelihood_ratio, first.bits
        lines.append(f"{row.rule:{w}} {row.label[:9]:9} {row.tag.removeprefix('agreement-')[:11]:11} "
                     f"{row.matched:6,}  {_level(first):20} {fb:20} {prior} {'' if lr is None else f'{lr:6.2f}':>6} "
                     f"{'' if bits is None else f'{bits:5.3f}':>5}")
    lines += ["", "n/a: the claim is outside the exact dealer's dialect (no prior); bits: what the claim tells of the "
              "callers' hands, a call (accuracy against prior)", ""]
    folders = sorted({f for row in result.rows for f in row.folders})
    lines.append("claim accuracy by source folder, and for the defenders (% of calls matched)")
    lines.append(f"{'rule':{w}} {'claim':9} " + " ".join(f"{f[:14]:>14}" for f in folders) + f" {'defenders':>14}")
    for row in result.rows:
        cells = []
        for f in folders:
            h, n = row.folders.get(f, (0, 0))
            cells.append(f"{_pct(h / n) if n else '    -'} ({n:>5})" if n else f"{'-':>14}")
        h, n = row.defenders
        cells.append(f"{_pct(h / n)} ({n:>5})" if n else f"{'-':>14}")
        lines.append(f"{row.rule:{w}} {row.label[:9]:9} " + " ".join(f"{c:>14}" for c in cells))
    lines += ["", f"{'coverage':{w}} {'calls':>8} {'book':>8} {'explained':>9} {'uncovered':>9} {'unread':>7}"]
    rows = [*sorted(result.folders.items()), ("all", result.coverage), ("defenders only", result.defenders)]
    for name, cov in rows:
        c = cov.calls or 1
        lines.append(f"{name[:w]:{w}} {cov.calls:8,} {_pct(cov.book / c):>7}% {_pct(cov.explanation / c):>8}% "
                     f"{_pct(cov.uncovered / c):>8}% {cov.unreadable:7,}")
    calls, defenders = result.informative()
    lines.append(f"read by a rule or an explanation worth at least {MIN_BITS} bits a call: "
                 f"{_pct(calls / (result.coverage.calls or 1))}% "
                 f"of all calls, {_pct(defenders / (result.defenders.calls or 1))}% of the defenders'")
    return "\n".join(lines) + "\n"
