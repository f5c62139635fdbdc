"""Progress of long steps, told to whoever listens: a function in a context variable (nobody by default).

A long step (a streamed count's card positions) calls :func:`report`; a command that shows a progress bar
puts its function in force for a block with :func:`reporting`. The steps neither know who listens nor wait
for it.

>>> seen = []
>>> with reporting(lambda what, done, total, detail: seen.append((what, done, total, detail))):
...     report("streamed tables", 1, 52, "10 states")
>>> report("streamed tables", 2, 52)  # nobody listens here
>>> seen
[('streamed tables', 1, 52, '10 states')]
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

__all__ = ["Listener", "report", "reporting"]

#: What a listener is told: the step (``"streamed tables"``), how far it is, out of how many, and a detail.
Listener = Callable[[str, int, int, str], None]

_LISTENER: ContextVar[Listener | None] = ContextVar("kibitz_progress", default=None)


def report(what: str, done: int, total: int, detail: str = "") -> None:
    """Tell the listener in force, if any, that step ``what`` has done ``done`` of ``total``."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(what, done, total, detail)


@contextmanager
def reporting(listener: Listener) -> Iterator[None]:
    """Put ``listener`` in force for the block."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
