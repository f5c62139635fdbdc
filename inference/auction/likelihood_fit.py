"""The auction's likelihood (:mod:`inference.auction.likelihood`) fitted on a corpus's calibration half, scored on the other.

Every record with a deal and an auction counts (its play unread; ``population``: only that population's,
:mod:`inference.auction.population`): declarer and the strain are the auction's, and the cards declarer sees
when dummy is tabled are declarer's and dummy's. The score is, per defender, the bits the likelihood gives
his true HCP and his true suit lengths over a lawful layout's law: ``log2(w(true) / sum over v of law(v)
w(v))``, averaged (0: it says nothing; negative: it misleads). The shrinking (:data:`ALPHAS`) is chosen by
that score on the calibration half's validation part, fitted on the rest; the likelihood shipped is then
fitted on the whole calibration half and scored on the evaluation half (``half="evaluation"``: the other way
round, the same shrinking). The score is also given by what the fitted half holds of each scored record
(:mod:`inference.io.overlap`): a board played at several tables may be in both halves, and a gain found
only where the deal and its auction were fitted is memory.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from dealer import DealerError

from inference.auction.book import Book, load_book
from inference.auction.likelihood import DefenderKey, Likelihood, Tally, defender_key, lawful_laws
from inference.auction.population import POPULATIONS, population
from inference.auction.reading import read_auction
from inference.auction.context import suits_bid
from inference.io.halves import CALIBRATION, EVALUATION, HALVES, CorpusFile, corpus_files
from inference.io.overlap import Overlap, Sighting, sighting
from inference.io.records import AuctionRecord, contract_from_auction, file_items, read_auctions
from inference.errors import InvalidArgumentError
from inference.rules.contract import Strain

__all__ = ["ALPHAS", "Item", "LikelihoodWork", "FileTally", "FittedLikelihood", "record_defenders",
           "tally_file", "fit_likelihood", "score", "score_by_overlap"]

#: The shrinking tried on the validation part (pseudo-records, :data:`~inference.auction.likelihood.ALPHA`).
ALPHAS = (5, 20, 80, 320)

#: One defender: his key, true HCP and lengths, and the 52-bit mask declarer sees.
Item = tuple[DefenderKey, int, tuple[int, int, int, int], int]


@dataclass(frozen=True)
class LikelihoodWork:
    """One file to tally with a book (``half``: the half the likelihood is fitted on)."""

    file: CorpusFile
    book: Book
    population: str | None = None
    half: str = CALIBRATION


@dataclass
class FileTally:
    """One file's counts (calibration half but its validation part; the validation part; the evaluation half), its
    defenders (the calibration half's, its validation part's, the evaluation half's), the deals and calls of the
    records of the half fitted, and of each defender scored (in the order of his half's list)."""

    tally: Tally = field(default_factory=Tally)
    validation_tally: Tally = field(default_factory=Tally)
    evaluation_tally: Tally = field(default_factory=Tally)
    calibration: list[Item] = field(default_factory=list)
    validation: list[Item] = field(default_factory=list)
    evaluation: list[Item] = field(default_factory=list)
    fitted: list[Sighting] = field(default_factory=list)
    scored: list[Sighting] = field(default_factory=list)


def record_defenders(rec: AuctionRecord, book: Book) -> list[Item]:
    """Each defender of a record: key, true HCP and lengths, what declarer sees (none if the auction is unread).
    The reading puts back the leading passes a record dropped (its Declarer tag says so: rpbridge's exports),
    so the seats are the record's."""
    try:
        reading = read_auction(rec.dealer, rec.calls, book, rec.vulnerable, rec.explanations, rec.declarer or None)
    except (ValueError, DealerError):
        return []
    calls = ["Pass"] * (len(reading.calls) - len(rec.calls)) + list(rec.calls)
    found = contract_from_auction(rec.dealer, calls)
    if found is None:
        return []
    contract, declarer = found
    inferences = reading.inferences
    bids = suits_bid(rec.dealer, calls, declarer)
    trump = None if contract.strain == Strain.NT else int(contract.strain)
    visible = rec.deal[declarer].mask | rec.deal[declarer.partner].mask
    out: list[Item] = []
    for seat in (declarer.lho, declarer.rho):
        claims = [i.claims(declarer, declarer)[0] for i in inferences if i.by == seat]
        hand = rec.deal[seat]
        shape = hand.shape
        out.append((defender_key(claims, seat, declarer, bids, trump), hand.hcp,
                    (shape[0], shape[1], shape[2], shape[3]), visible))
    return out


def tally_file(work: LikelihoodWork) -> FileTally:
    """Count one file's calibration defenders and keep its evaluation ones; for a fit on the evaluation half, count
    those instead and keep the calibration half's (a pure function of ``work``)."""
    out = FileTally()
    for item in file_items(read_auctions, str(work.file.path)):
        if not isinstance(item, AuctionRecord) or not item.calls:
            continue
        if work.population is not None and population(item.source, item.players) != work.population:
            continue
        defenders = record_defenders(item, work.book)
        if not defenders:
            continue
        other = work.half == EVALUATION
        if work.file.half(item.index) == work.half:
            out.fitted.append(sighting(item))
        else:
            out.scored.extend([sighting(item)] * len(defenders))
        if work.file.half(item.index) != CALIBRATION:
            if not other:
                out.evaluation.extend(defenders)
                continue
            tally = out.evaluation_tally
        else:
            validation = work.file.halves.in_validation(work.file.name, item.index)
            tally = out.validation_tally if validation else out.tally
            if other:
                out.calibration.extend(defenders)
            if validation:
                out.validation.extend(defenders)
        tally.records += 1
        for key, hcp, lengths, visible in defenders:
            tally.add(key, hcp, lengths, visible)
    return out


def score(likelihood: Likelihood, items: Iterable[Item]) -> dict[str, float]:
    """Mean bits a defender the likelihood gives his true HCP and his true lengths (see the module)."""
    hcp_bits = length_bits = 0.0
    n = 0
    for key, hcp, lengths, visible in items:
        law_hcp, law_lengths = lawful_laws(visible)
        n += 1
        w = likelihood.hcp.get(key.hcp)
        if w is not None:
            hcp_bits += math.log2(w[hcp] / sum(p * x for p, x in zip(law_hcp, w)))
        for s in range(4):
            wl = likelihood.lengths.get(key.lengths[s])
            if wl is not None:
                length_bits += math.log2(wl[lengths[s]] / sum(p * x for p, x in zip(law_lengths[s], wl)))
    return {"defenders": n, "hcp": hcp_bits / max(n, 1), "lengths": length_bits / max(n, 1)}


@dataclass(frozen=True)
class FittedLikelihood:
    """The fitted likelihood and its score on the other half (``scored_on``: the evaluation half, unless fitted
    there)."""

    likelihood: Likelihood
    score: dict[str, float]
    #: Per shrinking tried, its validation score (bits of HCP plus bits of lengths a defender).
    alphas: dict[int, float] = field(default_factory=dict)
    scored_on: str = EVALUATION
    #: The score by what the fitted half holds of the defender's record (:mod:`inference.io.overlap`'s groups).
    by_overlap: dict[str, dict[str, float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of what ``kibitz likelihood --json`` prints (the score keyed by the half scored)."""
        return {"book": self.likelihood.book, "provenance": dict(self.likelihood.provenance),
                "keys": {"hcp": len(self.likelihood.hcp), "lengths": len(self.likelihood.lengths)},
                "validation": {str(a): b for a, b in self.alphas.items()}, self.scored_on: self.score,
                "by overlap": self.by_overlap}


def score_by_overlap(likelihood: Likelihood, items: Sequence[Item], sightings: Sequence[Sighting],
                     fitted: Iterable[Sighting]) -> dict[str, dict[str, float]]:
    """:func:`score` per group of the scored defenders (``sightings``: each one's deal and calls) by what the
    ``fitted`` records hold of them: fresh deals, deals fitted with another auction, with the same auction."""
    return {g: score(likelihood, part) for g, part in Overlap.of_sightings(fitted).split(items, sightings).items()}


def fit_likelihood(paths: Iterable["str | Path"], book: "Book | str | Path", *, progress: bool = False,
                   jobs: int = 1, scheduler: str | None = None, command: str = "",
                   population: str | None = None, half: str = CALIBRATION) -> FittedLikelihood:
    """Fit the likelihood on the calibration half of the records under ``paths``, score it on the evaluation half.

    ``half="evaluation"`` fits it on the evaluation half instead, scored on the calibration half (the shrinking
    is still the one chosen on the calibration half's validation part): what the key would give the
    defenders a declarer is judged against if they were its own calibration, with no error of estimation."""
    paths = [str(p) for p in paths]
    the_book = load_book(book)
    if population is not None and population not in POPULATIONS:
        raise InvalidArgumentError(f"unknown population {population!r} (expected one of {', '.join(POPULATIONS)})")
    if half not in HALVES:
        raise InvalidArgumentError(f"invalid half {half!r}: expected {' or '.join(HALVES)}")
    work = [LikelihoodWork(f, the_book, population, half) for f in corpus_files(paths)]
    from inference.distributed import run_files

    tallies = run_files(tally_file, work, jobs=jobs, scheduler=scheduler, name="likelihood",
                        progress=f"likelihood {the_book.name}" if progress else None)
    training, whole, other = Tally(), Tally(), Tally()
    for t in tallies:  # in file order: the same sums as one pass
        training.merge(t.tally)
        whole.merge(t.tally)
        whole.merge(t.validation_tally)
        other.merge(t.evaluation_tally)
    validation = [i for t in tallies for i in t.validation]
    if not validation or not training.records:
        raise InvalidArgumentError(f"too few records to fit a likelihood under {', '.join(map(str, paths))}: "
                                   f"{whole.records} defenders' auctions read on the calibration half, "
                                   f"{len(validation)} in its validation part (where alpha is chosen)")
    alphas = {}
    for a in ALPHAS:
        trial = score(Likelihood.fitted(training, the_book.name, alpha=a), validation)
        alphas[a] = trial["hcp"] + trial["lengths"]
    best = max(ALPHAS, key=lambda a: (alphas[a], -a))
    provenance = {"command": command, "split": work[0].file.halves.digest() if work else "",
                  "fitted on": f"the {half} half" + (f", {population}" if population else ""),
                  "alpha chosen on": "the calibration half's validation part"}
    if half == EVALUATION:  # fitted on one half, scored on the other
        if not other.records:
            raise InvalidArgumentError(f"no auction read on the evaluation half under {', '.join(map(str, paths))}: "
                                       "nothing to fit there")
        whole = other
    likelihood = Likelihood.fitted(whole, the_book.name, provenance, alpha=best)
    scored = [i for t in tallies for i in (t.calibration if half == EVALUATION else t.evaluation)]
    scored_on = CALIBRATION if half == EVALUATION else EVALUATION
    by_overlap = score_by_overlap(likelihood, scored, [s for t in tallies for s in t.scored],
                                  (s for t in tallies for s in t.fitted))
    return FittedLikelihood(likelihood, score(likelihood, scored), alphas, scored_on, by_overlap)
