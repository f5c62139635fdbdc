"""Running ``kibitz`` in-process: the exit status, standard output and standard error."""

from __future__ import annotations

import contextlib
import io
import sys

from inference.commands import main


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    """``kibitz ARGV...`` with ``stdin`` as standard input (when given)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if stdin is not None:
            old = sys.stdin
            sys.stdin = io.StringIO(stdin)
            try:
                status = main(list(argv))
            finally:
                sys.stdin = old
        else:
            status = main(list(argv))
    return status, out.getvalue(), err.getvalue()
