"""The parser of the one expression language, for any dialect.

A :class:`Dialect` says which seat names and which functions a layer allows:
the dealer's (:data:`SPEC_DIALECT`: ``north``..``west``, the functions of the
``dealer`` program) and the claim language's (relative seats such as ``LHO``,
and ``rank``, ``honours``, ``longest``, added by :mod:`inference.claims.language`).
Operators are the same everywhere: ``+ - * / %``, ``== != < <= > >=``,
``!``/``not``, ``&&``/``and``, ``^^``/``xor`` (exactly one), ``||``/``or``,
from the tightest to the loosest, and parentheses. ``1`` and ``0`` (and
``true``/``false``) are true and false where a condition is expected. The
dealer's dialect is *full* (as in the ``dealer`` program): a condition may
be used as a number (1 or 0), a number as a condition (true when not 0),
comparisons chain as in C, and ``test ? a : b`` selects, loosest of all.

:func:`parse_expression` parses one expression; :class:`Parser` is the
parser that :mod:`dealer.lang.statements` extends to whole ``dealer`` scripts.
Parsing runs in time linear in the text, and refuses nesting deeper than
:data:`MAX_DEPTH` with a :class:`~dealer.errors.SpecSyntaxError` naming
line and column.

>>> str(parse_expression("spades(west) >= 5 ^^ shape(east, any 4333)", SPEC_DIALECT))
'spades(west) >= 5 ^^ shape(east, any 4333)'
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Callable, Mapping

from dealer.cards.card import Card
from dealer.errors import DealerError, InvalidCardError, SpecSyntaxError, UnsupportedSpecError
from dealer.lang.expr import (
    COMPARE_OPS, Always, And, Arith, Compare, Cond, Const, Expr, HandCount, HasCard, Hcp, Imps, Length, Node, Not, Or,
    LeadTricks, PAR_VULNERABILITY, Par, Pos, Random, Score, ShapeIn, SuitHcp, Ternary, Tricks, Truth, Xor,
)
from dealer.cards.seat import Seat
from dealer.cards.shapes import ShapeSet
from dealer.lang.fdshape import expand_fd_shape
from dealer.cards.suit import Suit
from dealer.lang.frozen import frozen

__all__ = [
    "Function", "Dialect", "BASE_FUNCTIONS", "DEALER_FUNCTIONS", "SPEC_DIALECT", "MAX_DEPTH", "MAX_CONSTANT",
    "MAX_TEXT_CHARS", "Parser", "Token", "parse_expression", "parse_condition", "parse_card_text", "parse_strain",
    "decimal_value"]

#: The deepest nesting of parentheses, ``!`` and unary ``-`` a text may have.
MAX_DEPTH = 100
#: The longest text the parser reads (a spec or script; a claim inside an inference is shorter still).
MAX_TEXT_CHARS = 1_000_000
#: The largest integer constant an expression may hold.
MAX_CONSTANT = 10 ** 9

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n\f\v]+)
  | (?P<comment>(?:\#|//)[^\n]*|(?s:/\*.*?\*/))
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<newline>\\n)
  | (?P<fdshape>(?<=[sS][hH][aA][pP][eE])\{[^}]*\})
  | (?P<dec>\d{1,2}\.\d{0,2}(?![\d.])|(?<!\d)\.\d{1,2}(?![\d.]))
  | (?P<num>\d+)
  | (?P<op>&&|\|\||\^\^|==|!=|<=|>=|[-+*/%<>!(),=?:])
  | (?P<name>[A-Za-z_♠♥♦♣][A-Za-z_0-9♠♥♦♣]*)
""", re.VERBOSE)

_SUITS = {"spades": Suit.S, "hearts": Suit.H, "diamonds": Suit.D, "clubs": Suit.C}
_WORD_OPS = {"and": "&&", "or": "||", "xor": "^^", "not": "!"}
_CONNECTIVES: dict[str, type[Or] | type[Xor] | type[And]] = {"||": Or, "^^": Xor, "&&": And}
#: Binding strength of each binary operator: ``||`` loosest, ``*`` tightest, ``==`` looser than ``<`` (as in C).
#: ``!`` binds between ``&&`` and the comparisons, except in a full dialect, where it binds tightest (as in C).
_BINARY = {"||": 1, "^^": 2, "&&": 3, "==": 5, "!=": 5, "<": 6, "<=": 6, ">": 6, ">=": 6, "+": 7, "-": 7,
           "*": 8, "/": 8, "%": 8}
_NOT_PREC = 4


@frozen
class Function:
    """A function of a dialect: the kinds of its arguments and how it builds its node.

    Argument kinds: ``seat``, ``suit``, ``card``, ``int`` and ``shapes`` (the
    rest of the call, as a shape pattern); a kind ending in ``?`` may be
    left out (last arguments only). ``build(*values, pos=pos)`` returns the
    node; it may raise ``ValueError`` with a message, reported at the call.
    """

    args: tuple[str, ...]
    build: Callable[..., Node]


def _length(suit: Suit) -> Function:
    return Function(("seat",), lambda seat, *, pos: Length(seat, suit, pos=pos))


def _hcp(seat: Seat, suit: Suit | None = None, *, pos: Pos) -> Expr:
    return Hcp(seat, pos=pos) if suit is None else SuitHcp(seat, suit, pos=pos)


#: The functions both layers know: suit lengths, ``length(seat, suit)``, ``hcp(seat[, suit])``,
#: ``shape(seat, patterns)`` and ``hascard(seat, card)``.
BASE_FUNCTIONS: Mapping[str, Function] = {
    **{name: _length(suit) for name, suit in _SUITS.items()},
    "length": Function(("seat", "suit"), lambda seat, suit, *, pos: Length(seat, suit, pos=pos)),
    "hcp": Function(("seat", "suit?"), _hcp),
    "shape": Function(("seat", "shapes"), lambda seat, shapes, *, pos: ShapeIn(seat, shapes, pos=pos)),
    "hascard": Function(("seat", "card"), lambda seat, card, *, pos: HasCard(seat, card, pos=pos)),
}

#: The readable names of the alternate counts ``pt0``..``pt9``, as the ``dealer`` program spells them.
_ALT_NAMES = ("tens", "jacks", "queens", "kings", "aces", "top2", "top3", "top4", "top5", "c13")


def _count(kind: str, name: str, args: tuple[str, ...] = ("seat", "suit?")) -> Function:
    def build(seat: Seat, suit: Suit | None = None, *, pos: Pos) -> Expr:
        return HandCount(kind, seat, suit, name, pos=pos)
    return Function(args, build)


def _score(vul: bool, contract: tuple[int, str, int], tricks: Expr, *, pos: Pos) -> Expr:
    return Score(vul, contract[0], contract[1], tricks, contract[2], pos=pos)


def _abs(item: Expr, *, pos: Pos) -> Expr:
    """``abs(x)`` (the suokko fork), written as ``x < 0 ? 0 - x : x``: every engine reads it as it reads ``?:``."""
    return Ternary(Compare("<", item, Const(0), pos=pos), Arith("-", Const(0), item, pos=pos), item, pos=pos)


def _dealer_functions() -> dict[str, Function]:
    out = dict(BASE_FUNCTIONS)
    for name, suit in _SUITS.items():
        out[name[:-1]] = _length(suit)  # 'spade(north)', as the dealer program allows
    out["hcps"] = out["hcp"]
    for i, name in enumerate(_ALT_NAMES):
        for spelling in (f"pt{i}", name, name[:-1] if name.endswith("s") else name):
            out[spelling] = _count(f"pt{i}", spelling)
    for kind, names in (("controls", ("control", "controls")), ("losers", ("loser", "losers"))):
        for name in names:
            out[name] = _count(kind, name)
    out["quality"] = _count("quality", "quality", ("seat", "suit"))
    out["cccc"] = _count("cccc", "cccc", ("seat",))
    tricks = Function(("seat", "strain"), lambda seat, strain, *, pos: Tricks(seat, strain, pos=pos))
    out["tricks"] = out["trick"] = out["dds"] = tricks  # dds: dealer version 2's name
    out["leadtricks"] = Function(("seat", "strain"), lambda seat, strain, *, pos: LeadTricks(seat, strain, pos=pos))
    out["score"] = Function(("vul", "contract", "expr"), _score)
    out["par"] = Function(("side", "parvul?"), lambda side, vul="none", *, pos: Par(side, vul, pos=pos))
    out["imps"] = out["imp"] = Function(("expr",), lambda item, *, pos: Imps(item, pos=pos))
    out["ltc"] = _count("ltc", "ltc")  # the fork's losing trick count, in hundredths (half losers)
    out["rnd"] = Function(("expr",), lambda limit, *, pos: Random(limit, pos=pos))
    out["abs"] = Function(("expr",), _abs)  # the suokko fork's
    return out


#: The functions of the ``dealer`` program (its manual's list, singular and plural): the
#: :data:`BASE_FUNCTIONS`, the alternate counts (``pt0``..``pt9``, alias ``tens``, ``jacks``,
#: ``queens``, ``kings``, ``aces``, ``top2``..``top5``, ``c13``), ``controls``, ``losers``,
#: ``quality``, ``cccc``, ``tricks``, ``score`` and ``imps``; and the forks' ``ltc``, ``rnd``, ``abs`` and
#: ``leadtricks``.
DEALER_FUNCTIONS: Mapping[str, Function] = _dealer_functions()

_SPEC_SEATS = {"north": Seat.N, "east": Seat.E, "south": Seat.S, "west": Seat.W,
               "n": Seat.N, "e": Seat.E, "s": Seat.S, "w": Seat.W}
_NOT_IN_SPECS = ("average", "frequency", "printall", "evalcontract")


@frozen
class Dialect:
    """What one layer's texts may say: seat names, functions, and known but unsupported words.

    ``seat`` maps a word to a seat (``None`` if it is not one); ``seats_help``
    lists them for messages; ``what`` names a text in messages ("spec", "claim").
    ``full``: the ``dealer`` program's C-like expressions (conditions as numbers and back,
    chained comparisons, ``?:``); without it a condition where a number belongs is an error.
    """

    what: str
    seat: Callable[[str], "Seat | None"]
    seats_help: str
    functions: Mapping[str, Function]
    unsupported: tuple[str, ...] = ()
    example: str = "hcp(north)"
    full: bool = False


def _spec_seat(word: str) -> Seat | None:
    return _SPEC_SEATS.get(word.lower())


#: The dealer's dialect: seats ``north``..``west`` (or ``n e s w``) and :data:`BASE_FUNCTIONS`.
SPEC_DIALECT = Dialect("spec", _spec_seat, "north, east, south, west", DEALER_FUNCTIONS, _NOT_IN_SPECS, full=True)

_STRAINS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "notrumps": "N", "nt": "N"}


def parse_strain(word: str) -> str | None:
    """A strain word (``spades``, ``notrump``, ``NT``, ``S``...) as one letter ``S H D C N``; None if it is none.

    >>> parse_strain("notrump"), parse_strain("Hearts"), parse_strain("x")
    ('N', 'H', None)
    """
    w = word.lower()
    if w in ("s", "h", "d", "c", "n"):
        return w.upper()
    return _STRAINS.get(w) or _STRAINS.get(w + "s")


def _shown(text: str, limit: int = 40) -> str:
    """A token as quoted in a message: ``repr``, shortened past ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


@dataclass(frozen=True)
class Token:
    """A token of a text: ``kind`` (name, num, op, string, newline, end), its text and its offset."""

    kind: str
    text: str
    offset: int


def parse_card_text(text: str) -> Card | None:
    """A card written ``SA``, ``AS``, ``S10`` or ``10S``; None if it is none of them.

    >>> str(parse_card_text("10S")), parse_card_text("XX")
    ('ST', None)
    """
    for candidate in (text, text[-1:] + text[:-1]):
        try:
            return Card.parse(candidate)
        except InvalidCardError:
            continue
    return None


class Parser:
    """The expression parser of one text in one dialect (precedence climbing over a token list)."""

    def __init__(self, text: str, source: str, dialect: Dialect) -> None:
        if not isinstance(text, str):
            raise SpecSyntaxError(f"expected the text of a {dialect.what}, got {type(text).__name__}", source=source)
        if len(text) > MAX_TEXT_CHARS:
            raise SpecSyntaxError(f"the {dialect.what} is {len(text):,} characters long, more than the "
                                  f"{MAX_TEXT_CHARS:,} allowed", source=source)
        self.text = text
        self.source = source
        self.dialect = dialect
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.toks = self._tokenize()
        self.i = 0
        self.depth = 0
        self.defs: dict[str, Node] = {}

    # -- positions and tokens -------------------------------------------------------
    def pos(self, offset: int) -> Pos:
        line = bisect.bisect_right(self.line_starts, offset)
        return Pos(self.source, line, offset - self.line_starts[line - 1] + 1)

    def line_text(self, line: int) -> str:
        start = self.line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:end if end >= 0 else len(self.text)]

    def error(self, message: str, offset: int) -> SpecSyntaxError:
        p = self.pos(offset)
        return SpecSyntaxError(message, source=self.source, line=p.line, column=p.column,
                               text=self.line_text(p.line)[:200])

    def _tokenize(self) -> list[Token]:
        toks = []
        at = 0
        n = len(self.text)
        while at < n:
            if self.text.startswith("/*", at) and self.text.find("*/", at + 2) < 0:
                raise self.error(_bad_character(self.text, at), at)
            m = _TOKEN.match(self.text, at)
            if not m:
                raise self.error(_bad_character(self.text, at), at)
            kind = m.lastgroup or ""
            if kind == "name" and m.group().lower() in _WORD_OPS:
                toks.append(Token("op", _WORD_OPS[m.group().lower()], at))
            elif kind not in ("ws", "comment"):
                toks.append(Token(kind, m.group(), at))
            at = m.end()
        toks.append(Token("end", "", n))
        return toks

    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def peek(self) -> Token:
        return self.toks[min(self.i + 1, len(self.toks) - 1)]

    def next(self) -> Token:
        t = self.toks[self.i]
        self.i += 1
        return t

    def found(self, t: Token) -> str:
        return f"the end of the {self.dialect.what}" if t.kind == "end" else _shown(t.text)

    def expect(self, text: str, what: str) -> Token:
        if self.tok.text != text or self.tok.kind == "name":
            raise self.error(f"expected {what}, found {self.found(self.tok)}", self.tok.offset)
        return self.next()

    def enter(self, offset: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"the {self.dialect.what} is nested more than {MAX_DEPTH} levels deep", offset)

    # -- expressions -------------------------------------------------------------------
    def as_cond(self, node: Node, tok: Token) -> Cond:
        """``node`` where a condition belongs: a constant is true unless 0; in a full dialect, any number."""
        if isinstance(node, Const):  # 1 and 0 are true and false, as in the dealer program
            return Always(node.value != 0, pos=node.pos)
        if isinstance(node, Truth):
            return node.item
        if isinstance(node, Expr) and self.dialect.full:
            return Compare("!=", node, Const(0, pos=node.pos), pos=node.pos)
        if not isinstance(node, Cond):
            raise self.error(f"{tok.text!r} needs conditions on both sides: expected a condition, found a number "
                             "expression", tok.offset)
        return node

    def as_num(self, node: Node, tok: Token) -> Expr:
        """``node`` where a number belongs: in a full dialect a condition counts 1 where it holds, else 0."""
        if isinstance(node, Always) and self.dialect.full:
            return Const(int(node.value), pos=node.pos)
        if isinstance(node, Cond) and self.dialect.full:
            return Truth(node, pos=node.pos)
        if not isinstance(node, Expr):
            raise self.error(f"{tok.text!r} needs numbers on both sides, found a condition", tok.offset)
        return node

    def expr(self, min_prec: int = 0) -> Node:
        """An expression whose operators all bind at least as tightly as ``min_prec`` (precedence climbing).

        Loops over operators of one level and recurses only into operands, so a long chain costs no
        stack; only parentheses, prefixes and ``?:`` nest, and :meth:`enter` bounds them. Level 0 is
        ``test ? a : b``, looser than every binary operator and right-associative.
        """
        t = self.tok
        if t.kind == "op" and t.text == "!" and min_prec <= _NOT_PREC and not self.dialect.full:
            self.next()
            self.enter(t.offset)
            inner = self.expr(_NOT_PREC)
            self.depth -= 1
            left: Node = Not(self.as_cond(inner, t), pos=self.pos(t.offset))
        else:
            left = self.atom()
        while True:
            op = self.tok
            if op.kind == "op" and op.text == "?" and min_prec == 0:
                return self.ternary(left, t)
            prec = _BINARY.get(op.text, 0) if op.kind == "op" else 0
            if prec < min_prec or prec == 0:
                return left
            if op.text in _CONNECTIVES:
                items = [left]
                while self.tok.kind == "op" and self.tok.text == op.text:
                    op_tok = self.next()
                    items.append(self.expr(prec + 1))
                conds = [self.as_cond(x, op_tok) for x in items]
                while op.text == "^^" and self.dialect.full and len(conds) > 2:  # dealer's ^^: binary, from the left
                    conds[:2] = [Xor((conds[0], conds[1]), pos=self.pos(t.offset))]
                left = _CONNECTIVES[op.text](tuple(conds), pos=self.pos(t.offset))
            elif op.text in COMPARE_OPS:
                self.next()
                right = self.expr(prec + 1)
                if not self.dialect.full:
                    for side in (left, right):
                        if not isinstance(side, Expr):
                            raise self.error(f"{op.text!r} compares numbers, found a condition", op.offset)
                    if self.tok.kind == "op" and self.tok.text in COMPARE_OPS:
                        raise self.error("comparisons cannot be chained; join them with &&", self.tok.offset)
                left = Compare(op.text, self.as_num(left, op), self.as_num(right, op), pos=self.pos(t.offset))
            else:
                self.next()
                right = self.expr(prec + 1)
                left = Arith(op.text, self.as_num(left, op), self.as_num(right, op), pos=self.pos(t.offset))

    def condition(self) -> Cond:
        """One condition; in a full dialect a number is true when it is not 0."""
        start = self.tok
        node = self.expr()
        if isinstance(node, Const) or (isinstance(node, Expr) and self.dialect.full):
            return self.as_cond(node, start)
        if not isinstance(node, Cond):
            raise self.error(f"expected a condition (a comparison, shape or hascard), found the number "
                             f"expression {self.text[start.offset:self.tok.offset].strip()[:80]!r}", start.offset)
        return node

    def ternary(self, test: Node, start: Token) -> Node:
        """``test ? then : other`` (the ``?`` is the current token); conditions on both branches stay one."""
        q = self.next()
        if not self.dialect.full:
            raise self.error(f"'?:' is not part of the {self.dialect.what} language", q.offset)
        self.enter(q.offset)
        then = self.expr(0)
        self.expect(":", "':' of 'test ? a : b'")
        other = self.expr(0)
        self.depth -= 1
        cond = self.as_cond(test, q)
        pos = self.pos(start.offset)
        if isinstance(then, Cond) and isinstance(other, Cond):
            return Or((And((cond, then), pos=pos), And((Not(cond, pos=pos), other), pos=pos)), pos=pos)
        return Ternary(cond, self.as_num(then, q), self.as_num(other, q), pos=pos)

    def atom(self) -> Node:
        t = self.tok
        if t.kind == "dec":  # dealer version 2: a decimal is its value in hundredths (10.5 is 1050)
            if not self.dialect.full:
                raise self.error(f"unexpected decimal {t.text}: numbers here are whole numbers", t.offset)
            self.next()
            return Const(decimal_value(t.text), pos=self.pos(t.offset))
        if t.kind == "num":
            self.next()
            value = int(t.text) if len(t.text) <= 12 else MAX_CONSTANT + 1
            if value > MAX_CONSTANT:
                raise self.error(f"the number {t.text[:20]}{'...' if len(t.text) > 20 else ''} is too large "
                                 f"(at most {MAX_CONSTANT:,})", t.offset)
            return Const(value, pos=self.pos(t.offset))
        if t.kind == "op" and t.text == "!" and self.dialect.full:  # '2 * !x': a tight prefix, as in C
            self.next()
            self.enter(t.offset)
            item = self.as_cond(self.atom(), t)
            self.depth -= 1
            return Not(item, pos=self.pos(t.offset))
        if t.kind == "op" and t.text in ("(", "-"):
            self.next()
            self.enter(t.offset)
            if t.text == "(":
                inner = self.expr()
                self.expect(")", "')'")
            else:
                inner = Arith("-", Const(0, pos=self.pos(t.offset)), self.as_num(self.atom(), t),
                              pos=self.pos(t.offset))
            self.depth -= 1
            return inner
        if t.kind != "name":
            what = f"end of the {self.dialect.what}" if t.kind == "end" else _shown(t.text)
            raise self.error(f"expected a number, a function such as {self.dialect.example}, or '(': "
                             f"unexpected {what}", t.offset)
        word = t.text.lower()
        if word == "shape" and self.peek().kind == "fdshape":  # DealerV2's shape{seat, ...} (dealer.lang.fdshape)
            self.next()
            body = self.next()
            try:
                seat_word, shapes = expand_fd_shape(body.text[1:-1])
            except ValueError as exc:
                raise self.error(str(exc), body.offset) from None
            seat = self.dialect.seat(seat_word)
            assert seat is not None
            return ShapeIn(seat, shapes, pos=self.pos(t.offset))
        if self.peek().text != "(" or t.text in self.defs:  # a variable, even before a '(' on the next line
            if t.text in self.defs:
                self.next()
                return self.defs[t.text]
            if word in ("true", "false"):
                self.next()
                return Always(word == "true", pos=self.pos(t.offset))
            if word in self.dialect.functions:
                raise self.error(f"{_shown(t.text)} is a function: expected '(' after it", t.offset)
            raise self.error(f"unknown name {_shown(t.text)}", t.offset)
        function = self.dialect.functions.get(word)
        if function is None:
            if word in self.dialect.unsupported:
                raise UnsupportedSpecError(
                    f"{self.pos(t.offset)}: {_shown(t.text)} is not supported in a {self.dialect.what} "
                    f"(supported: {', '.join(sorted(self.dialect.functions))})")
            why = _FORK_ONLY.get(word)
            raise self.error(f"unknown function {_shown(t.text)}" + (f": {why}" if why else ""), t.offset)
        self.next()
        self.next()  # '('
        values: list[object] = []
        for j, kind in enumerate(function.args):
            optional = kind.endswith("?")
            kind = kind.rstrip("?")
            if j:
                if optional and self.tok.text == ")":
                    break
                self.expect(",", f"',' and a {kind}")
            values.append(self.argument(kind, t))
        self.expect(")", "')'")
        try:
            return function.build(*values, pos=self.pos(t.offset))
        except (ValueError, DealerError) as exc:
            raise self.error(str(exc), t.offset) from None

    def argument(self, kind: str, call: Token) -> object:
        """One argument of a call to ``call``, of ``kind`` (see :class:`Function`)."""
        t = self.tok
        if kind == "expr":
            return self.as_num(self.expr(), call)
        if kind in ("strain", "vul", "contract", "side", "parvul"):
            self.next()
            value = _word_argument(kind, t.text if t.kind in ("name", "num") else "")
            if value is None:
                wanted = {"strain": "a strain (spades, hearts, diamonds, clubs, notrump)",
                          "vul": "vul or nonvul", "contract": "a contract such as x3N, x4Sx or x6Hxx",
                          "side": "the side NS or EW", "parvul": "none, ns, ew or both"}[kind]
                raise self.error(f"expected {wanted}, found {self.found(t)}", t.offset)
            return value
        if kind == "seat":
            self.next()
            try:
                seat = self.dialect.seat(t.text) if t.kind == "name" else None
            except (ValueError, DealerError) as exc:
                raise self.error(str(exc), t.offset) from None
            if seat is None:
                raise self.error(f"expected a seat ({self.dialect.seats_help}), found {self.found(t)}", t.offset)
            return seat
        if kind == "suit":
            self.next()
            word = t.text.lower()
            suit = _SUITS.get(word) or _SUITS.get(word + "s")
            if suit is None:
                try:
                    suit = Suit.parse(t.text)
                except DealerError:
                    raise self.error(f"expected a suit (spades, hearts, diamonds, clubs), found {self.found(t)}",
                                     t.offset) from None
            return suit
        if kind == "int":
            self.next()
            if t.kind != "num" or len(t.text) > 6:
                raise self.error(f"expected a whole number, found {self.found(t)}", t.offset)
            return int(t.text)
        if kind == "card":
            self.next()
            text = t.text
            if t.kind == "num" and self.tok.kind == "name":  # 10S / 2C written as two tokens
                text += self.next().text
            card = parse_card_text(text)
            if card is None:
                raise self.error(f"invalid card {text[:20]!r}: expected e.g. SA, AS, S10 or 2C", t.offset)
            return card
        # shapes: the raw text up to the call's closing parenthesis
        start = t.offset
        depth = 0
        while not (self.tok.text == ")" and depth == 0):
            if self.tok.kind == "end":
                raise self.error(f"unclosed '{call.text}(': expected ')'", call.offset)
            depth += {"(": 1, ")": -1}.get(self.tok.text, 0)
            self.next()
        p = self.pos(start)
        return ShapeSet.parse(self.text[start:self.tok.offset], source=self.source, line=p.line, column=p.column,
                              line_text=self.line_text(p.line))


#: Functions of the forks that Kibitz does not run, and why (the others of the forks run: docs/language.rst).
_FORK_ONLY = {
    "opc": "dealer version 2's optimal point count (an external program) is not supported",
    "usereval": "dealer version 2's user evaluation (an external program) is not supported",
}


def decimal_value(text: str) -> int:
    """A decimal of dealer version 2 as the whole number it stands for: its value in hundredths, exactly.

    >>> decimal_value("10.5"), decimal_value(".75"), decimal_value("13.") , decimal_value("0.29")
    (1050, 75, 1300, 29)
    """
    whole, _, fraction = text.partition(".")
    return int(whole or "0") * 100 + int((fraction + "00")[:2])


def _word_argument(kind: str, word: str) -> object:
    """A strain, vulnerability, contract or side argument from its word; None if the word is not one."""
    w = word.lower()
    if kind == "strain":
        return parse_strain(w)
    if kind == "vul":
        return {"vul": True, "v": True, "nonvul": False, "nv": False, "1": True, "0": False}.get(w)
    if kind in ("side", "parvul"):
        return w.upper() if kind == "side" and w in ("ns", "ew") else \
            PAR_VULNERABILITY.get(w) if kind == "parvul" else None
    m = re.fullmatch(r"[xz]?([1-7])(nt|[shdcn])(x{0,2})", w)  # x3n, z4hx (doubled), x6sxx (redoubled)
    return None if m is None else (int(m.group(1)), m.group(2)[0].upper(), len(m.group(3)))


_FEATURE_CHARS = {"\"": "a quoted string (only 'average', 'frequency' and 'print' actions take text)",
                  "{": "a brace (the language has no blocks)", ";": "';' (statements need no separator)",
                  "[": "a bracket", "'": "a single quote (text is written in double quotes)",
                  ".": "a decimal point out of place (decimals, as dealer version 2 writes them, have at most "
                       "two digits on each side of the point: 10.5, 13.25, .75)"}


def _bad_character(text: str, at: int) -> str:
    """Why the character at ``at`` cannot start a token: the feature it looks like, if any."""
    ch = text[at]
    if text.startswith("/*", at):
        return "a '/*' comment that is never closed with '*/'"
    if ch == '"':
        return "a quoted string that is never closed"
    feature = _FEATURE_CHARS.get(ch)
    return f"unexpected character {ch!r}" + (f": {feature}" if feature else "")


def parse_expression(text: str, dialect: Dialect, *, source: str = "<spec>") -> Node:
    """Parse one expression or condition of ``dialect`` (the whole text).

    >>> parse_expression("hcp(north) + 2 * 3", SPEC_DIALECT)
    Arith(op='+', left=Hcp(seat=<Seat.N: 0>), right=Arith(op='*', left=Const(value=2), right=Const(value=3)))
    """
    parser = Parser(text, source, dialect)
    node = parser.expr()
    if parser.tok.kind != "end":
        raise parser.error(f"unexpected {parser.tok.text[:20]!r}", parser.tok.offset)
    return node


def parse_condition(text: str, dialect: Dialect = SPEC_DIALECT, *, source: str = "<condition>") -> Cond:
    """Parse one condition (any seats), the whole text; a lone ``1``/``0`` is true/false."""
    parser = Parser(text, source, dialect)
    node = parser.condition()
    if parser.tok.kind != "end":
        raise parser.error(f"unexpected {parser.tok.text[:20]!r}", parser.tok.offset)
    return node
