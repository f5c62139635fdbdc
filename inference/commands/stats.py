"""``kibitz stats``: per-seat lengths, HCP and patterns of deals, beside the exact frequencies under a spec.

``--json`` prints one object ``{"deals": int, "source": str, "tables": [...]}``; every table has
the same keys (:data:`TABLE_KEYS`)::

    {"seat": "N", "feature": "hcp", "observed": {value: count}, "exact": {value: "num/den"} | null,
     "chi2": float | null, "dof": int | null, "p_value": float | null, "impossible_seen": [value] | null,
     "note": str | null}

``exact`` and the test's numbers are null without a spec, or when the table carries a ``note``
(why no test was made).
"""

from __future__ import annotations

import argparse
import json
import sys
import io
import itertools
from typing import TYPE_CHECKING, Iterator, TextIO

from dealer import Seat
from dealer.errors import InvalidFileError

from inference.errors import InvalidArgumentError

from inference.commands.options import FEATURES, Subparsers, add_json, add_n, add_seed, add_spec, limit_of

if TYPE_CHECKING:
    from dealer.cards.deal import Deal
    from dealer.tables.exact import ExactDealer
    from dealer.tables.stats import FeatureTest, Tally

__all__ = ["TABLE_KEYS", "register", "run_stats"]

#: The keys of each ``--json`` table, whatever the input.
TABLE_KEYS = ("seat", "feature", "observed", "exact", "chi2", "dof", "p_value", "impossible_seen", "note")

_NAMES = {"S": "spade length", "H": "heart length", "D": "diamond length", "C": "club length",
          "hcp": "HCP", "pattern": "pattern"}


def _read_deals(path: str) -> Iterator[Deal]:
    """The deals of a PBN file (``-``: standard input), one at a time."""
    from dealer.cards.pbnio import read_pbn_deals

    if path == "-":
        return read_pbn_deals(sys.stdin, "<stdin>")
    from dealer.checks import read_text

    return read_pbn_deals(io.StringIO(read_text(path, "deal file", InvalidFileError)), path)


def _tabulate_stream(deals: Iterator[Deal], tally: Tally) -> None:
    """Tabulate deals in batches, so memory stays bounded however many there are."""
    from dealer.tables.stats import tabulate

    while True:
        batch = list(itertools.islice(deals, 65536))
        if not batch:
            return
        tabulate(batch, tally)


def run_stats(args: argparse.Namespace, out: TextIO) -> int:
    """Tabulate the deals of a PBN file (or sampled from the spec), test them against the spec, print or plot."""
    from dealer import ImpossibleSpecError, InvalidDealError
    from dealer.rng import make_rng
    from dealer.tables.stats import Tally, compare, tabulate_masks

    if args.plot:
        _check_plot(args.plot)  # before anything is printed: a run that cannot plot writes nothing
    seats = [Seat.parse(s) for s in args.hand] if args.hand else list(Seat)
    features = args.feature or list(FEATURES)
    for f in features:
        if f not in FEATURES:
            raise InvalidArgumentError(f"unknown feature {f!r}: expected one of {', '.join(FEATURES)}")
    dealer = _dealer(args, frozenset(seats) if "hcp" in features else frozenset())
    tally = Tally()
    if args.input:
        _tabulate_stream(_read_deals(args.input), tally)
        if not tally.deals:
            raise InvalidDealError(f"no deals found in {args.input!r}")
        source = args.input
    else:
        if dealer is None:
            raise InvalidArgumentError("give a PBN file of deals to tabulate, or a spec (--spec) to sample deals from")
        if dealer.is_empty:
            raise ImpossibleSpecError(f"no deal satisfies the spec: {dealer.explain_empty()}")
        if args.n < 1:
            raise InvalidArgumentError(f"invalid -n {args.n}: stats needs at least one deal to tabulate")
        rng = make_rng(args.seed)
        left = args.n
        while left > 0:
            masks = dealer.sample_masks(min(left, 65536), rng)
            tabulate_masks(masks, tally)
            left -= len(masks)
        source = f"{args.n:,} deals sampled from the spec (seed {args.seed})"
    if dealer is not None and dealer.is_empty:
        raise ImpossibleSpecError(f"no deal satisfies the spec, so there are no exact frequencies to compare the "
                                  f"deals with: {dealer.explain_empty()}")
    tests = compare(tally, dealer, seats, features) if dealer is not None else []
    if args.json:
        tables = [_table_json(tally, _test_of(tests, seat, f), seat, f) for seat in seats for f in features]
        print(json.dumps({"deals": tally.deals, "source": source, "tables": tables}), file=out)
    else:
        _print_stats(tally, tests, seats, features, source, out)
    if args.plot:
        _plot(tally, tests, seats, features, args.plot)
    return 0


def _test_of(tests: list[FeatureTest], seat: Seat, feature: str) -> FeatureTest | None:
    return next((t for t in tests if t.seat == seat and t.feature == feature), None)


def _table_json(tally: Tally, test: FeatureTest | None, seat: Seat, feature: str) -> dict[str, object]:
    table = tally.table(seat, feature)
    entry: dict[str, object] = dict.fromkeys(TABLE_KEYS)
    entry.update(seat=seat.name, feature=feature,
                 observed={str(k): v for k, v in sorted(table.items(), key=str)})
    if test is not None and test.note:
        entry["note"] = test.note
    elif test is not None:
        entry.update(exact={str(k): f"{p.numerator}/{p.denominator}" for k, _, p in test.rows},
                     chi2=test.statistic, dof=test.dof, p_value=test.p_value,
                     impossible_seen=[str(x) for x in test.impossible_seen])
    return entry


def _print_stats(tally: Tally, tests: list[FeatureTest], seats: list[Seat], features: list[str], source: str,
                 out: TextIO) -> None:
    print(f"{tally.deals:,} deals ({source})", file=out)
    for seat in seats:
        for f in features:
            test = _test_of(tests, seat, f)
            print(f"\n{seat.name_long} {_NAMES[f]}", file=out)
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


def _dealer(args: argparse.Namespace, hcp_seats: "frozenset[Seat]") -> "ExactDealer | None":
    """The exact tables of the spec the deals are compared with (None: none given), HCP on the tables of
    ``hcp_seats`` (a seat whose conditions use only another count, such as controls, would count that in its
    place); a spec with conditions across seats gets the tables ``kibitz count`` counts it with, when exact."""
    if not (args.spec or args.spec_file):
        return None
    from dealer.errors import UnsupportedSpecError
    from dealer.run.script_dealer import ScriptDealer
    from dealer.spec.spec import DealSpec
    from dealer.tables.exact import ExactDealer
    from inference.commands.inputs import read_statements

    syntax, text, _ = read_statements(args.spec, args.spec_file)
    limit = limit_of(args)[0]
    try:
        spec = DealSpec.from_conditions(syntax.conditions, syntax.predeals, text.strip(), hcp_seats=hcp_seats)
    except UnsupportedSpecError:
        run = ScriptDealer(syntax, limit=limit, text=text.strip())
        if run.exact and isinstance(run.dealer, ExactDealer):
            return run.dealer
        raise InvalidArgumentError("stats compares the deals with exact frequencies, and this spec is counted "
                                   "only by an estimate (see kibitz count --explain)") from None
    return ExactDealer(spec, limit=limit)


def _check_plot(path: str) -> None:
    """Refuse a plot that cannot be made: matplotlib missing, or a file that cannot be written there."""
    import importlib.util
    import os

    if importlib.util.find_spec("matplotlib") is None:
        raise InvalidArgumentError("--plot needs matplotlib: pip install 'kibitz[plot]'")
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise InvalidArgumentError(f"cannot write plot {path!r}: "
                                   + ("it is a folder" if os.path.isdir(path) else f"cannot write in {folder!r}"))


def _plot(tally: Tally, tests: list[FeatureTest], seats: list[Seat], features: list[str], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidArgumentError("--plot needs matplotlib: pip install 'kibitz[plot]'") from None
    fig, axes = plt.subplots(len(seats), len(features), figsize=(3.2 * len(features), 2.6 * len(seats)),
                             squeeze=False)
    for r, seat in enumerate(seats):
        for c, f in enumerate(features):
            ax = axes[r][c]
            test = _test_of(tests, seat, f)
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
        raise InvalidArgumentError(f"cannot write plot {path!r}: {exc.strerror}") from None


def register(sub: Subparsers) -> None:
    """Add ``stats`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("stats", help="tabulate lengths, HCP and patterns; test them against a spec",
                       description="Tabulate per-seat suit lengths, HCP and patterns of the deals in a PBN file "
                                   "(or stdin with '-'), or of deals sampled from --spec; with a spec, print the "
                                   "exact expected frequencies and a chi-square test for each table.",
                       epilog=f"--json prints {{\"deals\", \"source\", \"tables\"}}; every table has the keys "
                              f"{', '.join(TABLE_KEYS)} (null where there is no spec or no test).")
    p.add_argument("input", nargs="?", metavar="FILE", help="PBN file of deals ('-' for stdin); omit to sample "
                                                            "from --spec")
    add_spec(p, positional=False)
    add_n(p, "deals to sample when no FILE is given", 100_000)
    add_seed(p, 1)
    p.add_argument("--hand", action="append", metavar="SEAT",
                   help="only the tables of this seat's hand (repeatable; default: every seat)")
    p.add_argument("--feature", action="append", help=f"only this feature: {', '.join(FEATURES)} (repeatable)")
    add_json(p, "the tables")
    p.add_argument("--plot", metavar="FILE.png", help="draw observed vs exact (needs matplotlib)")
    p.set_defaults(handler=run_stats)
