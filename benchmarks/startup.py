"""Start-up benchmark: wall time of short ``kibitz`` commands, each in a fresh interpreter.

Run: ``python benchmarks/startup.py [--runs 9] [--module inference.commands] [--program kibitz]``.
Prints a table: the median (and the fastest) wall time over ``--runs`` runs of ``kibitz --help``,
``kibitz number <a deal>`` and ``kibitz count 'hcp(north)>=20'``, beside the bare interpreter's
start (``python -c pass``). By default each command runs as ``python -m inference.commands``
from this checkout (what the installed ``kibitz`` script imports); ``--program`` times an
installed script instead, ``--module`` another entry module (``inference.cli`` before the move).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEAL = "N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43"
COMMANDS = (("kibitz --help", ["--help"]),
            ("kibitz number <a deal>", ["number", DEAL]),
            ("kibitz count 'hcp(north)>=20'", ["count", "hcp(north)>=20"]))


def wall(argv: list[str], runs: int) -> list[float]:
    """Wall times of ``runs`` runs of ``argv`` (after one warm-up run), in seconds."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="runs per command (default 9)")
    parser.add_argument("--module", default="inference.commands", help="entry module (default inference.commands)")
    parser.add_argument("--program", help="an installed kibitz script to time instead of python -m MODULE")
    args = parser.parse_args()
    prefix = [args.program] if args.program else [sys.executable, "-m", args.module]
    rows = [("python -c pass (the interpreter alone)", wall([sys.executable, "-c", "pass"], args.runs))]
    rows += [(label, wall(prefix + argv, args.runs)) for label, argv in COMMANDS]
    print(f"kibitz start-up: {' '.join(prefix)}; median of {args.runs} runs "
          f"(Python {platform.python_version()}, {os.cpu_count()} CPUs)")
    width = max(len(label) for label, _ in rows)
    print(f"{'command':<{width}}  {'median s':>9}  {'fastest s':>9}")
    for label, times in rows:
        print(f"{label:<{width}}  {statistics.median(times):>9.3f}  {min(times):>9.3f}")


if __name__ == "__main__":
    main()
