"""Real defenders' play as evidence: each defender's card as a choice among classes of equal cards
(:mod:`~inference.defence.cards`), a model of those choices fitted on the corpus's calibration half
(:mod:`~inference.defence.model`, :mod:`~inference.defence.fitting`)."""

from __future__ import annotations

from inference.defence.cards import Choice, Observation, Phase, Situation, Way, classes, code_of, observations
from inference.defence.model import DefenceModel, load_model

__all__ = ["Choice", "Observation", "Phase", "Situation", "Way", "classes", "code_of", "observations",
           "DefenceModel", "load_model"]
