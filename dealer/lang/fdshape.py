"""DealerV2's ``shape{seat, ...}`` patterns (François Dellacherie's), expanded into a set of shapes.

DealerV2 hands the text to a Perl program (``fdp`` and ``Dist.pm``) that writes it out as a plain
``shape(seat, ...)`` list; this module gives the same set. A pattern is terms joined by `` + `` and
`` - `` (spaces on both sides), taken in order: ``+`` adds a term's shapes, ``-`` removes them. A term
is four suit positions, spades first, each a length (``5``), ``x`` (any), ``5+`` (5 to 9), ``5-`` (0 to
5) or a set (``[013-5]``); a length may name its suit after it (``5h``, ``3d2c4s4h``; ``M`` a major,
``m`` a minor); a group in parentheses at the end is any order of its positions over the suits left
(``(4432)``, ``5h(431)``); ``:`` then conditions on the lengths ``s h d c`` (``h>c,h>d``: a comma is
"and", ``or`` is "or", with ``+ - < <= > >= ==``). As in DealerV2, no position counts past 9 except
an ``x`` whose suit no condition names.

>>> seat, shapes = expand_fd_shape("west, x4+xx:h>c,h>d")
>>> seat, (1, 5, 4, 3) in shapes, (1, 4, 4, 4) in shapes, (0, 10, 2, 1) in shapes, len(shapes)
('west', True, False, False, 135)
>>> sorted(expand_fd_shape("north, 1+xxx - (7+xxx)")[1]) == sorted(
...     s for s in ALL_SHAPES if 1 <= s[0] <= 9 and max(s) < 7 or s == (1, 10, 1, 1) or s[0] >= 1 and max(s) > 9
...     and s[0] <= 9)
True
"""

from __future__ import annotations

import itertools
import re

from dealer.cards.shapes import ShapeSet

__all__ = ["Shape", "ALL_SHAPES", "expand_fd_shape"]

#: A shape: the lengths of spades, hearts, diamonds and clubs.
Shape = tuple[int, int, int, int]
#: Every shape of a hand: (spades, hearts, diamonds, clubs) adding up to 13.
ALL_SHAPES: tuple[Shape, ...] = tuple((s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s)
                                      for d in range(14 - s - h))
_POSITION = re.compile(r"\s*(?:(\d)([+-])?|x|\[([0-9,\-]+)\])([shdcMm])?\s*")
_CONDITION = re.compile(r"(?:[shdc0-9<>=+\-, ]|\bor\b)*")


def expand_fd_shape(body: str) -> tuple[str, ShapeSet]:
    """The seat word and the shapes of ``shape{BODY}``; ``ValueError`` with the reason for a pattern DealerV2
    would refuse."""
    seat, comma, rest = body.partition(",")
    if not comma or seat.strip() not in ("north", "east", "south", "west"):
        raise ValueError(f"shape{{{body[:40]}...}}: expected a seat in lower case and a comma first")
    shapes: set[Shape] = set()
    parts = re.split(r"(\s+[-+]\s+)", rest.strip())
    for k in range(0, len(parts), 2):
        sign = "+" if k == 0 else parts[k - 1].strip()
        chosen = _term(parts[k].strip())
        shapes = shapes | chosen if sign == "+" else shapes - chosen
    return seat.strip(), ShapeSet(frozenset(shapes))


def _term(term: str) -> set[Shape]:
    pattern, _, condition = term.partition(":")
    if "M" in pattern or "m" in pattern:  # a major (minor): the union of the term with each
        letter, suits = ("M", "sh") if "M" in pattern else ("m", "dc")
        return set().union(*(_term(term.replace(letter, suit, 1)) for suit in suits))
    if condition and (not _CONDITION.fullmatch(condition) or re.search(r"(?<![<>=!])=(?!=)", condition)):
        raise ValueError(f"shape{{...}}: cannot read the condition {condition!r}")
    test = " ".join(condition.replace(",", " and ").split())
    named = set(re.findall(r"[shdc]", condition))
    fixed, group = _positions(pattern)
    out: set[Shape] = set()
    for shape in ALL_SHAPES:
        lengths = dict(zip("shdc", shape))
        if test and not eval(test, {"__builtins__": {}}, lengths):  # noqa: S307 - only s h d c, numbers, operators
            continue
        if _fits(lengths, fixed, group, named):
            out.add(shape)
    return out


def _positions(pattern: str) -> tuple[list[tuple[str | None, set[int]]], list[set[int]] | None]:
    """The positions before a group (each with its suit letter, if named) and the group's, if any."""
    head, paren, tail = pattern.partition("(")
    fixed = _read(head)
    if not paren:
        return fixed, None
    if not tail.rstrip().endswith(")"):
        raise ValueError(f"shape{{...}}: a group must close and come last in {pattern!r}")
    return fixed, [allowed for _, allowed in _read(tail.rstrip()[:-1])]


def _read(text: str) -> list[tuple[str | None, set[int]]]:
    out: list[tuple[str | None, set[int]]] = []
    at = 0
    while at < len(text.strip()) and text[at:].strip():
        m = _POSITION.match(text, at)
        if m is None or m.end() == at:
            raise ValueError(f"shape{{...}}: cannot read {text[at:at + 10]!r}")
        digit, more, listed, suit = m.groups()
        if digit is not None:
            d = int(digit)
            allowed = set(range(d, 10)) if more == "+" else set(range(d + 1)) if more == "-" else {d}
        elif listed is not None:
            allowed = set()
            for piece in re.findall(r"(\d)-(\d)|(\d)", listed):
                allowed |= set(range(int(piece[0]), int(piece[1]) + 1)) if piece[0] else {int(piece[2])}
        else:
            allowed = set(range(14))  # x
        out.append((suit, allowed))
        at = m.end()
    return out


def _fits(lengths: dict[str, int], fixed: list[tuple[str | None, set[int]]], group: list[set[int]] | None,
          named: set[str]) -> bool:
    """Whether a shape meets the positions: suit-named ones on their suits, the others in order, a group in any
    order over the suits left."""
    def ok(suit: str, allowed: set[int]) -> bool:
        cap = allowed if len(allowed) < 14 or suit not in named else set(range(10))
        return lengths[suit] in cap

    if any(s is not None for s, _ in fixed) or group is not None:
        left = [s for s in "shdc" if s not in {n for n, _ in fixed if n is not None}]
        for suit, allowed in fixed:
            if suit is None:
                suit = left.pop(0)
            if not ok(suit, allowed):
                return False
        if group is None:
            return not left
        return len(group) == len(left) and any(all(ok(s, a) for s, a in zip(left, order))
                                               for order in itertools.permutations(group))
    if len(fixed) != 4:
        raise ValueError(f"shape{{...}}: expected four suit positions, found {len(fixed)}")
    return all(ok(suit, allowed) for suit, (_, allowed) in zip("shdc", fixed))
