"""A book checked against real hands: how often each claim held on the caller's actual hand.

:func:`calibrate` walks records' auctions (:func:`inference.io.records.read_auctions`: records
without play, or whose play is rejected, count too), reads each with a book and tallies, per rule
and claim: the calls matched, the claim's and each fallback's accuracy on the caller's hand with a
95% Wilson interval, and the claim's exact prior for a random hand (the exact dealer on the claim
as a one-seat spec; a claim outside the dealer's dialect has none, and says so). Coverage counts
every call: read by the book, by an explanation, or uncovered; all per source folder and for the
defenders (the side that did not declare) only. Each file is tallied on its own
(:func:`tally_file`, a pure function of its :class:`FileWork`) and the tallies are folded in file
order, so the files can be shared among workers (``jobs``, ``scheduler``) with the same result.

The result is data (:class:`Calibration`, JSON with :meth:`Calibration.as_dict`): a claim's
``likelihood_ratio`` (accuracy over prior) is what a weighted view can weigh it by. The figures
measured on ``../shared/corpus`` ship beside each book (``data/auction/<book>.calibration.json``,
read by :func:`inference.auction.measures.load_measures`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from dealer import DealerError, Seat
from dealer.tables.exact import ExactDealer
from dealer.spec.spec import DealSpec

from inference.claims.language import Claim, parse_claim
from inference.claims.features import Feature, Kind, evaluate, features_of, hand_value
from inference.io.records import AuctionRecord, contract_from_auction, file_items, read_auctions
from inference.errors import InvalidArgumentError, RecordError
from inference.io.halves import HALVES, CorpusFile, corpus_files
from inference.auction.book import Book, load_book, render
from inference.auction.population import POPULATIONS, population
from inference.auction.measures import Level, divergence
from inference.auction.reading import EXPLANATION_RULE, read_auction

__all__ = ["MIN_BITS", "ClaimRow", "Coverage", "Calibration", "Seen", "FileWork", "FileTally", "tally_file", "calibrate", "claim_prior", "shipped_form"]


@lru_cache(maxsize=4096)
def claim_prior(text: str) -> Fraction | None:
    """The exact probability that a random hand (North's) satisfies a claim about North; None if the
    exact dealer cannot deal the claim (e.g. ``longest`` or ``honours``, outside its dialect) and it reads
    more than some named cards (``aces``, ``keycards``, ``hascard``: counted over which of them North holds)."""
    claim = parse_claim(text)
    try:
        spec = DealSpec.from_conditions([claim], {})
        return ExactDealer(spec).probability()
    except (DealerError, ValueError, TypeError):
        return _named_cards_prior(claim)


def _named_cards_prior(claim: Claim) -> Fraction | None:
    """The exact prior of a claim that reads only whether North holds some named cards (at most 12), else None:
    each subset of them held, weighed by the hands that hold exactly that subset of them."""
    features = sorted(features_of(claim))
    if not features or len(features) > 12 or any(f.kind != Kind.CARD or f.seat != Seat.N for f in features):
        return None
    k = len(features)
    rows = (np.arange(1 << k)[:, None] >> np.arange(k)) & 1
    truth = evaluate(claim, lambda f: rows[:, features.index(f)], 1 << k)
    held = rows.sum(axis=1)
    return sum((Fraction(comb(52 - k, 13 - int(j)), comb(52, 13)) for j in held[truth]), Fraction(0))


#: A call counts as read with information when its rule's claims carry at least this many bits a call.
MIN_BITS = 0.05


@dataclass(frozen=True)
class ClaimRow:
    """A rule's claim over the corpus: its levels, and the claim's hits per folder and for defenders."""

    rule: str
    family: str
    label: str
    tag: str
    levels: tuple[Level, ...]
    folders: dict[str, tuple[int, int]]  # folder -> (hits, n) of the claim itself
    defenders: tuple[int, int]
    #: The explanations' row only: per distinct claim read from them, (its bits a call, calls, defenders' calls).
    texts: tuple[tuple[float | None, int, int], ...] = ()

    @property
    def matched(self) -> int:
        """Calls the rule matched (and this claim was made on)."""
        return self.levels[0].n


@dataclass(frozen=True)
class Coverage:
    """Calls by how they were read: by the book, by an explanation, uncovered; explanations unread."""

    calls: int = 0
    book: int = 0
    explanation: int = 0
    uncovered: int = 0
    unreadable: int = 0

    def add(self, other: "Coverage") -> "Coverage":
        """The sum of two counts."""
        return Coverage(*(a + b for a, b in zip(self.astuple(), other.astuple())))

    def astuple(self) -> tuple[int, int, int, int, int]:
        """(calls, book, explanation, uncovered, unreadable)."""
        return self.calls, self.book, self.explanation, self.uncovered, self.unreadable


@dataclass(frozen=True)
class Calibration:
    """A book measured on records: a row per rule claim, coverage overall, per folder, for defenders."""

    book: str
    records: int
    errors: int
    rows: tuple[ClaimRow, ...]
    coverage: Coverage
    folders: dict[str, Coverage] = field(default_factory=dict)
    defenders: Coverage = Coverage()

    def rule_bits(self) -> dict[str, float]:
        """Each rule's bits a call: the sum of its claims' :attr:`~inference.auction.measures.Level.bits` (the
        claims taken one at a time, so an estimate; a claim without a prior counts 0)."""
        out: dict[str, float] = {}
        for row in self.rows:
            if row.rule != "explanation":
                out[row.rule] = out.get(row.rule, 0.0) + (row.levels[0].bits or 0.0)
        return out

    def informative(self, at_least: float = MIN_BITS) -> tuple[int, int]:
        """The calls read by a rule whose claims carry at least ``at_least`` bits a call, or by an explanation
        whose claim does (each distinct claim read from explanations measured as a rule of its own): (all,
        defenders')."""
        bits, seen = self.rule_bits(), set()
        calls = defenders = 0
        for row in self.rows:
            if row.rule in bits and row.rule not in seen and bits[row.rule] >= at_least:
                seen.add(row.rule)
                calls, defenders = calls + row.matched, defenders + row.defenders[1]
            for text_bits, n, n_defenders in row.texts:
                if text_bits is not None and text_bits >= at_least:
                    calls, defenders = calls + n, defenders + n_defenders
        return calls, defenders

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON (priors as fractions' text and floats)."""
        def level(lv: Level) -> dict[str, Any]:
            lo, hi = lv.interval
            return {"hits": lv.hits, "n": lv.n, "accuracy": lv.accuracy, "low": lo, "high": hi,
                    "prior": None if lv.prior is None else str(lv.prior),
                    "prior_float": None if lv.prior is None else float(lv.prior),
                    "likelihood_ratio": lv.likelihood_ratio}
        return {
            "book": self.book, "records": self.records, "errors": self.errors,
            "coverage": dict(zip(("calls", "book", "explanation", "uncovered", "unreadable"), self.coverage.astuple())),
            "folders": {k: dict(zip(("calls", "book", "explanation", "uncovered", "unreadable"), v.astuple()))
                        for k, v in self.folders.items()},
            "defenders": dict(zip(("calls", "book", "explanation", "uncovered", "unreadable"), self.defenders.astuple())),
            "rules": [{"rule": r.rule, "family": r.family, "label": r.label, "tag": r.tag,
                       "levels": [level(lv) for lv in r.levels],
                       "folders": {k: {"hits": h, "n": n} for k, (h, n) in r.folders.items()},
                       "defenders": {"hits": r.defenders[0], "n": r.defenders[1]},
                       **({"texts": [{"bits": b, "calls": n, "defenders": d} for b, n, d in r.texts]}
                          if r.texts else {})}
                      for r in self.rows],
            "informative": dict(zip(("calls", "defenders"), self.informative())),
        }


def shipped_form(result: Calibration, measured: str) -> dict[str, Any]:
    """The figures a book ships with (``data/auction/<book>.calibration.json``): per rule claim and level,
    hits, calls and the exact prior, with coverage; ``measured`` says on what and when."""
    full = result.as_dict()
    return {"book": full["book"], "measured": measured, "records": full["records"], "coverage": full["coverage"],
            "defenders": full["defenders"],
            "rules": [{"rule": r["rule"], "label": r["label"], "tag": r["tag"],
                       "levels": [{"hits": lv["hits"], "n": lv["n"], "prior": lv["prior"]} for lv in r["levels"]]}
                      for r in full["rules"]]}


def _truth(text: str, masks: Sequence[int]) -> np.ndarray:
    claim = parse_claim(text)
    cache: dict[Feature, np.ndarray] = {}

    def value(f: Feature) -> np.ndarray:
        if f not in cache:
            cache[f] = np.fromiter((hand_value(f, m) for m in masks), dtype=np.int64, count=len(masks))
        return cache[f]

    return np.asarray(evaluate(claim, value, len(masks)), dtype=bool)


#: (rule, claim index) -> claim and fallback texts -> [(caller's hand mask, folder, defender)]
Seen = dict[tuple[str, int], dict[tuple[str, ...], list[tuple[int, str, bool]]]]


@dataclass(frozen=True)
class FileWork:
    """One file to tally: the file (its source folder, its split), the book, and the half to read (None: all)."""

    file: CorpusFile
    book: Book
    half: str | None = None
    population: str | None = None  # only this population's records (inference.auction.population; None: all)
    by_population: bool = False  # figures by population instead of by source folder

    @property
    def folder(self) -> str:
        """The file's source folder."""
        return self.file.folder


@dataclass(frozen=True)
class FileTally:
    """One file's auctions tallied: records read, unreadable, the calls each claim was made on, coverage."""

    records: int
    errors: int
    seen: Seen
    coverage: dict[tuple[str, bool], Coverage]


def tally_file(work: FileWork) -> FileTally:
    """Read every auction of one file with the book and tally it (a pure function of ``work``)."""
    seen: Seen = defaultdict(lambda: defaultdict(list))
    coverage: dict[tuple[str, bool], Coverage] = defaultdict(Coverage)
    records = errors = 0
    for item in file_items(read_auctions, str(work.file.path)):
        if isinstance(item, RecordError) or not isinstance(item, AuctionRecord):
            errors += 1
            continue
        if work.half is not None and work.file.half(item.index) != work.half:
            continue
        group = population(item.source, item.players)
        if work.population is not None and group != work.population:
            continue
        records += 1
        _tally(item, group if work.by_population else work.folder, work.book, seen, coverage)
    return FileTally(records, errors, {k: dict(v) for k, v in seen.items()}, dict(coverage))


def calibrate(paths: Iterable["str | Path"], book: "Book | str | Path", *, progress: bool = False,
              jobs: int = 1, scheduler: str | None = None, half: str | None = None, population: str | None = None,
              by_population: bool = False) -> Calibration:
    """Read every auction under ``paths`` with ``book`` and measure each claim on the callers' hands:
    in this process when ``jobs`` is 1 and no ``scheduler`` is named, else file by file on workers
    (:func:`inference.distributed.run_map`); the result is the same. ``half``: only the records of that
    half of the split (:mod:`inference.io.halves`; None: every record); ``population``: only that
    population's (:mod:`inference.auction.population`); ``by_population``: the figures by population
    (``robots``, ``humans``) where they are by source folder."""
    the_book = load_book(book)
    if half is not None and half not in HALVES:
        raise InvalidArgumentError(f"unknown half {half!r} (expected one of {', '.join(HALVES)})")
    if population is not None and population not in POPULATIONS:
        raise InvalidArgumentError(f"unknown population {population!r} (expected one of {', '.join(POPULATIONS)})")
    work = [FileWork(f, the_book, half, population, by_population) for f in corpus_files(paths)]
    from inference.distributed import run_files  # in this process for one job and no scheduler

    tallies = run_files(tally_file, work, jobs=jobs, scheduler=scheduler, name="rules",
                        progress=f"rules {the_book.name}" if progress else None)
    seen: Seen = defaultdict(lambda: defaultdict(list))
    coverage: dict[tuple[str, bool], Coverage] = defaultdict(Coverage)
    for tally in tallies:  # in file order: the same lists, in the same order, as one pass
        for key, groups in tally.seen.items():
            for texts, entries in groups.items():
                seen[key][texts] += entries
        for where, cov in tally.coverage.items():
            coverage[where] = coverage[where].add(cov)
    return _rows(the_book, sum(t.records for t in tallies), sum(t.errors for t in tallies), seen, coverage)


def _seat(text: str) -> Seat | None:
    return Seat.parse(text) if text in ("N", "E", "S", "W") else None


def _tally(rec: AuctionRecord, folder: str, book: Book,
           seen: Seen, coverage: dict[tuple[str, bool], Coverage]) -> None:
    if not rec.calls:
        return
    try:
        reading = read_auction(rec.dealer, rec.calls, book, rec.vulnerable, rec.explanations, _seat(rec.declarer))
    except (ValueError, DealerError):
        try:
            reading = read_auction(rec.dealer, rec.calls, book, "", rec.explanations, _seat(rec.declarer))
        except (ValueError, DealerError):
            return
    found = contract_from_auction(rec.dealer, ["Pass" if c.context.call == "P" else c.context.call
                                               for c in reading.calls])
    declaring = {found[1], found[1].partner} if found else set(Seat)
    for call in reading.calls:
        seat = call.context.caller
        defender = seat not in declaring
        one = Coverage(1, call.source == "book", call.source == "explanation", call.source == "uncovered",
                       call.unreadable)
        coverage[(folder, defender)] = coverage[(folder, defender)].add(one)
        mask = rec.deal.masks[seat]
        for k, (claim, fallbacks) in enumerate(call.templates):
            key = (call.rule_id, k if call.source == "book" else 0)
            seen[key][(claim, *fallbacks)].append((mask, folder, defender))


def _text_bits(text: str, hits: int, n: int, defenders: int) -> tuple[float | None, int, int]:
    """One claim read from explanations as a rule of its own: its bits a call, its calls, its defenders' calls.
    The accuracy is shrunk towards the prior, ``(hits + 2 p) / (n + 2)``, so a claim read a few times carries
    few bits whatever its record (None without a prior)."""
    prior = claim_prior(render(text, Seat.N, {}))
    if prior is None or not 0 < prior < 1 or not n:
        return None, n, defenders
    return divergence(float((hits + 2 * prior) / (n + 2)), float(prior)), n, defenders


def _mean(total: Fraction | None, n: int, rule_id: str) -> Fraction | None:
    """The matched calls' mean prior (each call's claim has its own suits), exact."""
    return None if total is None or rule_id == EXPLANATION_RULE or not n else total / n


def _rows(book: Book, records: int, errors: int,
          seen: Seen, coverage: dict[tuple[str, bool], Coverage]) -> Calibration:
    rows = []
    order = [(r.id, k) for r in book.rule for k in range(len(r.claim))] + [(EXPLANATION_RULE, 0)]
    for key in order:
        groups = seen.get(key)
        if not groups:
            continue
        rule_id, k = key
        if rule_id == EXPLANATION_RULE:
            family, label, tag = "explanation", "", "agreement-unspecified"
        else:
            rule = book.rule_by_id(rule_id)
            family, label, tag = rule.family, rule.claim[k].label, rule.claim[k].tag.value
        depth = max(len(t) for t in groups)
        hits = [0] * depth
        ns = [0] * depth
        priors: list[Fraction | None] = [Fraction(0)] * depth
        folders: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        defenders = [0, 0]
        explained: list[tuple[float | None, int, int]] = []
        for texts, entries in groups.items():
            masks = [m for m, _, _ in entries]
            for level in range(depth):
                text = texts[min(level, len(texts) - 1)]
                truth = _truth(render(text, Seat.N, {}), masks)
                hits[level] += int(truth.sum())
                if level == 0 and rule_id == EXPLANATION_RULE:
                    explained.append(_text_bits(text, int(truth.sum()), len(masks), sum(d for _, _, d in entries)))
                ns[level] += len(masks)
                if rule_id != EXPLANATION_RULE:
                    prior = claim_prior(render(text, Seat.N, {}))
                    current = priors[level]
                    priors[level] = None if prior is None or current is None else current + prior * len(masks)
                if level == 0:
                    for (_, folder, defender), ok in zip(entries, truth):
                        folders[folder][0] += int(ok)
                        folders[folder][1] += 1
                        if defender:
                            defenders[0] += int(ok)
                            defenders[1] += 1
        levels = tuple(Level(hits[i], ns[i], _mean(priors[i], ns[i], rule_id)) for i in range(depth))
        rows.append(ClaimRow(rule_id, family, label, tag, levels,
                             {f: (h, n) for f, (h, n) in sorted(folders.items())}, (defenders[0], defenders[1]),
                             tuple(explained)))
    total = Coverage()
    by_folder: dict[str, Coverage] = {}
    defenders_cov = Coverage()
    for (folder, defender), cov in sorted(coverage.items()):
        total = total.add(cov)
        by_folder[folder] = by_folder.get(folder, Coverage()).add(cov)
        if defender:
            defenders_cov = defenders_cov.add(cov)
    return Calibration(book.name, records, errors, tuple(rows), total, by_folder, defenders_cov)
