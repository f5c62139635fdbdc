"""Peers side by side: the dealer benchmark's specs on Kibitz and on the dealers people already use.

Run: ``python benchmarks/peers.py [--deals 10000] [--seconds 20] [--repeat 3]``.

Peers, each skipped with a note when missing:

- Debian's ``dealer`` (Hans van Staveren's dealer; ``apt install dealer``): the spec as its condition.
- Debian's ``deal`` (Thomas Andrews' Deal 3, Tcl; ``apt install deal``): the spec translated to a
  ``main { accept if {...} }`` script with shape classes.
- endplay's dealer (``pip install endplay``, the extra ``kibitz[bot]``): ``generate_deals`` with the
  spec as a dealer-language string.

All three deal at random and keep what matches (deal-and-select); Kibitz deals exactly. Each figure
is deals produced per second of wall time for ``--deals`` deals from a cold start (Kibitz: building
the dealer included, in this process; peers: the whole program run), capped at ``--seconds`` (a peer
that is stopped at the cap is credited with what it produced, "<" when that is nothing). Median of
``--repeat`` runs; the ratio is Kibitz's rate over the peer's.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dealer.tables.exact import ExactDealer, clear_caches  # noqa: E402
from dealer.spec.spec import DealSpec  # noqa: E402

_bench = importlib.util.spec_from_file_location("dealer_benchmark", Path(__file__).with_name("dealer.py"))
assert _bench is not None and _bench.loader is not None
_module = importlib.util.module_from_spec(_bench)
_bench.loader.exec_module(_module)
SPECS: dict[str, str] = _module.SPECS

DEALER = shutil.which("dealer") or "/usr/games/dealer"
DEAL = shutil.which("deal") or "/usr/games/deal"

Result = tuple[int, float]  # deals produced, seconds


def kibitz(spec: str, n: int, cap: float, seed: int) -> Result:
    clear_caches()
    start = time.perf_counter()
    ExactDealer(DealSpec.parse(spec)).sample_masks(n, seed)
    return n, time.perf_counter() - start


def _stream(cmd: list[str], stdin: str, n: int, cap: float, is_deal: Callable[[str], bool]) -> Result:
    """Run a peer, count the deals it prints until it ends or the cap (then it is killed)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    got = 0
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buf = ""
    while True:
        left = cap - (time.perf_counter() - start)
        if left <= 0 or not sel.select(timeout=left):
            proc.kill()
            break
        chunk = os.read(proc.stdout.fileno(), 1 << 16).decode()
        if not chunk:
            break
        buf += chunk
        *lines, buf = buf.split("\n")
        got += sum(1 for line in lines if is_deal(line))
        if got >= n:
            break
    elapsed = time.perf_counter() - start
    proc.kill()
    proc.wait()
    return min(got, n), elapsed


def dealer_peer(spec: str, n: int, cap: float, seed: int) -> Result:
    script = f"generate 100000000\nproduce {n}\ncondition {spec}\naction printoneline\n"
    return _stream([DEALER, "-s", str(seed + 1)], script, n, cap, lambda line: line.startswith("n "))


_SUITS = ("spades", "hearts", "diamonds", "clubs")


def deal_script(spec: str) -> str:
    """The spec as a Deal 3 (Tcl) script: conjunctions of lengths, HCP and shapes."""
    classes: list[str] = []
    conds: list[str] = []
    for atom in (a.strip() for a in spec.split("&&")):
        if atom == "1":
            continue
        m = re.fullmatch(r"(spades|hearts|diamonds|clubs|hcp)\((\w+)\)\s*(==|>=|<=|>|<|!=)\s*(\d+)", atom)
        if m:
            conds.append(f"[{m[1]} {m[2]}] {m[3]} {m[4]}")
            continue
        m = re.fullmatch(r"shape\((\w+),\s*(.+)\)", atom)
        if not m:
            raise ValueError(f"cannot translate {atom!r} for deal")
        alts = []
        for pattern in (p.strip() for p in m[2].split("+")):
            if pattern.startswith("any "):
                digits = " ".join(sorted(pattern[4:].strip(), reverse=True))
                alts.append(f'[lsort -integer -decreasing [list $s $h $d $c]] eq "{digits}"')
            else:
                alts.append(" && ".join(f"${v} == {ch}" for v, ch in zip("shdc", pattern) if ch != "x") or "1")
        name = f"shape{len(classes)}"
        classes.append(f"shapeclass {name} {{expr {{{' || '.join(f'({a})' for a in alts)}}}}}")
        conds.append(f"[{name} {m[1]}]")
    body = "accept if {" + " && ".join(conds) + "}" if conds else "accept"
    return "\n".join(classes + ["main {", f"  {body}", "}"]) + "\n"


def deal_peer(spec: str, n: int, cap: float, seed: int) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".tcl", delete=False) as f:
        f.write(deal_script(spec))
    try:
        return _stream([DEAL, "-s", str(seed + 1), "-i", f.name, "-l", str(n)], "", n, cap,
                       lambda line: line.count("|") == 3)
    finally:
        os.unlink(f.name)


def endplay_peer(spec: str, n: int, cap: float, seed: int) -> Result:
    gen = importlib.import_module("endplay.dealer.generate")
    # endplay deals about 3,000 shuffles a second here: cap the attempts to stay near the time cap
    attempts = max(int(cap * 3000), 1000)
    args = () if spec == "1" else (spec,)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sum(1 for _ in gen.generate_deals(*args, produce=n, seed=seed + 1, max_attempts=attempts))
    return got, time.perf_counter() - start


def available() -> dict[str, tuple[Callable[[str, int, float, int], Result] | None, str]]:
    """Each peer and why it is missing (empty when present)."""
    peers: dict[str, tuple[Callable[[str, int, float, int], Result] | None, str]] = {}
    peers["dealer"] = (dealer_peer, "") if os.access(DEALER, os.X_OK) else (None, "not installed: apt install dealer")
    peers["deal"] = (deal_peer, "") if os.access(DEAL, os.X_OK) else (None, "not installed: apt install deal")
    try:
        importlib.import_module("endplay.dealer.generate")
        peers["endplay"] = (endplay_peer, "")
    except ImportError:
        peers["endplay"] = (None, "not installed: pip install endplay (or kibitz[bot])")
    return peers


def rate_text(rate: float) -> str:
    """A rate with its significant digits: 0.35, 35.2, 9,852."""
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"


def median_rate(fn: Callable[[str, int, float, int], Result], spec: str, n: int, cap: float,
                repeat: int) -> tuple[float, int, float]:
    runs = [fn(spec, n, cap, r) for r in range(repeat)]
    rates = [got / secs for got, secs in runs]
    got, secs = runs[rates.index(statistics.median_low(rates))]
    return statistics.median(rates), got, secs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--endplay-deals", type=int, default=1_000, help="endplay is slow: fewer deals for it")
    ap.add_argument("--seconds", type=float, default=20.0, help="cap on one peer run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    peers = available()
    print(f"# Kibitz vs peers, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {args.deals:,} deals a run ({args.endplay_deals:,} for endplay), "
          f"cap {args.seconds:g} s, median of {args.repeat}")
    for name, (fn, why) in peers.items():
        if fn is None:
            print(f"# {name} skipped: {why}")
    print()
    names = [p for p, (fn, _) in peers.items() if fn is not None]
    print("| spec | Kibitz deals/s | " + " | ".join(f"{p} deals/s | Kibitz / {p}" for p in names) + " |")
    print("|---|---:|" + "---:|---:|" * len(names))
    for key, spec in SPECS.items():
        if args.only and key not in args.only:
            continue
        k_rate, _, _ = median_rate(kibitz, spec, args.deals, args.seconds, args.repeat)
        cells = [rate_text(k_rate)]
        for p in names:
            fn = peers[p][0]
            assert fn is not None
            n = args.endplay_deals if p == "endplay" else args.deals
            rate, got, secs = median_rate(fn, spec, n, args.seconds, args.repeat)
            if got == 0:
                cells += [f"< {1 / secs:.2g} (none in {secs:.0f} s)", f"> {k_rate * secs:,.0f}x"]
            else:
                ratio = k_rate / rate
                cells += [rate_text(rate) + ("" if got >= n else f" ({got:,} in {secs:.0f} s)"),
                          f"{ratio:,.0f}x" if ratio >= 100 else f"{ratio:.1f}x"]
        print(f"| {key} | " + " | ".join(cells) + " |")
        sys.stdout.flush()
    _module.print_legend(args.only)


if __name__ == "__main__":
    main()
