"""A call's alert or explanation text read as a claim about the caller (or not read at all).

Records carry the players' explanations: BBO's ``an|...|`` after a call (GIB writes
``5+ !H; 11-21 HCP``), PBN ``=n=`` notes (``[Note "1:15-17"]``). What can be read is the HCP range
and suit lengths; the rest (``forcing``, ``Stayman``, ``relay``) says nothing about the hand that
can be checked, and a text with no readable part yields no claim (the caller counts it). A text
that hedges (``or``, ``if``, ``up to``, ``no``, ``/``, ``?``, ``11-13,17-19``) is not read at all:
its numbers are alternatives or negations.

* ``15-17``, ``15-17 HCP``, ``11-21 pts``: HCP from 15 to 17 (a range is HCP unless a suit follows);
* ``16+``: at least 16 HCP (a bare ``n+`` from 6 up); ``2+`` on a suit bid: at least 2 cards of it;
  ``11+ HCP``, ``21- HCP``, ``11 HCP``; ``12-16 total points`` (GIB): at most 16 HCP, when no HCP are given;
* ``5+ !H``, ``4!s``, ``2+ clubs``, ``3- !S``, ``4-5 !D``, ``5+♥``: suit lengths;
* ``bal``/``balanced``: a 4333, 4432 or 5332 shape.

The fallback is one step wider: every HCP bound moved one point out, every length bound one card.

>>> read_explanation("5+ !H; 11-21 HCP", "1H")
('length(caller, hearts) >= 5 && hcp(caller) >= 11 && hcp(caller) <= 21', 'length(caller, hearts) >= 4 && hcp(caller) >= 10 && hcp(caller) <= 22')
>>> read_explanation("forcing", "2C") is None
True
"""

from __future__ import annotations

import re

__all__ = ["read_explanation"]

_SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs", "♠": "spades", "♥": "hearts",
          "♦": "diamonds", "♣": "clubs"}
_SUIT = r"(?:!\s*([shdcSHDC])\b|([♠♥♦♣])|\s(spades|hearts|diamonds|clubs)\b)"
_LENGTH = re.compile(r"(?<![\d-])(\d{1,2})\s*(?:-\s*(\d{1,2}))?\s*([+-]?)\s*" + _SUIT)
_TOTAL = re.compile(r"(?<![\d-])(\d{1,2})\s*(?:-\s*(\d{1,2})|[+-])?\s*(?:total points|tp)\b", re.I)
_HCP = re.compile(r"(?<![\d-])(\d{1,2})\s*(?:-\s*(\d{1,2})|([+-]))?\s*(?:hcp|pts|points|pc|p)\b", re.I)
_HCP_RANGE = re.compile(r"(?<![\d-])(\d{1,2})\s*-\s*(\d{1,2})(?![\d+])", re.I)
_AT_LEAST = re.compile(r"(?<![\d-])(\d{1,2})\s*\+", re.I)
_HEDGED = re.compile(r"\b(?:or|if|up to|unless|may|might|could|maybe|either|not|no)\b|/|\?|\d\s*,\s*\d", re.I)
_BALANCED = re.compile(r"\bbal(?:anced)?\b", re.I)


def _bounds(lo: int | None, hi: int | None, widen: int) -> tuple[int | None, int | None]:
    return (None if lo is None else max(0, lo - widen), None if hi is None else hi + widen)


def _atoms(what: str, lo: int | None, hi: int | None, top: int) -> list[str]:
    out = []
    if lo is not None and lo > 0:
        out.append(f"{what} >= {lo}")
    if hi is not None and hi < top:
        out.append(f"{what} <= {hi}")
    return out


def _hcp(text: str) -> tuple[int | None, int | None] | None:
    """The HCP range a text states: ``12-14 HCP``, ``11+ HCP``, ``21- HCP``, ``11 HCP``, a bare ``15-17``
    or a bare ``16+`` (from 6 up)."""
    m = _HCP.search(text)
    if m:
        a = int(m.group(1))
        if m.group(2):
            return (a, int(m.group(2))) if a < int(m.group(2)) <= 37 else None
        return (a, None) if m.group(3) == "+" else (None, a) if m.group(3) == "-" else (a, a)
    m = _HCP_RANGE.search(text)
    if m and int(m.group(1)) < int(m.group(2)) <= 37:
        return int(m.group(1)), int(m.group(2))
    m = _AT_LEAST.search(text)
    if m and 6 <= int(m.group(1)) <= 37:
        return int(m.group(1)), None
    return None


def read_explanation(text: str | None, call: str) -> tuple[str, str] | None:
    """The claim an explanation makes about the caller and its one-step-wider fallback, or None.

    ``call``: the call explained, as a token (``1H``, ``2N``, ``X``), for a bare ``2+`` on a suit bid.
    """
    if not text or not text.strip() or _HEDGED.search(text):
        return None  # nothing, or alternatives and negations: not read
    t = " " + text.replace("\\n", " ") + " "
    lengths: dict[str, tuple[int | None, int | None]] = {}
    for m in _LENGTH.finditer(t):
        suit = _SUITS[(m.group(4) or m.group(5) or m.group(6) or "")[0].lower()]
        a, b, sign = int(m.group(1)), m.group(2), m.group(3)
        if a > 13 or (b is not None and (int(b) > 13 or int(b) < a)):
            continue
        lo, hi = (a, int(b)) if b is not None else ((a, None) if sign == "+" else ((None, a) if sign == "-" else (a, a)))
        lengths[suit] = (lo, hi)
    rest = _LENGTH.sub(" ", t)
    total = _TOTAL.search(rest)
    rest = _TOTAL.sub(" ", rest)
    hcp = _hcp(rest)
    if hcp is None and total is not None and total.group(2):  # HCP are at most the total points
        hcp = (None, int(total.group(2)))
    elif hcp is None and total is None:
        m3 = _AT_LEAST.search(rest)
        suit = call[1:2] if call[:1].isdigit() else ""
        if m3 and int(m3.group(1)) <= 5 and suit in ("S", "H", "D", "C") and _SUITS[suit.lower()] not in lengths:
            lengths[_SUITS[suit.lower()]] = (int(m3.group(1)), None)  # "2+" on a suit bid: its length
    balanced = bool(_BALANCED.search(t))
    if not lengths and hcp is None and not balanced:
        return None

    def claim(widen: int) -> str:
        parts: list[str] = []
        for suit, (lo, hi) in lengths.items():
            parts += _atoms(f"length(caller, {suit})", *_bounds(lo, hi, widen), 13)
        if hcp is not None:
            parts += _atoms("hcp(caller)", *_bounds(hcp[0], hcp[1], widen), 37)
        if balanced:
            parts.append("shape(caller, any 4333 + any 4432 + any 5332)" if not widen else
                         "shape(caller, any 4333 + any 4432 + any 5332 + any 5422 + any 6322)")
        return " && ".join(parts) or "true"

    narrow = claim(0)
    return (narrow, claim(1)) if narrow != "true" else None
