"""Specs and scripts in the language of the ``dealer`` program.

One-liners and small scripts are both accepted::

    spades(west) == 9 && shape(east, xx66)

    # a script
    predeal north SAKQ,HAK
    opener = hcp(south) >= 12 && shape(south, any 4432 + any 5332)
    condition opener && hearts(north) >= 5
    produce 10

The whole language of the ``dealer`` program parses (:mod:`dealer.lang.syntax`,
:mod:`dealer.lang.statements`): its functions, operators (with ``/ % ?:``),
statements and actions. Comments run from ``#`` or ``//`` to the end of the
line, or between ``/*`` and ``*/``. The syntax tree and parser are shared
with the claim language (:mod:`dealer.lang.expr`, :mod:`dealer.lang.syntax`).

:func:`parse_spec` gives the exact :class:`~dealer.spec.spec.DealSpec`: conditions
on different seats must be joined by ``&&``, so ``spades(west) >= 5 ||
hearts(east) >= 5`` is refused here with a message naming it. To *run* any
script, exactly where the tables can hold its condition and by filtering an
exact superset where they cannot, use :mod:`dealer.run.runner`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer.errors import SpecSyntaxError
from dealer.lang.expr import Cond
from dealer.cards.seat import Seat
from dealer.spec.spec import DealSpec
from dealer.lang.syntax import SPEC_DIALECT
from dealer.lang.syntax import parse_condition as parse_condition_in
from dealer.lang.statements import ScriptSyntax, parse_statements

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
    syntax: ScriptSyntax | None = None


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
                  vulnerable=syntax.vulnerable, seed=syntax.seed, actions=list(syntax.action_texts), syntax=syntax)


def parse_spec(text: str, *, source: str = "<spec>") -> DealSpec:
    """Parse a spec (one-liner or script) into a :class:`~dealer.spec.spec.DealSpec`.

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
