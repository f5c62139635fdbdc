"""Claims about concealed hands, and their exact evaluation over the lawful layouts.

A claim is a boolean formula over features of seats' *dealt* hands:

* ``spades(LHO)`` (dealt length), ``hcp(LHO)``, ``longest(LHO, 2)`` (total length
  of its two longest suits), ``honours(LHO, spades)`` (A K Q J T held),
  ``rank(LHO, S5)`` (the card's position from the top of the seat's suit, 0
  if it does not hold it), integers, ``+ - *``;
* comparisons ``== != < <= > >=``, ``hascard(LHO, SA)``;
* ``&&``/``and``, ``||``/``or``, ``^^``/``xor``, ``!``/``not``, parentheses.

Seats are absolute (``N``, ``east``) or relative to the viewer (``LHO``,
``RHO``, ``partner``; ``dummy`` and ``declarer`` too).

:class:`Evaluator` decides a claim exactly over the lawful layouts of a
position: *satisfiable* (true in some layout) and *valid* (true in every
one). It enumerates, per suit, the holdings a concealed seat can have there
(subsets of that suit's unseen cards), keeps only the per-suit features the
claims need, and combines the suits by a set DP with the hand-size
constraint; with two concealed seats the other hand is the complement, with
three the remainder must be lawful for the other two. Every feature vector it
keeps is reached by some lawful layout, so the answers are exact.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping, Sequence, cast

import numpy as np

from dealer import CARDS, Card, CardSet, DealerError, Seat, Suit

from .errors import InvalidArgumentError

__all__ = [
    "joint_support",
    "Expr", "Const", "Length", "Hcp", "Longest", "Honours", "Rank", "Arith",
    "Claim", "Compare", "HasCard", "And", "Or", "Xor", "Not", "Always",
    "parse_claim", "Position", "Evaluator", "Verdict",
]

_HONOURS = 0b11111  # A K Q J T: the top five bits of a 13-bit holding


# -- expressions ----------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    """An integer feature of dealt hands."""

    def seats(self) -> frozenset[Seat]:
        return frozenset()

    def keys(self) -> frozenset[tuple[object, ...]]:
        """The raw features it reads: ('len', seat, suit), ('hcp', seat), ('above', seat, card), ..."""
        return frozenset()


@dataclass(frozen=True)
class Const(Expr):
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Length(Expr):
    seat: Seat
    suit: Suit

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset({("len", self.seat, int(self.suit))})

    def __str__(self) -> str:
        return f"{self.suit.name_long}({self.seat.name})"


@dataclass(frozen=True)
class Hcp(Expr):
    seat: Seat

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset({("hcp", self.seat)})

    def __str__(self) -> str:
        return f"hcp({self.seat.name})"


@dataclass(frozen=True)
class Longest(Expr):
    """Total length of the seat's ``count`` longest suits."""

    seat: Seat
    count: int

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset(("len", self.seat, s) for s in range(4))

    def __str__(self) -> str:
        return f"longest({self.seat.name}, {self.count})"


@dataclass(frozen=True)
class Honours(Expr):
    """How many of A K Q J T of the suit the seat was dealt."""

    seat: Seat
    suit: Suit

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset({("hon", self.seat, int(self.suit))})

    def __str__(self) -> str:
        return f"honours({self.seat.name}, {self.suit.name_long})"


@dataclass(frozen=True)
class Rank(Expr):
    """Position of ``card`` from the top of the seat's dealt holding in its suit (1 = highest); 0 if not held."""

    seat: Seat
    card: Card

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset({("above", self.seat, self.card.index), ("card", self.seat, self.card.index)})

    def __str__(self) -> str:
        return f"rank({self.seat.name}, {self.card})"


_ARITH: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul}


@dataclass(frozen=True)
class Arith(Expr):
    op: str
    left: Expr
    right: Expr

    def seats(self) -> frozenset[Seat]:
        return self.left.seats() | self.right.seats()

    def keys(self) -> frozenset[tuple[object, ...]]:
        return self.left.keys() | self.right.keys()

    def __str__(self) -> str:
        return f"({self.left} {self.op} {self.right})"


# -- claims -------------------------------------------------------------------------

@dataclass(frozen=True)
class Claim:
    """A true/false statement about dealt hands."""

    def seats(self) -> frozenset[Seat]:
        return frozenset()

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset()


@dataclass(frozen=True)
class Always(Claim):
    value: bool = True

    def __str__(self) -> str:
        return "1" if self.value else "0"


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


@dataclass(frozen=True)
class Compare(Claim):
    op: str
    left: Expr
    right: Expr

    def seats(self) -> frozenset[Seat]:
        return self.left.seats() | self.right.seats()

    def keys(self) -> frozenset[tuple[object, ...]]:
        return self.left.keys() | self.right.keys()

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class HasCard(Claim):
    seat: Seat
    card: Card

    def seats(self) -> frozenset[Seat]:
        return frozenset({self.seat})

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset({("card", self.seat, self.card.index)})

    def __str__(self) -> str:
        return f"hascard({self.seat.name}, {self.card})"


@dataclass(frozen=True)
class _Many(Claim):
    items: tuple[Claim, ...]

    def seats(self) -> frozenset[Seat]:
        return frozenset().union(*(c.seats() for c in self.items))

    def keys(self) -> frozenset[tuple[object, ...]]:
        return frozenset().union(*(c.keys() for c in self.items))


@dataclass(frozen=True)
class And(_Many):
    def __str__(self) -> str:
        return " && ".join(_wrap(c) for c in self.items)


@dataclass(frozen=True)
class Or(_Many):
    def __str__(self) -> str:
        return " || ".join(_wrap(c) for c in self.items)


@dataclass(frozen=True)
class Xor(_Many):
    """Exactly one of the items is true (the seed's use of XOR to join interpretations)."""

    def __str__(self) -> str:
        return " ^^ ".join(_wrap(c) for c in self.items)


@dataclass(frozen=True)
class Not(Claim):
    item: Claim

    def seats(self) -> frozenset[Seat]:
        return self.item.seats()

    def keys(self) -> frozenset[tuple[object, ...]]:
        return self.item.keys()

    def __str__(self) -> str:
        return f"!{_wrap(self.item)}"


def _wrap(c: Claim) -> str:
    return f"({c})" if isinstance(c, _Many) else str(c)


# -- the claim language -------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(\d+)|(&&|\|\||\^\^|==|!=|<=|>=|[-+*<>!(),])|([A-Za-z_♠♥♦♣][\w♠♥♦♣]*))")
_SUITS = {"spades": Suit.S, "hearts": Suit.H, "diamonds": Suit.D, "clubs": Suit.C}


def _seat_word(word: str, viewer: Seat, declarer: Seat) -> Seat:
    w = word.lower()
    relative = {"lho": viewer.lho, "rho": viewer.rho, "partner": viewer.partner, "pard": viewer.partner,
                "dummy": declarer.partner, "declarer": declarer, "me": viewer, "we": viewer}
    if w in relative:
        return relative[w]
    return Seat.parse(word)


def parse_claim(text: str, *, viewer: "Seat | str" = Seat.S, declarer: "Seat | str | None" = None) -> Claim:
    """Parse a claim; relative seats (LHO, RHO, partner, dummy, declarer) are taken from ``viewer``.

    >>> str(parse_claim("hearts(LHO) >= 5 && hearts(LHO) > spades(LHO)", viewer="S"))
    'hearts(W) >= 5 && hearts(W) > spades(W)'
    """
    view = Seat.parse(viewer)
    decl = view if declarer is None else Seat.parse(declarer)
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise InvalidArgumentError(f"claim {text!r}: unexpected {text[pos:].strip()[:10]!r} at column {pos + 1}")
        kind = "num" if m.group(1) else "op" if m.group(2) else "name"
        tokens.append((kind, m.group(1) or m.group(2) or m.group(3), m.start() + len(m.group(0)) - len(m.group(0).lstrip())))
        pos = m.end()
    tokens.append(("end", "", len(text)))
    i = 0

    def err(message: str) -> InvalidArgumentError:
        return InvalidArgumentError(f"claim {text!r}, column {tokens[i][2] + 1}: {message}")

    def peek() -> tuple[str, str, int]:
        return tokens[i]

    def take() -> tuple[str, str, int]:
        nonlocal i
        t = tokens[i]
        i += 1
        return t

    def expect(value: str) -> None:
        if peek()[1] != value:
            raise err(f"expected {value!r}, found {peek()[1] or 'the end'!r}")
        take()

    def seat() -> Seat:
        kind, word, _ = take()
        try:
            return _seat_word(word, view, decl)
        except (DealerError, ValueError):
            raise err(f"expected a seat (LHO, RHO, partner, N, E, S, W, ...), found {word!r}") from None

    def as_claim(node: "Claim | Expr") -> Claim:
        if isinstance(node, Const):
            return Always(node.value != 0)
        if not isinstance(node, Claim):
            raise err("expected a condition, found a number")
        return node

    def or_() -> "Claim | Expr":
        items = [xor_()]
        while peek()[1] == "||" or peek()[1].lower() == "or":
            take()
            items.append(xor_())
        return items[0] if len(items) == 1 else Or(tuple(as_claim(x) for x in items))

    def xor_() -> "Claim | Expr":
        items = [and_()]
        while peek()[1] == "^^" or peek()[1].lower() == "xor":
            take()
            items.append(and_())
        return items[0] if len(items) == 1 else Xor(tuple(as_claim(x) for x in items))

    def and_() -> "Claim | Expr":
        items = [not_()]
        while peek()[1] == "&&" or peek()[1].lower() == "and":
            take()
            items.append(not_())
        return items[0] if len(items) == 1 else And(tuple(as_claim(x) for x in items))

    def not_() -> "Claim | Expr":
        if peek()[1] == "!" or peek()[1].lower() == "not":
            take()
            return Not(as_claim(not_()))
        return cmp_()

    def cmp_() -> "Claim | Expr":
        left = sum_()
        if peek()[1] in _COMPARE:
            op = take()[1]
            right = sum_()
            if not isinstance(left, Expr) or not isinstance(right, Expr):
                raise err(f"{op!r} compares numbers")
            return Compare(op, left, right)
        return left

    def sum_() -> "Claim | Expr":
        left = prod()
        while peek()[1] in ("+", "-"):
            op = take()[1]
            right = prod()
            if not isinstance(left, Expr) or not isinstance(right, Expr):
                raise err(f"{op!r} needs numbers")
            left = Arith(op, left, right)
        return left

    def prod() -> "Claim | Expr":
        left = atom()
        while peek()[1] == "*":
            take()
            right = atom()
            if not isinstance(left, Expr) or not isinstance(right, Expr):
                raise err("'*' needs numbers")
            left = Arith("*", left, right)
        return left

    def atom() -> "Claim | Expr":
        kind, word, _ = peek()
        if kind == "num":
            take()
            return Const(int(word))
        if word == "(":
            take()
            node = or_()
            expect(")")
            return node
        if word == "-":
            take()
            inner = atom()
            if not isinstance(inner, Expr):
                raise err("'-' needs a number")
            return Arith("-", Const(0), inner)
        if kind != "name":
            raise err(f"unexpected {word or 'end of claim'!r}")
        take()
        w = word.lower()
        if w in ("true", "false"):
            return Always(w == "true")
        expect("(")
        if w in _SUITS or w == "length":
            s = seat()
            if w == "length":
                expect(",")
                suit = _suit()
            else:
                suit = _SUITS[w]
            expect(")")
            return Length(s, suit)
        if w == "hcp":
            s = seat()
            expect(")")
            return Hcp(s)
        if w == "longest":
            s = seat()
            expect(",")
            k = take()
            if k[0] != "num" or not 1 <= int(k[1]) <= 4:
                raise err("longest(seat, k) needs k from 1 to 4")
            expect(")")
            return Longest(s, int(k[1]))
        if w in ("honours", "honors"):
            s = seat()
            expect(",")
            suit = _suit()
            expect(")")
            return Honours(s, suit)
        if w in ("rank", "hascard"):
            s = seat()
            expect(",")
            card_tok = take()[1]
            if peek()[0] == "name" and card_tok.isdigit():
                card_tok += take()[1]
            try:
                card = Card.parse(card_tok)
            except DealerError:
                try:
                    card = Card.parse(card_tok[-1] + card_tok[:-1])
                except DealerError:
                    raise err(f"invalid card {card_tok!r}") from None
            expect(")")
            return Rank(s, card) if w == "rank" else HasCard(s, card)
        raise err(f"unknown function {word!r}")

    def _suit() -> Suit:
        word = take()[1]
        try:
            return _SUITS.get(word.lower()) or Suit.parse(word)
        except (DealerError, ValueError):
            raise err(f"expected a suit, found {word!r}") from None

    node = or_()
    if peek()[0] != "end":
        raise err(f"unexpected {peek()[1]!r}")
    return as_claim(node)


# -- exact evaluation ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """What the viewer knows: unseen cards, each seat's known dealt cards, voids, concealed seats."""

    concealed: tuple[Seat, ...]
    unseen: int
    known: tuple[int, int, int, int]  # dealt cards known per seat (visible hands whole; played cards)
    voids: tuple[int, int, int, int]

    def with_card(self, card: Card, seat: Seat) -> "Position":
        """The same position with an unseen ``card`` known to be ``seat``'s."""
        known = list(self.known)
        known[seat] |= card.bit
        return Position(self.concealed, self.unseen & ~card.bit, tuple(known), self.voids)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Verdict:
    """Whether a claim holds in some lawful layout and in every one."""

    satisfiable: bool
    valid: bool


def _contributions(layout: tuple[Any, ...], param: tuple[Any, ...]) -> np.ndarray:
    """One suit's options as rows of the table's columns (see ``Evaluator._table``)."""
    width, _, hcp_needed, hcp_col = layout
    unseen_s, base, a_void, others_void, feats, keep_x, start = param
    specs = (("hcp", 0),) + feats if hcp_needed else feats
    opts = _suit_options(unseen_s, base, a_void, others_void, specs, False)  # (count, [hcp], feats...)
    contrib = np.zeros((len(opts), width), dtype=np.int64)
    contrib[:, 0] = opts[:, 0]
    col = 1
    if hcp_needed:
        contrib[:, hcp_col] = opts[:, 1]
        col = 2
    if keep_x:
        contrib[:, start] = opts[:, 0]
    for j in range(len(feats)):
        contrib[:, start + (1 if keep_x else 0) + j] = opts[:, col + j]
    return contrib


@lru_cache(maxsize=4096)
def _packed_prefix(layout: tuple[Any, ...], params: tuple[tuple[Any, ...], ...], vacancy: int) -> np.ndarray:
    """Packed table keys after the suits in ``params`` (cached by prefix: a card changes one suit)."""
    if not params:
        return np.zeros(1, dtype=np.int64)
    keys = _packed_prefix(layout, params[:-1], vacancy)
    radix = np.array(layout[1], dtype=np.int64)
    ckeys = _contributions(layout, params[-1]) @ radix
    combo = (keys[:, None] + ckeys[None, :]).ravel()
    return np.unique(combo[combo % 14 <= vacancy])


def _suit_options(unseen_suit: int, base: int, a_void: bool, others_void: bool, specs: tuple[tuple[str, int], ...],
                  full_suit: bool) -> np.ndarray:
    """Per-suit options for a seat: rows (count, feature...) over the subsets of the suit's unseen cards.

    ``specs``: per-suit features wanted, as (kind, argument): ("hcp", 0), ("hon", 0), ("above", card bit
    position in the suit), ("card", bit position). ``base`` is the seat's known cards in the suit.
    """
    return _suit_options_cached(unseen_suit, base, a_void, others_void, specs, full_suit)


@lru_cache(maxsize=4096)
def _suit_options_cached(unseen_suit: int, base: int, a_void: bool, others_void: bool,
                         specs: tuple[tuple[str, int], ...], full_suit: bool) -> np.ndarray:
    bits = [b for b in range(13) if unseen_suit >> b & 1]
    n = len(bits)
    subsets = np.arange(1 << n, dtype=np.int64)
    masks = np.zeros(1 << n, dtype=np.int64)
    for j, b in enumerate(bits):
        masks |= ((subsets >> j) & 1) << b
    if a_void:
        masks = masks[:1]
    elif others_void:
        masks = masks[-1:]
    dealt = masks | base
    cols = [np.array([int(m).bit_count() for m in masks.tolist()], dtype=np.int64)]
    for kind, arg in specs:
        if kind == "hcp":
            cols.append(cast(np.ndarray, sum(((dealt >> b) & 1) * (4 - b) for b in range(4))))
        elif kind == "hon":
            cols.append(np.array([int(m & _HONOURS).bit_count() for m in dealt.tolist()], dtype=np.int64))
        elif kind == "above":
            above = (1 << arg) - 1
            cols.append(np.array([int(m & above).bit_count() for m in dealt.tolist()], dtype=np.int64))
        elif kind == "card":
            cols.append((dealt >> arg) & 1)
        elif kind == "len":
            cols.append(np.array([int(m).bit_count() for m in dealt.tolist()], dtype=np.int64))
    table = np.stack(cols, axis=1)
    return cast(np.ndarray, _unique_rows(table))


class Evaluator:
    """Exact verdicts on claims, and feature supports, over a position's lawful layouts."""

    def __init__(self, position: Position) -> None:
        self.position = position
        concealed = position.concealed
        if len(concealed) > 3:
            raise InvalidArgumentError("at most three concealed seats")
        self.vacancy = {s: 13 - position.known[s].bit_count() for s in concealed}
        self._tables: dict[tuple[Seat, frozenset[tuple[object, ...]]], tuple[np.ndarray, dict[tuple[object, ...], int], Seat]] = {}

    # -- the feature table ------------------------------------------------------
    def table(self, keys: frozenset[tuple[object, ...]], a: Seat) -> tuple[np.ndarray, dict[tuple[object, ...], int], Seat]:
        """Achievable raw features of concealed seat ``a``, as rows; also the column index.

        With three concealed seats, only features of ``a`` (and of visible seats) can be read, and
        the rows are filtered so that the remainder is lawful for the other two.
        """
        cached = self._tables.get((a, keys))
        if cached is not None:
            return cached
        result = self._table(keys, a)
        self._tables[(a, keys)] = result
        return result

    def _table(self, keys: frozenset[tuple[object, ...]], a: Seat) -> tuple[np.ndarray, dict[tuple[object, ...], int], Seat]:
        pos = self.position
        if a not in pos.concealed:
            raise InvalidArgumentError(f"{a.name_long} is not concealed")
        others = tuple(s for s in pos.concealed if s != a)
        three = len(others) == 2
        hcp_needed = any(key[0] == "hcp" for key in keys)
        lengths_needed = {int(cast(int, key[2])) for key in keys if key[0] == "len"}
        per_suit: list[list[tuple[str, int]]] = [[], [], [], []]
        for key in sorted(keys, key=str):
            kind = key[0]
            if kind == "hon":
                per_suit[int(cast(int, key[2]))].append(("hon", 0))
            elif kind in ("above", "card"):
                card = CARDS[int(cast(int, key[2]))]
                per_suit[card.suit].append((kind, card.index % 13))
        # columns: 0 total count, [1 hcp], then per suit: [x_s], other per-suit features
        index: dict[tuple[object, ...], int] = {}
        width = 1
        if hcp_needed:
            index[("hcp",)] = width
            width += 1
        suit_specs = []
        for s in range(4):
            keep_x = three or s in lengths_needed
            feats = tuple(dict.fromkeys(per_suit[s]))
            cols: list[tuple[str, int]] = []
            if keep_x:
                index[("x", s)] = width + len(cols)
                cols.append(("x", 0))
            for kind, arg in feats:
                index[(kind, s * 13 + arg) if kind in ("above", "card") else (kind, s)] = width + len(cols)
                cols.append((kind, arg))
            suit_specs.append((keep_x, feats, width, len(cols)))
            width += len(cols)
        # each column's largest value, for packing a row into one int64 key
        top = [13] + ([37] if hcp_needed else [])
        for s in range(4):
            keep_x, feats, _, _ = suit_specs[s]
            if keep_x:
                top.append(13)
            top += [{"hon": 5, "above": 12, "card": 1}[kind] for kind, _ in feats]
        radix = np.ones(width, dtype=np.int64)
        for c in range(1, width):
            radix[c] = radix[c - 1] * (top[c - 1] + 1)
        packed_ok = float(radix[-1]) * (top[-1] + 1) < 2.0 ** 62
        rows = np.zeros((1, width), dtype=np.int64)
        params = []
        for s in range(4):
            keep_x, feats, start, ncols = suit_specs[s]
            unseen_s = pos.unseen >> (13 * s) & 0x1FFF
            base = pos.known[a] >> (13 * s) & 0x1FFF
            a_void = bool(pos.voids[a] >> s & 1)
            others_void = len(others) == 1 and bool(pos.voids[others[0]] >> s & 1)
            if three:
                others_void = all(pos.voids[o] >> s & 1 for o in others)
            params.append((unseen_s, base, a_void, others_void, feats, keep_x, start))
        layout = (width, tuple(int(r) for r in radix), hcp_needed, index.get(("hcp",), 0))
        if packed_ok:
            # the last suit's step keeps only full hands, so it is not worth caching or sorting first
            prefix = _packed_prefix(layout, tuple(params[:3]), self.vacancy[a])
            last = _contributions(layout, params[3]) @ np.array(layout[1], dtype=np.int64)
            combo = (prefix[:, None] + last[None, :]).ravel()
            keys = cast(Any, np.unique(combo[combo % 14 == self.vacancy[a]]))
        else:  # pragma: no cover - only for claims reading very many features
            for s in range(4):
                contrib = _contributions(layout, params[s])
                combo = (rows[:, None, :] + contrib[None, :, :]).reshape(-1, width)
                combo = combo[combo[:, 0] <= self.vacancy[a]]
                rows = _unique_rows(combo)
        if packed_ok:
            rows = (cast(np.ndarray, keys)[:, None] // radix[None, :]) % (np.array(top, dtype=np.int64) + 1)[None, :]
        else:  # pragma: no cover
            rows = rows[rows[:, 0] == self.vacancy[a]]
        if three:
            rows = rows[self._remainder_lawful(rows, index, a, others)]
        return rows, index, a

    def _remainder_lawful(self, rows: np.ndarray, index: dict[tuple[object, ...], int], a: Seat,
                          others: tuple[Seat, ...]) -> np.ndarray:
        pos = self.position
        j, l_ = others
        u = [(pos.unseen >> (13 * s) & 0x1FFF).bit_count() for s in range(4)]
        ok = np.ones(len(rows), dtype=bool)
        lo = np.zeros(len(rows), dtype=np.int64)
        hi = np.zeros(len(rows), dtype=np.int64)
        for s in range(4):
            rest = u[s] - rows[:, index[("x", s)]]
            j_void, l_void = pos.voids[j] >> s & 1, pos.voids[l_] >> s & 1
            if j_void and l_void:
                ok &= rest == 0
            lo += rest * (l_void and not j_void)
            hi += rest * (not j_void)
        return ok & (lo <= self.vacancy[j]) & (self.vacancy[j] <= hi)

    def features(self, rows: np.ndarray, index: dict[tuple[object, ...], int], a: Seat
                 ) -> Callable[[tuple[object, ...]], np.ndarray]:
        """A function from a raw feature key (of any seat) to its values over ``rows``."""
        pos = self.position
        n = len(rows)
        others = tuple(s for s in pos.concealed if s != a)

        def known_len(seat: Seat, s: int) -> int:
            return (pos.known[seat] >> (13 * s) & 0x1FFF).bit_count()

        def value(key: tuple[object, ...]) -> np.ndarray:
            kind, seat = key[0], key[1]
            assert isinstance(seat, Seat)
            if seat not in pos.concealed:
                hand = CardSet(pos.known[seat])
                if kind == "len":
                    v = hand.length(int(cast(int, key[2])))
                elif kind == "hcp":
                    v = hand.hcp
                elif kind == "hon":
                    v = (hand.holding(int(cast(int, key[2]))) & _HONOURS).bit_count()
                elif kind == "above":
                    c = CARDS[int(cast(int, key[2]))]
                    v = (hand.holding(c.suit) & ((1 << (c.index % 13)) - 1)).bit_count()
                else:
                    v = int(bool(pos.known[seat] >> int(cast(int, key[2])) & 1))
                return np.full(n, v, dtype=np.int64)
            if seat == a:
                if kind == "len":
                    s = int(cast(int, key[2]))
                    return rows[:, index[("x", s)]] + known_len(a, s)
                if kind == "hcp":
                    return rows[:, index[("hcp",)]]
                if kind == "hon":
                    return rows[:, index[("hon", int(cast(int, key[2])))]]
                return rows[:, index[(kind, int(cast(int, key[2])))]]
            if len(others) != 1:
                raise InvalidArgumentError(
                    f"with three concealed seats a claim may only speak of one of them ({a.name} here)")
            b = others[0]
            # the other concealed seat holds every unseen card A does not
            if kind == "len":
                s = int(cast(int, key[2]))
                u = (pos.unseen >> (13 * s) & 0x1FFF).bit_count()
                return known_len(b, s) + u - rows[:, index[("x", s)]]
            if kind == "hcp":
                total = CardSet(pos.unseen).hcp + CardSet(pos.known[b]).hcp + CardSet(pos.known[a]).hcp
                return total - value(("hcp", a))
            if kind == "hon":
                s = int(cast(int, key[2]))
                both = ((pos.unseen | pos.known[a] | pos.known[b]) >> (13 * s) & _HONOURS).bit_count()
                return both - rows[:, index[("hon", s)]]
            c = CARDS[int(cast(int, key[2]))]
            if kind == "card":
                held = int(bool((pos.unseen | pos.known[b]) >> c.index & 1))
                return held - rows[:, index[("card", c.index)]] if pos.unseen >> c.index & 1 else np.full(n, held)
            # above: cards of the suit above c, among unseen + known of both, minus A's
            s = c.suit
            above_mask = (1 << (c.index % 13)) - 1
            both = (((pos.unseen | pos.known[a] | pos.known[b]) >> (13 * s)) & above_mask).bit_count()
            return both - rows[:, index[("above", c.index)]]

        return value

    # -- claims -----------------------------------------------------------------------
    def focus(self, keys: "frozenset[tuple[object, ...]] | set[tuple[object, ...]]") -> Seat:
        """The concealed seat whose holdings are enumerated for these keys.

        With two concealed seats either will do (the other holds the rest); with three, the keys
        may name only one concealed seat.
        """
        pos = self.position
        if not pos.concealed:
            raise InvalidArgumentError("no concealed seat")
        named = [s for s in pos.concealed if any(k[1] == s for k in keys)]
        if len(pos.concealed) == 3 and len(named) > 1:
            raise InvalidArgumentError(
                "with three concealed seats a claim may speak of only one of them, not "
                + " and ".join(s.name_long for s in named))
        return named[0] if named else pos.concealed[0]

    def _needed(self, keys: "frozenset[tuple[object, ...]] | set[tuple[object, ...]]", a: Seat
                ) -> frozenset[tuple[object, ...]]:
        """Raw keys of seat ``a`` that express ``keys`` (the other concealed seat's, through ``a``'s)."""
        pos = self.position
        out: set[tuple[object, ...]] = set()
        for key in keys:
            if key[1] in pos.concealed:
                out.add((key[0], a) + key[2:])
        return frozenset(out)

    def truth(self, claim: Claim) -> np.ndarray:
        """The claim's truth value over every achievable feature row of the position."""
        a = self.focus(claim.keys())
        rows, index, _ = self.table(self._needed(claim.keys(), a), a)
        value = self.features(rows, index, a)
        return _evaluate(claim, value, len(rows))

    def satisfiable(self, claim: Claim) -> bool:
        """Exact: is the claim true in some lawful layout?"""
        pos = self.position
        named = [seat for seat in pos.concealed if any(key[1] == seat for key in claim.keys())]
        if len(pos.concealed) == 3 and len(named) > 1:
            # a witness proves it at once; only when random layouts find none is the exact pass run
            return random_witness(pos, claim) or bool(joint_support(pos, claim, [("len", pos.concealed[0], 0)]))
        return bool(self.truth(claim).any())

    def verdict(self, claim: Claim) -> Verdict:
        """Exact: true in some lawful layout? in all of them?"""
        pos = self.position
        named = [seat for seat in pos.concealed if any(key[1] == seat for key in claim.keys())]
        if len(pos.concealed) == 3 and len(named) > 1:
            target = [("len", pos.concealed[0], 0)]
            return Verdict(bool(joint_support(pos, claim, target)), not joint_support(pos, Not(claim), target))
        t = self.truth(claim)
        return Verdict(bool(t.any()), bool(t.all()) and len(t) > 0)

    def support(self, claim: Claim, features: Sequence[tuple[object, ...]]) -> dict[tuple[object, ...], tuple[int, int]]:
        """Min and max of each feature over the lawful layouts where ``claim`` holds (empty if none)."""
        pos = self.position
        named = {key[1] for key in set(claim.keys()) | set(features) if key[1] in pos.concealed}
        if len(pos.concealed) == 3 and len(named) > 1:
            return joint_support(pos, claim, features)
        keys = set(claim.keys()) | set(features)
        a = self.focus(keys)
        rows, index, _ = self.table(self._needed(keys, a), a)
        value = self.features(rows, index, a)
        t = _evaluate(claim, value, len(rows))
        out: dict[tuple[object, ...], tuple[int, int]] = {}
        if not t.any():
            return out
        for f in features:
            v = value(f)[t]
            out[f] = (int(v.min()), int(v.max()))
        return out


def _expr_of(key: tuple[object, ...]) -> Expr:
    kind, seat = key[0], key[1]
    assert isinstance(seat, Seat)
    if kind == "len":
        return Length(seat, Suit(int(cast(int, key[2]))))
    if kind == "hcp":
        return Hcp(seat)
    if kind == "hon":
        return Honours(seat, Suit(int(cast(int, key[2]))))
    card = CARDS[int(cast(int, key[2]))]
    return Rank(seat, card)


def _value(expr: Expr, value: Callable[[tuple[object, ...]], np.ndarray], n: int) -> np.ndarray:
    if isinstance(expr, Const):
        return np.full(n, expr.value, dtype=np.int64)
    if isinstance(expr, Length):
        return value(("len", expr.seat, int(expr.suit)))
    if isinstance(expr, Hcp):
        return value(("hcp", expr.seat))
    if isinstance(expr, Honours):
        return value(("hon", expr.seat, int(expr.suit)))
    if isinstance(expr, Rank):
        held = value(("card", expr.seat, expr.card.index))
        return np.where(held > 0, value(("above", expr.seat, expr.card.index)) + 1, 0)
    if isinstance(expr, Longest):
        lengths = np.sort(np.stack([value(("len", expr.seat, s)) for s in range(4)], axis=1), axis=1)[:, ::-1]
        return cast(np.ndarray, lengths[:, :expr.count].sum(axis=1))
    if isinstance(expr, Arith):
        return _ARITH[expr.op](_value(expr.left, value, n), _value(expr.right, value, n))
    raise TypeError(expr)  # pragma: no cover


def _evaluate(claim: Claim, value: Callable[[tuple[object, ...]], np.ndarray], n: int) -> np.ndarray:
    if isinstance(claim, Always):
        return np.full(n, claim.value)
    if isinstance(claim, Compare):
        return np.asarray(_COMPARE[claim.op](_value(claim.left, value, n), _value(claim.right, value, n)), dtype=bool)
    if isinstance(claim, HasCard):
        return value(("card", claim.seat, claim.card.index)) > 0
    if isinstance(claim, And):
        out = np.ones(n, dtype=bool)
        for c in claim.items:
            out &= _evaluate(c, value, n)
        return out
    if isinstance(claim, Or):
        out = np.zeros(n, dtype=bool)
        for c in claim.items:
            out |= _evaluate(c, value, n)
        return out
    if isinstance(claim, Xor):
        count = np.zeros(n, dtype=np.int64)
        for c in claim.items:
            count += _evaluate(c, value, n)
        return cast(np.ndarray, count == 1)
    if isinstance(claim, Not):
        return ~_evaluate(claim.item, value, n)
    raise TypeError(claim)  # pragma: no cover


def iter_atoms(claim: Claim) -> Iterator[Claim]:
    """The comparisons and card atoms of a claim, in order."""
    if isinstance(claim, _Many):
        for c in claim.items:
            yield from iter_atoms(c)
    elif isinstance(claim, Not):
        yield from iter_atoms(claim.item)
    else:
        yield claim


_ = Mapping


# -- three (or two) concealed seats jointly ----------------------------------------------------

def _assignments(unseen_suit: int, seats: tuple[Seat, ...], voids: tuple[int, ...], suit: int) -> np.ndarray:
    """Every lawful assignment of a suit's unseen cards to the concealed seats: per row, each seat's mask."""
    return _assignments_cached(unseen_suit, len(seats), tuple(bool(voids[s] >> suit & 1) for s in seats))


@lru_cache(maxsize=256)
def _assignments_cached(unseen_suit: int, k: int, void: tuple[bool, ...]) -> np.ndarray:
    bits = [b for b in range(13) if unseen_suit >> b & 1]
    allowed = [i for i in range(k) if not void[i]]
    if bits and not allowed:
        return np.zeros((0, k), dtype=np.int64)
    n = len(bits)
    m = len(allowed)
    codes = np.arange(m ** n, dtype=np.int64)
    masks = np.zeros((m ** n, k), dtype=np.int64)
    for j, b in enumerate(bits):
        owner = (codes // (m ** j)) % m
        for slot, seat_i in enumerate(allowed):
            masks[:, seat_i] |= (owner == slot).astype(np.int64) << b
    return masks


def _suit_feature(kind: str, arg: int, dealt: np.ndarray) -> np.ndarray:
    if kind == "len":
        return _popcount13(dealt)
    if kind == "hcp":
        return cast(np.ndarray, sum(((dealt >> b) & 1) * (4 - b) for b in range(4)))
    if kind == "hon":
        return _popcount13(dealt & _HONOURS)
    if kind == "above":
        return _popcount13(dealt & ((1 << arg) - 1))
    return (dealt >> arg) & 1  # card


_POP13 = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)


def _popcount13(values: np.ndarray) -> np.ndarray:
    return cast(np.ndarray, _POP13[values & 0x1FFF])


def _unique_rows(rows: np.ndarray, return_inverse: bool = False) -> Any:
    """``np.unique(rows, axis=0)`` by packing each row into one int64 key (fast); falls back if too wide."""
    if rows.shape[1] == 0:
        uniq = rows[:1] if len(rows) else rows
        return (uniq, np.zeros(len(rows), dtype=np.int64)) if return_inverse else uniq
    lo = rows.min(axis=0) if len(rows) else np.zeros(rows.shape[1], dtype=np.int64)
    span = (rows.max(axis=0) - lo + 1) if len(rows) else np.ones(rows.shape[1], dtype=np.int64)
    if float(np.prod(span.astype(np.float64))) >= 2.0 ** 62:
        out = np.unique(rows, axis=0, return_inverse=return_inverse)  # type: ignore[call-overload]
        return (out[0], out[1].reshape(-1)) if return_inverse else out
    radix = np.concatenate([np.cumprod(span[::-1])[::-1][1:], [1]]).astype(np.int64)
    keys = (rows - lo) @ radix
    if return_inverse:
        ukeys, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return rows[first], inverse.reshape(-1)
    _, first = np.unique(keys, return_index=True)
    return rows[first]


#: Most (state, option) pairs one step of a joint pass may build before it is refused.
JOINT_LIMIT = 20_000_000


def _constant_comparisons(claim: Claim) -> dict[tuple[object, ...], set[tuple[str, int]]]:
    """The features a claim reads only as ``feature op constant``: key -> {(op, constant)}.

    A feature that appears anywhere else (in a sum, a relation between features, ``longest``,
    ``rank``) is left out: its exact value matters.
    """
    found: dict[tuple[object, ...], set[tuple[str, int]]] = {}
    spoiled: set[tuple[object, ...]] = set()
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}

    def bare(expr: Expr) -> "tuple[object, ...] | None":
        if isinstance(expr, Hcp):
            return ("hcp", expr.seat)
        if isinstance(expr, Length):
            return ("len", expr.seat, int(expr.suit))
        if isinstance(expr, Honours):
            return ("hon", expr.seat, int(expr.suit))
        return None

    for atom in iter_atoms(claim):
        if not isinstance(atom, Compare):
            continue
        for side, other, op in ((atom.left, atom.right, atom.op), (atom.right, atom.left, flip[atom.op])):
            key = bare(side)
            if key is not None and isinstance(other, Const):
                found.setdefault(key, set()).add((op, int(other.value)))
            elif not isinstance(side, Const):
                spoiled.update(side.keys())
    return {key: tests for key, tests in found.items() if key not in spoiled}


def hcp_caps(claim: Claim) -> dict[tuple[object, ...], int]:
    """For each ``("hcp", seat)`` the claim only compares with constants: one more than the largest.

    HCP totals are sums of non-negative per-suit parts, so a running total can be clamped at the cap
    without changing any comparison: ``min(a + b, cap) == min(min(a, cap) + b, cap)``.
    """
    return {key: max(max(c for _, c in tests), 0) + 1
            for key, tests in _constant_comparisons(claim).items() if key[0] == "hcp"}


def value_classes(claim: Claim) -> dict[tuple[object, ...], np.ndarray]:
    """For each suit-local feature (a suit's length or honours) read only against constants: a table
    mapping each value 0..13 to the smallest value every comparison of the claim treats alike."""
    out: dict[tuple[object, ...], np.ndarray] = {}
    for key, tests in _constant_comparisons(claim).items():
        if key[0] == "hcp":
            continue
        signature: dict[tuple[bool, ...], int] = {}
        table = np.zeros(14, dtype=np.int64)
        for v in range(14):
            sig = tuple(bool(_COMPARE[op](v, c)) for op, c in sorted(tests))
            table[v] = signature.setdefault(sig, v)
        out[key] = table
    return out


def join_counts(prev: np.ndarray, contrib: np.ndarray, vac: Sequence[int], later: Sequence[int],
                limit: int | None = None, what: str = "the joint table") -> tuple[np.ndarray, np.ndarray]:
    """Pairs (state, option) that keep every seat within reach of its vacant places after a suit.

    Columns ``0 .. k-2`` of ``prev`` and ``contrib`` are the first concealed seats' counts of cards
    (the last seat's is what is left): after the suit a seat must neither pass its vacant places
    ``vac`` nor fall so short that the ``later`` unseen cards it may take cannot fill them. The
    first two seats' ranges are joined by sorting (no cross product); the last seat's is the
    caller's to check. Refuses (:class:`TooComplexError`) more than ``limit`` pairs (default
    :data:`JOINT_LIMIT`).
    """
    from .errors import TooComplexError

    limit = JOINT_LIMIT if limit is None else limit
    m = min(len(vac) - 1, 2)
    key = contrib[:, 0] if m == 1 else contrib[:, 0] * 14 + contrib[:, 1]
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    lo0 = vac[0] - later[0] - prev[:, 0]
    hi0 = vac[0] - prev[:, 0]
    if m == 1:
        lo = np.searchsorted(sorted_key, lo0, side="left")[:, None]
        hi = np.searchsorted(sorted_key, hi0, side="right")[:, None]
    else:  # one range of the second seat's count for each count of the first seat
        lo1 = np.maximum(vac[1] - later[1] - prev[:, 1], 0)
        hi1 = np.minimum(vac[1] - prev[:, 1], 13)
        c0 = np.maximum(lo0, 0)[:, None] + np.arange(14)[None, :]
        lo = np.searchsorted(sorted_key, c0 * 14 + lo1[:, None], side="left")
        hi = np.searchsorted(sorted_key, c0 * 14 + hi1[:, None], side="right")
        hi = np.where((c0 <= hi0[:, None]) & (hi1 >= lo1)[:, None], hi, lo)
    sizes = np.maximum(hi - lo, 0).reshape(-1)
    total = int(sizes.sum())
    if total > limit:
        raise TooComplexError(f"{what} would need {total:,} (state, holding) pairs in one suit, over the "
                              f"limit of {limit:,}: the claims relate too many features of the concealed hands")
    src = np.repeat(np.repeat(np.arange(len(prev)), lo.shape[1]), sizes)
    offsets = np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return src, order[np.repeat(lo.reshape(-1), sizes) + offsets]

def random_witness(position: Position, claim: Claim, n: int = 4096, seed: int = 0) -> bool:
    """True if one of ``n`` random lawful layouts satisfies ``claim`` (a proof); False proves nothing.

    Deterministic (a fixed seed), so a status never depends on the run. Layouts that break a void
    shown are dropped (they are not lawful).
    """
    pos = position
    seats = pos.concealed
    cards = np.array([i for i in range(52) if pos.unseen >> i & 1], dtype=np.int64)
    vac = [13 - pos.known[s].bit_count() for s in seats]
    if len(cards) != sum(vac) or not len(cards):
        return False
    labels = np.repeat(np.arange(len(seats)), vac)
    rng = np.random.default_rng(seed)
    perm = rng.permuted(np.broadcast_to(labels, (n, len(labels))), axis=1)
    bits = np.left_shift(np.int64(1), cards)
    dealt = {seat: (perm == i).astype(np.int64) @ bits | pos.known[seat] for i, seat in enumerate(seats)}
    ok = np.ones(n, dtype=bool)
    for seat in seats:
        for s in range(4):
            if pos.voids[seat] >> s & 1:
                ok &= (dealt[seat] >> (13 * s) & 0x1FFF) == (pos.known[seat] >> (13 * s) & 0x1FFF)
    if not ok.any():
        return False
    hands = {seat: dealt[seat][ok] for seat in seats}
    m = int(ok.sum())

    def value(key: tuple[object, ...]) -> np.ndarray:
        seat = cast(Seat, key[1])
        hand = hands[seat] if seat in hands else np.full(m, pos.known[seat], dtype=np.int64)
        kind = str(key[0])
        if kind == "hcp":
            return sum((_suit_feature("hcp", 0, hand >> (13 * s) & 0x1FFF) for s in range(4)),
                       np.zeros(m, dtype=np.int64))
        if kind in ("len", "hon"):
            return _suit_feature(kind, 0, hand >> (13 * int(cast(int, key[2]))) & 0x1FFF)
        card = CARDS[int(cast(int, key[2]))]
        return _suit_feature(kind, card.index % 13, hand >> (13 * card.suit) & 0x1FFF)

    return bool(_evaluate(claim, value, m).any())


def joint_support(position: Position, claim: Claim, targets: Sequence[tuple[object, ...]]
                  ) -> dict[tuple[object, ...], tuple[int, int]]:
    """Min and max of each target feature over the lawful layouts where ``claim`` holds (empty if none).

    Exact for any claim over any concealed seats: each suit's unseen cards are assigned to the
    concealed seats in every lawful way, grouped by the features the claim needs; a forward pass
    over the suits finds the reachable states (cards held so far, features so far), a backward pass
    keeps those from which the claim can be met, and the targets' extremes are read off them.
    """
    pos = position
    seats = pos.concealed
    k = len(seats)
    vac = [13 - pos.known[s].bit_count() for s in seats]
    # features the claim reads, per suit: (kind, seat index, arg) -> accumulated as state columns
    claim_keys = sorted({key for key in claim.keys() if key[1] in seats}, key=str)
    state_cols: list[tuple[str, int, int, int]] = []  # (kind, seat idx, suit or -1, arg)
    for key in claim_keys:
        kind, seat = str(key[0]), seats.index(key[1])
        if kind == "hcp":
            state_cols.append(("hcp", seat, -1, 0))
        elif kind in ("len", "hon"):
            state_cols.append((kind, seat, int(cast(int, key[2])), 0))
        else:
            card = CARDS[int(cast(int, key[2]))]
            state_cols.append((kind, seat, card.suit, card.index % 13))
    length_targets = [t for t in targets if t[0] == "len" and t[1] in seats]
    hcp_targets = [t for t in targets if t[0] == "hcp" and t[1] in seats]
    # per-suit option tables: columns = counts of the first k-1 seats, state columns, then target values
    options = []
    for s in range(4):
        unseen_s = pos.unseen >> (13 * s) & 0x1FFF
        masks = _assignments(unseen_s, seats, pos.voids, s)
        dealt = masks | np.array([pos.known[seat] >> (13 * s) & 0x1FFF for seat in seats], dtype=np.int64)
        counts = _popcount13(masks)
        cols = [counts[:, i] for i in range(k - 1)]
        for kind, si, suit, arg in state_cols:
            if kind == "hcp" or suit == s:
                cols.append(_suit_feature(kind, arg, dealt[:, si]))
            else:
                cols.append(np.zeros(len(masks), dtype=np.int64))
        key_part = np.stack(cols, axis=1) if cols else np.zeros((len(masks), 0), dtype=np.int64)
        extra = [counts[:, seats.index(t[1])] for t in length_targets if int(t[2]) == s]  # type: ignore
        hcps = [_suit_feature("hcp", 0, dealt[:, seats.index(t[1])]) for t in hcp_targets]
        options.append((key_part, counts, extra, hcps))
    # forward pass over states (key columns only, additive); HCP totals the claim only compares with
    # constants are clamped (see hcp_caps), and each state meets only the options that keep every
    # seat within reach of its vacant places
    width = (k - 1) + len(state_cols)
    caps = hcp_caps(claim)
    capped = [(k - 1 + j, caps[("hcp", seats[si])]) for j, (kind, si, _, _) in enumerate(state_cols)
              if kind == "hcp" and ("hcp", seats[si]) in caps]
    classes = value_classes(claim)  # a suit's length or honours: only which side of each constant counts
    classed = [(k - 1 + j, classes[(kind, seats[si], suit)]) for j, (kind, si, suit, _) in enumerate(state_cols)
               if kind in ("len", "hon") and (kind, seats[si], suit) in classes]
    forward = [np.zeros((1, width), dtype=np.int64)]
    links = []
    for s in range(4):
        key_part = options[s][0]
        for col, cap in capped:
            key_part[:, col] = np.minimum(key_part[:, col], cap)
        for col, table in classed:
            if state_cols[col - (k - 1)][2] == s:
                key_part[:, col] = table[key_part[:, col]]
        uniq_opts, opt_index = _unique_rows(key_part, return_inverse=True)
        f = forward[s]
        later = [sum(bin(pos.unseen >> (13 * t) & 0x1FFF).count("1") for t in range(s + 1, 4)
                     if not pos.voids[seat] >> t & 1) for seat in seats]
        if k > 1:
            src, opt = join_counts(f, uniq_opts, vac, later, what="an exact check of claims on three hands")
        else:
            src = np.repeat(np.arange(len(f)), len(uniq_opts))
            opt = np.tile(np.arange(len(uniq_opts)), len(f))
        combo = f[src] + uniq_opts[opt]
        for col, cap in capped:
            np.minimum(combo[:, col], cap, out=combo[:, col])
        ok = np.ones(len(combo), dtype=bool)
        for i in range(1, k - 1):
            ok &= (combo[:, i] <= vac[i]) & (combo[:, i] >= vac[i] - later[i])
        # the last seat's count so far must not pass its hand size either, nor fall out of reach
        dealt_so_far = sum(bin(pos.unseen >> (13 * t) & 0x1FFF).count("1") for t in range(s + 1))
        last = dealt_so_far - combo[:, :k - 1].sum(axis=1)
        ok &= (last <= vac[-1]) & (last >= vac[-1] - later[-1])
        nxt, inv = _unique_rows(combo[ok], return_inverse=True)
        links.append((src[ok], opt[ok], inv, uniq_opts, opt_index))
        forward.append(nxt)
    final = forward[4]
    accept = np.ones(len(final), dtype=bool)
    for i in range(k - 1):
        accept &= final[:, i] == vac[i]
    # the last seat's count is then right too (totals match)
    if accept.any():
        value = _joint_values(final, state_cols, seats, pos, k)
        accept &= _evaluate(claim, value, len(final))
    if not accept.any():
        return {}
    # backward: which states can still reach an accepted final state
    alive = [np.zeros(len(f), dtype=bool) for f in forward]
    alive[4] = accept
    for s in range(3, -1, -1):
        src, opt, inv, _, _ = links[s]
        good = alive[s + 1][inv]
        alive[s][src[good]] = True
    out: dict[tuple[object, ...], tuple[int, int]] = {}
    # length targets: options used on live edges at their suit
    for t in length_targets:
        s = int(cast(int, t[2]))
        seat_i = seats.index(t[1])
        src, opt, inv, uniq_opts, opt_index = links[s]
        live_edge = alive[s][src] & alive[s + 1][inv]
        used_opts = np.unique(opt[live_edge])
        key_part, counts, _, _ = options[s]
        rows = np.isin(opt_index, used_opts)
        vals = counts[rows, seat_i]
        base = (pos.known[cast(Seat, t[1])] >> (13 * s) & 0x1FFF).bit_count()
        out[t] = (base + int(vals.min()), base + int(vals.max()))
    # HCP targets: max-plus / min-plus over live edges, per option group extremes
    for j, t in enumerate(hcp_targets):
        best_hi = np.full(len(forward[0]), 0, dtype=np.int64)
        best_lo = np.full(len(forward[0]), 0, dtype=np.int64)
        for s in range(4):
            src, opt, inv, uniq_opts, opt_index = links[s]
            hv = options[s][3][j]
            grp_hi = np.full(len(uniq_opts), -10 ** 6, dtype=np.int64)
            grp_lo = np.full(len(uniq_opts), 10 ** 6, dtype=np.int64)
            np.maximum.at(grp_hi, opt_index, hv)
            np.minimum.at(grp_lo, opt_index, hv)
            live_edge = alive[s][src] & alive[s + 1][inv]
            nxt_hi = np.full(len(forward[s + 1]), -10 ** 6, dtype=np.int64)
            nxt_lo = np.full(len(forward[s + 1]), 10 ** 6, dtype=np.int64)
            np.maximum.at(nxt_hi, inv[live_edge], best_hi[src[live_edge]] + grp_hi[opt[live_edge]])
            np.minimum.at(nxt_lo, inv[live_edge], best_lo[src[live_edge]] + grp_lo[opt[live_edge]])
            best_hi, best_lo = nxt_hi, nxt_lo
        # dealt HCP: the per-suit values already include the seat's known cards of each suit
        out[t] = (int(best_lo[alive[4]].min()), int(best_hi[alive[4]].max()))
    return out


def state_columns(state_cols: Sequence[tuple[str, int, int, int]], seats: Sequence[Seat], start: int
                  ) -> dict[tuple[object, ...], int]:
    """Feature key -> column of a joint pass's state rows, for state columns (kind, seat index, suit, arg)
    laid out from column ``start``."""
    column: dict[tuple[object, ...], int] = {}
    for c, (kind, si, suit, arg) in enumerate(state_cols, start=start):
        if kind == "hcp":
            column[("hcp", seats[si])] = c
        elif kind in ("len", "hon"):
            column[(kind, seats[si], suit)] = c
        else:
            column[(kind, seats[si], suit * 13 + arg)] = c
    return column


def feature_values(rows: np.ndarray, column: Mapping[tuple[object, ...], int], pos: Position
                   ) -> Callable[[tuple[object, ...]], np.ndarray]:
    """The feature reader ``_evaluate`` needs: a state column where there is one, else the value of
    the seat's known cards (a visible hand, or what is known of a concealed one), the same on every row."""
    n = len(rows)

    def value(key: tuple[object, ...]) -> np.ndarray:
        if key in column:
            return rows[:, column[key]]
        seat = key[1]
        assert isinstance(seat, Seat)
        hand = CardSet(pos.known[seat])
        kind = key[0]
        if kind == "len":
            v = hand.length(int(cast(int, key[2])))
        elif kind == "hcp":
            v = hand.hcp
        elif kind == "hon":
            v = (hand.holding(int(cast(int, key[2]))) & _HONOURS).bit_count()
        elif kind == "above":
            c = CARDS[int(cast(int, key[2]))]
            v = (hand.holding(c.suit) & ((1 << (c.index % 13)) - 1)).bit_count()
        else:
            v = int(bool(pos.known[seat] >> int(cast(int, key[2])) & 1))
        return np.full(n, v, dtype=np.int64)

    return value


def _joint_values(final: np.ndarray, state_cols: list[tuple[str, int, int, int]], seats: tuple[Seat, ...],
                  pos: Position, k: int) -> Callable[[tuple[object, ...]], np.ndarray]:
    return feature_values(final, state_columns(state_cols, seats, k - 1), pos)
