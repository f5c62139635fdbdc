"""Fitting the defence model on the corpus's calibration half and scoring it on the evaluation half.

:func:`fit` reads every record with legal play under the paths (:func:`inference.io.records.read_records`),
codes each defender's card (:mod:`inference.defence.cards`) and tallies, per half of the split
(:mod:`inference.io.halves`): on the calibration half, the counts the model is made of; on the
evaluation half, each card's coded choice, kept per record. The smoothing ``alpha`` and the shrinkages
``beta`` (a length's counts) and ``gamma`` (a suit's role) are chosen on the calibration half's
validation part (fitted on the rest of the half), in that order, then the model is fitted on the
whole half. The score: bits a card (``-log2`` of the probability of the card really played, given
the suit it came from) for the model and two baselines, uniform over the cards of that suit the
defender held and uniform over their classes of equal cards, per phase, with 95% intervals
bootstrapped by record. Each file is tallied on its own and the tallies folded in file order, so
the files can be shared among worker processes with the same result.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np

from inference.errors import InvalidArgumentError, RecordError
from inference.io.halves import CALIBRATION, EVALUATION, HALVES, VALIDATION, CorpusFile, corpus_files
from inference.io.overlap import Overlap, Sighting, sighting
from inference.io.records import PlayRecord, file_items, read_records
from inference.defence.cards import (CHOOSES_SUIT, Choice, Phase, auction_free, candidate_suits, classes,
                                     observations, ruff_context, suit_feature, suits_bid)
from inference.defence.model import DefenceModel

__all__ = ["ROBOT_FOLDERS", "ALPHAS", "BETAS", "GAMMAS", "TRAINING", "Seen", "FileTally", "Score", "Fitted",
           "tally_file", "fit", "corpus_digest", "BOOTSTRAP_SEED"]

#: Source folders whose players are robots (the rest: humans).
ROBOT_FOLDERS = frozenset({"bot-matches-ben", "bbo-robot-daylongs-ben"})
#: The smoothings tried on the validation part.
ALPHAS = (Fraction(1, 8), Fraction(1, 2), Fraction(2))
#: The shrinkages of a length's counts tried on the validation part (with the best alpha).
BETAS = (Fraction(1), Fraction(4), Fraction(16), Fraction(64))
#: The shrinkages of a suit's rate by role tried on the validation part (with the best alpha and beta).
GAMMAS = (Fraction(1, 2), Fraction(2), Fraction(8), Fraction(32))
#: Bootstrap resamples, and their seed (the intervals are reproducible).
BOOTSTRAP = 1000
BOOTSTRAP_SEED = 20261126


class Seen(NamedTuple):
    """One coded card: its group and context, the choice, and how many classes and cards the holding had; on a
    lead or a discard, each suit he could choose from (its feature), which he chose, and their classes and cards,
    and each suit's role (:func:`~inference.defence.cards.suit_role`)."""

    group: str
    context: str
    choice: Choice
    classes: int
    held: int
    suits: tuple[str, ...] = ()
    chosen: int = -1
    all_classes: int = 0
    all_cards: int = 0
    roles: tuple[str, ...] = ()
    ruffing: str = ""  # void in the suit led, holding trumps: the context of ruffing or discarding


#: The calibration half but its validation part (a :class:`FileTally`'s part).
TRAINING = "training"


@dataclass
class FileTally:
    """One file's tally: records read, unreadable ones, and each part's coded cards per record."""

    records: int = 0
    errors: int = 0
    training: list[list[Seen]] = field(default_factory=list)    # calibration, validation part excluded
    validation: list[list[Seen]] = field(default_factory=list)
    evaluation: list[list[Seen]] = field(default_factory=list)
    #: Each record's deal and calls, by the part it is in (in the order of that part's list).
    sightings: dict[str, list[Sighting]] = field(default_factory=lambda: {TRAINING: [], VALIDATION: [], EVALUATION: []})


def _record_cards(rec: PlayRecord, group: str) -> list[Seen]:
    hands = [rec.deal[s].mask for s in range(4)]
    out = []
    bids = suits_bid(rec.dealer, rec.calls, rec.declarer)
    trump = rec.contract.strain.trump
    for ob in observations(hands, rec.declarer, rec.contract.strain, rec.play, bids):
        ch = ob.choice()
        sit = ob.situation
        trumps = 0 if sit.trump is None else ob.hand >> (13 * sit.trump) & 0x1FFF
        seen = Seen(group, sit.context, ch, len(classes(ob.holding, sit.gone)), ob.holding.bit_count(),
                    ruffing=ruff_context(sit, trumps) or "")
        if sit.phase in CHOOSES_SUIT:
            suits = candidate_suits(ob.hand, sit, trump)
            holdings = [ob.hand >> (13 * t) & 0x1FFF for t in suits]
            roles = tuple(ob.roles[t] for t in suits)
            features = tuple(suit_feature(h, ob.played >> (13 * t) & 0x1FFF) for h, t in zip(holdings, suits))
            seen = seen._replace(suits=features, chosen=suits.index(int(ob.card.suit)),
                                 roles=roles,
                                 all_cards=sum(h.bit_count() for h in holdings),
                                 all_classes=sum(len(classes(h, ob.played >> (13 * t) & 0x1FFF))
                                                 for h, t in zip(holdings, suits)))
        out.append(seen)
    return out


def tally_file(work: CorpusFile) -> FileTally:
    """Code every defender's card of one file, by half (a pure function of ``work``)."""
    tally = FileTally()
    group = "robot" if work.folder in ROBOT_FOLDERS else "human"
    for item in file_items(read_records, str(work.path)):
        if isinstance(item, RecordError):
            tally.errors += 1
            continue
        if not isinstance(item, PlayRecord):
            continue
        tally.records += 1
        cards = _record_cards(item, group)
        if work.half(item.index) != CALIBRATION:
            part, records = EVALUATION, tally.evaluation
        elif work.halves.in_validation(work.name, item.index):
            part, records = VALIDATION, tally.validation
        else:
            part, records = TRAINING, tally.training
        records.append(cards)
        tally.sightings[part].append(sighting(item))
    return tally


def _counts(records: Iterable[Sequence[Seen]]) -> dict[str, dict[str, dict[str, int]]]:
    tally: Counter[tuple[str, str, str]] = Counter()
    for cards in records:
        for s in cards:
            tally[(s.group, f"{s.context}|{s.choice.key}", s.choice.code)] += 1
            tally[(s.group, f"{s.context}|{s.choice.long_key}", s.choice.code)] += 1
            tally[(s.group, f"{s.context}|{s.choice.class_key}", s.choice.within)] += 1
            if s.ruffing:
                tally[(s.group, s.ruffing, "ruff" if s.context.startswith(Phase.RUFF.value) else "discard")] += 1
            for j, (feature, role) in enumerate(zip(s.suits, s.roles or ("",) * len(s.suits))):
                for key in dict.fromkeys(("", f" {role}" if role else "", f" {auction_free(role)}" if role else "")):
                    if j == s.chosen:
                        tally[(s.group, f"{s.context}|suit chosen{key}", feature)] += 1
                    tally[(s.group, f"{s.context}|suit held{key}", feature)] += 1
    out: dict[str, dict[str, dict[str, int]]] = {}
    for (group, key, code), n in sorted(tally.items()):
        out.setdefault(group, {}).setdefault(key, {})[code] = n
    return out


def _bits(model: DefenceModel, s: Seen) -> tuple[float, float, float]:
    """A card's bits under the model, uniform over the suit's cards held, uniform over their classes."""
    p = model.choice_probability(s.group, s.context, s.choice)
    if not s.suits:
        return -math.log2(p), math.log2(s.held), math.log2(s.classes) + math.log2(s.choice.size)
    roles = s.roles or ("",) * len(s.suits)
    rates = [model.rate(s.group, s.context, f, r) for f, r in zip(s.suits, roles)]  # the suit chosen, among those
    p *= rates[s.chosen] / sum(rates)
    return -math.log2(p), math.log2(s.all_cards), math.log2(s.all_classes) + math.log2(s.choice.size)


@dataclass(frozen=True)
class Score:
    """Bits a card on some records: cards, and (mean, 95% interval) for the model and the two baselines."""

    cards: int
    model: tuple[float, float, float]
    uniform_cards: tuple[float, float, float]
    uniform_classes: tuple[float, float, float]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (no card scored: None for each figure, not NaN, which JSON lacks)."""
        def figures(x: tuple[float, float, float]) -> list[float] | None:
            return list(x) if self.cards else None

        return {"cards": self.cards, "model": figures(self.model), "uniform_cards": figures(self.uniform_cards),
                "uniform_classes": figures(self.uniform_classes)}


def score(model: DefenceModel, records: Sequence[Sequence[Seen]], keep: Any = None) -> Score:
    """Mean bits a card over ``records`` (only the cards ``keep(seen)`` accepts), intervals by record."""
    sums = np.zeros((len(records), 3))
    counts = np.zeros(len(records))
    for r, cards in enumerate(records):
        for s in cards:
            if keep is None or keep(s):
                sums[r] += _bits(model, s)
                counts[r] += 1
    n = int(counts.sum())
    if not n:
        return Score(0, (math.nan,) * 3, (math.nan,) * 3, (math.nan,) * 3)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    picks = rng.integers(0, len(records), size=(BOOTSTRAP, len(records)))
    means = sums[picks].sum(axis=1) / np.maximum(counts[picks].sum(axis=1), 1)[:, None]
    lo, hi = np.percentile(means, [2.5, 97.5], axis=0)
    mean = sums.sum(axis=0) / n
    return Score(n, *((float(mean[j]), float(lo[j]), float(hi[j])) for j in range(3)))


@dataclass(frozen=True)
class Fitted:
    """A fitted model and its scores on the other half (the evaluation half, unless fitted there)."""

    model: DefenceModel
    records: int
    errors: int
    alphas: dict[str, float]   # the validation part's bits a card for each alpha tried
    betas: dict[str, float]    # and for each beta, with the best alpha
    gammas: dict[str, float]   # and for each gamma, with the best alpha and beta
    overall: Score
    phases: dict[str, Score]
    groups: dict[str, Score]
    #: The score by what the half fitted holds of each scored record (:mod:`inference.io.overlap`'s groups).
    by_overlap: dict[str, Score] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (the model's counts left out: see :meth:`DefenceModel.as_dict`)."""
        return {"records": self.records, "errors": self.errors, "alpha": str(self.model.alpha), "alphas": self.alphas,
                "beta": str(self.model.beta), "betas": self.betas,
                "gamma": str(self.model.gamma), "gammas": self.gammas,
                "provenance": dict(self.model.provenance), "overall": self.overall.as_dict(),
                "phases": {k: v.as_dict() for k, v in self.phases.items()},
                "groups": {k: v.as_dict() for k, v in self.groups.items()},
                "by overlap": {k: v.as_dict() for k, v in self.by_overlap.items()}}


def corpus_digest(files: Sequence[Path]) -> str:
    """A short hash of the files' bytes, in order (the model's provenance)."""
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def fit(paths: Iterable["str | Path"], *, progress: bool = False, jobs: int = 1, scheduler: str | None = None,
        command: str = "", half: str = CALIBRATION) -> Fitted:
    """Fit the defence model on the calibration half of the records under ``paths``; score it on the evaluation half.

    ``half="evaluation"`` fits it on the evaluation half instead (a model of the defenders a declarer is
    judged against, not declarer's own: the bot benchmark's defence) and scores it on the calibration
    half; the smoothing is still the one chosen on the calibration half's validation part.
    """
    if half not in HALVES:
        raise InvalidArgumentError(f"invalid half {half!r}: expected {' or '.join(HALVES)}")
    paths = [str(p) for p in paths]
    work = corpus_files(paths)
    from inference.distributed import run_files

    tallies = run_files(tally_file, work, jobs=jobs, scheduler=scheduler, name="defence",
                        progress="defence" if progress else None)
    training = [r for t in tallies for r in t.training]
    validation = [r for t in tallies for r in t.validation]
    evaluation = [r for t in tallies for r in t.evaluation]
    if not any(validation) or not any(training):
        raise InvalidArgumentError(f"too few records to fit a defence model under {', '.join(map(str, paths))}: "
                                   f"{sum(t.records for t in tallies)} read, {sum(map(len, validation))} defenders' "
                                   f"cards in the calibration half's validation part (where the smoothing is chosen)")
    trial = _counts(training)
    alphas = {str(a): score(DefenceModel(trial, a), validation).model[0] for a in ALPHAS}
    best = min(ALPHAS, key=lambda a: (alphas[str(a)], a))
    betas = {str(b): score(DefenceModel(trial, best, beta=b), validation).model[0] for b in BETAS}
    beta = min(BETAS, key=lambda b: (betas[str(b)], b))
    gammas = {str(g): score(DefenceModel(trial, best, beta=beta, gamma=g), validation).model[0] for g in GAMMAS}
    gamma = min(GAMMAS, key=lambda g: (gammas[str(g)], g))
    provenance = {"command": command, "corpus": corpus_digest([w.path for w in work]),
                  "split": work[0].halves.digest() if work else "", "records": sum(t.records for t in tallies),
                  "alpha, beta and gamma chosen on": "the calibration half's validation part",
                  "fitted on": f"the {half} half"}
    seen = {part: [s for t in tallies for s in t.sightings[part]] for part in (TRAINING, VALIDATION, EVALUATION)}
    fitted, scored = seen[TRAINING] + seen[VALIDATION], seen[EVALUATION]
    if half == EVALUATION:
        training, evaluation = evaluation, training + validation  # fitted on one half, scored on the other
        validation = []
        fitted, scored = scored, fitted
    model = DefenceModel(_counts(training + validation), best, provenance, beta, gamma)
    phases = {}
    for phase in sorted({s.context.split("|")[0] for r in evaluation for s in r}):
        phases[phase] = score(model, evaluation, lambda s, p=phase: s.context.split("|")[0] == p)
    groups = {g: score(model, evaluation, lambda s, g=g: s.group == g) for g in sorted({s.group for r in evaluation for s in r})}
    by_overlap = {g: score(model, part) for g, part in Overlap.of_sightings(fitted).split(evaluation, scored).items()}
    return Fitted(model, sum(t.records for t in tallies), sum(t.errors for t in tallies), alphas, betas, gammas,
                  score(model, evaluation), phases, groups, by_overlap)
