"""Shapes and sets of shapes, as written in the ``dealer`` program.

A shape is four lengths (spades, hearts, diamonds, clubs) adding to 13. A
pattern is four characters, each a digit or ``x`` (any length); ``any``
before it accepts every order of its digits. Patterns join with ``+``
(union) and ``-`` (difference), left to right::

    any 5332 + 9xxx - any 4333
"""

from __future__ import annotations

import itertools
from functools import lru_cache
import re
from typing import Iterable, Iterator

from dealer.errors import SpecSyntaxError

__all__ = ["ALL_SHAPES", "ShapeSet", "shape_index"]

#: Every shape, in lexicographic order of (spades, hearts, diamonds, clubs).
ALL_SHAPES: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, 13 - a - b - c)
    for a in range(14) for b in range(14 - a) for c in range(14 - a - b)
)
_INDEX = {s: i for i, s in enumerate(ALL_SHAPES)}


def shape_index(shape: tuple[int, int, int, int]) -> int:
    """Position of ``shape`` in :data:`ALL_SHAPES` (0..559)."""
    return _INDEX[shape]


_TERM = re.compile(r"\s*(?:(any)\s+)?([0-9xX]{4})\s*")


@lru_cache(maxsize=1024)
def _pattern_shapes(pattern: str, any_order: bool) -> frozenset[tuple[int, int, int, int]]:
    """The shapes a pattern such as ``5332`` or ``xx66`` (in any order when ``any_order``) stands for."""
    chars = pattern.lower()
    out: set[tuple[int, int, int, int]] = set()
    orders = set(itertools.permutations(chars)) if any_order else {tuple(chars)}
    for order in orders:  # the shapes whose lengths are the digits where the order has them
        fixed = [(i, int(ch)) for i, ch in enumerate(order) if ch != "x"]
        if not fixed:
            return frozenset(ALL_SHAPES)
        out.update(shape for shape in _with_length(*fixed[0]) if all(shape[i] == n for i, n in fixed[1:]))
    return frozenset(out)


@lru_cache(maxsize=None)
def _with_length(suit: int, n: int) -> tuple[tuple[int, int, int, int], ...]:
    """The shapes with ``n`` cards in suit ``suit`` (0 = spades)."""
    return tuple(s for s in ALL_SHAPES if s[suit] == n)


class ShapeSet:
    """An immutable set of shapes.

    >>> s = ShapeSet.parse("any 5332 + 9xxx - any 4333")
    >>> (5, 3, 3, 2) in s, (2, 3, 5, 3) in s, (9, 2, 1, 1) in s, (4, 3, 3, 3) in s
    (True, True, True, False)
    >>> len(ShapeSet.parse("any 4333")), len(ShapeSet.parse("xx66"))
    (4, 2)
    """

    __slots__ = ("_shapes", "_text")
    _shapes: frozenset[tuple[int, int, int, int]]
    _text: str | None

    def __init__(self, shapes: Iterable[tuple[int, int, int, int]] = (), text: str | None = None) -> None:
        frozen = frozenset(tuple(s) for s in shapes)
        for s in frozen:
            if s not in _INDEX:
                raise ValueError(f"invalid shape {s!r}: four lengths 0..13 adding to 13 expected")
        object.__setattr__(self, "_shapes", frozen)
        object.__setattr__(self, "_text", text)

    @classmethod
    def parse(cls, text: str, *, source: str = "<shape>", line: int = 1, column: int = 1,
              line_text: str | None = None) -> "ShapeSet":
        """Parse ``any 5332 + 9xxx - any 4333``; errors carry the position in ``source``.

        ``line``/``column`` locate ``text`` in its source; ``line_text`` is the
        whole source line, shown under the message.
        """
        if line_text is None:
            line_text = text
        pos = 0
        shapes: set[tuple[int, int, int, int]] = set()
        sign = "+"
        first = True
        while True:
            m = _TERM.match(text, pos)
            if not m:
                pos += len(text[pos:]) - len(text[pos:].lstrip())
                raise SpecSyntaxError(
                    f"invalid shape pattern {text[pos:].strip()!r}: expected four digits or x, "
                    "optionally after 'any' (e.g. 'any 5332', '9xxx')",
                    source=source, line=line, column=column + pos, text=line_text,
                )
            digits = [int(ch) for ch in m.group(2).lower() if ch != "x"]
            if sum(digits) > 13 or ("x" not in m.group(2).lower() and sum(digits) != 13):
                raise SpecSyntaxError(
                    f"shape pattern {m.group(2)!r} cannot add up to 13 cards",
                    source=source, line=line, column=column + m.start(2), text=line_text,
                )
            term = _pattern_shapes(m.group(2), bool(m.group(1)))
            shapes = shapes | term if sign == "+" else shapes - term
            pos = m.end()
            first = False
            pos += len(text[pos:]) - len(text[pos:].lstrip())
            if pos >= len(text):
                break
            if text[pos] in "+-,":  # a comma adds, as does a pattern written next to the last one
                sign = "+" if text[pos] == "," else text[pos]
                pos += 1
            elif _TERM.match(text, pos):
                sign = "+"
            else:
                raise SpecSyntaxError(
                    f"expected '+' or '-' between shape patterns, found {text[pos]!r}",
                    source=source, line=line, column=column + pos, text=line_text,
                )
        del first
        return cls(shapes, text=" ".join(text.split()))

    def __contains__(self, shape: object) -> bool:
        return shape in self._shapes

    def __iter__(self) -> Iterator[tuple[int, int, int, int]]:
        return iter(sorted(self._shapes, reverse=True))

    def __len__(self) -> int:
        return len(self._shapes)

    def __or__(self, other: "ShapeSet") -> "ShapeSet":
        return ShapeSet(self._shapes | other._shapes)

    def __sub__(self, other: "ShapeSet") -> "ShapeSet":
        return ShapeSet(self._shapes - other._shapes)

    def __and__(self, other: "ShapeSet") -> "ShapeSet":
        return ShapeSet(self._shapes & other._shapes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShapeSet) and self._shapes == other._shapes

    def __hash__(self) -> int:
        return hash(self._shapes)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ShapeSet is immutable")

    @property
    def shapes(self) -> frozenset[tuple[int, int, int, int]]:
        """The shapes in the set."""
        return self._shapes

    def __str__(self) -> str:
        if self._text is not None:
            return self._text
        return " + ".join("".join(str(n) if n < 10 else "x" for n in s) for s in self) or "(no shape)"

    def __repr__(self) -> str:
        return f"ShapeSet.parse({str(self)!r})" if self._text is not None else f"ShapeSet({sorted(self._shapes)!r})"
