"""What a half of the corpus already holds of a record of the other half: its deal, or its deal and its auction.

The split (:mod:`inference.io.halves`) is by record, and a board is often played at several tables (a
teams match's two rooms, a pairs event's many tables, a vugraph archive's copies): on ``../shared/corpus``
54% of the evaluation half's auctions share their deal with a record of the calibration half, and 8.6%
their deal and their auction as well. A model whose keys are fine enough to tell one auction from
another can learn such a deal's hands in calibration and find them again in evaluation: a held-out
figure that is partly memory. :class:`Overlap` sorts evaluation records into three groups so that a
figure can be read on the fresh deals alone (``benchmarks/knowledge.py --overlap``).

A deal is *seen* when the records the overlap is made of hold it: the calibration half
(:meth:`Overlap.of_corpus`), or whatever half a model was fitted on (:meth:`Overlap.of_sightings`).

>>> Overlap.group_names()
('fresh', 'deal seen', 'deal and auction seen')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence, TypeVar

from inference.io.halves import CALIBRATION, corpus_files
from inference.io.records import AuctionRecord, PlayRecord, file_items, parse_calls, read_auctions

__all__ = ["FRESH", "SAME_DEAL", "SAME_AUCTION", "DealKey", "Sighting", "sighting", "Overlap"]

#: The deal was not seen.
FRESH = "fresh"
#: The deal was, with another auction.
SAME_DEAL = "deal seen"
#: The deal was, with the same auction.
SAME_AUCTION = "deal and auction seen"

#: A deal as four 52-bit masks, N E S W.
DealKey = tuple[int, int, int, int]
#: A record as the overlap sees it: its deal and its calls.
Sighting = tuple[DealKey, tuple[str, ...]]
T = TypeVar("T")


def sighting(record: "AuctionRecord | PlayRecord") -> Sighting:
    """A record's deal and calls, as the overlap compares them."""
    return record.deal.masks, tuple(record.calls)


def _calls(calls: Sequence[str]) -> tuple[str, ...]:
    """The calls as :func:`~inference.io.records.parse_calls` spells them (as written if they cannot be read)."""
    try:
        return tuple(parse_calls(calls))
    except ValueError:
        return tuple(calls)


@dataclass(frozen=True)
class Overlap:
    """The deals (four 52-bit masks, N E S W) seen, and the deals with their auctions (calls as read)."""

    deals: frozenset[DealKey]
    auctions: frozenset[Sighting]

    @staticmethod
    def group_names() -> tuple[str, str, str]:
        """The groups, from the least to the most that was seen of a record."""
        return FRESH, SAME_DEAL, SAME_AUCTION

    @classmethod
    def of_corpus(cls, paths: Iterable["str | Path"], half: str = CALIBRATION) -> "Overlap":
        """Read one half of the records under ``paths`` (their deals and auctions, no play): the records seen."""
        return cls.of_sightings(sighting(item) for f in corpus_files(paths)
                                for item in file_items(read_auctions, str(f.path))
                                if isinstance(item, AuctionRecord) and f.half(item.index) == half)

    @classmethod
    def of_sightings(cls, sightings: Iterable[tuple[DealKey, Sequence[str]]]) -> "Overlap":
        """The overlap with records seen elsewhere (a fit's own half, say), given as (deal, calls) pairs."""
        auctions = frozenset((deal, _calls(calls)) for deal, calls in sightings)
        return cls(frozenset(deal for deal, _ in auctions), auctions)

    def group(self, deal: DealKey, calls: Sequence[str]) -> str:
        """The group of a record with this deal (four masks, N E S W) and these calls. The calls are compared as
        the records write them: a record that dropped its leading passes (rpbridge's exports) meets another
        source's copy of its board as "deal seen"."""
        if (deal, _calls(calls)) in self.auctions:
            return SAME_AUCTION
        return SAME_DEAL if deal in self.deals else FRESH

    def split(self, items: Sequence[T], sightings: Sequence[Sighting]) -> dict[str, list[T]]:
        """``items`` (one per sighting, alike in order) by group, every group present (from the least seen)."""
        out: dict[str, list[T]] = {g: [] for g in self.group_names()}
        for item, (deal, calls) in zip(items, sightings, strict=True):
            out[self.group(deal, calls)].append(item)
        return out
