"""The ``kibitz`` command: one program, a subcommand per job.

Errors from either package become one line ``kibitz: error: ...`` on
stderr and exit status 2. Commands check their input before they write.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from dealer import DealerError
from dealer import cli as dealer_cli

from .errors import InferenceError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``kibitz`` with all its subcommands."""
    parser = argparse.ArgumentParser(
        prog="kibitz",
        description="Exact constrained dealing and play-time inference for bridge.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    dealer_cli.register(sub)
    from . import layouts_cli, play_cli, replay_cli, serve

    replay_cli.register(sub)
    layouts_cli.register(sub)
    serve.register(sub)
    play_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kibitz`` with ``argv`` (default: the command line); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return dealer_cli.run_handler(args, sys.stdout)
    except (DealerError, InferenceError) as exc:
        sys.stdout.flush()
        print(f"kibitz: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
