"""``kibitz dealer``: run a script of the ``dealer`` program, unchanged, as ``dealer SCRIPT`` does.

The script's ``produce``, ``generate``, ``seed`` and actions (``printall``, ``printew``,
``printpbn``, ``printcompact``, ``printoneline``, ``print(...)``, ``printes``, ``average``,
``frequency``) are honoured; the output ends as ``dealer``'s does (``Generated``, ``Produced``,
``Initial random seed``, ``Time needed``). The deals come as ``dealer``'s do, random deals kept
where the condition holds, while that keeps many: one at a time without numpy when few are wanted
(:mod:`dealer.run.quick`), else in batches; else from the exact tables (:mod:`dealer.run.runner`).
``--count`` then says how many deals meet the condition (``count: exact ...`` or ``count: estimate
...`` with its 95% interval); ``--explain`` prints the plan followed (:mod:`dealer.run.plan`).
"""

from __future__ import annotations

import argparse
from typing import TextIO

from inference.commands.options import Subparsers, add_explain, add_limit, add_output, add_seed, limit_of, whole, written_to

PRODUCE, GENERATE = whole("-p", 0), whole("-g", 0)

__all__ = ["register", "run_dealer"]


def run_dealer(args: argparse.Namespace, out: TextIO) -> int:
    """Run the script: deal, do its actions, print the totals (and the count or the plan, when asked)."""
    from dealer import DealerError
    from dealer.run.quick import run_quick
    from dealer.run.settings import run_seed
    from inference.commands.inputs import read_statements

    if args.version:
        out.write(f"kibitz dealer {_version()}: the dealer language, dealt exactly\n")
        return 0
    for flag, why in (("exhaust", "-e (dealer's exhaust mode, alpha) is not supported: every deal is dealt exactly "
                                  "already"), ("library", "-l (deals read from GIB's library.dat) is not supported")):
        if getattr(args, flag):
            raise DealerError(why)
    if args.script is None:  # as dealer: the script from standard input ("-" too: read_statements reads it)
        import sys

        if sys.stdin.isatty():
            raise DealerError("no script given: pass a file (or - to read one from standard input)")
    syntax, text, source = read_statements(args.script or "-", None)
    seed = run_seed(syntax, args.seed)  # chosen once: the seed printed is the one drawn with, whichever way runs
    options = dict(seed=seed, produce=args.produce, generate=args.generate, quiet=args.quiet, verbose=not args.verbose,
                   count=args.count, explain=args.explain, source=source, limit=limit_of(args)[0], text=text)
    with written_to(args.output, out) as target:
        tried = run_quick(syntax, target, **options)  # the everyday script: a deal at a time, without numpy
        if tried.done:
            return 0
        from dealer.run.runner import run_script

        run_script(syntax, target, quick=tried, **options)
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kibitz")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout without installing
        return "(not installed)"


def register(sub: Subparsers) -> None:
    """Add ``dealer`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("dealer", help="run a dealer script unchanged (its produce, seed and actions)",
                       description="Run SCRIPT, a script of the dealer program, as 'dealer SCRIPT' does: deal its "
                                   "produce deals meeting its condition and do its actions (--count then says how "
                                   "many deals meet the condition, exactly or as a marked estimate). dealer's options "
                                   "work as in dealer (-s, -p, -g, -q, -v, -V; -u, -m and -0 change nothing; with "
                                   "-2 or -3, dealer's swapping, every deal is still dealt independently).")
    p.add_argument("script", metavar="SCRIPT", nargs="?", help="the script: a file, or its text; - (or none, "
                                                                 "from a pipe) reads standard input")
    add_seed(p, None, shown="the script's seed, else a fresh one", short="-s")
    p.add_argument("-p", "--produce", type=PRODUCE, default=None,
                   help="deals to produce (default: the script's produce, else 40)")
    p.add_argument("-g", "--generate", type=GENERATE, default=None,
                   help="most deals to generate, as dealer counts them (default: the script's generate, else "
                        "10,000,000)")
    p.add_argument("-q", "--quiet", action="store_true", help="leave out printpbn's deals (dealer -q)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="toggle the totals at the end (Generated, Produced, seed, time; on by default)")
    p.add_argument("-V", "--version", action="store_true", help="say which version this is and stop")
    for short in ("-u", "-m", "-0", "-2", "-3"):
        p.add_argument(short, action="store_true", dest=f"ignored_{short[1:]}", help=argparse.SUPPRESS)
    p.add_argument("-e", action="store_true", dest="exhaust", help=argparse.SUPPRESS)
    p.add_argument("-l", dest="library", default=None, help=argparse.SUPPRESS)
    add_limit(p)
    add_output(p)
    p.add_argument("--count", action="store_true",
                   help="say last how many deals meet the condition, exactly or as a marked estimate (kibitz count's "
                        "answer; builds the exact tables when the deals came by selection)")
    add_explain(p)
    p.set_defaults(handler=run_dealer)
