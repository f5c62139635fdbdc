"""What the calibration half already holds of an evaluation record: its deal, or its deal and its auction.

The split (:mod:`inference.io.halves`) is by record, and a board is often played at several tables (a
teams match's two rooms, a pairs event's many tables, a vugraph archive's copies): on ``../shared/corpus``
54% of the evaluation half's auctions share their deal with a record of the calibration half, and 8.6%
their deal and their auction as well. A model whose keys are fine enough to tell one auction from
another can learn such a deal's hands in calibration and find them again in evaluation: a held-out
figure that is partly memory. :class:`Overlap` sorts evaluation records into three groups so that a
figure can be read on the fresh deals alone (``benchmarks/knowledge.py --overlap``).

>>> Overlap.group_names()
('fresh', 'deal in calibration', 'deal and auction in calibration')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from inference.io.halves import CALIBRATION, corpus_files
from inference.io.records import AuctionRecord, file_items, parse_calls, read_auctions

__all__ = ["FRESH", "SAME_DEAL", "SAME_AUCTION", "Overlap"]

#: Neither the deal nor its auction is in the calibration half.
FRESH = "fresh"
#: The deal is, with another auction.
SAME_DEAL = "deal in calibration"
#: The deal is, with the same auction.
SAME_AUCTION = "deal and auction in calibration"

DealKey = tuple[int, int, int, int]


def _calls(calls: Sequence[str]) -> tuple[str, ...]:
    """The calls as :func:`~inference.io.records.parse_calls` spells them (as written if they cannot be read)."""
    try:
        return tuple(parse_calls(calls))
    except ValueError:
        return tuple(calls)


@dataclass(frozen=True)
class Overlap:
    """The deals (four 52-bit masks, N E S W) and the deals with their auctions of a corpus's calibration half."""

    deals: frozenset[DealKey]
    auctions: frozenset[tuple[DealKey, tuple[str, ...]]]

    @staticmethod
    def group_names() -> tuple[str, str, str]:
        """The groups, from the least to the most the calibration half holds of a record."""
        return FRESH, SAME_DEAL, SAME_AUCTION

    @classmethod
    def of_corpus(cls, paths: Iterable["str | Path"]) -> "Overlap":
        """Read the calibration half of the records under ``paths`` (their deals and auctions, no play)."""
        deals: set[DealKey] = set()
        auctions: set[tuple[DealKey, tuple[str, ...]]] = set()
        for f in corpus_files(paths):
            for item in file_items(read_auctions, str(f.path)):
                if isinstance(item, AuctionRecord) and f.half(item.index) == CALIBRATION:
                    deal = item.deal.masks
                    deals.add(deal)
                    auctions.add((deal, _calls(item.calls)))
        return cls(frozenset(deals), frozenset(auctions))

    def group(self, deal: DealKey, calls: Sequence[str]) -> str:
        """The group of a record with this deal (four masks, N E S W) and these calls."""
        if (deal, _calls(calls)) in self.auctions:
            return SAME_AUCTION
        return SAME_DEAL if deal in self.deals else FRESH
