"""``kibitz serve``: the argument parsing of the JSON-lines protocol (the protocol is :mod:`inference.apps.protocol`)."""

from __future__ import annotations

import argparse
import io
import sys
from typing import TextIO

from inference.apps import protocol
from inference.commands.options import Subparsers, plain

__all__ = ["register", "run_serve"]


def run_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Answer the protocol's requests on standard input until ``quit`` or its end.

    Standard input is read as UTF-8 whatever the locale, bytes that are not UTF-8 replaced (the
    request then fails as JSON, and the session goes on).
    """
    stdin = sys.stdin
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(encoding="utf-8", errors="replace")
    return protocol.serve(stdin, out)


def _description() -> str:
    """The protocol module's documentation without its first line and the table rules."""
    text = "\n\n".join((protocol.__doc__ or "").split("\n\n")[1:])
    text = plain(text.replace(":data:`MAX_LINE_BYTES`", f"{protocol.MAX_LINE_BYTES:,} characters"))
    return "\n".join(line for line in text.splitlines() if set(line) != {"=", " "})


def register(sub: Subparsers) -> None:
    """Add ``serve`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("serve", help="JSON-lines protocol on stdin/stdout, for bots in any language",
                       description=_description(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(handler=run_serve)
