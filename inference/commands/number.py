"""``kibitz number``: Pavlicek deal number <-> PBN deal (needs only the dealer's vocabulary)."""

from __future__ import annotations

import argparse
import re
from typing import TextIO

from dealer import D, Deal, DealNumberError, deal_to_number, number_to_deal
from dealer.checks import shown

from inference.commands.options import Subparsers

__all__ = ["register", "run_number"]

_INT = re.compile(r"^[+-]?[0-9][0-9_,]*$")  # ASCII digits only: other digits are refused, not read


def run_number(args: argparse.Namespace, out: TextIO) -> int:
    """Print the number of each PBN deal, or the PBN deal of each number; all are checked before any is printed."""
    results = []
    for item in args.items:
        text = item.strip()
        if len(text) > 200:
            raise DealNumberError(f"invalid deal or number {shown(text)}: too long")
        if any(ch.isdigit() and not ch.isascii() for ch in text):
            raise DealNumberError(f"invalid deal number {shown(text)}: write it with the digits 0-9")
        if _INT.match(text):
            try:
                value = int(text.replace("_", "").replace(",", ""))
            except ValueError:  # pragma: no cover - regex guarantees digits
                raise DealNumberError(f"invalid deal number {item!r}: expected an integer 0 .. {D - 1}")
            results.append(number_to_deal(value).to_pbn(args.first))
        else:
            results.append(str(deal_to_number(Deal.from_pbn(text))))
    for line in results:
        print(line, file=out)
    return 0


def register(sub: Subparsers) -> None:
    """Add ``number`` to the ``kibitz`` subcommands."""
    p = sub.add_parser(
        "number",
        help="Pavlicek deal number <-> PBN deal",
        description=(
            "Print the Pavlicek number of a PBN deal ('N:AKQ.T98.J9876.5 ...'), or the PBN deal "
            f"of a number 0 .. D-1 (D = {D:,})."
        ),
    )
    p.add_argument("items", nargs="+", metavar="DEAL_OR_NUMBER", help="a PBN deal string or a deal number")
    p.add_argument("--first", default="N", help="first seat of printed PBN deals (default N)")
    p.set_defaults(handler=run_number)
