"""A model of real defenders' play: the probability of each card from the holding it came from.

For each group of players (``human``, ``robot``) and each context (the situation's phase, notrump or
trumps, partner winning or not, and the holding's key: its classes of equal cards, see
:mod:`inference.defence.cards`), the model holds how often each class code was chosen on the
calibration half, and how often each place inside a class (top, inner, bottom) by the class's size.
A code's probability is its count plus ``alpha`` over the context's total plus ``alpha`` per code
allowed (add-alpha smoothing, so no lawful card gets probability 0); then, where the model has counts
by the holding's length too (:attr:`~inference.defence.cards.Choice.long_key`: real defenders give
count, high from a doubleton), the length's counts shrunk towards it: ``(n + beta p) / (total + beta)``
(a length seen rarely keeps the key's probability). A card's is its class code's,
shared equally among the classes with that code, times its place's, shared equally among the inner
cards. On a lead or a discard the suit's rate is kept too (``"<context>|suit chosen"`` and ``"|suit held"``
by the suit's feature, and by its role); on a ruff or a discard by a defender holding trumps, how often
he ruffed or discarded (``"ruff or discard|pw|over"``, by partner winning and whether a trump of his would
win: :func:`~inference.defence.cards.ruff_context`). Every probability is an exact
:class:`~fractions.Fraction`.

The fitted model ships as data (``inference/data/defence/default.json``) with its provenance: the
command, the corpus's digest, the split's digest and the date. Refitting is deterministic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from inference.errors import InvalidArgumentError, OutputError
from inference.defence.cards import (CHOOSES_SUIT, WAY, Choice, Observation, Phase, Situation, Way, allowed,
                                     allowed_within, code_of, ruff_context, suit_feature)

__all__ = ["DefenceModel", "load_model", "FORMAT", "GROUPS", "DEFAULT_ALPHA", "DEFAULT_BETA", "DEFAULT_GAMMA"]

#: The form of a model file (``/2``: a suit's choice by its length, honours and top, :func:`suit_feature`).
FORMAT = "kibitz-defence-model/2"
#: The groups of players fitted apart.
GROUPS = ("human", "robot")
#: The smoothing: what each allowed code's count starts from.
DEFAULT_ALPHA = Fraction(1, 2)
#: The shrinkage of a length's counts towards the key's probability (as many pseudo-counts).
DEFAULT_BETA = Fraction(4)
#: The shrinkage of a suit's rate by its role towards its rate by feature alone (as many pseudo-counts).
DEFAULT_GAMMA = Fraction(8)

Counts = Mapping[str, Mapping[str, Mapping[str, int]]]  # group -> "context|key" -> code -> count


@dataclass(frozen=True)
class DefenceModel:
    """Counts of real defenders' choices by group and context, and the smoothing that makes them probabilities."""

    counts: Counts
    alpha: Fraction = DEFAULT_ALPHA
    provenance: Mapping[str, Any] = field(default_factory=dict)
    beta: Fraction = DEFAULT_BETA
    gamma: Fraction = DEFAULT_GAMMA
    _choices: dict[tuple[str, str, Choice], Fraction] = field(default_factory=dict, init=False, repr=False,
                                                              compare=False)  # choice_probability's, found once

    def __post_init__(self) -> None:
        if self.alpha <= 0:
            raise InvalidArgumentError(f"the smoothing alpha must be above 0, not {self.alpha}")
        if self.beta <= 0:
            raise InvalidArgumentError(f"the shrinkage beta must be above 0, not {self.beta}")
        if self.gamma <= 0:
            raise InvalidArgumentError(f"the shrinkage gamma must be above 0, not {self.gamma}")
        unknown = set(self.counts) - set(GROUPS)
        if unknown:
            raise InvalidArgumentError(f"unknown group(s) {sorted(unknown)} in a defence model (known: {GROUPS})")

    def code_probability(self, group: str, context: str, key: str, code: str, codes: tuple[str, ...]) -> Fraction:
        """The smoothed probability of ``code`` among the ``codes`` a holding's key allows in a context."""
        table = self.counts.get(group, {}).get(f"{context}|{key}" if key else context, {})
        total = sum(table.get(c, 0) for c in codes)
        return (table.get(code, 0) + self.alpha) / (total + self.alpha * len(codes))

    def evidence(self, observation: Observation, group: str = "human") -> Fraction:
        """The weight the observed card gives the defender's hand then (:meth:`hand_evidence`; an observation
        without the hand, only the holding: :meth:`card_evidence`)."""
        ob = observation
        if not ob.hand:
            return self.card_evidence(ob.situation, ob.holding, ob.card.index % 13, group)
        return self.hand_evidence(ob.situation, ob.hand, ob.card.index % 13, group)

    def hand_evidence(self, situation: Situation, hand: int, position: int, group: str = "human") -> Fraction:
        """The weight a card gives the whole hand it came from (52-bit, then): :meth:`card_evidence` of the holding
        in its suit, times on a discard :meth:`trump_choice` of the hand's trumps."""
        p = self.card_evidence(situation, hand >> (13 * situation.card_suit) & 0x1FFF, position, group)
        if situation.phase == Phase.DISCARD and situation.trump is not None and p:
            p *= self.trump_choice(situation, hand >> (13 * situation.trump) & 0x1FFF, group)
        return p

    def card_evidence(self, situation: Situation, holding: int, position: int, group: str = "human") -> Fraction:
        """The weight a card gives the holding it came from: its probability from the holding, times (on a lead
        or a discard) the rate at which defenders choose a suit like the holding (:meth:`suit_rate`), and on a ruff
        the rate of ruffing with those trumps (:meth:`trump_choice`). The choice of suit is a *per-suit
        approximation*: the other suits the defender held weigh nothing (weighing each by ``1 - rate`` was
        measured: no gain in bits, odds 40% slower)."""
        p = self.card_probability(situation, holding, position, group, WAY[situation.phase])
        if situation.phase in CHOOSES_SUIT:
            p *= self.suit_rate(group, situation.context, holding, situation.role, situation.gone)
        if situation.phase == Phase.RUFF and p:
            p *= self.trump_choice(situation, holding, group)
        return p

    def trump_choice(self, situation: Situation, trumps: int, group: str = "human") -> Fraction:
        """On a ruff or a discard (void in the suit led), the probability that a defender holding ``trumps``
        (13-bit, then) chose to ruff or to discard as he did (:func:`~inference.defence.cards.ruff_context`);
        1 when he had no choice (no trumps, notrump)."""
        key = ruff_context(situation, trumps)
        if key is None:
            return Fraction(1)
        code = "ruff" if situation.phase == Phase.RUFF else "discard"
        return self.code_probability(group, key, "", code, ("discard", "ruff"))

    def suit_rate(self, group: str, context: str, holding: int, role: str = "", gone: int = 0) -> Fraction:
        """How often defenders in ``context`` chose a suit like ``holding`` when they held one (smoothed):
        ``(chosen + alpha) / (held + 2 alpha)``, by :func:`~inference.defence.cards.suit_feature`; with the suit's
        ``role`` (:func:`~inference.defence.cards.suit_role`), the counts of that role shrunk towards it."""
        return self.rate(group, context, suit_feature(holding, gone), role)

    def rate(self, group: str, context: str, feature: str, role: str = "") -> Fraction:
        """:meth:`suit_rate` for a suit's feature (and role): ``(chosen + gamma r) / (held + gamma)`` over the
        role's counts, ``r`` the rate by feature alone."""
        tables = self.counts.get(group, {})
        chosen = tables.get(f"{context}|suit chosen", {}).get(feature, 0)
        held = tables.get(f"{context}|suit held", {}).get(feature, 0)
        base = (chosen + self.alpha) / (held + 2 * self.alpha)
        if not role:
            return base
        chosen = tables.get(f"{context}|suit chosen {role}", {}).get(feature, 0)
        held = tables.get(f"{context}|suit held {role}", {}).get(feature, 0)
        return (chosen + self.gamma * base) / (held + self.gamma)

    def card_probability(self, situation: Situation, holding: int, position: int, group: str, way: Way) -> Fraction:
        """The probability of the card at ``position`` (0: the ace) of ``holding`` in ``situation``; 0 if the
        holding lacks it."""
        if not holding >> position & 1:
            return Fraction(0)
        choice = code_of(way, holding, 1 << position, situation.gone, situation.best)
        return self.choice_probability(group, situation.context, choice)

    def class_probability(self, group: str, context: str, choice: Choice) -> Fraction:
        """The probability of the choice's class code given the holding's key, and its length where counted."""
        codes = allowed(choice.key)
        p = self.code_probability(group, context, choice.key, choice.code, codes)
        table = self.counts.get(group, {}).get(f"{context}|{choice.long_key}")
        if table is None:
            return p
        return (table.get(choice.code, 0) + self.beta * p) / (sum(table.get(c, 0) for c in codes) + self.beta)

    def choice_probability(self, group: str, context: str, choice: Choice) -> Fraction:
        """The probability of a coded card in a context: its class code's, then its place's in the class."""
        found = self._choices.get((group, context, choice))
        if found is None:
            p = self.class_probability(group, context, choice) / choice.bucket
            found = p * self.code_probability(group, context, choice.class_key, choice.within,
                                              allowed_within(choice.class_key)) / choice.inner
            self._choices[(group, context, choice)] = found
        return found

    def as_dict(self) -> dict[str, Any]:
        """The model as JSON-ready data (counts sorted; ``alpha`` as ``"n/d"``)."""
        return {"format": FORMAT, "alpha": str(self.alpha), "beta": str(self.beta),
                "gamma": str(self.gamma),
                "provenance": dict(self.provenance),
                "counts": {g: {k: dict(sorted(v.items())) for k, v in sorted(t.items())}
                           for g, t in sorted(self.counts.items())}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<model>") -> "DefenceModel":
        """A model from :meth:`as_dict`'s form (a clear error, naming ``source``, for anything else)."""
        if isinstance(data, Mapping) and data.get("format") == "kibitz-defence-model/1":
            raise InvalidArgumentError(f"{source}: a defence model of an older form (kibitz-defence-model/1: suits "
                                       f"chosen by length and honours only); fit it again with 'kibitz defence'")
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise InvalidArgumentError(f"{source}: not a defence model (expected format {FORMAT!r})")
        try:
            counts = {str(g): {str(k): {str(c): _count(n, f"{g}/{k}/{c}") for c, n in _mapping(v, f"counts/{g}/{k}").items()}
                               for k, v in _mapping(t, f"counts/{g}").items()}
                      for g, t in _mapping(data["counts"], "counts").items()}
            provenance = data.get("provenance", {})
            if not isinstance(provenance, Mapping):
                raise ValueError(f"provenance {provenance!r:.80}: expected a mapping")
            alpha = Fraction(str(data.get("alpha", DEFAULT_ALPHA)))
            beta = Fraction(str(data.get("beta", DEFAULT_BETA)))
            gamma = Fraction(str(data.get("gamma", DEFAULT_GAMMA)))
        except (KeyError, AttributeError, TypeError, ValueError, ZeroDivisionError) as exc:
            raise InvalidArgumentError(f"{source}: a malformed defence model ({exc})") from None
        if any(n < 0 for t in counts.values() for v in t.values() for n in v.values()):
            raise InvalidArgumentError(f"{source}: a defence model's counts must not be negative")
        try:
            return cls(counts, alpha, dict(provenance), beta, gamma)
        except InvalidArgumentError as exc:  # a smoothing out of range, an unknown group: named with the file
            raise InvalidArgumentError(f"{source}: {exc}") from None

    def save(self, path: "str | Path") -> None:
        """Write the model as JSON (an error writing it names the file)."""
        try:
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(self.as_dict(), fh, indent=1, sort_keys=False)
                fh.write("\n")
        except OSError as exc:
            raise OutputError.of(path, exc) from None


def _mapping(value: object, where: str) -> Mapping[Any, Any]:
    """A model file's table: a mapping (anything else is refused, naming where it is)."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} is {type(value).__name__} {value!r:.60}: expected a mapping")
    return value


def _count(n: object, where: str) -> int:
    """A model file's count: an exact integer (a float, a string or a bool is refused)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise ValueError(f"count {where} is {n!r}: expected an integer")
    return n


def load_model(name: str = "default") -> DefenceModel:
    """A shipped model by name (``default``), or a model file by path (read again once the file changes)."""
    if name.endswith(".json") or "/" in name:
        path = Path(name)
        if not path.is_file():
            raise InvalidArgumentError(f"no defence model file {name!r}")
        found = path.stat()
        return _load(name, (found.st_mtime_ns, found.st_size))
    return _load(name, None)


@lru_cache(maxsize=8)
def _load(name: str, version: tuple[int, int] | None) -> DefenceModel:
    """:func:`load_model`'s reading, kept for each file's ``version`` (its time and size; None: shipped)."""
    if version is not None:
        try:
            text, source = Path(name).read_text(encoding="utf-8"), name
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidArgumentError(f"cannot read the defence model {name!r}: {exc}") from None
    else:
        found = resources.files("inference").joinpath("data", "defence", f"{name}.json")
        if not found.is_file():
            raise InvalidArgumentError(f"no shipped defence model {name!r} (shipped: default)")
        text, source = found.read_text(encoding="utf-8"), f"data/defence/{name}.json"
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidArgumentError(f"{source}: not JSON ({exc})") from None
    return DefenceModel.from_dict(data, source)
