"""Agreement-tagged inferences: claims drawn from a player's action, and their exact status.

An :class:`Inference` says who acted (a seat), what the action was (a call, a
lead, a signal, a discard), what it suggests (a :mod:`claim <inference.claims.language>`),
and how the claim stands to the partnership's agreements, with the source
article's tags: **agreement-consistent**, **agreement-unspecified** or
**agreement-inconsistent**. It may carry *fallbacks*, weaker claims that take
over when the claim becomes impossible ("5+ hearts, else 4+"), and a *group*:
inferences of one group are alternatives joined by XOR (the interpretations
of a lead).

Status, recomputed exactly after every event (see :mod:`inference.exact.statuses`):

* ``active`` - true in some lawful layouts, false in others;
* ``confirmed`` - true in every lawful layout;
* ``impossible`` - true in none (then the next fallback, if any, is tried);
* ``superseded`` - set aside by the conflict policy.

**Conflict policy** (source article, section XVIII). When the active
agreement-consistent claims cannot all be true together, claims from
partner's actions prevail over the opponents': the opponents' claims that
clash with partner's are superseded. Clashing claims that all come from the
opponents are joined by XOR (exactly one of them is taken to hold) instead of
AND. Each decision is reported as an event; the play goes on.

**Agreement view**: the tight bounds under lawful AND the claims whose tags
are in the view's policy (by default only agreement-consistent ones), see
:meth:`inference.state.play.PlayState.agreement_bounds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Iterable

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from dealer import Seat
from dealer.checks import shown

from inference.claims.language import Claim, one_fewer, parse_claim
from inference.errors import InvalidArgumentError
from inference.claims.features import Kind, features_of

__all__ = ["Tag", "TagField", "MAX_CLAIM_CHARS", "parse_policy", "Status", "Inference", "InferenceState", "StatusChange",
           "one_fewer", "DependencyGraph", "DEFAULT_POLICY"]


class Tag(str, Enum):
    """How an interpretation of an action stands to the partnership's agreements."""

    CONSISTENT = "agreement-consistent"
    UNSPECIFIED = "agreement-unspecified"
    INCONSISTENT = "agreement-inconsistent"

    @classmethod
    def parse(cls, text: "str | Tag") -> "Tag":
        if isinstance(text, Tag):
            return text
        if not isinstance(text, str):
            raise InvalidArgumentError(f"invalid tag {shown(text)}: expected consistent, unspecified or inconsistent")
        t = text.strip().lower().replace("_", "-")
        for tag in cls:
            if t in (tag.value, tag.value.removeprefix("agreement-"), tag.name.lower()):
                return tag
        raise InvalidArgumentError(f"invalid tag {shown(text)}: expected consistent, unspecified or inconsistent")


#: A tag field of a model: accepts a Tag or its text (``consistent``, ``agreement-unspecified`` ...).
TagField = Annotated[Tag, BeforeValidator(Tag.parse)]


class Status(str, Enum):
    """Where an inference stands: true in some lawful layouts (active), all (confirmed), none (impossible),
    or set aside by the conflict policy (superseded)."""

    ACTIVE = "active"
    CONFIRMED = "confirmed"
    IMPOSSIBLE = "impossible"
    SUPERSEDED = "superseded"


#: The longest claim text an inference may carry (a longer one is refused before it is parsed).
MAX_CLAIM_CHARS = 20_000

#: Tags whose claims enter the agreement view unless told otherwise.
DEFAULT_POLICY: frozenset[Tag] = frozenset({Tag.CONSISTENT})


def parse_policy(value: "Tag | str | Iterable[Tag | str] | None") -> frozenset[Tag]:
    """The tags of an agreement view: None (the default policy), one tag, or several (Tags or their text).

    >>> sorted(t.value for t in parse_policy(["consistent", "unspecified"]))
    ['agreement-consistent', 'agreement-unspecified']
    >>> parse_policy("consistent") == DEFAULT_POLICY
    True
    """
    if value is None:
        return DEFAULT_POLICY
    if isinstance(value, (Tag, str)):
        return frozenset({Tag.parse(value)})
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise InvalidArgumentError(f"invalid policy {shown(value)}: expected a tag or a list of tags")
    return frozenset(Tag.parse(v) for v in value)


class Inference(BaseModel):
    """A claim drawn from an action, with its tag. Build with keyword arguments or from a dict.

    ``claim`` and ``fallbacks`` are text in the claim language; relative seats
    (LHO, RHO, partner) refer to the viewer of the play state it is added to.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(strict=True, min_length=1, max_length=200)
    by: Seat
    action: str = Field("", strict=True, max_length=1000)
    kind: str = "call"
    claim: str = Field(strict=True, max_length=MAX_CLAIM_CHARS)
    tag: TagField = Tag.CONSISTENT
    fallbacks: tuple[str, ...] = ()
    group: str | None = Field(None, strict=True, max_length=200)
    weight: float | None = None

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise InvalidArgumentError(
                f"invalid inference {data.get('name', '?')!r}: {where}: {err['msg'].removeprefix('Value error, ')}"
            ) from None

    @field_validator("by", mode="before")
    @classmethod
    def _by(cls, v: Any) -> Seat:
        if isinstance(v, Seat):
            return v
        if not isinstance(v, str):
            raise ValueError(f"expected a seat such as N, E, S, W or LHO, RHO, partner, got {shown(v)}")
        return Seat.parse(v)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        if v not in ("call", "lead", "signal", "discard", "play"):
            raise ValueError(f"invalid kind {v!r}: expected call, lead, signal, discard or play")
        return v

    @field_validator("fallbacks", mode="before")
    @classmethod
    def _fallbacks(cls, v: Any) -> tuple[str, ...]:
        items = (v,) if isinstance(v, str) else v
        if not isinstance(items, (list, tuple)) or not all(isinstance(x, str) for x in items):
            raise ValueError(f"expected a claim or a list of claims (text), got {shown(v)}")
        if len(items) > 20 or any(len(x) > MAX_CLAIM_CHARS for x in items):
            raise ValueError(f"at most 20 fallbacks of at most {MAX_CLAIM_CHARS:,} characters each")
        return tuple(items)

    @field_validator("weight", mode="before")
    @classmethod
    def _weight(cls, v: Any) -> float | None:
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < float("inf")):
            raise ValueError(f"expected a number >= 0, got {shown(v)}")
        return v

    def claims(self, viewer: Seat, declarer: Seat) -> tuple[Claim, ...]:
        """The claim and its fallbacks, parsed from the viewer's seat."""
        return tuple(parse_claim(text, viewer=viewer, declarer=declarer) for text in (self.claim, *self.fallbacks))


@dataclass(frozen=True)
class InferenceState:
    """An inference's standing now: which claim of its chain is in force, and its status."""

    name: str
    level: int  # 0: the claim itself; i: its i-th fallback
    status: Status
    note: str = ""


@dataclass(frozen=True)
class StatusChange:
    """A status that moved, and why (shown in replays)."""

    name: str
    old: str
    new: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"inference": self.name, "old": self.old, "new": self.new, "reason": self.reason}


class DependencyGraph:
    """Which inferences depend on which seats, suits and cards (a networkx graph).

    After an event, only inferences connected to something that changed are re-examined.
    """

    def __init__(self) -> None:
        import networkx as nx  # type: ignore[import-untyped]  # (loaded on use: 0.2 s of every start)

        self.graph = nx.DiGraph()

    def add(self, name: str, claims: Iterable[Claim]) -> None:
        self.graph.add_node(("inference", name))
        for claim in claims:
            for key in features_of(claim):
                self.graph.add_edge(("seat", key.seat), ("inference", name))
                if key.kind == Kind.HCP:
                    self.graph.add_edge(("hcp",), ("inference", name))
                else:
                    self.graph.add_edge(("suit", key.suit), ("inference", name))
                if key.kind.of_card:
                    self.graph.add_edge(("card", key.arg), ("inference", name))

    def affected(self, nodes: Iterable[tuple[object, ...]]) -> set[str]:
        out: set[str] = set()
        for node in nodes:
            if node in self.graph:
                for succ in self.graph.successors(node):
                    out.add(str(succ[1]))
        return out
