"""The ``kibitz`` command: one program, a subcommand per job, each in a module of this package.

======================  =====================================================
number                  :mod:`inference.commands.number`
count                   :mod:`inference.commands.count`
deal                    :mod:`inference.commands.deal`
dealer                  :mod:`inference.commands.dealer` (a ``dealer`` program script, unchanged)
stats                   :mod:`inference.commands.stats`
replay                  :mod:`inference.commands.replay`
sample, odds            :mod:`inference.commands.layouts`
play                    :mod:`inference.commands.play`
serve                   :mod:`inference.commands.serve` (the protocol: :mod:`inference.protocol`)
======================  =====================================================

Building the parser imports no heavy module (numpy, scipy, pydantic, networkx, tqdm, the
engine): each command module declares its arguments (the shared ones come from
:mod:`inference.commands.options`) and imports what it needs when it runs.

Errors from either package become one line ``kibitz: error: ...`` on stderr and exit status 2.
Commands check their input before they write.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from dealer import DealerError

from ..errors import InferenceError
from . import count, deal, dealer, layouts, number, play, replay, serve, stats
from .options import Handler

__all__ = ["build_parser", "main"]

#: The command modules, in the order ``kibitz --help`` lists their commands.
_MODULES = (number, count, deal, dealer, stats, replay, layouts, serve, play)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``kibitz`` with all its subcommands."""
    parser = argparse.ArgumentParser(
        prog="kibitz",
        description="Exact constrained dealing and play-time inference for bridge.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kibitz`` with ``argv`` (default: the command line); return the exit status."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, sys.stdout)
    except (DealerError, InferenceError) as exc:
        sys.stdout.flush()
        print(f"kibitz: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
