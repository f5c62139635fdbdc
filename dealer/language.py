"""Specs in the language of the ``dealer`` program.

One-liners and small scripts are both accepted::

    spades(west) == 9 && shape(east, xx66)

    # a script
    predeal north SAKQ,HAK
    opener = hcp(south) >= 12 && shape(south, any 4432 + any 5332)
    condition opener && hearts(north) >= 5
    produce 10

Functions: ``spades|hearts|diamonds|clubs(seat)``, ``hcp(seat)``,
``hcp(seat, suit)``, ``shape(seat, any 5332 + 9xxx - any 4333)``,
``hascard(seat, card)``. Operators: ``+ - *``, ``== != < <= > >=``,
``&&``/``and``, ``||``/``or``, ``!``/``not``, parentheses. Statements:
``condition``, ``predeal SEAT CARDS``, ``NAME = EXPR``, and ``generate``,
``produce``, ``dealer``, ``vulnerable``, ``action`` (recorded, not used to
deal). Comments run from ``#`` or ``//`` to the end of the line.

Conditions on different seats must be joined by ``&&``: each seat is dealt
from its own exact table, so ``spades(west) >= 5 || hearts(east) >= 5``
cannot be dealt exactly and is refused with a message naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, cast

from .card import Card
from .cardset import CardSet
from .condition import (
    Always, And, Arith, Compare, Cond, Const, Expr, HasCard, Hcp, Length, Not, Or, Pos, ShapeIn, SuitHcp,
)
from .errors import DealerError, ImpossibleSpecError, InvalidCardError, SpecSyntaxError, UnsupportedSpecError
from .seat import Seat
from .shapes import ShapeSet
from .spec import DealSpec, SeatSpec
from .suit import Suit

__all__ = ["parse_spec", "parse_script", "parse_condition", "Script"]

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>(?:\#|//)[^\n]*)
  | (?P<num>\d+)
  | (?P<op>&&|\|\||==|!=|<=|>=|[-+*<>!(),=])
  | (?P<name>[A-Za-z_♠♥♦♣][A-Za-z_0-9♠♥♦♣]*)
""", re.VERBOSE)

_STATEMENTS = {"condition", "predeal", "generate", "produce", "dealer", "vulnerable", "action", "seed"}
_SUITS = {"spades": Suit.S, "hearts": Suit.H, "diamonds": Suit.D, "clubs": Suit.C}
_SEATS = {"north": Seat.N, "east": Seat.E, "south": Seat.S, "west": Seat.W,
          "n": Seat.N, "e": Seat.E, "s": Seat.S, "w": Seat.W}
_UNSUPPORTED = {"controls", "losers", "top2", "top3", "top4", "top5", "c13", "quality", "cccc", "tricks",
                "score", "imps", "rnd", "ltc", "average", "frequency", "printall", "evalcontract"}


@dataclass
class _Tok:
    kind: str
    text: str
    pos: Pos
    offset: int


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


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.lines = text.splitlines() or [""]
        self.toks = self._tokenize()
        self.i = 0
        self.defs: dict[str, Cond | Expr] = {}

    # -- tokens ---------------------------------------------------------------
    def _pos(self, offset: int) -> Pos:
        line = self.text.count("\n", 0, offset) + 1
        col = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return Pos(self.source, line, col)

    def error(self, message: str, offset: int) -> SpecSyntaxError:
        pos = self._pos(offset)
        line_text = self.lines[pos.line - 1] if pos.line - 1 < len(self.lines) else ""
        return SpecSyntaxError(message, source=self.source, line=pos.line, column=pos.column, text=line_text)

    def _tokenize(self) -> list[_Tok]:
        toks = []
        pos = 0
        while pos < len(self.text):
            m = _TOKEN.match(self.text, pos)
            if not m:
                raise self.error(f"unexpected character {self.text[pos]!r}", pos)
            kind = m.lastgroup or ""
            if kind not in ("ws", "comment"):
                toks.append(_Tok(kind, m.group(), self._pos(pos), pos))
            pos = m.end()
        toks.append(_Tok("end", "", self._pos(len(self.text)), len(self.text)))
        return toks

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> _Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> _Tok:
        t = self.tok
        self.i += 1
        return t

    def expect(self, text: str, what: str) -> _Tok:
        if self.tok.text != text:
            found = repr(self.tok.text) if self.tok.kind != "end" else "the end of the spec"
            raise self.error(f"expected {what}, found {found}", self.tok.offset)
        return self.next()

    def at_statement_start(self) -> bool:
        t = self.tok
        if t.kind == "end":
            return True
        if t.kind == "name" and t.text.lower() in _STATEMENTS:
            return True
        return t.kind == "name" and self.peek().text == "="

    # -- statements -------------------------------------------------------------
    def script(self) -> tuple[list[Cond], dict[Seat, tuple[CardSet, Pos]], dict[str, object]]:
        conds: list[Cond] = []
        predeals: dict[Seat, tuple[CardSet, Pos]] = {}
        meta: dict[str, object] = {"actions": []}
        while self.tok.kind != "end":
            t = self.tok
            word = t.text.lower() if t.kind == "name" else ""
            if word == "condition":
                self.next()
                conds.append(self.condition_expr())
            elif word == "predeal":
                self.next()
                seat = self.seat_name()
                start = self.tok.offset
                parts = []
                while self.tok.kind in ("name", "num") or self.tok.text == ",":
                    if self.tok.kind == "name" and self.tok.text.lower() in _STATEMENTS:
                        break
                    if self.tok.kind == "name" and self.peek().text == "=":
                        break
                    parts.append(self.next().text)
                text = "".join(parts)
                if not text:
                    raise self.error("expected the cards to predeal, such as SAKQ,HAK", start)
                try:
                    cards = CardSet.parse(text)
                except DealerError as exc:
                    raise self.error(str(exc), start) from None
                if seat in predeals:
                    cards = predeals[seat][0] | cards
                predeals[seat] = (cards, self._pos(start))
            elif word in ("generate", "produce", "seed"):
                self.next()
                num = self.tok
                if num.kind != "num":
                    raise self.error(f"expected a number after {word!r}", num.offset)
                self.next()
                meta[word] = int(num.text)
            elif word == "dealer":
                self.next()
                meta["dealer"] = self.seat_name()
            elif word == "vulnerable":
                self.next()
                meta["vulnerable"] = self.next().text
            elif word == "action":
                self.next()
                start = self.tok.offset
                while not self.at_statement_start():
                    self.next()
                cast("list[str]", meta["actions"]).append(self.text[start:self.tok.offset].strip())
            elif t.kind == "name" and self.peek().text == "=":
                name = self.next().text
                self.next()
                if name.lower() in _SUITS or name.lower() in ("hcp", "shape", "hascard") or name.lower() in _SEATS:
                    raise self.error(f"cannot redefine {name!r}", t.offset)
                self.defs[name] = self.expr()
            else:
                conds.append(self.condition_expr())
        return conds, predeals, meta

    def condition_expr(self) -> Cond:
        start = self.tok
        node = self.expr()
        if isinstance(node, Const):  # 'condition 1' / 'condition 0', as in the dealer program
            node = Always(node.value != 0, pos=node.pos)
        if not isinstance(node, Cond):
            raise self.error(f"expected a condition (a comparison, shape or hascard), found the number "
                             f"expression {self.text[start.offset:self.tok.offset].strip()!r}", start.offset)
        if not self.at_statement_start():
            raise self.error(f"unexpected {self.tok.text!r} after a complete condition", self.tok.offset)
        return node

    # -- expressions ------------------------------------------------------------
    def expr(self) -> Cond | Expr:
        return self.or_expr()

    def _as_cond(self, node: Cond | Expr, tok: _Tok, op: str) -> Cond:
        if isinstance(node, Const):  # 1 and 0 are true and false, as in the dealer program
            return Always(node.value != 0, pos=node.pos)
        if not isinstance(node, Cond):
            raise self.error(f"{op!r} needs conditions on both sides, found a number expression", tok.offset)
        return node

    def or_expr(self) -> Cond | Expr:
        first = self.tok
        left = self.and_expr()
        items = [left]
        op_tok = None
        while self.tok.text in ("||",) or (self.tok.kind == "name" and self.tok.text.lower() == "or"):
            op_tok = self.next()
            items.append(self.and_expr())
        if len(items) == 1:
            return left
        assert op_tok is not None
        return Or(tuple(self._as_cond(x, op_tok, "||") for x in items), pos=first.pos)

    def and_expr(self) -> Cond | Expr:
        first = self.tok
        left = self.not_expr()
        items = [left]
        op_tok = None
        while self.tok.text == "&&" or (self.tok.kind == "name" and self.tok.text.lower() == "and"):
            op_tok = self.next()
            items.append(self.not_expr())
        if len(items) == 1:
            return left
        assert op_tok is not None
        return And(tuple(self._as_cond(x, op_tok, "&&") for x in items), pos=first.pos)

    def not_expr(self) -> Cond | Expr:
        if self.tok.text == "!" or (self.tok.kind == "name" and self.tok.text.lower() == "not"):
            tok = self.next()
            inner = self.not_expr()
            return Not(self._as_cond(inner, tok, "!"), pos=tok.pos)
        return self.comparison()

    def comparison(self) -> Cond | Expr:
        first = self.tok
        left = self.sum_expr()
        if self.tok.text in Compare.OPS:
            op = self.next()
            right = self.sum_expr()
            for side in (left, right):
                if isinstance(side, Cond):
                    raise self.error(f"{op.text!r} compares numbers, found a condition", op.offset)
            assert isinstance(left, Expr) and isinstance(right, Expr)
            if self.tok.text in Compare.OPS:
                raise self.error("comparisons cannot be chained; join them with &&", self.tok.offset)
            return Compare(op.text, left, right, pos=first.pos)
        return left

    def sum_expr(self) -> Cond | Expr:
        first = self.tok
        left = self.product()
        while self.tok.text in ("+", "-"):
            op = self.next()
            right = self.product()
            left = Arith(op.text, self._as_num(left, op), self._as_num(right, op), pos=first.pos)
        return left

    def product(self) -> Cond | Expr:
        first = self.tok
        left = self.atom()
        while self.tok.text == "*":
            op = self.next()
            right = self.atom()
            left = Arith("*", self._as_num(left, op), self._as_num(right, op), pos=first.pos)
        return left

    def _as_num(self, node: Cond | Expr, tok: _Tok) -> Expr:
        if isinstance(node, Cond):
            raise self.error(f"{tok.text!r} needs numbers on both sides, found a condition", tok.offset)
        return node

    def atom(self) -> Cond | Expr:
        t = self.tok
        if t.kind == "num":
            self.next()
            return Const(int(t.text), pos=t.pos)
        if t.text == "(":
            self.next()
            inner = self.expr()
            self.expect(")", "')'")
            return inner
        if t.text == "-":
            self.next()
            inner = self.atom()
            return Arith("-", Const(0, pos=t.pos), self._as_num(inner, t), pos=t.pos)
        if t.kind != "name":
            found = "the end of the spec" if t.kind == "end" else repr(t.text)
            raise self.error(f"expected a number, a function such as hcp(north), or '(', found {found}", t.offset)
        word = t.text.lower()
        if self.peek().text != "(":
            if t.text in self.defs:
                self.next()
                return self.defs[t.text]
            raise self.error(f"unknown name {t.text!r}", t.offset)
        self.next()
        self.next()  # '('
        if word in _SUITS:
            seat = self.seat_name()
            self.expect(")", "')'")
            return Length(seat, _SUITS[word], pos=t.pos)
        if word == "hcp":
            seat = self.seat_name()
            if self.tok.text == ",":
                self.next()
                suit = self.suit_name()
                self.expect(")", "')'")
                return SuitHcp(seat, suit, pos=t.pos)
            self.expect(")", "')'")
            return Hcp(seat, pos=t.pos)
        if word == "shape":
            seat = self.seat_name()
            self.expect(",", "',' and a shape pattern")
            start = self.tok.offset
            depth = 0
            while not (self.tok.text == ")" and depth == 0):
                if self.tok.kind == "end":
                    raise self.error("unclosed 'shape(' : expected ')'", t.offset)
                depth += {"(": 1, ")": -1}.get(self.tok.text, 0)
                self.next()
            raw = self.text[start:self.tok.offset]
            pos = self._pos(start)
            shapes = ShapeSet.parse(raw, source=self.source, line=pos.line, column=pos.column,
                                    line_text=self.lines[pos.line - 1])
            self.next()
            return ShapeIn(seat, shapes, pos=t.pos)
        if word == "hascard":
            seat = self.seat_name()
            self.expect(",", "',' and a card")
            card_tok = self.next()
            text = card_tok.text
            if card_tok.kind == "num" and self.tok.kind == "name":  # 10S / 2C written as two tokens
                text += self.next().text
            card = _parse_card(text)
            if card is None:
                raise self.error(f"invalid card {text!r}: expected e.g. SA, AS, S10 or 2C", card_tok.offset)
            self.expect(")", "')'")
            return HasCard(seat, card, pos=t.pos)
        if word in _UNSUPPORTED:
            raise UnsupportedSpecError(
                f"{t.pos}: {t.text!r} is not supported by the exact dealer "
                "(supported: hcp, spades, hearts, diamonds, clubs, shape, hascard)"
            )
        raise self.error(f"unknown function {t.text!r}", t.offset)

    def seat_name(self) -> Seat:
        t = self.next()
        seat = _SEATS.get(t.text.lower()) if t.kind == "name" else None
        if seat is None:
            raise self.error(f"expected a seat (north, east, south, west), found {t.text!r}", t.offset)
        return seat

    def suit_name(self) -> Suit:
        t = self.next()
        word = t.text.lower()
        suit = _SUITS.get(word) or _SUITS.get(word + "s")
        if suit is None:
            try:
                suit = Suit.parse(t.text)
            except DealerError:
                raise self.error(f"expected a suit (spades, hearts, diamonds, clubs), found {t.text!r}",
                                 t.offset) from None
        return suit


def _parse_card(text: str) -> Card | None:
    for candidate in (text, text[-1:] + text[:-1]):
        try:
            return Card.parse(candidate)
        except InvalidCardError:
            continue
    return None


def _contains(cond: Cond, kinds: tuple[type, ...]) -> bool:
    return any(isinstance(node, kinds) for node in cond.walk())


def _flatten(cond: Cond) -> list[Cond]:
    if isinstance(cond, And):
        out: list[Cond] = []
        for c in cond.items:
            out.extend(_flatten(c))
        return out
    return [cond]


def _suit_hcp_filter(cond: Compare) -> tuple[Seat, Suit, Callable[[CardSet], bool]] | None:
    """``hcp(north, spades) >= 3`` -> (north, spades, filter on the spade holding)."""
    nodes = [n for n in cond.walk() if isinstance(n, (Length, Hcp, SuitHcp))]
    if not nodes or not all(isinstance(n, SuitHcp) for n in nodes):
        return None
    keys = {(n.seat, n.suit) for n in nodes if isinstance(n, SuitHcp)}
    if len(keys) != 1:
        return None
    seat, suit = next(iter(keys))

    def value(expr: Expr, hcp: int) -> int:
        if isinstance(expr, Const):
            return expr.value
        if isinstance(expr, SuitHcp):
            return hcp
        if isinstance(expr, Arith):
            a, b = value(expr.left, hcp), value(expr.right, hcp)
            return a + b if expr.op == "+" else a - b if expr.op == "-" else a * b
        raise TypeError(expr)  # pragma: no cover

    def holding_filter(holding: CardSet) -> bool:
        h = holding.hcp
        return cond.evaluate(value(cond.left, h), value(cond.right, h))

    holding_filter.__name__ = str(cond)
    return seat, suit, holding_filter


def _split(conds: list[Cond], predeals: dict[Seat, tuple[CardSet, Pos]], text: str) -> DealSpec:
    predeal = {s: c for s, (c, _) in predeals.items()}
    forbidden: dict[Seat, CardSet] = {}
    per_seat: dict[Seat, list[Cond]] = {}
    filters: dict[Seat, dict[Suit, list[Callable[[CardSet], bool]]]] = {}
    for top in conds:
        for c in _flatten(top):
            seats: frozenset[Seat] | dict[Seat, SeatSpec] = c.seats()
            if not seats:
                if isinstance(c, Always) or _constant(c):
                    if not _constant_value(c):
                        raise ImpossibleSpecError(f"{c.pos}: the condition {c} is never true: no deal satisfies it")
                    continue
            if len(seats) > 1:
                names = " and ".join(s.name_long for s in sorted(seats))
                if isinstance(c, Or) or _contains(c, (Or,)):
                    why = (f"an '||' that joins {names} cannot be dealt exactly: each seat is dealt from "
                           "its own table, so conditions on different seats must be joined by '&&'")
                elif isinstance(c, Not):
                    why = (f"a '!' over a condition on {names} is an '||' in disguise and cannot be dealt "
                           "exactly; state each seat's condition separately, joined by '&&'")
                else:
                    why = (f"this condition relates {names} to each other; the exact dealer takes "
                           "conditions on one seat at a time, joined by '&&'")
                raise UnsupportedSpecError(f"{c.pos}: {c}: {why}")
            seat = next(iter(seats))
            if isinstance(c, HasCard):
                predeal[seat] = predeal.get(seat, CardSet()) | CardSet([c.card])
                continue
            if isinstance(c, Not) and isinstance(c.item, HasCard):
                forbidden[seat] = forbidden.get(seat, CardSet()) | CardSet([c.item.card])
                continue
            if isinstance(c, Compare):
                f = _suit_hcp_filter(c)
                if f is not None:
                    filters.setdefault(seat, {}).setdefault(f[1], []).append(f[2])
                    continue
            if _contains(c, (HasCard, SuitHcp)):
                raise UnsupportedSpecError(
                    f"{c.pos}: {c}: hascard() and hcp(seat, suit) can be dealt exactly only as conditions of "
                    "their own joined by '&&' (hcp(seat, suit) compared with numbers), not inside '||', '!' "
                    "or arithmetic with other features"
                )
            per_seat.setdefault(seat, []).append(c)
    seats = {}
    for seat in Seat:
        parts = per_seat.get(seat, [])
        cond: Cond | None = None
        if parts:
            cond = parts[0] if len(parts) == 1 else And(tuple(parts), pos=parts[0].pos)
        holdings = {suit: _all_of(fns) for suit, fns in filters.get(seat, {}).items()}
        if cond is None and seat not in predeal and seat not in forbidden and not holdings:
            continue
        seats[seat] = SeatSpec(predeal=predeal.get(seat, CardSet()), forbidden=forbidden.get(seat, CardSet()),
                               condition=cond, holdings=holdings)
    return DealSpec(seats=seats, text=text)


def _all_of(fns: list[Callable[[CardSet], bool]]) -> Callable[[CardSet], bool]:
    if len(fns) == 1:
        return fns[0]

    def combined(holding: CardSet) -> bool:
        return all(f(holding) for f in fns)

    combined.__name__ = " && ".join(f.__name__ for f in fns)
    return combined


def _constant(c: Cond) -> bool:
    return not c.seats() and not _contains(c, (HasCard, ShapeIn, Length, Hcp, SuitHcp))


def _constant_value(c: Cond) -> bool:
    from .condition import GRID

    return bool(c.mask(GRID)[0])


def parse_script(text: str, *, source: str = "<spec>") -> Script:
    """Parse a whole script: the spec and its ``produce``/``generate``/... statements."""
    if not isinstance(text, str):
        raise SpecSyntaxError(f"expected the text of a spec, got {type(text).__name__}", source=source)
    parser = _Parser(text, source)
    conds, predeals, meta = parser.script()
    spec = _split(conds, predeals, text.strip())
    return Script(
        spec=spec,
        produce=meta.get("produce"),  # type: ignore[arg-type]
        generate=meta.get("generate"),  # type: ignore[arg-type]
        dealer=meta.get("dealer"),  # type: ignore[arg-type]
        vulnerable=meta.get("vulnerable"),  # type: ignore[arg-type]
        seed=meta.get("seed"),  # type: ignore[arg-type]
        actions=list(meta.get("actions", [])),  # type: ignore[call-overload]
    )


def parse_spec(text: str, *, source: str = "<spec>") -> DealSpec:
    """Parse a spec (one-liner or script) into a :class:`~dealer.spec.DealSpec`.

    >>> spec = parse_spec("spades(west) == 9 && shape(east, xx66)")
    >>> sorted(s.name for s in spec.seats)
    ['E', 'W']
    """
    return parse_script(text, source=source).spec


def parse_condition(text: str, *, source: str = "<condition>") -> Cond:
    """Parse one condition (any seats) without splitting it by seat."""
    parser = _Parser(text, source)
    node = parser.condition_expr()
    if parser.tok.kind != "end":
        raise parser.error(f"unexpected {parser.tok.text!r}", parser.tok.offset)
    return node

