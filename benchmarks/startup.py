"""Start-up benchmark: wall time of short ``kibitz`` commands, each in a fresh interpreter.

Run: ``python benchmarks/startup.py [--runs 9] [--module inference.commands] [--program kibitz]``.
Prints a table: the median (and the fastest) wall time over ``--runs`` runs of ``kibitz --help``,
``kibitz number <a deal>``, ``kibitz count 'hcp(north)>=20'`` and ``kibitz dealer`` on a one-seat
script (``hcp(north) >= 15``, produce 10), beside the bare interpreter's start (``python -c pass``)
and ``python -c 'import numpy'``, with each command's excess over the latter (the goal: at most
80 ms). By default each command runs as ``python -m inference.commands`` from this checkout;
``--program`` times an installed script instead (a non-editable install, as a user has it:
``pip install .`` into a fresh environment, then ``--program ENV/bin/kibitz``). Runs take turns
(one of each, then again), so a machine's drift weighs on every row alike.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEAL = "N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43"
SCRIPT = "condition hcp(north) >= 15\nproduce 10\naction printoneline\n"
COMMANDS = (("kibitz --help", ["--help"]),
            ("kibitz number <a deal>", ["number", DEAL]),
            ("kibitz count 'hcp(north)>=20'", ["count", "hcp(north)>=20"]),
            ("kibitz dealer <one-seat script>", ["dealer", "SCRIPT", "-s", "1"]))
NUMPY = "python -c 'import numpy'"


def wall(commands: list[list[str]], runs: int, program: bool) -> list[list[float]]:
    """Wall times, in seconds, of ``runs`` rounds of ``commands`` (one of each per round, after a warm-up).

    Byte code is written and kept (the interpreter's default), as on a user's machine."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not program:
        env["PYTHONPATH"] = ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")
    times: list[list[float]] = [[] for _ in commands]
    for round_ in range(runs + 1):
        for i, argv in enumerate(commands):
            start = time.perf_counter()
            subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
            if round_:
                times[i].append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="runs per command (default 9)")
    parser.add_argument("--module", default="inference.commands", help="entry module (default inference.commands)")
    parser.add_argument("--program", help="an installed kibitz script to time instead of python -m MODULE")
    args = parser.parse_args()
    prefix = [args.program] if args.program else [sys.executable, "-m", args.module]
    python = os.path.join(os.path.dirname(args.program), "python") if args.program else sys.executable
    with tempfile.NamedTemporaryFile("w", suffix=".dl", delete=False) as handle:
        handle.write(SCRIPT)
    try:
        labels = ["python -c pass (the interpreter alone)", NUMPY] + [label for label, _ in COMMANDS]
        commands = [[python, "-c", "pass"], [python, "-c", "import numpy"]]
        commands += [prefix + [handle.name if a == "SCRIPT" else a for a in argv] for _, argv in COMMANDS]
        times = wall(commands, args.runs, bool(args.program))
    finally:
        os.unlink(handle.name)
    print(f"kibitz start-up: {' '.join(prefix)}; median of {args.runs} runs, taking turns "
          f"(Python {platform.python_version()}, {os.cpu_count()} CPUs)")
    width = max(map(len, labels))
    numpy = statistics.median(times[1])
    print(f"{'command':<{width}}  {'median s':>9}  {'fastest s':>9}  {'- numpy s':>9}")
    for label, row in zip(labels, times):
        excess = f"{statistics.median(row) - numpy:>+9.3f}" if label.startswith("kibitz") else ""
        print(f"{label:<{width}}  {statistics.median(row):>9.3f}  {min(row):>9.3f}  {excess}")


if __name__ == "__main__":
    main()
