"""``kibitz dealer``: run a script of the ``dealer`` program, unchanged, as ``dealer SCRIPT`` does.

The script's ``produce``, ``generate``, ``seed`` and actions (``printall``, ``printew``,
``printpbn``, ``printcompact``, ``printoneline``, ``print(...)``, ``printes``, ``average``,
``frequency``) are honoured; the output ends as ``dealer``'s does (``Generated``, ``Produced``,
``Initial random seed``, ``Time needed``) and then says how many deals meet the condition:
``count: exact ...`` or ``count: estimate ...`` with its 95% interval (:mod:`dealer.runner`).
"""

from __future__ import annotations

import argparse
from typing import TextIO

from .options import Subparsers, add_limit, add_output, add_seed

__all__ = ["register", "run_dealer"]


def run_dealer(args: argparse.Namespace, out: TextIO) -> int:
    """Run the script: deal, do its actions, print the totals and the count."""
    from dealer import DealerError
    from dealer.runner import run_script
    from .inputs import read_statements

    syntax, text, source = read_statements(args.script, None)
    if args.produce is not None and args.produce < 0:
        raise DealerError(f"invalid -p {args.produce}: expected a number of deals >= 0")
    if args.output:
        try:
            handle = open(args.output, "w", encoding="utf-8")
        except OSError as exc:
            raise DealerError(f"cannot write {args.output!r}: {exc.strerror}") from None
        with handle:
            run_script(syntax, handle, seed=args.seed, produce=args.produce, source=source, limit=args.limit,
                       text=text)
        return 0
    run_script(syntax, out, seed=args.seed, produce=args.produce, source=source, limit=args.limit, text=text)
    return 0


def register(sub: Subparsers) -> None:
    """Add ``dealer`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("dealer", help="run a dealer script unchanged (its produce, seed and actions)",
                       description="Run SCRIPT, a script of the dealer program, as 'dealer SCRIPT' does: deal its "
                                   "produce deals meeting its condition and do its actions; then say how many "
                                   "deals meet the condition, exactly or as a marked estimate.")
    p.add_argument("script", metavar="SCRIPT", help="the script: a file, or its text")
    add_seed(p, None, shown="the script's seed, else a fresh one")
    p.add_argument("-p", "--produce", type=int, default=None,
                   help="deals to produce (default: the script's produce, else 40)")
    add_limit(p)
    add_output(p)
    p.set_defaults(handler=run_dealer)
