"""Compatibility with the ``dealer`` program: real scripts, run unchanged by Kibitz and by ``dealer``.

Run: ``python benchmarks/compat.py DIR [DIR ...] [--generate 1000000] [--seed 1]``, with ``dealer`` on the
path (Debian: ``apt-get install dealer``, at /usr/games/dealer). For every script in each DIR it prints whether
Kibitz runs it, whether its count is exact or an estimate (or the error, with line and column),
and the |z| of ``dealer``'s acceptance rate over ``--generate`` random deals against Kibitz's
probability (exact, or estimated from ``--draws`` deals with its own variance added; a condition with
``tricks`` is estimated from ``--tricks-draws`` deals, each one solved double dummy). The count is the one
``kibitz count`` gives (the budget's ``count_patience``, then tables counted one position at a time:
:mod:`dealer.budget`, ``ScriptDealer(count_only=True)``). A summary line per folder and
one for all follow. The scripts are not part of the repository (see docs/dealer.rst for where they
come from).

``--wall``: instead, run each script whole, unchanged, with its own ``produce``, ``generate`` and
actions, as ``dealer -s SEED SCRIPT`` and as ``kibitz dealer -s SEED SCRIPT`` (``python -m
inference.commands``, or ``--program ENV/bin/kibitz``, an installed one), and print both wall times (program
start included) and their ratio.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dealer.errors import DealerError  # noqa: E402
from dealer.budget import current
from dealer.run.script_dealer import ScriptDealer  # noqa: E402
from dealer.lang.statements import parse_statements  # noqa: E402


def dealer_rate(path: str, generate: int, seed: int, exe: str) -> tuple[int, int] | str:
    """(produced, generated) of ``dealer`` on the script over ``generate`` deals, or its error."""
    cmd = [exe, "-s", str(seed), "-g", str(generate), "-p", str(10 * generate), os.path.abspath(path)]
    try:
        with tempfile.TemporaryDirectory() as scratch:  # dealer leaves files where it runs (its 'tricks' analysis)
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, errors="replace", cwd=scratch)
    except subprocess.TimeoutExpired:
        return "dealer timed out"
    gen = re.search(r"Generated (\d+) hands", proc.stdout)
    prod = re.search(r"Produced (\d+) hands", proc.stdout)
    if proc.returncode == 0 and not gen and "[Deal " in proc.stdout:  # printpbn prints no totals
        return proc.stdout.count("[Deal "), generate  # produce is never reached, so all were generated
    if not gen or not prod:
        return "dealer: " + (proc.stderr.strip().splitlines() or ["no totals"])[-1][:60]
    return int(prod.group(1)), int(gen.group(1))


def run_folder(folder: str, args: argparse.Namespace, exe: str | None) -> dict[str, float]:
    """Every script of ``folder``, one line each; the folder's tally."""
    tally: dict[str, float] = {"scripts": 0, "run": 0, "exact": 0, "estimate": 0, "agree": 0, "tested": 0,
                               "max_z": 0.0}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        tally["scripts"] += 1
        text = open(path, encoding="latin-1").read()
        start = time.perf_counter()
        try:
            run = ScriptDealer(parse_statements(text, source=name), text=text, patience=current().count_patience,
                               count_only=True)
            tricks = run.filter is not None and "tricks(" in str(run.filter)
            result = run.count(draws=args.tricks_draws if tricks else args.draws, seed=args.seed)
        except DealerError as exc:
            print(f"{name:<32} {'error':<9} {'':>7} {'':>12} {'':>16} {'':>6}  {str(exc).splitlines()[0][:90]}")
            continue
        setup = time.perf_counter() - start
        tally["run"] += 1
        kind = "exact" if result.exact else "estimate"
        tally[kind] += 1
        p = (result.deals if result.deals is not None else result.estimate) / run.space
        q = (result.accepted + 0.5) / (result.drawn + 1) if result.drawn else 0.0  # never 0: none kept is no proof
        var_p = 0.0 if result.exact else (result.superset / run.space) ** 2 * q * (1 - q) / max(result.drawn, 1)
        rate = dealer_rate(path, args.generate, args.seed, exe) if exe else "no dealer"
        if isinstance(rate, str):
            print(f"{name:<32} {kind:<9} {setup:7.2f} {p:12.4g} {rate[:16]:>16} {'':>6}")
            continue
        produced, generated = rate
        sd = math.sqrt(p * (1 - p) / generated + var_p)
        z = abs(produced / generated - p) / sd if sd > 0 else (0.0 if produced == p * generated else math.inf)
        tally["tested"] += 1
        tally["agree"] += z <= 3
        tally["max_z"] = max(tally["max_z"], z)
        print(f"{name:<32} {kind:<9} {setup:7.2f} {p:12.4g} {produced:>7}/{generated:<8} {z:6.2f}", flush=True)
    return tally


def wall_time(argv: list[str], timeout: float = 600) -> float | None:
    """Seconds ``argv`` took, output thrown away; None if it failed or timed out.

    The wait blocks until the program ends (a timer kills it at ``timeout``): ``subprocess.run(timeout=...)``
    would poll, at steps growing to 50 ms, and round a run's time up by as much."""
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=scratch)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            status = proc.wait()
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
    return seconds if status == 0 else None


def wall_folder(folder: str, args: argparse.Namespace, exe: str) -> list[tuple[float, float]]:
    """Every script of ``folder`` run whole by both programs: one line each; the (dealer, kibitz) times of
    the scripts both ran."""
    both = []
    kibitz = [args.program] if args.program else [sys.executable, "-m", "inference.commands"]
    kibitz += ["dealer", "-s", str(args.seed)]
    for name in sorted(os.listdir(folder)):
        path = os.path.abspath(os.path.join(folder, name))
        if not os.path.isfile(path):
            continue
        d = wall_time([exe, "-s", str(args.seed), path])
        k = wall_time(kibitz + [path])
        shown = [f"{x:9.2f}" if x is not None else f"{'failed':>9}" for x in (d, k)]
        ratio = f"{d / k:7.2f}x" if d is not None and k is not None else ""
        print(f"{name:<40} {shown[0]} {shown[1]} {ratio}", flush=True)
        if d is not None and k is not None:
            both.append((d, k))
    return both


def wall_main(args: argparse.Namespace, exe: str | None) -> None:
    """The ``--wall`` table and its summary."""
    if exe is None:
        raise SystemExit("--wall needs dealer on the path")
    os.environ["PYTHONPATH"] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    both = []
    print(f"{'script':<40} {'dealer s':>9} {'kibitz s':>9} {'dealer/kibitz':>8}")
    for folder in args.folders:
        print(f"# {folder}")
        both += wall_folder(folder, args, exe)
    if both:
        ratios = sorted(d / k for d, k in both)
        print(f"# {len(both)} scripts run by both: dealer {sum(d for d, _ in both):.1f} s in all, kibitz "
              f"{sum(k for _, k in both):.1f} s; kibitz faster on {sum(r > 1 for r in ratios)}; median "
              f"dealer/kibitz {ratios[len(ratios) // 2]:.2f}x; kibitz's slowest {max(k for _, k in both):.2f} s, "
              f"dealer's {max(d for d, _ in both):.2f} s")


def summary(label: str, tally: dict[str, float]) -> str:
    """One line: scripts, run, exact, estimated, agreeing with dealer, the largest |z|."""
    return (f"# {label}: {tally['scripts']:.0f} scripts: {tally['run']:.0f} run ({tally['exact']:.0f} exact, "
            f"{tally['estimate']:.0f} by estimate), {tally['agree']:.0f} of {tally['tested']:.0f} tested agree with "
            f"dealer (|z| <= 3), largest |z| {tally['max_z']:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--generate", type=int, default=1_000_000)
    ap.add_argument("--draws", type=int, default=200_000)
    ap.add_argument("--tricks-draws", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--wall", action="store_true", help="time whole runs of both programs instead")
    ap.add_argument("--program", help="with --wall: an installed kibitz script to time (a non-editable install, as "
                                      "a user has it) instead of python -m inference.commands from this checkout")
    args = ap.parse_args()
    exe = shutil.which("dealer") or ("/usr/games/dealer" if os.path.exists("/usr/games/dealer") else None)
    if args.wall:
        print(f"# {date.today()} on {platform.node()} ({platform.processor() or platform.machine()}), wall times, "
              f"seed {args.seed}")
        wall_main(args, exe)
        return
    print(f"# {date.today()} on {platform.node()} ({platform.processor() or platform.machine()}), "
          f"dealer {'at ' + exe if exe else 'not found'}, generate {args.generate:,}")
    total: dict[str, float] = {}
    lines = []
    for folder in args.folders:
        print(f"# {folder}")
        print(f"{'script':<32} {'kibitz':<9} {'setup s':>7} {'p (kibitz)':>12} {'dealer':>16} {'|z|':>6}")
        tally = run_folder(folder, args, exe)
        lines.append(summary(os.path.basename(folder.rstrip("/")), tally))
        print(lines[-1], flush=True)
        for key, value in tally.items():
            total[key] = max(total.get(key, 0.0), value) if key == "max_z" else total.get(key, 0.0) + value
    for line in lines:
        print(line)
    if len(args.folders) > 1:
        print(summary("all", total))


if __name__ == "__main__":
    main()
