"""The dealer's exceptions: one root, each subclass also a builtin category.

Every message quotes the bad value and says what was expected, so a user who
typed ``SZ`` reads ``invalid card 'SZ': rank must be one of AKQJT98765432``.
"""

from __future__ import annotations

__all__ = [
    "DealerError",
    "InvalidSeatError",
    "InvalidSuitError",
    "InvalidRankError",
    "InvalidCardError",
    "InvalidHandError",
    "InvalidDealError",
    "IncompleteDealError",
    "DealNumberError",
    "InvalidSeedError",
    "InvalidFileError",
    "SpecError",
    "SpecSyntaxError",
    "UnsupportedSpecError",
    "ImpossibleSpecError",
    "SpecLimitError",
]


class DealerError(Exception):
    """Root of every error the ``dealer`` package raises on purpose."""


class InvalidSeatError(DealerError, ValueError):
    """A seat name that is not one of N, E, S, W (or north, east, ...)."""


class InvalidSuitError(DealerError, ValueError):
    """A suit name that is not one of S, H, D, C (or a suit symbol)."""


class InvalidRankError(DealerError, ValueError):
    """A rank that is not one of AKQJT98765432 (``10`` is accepted for T)."""


class InvalidCardError(DealerError, ValueError):
    """A card string that does not name one of the 52 cards."""


class InvalidHandError(DealerError, ValueError):
    """A hand (holding of one seat) that is malformed, repeats a card or is too long."""


class InvalidDealError(DealerError, ValueError):
    """A deal whose hands overlap, have the wrong size, or that does not parse."""


class IncompleteDealError(InvalidDealError):
    """A deal with an unknown hand (``-``) or hands of fewer than 13 cards where a full deal is needed."""


class DealNumberError(DealerError, ValueError):
    """A deal number outside ``0 .. D-1`` or that is not an integer."""


class InvalidSeedError(DealerError, TypeError, ValueError):
    """A source of randomness that is none of: a whole number >= 0, a numpy Generator, a ``random.Random``."""


class InvalidFileError(DealerError, ValueError):
    """A file that cannot be read as text: missing, not a regular file, too large, or binary."""


class SpecError(DealerError, ValueError):
    """Root of the errors about a dealing specification."""


class SpecSyntaxError(SpecError):
    """A spec text that does not parse; the message (one line) gives source, line and column.

    ``source``, ``line`` and ``column`` (1-based) locate the fault; ``reason`` is the message alone;
    :attr:`excerpt` shows the line with a caret under the column.
    """

    def __init__(self, message: str, *, source: str = "<spec>", line: int = 1, column: int = 1,
                 text: str = "") -> None:
        self.reason = message
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        super().__init__(f"{source}:{line}:{column}: {message}")

    @property
    def excerpt(self) -> str:
        """The source line and a caret under the column (empty if the line is not known).

        >>> print(SpecSyntaxError("unknown name 'x'", line=1, column=5, text="hcp(x) > 3").excerpt)
            hcp(x) > 3
                ^
        """
        if not self.text:
            return ""
        return f"    {self.text}\n    {' ' * (self.column - 1)}^"


class UnsupportedSpecError(SpecError):
    """A spec that parses but cannot be dealt exactly (e.g. an ``||`` joining two seats)."""


class ImpossibleSpecError(SpecError):
    """A spec that no deal satisfies; the message names the seats and conditions involved."""


class SpecLimitError(SpecError):
    """A spec whose exact tables would exceed a named limit of this dealer."""
