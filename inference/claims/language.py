"""The claim language: the shared expression language, spoken from a seat at the table.

A claim is a condition on the seats' *dealt* hands, written in Kibitz's one
expression language (:mod:`dealer.lang.expr`, parsed by :mod:`dealer.lang.syntax`):
``spades(LHO)``, ``length(LHO, spades)``, ``hcp(LHO)``, ``hcp(LHO, hearts)``,
``shape(LHO, any 4333)``, ``hascard(LHO, SA)``, integers, ``+ - *``,
comparisons, ``&&``/``and``, ``||``/``or``, ``^^``/``xor`` (exactly one),
``!``/``not``, ``true``/``false`` and parentheses. What claims add is what is
about play:

* seats relative to the viewer: ``LHO``, ``RHO``, ``partner`` (``pard``),
  ``dummy``, ``declarer``, ``me`` (``we``), besides ``N E S W``/``north`` ...;
* ``longest(LHO, 2)``: total length of the seat's two longest suits;
* ``honours(LHO, spades)``: how many of A K Q J T of the suit it holds;
* ``rank(LHO, S5)``: the card's position from the top of the seat's holding
  in its suit (1 = highest), 0 if it does not hold it;
* ``aces(LHO)``, ``kings(LHO)``: how many aces (kings) the seat holds;
  ``keycards(LHO, hearts)``: its key cards for that trump suit (the four aces
  and the trump king), what a reply to Roman Key Card Blackwood shows.

A parsed claim has absolute seats; :func:`claim_text` writes it back with
one-letter seats. :func:`one_fewer` writes the seed's "one fewer" fallback of
a claim, on its tree. How claims are decided over the lawful layouts is
:mod:`inference.exact.statuses` (through :mod:`inference.exact.solver`).

>>> claim_text(parse_claim("hearts(LHO) >= 5 && hearts(LHO) > spades(LHO)", viewer="S"))
'hearts(W) >= 5 && hearts(W) > spades(W)'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterator

from dealer import Card, DealerError, Seat, Suit
from dealer.errors import SpecSyntaxError
from dealer.lang.expr import (
    LONG_NAMES, SHORT_NAMES, Always, And, Arith, Compare, Cond, Const, Expr, HasCard, Hcp, Length, Node, Not, Or, Pos, SeatNames,
    ShapeIn, SuitHcp, Xor,
)
from dealer.lang.syntax import BASE_FUNCTIONS, Dialect, Function, parse_expression
from dealer.lang.frozen import frozen

from inference.errors import InvalidArgumentError

__all__ = [
    "Claim", "Expr", "Const", "Length", "Hcp", "SuitHcp", "Longest", "Honours", "Rank", "CardCount", "Arith",
    "Compare", "HasCard", "ShapeIn", "And", "Or", "Xor", "Not", "Always",
    "RELATIVE_SEATS", "seat_word", "claim_dialect", "parse_claim", "claim_text", "one_fewer", "iter_atoms",
    "quote",
]

#: A claim: a condition of the expression language.
Claim = Cond


@frozen
class Longest(Expr):
    """``longest(LHO, 2)``: total length of the seat's ``count`` longest suits."""

    seat: Seat
    count: int

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"longest({names(self.seat)}, {self.count})"


@frozen
class Honours(Expr):
    """``honours(LHO, spades)``: how many of A K Q J T of the suit the seat was dealt."""

    seat: Seat
    suit: Suit

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"honours({names(self.seat)}, {self.suit.name_long})"


@frozen
class Rank(Expr):
    """``rank(LHO, S5)``: the card's position from the top of the seat's dealt suit (1 = highest); 0 if not held."""

    seat: Seat
    card: Card

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        return f"rank({names(self.seat)}, {self.card})"


@frozen
class CardCount(Expr):
    """``aces(LHO)``, ``kings(LHO)``, ``keycards(LHO, hearts)``: how many of some named cards the seat was dealt.

    ``name`` is the function written, ``suit`` the trump suit of ``keycards`` (None for the others).
    """

    seat: Seat
    name: str
    suit: Suit | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards counted: the four aces (kings), or for key cards the aces and the trump king."""
        rank = "K" if self.name == "kings" else "A"
        out = tuple(Card.parse(f"{s.name}{rank}") for s in Suit)
        if self.name == "keycards" and self.suit is not None:
            return out + (Card.parse(f"{self.suit.name}K"),)
        return out

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def text(self, names: SeatNames = LONG_NAMES) -> str:
        suit = "" if self.suit is None else f", {self.suit.name_long}"
        return f"{self.name}({names(self.seat)}{suit})"


#: The relative seat words and their meaning: (viewer, declarer) -> seat.
RELATIVE_SEATS: dict[str, Callable[[Seat, Seat], Seat]] = {
    "lho": lambda viewer, declarer: viewer.lho,
    "rho": lambda viewer, declarer: viewer.rho,
    "partner": lambda viewer, declarer: viewer.partner,
    "pard": lambda viewer, declarer: viewer.partner,
    "dummy": lambda viewer, declarer: declarer.partner,
    "declarer": lambda viewer, declarer: declarer,
    "me": lambda viewer, declarer: viewer,
    "we": lambda viewer, declarer: viewer,
}
_SYNONYMS = {"pard": "partner", "we": "me"}


def seat_word(word: str, viewer: Seat, declarer: Seat) -> Seat:
    """The seat a word names, seen from ``viewer`` with ``declarer`` declaring.

    >>> seat_word("LHO", Seat.S, Seat.S), seat_word("dummy", Seat.E, Seat.S), seat_word("west", Seat.S, Seat.S)
    (<Seat.W: 3>, <Seat.N: 0>, <Seat.W: 3>)
    """
    relative = RELATIVE_SEATS.get(word.lower())
    if relative is not None:
        return relative(viewer, declarer)
    return Seat.parse(word)


def _longest(seat: Seat, count: int, *, pos: Pos) -> Longest:
    if not 1 <= count <= 4:
        raise ValueError(f"longest(seat, k) needs k from 1 to 4, found {count}")
    return Longest(seat, count, pos=pos)


_CLAIM_FUNCTIONS = {
    **BASE_FUNCTIONS,
    "longest": Function(("seat", "int"), _longest),
    "honours": Function(("seat", "suit"), lambda seat, suit, *, pos: Honours(seat, suit, pos=pos)),
    "honors": Function(("seat", "suit"), lambda seat, suit, *, pos: Honours(seat, suit, pos=pos)),
    "rank": Function(("seat", "card"), lambda seat, card, *, pos: Rank(seat, card, pos=pos)),
    "aces": Function(("seat",), lambda seat, *, pos: CardCount(seat, "aces", pos=pos)),
    "kings": Function(("seat",), lambda seat, *, pos: CardCount(seat, "kings", pos=pos)),
    "keycards": Function(("seat", "suit"), lambda seat, suit, *, pos: CardCount(seat, "keycards", suit, pos=pos)),
}
_SEATS_HELP = "LHO, RHO, partner, dummy, declarer, me, N, E, S, W"


def _dialect(resolve: Callable[[str], "Seat | None"]) -> Dialect:
    return Dialect("claim", resolve, _SEATS_HELP, _CLAIM_FUNCTIONS, example="hcp(LHO)")


@lru_cache(maxsize=16)
def claim_dialect(viewer: Seat, declarer: Seat) -> Dialect:
    """The claim language's dialect seen from ``viewer`` with ``declarer`` declaring."""

    def resolve(word: str) -> Seat | None:
        try:
            return seat_word(word, viewer, declarer)
        except (DealerError, ValueError):
            return None

    return _dialect(resolve)


def quote(text: str, limit: int = 80) -> str:
    """``repr(text)``, shortened to about ``limit`` characters with ``...`` (for messages).

    >>> quote("x" * 100, 10)
    "'xxxxxxxxxx'... (100 characters)"
    """
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"


def _parse(text: str, dialect: Dialect) -> Cond:
    if not isinstance(text, str):
        raise InvalidArgumentError(f"a claim must be text, got {type(text).__name__} {text!r:.40}")
    try:
        node = parse_expression(text, dialect, source="<claim>")
    except SpecSyntaxError as exc:
        raise InvalidArgumentError(f"claim {quote(text)}, column {exc.column}: {exc.reason}") from None
    if isinstance(node, Const):
        return Always(node.value != 0, pos=node.pos)
    if not isinstance(node, Cond):
        raise InvalidArgumentError(f"claim {quote(text)}: expected a condition, found a number expression")
    return node


def parse_claim(text: str, *, viewer: "Seat | str" = Seat.S, declarer: "Seat | str | None" = None) -> Claim:
    """Parse a claim; relative seats (LHO, RHO, partner, dummy, declarer) are taken from ``viewer``.

    >>> str(parse_claim("hcp(partner) >= 6 ^^ hascard(RHO, SA)", viewer="S"))
    'hcp(north) >= 6 ^^ hascard(east, SA)'
    """
    view = Seat.parse(viewer)
    decl = view if declarer is None else Seat.parse(declarer)
    return _parse(text, claim_dialect(view, decl))


def claim_text(claim: Node) -> str:
    """A claim written back with one-letter seats, as the narration shows it.

    >>> claim_text(parse_claim("!(spades(LHO) > 3)", viewer="N"))
    '!(spades(E) > 3)'
    """
    return claim.text(SHORT_NAMES)


def iter_atoms(claim: Cond) -> Iterator[Cond]:
    """The comparisons, shapes and card atoms of a claim, in order."""
    stack: list[Cond] = [claim]
    while stack:
        c = stack.pop()
        if isinstance(c, (And, Or, Xor)):
            stack.extend(reversed(c.items))
        elif isinstance(c, Not):
            stack.append(c.item)
        else:
            yield c


# -- the "one fewer" fallback, on the tree ---------------------------------------------------------------

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _widen(c: Compare, wider: bool) -> Cond:
    """A length compared with a constant, one card wider (``wider``) or one card narrower."""
    length_left = isinstance(c.left, Length) and isinstance(c.right, Const)
    if not length_left and not (isinstance(c.right, Length) and isinstance(c.left, Const)):
        return c
    op = c.op if length_left else _FLIP[c.op]  # read as: length op n
    length, n = (c.left, c.right) if length_left else (c.right, c.left)
    assert isinstance(n, Const)
    step = 1 if wider else -1
    if op in (">=", ">"):
        new = n.value - step
        new = max(new, 0 if op == ">=" else -1)
    elif op in ("<=", "<"):
        new = n.value + step
    elif op == "==" and wider:
        return And((Compare(">=", length, Const(max(n.value - 1, 0))), Compare("<=", length, Const(n.value + 1))))
    else:
        return c
    const = Const(new)
    return Compare(c.op, length, const) if length_left else Compare(c.op, const, length)


def _one_fewer(c: Cond, wider: bool) -> Cond:
    if isinstance(c, Compare):
        return _widen(c, wider)
    if isinstance(c, Not):
        return Not(_one_fewer(c.item, not wider))
    if isinstance(c, (And, Or)):
        items: list[Cond] = []
        for item in c.items:
            new = _one_fewer(item, wider)
            if isinstance(c, And) and isinstance(new, And) and not isinstance(item, And):
                items.extend(new.items)
            else:
                items.append(new)
        return type(c)(tuple(items))
    return c  # xor mixes both directions; shapes, cards and constants have no "one fewer"


def one_fewer(text: str) -> str:
    """The seed's "one fewer" fallback: minimum lengths lowered by one, maximum lengths raised by one.

    The claim is parsed and rewritten on its tree (seats as written: ``LHO`` stays ``LHO``); a length
    compared with a number in either order is widened by one card (``==`` becomes a range), under a
    ``!`` narrowed by one so the whole is wider. HCP and every other feature are left alone, and a
    claim with nothing to widen comes back unchanged.

    >>> one_fewer("hearts(LHO) >= 5")
    'hearts(LHO) >= 4'
    >>> one_fewer("spades(RHO) <= 3 && hearts(RHO) == 6")
    'spades(RHO) <= 4 && hearts(RHO) >= 5 && hearts(RHO) <= 7'
    >>> one_fewer("hearts(LHO) > 4"), one_fewer("5 <= hearts(LHO)")
    ('hearts(LHO) > 3', '4 <= hearts(LHO)')
    """
    # each distinct seat word stands for a distinct placeholder seat, so the claim prints back as written
    spelled: dict[Seat, str] = {}
    placeholder: dict[str, Seat] = {}

    def resolve(word: str) -> Seat | None:
        key = _SYNONYMS.get(word.lower(), word.lower())
        if key not in RELATIVE_SEATS:
            try:
                key = Seat.parse(word).name
            except (DealerError, ValueError):
                return None
        if key not in placeholder:
            if len(placeholder) == 4:
                raise ValueError(f"one_fewer rewrites claims naming at most four different seats; {word!r} is a fifth")
            placeholder[key] = Seat(len(placeholder))
            spelled[placeholder[key]] = word
        return placeholder[key]

    try:
        claim = _parse(text, _dialect(resolve))
    except ValueError as exc:
        if isinstance(exc, InvalidArgumentError):
            raise
        raise InvalidArgumentError(str(exc)) from None
    new = _one_fewer(claim, True)
    return text if new == claim else new.text(spelled.__getitem__)
