"""Bidding books as data: the TOML format, loaded and checked into frozen values.

A book (``inference/data/auction/*.toml``; the format is documented in ``docs/auction.rst``) is a
list of rules. A rule matches a *context* and a *call*:

* ``after``: the calls from the opening bid (the first call that is not a pass) up to the call,
  space-separated, oldest first; the last one is the caller's RHO's, the one before partner's.
  ``""`` (the default) matches an unopened auction. A token is a call (``P``, ``X``, ``XX``,
  ``1C`` ... ``7N``), ``*`` (any call), ``B`` (any bid) or a level with a *suit variable*: ``M``
  (a major), ``m`` (a minor), ``x``/``y`` (any suit). One letter binds one suit throughout the
  rule, and different letters bind different suits.
* ``call``: one token, as above (``1M``, ``2x``, ``P``, ``2N``).
* ``seat``: the caller's positions from the dealer (1-4) it applies to (default: all).
* ``jump``: the bid is (true) or is not (false) above the lowest level its strain could be bid at.
* ``vulnerable``: the caller's side is (true) or is not (false) vulnerable (default: either).
* ``side``, ``round``, ``contested``: instead of ``after``, a *general* rule matches the call by its
  context whatever came before: the caller's side (``unopened``, ``opener``, ``other``), the rounds
  of the auction (1, 2, 3 for the third and later; default: any) and whether the side that did not
  open has called since the opening (default: either). Put general rules after the specific ones.

and gives claims about the caller in the claim language (:mod:`inference.claims.language`), written with
the seat word ``caller`` and placeholders: ``{x}`` the suit bound to ``x`` (``spades`` ...),
``{x_letter}`` its letter (``S``),
``{other_M}`` the other major, ``{other_m}`` the other minor, and the book's ``params``
(``{nt_low}``). Each claim has a tag, fallbacks (one step wider) and a label; the rule has a
one-line ``meaning`` the narration prints after the caller's seat ("W passed in first seat: at
most 11 HCP").

>>> book = load_book("sayc")
>>> book.rule_by_id("open-1nt").call
'1N'
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from dealer import Seat

from inference.claims.language import parse_claim, quote
from inference.errors import InvalidArgumentError
from inference.claims.inferences import Tag, TagField

__all__ = ["CALL_TOKEN", "SIDES", "CONTEXT_FIELDS", "BookClaim", "Rule", "Book", "load_book", "available_books", "render", "with_base"]

#: A call's side in its auction: nobody has bid yet, the opening side, or its opponents.
SIDES = ("unopened", "opener", "other")
#: Who bid a bid's strain before it, as a general rule may ask (``strain_bid_by``).
STRAIN_BIDDERS = ("none", "caller", "partner", "opponents")
#: What a general rule (one with a ``side``) may ask of a call's context, each a field of :class:`Rule` and
#: a property of ``CallContext`` by the same name (``round``: one of the rule's rounds; the rest: equal).
CONTEXT_FIELDS = ("round", "contested", "caller_bid", "first_bidder", "strain_bid_by", "partner_notrump", "asked")
#: What partner's last call may have asked (``asked``): a slam convention's question, or nothing.
ASKS = ("none", "blackwood", "gerber")

#: One token of a rule's ``after`` or ``call``: a call, ``*``, ``B`` or a level and a suit variable.
CALL_TOKEN = re.compile(r"^(?:P|X|XX|\*|B|[1-7][CDHSN]|[1-7*][Mmxy])$")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z_0-9]*)\}")
_SAMPLE = {"x": "spades", "y": "hearts", "M": "spades", "m": "clubs", "other_M": "hearts", "other_m": "diamonds",
           "x_letter": "S", "y_letter": "H", "M_letter": "S", "m_letter": "C", "trump": "hearts", "trump_letter": "H"}


def render(text: str, caller: Seat | None, values: dict[str, Any]) -> str:
    """A claim template with ``caller`` (unless None) and its ``{placeholders}`` filled in.

    >>> render("length(caller, {x}) >= 5", Seat.W, {"x": "hearts"})
    'length(W, hearts) >= 5'
    """
    def fill(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            raise InvalidArgumentError(f"claim {quote(text)}: unknown placeholder {{{key}}}")
        return str(values[key])

    filled = _PLACEHOLDER.sub(fill, text)
    return filled if caller is None else re.sub(r"\bcaller\b", caller.name, filled)


class BookClaim(BaseModel):
    """One claim of a rule: its text (with ``caller`` and placeholders), tag, fallbacks, label."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    tag: TagField = Tag.UNSPECIFIED
    fallbacks: tuple[str, ...] = ()
    label: str = ""

    @field_validator("fallbacks", mode="before")
    @classmethod
    def _fallbacks(cls, v: Any) -> tuple[str, ...]:
        return (v,) if isinstance(v, str) else tuple(v)


class Rule(BaseModel):
    """A rule: the context and call it matches, what it means, and its claims about the caller."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    family: str
    meaning: str
    call: str
    after: tuple[str, ...] = ()
    seat: tuple[int, ...] = (1, 2, 3, 4)
    jump: bool | None = None
    vulnerable: bool | None = None
    side: str | None = None
    round: tuple[int, ...] | None = None
    contested: bool | None = None
    caller_bid: bool | None = None
    first_bidder: bool | None = None
    strain_bid_by: str | None = None
    partner_notrump: bool | None = None
    asked: str | None = None
    artificial: bool = False
    claim: tuple[BookClaim, ...] = Field(default_factory=tuple)

    @property
    def general(self) -> bool:
        """Whether the rule matches a call by its context (a side, or what partner asked), not by ``after``."""
        return self.side is not None or self.asked is not None

    @field_validator("round", mode="before")
    @classmethod
    def _round(cls, v: Any) -> tuple[int, ...] | None:
        rounds = None if v is None else (v,) if isinstance(v, int) else tuple(v)
        if rounds is not None and (not rounds or any(not isinstance(r, int) or not 1 <= r <= 3 for r in rounds)):
            raise ValueError(f"round must be 1, 2 or 3 (the third and later), got {v!r}")
        return rounds

    @field_validator("after", mode="before")
    @classmethod
    def _after(cls, v: Any) -> tuple[str, ...]:
        return tuple(v.split()) if isinstance(v, str) else tuple(v)

    @field_validator("seat", mode="before")
    @classmethod
    def _seat(cls, v: Any) -> tuple[int, ...]:
        seats = (v,) if isinstance(v, int) else tuple(v)
        if not seats or any(not isinstance(s, int) or not 1 <= s <= 4 for s in seats):
            raise ValueError(f"seat must be positions 1-4 from the dealer, got {v!r}")
        return seats

    @model_validator(mode="after")
    def _tokens(self) -> "Rule":
        if self.side is not None and self.side not in SIDES:
            raise ValueError(f"rule {self.id!r}: side must be one of {', '.join(SIDES)}, got {self.side!r}")
        sided = [name for name in CONTEXT_FIELDS if name != "asked"]  # 'asked' matches with or without a side
        if self.side is None and any(getattr(self, name) is not None for name in sided):
            raise ValueError(f"rule {self.id!r}: {', '.join(sided[:-1])} and {sided[-1]} need a "
                             "side (unopened, opener, other)")
        if self.asked is not None and self.asked not in ASKS:
            raise ValueError(f"rule {self.id!r}: asked must be one of {', '.join(ASKS)}, got {self.asked!r}")
        if self.strain_bid_by is not None and self.strain_bid_by not in STRAIN_BIDDERS:
            raise ValueError(f"rule {self.id!r}: strain_bid_by must be one of {', '.join(STRAIN_BIDDERS)}, "
                             f"got {self.strain_bid_by!r}")
        if self.general and self.after:
            raise ValueError(f"rule {self.id!r}: a rule with a side or an 'asked' matches whatever came before: "
                             "no 'after'")
        for token in (*self.after, self.call):
            if not CALL_TOKEN.match(token):
                raise ValueError(f"rule {self.id!r}: invalid call token {token!r}: expected P, X, XX, *, B, "
                                 "a bid such as 1N, or a level (or * for any) and a suit variable (1M, 2m, 1x, *y)")
        return self


class Book(BaseModel):
    """A bidding book: its name, parameters and rules (the first rule that matches a call wins)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str = ""
    params: dict[str, int | str] = Field(default_factory=dict)
    rule: tuple[Rule, ...] = Field(default_factory=tuple)

    @model_validator(mode="after")
    def _check(self) -> "Book":
        seen: set[str] = set()
        for rule in self.rule:
            if rule.id in seen:
                raise ValueError(f"rule id {rule.id!r} appears twice")
            seen.add(rule.id)
            values: dict[str, Any] = {**_SAMPLE, **self.params}
            try:
                render(rule.meaning, None, values)
            except InvalidArgumentError as exc:
                raise ValueError(f"rule {rule.id!r}: meaning: {exc}") from None
            for claim in rule.claim:
                for text in (claim.text, *claim.fallbacks):
                    try:
                        parse_claim(render(text, Seat.N, values))
                    except InvalidArgumentError as exc:
                        raise ValueError(f"rule {rule.id!r}: {exc}") from None
        return self

    def rule_by_id(self, rule_id: str) -> Rule:
        """The rule with this id."""
        for rule in self.rule:
            if rule.id == rule_id:
                return rule
        raise InvalidArgumentError(f"book {self.name!r} has no rule {rule_id!r}")


def available_books() -> list[str]:
    """Names of the books shipped in ``inference/data/auction``."""
    base = resources.files("inference") / "data" / "auction"
    return sorted(p.name[:-5] for p in base.iterdir() if p.name.endswith(".toml"))


def load_book(name_or_path: "str | Path | Book") -> Book:
    """A shipped book by name (``sayc``, ``natural-wide``) or a TOML file of your own.

    A shipped book is read and checked once per process; a file of your own each time it is asked for.
    """
    if isinstance(name_or_path, Book):
        return name_or_path
    if isinstance(name_or_path, str) and name_or_path in available_books():
        return _shipped_book(name_or_path)
    return _read_book(name_or_path)


@lru_cache(maxsize=16)
def _shipped_book(name: str) -> Book:
    return _read_book(name)


def _read_book(name_or_path: "str | Path") -> Book:
    path = Path(name_or_path)
    try:
        if path.suffix == ".toml" and path.exists():
            text, where = path.read_text(encoding="utf-8"), str(path)
        else:
            res = resources.files("inference") / "data" / "auction" / f"{name_or_path}.toml"
            text, where = res.read_text(encoding="utf-8"), f"auction/{name_or_path}.toml"
    except (OSError, FileNotFoundError):
        raise InvalidArgumentError(f"unknown book {quote(str(name_or_path))}: known are "
                                   f"{', '.join(available_books())}, or a .toml file") from None
    try:
        return Book.model_validate(with_base(tomllib.loads(text), where))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidArgumentError(f"{where}: {exc}") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        place = ".".join(str(x) for x in err["loc"])
        raise InvalidArgumentError(f"{where}: {place}: {err['msg'].removeprefix('Value error, ')}") from None


def with_base(data: dict[str, Any], where: str, depth: int = 0) -> dict[str, Any]:
    """A book's data with its ``base`` book's merged in: the base's rules, in their order, each replaced by
    the book's rule of the same id; the book's other rules first (before the base's, so that they are tried
    first); the ids in ``drop`` left out; ``params`` the base's updated by the book's."""
    data = dict(data)
    base_name, drop = data.pop("base", None), data.pop("drop", [])
    if base_name is None:
        if drop:
            raise InvalidArgumentError(f"{where}: drop: a book drops rules of its base, and it has none")
        return data
    if base_name not in available_books() or depth > 4:
        raise InvalidArgumentError(f"{where}: base: unknown shipped book {quote(str(base_name))} (known: "
                                   f"{', '.join(available_books())})")
    res = resources.files("inference") / "data" / "auction" / f"{base_name}.toml"
    base = with_base(tomllib.loads(res.read_text(encoding="utf-8")), f"auction/{base_name}.toml", depth + 1)
    own = {r.get("id"): r for r in data.get("rule", [])}
    unknown = [i for i in [*drop, *own] if i in drop and i not in {r.get("id") for r in base.get("rule", [])}]
    if unknown:
        raise InvalidArgumentError(f"{where}: drop: {quote(str(unknown[0]))} is not a rule of {base_name}")
    kept = [own.pop(r.get("id"), r) for r in base.get("rule", []) if r.get("id") not in drop]
    return {**base, **data, "params": {**base.get("params", {}), **data.get("params", {})},
            "rule": [r for r in data.get("rule", []) if r.get("id") in own] + kept}
