"""Streamed counts benchmark: blocks of spot cards against card by card, on real scripts.

Run: ``python benchmarks/streamed.py SCRIPT.dlr ...``. For each ``dealer`` script, counts it
as ``kibitz count`` does (``ScriptDealer(count_only=True)`` at the budget's ``count_patience``: tables too large
to keep are streamed, :func:`dealer.tables.reach.stream_within`) twice in this process, with the stream's blocks
(the default) and card by card (``blocks=False``), and prints a table: exact or estimate each way, the wall time of each
setup, their ratio, and the most joint states a stream held at one position (``-`` when the count needed no
stream). The two counts must be equal; a difference is printed as an error. The scripts are not part of the
repository (docs/dealer.rst says where the set of real scripts comes from).
"""

from __future__ import annotations

import argparse
import os
import platform
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


def _count(text: str, name: str, blocks: bool) -> tuple[Any, float, int | None]:
    """The script's count (``kibitz count``'s), its setup's wall time (a cold one: no automata kept from before) and
    the largest streamed peak (None: none)."""
    peaks: list[int] = []
    original = reach.stream_within

    def stream(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **dict(kwargs, blocks=blocks))
        if isinstance(found, reach.StreamedTables):
            peaks.append(found.cells)
        return found

    design.stream_within = engine.stream_within = stream  # type: ignore[assignment]
    design.clear_caches()  # each setup a cold one
    try:
        start = time.perf_counter()
        run = ScriptDealer(parse_statements(text, source=name), text=text, patience=current().count_patience,
                           count_only=True)
        elapsed = time.perf_counter() - start
        result = run.count(draws=1000, seed=1)
    finally:
        design.stream_within = engine.stream_within = original  # type: ignore[assignment]
    return (result.exact, result.deals if result.exact else None), elapsed, max(peaks) if peaks else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scripts", nargs="+", help="dealer scripts")
    args = ap.parse_args()
    print(f"# {date.today()} on {platform.node()} ({platform.machine()}), Python {platform.python_version()}, "
          f"stream limit {current().stream_states:,} states at one position")
    print(f"{'script':36} {'count (blocks/cards)':21} {'blocks s':>9} {'cards s':>9} {'ratio':>6} {'peak (blocks)':>14} {'peak (cards)':>13}")
    for path in args.scripts:
        name = os.path.basename(path)
        text = open(path, encoding="latin-1").read()
        try:
            with_blocks, t_blocks, peak_blocks = _count(text, name, True)
            by_card, t_cards, peak_cards = _count(text, name, False)
        except DealerError as exc:
            print(f"{name:36} error: {exc}")
            continue
        if with_blocks[0] and by_card[0] and with_blocks != by_card:
            print(f"{name:36} error: the counts differ: {with_blocks[1]} with blocks, {by_card[1]} card by card")
            continue
        kind = "/".join("exact" if found[0] else "estimate" for found in (with_blocks, by_card))
        print(f"{name:36} {kind:21} {t_blocks:9.2f} {t_cards:9.2f} {t_blocks / t_cards:6.2f} {_peak(peak_blocks):>14} "
              f"{_peak(peak_cards):>13}", flush=True)


def _peak(states: int | None) -> str:
    return "-" if states is None else f"{states:,}"


if __name__ == "__main__":
    main()
