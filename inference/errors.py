"""The inference engine's exceptions: one root, each subclass also a builtin category."""

from __future__ import annotations

__all__ = ["InferenceError"]


class InferenceError(Exception):
    """Root of every error the ``inference`` package raises on purpose."""
