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
serve                   :mod:`inference.commands.serve` (the protocol: :mod:`inference.apps.protocol`)
rules                   :mod:`inference.commands.rules`
defence                 :mod:`inference.commands.defence`
likelihood              :mod:`inference.commands.likelihood`
view                    :mod:`inference.commands.view` (the page: :mod:`inference.apps.viewer_page`)
======================  =====================================================

Building the parser imports no heavy module (numpy, scipy, pydantic, networkx, tqdm, the
engine): each command module declares its arguments (the shared ones come from
:mod:`inference.commands.options`) and imports what it needs when it runs. A command line that
names its command imports that command's module alone (``kibitz --help`` imports them all).

Errors from either package become one line ``kibitz: error: ...`` on stderr and exit status 2.
Commands check their input before they write.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from typing import TYPE_CHECKING, NoReturn, Sequence

from dealer import DealerError

from inference.errors import InferenceError
from inference.commands.options import Handler

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["build_parser", "main"]

#: The command modules, in the order ``kibitz --help`` lists their commands.
_MODULES = ("number", "count", "deal", "dealer", "stats", "replay", "layouts", "serve", "play", "view", "rules",
            "defence", "likelihood")
#: The module of each command.
_MODULE_OF = {**{name: name for name in _MODULES if name != "layouts"}, "sample": "layouts", "odds": "layouts"}


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line ``kibitz: error: ...`` and exit status 2 (no usage block)."""

    #: The command a top-level parser was built for (its arguments left over are that command's).
    command: str | None = None

    def error(self, message: str) -> NoReturn:
        """Report a bad command line in one line and exit with status 2."""
        where = self.prog if self.command is None else f"{self.prog} {self.command}"
        self.exit(2, f"kibitz: error: {'' if where == 'kibitz' else where + ': '}{message} (see {where} --help)\n")

    def print_help(self, file: "SupportsWrite[str] | None" = None) -> None:
        """Print the help; a help that cannot be written (a full disk) is an error in one line, status 2."""
        out = sys.stdout if file is None else file
        try:
            out.write(self.format_help())
            getattr(out, "flush", lambda: None)()
        except BrokenPipeError:  # piped into head: a quiet end, as for every command
            pass
        except OSError as exc:
            self.exit(2, f"kibitz: error: cannot write standard output: {exc.strerror or exc}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``kibitz`` with all its subcommands (only ``command``'s, when it names one)."""
    parser = _OneLineParser(
        prog="kibitz",
        description="Exact constrained dealing and play-time inference for bridge.",
    )
    parser.command = command if command in _MODULE_OF else None
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_OneLineParser)
    for name in (_MODULE_OF[command],) if command in _MODULE_OF else _MODULES:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


#: The errors of a write (a full disk, an I/O error, a file too large, a quota).
_WRITING = frozenset({errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT})


def _one_line(text: str) -> str:
    """A message on one line, shortened to 500 characters."""
    line = " ".join(text.split())
    return line if len(line) <= 500 else line[:500] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kibitz`` with ``argv`` (default: the command line); return the exit status.

    Every failure is one line ``kibitz: error: ...`` on stderr and exit status 2: the project's own
    errors, an output that cannot be written (a full disk, a closed pipe is a quiet exit 0), and
    any other fault (``internal error``, with the exception's kind; ``KIBITZ_DEBUG=1`` shows the
    traceback instead).
    """
    # numpy asks the kernel for transparent huge pages for its large arrays; where the kernel then
    # compacts memory on a fault, the exact dealer's setups varied 1.5-2.8 s from run to run (1.7-1.9 s
    # without); deals are drawn as fast either way. Before numpy is imported, unless the caller chose.
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(words[0] if words else None)
        if words and words[0].startswith("-") and words[0] not in ("-h", "--help"):
            parser.error(f"unknown option {words[0]!r} before the command: a command comes first")
        args = parser.parse_args(words)
    except SystemExit as exc:  # --help (0) or a bad command line (2, its one line already printed)
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler = args.handler
    try:
        status = handler(args, sys.stdout)
        sys.stdout.flush()  # here, so that a full disk under standard output is reported as one
        return status
    except BrokenPipeError:  # e.g. piped into head
        return 0
    except (DealerError, InferenceError) as exc:
        message = str(exc)
    except OSError as exc:
        if exc.filename:
            message = f"cannot read or write {exc.filename!r}: {exc.strerror or exc}"
        elif exc.errno in _WRITING:  # every file the commands write names itself: this is standard output
            message = f"cannot write standard output: {exc.strerror or exc}"
        else:
            message = f"cannot read or write: {exc.strerror or exc}"
    except KeyboardInterrupt:
        message = "interrupted"
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        if os.environ.get("KIBITZ_DEBUG"):
            raise
        message = f"internal error ({type(exc).__name__}): {exc}"
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    print(f"kibitz: error: {_one_line(message)}", file=sys.stderr)
    return 2
