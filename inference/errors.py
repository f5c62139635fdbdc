"""The inference engine's exceptions: one root, each subclass also a builtin category.

Every message quotes the bad value and its place (trick and card, or file,
board and line), and a rejected call leaves the engine's state unchanged.
"""

from __future__ import annotations

__all__ = [
    "InferenceError",
    "OutputError",
    "DaskUnavailableError",
    "InvalidArgumentError",
    "InvalidContractError",
    "IllegalPlayError",
    "RevokeError",
    "InconsistentCardsError",
    "OutOfOrderError",
    "UndoError",
    "ScenarioError",
    "RecordError",
    "TooComplexError",
    "BotUnavailableError",
    "InvalidBoardError",
]


class InferenceError(Exception):
    """Root of every error the ``inference`` package raises on purpose."""


class InvalidArgumentError(InferenceError, ValueError):
    """A malformed argument: a seat, a hand, a card list that does not parse or does not add up."""


class InvalidContractError(InferenceError, ValueError):
    """A contract or strain that does not parse (``8NT``, ``3Z``)."""


class IllegalPlayError(InferenceError, ValueError):
    """A card that cannot be played now: wrong seat on turn, already seen, not in a visible hand,
    or a visible hand not following suit."""


class RevokeError(IllegalPlayError):
    """A concealed hand plays a suit it has shown out of: under the lawful view, a revoke."""


class InconsistentCardsError(IllegalPlayError):
    """The cards seen leave no lawful layout (someone must have revoked); the message names them."""


class OutOfOrderError(InferenceError, ValueError):
    """An event at the wrong time: dummy tabled twice or before the opening lead, a card after the last trick."""


class UndoError(InferenceError, IndexError, ValueError):
    """Undo past the start, or to a point that does not exist (an ``IndexError``, and a ``ValueError`` like every
    other error of the package)."""


class ScenarioError(InferenceError, ValueError):
    """A scenario file that does not parse or validate; the message gives file, line and field."""


class RecordError(InferenceError, ValueError):
    """A PBN or LIN record that is malformed or illegal; the message names file, board and trick."""


class TooComplexError(InferenceError, ValueError):
    """Exact work beyond the engine's limit (named in the message), refused up front, never a crash.

    Raised, for example, when claims relate the features of several of three concealed hands in a
    way whose joint table would exceed the limit; nothing has changed when it is raised.
    """


class BotUnavailableError(InferenceError, ImportError):
    """The reference declarer's double-dummy solver is missing: install the extra ``kibitz[bot]``."""


class DaskUnavailableError(InferenceError, ImportError):
    """A Dask cluster was asked for (``--scheduler``) without Dask: install the extra ``kibitz[dask]``."""


class InvalidBoardError(InferenceError, ValueError):
    """A board that cannot go to the double-dummy solver: a card in two hands, hands of different sizes,
    a trick card its seat does not hold or a revoke in the trick; checked before the solver is called
    (handed such a board, DDS fails and writes a crash dump)."""


class OutputError(InferenceError, OSError):
    """A file that cannot be written (opened, written or closed: a missing folder, a full disk); the message
    names the file and the system's reason."""

    @classmethod
    def of(cls, path: object, exc: OSError) -> "OutputError":
        """The error writing ``path`` that ``exc`` reports."""
        return cls(f"cannot write {str(path)!r}: {exc.strerror or exc}")
