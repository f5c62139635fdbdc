"""Double-dummy benchmark: one solve for a run's actions against a solve per action, in the same run.

Run: ``python benchmarks/solver.py [--deals 40] [--repeat 3]`` (the bot extra: endplay's solver).
A script produces ``--deals`` deals and averages and counts the tricks of two strains
(:mod:`dealer.lang.double_dummy`): as shipped, the runner solves both strains once before the actions
(``solve_for``) and each action finds them solved; the baseline has no solve before the actions, so each
action asks the solver for its own strain unless the deals solved last (one set, one strain) hold it. Prints the median wall time of each (``--repeat`` runs), their ratio, and whether the outputs
are the same.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import sys
import time
from datetime import date

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import dealer.lang.double_dummy as double_dummy  # noqa: E402
import dealer.run.runner as runner  # noqa: E402
from dealer.lang.statements import parse_statements  # noqa: E402

SCRIPT = ("produce {deals}\ncondition hcp(north) >= 10\naction average tricks(north, spades), "
          "average tricks(south, notrump), frequency(tricks(north, spades), 0, 13), "
          "frequency(tricks(south, notrump), 0, 13)\n")


def timed(deals: int) -> tuple[float, str]:
    """One run of the script: its wall time and output."""
    double_dummy.forget_solved()
    out = io.StringIO()
    start = time.perf_counter()
    runner.run_script(parse_statements(SCRIPT.format(deals=deals)), out, seed=4, verbose=False)
    return time.perf_counter() - start, out.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    shared = [timed(args.deals) for _ in range(args.repeat)]
    real_solve_for = runner.solve_for
    runner.solve_for = lambda masks, strains, pos=None: None  # type: ignore[assignment]
    try:
        alone = [timed(args.deals) for _ in range(args.repeat)]
    finally:
        runner.solve_for = real_solve_for  # type: ignore[assignment]
    a = statistics.median(t for t, _ in shared)
    b = statistics.median(t for t, _ in alone)
    print(f"# {date.today()} on {platform.node()} ({platform.machine()}), {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; {args.deals} deals, median of {args.repeat}")
    print("| solves | wall s |")
    print("|---|---:|")
    print(f"| one for the run's actions (as shipped) | {a:.2f} |")
    print(f"| one per action asking a strain not solved last (baseline) | {b:.2f} |")
    print(f"ratio {b / a:.2f}x; same output: {shared[0][1] == alone[0][1]}")


if __name__ == "__main__":
    main()
