"""Leads and signals read relative to the card played, under the defenders' agreements.

A lead of a spot can be the highest, second, ..., fifth card of a holding of
two to eight cards; which of those are possible depends on the cards of the
suit the viewer cannot see (source article, section XIV). Each possibility is
an interpretation, tagged by the lead agreement (data files in
``inference/data/leads``), and they are joined by XOR in one group; as cards
are seen each becomes impossible or is confirmed (section XV).

Carding agreements (``inference/data/carding``) turn a defender's high-low or
low-high in a suit into a count claim.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from dealer import CARDS, Card, Seat, Suit

from inference.errors import InvalidArgumentError
from inference.claims.inferences import Inference, Tag, TagField

__all__ = ["LeadRule", "LeadAgreement", "CardingAgreement", "load_lead_agreement", "load_carding_agreement",
           "lead_interpretations", "count_signal", "available_agreements", "ORDINALS"]

ORDINALS = {1: "highest", 2: "second-highest", 3: "third-highest", 4: "fourth-highest", 5: "fifth-highest"}
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _lengths(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, int):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(int(v) for v in value)
    text = str(value).strip()
    if ".." in text:
        lo, hi = text.split("..")
        return tuple(range(int(lo), int(hi or 13) + 1))
    return (int(text),)


class LeadRule(BaseModel):
    """Which interpretations a rule tags: position from the top, holding length, spots/honour-headed, sequence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str = ""
    position: int | None = None
    length: tuple[int, ...] | None = None
    holding: str | None = None
    sequence: bool = False
    tag: TagField

    @field_validator("length", mode="before")
    @classmethod
    def _length(cls, v: Any) -> tuple[int, ...] | None:
        return _lengths(v)

    @field_validator("holding")
    @classmethod
    def _holding(cls, v: str | None) -> str | None:
        if v not in (None, "spots", "honour"):
            raise ValueError(f"holding must be 'spots' or 'honour', got {v!r}")
        return v

    def matches(self, position: int, length: int, holding: str | None, sequence: bool) -> bool:
        if self.sequence != sequence:
            return False
        if self.position is not None and self.position != position:
            return False
        if self.length is not None and length not in self.length:
            return False
        return self.holding is None or self.holding == holding


class LeadAgreement(BaseModel):
    """A partnership's lead agreement: rules tagging each interpretation, and a default tag."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str = ""
    honours: str = "AKQJT"
    split_three: bool = True
    sequences: bool = True
    default: TagField = Tag.INCONSISTENT
    rule: tuple[LeadRule, ...] = Field(default_factory=tuple)

    @field_validator("honours")
    @classmethod
    def _honours(cls, v: str) -> str:
        if v.upper() != "AKQJT":
            raise ValueError("only honours = 'AKQJT' is supported (the claim language counts A K Q J T)")
        return v.upper()

    def tag_for(self, position: int, length: int, holding: str | None, sequence: bool = False) -> tuple[Tag, str]:
        for rule in self.rule:
            if rule.matches(position, length, holding, sequence):
                return rule.tag, rule.label
        return self.default, ""


class CardingAgreement(BaseModel):
    """A signalling agreement; today count: what high-low and low-high show."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str = ""
    kind: str = "count"
    high_low: str = "even"
    low_high: str = "odd"


def _load(model: type[BaseModel], folder: str, name_or_path: "str | Path") -> Any:
    path = Path(name_or_path)
    try:
        if path.suffix == ".toml" and path.exists():
            text, where = path.read_text(encoding="utf-8"), str(path)
        else:
            res = resources.files("inference") / "data" / folder / f"{name_or_path}.toml"
            text, where = res.read_text(encoding="utf-8"), f"{folder}/{name_or_path}.toml"
    except (OSError, FileNotFoundError):
        known = ", ".join(available_agreements(folder))
        kind = folder[:-1] if folder.endswith("s") else folder  # leads: a lead agreement; carding: a carding one
        raise InvalidArgumentError(f"unknown {kind} agreement {str(name_or_path)!r}: known are {known}") from None
    try:
        return model.model_validate(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise InvalidArgumentError(f"{where}: {exc}") from None


def available_agreements(folder: str = "leads") -> list[str]:
    """Names of the agreements shipped in ``inference/data/<folder>``."""
    base = resources.files("inference") / "data" / folder
    return sorted(p.name[:-5] for p in base.iterdir() if p.name.endswith(".toml"))


def load_lead_agreement(name_or_path: "str | Path") -> LeadAgreement:
    """A shipped lead agreement by name (``fourth-best-nt``) or a TOML file of your own."""
    return _load(LeadAgreement, "leads", name_or_path)  # type: ignore[no-any-return]


def load_carding_agreement(name_or_path: "str | Path") -> CardingAgreement:
    """A shipped carding agreement by name (``standard-count``) or a TOML file of your own."""
    return _load(CardingAgreement, "carding", name_or_path)  # type: ignore[no-any-return]


def _describe(k: int, n: int, holding: str | None) -> str:
    if n == 2:
        return "higher of two cards" if k == 1 else "lower of two cards"
    what = {"spots": "spots", "honour": "cards headed by an honour"}.get(holding or "", "cards")
    return f"{ORDINALS[k]} of {_NUMBERS[n]} {what}"


def lead_interpretations(card: "Card | str", leader: Seat, defenders_cards: int, agreement: LeadAgreement,
                         *, group: str = "lead", min_length: int = 2, max_length: int = 8) -> list[Inference]:
    """Every lawful reading of a lead as an inference, tagged by ``agreement``, grouped for XOR.

    ``defenders_cards``: mask of the cards of the suit the viewer cannot see at the lead (those
    still unseen plus those the defenders have played, the lead included).
    """
    c = Card.parse(card)
    suit = c.suit
    word = suit.name_long
    in_suit = [CARDS[i] for i in range(13 * suit, 13 * suit + 13) if defenders_cards >> i & 1]
    if c not in in_suit:
        raise InvalidArgumentError(f"the lead {c} is not among the defenders' cards of {word}")
    above = sum(1 for x in in_suit if x.rank > c.rank)
    below = sum(1 for x in in_suit if x.rank < c.rank)
    seat = leader.name
    out: list[Inference] = []
    exclusion = ""
    if agreement.sequences and c.rank.hcp >= 2:  # Q or better can top three honours
        nxt = [Card(suit, c.rank - 1), Card(suit, c.rank - 2)]
        if all(x in in_suit for x in nxt):
            seq = f"hascard({seat}, {nxt[0]}) && hascard({seat}, {nxt[1]})"
            exclusion = f" && !({seq})"
            tag, label = agreement.tag_for(1, 3, None, sequence=True)
            out.append(Inference(name=f"{group}: top of a sequence", by=leader, action=f"lead {c}", kind="lead",
                                 claim=f"rank({seat}, {c}) == 1 && {seq}", tag=tag, group=group))
    for k in range(1, min(5, above + 1) + 1):
        for n in range(max(k, min_length), min(max_length, k + below) + 1):
            holdings: Sequence[str | None] = ("spots", "honour") if (n == 3 and agreement.split_three) else (None,)
            for holding in holdings:
                if holding == "honour" and above < 1 and not c.rank >= 10:
                    continue  # nothing above the card could make it honour-headed
                claim = f"{word}({seat}) == {n} && rank({seat}, {c}) == {k}"
                if holding == "spots":
                    claim += f" && honours({seat}, {word}) == 0"
                elif holding == "honour":
                    claim += f" && honours({seat}, {word}) >= 1"
                if k == 1:
                    claim += exclusion
                tag, _ = agreement.tag_for(k, n, holding)
                out.append(Inference(name=f"{group}: {_describe(k, n, holding)}", by=leader, action=f"lead {c}",
                                     kind="lead", claim=claim, tag=tag, group=group))
    return out


def count_signal(seat: Seat, first: "Card | str", second: "Card | str", agreement: CardingAgreement,
                 *, name: str | None = None) -> Inference:
    """A count signal: ``seat`` followed with ``first`` then ``second`` in a suit."""
    a, b = Card.parse(first), Card.parse(second)
    if a.suit != b.suit:
        raise InvalidArgumentError(f"a count signal is two cards of one suit, not {a} and {b}")
    parity = agreement.high_low if a.rank > b.rank else agreement.low_high
    lengths = range(2, 14, 2) if parity == "even" else range(1, 14, 2)
    word = a.suit.name_long
    claim = " || ".join(f"{word}({seat.name}) == {n}" for n in lengths)
    return Inference(name=name or f"count {seat.name} {word}", by=seat, action=f"{a} then {b}", kind="signal",
                     claim=claim, tag=Tag.CONSISTENT)


_ = Suit
