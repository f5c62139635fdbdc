"""The dealer's subcommands of the ``kibitz`` program: ``number``, ``count``, ``deal``, ``stats``.

``dealer`` cannot import ``inference``; the ``kibitz`` entry point lives in
:mod:`inference.cli` and adds these commands with :func:`register`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, TextIO

from .deal import Deal
from .engine import DEFAULT_LIMIT
from .errors import DealerError, DealNumberError, ImpossibleSpecError, InvalidDealError
from .exact import FEATURES, ExactDealer
from .rng import make_rng
from .language import Script, parse_script
from .numbering import D, deal_to_number, number_to_deal
from .pbnio import FORMATS, read_pbn_deals, write_deals
from .seat import Seat

if TYPE_CHECKING:
    from .stats import FeatureTest

__all__ = ["register", "run_handler", "load_script"]

Handler = Callable[[argparse.Namespace, TextIO], int]

_INT = re.compile(r"^[+-]?\d[\d_,]*$")


def load_script(spec: str | None, spec_file: str | None) -> Script:
    """A spec given inline, or as a file (``-f``); an existing path given inline is read too."""
    if spec_file is not None:
        try:
            with open(spec_file, encoding="utf-8") as fh:
                return parse_script(fh.read(), source=spec_file)
        except OSError as exc:
            raise DealerError(f"cannot read spec file {spec_file!r}: {exc.strerror}") from None
    if spec is None:
        raise DealerError("no spec given: pass it as an argument or with -f FILE")
    if os.path.isfile(spec):
        return load_script(None, spec)
    return parse_script(spec, source="<spec>")


def _cmd_number(args: argparse.Namespace, out: TextIO) -> int:
    results = []
    for item in args.items:
        text = item.strip()
        if _INT.match(text):
            try:
                value = int(text.replace("_", "").replace(",", ""))
            except ValueError:  # pragma: no cover - regex guarantees digits
                raise DealNumberError(f"invalid deal number {item!r}: expected an integer 0 .. {D - 1}")
            results.append(number_to_deal(value).to_pbn(args.first))
        else:
            results.append(str(deal_to_number(Deal.from_pbn(text))))
    for line in results:
        print(line, file=out)
    return 0


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _cmd_count(args: argparse.Namespace, out: TextIO) -> int:
    script = load_script(args.spec, args.file)
    start = time.perf_counter()
    dealer = ExactDealer(script.spec, limit=args.limit)
    deals = dealer.count()
    elapsed = time.perf_counter() - start
    constrained = dealer.count_constrained()
    prob = Fraction(deals) / D
    reason = dealer.explain_empty()
    if args.json:
        obj: dict[str, object] = {
            "deals": int(deals) if isinstance(deals, int) else str(deals),
            "probability": _fraction_text(prob),
            "probability_decimal": float(prob),
            "constrained": int(constrained) if isinstance(constrained, int) else str(constrained),
            "constrained_seats": [s.name for s in dealer.tracked],
            "spec": str(script.spec),
            "setup_seconds": round(elapsed, 4),
        }
        if reason:
            obj["impossible"] = reason
        print(json.dumps(obj), file=out)
        return 0
    print(f"spec:         {script.spec}", file=out)
    print(f"deals:        {deals:,}" if isinstance(deals, int) else f"deals:        {deals}", file=out)
    print(f"probability:  {_fraction_text(prob)}", file=out)
    print(f"              = {float(prob):.6g}" + (f"  (1 in {float(1 / prob):,.1f})" if prob else ""), file=out)
    if dealer.tracked:
        names = ", ".join(s.name for s in dealer.tracked)
        print(f"constrained:  {constrained:,} ways to deal {names}" if isinstance(constrained, int)
              else f"constrained:  {constrained} (weighted) for {names}", file=out)
    if reason:
        print(f"impossible:   {reason}", file=out)
    print(f"setup:        {elapsed:.3f} s", file=out)
    return 0


def _cmd_deal(args: argparse.Namespace, out: TextIO) -> int:
    script = load_script(args.spec, args.file)
    n = args.n if args.n is not None else (script.produce or 10)
    if n < 0:
        raise DealerError(f"invalid -n {n}: expected a number of deals >= 0")
    dealer = ExactDealer(script.spec, limit=args.limit)
    if dealer.is_empty:
        raise ImpossibleSpecError(f"no deal satisfies the spec: {dealer.explain_empty()}")
    rng = make_rng(args.seed if args.seed is not None else script.seed)
    target: TextIO = out
    handle = None
    if args.output:
        try:
            handle = open(args.output, "w", encoding="utf-8")
        except OSError as exc:
            raise DealerError(f"cannot write {args.output!r}: {exc.strerror}") from None
        target = handle
    try:
        written = 0
        batch = 65536
        while written < n:
            masks = dealer.sample_masks(min(batch, n - written), rng)
            write_deals(masks, target, args.format, start=written + 1, spec_text=str(script.spec))
            written += len(masks)
    finally:
        if handle is not None:
            handle.close()
    return 0


def _read_deals(path: str) -> list[Deal]:
    if path == "-":
        return list(read_pbn_deals(sys.stdin, "<stdin>"))
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return list(read_pbn_deals(fh, path))
    except OSError as exc:
        raise DealerError(f"cannot read {path!r}: {exc.strerror}") from None


def _cmd_stats(args: argparse.Namespace, out: TextIO) -> int:
    from .stats import Tally, compare, tabulate, tabulate_masks

    script = load_script(args.spec, None) if (args.spec or args.spec_file) else None
    if args.spec_file:
        script = load_script(None, args.spec_file)
    dealer = ExactDealer(script.spec, limit=args.limit) if script else None
    seats = [Seat.parse(s) for s in args.seat] if args.seat else list(Seat)
    features = args.feature or list(FEATURES)
    for f in features:
        if f not in FEATURES:
            raise DealerError(f"unknown feature {f!r}: expected one of {', '.join(FEATURES)}")
    tally = Tally()
    if args.input:
        deals = _read_deals(args.input)
        if not deals:
            raise InvalidDealError(f"no deals found in {args.input!r}")
        tabulate(deals, tally)
        source = args.input
    else:
        if dealer is None:
            raise DealerError("give a PBN file of deals to tabulate, or a spec (--spec) to sample deals from")
        if dealer.is_empty:
            raise ImpossibleSpecError(f"no deal satisfies the spec: {dealer.explain_empty()}")
        rng = make_rng(args.seed)
        left = args.n
        while left > 0:
            masks = dealer.sample_masks(min(left, 65536), rng)
            tabulate_masks(masks, tally)
            left -= len(masks)
        source = f"{args.n:,} deals sampled from the spec (seed {args.seed})"
    tests = compare(tally, dealer, seats, features) if dealer is not None else []
    if args.json:
        obj = {"deals": tally.deals, "source": source, "tables": []}
        for seat in seats:
            for f in features:
                table = tally.table(seat, f)
                entry: dict[str, object] = {"seat": seat.name, "feature": f,
                                            "observed": {str(k): v for k, v in sorted(table.items(), key=str)}}
                test = next((t for t in tests if t.seat == seat and t.feature == f), None)
                if test is not None and test.note:
                    entry["note"] = test.note
                elif test is not None:
                    entry["exact"] = {str(k): f"{p.numerator}/{p.denominator}" for k, _, p in test.rows}
                    entry.update(chi2=test.statistic, dof=test.dof, p_value=test.p_value,
                                 impossible_seen=[str(x) for x in test.impossible_seen])
                obj["tables"].append(entry)
        print(json.dumps(obj), file=out)
    else:
        _print_stats(tally, tests, seats, features, source, out)
    if args.plot:
        _plot(tally, tests, seats, features, args.plot)
    return 0


def _print_stats(tally: object, tests: list[FeatureTest], seats: list[Seat], features: list[str], source: str,
                 out: TextIO) -> None:
    from .stats import Tally

    assert isinstance(tally, Tally)
    print(f"{tally.deals:,} deals ({source})", file=out)
    names = {"S": "spade length", "H": "heart length", "D": "diamond length", "C": "club length",
             "hcp": "HCP", "pattern": "pattern"}
    for seat in seats:
        for f in features:
            test = next((t for t in tests if t.seat == seat and t.feature == f), None)
            print(f"\n{seat.name_long} {names[f]}", file=out)
            if test is None:
                table = tally.table(seat, f)
                for k, v in sorted(table.items(), key=lambda kv: str(kv[0]).zfill(8)):
                    print(f"  {str(k):>9}  {v:>10,}  {100 * v / tally.deals:8.4f}%", file=out)
                continue
            if test.note:
                for k, o, _ in test.rows:
                    print(f"  {str(k):>9}  {o:>10,}  {100 * o / tally.deals:8.4f}%", file=out)
                print(f"  ({test.note})", file=out)
                continue
            print(f"  {'value':>9}  {'observed':>10}  {'expected':>12}  {'obs %':>8}  {'exact %':>8}", file=out)
            for k, o, p in test.rows:
                e = float(p) * tally.deals
                print(f"  {str(k):>9}  {o:>10,}  {e:>12,.1f}  {100 * o / tally.deals:8.4f}  {100 * float(p):8.4f}",
                      file=out)
            verdict = f"  chi-square {test.statistic:.2f} on {test.dof} df, p = {test.p_value:.4g}"
            if test.impossible_seen:
                verdict += f"  IMPOSSIBLE VALUES SEEN: {', '.join(map(str, test.impossible_seen))}"
            print(verdict, file=out)


def _plot(tally: object, tests: list[FeatureTest], seats: list[Seat], features: list[str], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DealerError("--plot needs matplotlib: pip install 'kibitz[plot]'") from None
    from .stats import Tally

    assert isinstance(tally, Tally)
    fig, axes = plt.subplots(len(seats), len(features), figsize=(3.2 * len(features), 2.6 * len(seats)),
                             squeeze=False)
    for r, seat in enumerate(seats):
        for c, f in enumerate(features):
            ax = axes[r][c]
            test = next((t for t in tests if t.seat == seat and t.feature == f), None)
            if test is not None and not test.note:
                keys = [str(k) for k, _, _ in test.rows]
                obs = [o / tally.deals for _, o, _ in test.rows]
                exp = [float(p) for _, _, p in test.rows]
                ax.bar(range(len(keys)), obs, color="tab:blue", alpha=0.6, label="observed")
                ax.plot(range(len(keys)), exp, "k.-", lw=1, label="exact")
                ax.set_title(f"{seat.name} {f}  p={test.p_value:.3g}", fontsize=8)
            else:
                table = tally.table(seat, f)
                keys = [str(k) for k in sorted(table, key=str)]
                ax.bar(range(len(keys)), [table[k] / tally.deals for k in sorted(table, key=str)])
                ax.set_title(f"{seat.name} {f}", fontsize=8)
            step = max(1, len(keys) // 8)
            ax.set_xticks(range(0, len(keys), step))
            ax.set_xticklabels(keys[::step], fontsize=6, rotation=45)
            ax.tick_params(labelsize=6)
    axes[0][0].legend(fontsize=6)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise DealerError(f"cannot write plot {path!r}: {exc.strerror}") from None


def _spec_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", nargs="?", help="spec in the dealer language, or a file holding one")
    p.add_argument("-f", "--file", help="read the spec from this file")
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT,
                   help=f"largest table (cells) the exact dealer may build (default {DEFAULT_LIMIT:,})")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the dealer's subcommands to ``sub``."""
    p = sub.add_parser(
        "number",
        help="Pavlicek deal number <-> PBN deal",
        description=(
            "Print the Pavlicek number of a PBN deal ('N:AKQ.T98.J9876.5 ...'), or the PBN deal "
            f"of a number 0 .. D-1 (D = {D:,})."
        ),
    )
    p.add_argument("items", nargs="+", metavar="DEAL_OR_NUMBER", help="a PBN deal string or a deal number")
    p.add_argument("--first", default="N", help="first seat of printed PBN deals (default N)")
    p.set_defaults(handler=_cmd_number)

    p = sub.add_parser("count", help="exact number of deals satisfying a spec",
                       description="Count, exactly, the deals satisfying SPEC and print the probability "
                                   "as a fraction and a decimal.")
    _spec_args(p)
    p.add_argument("--json", action="store_true", help='print {"deals": N, ...} as JSON')
    p.set_defaults(handler=_cmd_count)

    p = sub.add_parser("deal", help="deal random deals satisfying a spec, exactly and uniformly",
                       description="Deal N independent deals, uniform over those satisfying SPEC.")
    _spec_args(p)
    p.add_argument("-n", type=int, default=None, help="how many deals (default: the spec's produce, else 10)")
    p.add_argument("--seed", type=int, default=None, help="random seed (same seed, same deals)")
    p.add_argument("--format", choices=FORMATS, default="pbn", help="pbn (default), oneline or json lines")
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p.set_defaults(handler=_cmd_deal)

    p = sub.add_parser("stats", help="tabulate lengths, HCP and patterns; test them against a spec",
                       description="Tabulate per-seat suit lengths, HCP and patterns of the deals in a PBN file "
                                   "(or stdin with '-'), or of deals sampled from --spec; with a spec, print the "
                                   "exact expected frequencies and a chi-square test for each table.")
    p.add_argument("input", nargs="?", help="PBN file of deals ('-' for stdin); omit to sample from --spec")
    p.add_argument("--spec", help="spec the deals should follow (text or file)")
    p.add_argument("--spec-file", help="read the spec from this file")
    p.add_argument("-n", type=int, default=100_000, help="deals to sample when no input is given (default 100,000)")
    p.add_argument("--seed", type=int, default=1, help="seed for sampling (default 1)")
    p.add_argument("--seat", action="append", help="only this seat (repeatable)")
    p.add_argument("--feature", action="append", help=f"only this feature: {', '.join(FEATURES)} (repeatable)")
    p.add_argument("--json", action="store_true", help="print the tables as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="draw observed vs exact (needs matplotlib)")
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help=argparse.SUPPRESS)
    p.set_defaults(handler=_cmd_stats)


def run_handler(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Call the handler chosen by the parsed ``args``."""
    handler: Handler = args.handler
    return handler(args, out)
