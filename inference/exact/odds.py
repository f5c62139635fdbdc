"""Exact odds of a view: who holds each unseen card, the concealed hands' dealt lengths and HCP, suit splits."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dealer import Card, Seat

__all__ = ["Odds"]


@dataclass(frozen=True)
class Odds:
    """Exact odds in a view, as Fractions. Seats are the concealed ones.

    ``layouts`` is the number of layouts the view counts (in the weighted view, those of non-zero
    weight); ``weight`` is the view's total weight (equal to ``layouts`` except in the weighted view).
    """

    layouts: int
    weight: "int | Fraction"
    holder: dict[Card, dict[Seat, Fraction]]
    length: dict[Seat, dict[int, dict[int, Fraction]]]  # seat -> suit -> length -> probability
    hcp: dict[Seat, dict[int, Fraction]]
    split: dict[int, dict[tuple[int, ...], Fraction]]  # suit -> (dealt lengths of the concealed seats) -> p

    def as_json(self) -> dict[str, Any]:
        """``{"layouts": int, "weight": "n/d", "holder": {card: {seat: "n/d"}}, "length": {seat: {suit: {n: "n/d"}}},
        "hcp": {seat: {n: "n/d"}}, "split": {suit: {"a-b": "n/d"}}}``."""
        def frac(p: Fraction) -> str:
            return f"{p.numerator}/{p.denominator}"

        suits = "SHDC"
        return {
            "layouts": self.layouts,
            "weight": frac(Fraction(self.weight)),
            "holder": {str(c): {s.name: frac(p) for s, p in by.items()} for c, by in sorted(self.holder.items())},
            "length": {s.name: {suits[t]: {str(n): frac(p) for n, p in sorted(d.items())} for t, d in by.items()}
                       for s, by in self.length.items()},
            "hcp": {s.name: {str(h): frac(p) for h, p in sorted(d.items())} for s, d in self.hcp.items()},
            "split": {suits[t]: {"-".join(map(str, k)): frac(p) for k, p in sorted(d.items(), reverse=True)}
                      for t, d in self.split.items()},
        }
