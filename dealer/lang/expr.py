"""The one expression language of Kibitz: its syntax tree.

Both layers speak it: the dealer's specs (``spades(west) >= 5 && hcp(east) <= 9``)
and the claims the inference layer makes about concealed hands
(``hearts(LHO) >= 5 ^^ hearts(RHO) >= 5``). This module is syntax only: the
nodes, the seats they mention, a walk over them and their text. What a node
*means* is for each layer to say: the dealer evaluates conditions on one seat
over every (shape, HCP) class (:mod:`dealer.lang.grid`), the inference layer over
the lawful layouts of a position. The parser is :mod:`dealer.lang.syntax`.

Expressions (:class:`Expr`) are integers: constants, a seat's dealt length in a
suit, its HCP, its HCP in one suit, ``+ - *``. Conditions (:class:`Cond`) are
true or false: comparisons, shape tests, specific cards, ``&&``, ``||``, ``^^``
(exactly one) and ``!``. A layer may add node types of its own (the claim
language adds ``longest``, ``honours`` and ``rank``) by subclassing
:class:`Expr` or :class:`Cond` and giving them :meth:`Node.text`.

>>> c = And((Compare(">=", Length(Seat.W, Suit.S), Const(5)), HasCard(Seat.E, Card.parse("SA"))))
>>> str(c)
'spades(west) >= 5 && hascard(east, SA)'
>>> c.text(SHORT_NAMES)
'spades(W) >= 5 && hascard(E, SA)'
>>> sorted(s.name for s in c.seats())
['E', 'W']
"""

from __future__ import annotations

from dataclasses import field
from typing import Callable, ClassVar, Iterator, Sequence

from dealer.cards.card import Card
from dealer.cards.seat import Seat
from dealer.cards.shapes import ShapeSet
from dealer.cards.suit import Suit
from dealer.lang.frozen import frozen

__all__ = [
    "Pos", "SeatNames", "LONG_NAMES", "SHORT_NAMES", "Node", "Expr", "Const", "Length", "Hcp", "SuitHcp",
    "Arith", "Cond", "Always", "Compare", "ShapeIn", "HasCard", "And", "Or", "Xor", "Not",
    "ARITH_OPS", "COMPARE_OPS", "PAR_VULNERABILITY", "walk", "walk_once", "conjuncts", "Truth", "Ternary", "HandCount", "HAND_COUNTS", "DoubleDummy", "Tricks", "LeadTricks", "Par", "Score", "Imps",
    "Random",
]

#: How a seat is written: ``seat -> text``.
SeatNames = Callable[[Seat], str]


def _long(seat: Seat) -> str:
    """``north``: the seat as the ``dealer`` program writes it."""
    return seat.name_long


def _short(seat: Seat) -> str:
    """``N``: the seat as one letter."""
    return seat.name


#: Seats as the ``dealer`` program writes them: ``north``.
LONG_NAMES: SeatNames = _long
#: Seats as one letter: ``N``.
SHORT_NAMES: SeatNames = _short

#: The arithmetic operators, in the language's spelling (``/`` truncates toward zero, as in C).
ARITH_OPS = ("+", "-", "*", "/", "%")
#: The comparison operators, in the language's spelling.
COMPARE_OPS = ("==", "!=", "<=", ">=", "<", ">")


@frozen
class Pos:
    """Where a node came from: ``source`` name, 1-based line and column.

    >>> str(Pos("spec.dl", 3, 7))
    'spec.dl:3:7'
    """

    source: str = "<spec>"
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"


@frozen
class Node:
    """A node of the syntax tree; equal nodes are equal wherever they were written."""

    pos: Pos = field(default=Pos(), compare=False, repr=False, kw_only=True)

    def children(self) -> tuple["Node", ...]:
        """The nodes directly below this one."""
        return ()

    def seats(self) -> frozenset[Seat]:
        """Every seat the node mentions, itself or below."""
        out: frozenset[Seat] = frozenset()
        for child in self.children():
            out |= child.seats()
        return out

    def walk(self) -> Iterator["Node"]:
        """This node, then every node below it, depth first."""
        return walk(self)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        """The node in the language's own spelling, seats written by ``names``."""
        raise NotImplementedError  # pragma: no cover

    def __str__(self) -> str:
        return self.text()


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every node below it, depth first, without recursion (any depth).

    >>> [type(n).__name__ for n in walk(Not(Always(True)))]
    ['Not', 'Always']
    """
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children()))


def walk_once(node: Node) -> Iterator[Node]:
    """Like :func:`walk`, but a node reached by several paths (a script's variable used twice) is
    yielded once, and what lies below it is walked once.

    >>> a = Not(Always(True))
    >>> len(list(walk(And((a, a))))), len(list(walk_once(And((a, a)))))
    (5, 3)
    """
    seen = {id(node)}
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        for child in reversed(n.children()):
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)


def conjuncts(conditions: "Sequence[Cond]") -> "list[Cond]":
    """The conditions with every top-level ``&&`` opened up, in order.

    >>> [str(c) for c in conjuncts([And((Always(True), And((Always(False), Always(True)))))])]
    ['1', '0', '1']
    """
    out: list[Cond] = []
    stack = list(reversed(conditions))
    while stack:
        c = stack.pop()
        if isinstance(c, And):
            stack.extend(reversed(c.items))
        else:
            out.append(c)
    return out


# -- expressions -------------------------------------------------------------

@frozen
class Expr(Node):
    """An integer-valued expression over dealt hands."""


@frozen
class Const(Expr):
    """An integer constant."""

    value: int

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return str(self.value)


@frozen
class Length(Expr):
    """``spades(north)``: the seat's dealt length in the suit."""

    seat: Seat
    suit: Suit

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"{self.suit.name_long}({names(self.seat)})"


@frozen
class Hcp(Expr):
    """``hcp(north)``: the seat's dealt high-card points (4-3-2-1)."""

    seat: Seat

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"hcp({names(self.seat)})"


@frozen
class SuitHcp(Expr):
    """``hcp(north, spades)``: the seat's dealt HCP in one suit."""

    seat: Seat
    suit: Suit

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"hcp({names(self.seat)}, {self.suit.name_long})"


@frozen
class Arith(Expr):
    """``left op right`` for ``op`` in ``+ - * / %``."""

    op: str
    left: Expr
    right: Expr

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"({self.left.text(names)} {self.op} {self.right.text(names)})"


# -- conditions --------------------------------------------------------------

@frozen
class Cond(Node):
    """A true/false condition over dealt hands."""


@frozen
class Always(Cond):
    """A constant condition: ``1`` (true) or ``0`` (false), as in the ``dealer`` program."""

    value: bool = True

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return "1" if self.value else "0"


@frozen
class Compare(Cond):
    """``left op right`` for ``op`` in ``== != < <= > >=``."""

    op: str
    left: Expr
    right: Expr

    OPS: ClassVar[tuple[str, ...]] = COMPARE_OPS

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"{self.left.text(names)} {self.op} {self.right.text(names)}"


@frozen
class ShapeIn(Cond):
    """``shape(north, any 5332 + 9xxx)``: the seat's suit lengths are one of a set of shapes."""

    seat: Seat
    shapes: ShapeSet

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"shape({names(self.seat)}, {self.shapes})"


@frozen
class HasCard(Cond):
    """``hascard(north, SA)``: the seat was dealt this card."""

    seat: Seat
    card: Card

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"hascard({names(self.seat)}, {self.card})"


@frozen
class _Connective(Cond):
    items: tuple[Cond, ...]

    SYMBOL: ClassVar[str] = ""

    def children(self) -> tuple[Node, ...]:
        return self.items

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f" {self.SYMBOL} ".join(_operand(c, names) for c in self.items)


@frozen
class And(_Connective):
    """Every item holds (``&&``, ``and``)."""

    SYMBOL: ClassVar[str] = "&&"


@frozen
class Or(_Connective):
    """Some item holds (``||``, ``or``)."""

    SYMBOL: ClassVar[str] = "||"


@frozen
class Xor(_Connective):
    """Exactly one item holds (``^^``, ``xor``): the seed's way of joining interpretations."""

    SYMBOL: ClassVar[str] = "^^"


@frozen
class Not(Cond):
    """The item does not hold (``!``, ``not``)."""

    item: Cond

    def children(self) -> tuple[Node, ...]:
        return (self.item,)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        inner = self.item.text(names)
        return f"!({inner})" if isinstance(self.item, (_Connective, Compare)) else f"!{inner}"


def _operand(c: Cond, names: SeatNames) -> str:
    """``c`` as an operand of a connective: compound operands get parentheses."""
    return f"({c.text(names)})" if isinstance(c, _Connective) else c.text(names)


# -- the dealer program's further expressions ------------------------------------

@frozen
class Truth(Expr):
    """A condition used as a number: 1 where it holds, else 0 (``hcp(south) + shape(south, 5xxx)``)."""

    item: Cond

    def children(self) -> tuple[Node, ...]:
        return (self.item,)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"({self.item.text(names)})"


@frozen
class Ternary(Expr):
    """``test ? then : other``: ``then`` where the test holds, else ``other``."""

    test: Cond
    then: Expr
    other: Expr

    def children(self) -> tuple[Node, ...]:
        return (self.test, self.then, self.other)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"({self.test.text(names)} ? {self.then.text(names)} : {self.other.text(names)})"


#: The per-seat counts of the ``dealer`` program beyond lengths and HCP, by the name a script calls them.
#: ``pt0``..``pt9`` are the alternate counts; ``tens``..``c13`` are their readable names.
HAND_COUNTS = ("pt0", "pt1", "pt2", "pt3", "pt4", "pt5", "pt6", "pt7", "pt8", "pt9",
               "controls", "losers", "quality", "cccc", "ltc")


@frozen
class HandCount(Expr):
    """``top3(north, spades)``, ``controls(east)``, ``losers(west)``...: a count over one seat's cards.

    ``kind`` is one of :data:`HAND_COUNTS`; ``suit`` is None for the whole hand. ``name`` is how the
    script spelled it (``top3`` for ``pt6``).
    """

    kind: str
    seat: Seat
    suit: Suit | None = None
    name: str = ""

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        suit = "" if self.suit is None else f", {self.suit.name_long}"
        return f"{self.name or self.kind}({names(self.seat)}{suit})"


@frozen
class DoubleDummy(Expr):
    """The base of the solver's counts for declarer ``seat`` in ``strain`` (S H D C N): its word and fields."""

    word: ClassVar[str] = ""
    seat: Seat
    strain: str

    def seats(self) -> frozenset[Seat]:
        return frozenset(Seat)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        long = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "N": "notrump"}[self.strain]
        return f"{self.word}({names(self.seat)}, {long})"


@frozen
class Tricks(DoubleDummy):
    """``tricks(south, notrump)``: double-dummy tricks for declarer ``seat`` in ``strain`` (S H D C N)."""

    word: ClassVar[str] = "tricks"


@frozen
class LeadTricks(DoubleDummy):
    """``leadtricks(south, notrump)`` (the suokko fork): declarer ``seat``'s double-dummy tricks in ``strain``
    after each opening lead, a value per lead. The leader (declarer's left-hand opponent) must be predealt
    all 13 cards; the leads are the top cards of the leader's sequences (touching cards give the same tricks).
    Arithmetic, comparisons, ``score``, ``imps``, ``abs``, ``!`` and ``?:`` work lead by lead; ``&&``, ``||``
    and a condition hold when they hold for every lead; a number printed is the mean over the leads,
    truncated (:mod:`dealer.lang.interpret`)."""

    word: ClassVar[str] = "leadtricks"


#: DealerV2's lower-case vulnerability words (``par(NS, ns)``, ``parcontract(both)``), ``all`` for ``both``.
PAR_VULNERABILITY = {"none": "none", "ns": "ns", "ew": "ew", "both": "both", "all": "both"}


@frozen
class Par(Expr):
    """``par(NS)``, ``par(EW, ns)`` (DealerV2): the deal's par score, double dummy, from ``side``'s view (``NS``
    or ``EW``), with ``vulnerable`` (``none``, ``ns``, ``ew`` or ``both``; DealerV2's default ``none``), the
    north-south side bidding first (DealerV2 takes north-south's result of DDS's SidesPar)."""

    side: str
    vulnerable: str = "none"

    def seats(self) -> frozenset[Seat]:
        return frozenset(Seat)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"par({self.side}{'' if self.vulnerable == 'none' else ', ' + self.vulnerable})"


@frozen
class Score(Expr):
    """``score(vul, x3N, tricks)``: declarer's score for a contract (``x3Nx`` doubled, ``x3Nxx`` redoubled)
    making ``tricks``."""

    vulnerable: bool
    level: int
    strain: str
    tricks: Expr
    doubled: int = 0

    def children(self) -> tuple[Node, ...]:
        return (self.tricks,)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        vul = "vul" if self.vulnerable else "nonvul"
        return f"score({vul}, x{self.level}{self.strain}{'x' * self.doubled}, {self.tricks.text(names)})"


@frozen
class Imps(Expr):
    """``imps(difference)``: a score difference in IMPs, with its sign."""

    item: Expr

    def children(self) -> tuple[Node, ...]:
        return (self.item,)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"imps({self.item.text(names)})"


@frozen
class Random(Expr):
    """``rnd(n)``: a whole number drawn at random from 0 to n - 1 for each deal (``dealer``'s random number).

    Its values come from the script's random stream (the seed), so a condition using it is only
    ever dealt by filtering, and counted as an estimate.
    """

    limit: Expr

    def children(self) -> tuple[Node, ...]:
        return (self.limit,)

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"rnd({self.limit.text(names)})"
