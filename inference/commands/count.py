"""``kibitz count``: the exact number of deals satisfying a spec, and its probability.

``--json`` prints one object, always with the same keys::

    {"deals": int, "probability": "num/den", "probability_decimal": float, "constrained": int,
     "constrained_seats": ["N", ...], "spec": str, "setup_seconds": float, "impossible": str | null}

``deals`` and ``constrained`` are strings when the count is weighted rather than an integer;
``impossible`` says why no deal satisfies the spec, and is null when some do.
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction
from typing import TextIO

from .options import Subparsers, add_json, add_spec

__all__ = ["JSON_KEYS", "register", "run_count", "fraction_text"]

#: The keys of the ``--json`` object, whatever the spec.
JSON_KEYS = ("deals", "probability", "probability_decimal", "constrained", "constrained_seats", "spec",
             "setup_seconds", "impossible")


def fraction_text(p: Fraction) -> str:
    """``p`` as ``numerator/denominator``."""
    return f"{p.numerator}/{p.denominator}"


def run_count(args: argparse.Namespace, out: TextIO) -> int:
    """Count the deals satisfying the spec and print the count and probability (text, or JSON with ``--json``)."""
    from dealer import D, ImpossibleSpecError
    from dealer.exact import ExactDealer

    from .inputs import load_script

    try:
        script = load_script(args.spec, args.spec_file)
    except ImpossibleSpecError as exc:  # a condition never true (``0``): the count is zero, exactly, not an error
        return _print_none(str(exc), args.json, out)
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
            "probability": fraction_text(prob),
            "probability_decimal": float(prob),
            "constrained": int(constrained) if isinstance(constrained, int) else str(constrained),
            "constrained_seats": [s.name for s in dealer.tracked],
            "spec": str(script.spec),
            "setup_seconds": round(elapsed, 4),
            "impossible": reason or None,
        }
        print(json.dumps(obj), file=out)
        return 0
    print(f"spec:         {script.spec}", file=out)
    print(f"deals:        {deals:,}" if isinstance(deals, int) else f"deals:        {deals}", file=out)
    print(f"probability:  {fraction_text(prob)}", file=out)
    print(f"              = {float(prob):.6g}" + (f"  (1 in {float(1 / prob):,.1f})" if prob else ""), file=out)
    if dealer.tracked:
        names = ", ".join(s.name for s in dealer.tracked)
        print(f"constrained:  {constrained:,} ways to deal {names}" if isinstance(constrained, int)
              else f"constrained:  {constrained} (weighted) for {names}", file=out)
    if reason:
        print(f"impossible:   {reason}", file=out)
    print(f"setup:        {elapsed:.3f} s", file=out)
    return 0


def _print_none(reason: str, as_json: bool, out: TextIO) -> int:
    """The answer for a spec whose condition is never true: no deal."""
    if as_json:
        obj: dict[str, object] = dict.fromkeys(JSON_KEYS)
        obj.update(deals=0, probability="0/1", probability_decimal=0.0, constrained=0, constrained_seats=[],
                   impossible=reason)
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
                              "deal satisfies the spec) is null when some do.")
    add_spec(p)
    add_json(p, 'the count ({"deals": N, ...})')
    p.set_defaults(handler=run_count)
