"""Specs and scripts in the language of the ``dealer`` program.

One-liners and small scripts are both accepted::

    spades(west) == 9 && shape(east, xx66)

    # a script
    predeal north SAKQ,HAK
    opener = hcp(south) >= 12 && shape(south, any 4432 + any 5332)
    condition opener && hearts(north) >= 5
    produce 10

Functions: ``spades|hearts|diamonds|clubs(seat)``, ``length(seat, suit)``,
``hcp(seat)``, ``hcp(seat, suit)``, ``shape(seat, any 5332 + 9xxx - any 4333)``,
``hascard(seat, card)``. Operators: ``+ - *``, ``== != < <= > >=``,
``&&``/``and``, ``^^``/``xor``, ``||``/``or``, ``!``/``not``, parentheses.
Statements: ``condition``, ``predeal SEAT CARDS``, ``NAME = EXPR``, and
``generate``, ``produce``, ``dealer``, ``vulnerable``, ``seed``, ``action``
(recorded, not used to deal). Comments run from ``#`` or ``//`` to the end of
the line. The syntax tree and parser are shared with the claim language
(:mod:`dealer.expr`, :mod:`dealer.syntax`).

Conditions on different seats must be joined by ``&&``: each seat is dealt
from its own exact table, so ``spades(west) >= 5 || hearts(east) >= 5``
cannot be dealt exactly and is refused with a message naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import SpecSyntaxError
from .expr import Cond
from .seat import Seat
from .spec import DealSpec
from .syntax import SPEC_DIALECT
from .syntax import parse_condition as parse_condition_in
from .syntax import parse_statements

__all__ = ["parse_spec", "parse_script", "parse_condition", "Script"]


@dataclass
class Script:
    """A parsed script: the spec, plus the statements that are not about dealing."""

    spec: DealSpec
    produce: int | None = None
    generate: int | None = None
    dealer: Seat | None = None
    vulnerable: str | None = None
    seed: int | None = None
    actions: list[str] = field(default_factory=list)


def parse_script(text: str, *, source: str = "<spec>") -> Script:
    """Parse a whole script: the spec and its ``produce``/``generate``/... statements.

    >>> parse_script("hcp(north) >= 20\\nproduce 3").produce
    3
    """
    if not isinstance(text, str):
        raise SpecSyntaxError(f"expected the text of a spec, got {type(text).__name__}", source=source)
    syntax = parse_statements(text, source=source)
    spec = DealSpec.from_conditions(syntax.conditions, syntax.predeals, text.strip())
    return Script(spec=spec, produce=syntax.produce, generate=syntax.generate, dealer=syntax.dealer,
                  vulnerable=syntax.vulnerable, seed=syntax.seed, actions=list(syntax.actions))


def parse_spec(text: str, *, source: str = "<spec>") -> DealSpec:
    """Parse a spec (one-liner or script) into a :class:`~dealer.spec.DealSpec`.

    >>> spec = parse_spec("spades(west) == 9 && shape(east, xx66)")
    >>> sorted(s.name for s in spec.seats)
    ['E', 'W']
    """
    return parse_script(text, source=source).spec


def parse_condition(text: str, *, source: str = "<condition>") -> Cond:
    """Parse one condition (any seats) without splitting it by seat.

    >>> str(parse_condition("hcp(north) + hcp(south) >= 25"))
    '(hcp(north) + hcp(south)) >= 25'
    """
    return parse_condition_in(text, SPEC_DIALECT, source=source)
