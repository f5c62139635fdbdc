"""Streamed counts benchmark: blocks of spot cards against card by card, on real scripts.

Run: ``python benchmarks/streamed.py SCRIPT.dlr ... [--runs 3]``. For each ``dealer`` script, counts it as ``kibitz count``
does (``ScriptDealer(count_only=True)`` at the budget's ``count_patience``: tables too large to keep are
streamed, :func:`dealer.tables.reach.stream_within`) as it does, with blocks of spot cards from a position holding
more than an eighth of the limit or 2,000,000 states, and card by card (``blocks=False``), each in a fresh interpreter (a cold setup, as a command has it), ``--runs`` times taking turns
(which goes first alternates: the first of a pair runs a little slower), and prints a table: exact or estimate
each way, the median wall time of each setup, their ratio, and the most joint states a stream held at one
position (``-`` when the count needed no stream, or its stream passed the limit). Where both are exact the two
counts must be equal; a difference is printed as an error. The scripts are not part of the repository
(docs/dealer.rst says where the set of real scripts comes from).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import date
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dealer.budget import current  # noqa: E402
from dealer.errors import DealerError  # noqa: E402
from dealer.lang.statements import parse_statements  # noqa: E402
from dealer.run.script_dealer import ScriptDealer  # noqa: E402
from dealer.tables import design, engine, reach  # noqa: E402


def _count(path: str, blocks: bool) -> dict[str, Any]:
    """Exact or not, the count (None: an estimate), the setup's wall time and the largest streamed peak (None: no
    stream), as ``kibitz count`` counts the script (``blocks`` False: card by card)."""
    peaks: list[int] = []
    original = reach.stream_within

    def stream(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **(kwargs if blocks else dict(kwargs, blocks=False)))
        if isinstance(found, reach.StreamedTables):
            peaks.append(found.cells)
        return found

    design.stream_within = engine.stream_within = stream  # type: ignore[assignment]
    text = open(path, encoding="latin-1").read()
    start = time.perf_counter()
    run = ScriptDealer(parse_statements(text, source=os.path.basename(path)), text=text,
                       patience=current().count_patience, count_only=True)
    elapsed = time.perf_counter() - start
    result = run.count(draws=1000, seed=1)
    return {"exact": result.exact, "deals": result.deals if result.exact else None, "seconds": elapsed,
            "peak": max(peaks) if peaks else None}


def _child(path: str, blocks: bool) -> dict[str, Any]:
    """:func:`_count` of one script in a fresh interpreter (this file with ``--one``), or its error."""
    done = subprocess.run([sys.executable, __file__, "--one", path] + ([] if blocks else ["--cards"]),
                          capture_output=True, text=True)
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _peak(states: int | None) -> str:
    return "-" if states is None else f"{states:,}"


def _timed(path: str, runs: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both ways' results, each with its median seconds over ``runs`` runs taking turns."""
    found: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for i in range(runs):
        for blocks in ((True, False) if i % 2 == 0 else (False, True)):
            found[blocks].append(_child(path, blocks))
    out = []
    for blocks in (True, False):
        first = found[blocks][0]
        if "error" not in first:
            first = dict(first, seconds=statistics.median(f["seconds"] for f in found[blocks]))
        out.append(first)
    return out[0], out[1]


def _row(name: str, with_blocks: dict[str, Any], by_card: dict[str, Any]) -> str:
    """A script's line of the table."""
    if "error" in with_blocks or "error" in by_card:
        return f"{name:36} error: {with_blocks.get('error') or by_card.get('error')}"
    if with_blocks["exact"] and by_card["exact"] and with_blocks["deals"] != by_card["deals"]:
        return f"{name:36} error: the counts differ: {with_blocks['deals']} with blocks, {by_card['deals']} card by card"
    kind = "/".join("exact" if found["exact"] else "estimate" for found in (with_blocks, by_card))
    ratio = with_blocks["seconds"] / by_card["seconds"]
    return (f"{name:36} {kind:21} {with_blocks['seconds']:9.2f} {by_card['seconds']:9.2f} {ratio:6.2f} "
            f"{_peak(with_blocks['peak']):>14} {_peak(by_card['peak']):>13}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("scripts", nargs="+", help="dealer scripts")
    ap.add_argument("--runs", type=int, default=3, help="runs of each way (default 3)")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child: one script, one way
    ap.add_argument("--cards", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        try:
            print(json.dumps(_count(args.scripts[0], not args.cards)))
        except DealerError as exc:
            print(json.dumps({"error": str(exc)}))
        return
    print(f"# {date.today()} on {platform.node()} ({platform.machine()}), Python {platform.python_version()}, "
          f"stream limit {current().stream_states:,} states at one position; medians of {args.runs} runs, a fresh "
          "interpreter each")
    print(f"{'script':36} {'count (blocks/cards)':21} {'blocks s':>9} {'cards s':>9} {'ratio':>6} {'peak (blocks)':>14} "
          f"{'peak (cards)':>13}")
    for path in args.scripts:
        print(_row(os.path.basename(path), *_timed(path, args.runs)), flush=True)


if __name__ == "__main__":
    main()
