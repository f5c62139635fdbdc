"""``python -m inference.commands``: the ``kibitz`` command without installing it."""

from __future__ import annotations

import sys

from inference.commands import main

__all__: list[str] = []

if __name__ == "__main__":  # pragma: no branch
    sys.exit(main())
