"""The map of a corpus's calls: where a book reads nothing, and what a perfect model of each context could say.

Every call of every auction gets a public, coarse *context* (:func:`context_key`): the caller's
side (``unopened`` before the opening bid, ``opener`` for the opening side, ``other`` for its
opponents), the caller's round (his first call, second, third or later), whether the other side
has bid since the opening (``contested``) or not (``quiet``), and the call itself (``P``, ``X``,
``1S``...): ``"other|r1|quiet|1H"``. On the calibration half the census keeps, per context, the
callers' real HCP and suit lengths; on the evaluation half it scores each call by what the
context's model says about the caller's real hand: ``log2`` of the model's probability of his HCP
over the probability of that HCP in a random hand, plus the same for each suit's length. These are
the bits a call's context carries about its caller (a log-likelihood ratio, as in "The whole
auction"); the features are taken one at a time, so the sum is an *estimate* of the joint
model's bits, not exact (the four lengths are not independent). The model of a context is its
calibration counts shrunk towards the random hand's law: ``(n + m p) / (total + m)`` with ``m =``
:data:`SHRINK`, so a context seen rarely says little.

The random hand's laws are exact (:func:`hcp_law`, :func:`length_law`). Each file is tallied on
its own (:func:`census_file`, a pure function), so the files can be shared among processes.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Iterable, NamedTuple

from dealer import DealerError, Seat

from inference.io.halves import CALIBRATION, CorpusFile, corpus_files
from inference.errors import RecordError
from inference.io.records import AuctionRecord, contract_from_auction, read_auctions
from inference.auction.book import Book, load_book
from inference.auction.context import CallContext
from inference.auction.reading import read_auction

__all__ = ["SHRINK", "Facts", "FileCensus", "ContextRow", "Census", "hcp_law", "length_law", "context_key",
           "census_file", "take_census"]

#: How many random hands a context's model starts from (its weight towards the random hand's law).
SHRINK = 16


@lru_cache(maxsize=1)
def hcp_law() -> tuple[Fraction, ...]:
    """The exact law of a random 13-card hand's HCP (index: 0 .. 37)."""
    out = [Fraction(0)] * 38
    hands = comb(52, 13)
    for a in range(5):
        for k in range(5):
            for q in range(5):
                for j in range(5):
                    spots = 13 - a - k - q - j
                    if spots < 0:
                        continue
                    ways = comb(4, a) * comb(4, k) * comb(4, q) * comb(4, j) * comb(36, spots)
                    out[4 * a + 3 * k + 2 * q + j] += Fraction(ways, hands)
    return tuple(out)


@lru_cache(maxsize=1)
def length_law() -> tuple[Fraction, ...]:
    """The exact law of a random 13-card hand's length in one suit (index: 0 .. 13)."""
    return tuple(Fraction(comb(13, k) * comb(39, 13 - k), comb(52, 13)) for k in range(14))


def context_key(ctx: CallContext) -> str:
    """A call's context: side, round, contested or quiet, and the call (``"opener|r2|contested|2H"``).

    >>> from inference.auction.context import contexts
    >>> [context_key(c) for c in contexts(Seat.N, ["1S", "2H", "Pass", "Pass", "2S"])]
    ['unopened|r1|quiet|1S', 'other|r1|quiet|2H', 'opener|r1|contested|P', 'other|r1|contested|P', 'opener|r2|contested|2S']
    """
    rounds = ctx.round
    return (f"{ctx.side}|r{rounds}{'+' if rounds == 3 else ''}|{'contested' if ctx.contested else 'quiet'}|"
            f"{ctx.call}")


class Facts(NamedTuple):
    """One call: its context, how the book read it (``book``, ``explanation``, ``uncovered``), whether a
    defender made it, and the caller's real HCP and suit lengths (S H D C)."""

    key: str
    source: str
    defender: bool
    hcp: int
    lengths: tuple[int, int, int, int]


@dataclass
class FileCensus:
    """One file's calls, by half."""

    records: int = 0
    calibration: list[Facts] = field(default_factory=list)
    evaluation: list[Facts] = field(default_factory=list)


def _calls(rec: AuctionRecord, book: Book) -> list[Facts]:
    try:
        reading = read_auction(rec.dealer, rec.calls, book, rec.vulnerable, rec.explanations)
    except (ValueError, DealerError):
        try:
            reading = read_auction(rec.dealer, rec.calls, book, "", rec.explanations)
        except (ValueError, DealerError):
            return []
    found = contract_from_auction(rec.dealer, ["Pass" if c.context.call == "P" else c.context.call
                                               for c in reading.calls])
    declaring = {found[1], found[1].partner} if found else set(Seat)  # as the calibration tells defenders
    out = []
    for call in reading.calls:
        hand = rec.deal[call.context.caller]
        out.append(Facts(context_key(call.context), call.source, call.context.caller not in declaring,
                         hand.hcp, tuple(hand.shape)))  # type: ignore[arg-type]
    return out


def census_file(work: tuple[CorpusFile, Book]) -> FileCensus:
    """Every call of one file's auctions, read with the book, by half of the split."""
    corpus_file, book = work
    out = FileCensus()
    for item in read_auctions(corpus_file.path):
        if isinstance(item, RecordError) or not isinstance(item, AuctionRecord) or not item.calls:
            continue
        out.records += 1
        facts = _calls(item, book)
        (out.calibration if corpus_file.half(item.index) == CALIBRATION else out.evaluation).extend(facts)
    return out


@dataclass(frozen=True)
class ContextRow:
    """One context on the evaluation half: calls, those the book read, mean bits a call (HCP, lengths)."""

    key: str
    calls: int
    read: int
    hcp_bits: float
    length_bits: float

    @property
    def bits(self) -> float:
        """Mean bits a call."""
        return self.hcp_bits + self.length_bits


@dataclass(frozen=True)
class Census:
    """The calls of a corpus by context: the map (coverage) and the ceiling (bits a perfect per-context
    model could give), scored on the evaluation half."""

    records: int
    rows: tuple[ContextRow, ...]
    defenders: tuple[int, int, float]  # the defenders' calls on the evaluation half: calls, read, total bits

    @property
    def calls(self) -> int:
        """Calls on the evaluation half."""
        return sum(r.calls for r in self.rows)

    def bits(self, read: bool | None = None) -> float:
        """Total bits over the evaluation half's calls (those the book read, or not, or all)."""
        total = 0.0
        for r in self.rows:
            n = r.calls if read is None else (r.read if read else r.calls - r.read)
            total += n * r.bits
        return total


class _Model:
    """A context's calibration counts, shrunk towards the random hand's law."""

    def __init__(self, facts: list[Facts]) -> None:
        self.total = len(facts)
        self.hcp = Counter(f.hcp for f in facts)
        self.lengths = [Counter(f.lengths[s] for f in facts) for s in range(4)]

    def bits(self, fact: Facts) -> tuple[float, float]:
        """The log-likelihood ratio of a caller's HCP, and of his four lengths, against a random hand."""
        def ratio(count: Counter[int], x: int, prior: Fraction) -> float:
            p = (count[x] + SHRINK * prior) / (self.total + SHRINK)
            return math.log2(p / prior)

        hcp = ratio(self.hcp, fact.hcp, hcp_law()[fact.hcp])
        lengths = sum(ratio(self.lengths[s], fact.lengths[s], length_law()[fact.lengths[s]]) for s in range(4))
        return hcp, lengths


def take_census(paths: Iterable["str | Path"], book: "Book | str | Path", *, jobs: int = 1) -> Census:
    """The census of every auction under ``paths`` read with ``book``: contexts fitted on the calibration
    half, scored on the evaluation half."""
    from inference.distributed import run_map

    the_book = load_book(book)
    files = run_map(census_file, [(f, the_book) for f in corpus_files(paths)], jobs=jobs, name="census")
    fitted: dict[str, list[Facts]] = defaultdict(list)
    for f in files:
        for fact in f.calibration:
            fitted[fact.key].append(fact)
    models: dict[str, _Model] = {}
    scored: dict[str, list[tuple[Facts, float, float]]] = defaultdict(list)
    for f in files:
        for fact in f.evaluation:
            model = models.get(fact.key) or models.setdefault(fact.key, _Model(fitted.get(fact.key, [])))
            scored[fact.key].append((fact, *model.bits(fact)))
    rows = []
    defenders = [0, 0, 0.0]
    for key, items in scored.items():
        n = len(items)
        rows.append(ContextRow(key, n, sum(1 for fact, _, _ in items if fact.source != "uncovered"),
                               sum(h for _, h, _ in items) / n, sum(s for _, _, s in items) / n))
        for fact, h, s in items:
            if fact.defender:
                defenders[0] += 1
                defenders[1] += fact.source != "uncovered"
                defenders[2] += h + s
    rows.sort(key=lambda r: (-(r.calls - r.read) * r.bits, r.key))
    return Census(sum(f.records for f in files), tuple(rows), (int(defenders[0]), int(defenders[1]), defenders[2]))
