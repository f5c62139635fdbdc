"""Whole ``dealer`` scripts: statements and actions, parsed into values.

A script is a list of statements in any order, free of lines: ``condition``
(the word may be left out), ``NAME = EXPR``, ``predeal`` (one or several
seats, cards separated by commas, over several lines), ``produce``,
``generate``, ``seed``, ``dealer``, ``vulnerable``, ``pointcount``,
``altcount`` and ``action`` with its list of actions separated by commas:
``printall``, ``printew``, ``printpbn``, ``printcompact [EXPR]``,
``printoneline [EXPR]``, ``print(SEATS)``, ``printes ITEMS`` (quoted text,
``\\n`` and expressions), ``average ["LABEL"] EXPR`` and ``frequency
["LABEL"] (EXPR, LOW, HIGH [, EXPR, LOW, HIGH])`` and ``evalcontract(SIDE, CONTRACT,
VUL)`` (the dealer fork's). Comments: ``#`` and
``//`` to the end of the line, ``/* ... */`` anywhere. Expressions are those
of :mod:`dealer.lang.syntax`.

>>> script = parse_statements('predeal north SAKQ, HAK\\n south C2\\nopener = hcp(south) >= 12\\n'
...                           'condition opener\\naction average "hcp" hcp(north), printoneline\\nproduce 5')
>>> script.produce, str(script.conditions[0]), sorted(s.name for s in script.predeals)
(5, 'hcp(south) >= 12', ['N', 'S'])
>>> [type(a).__name__ for a in script.actions]
['Average', 'Print']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, TypeVar

from dealer.cards.cardset import CardSet
from dealer.cards.deal import PartialDeal
from dealer.errors import DealerError, InvalidDealError, SpecError
from dealer.lang.expr import PAR_VULNERABILITY, Arith, Cond, Const, Expr, Node, Pos
from dealer.cards.seat import Seat
from dealer.lang.syntax import SPEC_DIALECT, Dialect, Parser, Token, decimal_value
from dealer.lang.actions import (
    Action, Print, PrintES, Average, Frequency, BucketFrequency, Hands, DoubleDummyRow, ParContract, Report, Export,
    EvalContract, EvalTable,
)

_T = TypeVar("_T")

__all__ = ["NOT_DEALER_WORDS", "check_predeals", "Action", "Print", "PrintES", "Average", "Frequency", "BucketFrequency", "EvalContract", "EvalTable", "ScriptSyntax",
           "ScriptParser", "STATEMENTS", "ACTIONS", "PRINT_ACTIONS", "parse_statements"]

#: The statement words of a script.
STATEMENTS = frozenset({"condition", "predeal", "generate", "produce", "dealer", "vulnerable", "action", "seed",
                        "pointcount", "altcount"})
#: The ``print`` actions: every one of them prints the deal, in its own layout.
PRINT_ACTIONS = ("printall", "printew", "printpbn", "printcompact", "printoneline", "print")
#: Function names of Kibitz that are not words of ``dealer``: a script may use them as its own variables.
NOT_DEALER_WORDS = frozenset({"length", "ten"})
#: Every action word.
ACTIONS = frozenset({*PRINT_ACTIONS, "printes", "average", "frequency", "bktfreq", "evalcontract", "printrpt",
                     "csvrpt", "export"})
_SIDE_SEATS = {"NS": (Seat.N, Seat.S), "EW": (Seat.E, Seat.W)}


_CONTRACT = re.compile(r"[xz]?([1-7])(nt|[cdhsn])(x{0,2})")
_VUL_WORDS = {"vul": True, "v": True, "nonvul": False, "nv": False, "novul": False}


@dataclass
class ScriptSyntax:
    """A ``dealer`` script, parsed: its conditions, predealt cards, actions and other statements."""

    conditions: list[Cond] = field(default_factory=list)
    predeals: dict[Seat, tuple[CardSet, Pos]] = field(default_factory=dict)
    produce: int | None = None
    generate: int | None = None
    seed: int | None = None
    dealer: Seat | None = None
    vulnerable: str | None = None
    actions: list[Action] = field(default_factory=list)
    action_texts: list[str] = field(default_factory=list)
    pointcount: tuple[int, ...] | None = None
    altcounts: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: The script's ``title "..."`` (a statement of dealer version 2), if any.
    title: str | None = None
    #: The script's ``opener SEAT`` (dealer version 2: it sets the opener of its ``opc`` count only, and
    #: changes no deal), if any.
    opener: Seat | None = None
    #: Suit lengths fixed by ``predeal spades(north) == 1``: joined to the condition, never replaced.
    lengths: list[Cond] = field(default_factory=list)
    #: Earlier condition statements, replaced by a later one (as in ``dealer``, the last condition counts).
    replaced: list[Cond] = field(default_factory=list)
    #: Where earlier action statements were, replaced by a later one (as in ``dealer``, the last list counts).
    replaced_actions: list[Pos] = field(default_factory=list)

    def set_condition(self, cond: Cond) -> None:
        """Make ``cond`` the script's condition: like ``dealer``, a later condition replaces an earlier one."""
        self.replaced.extend(self.conditions)
        self.conditions[:] = [cond]

    def action_nodes(self) -> list[Node]:
        """The expressions the script's actions evaluate."""
        nodes: list[Node] = []
        for action in self.actions:
            if isinstance(action, Average):
                nodes.append(action.expr)
                if action.filter is not None:
                    nodes.append(action.filter)
            elif isinstance(action, (Frequency, BucketFrequency)):
                nodes.extend(axis[0] for axis in action.axes)
            elif isinstance(action, PrintES):
                nodes.extend(item for item in action.items if isinstance(item, Expr))
            elif isinstance(action, Print) and action.expr is not None:
                nodes.append(action.expr)
            elif isinstance(action, Report):
                nodes.extend(item for item in action.items if isinstance(item, Expr))
        return nodes


_SUIT_WORDS = frozenset({"spade", "heart", "diamond", "club"})
_SEAT_WORDS = frozenset({"north", "east", "south", "west"})


def _string(tok: Token) -> str:
    """The text of a quoted string token as written: ``dealer`` decodes no escape (``"a\\n"`` prints ``a\\n``;
    a new line is the bare ``\\n`` of ``printes``)."""
    return tok.text[1:-1]


class ScriptParser(Parser):
    """The parser of whole scripts: :class:`~dealer.lang.syntax.Parser` plus statements and actions."""

    def at_statement_start(self) -> bool:
        """True at the end, at a statement word, or at ``NAME =``."""
        t = self.tok
        if t.kind == "end":
            return True
        if t.kind == "name" and (t.text.lower() in STATEMENTS or (t.text == "title" and self.peek().kind == "string")):
            return True
        return t.kind == "name" and self.peek().text == "="

    def number(self, what: str, signed: bool = False) -> int:
        """A whole number (``-`` allowed when ``signed``)."""
        t = self.tok
        negative = signed and t.kind == "op" and t.text == "-"
        if negative:
            self.next()
        num = self.next()
        if num.kind != "num" or len(num.text) > 10:
            raise self.error(f"expected {what}, found {self.found(num)}", num.offset)
        return -int(num.text) if negative else int(num.text)

    def script(self) -> ScriptSyntax:
        """Every statement of the text."""
        out = ScriptSyntax()
        while self.tok.kind != "end":
            t = self.tok
            word = t.text.lower() if t.kind == "name" else ""
            if word != t.text and (self.peek().text == "=" or t.text in self.defs):
                word = ""  # ``HCP = hcp(south)``: dealer's words are lower case, so this is a variable
            if word == "condition":
                self.next()
                out.set_condition(self.statement_condition())
            elif word == "predeal":
                self.next()
                self.predeal(out)
            elif word in ("generate", "produce", "seed"):
                self.next()
                if word == "seed" and self.tok.text == "=":  # ``seed = 5``, as some scripts for the forks write it
                    self.next()
                number = self.number(f"a number after {word!r}")
                if word == "seed" or not getattr(out, word):  # as dealer: the first produce or generate not 0 counts
                    setattr(out, word, number)
            elif word == "opener" and t.text not in self.defs and self.peek().text.lower() in _SEAT_WORDS:
                # dealer version 2: the opener of its 'opc' count (a variable named opener stays one)
                self.next()
                out.opener = self.argument("seat", t)  # type: ignore[assignment]
            elif word == "title" and self.peek().kind == "string":  # dealer version 2: a title for the output
                self.next()
                out.title = _string(self.next())
            elif word == "dealer":
                self.next()
                out.dealer = self.argument("seat", t)  # type: ignore[assignment]
            elif word == "vulnerable":
                self.next()
                vul = self.next()
                value = {"none": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}.get(vul.text.lower())
                if value is None:
                    raise self.error(f"expected none, NS, EW or all after 'vulnerable', found {self.found(vul)}",
                                     vul.offset)
                out.vulnerable = value
            elif word == "pointcount":
                self.next()
                out.pointcount = self.count_list("pointcount")
            elif word == "altcount":
                self.next()
                which = self.number("the number (0 to 9) of the alternate count")
                if not 0 <= which <= 9:
                    raise self.error(f"altcount {which}: expected 0 to 9", t.offset)
                out.altcounts[which] = self.count_list("altcount")
            elif word == "action":
                self.next()
                if out.actions:  # as dealer: a later action statement replaces an earlier one
                    out.replaced_actions.append(self.pos(t.offset))
                    out.actions.clear()
                    out.action_texts.clear()
                start = self.tok.offset
                self.actions(out)
                out.action_texts.append(" ".join(self.text[start:self.tok.offset].split()))
            elif t.kind == "name" and self.peek().text == "=":
                name = self.next().text
                self.next()
                if (name in self.dialect.functions and name not in NOT_DEALER_WORDS) or name in STATEMENTS | ACTIONS:
                    raise self.error(f"cannot redefine {name!r}: it is a word of the language", t.offset)
                self.defs[name] = self.expr()
            elif word in ACTIONS and t.text not in self.defs:
                raise self.error(f"{t.text!r} is an action: actions follow the word 'action', separated by commas",
                                 t.offset)
            else:
                out.set_condition(self.statement_condition())
        out.conditions.extend(out.lengths)
        return out

    def on_new_line(self) -> bool:
        """True when the current token starts a later line than the previous one ends (a new statement to dealer)."""
        last = self.toks[self.i - 1]
        return "\n" in self.text[last.offset + len(last.text):self.tok.offset]

    def statement_condition(self) -> Cond:
        """A condition statement, which must end where the next statement starts."""
        node = self.condition()
        if not self.at_statement_start() and not (self.tok.kind == "op" and self.tok.text == "(") \
                and not self.on_new_line():
            raise self.error(f"unexpected {self.found(self.tok)} after a complete condition", self.tok.offset)
        return node

    def count_list(self, word: str) -> tuple[int, ...]:
        """Up to 13 points, ace first, separated by spaces or commas."""
        values: list[int] = []
        while self.tok.kind in ("num", "dec") or (self.tok.text == "," and values):
            if self.tok.text == ",":
                self.next()
                continue
            if self.tok.kind == "dec":  # dealer version 2: 4.5 is 450 (whole numbers in the list stay as written)
                values.append(decimal_value(self.next().text))
                continue
            values.append(self.number("a number"))
        if not values or len(values) > 13:
            raise self.error(f"{word}: expected 1 to 13 numbers (ace first), found {len(values)}", self.tok.offset)
        return tuple(values) + (0,) * (13 - len(values))

    def predeal(self, out: ScriptSyntax) -> None:
        """``predeal SEAT CARDS [SEAT CARDS ...]``: one or several seats, cards separated by commas.

        The manual's other form, ``predeal spades(north) == 1``, fixes a suit's length: it is kept as a
        condition joined to the script's (a later ``condition`` does not replace it).
        """
        if self.tok.kind == "name" and self.tok.text.lower().rstrip("s") in _SUIT_WORDS and self.peek().text == "(":
            out.lengths.append(self.condition())
            while self.tok.text == "," and self.peek().kind == "name" \
                    and self.toks[min(self.i + 2, len(self.toks) - 1)].text == "(":
                self.next()
                out.lengths.append(self.condition())
            return
        while True:
            t = self.tok
            seat = self.argument("seat", t)
            assert isinstance(seat, Seat)
            if self.tok.text == ",":
                self.next()
            start = self.tok.offset
            parts: list[str] = []
            while self.tok.kind in ("name", "num") or self.tok.text == ",":
                if self.at_statement_start() or (self.tok.kind == "name" and self.dialect.seat(self.tok.text) is not None):
                    break
                if parts and parts[-1] != "," and self.tok.text != ",":  # holdings are joined by commas:
                    break  # ``predeal north SAK`` then ``hcp(north) >= 10`` on the next line
                parts.append(self.next().text)
            if not parts:
                raise self.error("expected the cards to predeal, such as SAKQ,HAK", start)
            try:
                held = [p for p in parts if p != "," and p.upper() not in ("S", "H", "D", "C")]  # as dealer: "H" is none
                cards = CardSet.parse(",".join(held)) if held else CardSet(0)
            except DealerError as exc:
                raise self.error(str(exc), start) from None
            if seat in out.predeals:
                cards = out.predeals[seat][0] | cards
            out.predeals[seat] = (cards, self.pos(start))
            if not (self.tok.kind == "name" and self.dialect.seat(self.tok.text) is not None and self.peek().text != "="):
                return

    # -- actions -------------------------------------------------------------------------
    def actions(self, out: ScriptSyntax) -> None:
        """A list of actions separated by commas."""
        while True:
            out.actions.append(self.action())
            if self.tok.text == "," and self.tok.kind == "op":
                self.next()
                if self.at_statement_start():  # a comma after the last action
                    return
                continue
            return

    def label(self) -> str | None:
        """An optional quoted label."""
        if self.tok.kind == "string":
            return _string(self.next())
        return None

    def action(self) -> Action:
        """One action."""
        t = self.next()
        word = t.text.lower() if t.kind == "name" else ""
        pos = self.pos(t.offset)
        if word not in ACTIONS:
            raise self.error(f"expected an action ({', '.join(sorted(ACTIONS))}), found {self.found(t)}", t.offset)
        if word == "print":
            self.expect("(", "'(' and the seats to print")
            seats = [self.argument("seat", t)]
            while self.tok.text == ",":
                self.next()
                seats.append(self.argument("seat", t))
            self.expect(")", "')'")
            return Print("print", tuple(s for s in seats if isinstance(s, Seat)), pos=pos)
        if word in PRINT_ACTIONS:
            expr = None
            # the expression starts on the action's line: a condition on the next line, written without
            # ``condition``, is a statement of its own, as in dealer
            if word in ("printcompact", "printoneline") and not self.action_ends() and not self.on_new_line():
                expr = self.as_num(self.expr(), t)
            return Print(word, pos=pos, expr=expr)
        if word == "printes":
            items: list[str | Expr] = []
            wrapped = self.tok.text == "(" and (self.peek().kind in ("string", "newline") or self.comma_inside())
            if wrapped:
                self.next()
            while True:
                if self.tok.kind == "string":
                    items.append(_string(self.next()))
                elif self.tok.kind == "newline":
                    self.next()
                    items.append("\n")
                else:
                    items.append(self.as_num(self.expr(), t))
                if self.tok.text == "," and (wrapped or self.peek().text.lower() not in ACTIONS | STATEMENTS
                                             and self.peek().kind != "end"):
                    self.next()
                    continue
                if wrapped:
                    self.expect(")", "')' closing the printes list")
                return PrintES(tuple(items), pos=pos)
        if word == "average":
            label = self.label()
            if self.tok.text == "(" and self.comma_inside():  # the suokko fork's (expr, filter)
                return self.average_filtered(label, t, pos)
            return Average(label, self.as_num(self.expr(), t), pos=pos)
        if word == "bktfreq":
            return self.bucket_frequency(pos)
        if word in ("printrpt", "csvrpt"):
            return self.report(word, t, pos)
        if word == "export":
            self.expect("(", "'(' and a seat or side")
            exported = self.report_seats(self.next())
            self.expect(")", "')'")
            if exported is None or len(exported) > 2:
                raise self.error("export: expected a seat or the side NS or EW", t.offset)
            return Export(exported, pos=pos)
        if word == "frequency":
            label = self.label()
            self.expect("(", "'(' and the expression, low and high bounds")
            axes = []
            while True:
                expr = self.as_num(self.expr(), t)
                self.expect(",", "',' and the low bound")
                low = self.bound()
                self.expect(",", "',' and the high bound")
                high = self.bound()
                axes.append((expr, low, high))
                if self.tok.text != "," or len(axes) == 2:
                    break
                self.next()
            self.expect(")", "')'")
            return Frequency(label, tuple(axes), pos=pos)
        return self.evalcontract(t)

    def comma_inside(self) -> bool:
        """Whether the parentheses that open here hold a comma at their own level."""
        depth = 0
        for tok in self.toks[self.i:]:
            if tok.kind == "end":
                return False
            depth += {"(": 1, ")": -1}.get(tok.text, 0)
            if depth == 0:
                return False
            if depth == 1 and tok.text == ",":
                return True
        return False

    def average_filtered(self, label: str | None, call: Token, pos: Pos) -> Average:
        """``average "label" (EXPR, FILTER)`` (the suokko fork): ``avg`` in the filter is the mean in millionths."""
        self.expect("(", "'('")
        expr = self.as_num(self.expr(), call)
        self.expect(",", "',' and the condition on avg")
        avg = Const(0, pos=self.pos(self.tok.offset))
        before = self.defs.get("avg")
        self.defs["avg"] = avg
        try:
            test = self.as_cond(self.expr(), call)
        finally:
            if before is None:
                del self.defs["avg"]
            else:
                self.defs["avg"] = before
        self.expect(")", "')'")
        return Average(label, expr, test, avg, pos=pos)

    def bucket_frequency(self, pos: Pos) -> BucketFrequency:
        """``bktfreq "label" (EXPR, LOW, HIGH, SIZE[, EXPR2, LOW2, HIGH2, SIZE2])``."""
        label = self.label()
        self.expect("(", "'(' and the expression, low bound, high bound and bucket size")
        axes = []
        while True:
            start = self.tok
            expr = self.as_num(self.expr(), start)
            bounds = []
            for what in ("low bound", "high bound", "bucket size"):
                self.expect(",", f"',' and the {what}")
                bounds.append(self.bound())
            low, high, size = bounds
            if size <= 0 or high < low:
                raise self.error(f"bktfreq: expected low <= high and a bucket size > 0, found {low}, {high}, {size}",
                                 start.offset)
            axes.append((expr, low, high, size))
            if self.tok.text != "," or len(axes) == 2:
                break
            self.next()
        self.expect(")", "')'")
        return BucketFrequency(label, tuple(axes), pos=pos)

    def evalcontract(self, call: Token) -> "EvalContract | EvalTable":
        """``evalcontract(SIDE, CONTRACT, VUL)``: side NS or EW, a contract such as x3N or x4Sx, vul or nv;
        ``evalcontract`` alone, the original's table of every contract."""
        if self.tok.text != "(":
            return EvalTable(pos=self.pos(call.offset))
        self.expect("(", "'(' and the side, contract and vulnerability")
        t = self.next()
        side = t.text.upper() if t.kind == "name" else ""
        if side not in ("NS", "EW"):
            raise self.error(f"expected the side NS or EW, found {self.found(t)}", t.offset)
        self.expect(",", "',' and the contract")
        t = self.next()
        text = t.text
        if t.kind == "num" and self.tok.kind == "name" and self.tok.offset == t.offset + len(t.text):
            text += self.next().text  # 3NT is read as 3 and NT
        m = _CONTRACT.fullmatch(text.lower()) if t.kind in ("name", "num") else None
        if m is None:
            raise self.error(f"expected a contract such as x3N, x4Sx or x6Hxx, found {self.found(t)}", t.offset)
        self.expect(",", "',' and the vulnerability")
        vulnerable = self.word(_VUL_WORDS, "expected vul or nv")
        self.expect(")", "')'")
        return EvalContract(side, int(m.group(1)), m.group(2)[0].upper(), len(m.group(3)), vulnerable,
                            pos=self.pos(call.offset))

    def report(self, word: str, call: Token, pos: Pos) -> Report:
        """``printrpt(ITEM, ...)``/``csvrpt(ITEM, ...)``: numbers, strings, hands, ``trix`` and ``parcontract``."""
        self.expect("(", f"'(' and what {word} prints")
        items: list[str | Expr | Hands | DoubleDummyRow | ParContract] = []
        while True:
            t = self.tok
            seats = self.report_seats(t) if t.kind == "name" and self.peek().text in (",", ")") else None
            if t.kind == "string":
                items.append(_string(self.next()))
            elif t.kind == "newline":
                items.append(self.next().text and "\n")
            elif seats is not None:
                self.next()
                items.append(Hands(seats))
            elif t.kind == "name" and t.text.lower() == "trix" and self.peek().text == "(":
                self.next()
                self.next()
                seats = self.report_seats(self.next())
                if seats is None or len(seats) == 2:
                    raise self.error("trix: expected a seat or deal", t.offset)
                self.expect(")", "')'")
                items.append(DoubleDummyRow(seats))
            elif t.kind == "name" and t.text.lower() == "parcontract":
                self.next()
                items.append(ParContract(self.par_vulnerable() if self.tok.text == "(" else "none"))
            else:
                items.append(self.as_num(self.expr(), call))
            if self.tok.text != ",":
                break
            self.next()
        self.expect(")", f"')' closing the {word} list")
        return Report(word, tuple(items), pos=pos)

    def par_vulnerable(self) -> str:
        """``(VUL)`` after ``parcontract``: ``none``, ``ns``, ``ew``, ``both`` (or ``all``)."""
        self.expect("(", "'('")
        found = self.word(PAR_VULNERABILITY, "parcontract: expected none, ns, ew or both")
        self.expect(")", "')'")
        return found

    def word(self, words: Mapping[str, _T], expected: str) -> _T:
        """The next token, a word of ``words`` in any case, as ``words`` maps it; else the error ``expected``,
        naming what was found."""
        t = self.next()
        found = words.get(t.text.lower()) if t.kind == "name" else None
        if found is None:
            raise self.error(f"{expected}, found {self.found(t)}", t.offset)
        return found

    def report_seats(self, t: Token) -> tuple[Seat, ...] | None:
        """The seats a report item names: a seat word, ``NS``/``EW`` (upper case, as DealerV2), or ``deal``."""
        if t.kind != "name":
            return None
        if t.text in _SIDE_SEATS:
            return _SIDE_SEATS[t.text]
        if t.text.lower() == "deal":
            return tuple(Seat)
        seat = self.dialect.seat(t.text) if t.text.lower() in _SEAT_WORDS else None
        return None if seat is None else (seat,)

    def bound(self) -> int:
        """A constant bound of ``frequency``."""
        t = self.tok
        node: Node = self.expr(1)
        if not isinstance(node, Const):
            folded = _fold(node)
            if folded is None:
                raise self.error("expected a constant bound", t.offset)
            return folded
        return node.value

    def action_ends(self) -> bool:
        """True where an action's optional expression is absent."""
        return self.at_statement_start() or self.tok.text == ","


def _fold(node: Node) -> int | None:
    """The value of a constant expression (``-3``), else None."""
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Arith) and node.op == "-" and isinstance(node.left, Const):
        right = _fold(node.right)
        return None if right is None else node.left.value - right
    return None


def parse_statements(text: str, *, source: str = "<spec>", dialect: Dialect = SPEC_DIALECT) -> ScriptSyntax:
    """Parse a ``dealer`` script: ``condition``, ``predeal``, ``NAME = EXPR``, ``produce`` ... statements.

    >>> script = parse_statements("predeal north SAKQ\\nopener = hcp(south) >= 12\\nopener\\nproduce 5")
    >>> script.produce, str(script.conditions[0]), str(script.predeals[Seat.N][0])
    (5, 'hcp(south) >= 12', 'AKQ...')
    """
    return ScriptParser(text, source, dialect).script()


def check_predeals(predeals: "Mapping[Seat, tuple[CardSet, Pos]]") -> None:
    """Refuse predealt hands that cannot be dealt together (a card given twice, more than 13 cards), naming the
    ``predeal`` statement at fault (:class:`~dealer.errors.SpecError`)."""
    hands: list[CardSet | None] = [None] * 4
    for seat, (cards, pos) in sorted(predeals.items()):  # a seat at a time: the error names its predeal
        hands[seat] = cards
        try:
            PartialDeal(hands)
        except InvalidDealError as exc:
            raise SpecError(f"{pos}: predeal: {exc}") from None
