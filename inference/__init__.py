"""Kibitz's play-time inference engine (built on :mod:`dealer`)."""

from .errors import InferenceError

__all__ = ["InferenceError"]
