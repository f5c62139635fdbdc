"""``kibitz count``: the exact number of deals satisfying a spec, and its probability.

A spec the exact tables cannot hold whole (an ``||`` across seats, ``top3``, ``tricks``...) is
counted by filtering deals of the exact superset they can hold (:mod:`dealer.run.runner`): the count
is then an *estimate*, printed as such with its 95% interval.

``--json`` prints one object, always with the same keys::

    {"deals": int | null, "probability": "num/den" | null, "probability_decimal": float,
     "constrained": int, "constrained_seats": ["N", ...], "spec": str, "setup_seconds": float,
     "impossible": str | null, "exact": bool, "estimate": float | null, "interval": [low, high] | null,
     "completions": int | null, "share_of_completions": "num/den" | null, "plan": str | null,
     "drawn": int | null, "accepted": int | null, "solved": int | null}

``deals`` and ``constrained`` are strings when the count is weighted rather than an integer;
``impossible`` says why no deal satisfies the spec, and is null when some do. For an estimate,
``deals`` and ``probability`` are null and ``estimate``, ``interval`` give it (``constrained``
is then the exact superset's count), with how many deals of the superset were ``drawn``, how many of
them met the whole condition (``accepted``) and how many were ``solved`` double dummy (null for an
exact count). ``--explain`` prints how the spec was counted (which
condition the tables hold, which the labels across seats, a union or the filter, and every way
tried within the budget: :mod:`dealer.run.plan`); ``plan`` holds that text in the JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterator, TextIO

from inference.commands.options import (Subparsers, add_explain, add_json, add_progress, add_seed, add_spec, limit_of,
                                        progress_wanted, seed_of, whole)

if TYPE_CHECKING:
    from dealer.run.script_dealer import ScriptDealer

__all__ = ["JSON_KEYS", "register", "run_count", "fraction_text", "completions"]

#: The keys of the ``--json`` object, whatever the spec.
JSON_KEYS = ("deals", "probability", "probability_decimal", "constrained", "constrained_seats", "spec",
             "setup_seconds", "impossible", "exact", "estimate", "interval", "completions", "share_of_completions", "plan",
             "drawn", "accepted", "solved", "seed")


def fraction_text(p: Fraction) -> str:
    """``p`` as ``numerator/denominator``."""
    return f"{p.numerator}/{p.denominator}"


def completions(run: "ScriptDealer") -> int | None:
    """How many ways the cards the script's ``predeal`` statements leave can complete their hands (None: nothing
    predealt): the deals ``dealer`` draws from, whose share meeting the condition its "Produced / Generated"
    estimates. A ``hascard`` condition is a condition here, as in ``dealer``, not a predealt card."""
    return run.space if run.syntax.predeals else None


def _spec_text(run: "ScriptDealer") -> str:
    """What a count counted, whichever way the tables took: the predealt cards and every condition (an estimate
    prints beside it what the tables' deals are filtered by)."""
    from dealer.lang.expr import Or

    parts = [f"hascard({seat.name_long}, {card})" for seat, (cards, _) in run.syntax.predeals.items() for card in cards]
    parts += [f"({c})" if isinstance(c, Or) else str(c) for c in run.conditions]
    return " && ".join(parts) or "1"


def _one_in(prob: Fraction) -> str:
    """``1 / prob`` for people, exactly: its digits where it is whole, else rounded to one decimal."""
    odds = 1 / prob
    if odds.denominator == 1:
        return f"{odds.numerator:,}"
    tenths = round(odds * 10)
    return f"{tenths // 10:,}.{tenths % 10}"


def _given_predeal(deals: int, ways: int) -> str:
    """``77,966 of 705,432 completions of the predealt cards (11.05%)``."""
    return f"{deals:,} of {ways:,} completions of the predealt cards ({100 * deals / ways:.4g}%)"


def run_count(args: argparse.Namespace, out: TextIO) -> int:
    """Count the deals satisfying the spec and print the count and probability (text, or JSON with ``--json``)."""
    from dealer import ImpossibleSpecError
    from dealer.run.script_dealer import ScriptDealer
    from inference.commands.inputs import read_statements

    script, text, _ = read_statements(args.spec, args.spec_file)
    start = time.perf_counter()
    try:
        limit, patience = limit_of(args)
        with _streaming_bar(progress_wanted(args)):
            run = ScriptDealer(script, limit=limit, text=text.strip(), patience=patience, count_only=True)
    except ImpossibleSpecError as exc:  # a condition never true (``0``): the count is zero, exactly, not an error
        return _print_none(str(exc), args.json, out)
    status = _print_estimate(args, run, out, start) if not run.exact and not run.dealer.is_empty else \
        _print_exact(args, run, out, start)
    if args.explain and not args.json:
        print(run.plan.text(), file=out)
    return status


@contextmanager
def _streaming_bar(wanted: bool) -> Iterator[None]:
    """While the block runs, a progress bar on standard error for each stream of tables (the card positions done,
    the states held), when ``wanted``; tqdm is imported only when a stream starts (most counts have none)."""
    if not wanted:
        yield
        return
    from dealer.progress import reporting

    bar: Any = None

    def show(what: str, done: int, total: int, detail: str) -> None:
        nonlocal bar
        if bar is None or bar.total != total or done < bar.n:  # a new stream (or a second pass of one)
            from tqdm import tqdm

            if bar is not None:
                bar.close()
            bar = tqdm(total=total, desc=what, unit="card", file=sys.stderr, leave=False)
        bar.update(done - bar.n)
        bar.set_postfix_str(detail)

    try:
        with reporting(show):
            yield
    finally:
        if bar is not None:
            bar.close()


def _print_exact(args: argparse.Namespace, run: "ScriptDealer", out: TextIO, start: float) -> int:
    """Print an exact count (text, or JSON with ``--json``)."""
    from dealer import D

    dealer = run.dealer
    deals = dealer.count()
    elapsed = time.perf_counter() - start
    constrained = dealer.count_constrained()
    prob = Fraction(deals) / D
    reason = dealer.explain_empty()
    ways = completions(run)
    if args.json:
        obj: dict[str, object] = {
            "deals": int(deals) if isinstance(deals, int) else str(deals),
            "probability": fraction_text(prob),
            "probability_decimal": float(prob),
            "constrained": int(constrained) if isinstance(constrained, int) else str(constrained),
            "constrained_seats": [s.name for s in dealer.tracked],
            "spec": _spec_text(run),
            "setup_seconds": round(elapsed, 4),
            "impossible": reason or None,
            "exact": True,
            "estimate": None,
            "interval": None,
            "completions": ways,
            "share_of_completions": fraction_text(Fraction(deals, ways)) if ways and isinstance(deals, int) else None,
            "plan": run.plan.text() if args.explain else None,
            "drawn": None, "accepted": None, "solved": None, "seed": None,
        }
        print(json.dumps(obj), file=out)
        return 0
    print(f"spec:         {_spec_text(run)}", file=out)
    print(f"deals:        {deals:,}" if isinstance(deals, int) else f"deals:        {deals}", file=out)
    print(f"probability:  {fraction_text(prob)}", file=out)
    print(f"              = {float(prob):.6g}" + (f"  (1 in {_one_in(prob)})" if prob else ""), file=out)
    if ways and isinstance(deals, int):
        print(f"given:        {_given_predeal(deals, ways)}", file=out)
    if dealer.tracked:
        names = ", ".join(s.name for s in dealer.tracked)
        print(f"constrained:  {constrained:,} ways to deal {names}" if isinstance(constrained, int)
              else f"constrained:  {constrained} (weighted) for {names}", file=out)
    if reason:
        print(f"impossible:   {reason}", file=out)
    print(f"setup:        {elapsed:.3f} s", file=out)
    print("exact:        yes", file=out)
    return 0


def _print_estimate(args: argparse.Namespace, run: "ScriptDealer", out: TextIO, start: float) -> int:
    """Print the estimate of a count the tables cannot give exactly (text, or JSON with ``--json``)."""
    from dealer import D
    from dealer.budget import current

    seed = seed_of(args)  # shown: the estimate can be drawn again
    result = run.count(draws=args.draws, seed=seed)
    elapsed = time.perf_counter() - start
    ways = completions(run)
    filtered = " && ".join(str(c) for c in run.residual)
    if args.json:
        obj: dict[str, object] = {
            "deals": None, "probability": None, "probability_decimal": result.estimate / D,
            "constrained": result.superset, "constrained_seats": [s.name for s in run.dealer.tracked],
            "spec": _spec_text(run), "setup_seconds": round(elapsed, 4), "impossible": None,
            "exact": False, "estimate": result.estimate, "interval": [result.low, result.high],
            "completions": ways, "share_of_completions": None, "plan": run.plan.text() if args.explain else None,
            "drawn": result.drawn, "accepted": result.accepted, "solved": result.solved, "seed": seed,
        }
        print(json.dumps(obj), file=out)
        return 0
    print(f"spec:         {_spec_text(run)}", file=out)
    print(f"filtered by:  {filtered}", file=out)
    print(f"deals:        about {result.estimate:.6g} (estimate; 95% interval {result.low:.6g} to {result.high:.6g})",
          file=out)
    print(f"probability:  about {result.estimate / D:.6g} (estimate)", file=out)
    if ways:
        print(f"given:        about {100 * result.estimate / ways:.4g}% of the {ways:,} completions of the predealt "
              "cards (estimate)", file=out)
    solved = f" ({result.solved:,} of them solved double dummy)" if result.solved else ""
    print(f"superset:     {result.superset:,} deals, exactly; {result.accepted:,} of {result.drawn:,} drawn from it "
          f"met the whole condition{solved}; seed {seed}", file=out)
    print(f"setup:        {elapsed:.3f} s", file=out)
    hint = ""
    if run.loosened and args.limit is None:  # the tables' size, not the condition, made it an estimate
        budget = current()
        hint = (f"; {', '.join(s.name for s in run.loosened)} filtered, for tables past {budget.count_patience:,} states "
                f"(or {budget.stream_states:,} at one position, counted and not kept) were not tried: --limit CELLS "
                f"past {budget.stream_states:,} tries them")
    print("exact:        no (an estimate)" + hint, file=out)
    return 0


def _print_none(reason: str, as_json: bool, out: TextIO) -> int:
    """The answer for a spec whose condition is never true: no deal."""
    if as_json:
        obj: dict[str, object] = dict.fromkeys(JSON_KEYS)
        obj.update(deals=0, probability="0/1", probability_decimal=0.0, constrained=0, constrained_seats=[],
                   impossible=reason, exact=True)
        print(json.dumps(obj), file=out)
    else:
        print(f"deals:        0\nprobability:  0/1\nimpossible:   {reason}", file=out)
    return 0


def register(sub: Subparsers) -> None:
    """Add ``count`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("count", help="exact number of deals satisfying a spec",
                       description="Count, exactly, the deals satisfying SPEC and print the probability "
                                   "as a fraction and a decimal.",
                       epilog=f"--json prints one object with the keys {', '.join(JSON_KEYS)}; impossible (why no "
                              "deal satisfies the spec) is null when some do; completions (the ways to complete "
                              "the predealt cards) and share_of_completions (exact, the share of them meeting "
                              "the spec: what dealer's Produced / Generated estimates) are null without predeal.")
    add_spec(p)
    add_json(p, 'the count ({"deals": N, ...})')
    p.add_argument("--draws", type=whole("--draws", 1), default=None,
                   help="deals drawn to estimate a count the tables cannot give exactly (default 100,000; 300 when "
                        "the condition asks for tricks, each deal solved double dummy)")
    add_seed(p, None, shown="a fresh seed each run, shown with an estimate")
    add_explain(p)
    add_progress(p, " while tables too large to keep are counted, streamed")
    p.set_defaults(handler=run_count)
