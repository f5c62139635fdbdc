"""Agreement-tagged inferences: claims drawn from a player's action, and their exact status.

An :class:`Inference` says who acted (a seat), what the action was (a call, a
lead, a signal, a discard), what it suggests (a :mod:`claim <inference.claims>`),
and how the claim stands to the partnership's agreements, with the source
article's tags: **agreement-consistent**, **agreement-unspecified** or
**agreement-inconsistent**. It may carry *fallbacks*, weaker claims that take
over when the claim becomes impossible ("5+ hearts, else 4+"), and a *group*:
inferences of one group are alternatives joined by XOR (the interpretations
of a lead).

Status, recomputed exactly after every event (see :mod:`inference.solver`):

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
:meth:`inference.play.PlayState.agreement_bounds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Iterable, Sequence

import networkx as nx  # type: ignore[import-untyped]
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from dealer import Seat
from dealer.checks import shown

from dealer.lang.interpret import COMPARE

from .claims import And, Claim, Compare, Const, Length, Xor, claim_text, one_fewer, parse_claim
from .errors import InvalidArgumentError
from .features import Kind, features_of
from .position import Position
from .solver import Solver

__all__ = ["Tag", "TagField", "MAX_CLAIM_CHARS", "parse_policy", "Status", "Inference", "InferenceState", "StatusChange", "one_fewer", "DependencyGraph",
           "evaluate_statuses", "agreement_units", "agreement_claim", "DEFAULT_POLICY"]


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


def _verdict_status(ev: Solver, claim: Claim, bounds: "Any" = None) -> Status:
    quick = _length_atom(claim, bounds)
    if quick is not None:
        return quick
    v = ev.verdict(claim)
    if not v.satisfiable:
        return Status.IMPOSSIBLE
    if v.valid:
        return Status.CONFIRMED
    return Status.ACTIVE


def _length_atom(claim: Claim, bounds: Any) -> Status | None:
    """A single comparison of one seat's suit length with a number: decided by the lawful bounds.

    A seat's feasible lengths in a suit form an interval (the lawful layouts are a transportation
    polytope), and the lawful bounds are its tight ends, so this is exact.
    """
    if bounds is None or not isinstance(claim, Compare):
        return None
    left, right = claim.left, claim.right
    if isinstance(left, Length) and isinstance(right, Const):
        length, n, op = left, right.value, claim.op
    elif isinstance(right, Length) and isinstance(left, Const):
        length, n = right, left.value
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(claim.op, claim.op)
    else:
        return None
    if length.seat not in bounds.concealed:
        return None
    lo, hi = bounds[length.seat].length[length.suit]
    test = COMPARE[op]
    values = [test(v, n) for v in range(lo, hi + 1)]
    if not any(values):
        return Status.IMPOSSIBLE
    return Status.CONFIRMED if all(values) else Status.ACTIVE


def evaluate_statuses(position: Position, inferences: Sequence[Inference], parsed: dict[str, tuple[Claim, ...]],
                      previous: dict[str, InferenceState], todo: set[str] | None, bounds: Any = None) -> tuple[
                          dict[str, InferenceState], list[StatusChange]]:
    """New states for ``inferences`` (only those in ``todo`` re-examined; None: all) and the changes."""
    ev = Solver.of(position)
    states = dict(previous)
    changes: list[StatusChange] = []
    for inf in inferences:
        old = previous.get(inf.name)
        if todo is not None and old is not None and inf.name not in todo:
            continue
        if old is not None and old.status == Status.SUPERSEDED:
            continue  # gave way in a conflict: stays so
        if old is not None and old.status in (Status.CONFIRMED, Status.IMPOSSIBLE) \
                and old.level == len(parsed[inf.name]) - 1:
            continue  # final: lawful knowledge only grows
        level = old.level if old is not None else 0
        if old is not None and old.status == Status.CONFIRMED:
            continue
        claims = parsed[inf.name]
        status = _verdict_status(ev, claims[level], bounds)
        reasons = []
        while status == Status.IMPOSSIBLE and level + 1 < len(claims):
            reasons.append(f"{claim_text(claims[level])} is impossible; its fallback {claim_text(claims[level + 1])} "
                           "takes over")
            level += 1
            status = _verdict_status(ev, claims[level], bounds)
        new = InferenceState(inf.name, level, status)
        if old is None or (old.level, old.status) != (new.level, new.status):
            before = "new" if old is None else _label(old)
            why = "; ".join(reasons) if reasons else _why(status, claims[level])
            changes.append(StatusChange(inf.name, before, _label(new), why))
        states[inf.name] = new
    changes += _group_events(inferences, previous, states)
    return states, changes


def _group_events(inferences: Sequence[Inference], before: dict[str, InferenceState],
                  after: dict[str, InferenceState]) -> list[StatusChange]:
    """A group's verdict when it is reached: one reading confirmed, or every tagged reading impossible."""
    groups: dict[str, list[Inference]] = {}
    for inf in inferences:
        if inf.group:
            groups.setdefault(inf.group, []).append(inf)
    out = []
    for group, members in groups.items():
        def verdict(states: dict[str, InferenceState]) -> str:
            if any(m.name not in states for m in members):
                return ""
            confirmed = [m for m in members if states[m.name].status == Status.CONFIRMED]
            if confirmed:
                return f"confirmed: {confirmed[0].name}"
            tagged = [m for m in members if m.tag != Tag.INCONSISTENT]
            if tagged and all(states[m.name].status == Status.IMPOSSIBLE for m in tagged):
                return "inconsistent"
            return ""
        old, new = verdict(before), verdict(after)
        if new and new != old:
            if new == "inconsistent":
                reason = ("every agreement-consistent and agreement-unspecified reading is impossible: "
                          "the action was agreement-inconsistent")
            else:
                reason = f"the action is read as {new.removeprefix('confirmed: ')}"
            out.append(StatusChange(f"group {group}", old or "open", new, reason))
    return out


def _label(state: InferenceState) -> str:
    return state.status.value + (f" (fallback {state.level})" if state.level else "")


def _why(status: Status, claim: Claim) -> str:
    if status == Status.IMPOSSIBLE:
        return f"no lawful layout has {claim_text(claim)}"
    if status == Status.CONFIRMED:
        return f"every lawful layout has {claim_text(claim)}"
    return f"some lawful layouts have {claim_text(claim)}, others not"


def agreement_units(inferences: Sequence[Inference], parsed: dict[str, tuple[Claim, ...]],
                    states: dict[str, InferenceState], policy: frozenset[Tag], viewer: Seat
                    ) -> list[tuple[str, bool, Claim]]:
    """The claims the agreement view joins, before the conflict policy: (name, from partner, claim).

    The live inferences whose tags are in ``policy``, each at its level in force; a group's readings
    are joined by XOR into one unit; partner's units come first (they prevail in a conflict).
    """
    live: list[tuple[Inference, Claim]] = []
    for inf in inferences:
        st = states.get(inf.name)
        if st is None or st.status not in (Status.ACTIVE, Status.CONFIRMED) or inf.tag not in policy:
            continue
        live.append((inf, parsed[inf.name][st.level]))
    # alternatives of one group are joined by XOR first
    groups: dict[str, list[Claim]] = {}
    singles: list[tuple[Inference, Claim]] = []
    for inf, claim in live:
        if inf.group:
            groups.setdefault(inf.group, []).append(claim)
        else:
            singles.append((inf, claim))
    units: list[tuple[str, bool, Claim]] = []  # (name, from partner, claim)
    for inf, claim in singles:
        units.append((inf.name, inf.by == viewer.partner, claim))
    for name, claims in groups.items():
        units.append((f"group {name}", False, claims[0] if len(claims) == 1 else Xor(tuple(claims))))
    units.sort(key=lambda u: not u[1])  # partner's first: they prevail
    return units


def agreement_claim(position: Position, inferences: Sequence[Inference], parsed: dict[str, tuple[Claim, ...]],
                    states: dict[str, InferenceState], policy: frozenset[Tag], viewer: Seat
                    ) -> tuple[Claim, list[StatusChange], set[str]]:
    """The conjunction that defines the agreement view, after the conflict policy; with its decisions.

    Returns the claim, the conflict events, and the names of superseded inferences.
    """
    units = agreement_units(inferences, parsed, states, policy, viewer)
    ev = Solver.of(position)
    if not units or ev.satisfiable(And(tuple(c for _, _, c in units))):
        return And(tuple(c for _, _, c in units)), [], set()  # no conflict: one joint check
    accepted: list[tuple[str, bool, Claim]] = []
    events: list[StatusChange] = []
    superseded: set[str] = set()
    for unit in units:
        trial = [c for _, _, c in accepted] + [unit[2]]
        if ev.satisfiable(And(tuple(trial))):
            accepted.append(unit)
            continue
        name, from_partner, claim = unit
        clash = [a for a in accepted if not ev.satisfiable(And((a[2], claim)))] or accepted[-1:]
        if not from_partner and clash and all(not a[1] for a in clash):
            # opponents against opponents: exactly one of them holds
            joined = Xor(tuple(a[2] for a in clash) + (claim,))
            rest = [a for a in accepted if a not in clash]
            if ev.satisfiable(And(tuple(c for _, _, c in rest) + (joined,))):
                accepted = rest + [(" xor ".join([a[0] for a in clash] + [name]), False, joined)]
                for other in [a[0] for a in clash] + [name]:
                    events.append(StatusChange(other, "active", "joined by XOR",
                                               f"{name} clashes with {', '.join(a[0] for a in clash)}: the "
                                               "opponents' clashing inferences are joined by XOR"))
                continue
        superseded.add(name)
        events.append(StatusChange(name, "active", Status.SUPERSEDED.value,
                                   f"{name} cannot hold together with "
                                   f"{', '.join(a[0] for a in clash) or 'the others'}"
                                   + (": partner's inferences prevail" if any(a[1] for a in clash) else "")))
    return And(tuple(c for _, _, c in accepted)), events, superseded
