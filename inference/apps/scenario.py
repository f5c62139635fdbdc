"""Scenario files: a hand in progress and what the bounds must be, card by card.

A scenario is a TOML file (see ``scenarios/README.md`` for an annotated
example) read into pydantic models. It gives the viewer's hand, declarer and
contract, optionally dummy and a mid-hand start, the play, and expectations
after chosen events. Every scenario is also a test: :func:`run_scenario`
replays it and checks each expectation.

Errors name the file, the line and the field: a TOML syntax error, a field
that fails validation, or a card of the play that is illegal all raise
:class:`~inference.errors.ScenarioError`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Iterable, Iterator, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, NonNegativeInt, ValidationError, field_validator

from dealer import Card, CardSet, DealerError, Seat, Suit
from dealer.checks import read_text, shown

from inference.claims.language import one_fewer, seat_word
from inference.errors import InferenceError, ScenarioError
from inference.claims.inferences import Inference, Tag
from inference.rules.lawful import Bounds
from inference.state.leads import lead_interpretations, load_lead_agreement
from inference.state.events import Update
from inference.state.play import PlayState
from inference.state.render import iconic

if TYPE_CHECKING:
    from inference.auction.likelihood import Likelihood

__all__ = ["Scenario", "Expectation", "StartPosition", "load_scenario", "parse_scenario", "run_scenario",
           "ScenarioRun", "Check", "scenario_events", "by_after", "InferenceEntry", "LeadEntry", "AuctionEntry",
           "add_entry", "read_scenario_text", "MAX_TOML_DEPTH"]

_RANGE = re.compile(r"^\s*(\d+)\s*(?:\.\.|-)\s*(\d+)\s*$")
_AFTER = re.compile(r"^\s*(?:trick\s*)?(\d+)\s*[.,/ ]\s*(?:card\s*)?(\d)\s*$", re.IGNORECASE)


_E = TypeVar("_E")


def by_after(entries: Iterable[_E]) -> dict[str, list[_E]]:
    """Scenario entries grouped by the event they follow (``after``; ``"2.3"`` and ``"02.03"`` alike)."""
    out: dict[str, list[_E]] = {}
    for entry in entries:
        key = entry.after  # type: ignore[attr-defined]
        m = _AFTER.match(key)
        if m:
            key = f"{int(m.group(1))}.{int(m.group(2))}"
        out.setdefault(key, []).append(entry)
    return out


def _bound(value: Any) -> tuple[int, int]:
    found: tuple[int, int] | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        found = (value, value)
    elif isinstance(value, str):
        m = _RANGE.match(value)
        if m:
            found = (int(m.group(1)), int(m.group(2)))
        elif value.strip().isdigit():
            found = (int(value), int(value))
    elif isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(x, int) for x in value):
        found = (int(value[0]), int(value[1]))
    if found is None:
        raise ValueError(f"expected a bound such as [1, 4], \"1..4\" or 3, got {value!r}")
    if found[0] > found[1]:
        raise ValueError(f"a bound's low end is above its high end: {value!r}")
    return found


class StartPosition(BaseModel):
    """A mid-hand start: what each seat has played, shown out of, and who leads now."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    leader: Seat
    played: dict[Seat, str] = Field(default_factory=dict)
    voids: dict[Seat, str] = Field(default_factory=dict)
    won: tuple[NonNegativeInt, NonNegativeInt] = (0, 0)
    dummy_tabled: bool = False

    @field_validator("leader", mode="before")
    @classmethod
    def _leader(cls, v: Any) -> Seat:
        return Seat.parse(v)

    @field_validator("played", "voids", mode="before")
    @classmethod
    def _seat_keys(cls, v: Any) -> dict[Seat, str]:
        if not isinstance(v, dict) or not all(isinstance(x, str) for x in v.values()):
            raise ValueError(f"expected a table of seats to cards or suits (text), got {shown(v)}")
        return {Seat.parse(k): x for k, x in v.items()}


def _event(v: Any) -> str:
    """An ``after`` field: ``start``, ``dummy`` or ``TRICK.CARD``."""
    text = str(v).strip().lower()
    if text in ("start", "dummy") or _AFTER.match(text):
        return text
    raise ValueError(f"expected 'start', 'dummy' or TRICK.CARD such as '9.2', got {v!r}")


#: When an expectation is checked or an entry added: ``start``, ``dummy`` or ``TRICK.CARD``.
After = Annotated[str, BeforeValidator(_event)]


class Expectation(BaseModel):
    """What must hold after an event: ``after`` is ``start``, ``dummy``, or ``TRICK.CARD`` (e.g. ``9.2``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    after: After
    bounds: dict[Seat, dict[str, tuple[int, int]]] = Field(default_factory=dict)
    located: dict[Seat, str] = Field(default_factory=dict)
    iconic: dict[Seat, dict[str, str]] = Field(default_factory=dict)
    unchanged: bool = False
    status: dict[str, str] = Field(default_factory=dict)
    notes: dict[str, str] = Field(default_factory=dict)
    agreement: dict[Seat, dict[str, tuple[int, int]]] = Field(default_factory=dict)
    policy: list[str] = Field(default_factory=lambda: ["consistent"])
    note: str = ""

    @field_validator("bounds", "agreement", mode="before")
    @classmethod
    def _bounds(cls, v: Any) -> dict[Seat, dict[str, tuple[int, int]]]:
        out: dict[Seat, dict[str, tuple[int, int]]] = {}
        for seat, table in dict(v).items():
            inner = {}
            for q, b in dict(table).items():
                key = "HCP" if str(q).upper() == "HCP" else Suit.parse(q).name
                inner[key] = _bound(b)
            out[Seat.parse(seat)] = inner
        return out

    @field_validator("located", mode="before")
    @classmethod
    def _located(cls, v: Any) -> dict[Seat, str]:
        out = {Seat.parse(k): str(x) for k, x in dict(v).items()}
        for cards in out.values():
            CardSet.parse(cards)  # a bad card is the file's error, named with its line
        return out

    @field_validator("iconic", mode="before")
    @classmethod
    def _iconic(cls, v: Any) -> dict[Seat, dict[str, str]]:
        return {Seat.parse(k): {Suit.parse(q).name: str(x) for q, x in dict(t).items()} for k, t in dict(v).items()}


class InferenceEntry(BaseModel):
    """An inference the scenario adds, and when (``after``: start, dummy or TRICK.CARD)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    by: str
    claim: str
    action: str = ""
    kind: str = "call"
    tag: str = "consistent"
    fallbacks: list[str] = Field(default_factory=list)
    one_fewer: bool = False
    group: str | None = None
    after: After = "start"


class LeadEntry(BaseModel):
    """Interpretations of a lead under a lead agreement, formed ``after`` an event (default: dummy)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    card: str
    agreement: str = "fourth-best-nt"
    group: str = "lead"
    after: After = "dummy"


class AuctionEntry(BaseModel):
    """The ``[auction]`` table: the calls read with a bidding book, added ``after`` an event (default: start).

    ``explanations``: per call, its explanation text ("" for none); ``restore_passes``: put back the leading passes
    a record dropped (:meth:`~inference.state.play.PlayState.add_auction`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dealer: str
    calls: list[str]
    book: str
    vulnerable: str = ""
    explanations: list[str] = Field(default_factory=list)
    after: After = "start"
    restore_passes: bool = False

    @field_validator("calls", mode="before")
    @classmethod
    def _calls(cls, v: Any) -> list[str]:
        return v.split() if isinstance(v, str) else [str(x) for x in v]


class Scenario(BaseModel):
    """A whole scenario file. See ``scenarios/README.md``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str
    source: str = ""
    declarer: Seat
    contract: str = "NT"
    viewer: Seat | None = None
    hands: dict[Seat, str]
    dummy_first: bool = False
    start: StartPosition | None = None
    play: list[str] = Field(default_factory=list)
    inference: list[InferenceEntry] = Field(default_factory=list)
    lead: list[LeadEntry] = Field(default_factory=list)
    auction: AuctionEntry | None = None
    expect: list[Expectation] = Field(default_factory=list)

    @field_validator("declarer", "viewer", mode="before")
    @classmethod
    def _seat(cls, v: Any) -> Seat | None:
        return None if v is None else Seat.parse(v)

    @field_validator("hands", mode="before")
    @classmethod
    def _hands(cls, v: Any) -> dict[Seat, str]:
        if not isinstance(v, dict) or not all(isinstance(x, str) for x in v.values()):
            raise ValueError(f"expected a table of seats to hands (text), such as {{S = 'AKQ.J98.T76.5432'}}, "
                             f"got {shown(v)}")
        return {Seat.parse(k): x for k, x in v.items()}

    @field_validator("play", mode="before")
    @classmethod
    def _play(cls, v: Any) -> list[str]:
        if isinstance(v, str):
            return v.split()
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise ValueError(f"expected the cards played, as text or a list of cards such as ['SQ', 'S2'], got {shown(v)}")
        return v


@dataclass
class Check:
    """One expectation checked: where, what, and whether it held."""

    after: str
    what: str
    ok: bool
    detail: str = ""
    line: int = 0  # the line of its [[expect]] table in the scenario file (0: unknown)


@dataclass
class ScenarioRun:
    """The result of replaying a scenario: the state, every update, and the checks."""

    scenario: Scenario
    path: str
    state: PlayState
    updates: list[tuple[str, Update]] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]


def _line_of(text: str, loc: tuple[Any, ...], message: str = "") -> int:
    """Best line for a pydantic error location in a TOML text: the key's line within its section.

    When the message quotes the bad value (``invalid seat 'Q'``), the line
    holding that value within the section is preferred.
    """
    line = _line_of_key(text, loc)
    quoted = re.search(r"'([^']{1,40})'", message)
    if quoted:
        value = quoted.group(1)
        lines = text.splitlines()
        pattern = re.compile(rf"(^\s*{re.escape(value)}\s*=)|([\"']{re.escape(value)}[\"'])|(\b{re.escape(value)}\s*=)")
        near: list[int] = [*range(line - 1, min(len(lines), line + 40)), *range(len(lines))]  # else anywhere
        for i in near:
            if pattern.search(lines[i]):
                return i + 1
    return line


def _line_of_key(text: str, loc: tuple[Any, ...]) -> int:
    lines = text.splitlines()
    keys = [str(k) for k in loc if not isinstance(k, int)]
    index = next((k for k in loc if isinstance(k, int)), None)
    start = 0
    if keys and keys[0] == "expect" and index is not None:
        seen = -1
        for i, line in enumerate(lines):
            if line.strip().startswith("[[expect]]"):
                seen += 1
                if seen == index:
                    start = i
                    break
    for key in reversed(keys):
        pattern = re.compile(rf"^\s*(\[+\s*)?[\w.\"]*\b{re.escape(key)}\b")
        for i in range(start, len(lines)):
            if pattern.match(lines[i]):
                return i + 1
    return start + 1 if start else 1


#: The deepest nesting of arrays and tables a scenario file may have (real ones need 3).
MAX_TOML_DEPTH = 16


def _depth(value: Any) -> int:
    """How deeply lists and tables nest in parsed TOML (without recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def read_scenario_text(path: str | Path) -> str:
    """The text of a scenario file (size-limited, any common encoding; see :mod:`dealer.checks`)."""
    return read_text(path, "scenario file", ScenarioError)


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    """Parse scenario text; errors say file, line and field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        data = None
    if data is None or _depth(data) > MAX_TOML_DEPTH:
        raise ScenarioError(f"{path}: invalid TOML: arrays or tables nested more than {MAX_TOML_DEPTH} deep") from None
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        where = ".".join(str(x) for x in loc)
        raise ScenarioError(f"{path}, line {_line_of(text, loc, msg)}, field {where}: {msg}") from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and parse a scenario file."""
    return parse_scenario(read_scenario_text(path), str(path))


def _play_line(text: str, token_index: int) -> int:
    """Line of the ``token_index``-th card of the ``play`` value in the file text."""
    m = re.search(r"^\s*play\s*=", text, re.MULTILINE)
    if not m:
        return 1
    rest = text[m.end():]
    count = 0
    for cm in re.finditer(r"[\"']?([♠♥♦♣A-Za-z][0-9A-Za-z]{1,2})[\"']?", rest):
        if cm.group(1).lower() == "dummy":
            continue
        if count == token_index:
            return text.count("\n", 0, m.end() + cm.start()) + 1
        count += 1
    return text.count("\n", 0, m.end()) + 1


def scenario_events(scenario: Scenario, path: str = "<scenario>", text: str | None = None,
                    defence_model: object = "default") -> Iterator[tuple[str, PlayState, Update | None]]:
    """Build the play state and yield ``(label, state, update)`` after the start and each event (``defence_model``
    as :class:`~inference.state.play.PlayState` takes it)."""
    try:
        viewer = scenario.viewer if scenario.viewer is not None else scenario.declarer
        if viewer not in scenario.hands:
            raise ScenarioError(f"{path}, field hands: the viewer's hand ({viewer.name}) is missing")
        start = scenario.start
        dummy_seat = scenario.declarer.partner
        dummy_hand = scenario.hands.get(dummy_seat) if dummy_seat != viewer else None
        kwargs: dict[str, Any] = {}
        if start is not None:
            kwargs.update(played=start.played, voids=start.voids, leader=start.leader, won=start.won)
            if start.dummy_tabled:
                kwargs["dummy"] = dummy_hand
        state = PlayState(scenario.hands[viewer], declarer=scenario.declarer, contract=scenario.contract,
                          viewer=viewer, defence_model=defence_model, **kwargs)
    except (InferenceError, DealerError) as exc:
        if isinstance(exc, ScenarioError):
            raise
        message = str(exc)
        loc: tuple[Any, ...] = ("hands",)
        if message.startswith("hand:"):
            loc = ("hands", (scenario.viewer if scenario.viewer is not None else scenario.declarer).name)
        elif message.startswith("dummy"):
            loc = ("hands", scenario.declarer.partner.name)
        elif message.startswith("played["):
            loc = ("start", "played", message[7])
        elif message.startswith(("won:", "voids", "leader")):
            loc = ("start", message.split(":")[0].split()[0])
        elif "start" in message or "leader" in message:
            loc = ("start",)
        elif message.startswith("invalid contract"):
            loc = ("contract",)
        line: str | int = f", line {_line_of(text, loc, message)}" if text else ""
        raise ScenarioError(f"{path}{line}, field {'.'.join(map(str, loc))}: {exc}") from None
    yield "start", state, None
    tabled = start is not None and start.dummy_tabled
    if scenario.dummy_first and dummy_hand is not None and not tabled:
        yield "dummy", state, _tabled(state, dummy_hand, True, path, text, dummy_seat)
        tabled = True
    for i, token in enumerate(scenario.play):
        if token.lower() == "dummy":
            continue
        try:
            trick, card_no = state.trick_number, len(state.snapshot.current.cards) + 1
            update = state.play(token)
        except (InferenceError, DealerError) as exc:
            line = _play_line(text, i) if text else 0
            where = f"{path}, line {line}" if line else path
            raise ScenarioError(f"{where}, field play (card {i + 1}, {token!r}): {exc}") from None
        yield f"{trick}.{card_no}", state, update
        if not tabled and dummy_hand is not None and state.ply >= 1 and len(state.snapshot.tricks) + len(
                state.snapshot.current.cards) >= 1:
            tabled = True
            yield "dummy", state, _tabled(state, dummy_hand, False, path, text, dummy_seat)


def _tabled(state: PlayState, hand: Any, early: bool, path: str, text: str | None, seat: Seat) -> Update:
    """Dummy tabled in a scenario: a hand that cannot be is named by its file, line and field."""
    try:
        return state.table_dummy(hand, early=early)
    except (InferenceError, DealerError) as exc:
        line = f", line {_line_of(text, ('hands', seat.name))}" if text else ""
        raise ScenarioError(f"{path}{line}, field hands.{seat.name}: {exc}") from None


def _check(exp: Expectation, label: str, bounds: Bounds, update: Update | None) -> list[Check]:
    out = []
    table: dict[str, tuple[int, int]] | dict[str, str]
    want: tuple[int, int] | str
    got: tuple[int, int] | str
    for seat, table in exp.bounds.items():
        try:
            sb = bounds[seat]
        except KeyError:
            out.append(Check(label, f"bounds of {seat.name}", False, f"{seat.name_long} is not concealed here"))
            continue
        for q, want in table.items():
            got = sb.get(q)
            out.append(Check(label, f"{seat.name} {q} {list(want)}", got == want, f"got {list(got)}"))
    for seat, cards_text in exp.located.items():
        located = bounds.located()
        for card in CardSet.parse(cards_text):
            ok = located.get(card) == seat
            out.append(Check(label, f"{card} located with {seat.name}", ok,
                             f"possible holders {[s.name for s in bounds.possible_holders(card)]}"))
    for seat, table in exp.iconic.items():
        for q, want in table.items():
            got = iconic(bounds[seat].get(q))
            out.append(Check(label, f"{seat.name} {q} iconic {want!r}", got == want, f"got {got!r}"))
    if exp.unchanged:
        changed = [f"{c.seat.name} {c.quantity}" for c in (update.changes if update else ())]
        out.append(Check(label, "no bound changed", not changed, f"changed: {', '.join(changed)}"))
    return out


def add_entry(entry: Any, state: PlayState, path: str, text: str | None,
              likelihood: "Likelihood | str | None" = "default") -> list[Update]:
    """Add an ``[[inference]]``, ``[[lead]]`` or ``[auction]`` entry to ``state``; return the updates it made
    (``likelihood``: the auction's, as :meth:`~inference.state.play.PlayState.add_auction` takes it).

    A rejected entry raises :class:`~inference.errors.ScenarioError` naming ``path``, the entry's
    line in ``text`` (when given) and the field.
    """
    try:
        if isinstance(entry, AuctionEntry):
            update = state.add_auction(entry.dealer, entry.calls, book=entry.book, vulnerability=entry.vulnerable,
                                       explanations=[e or None for e in entry.explanations], likelihood=likelihood,
                                       restore_passes=entry.restore_passes)
            return [update] if update is not None else []
        if isinstance(entry, LeadEntry):
            card = Card.parse(entry.card)
            leader = next((s for s in Seat if state.snapshot.played[s] >> card.index & 1), None)
            if leader is None:
                raise InferenceError(f"{card} has not been played: there is no lead to read")
            snap = state.snapshot
            hidden = 0
            for s in Seat:
                if snap.remaining[s] < 0:
                    hidden |= snap.played[s]
            defenders = (snap.unseen | hidden) & (0x1FFF << (13 * card.suit))
            infs = lead_interpretations(card, leader, defenders, load_lead_agreement(entry.agreement),
                                        group=entry.group)
            return [state.add_inference(inf) for inf in infs]
        fallbacks = list(entry.fallbacks)
        if entry.one_fewer:
            fallbacks.append(one_fewer(entry.claim))
        inf = Inference(name=entry.name, by=seat_word(entry.by, state.viewer, state.declarer), action=entry.action,
                        kind=entry.kind, claim=entry.claim, tag=entry.tag, fallbacks=fallbacks, group=entry.group)
        return [state.add_inference(inf)]
    except (InferenceError, DealerError) as exc:
        line = ""
        if isinstance(entry, AuctionEntry):
            which, text = "auction", None
        else:
            which = f"lead {entry.card}" if isinstance(entry, LeadEntry) else f"inference {entry.name!r}"
        if text:
            key = entry.card if isinstance(entry, LeadEntry) else entry.name
            for i, row in enumerate(text.splitlines(), start=1):
                if key in row:
                    line = f", line {i}"
                    break
        raise ScenarioError(f"{path}{line}, field {which}: {exc}") from None


def _check_inferences(exp: Expectation, label: str, state: PlayState) -> list[Check]:
    out = []
    statuses = state.statuses()
    want: str | tuple[int, int]
    got: str | tuple[int, int]
    for name, want in exp.status.items():
        st = statuses.get(name)
        if st is None:
            out.append(Check(label, f"status of {name!r}", False, f"no such inference (have: {', '.join(statuses)})"))
            continue
        got = st.status.value + (f" (fallback {st.level})" if st.level else "")
        ok = got == want.strip().lower() or (st.status.value == want.strip().lower() and "fallback" not in want)
        out.append(Check(label, f"status of {name!r} is {want!r}", ok, f"got {got!r}"))
    for name, want in exp.notes.items():
        st = statuses.get(name)
        got = st.note if st is not None else ""
        out.append(Check(label, f"note of {name!r} mentions {want!r}", want in got, f"got {got!r}"))
    if exp.agreement:
        policy = frozenset(Tag.parse(t) for t in exp.policy)
        bounds, _ = state.agreement_bounds(policy)
        for seat, table in exp.agreement.items():
            for q, want in table.items():
                got = bounds[seat].get(q)
                out.append(Check(label, f"agreement {seat.name} {q} {list(want)}", got == want, f"got {list(got)}"))
    return out


def run_scenario(path: str | Path, defence_model: object = "default",
                 likelihood: "Likelihood | str | None" = "default") -> ScenarioRun:
    """Replay a scenario file and check every expectation (``defence_model`` as
    :class:`~inference.state.play.PlayState` takes it, ``likelihood`` as its ``add_auction`` does)."""
    p = Path(path)
    text = read_scenario_text(p)
    scenario = parse_scenario(text, str(p))
    wanted = by_after(scenario.expect)
    run: ScenarioRun | None = None
    seen: set[str] = set()
    adds = by_after([*scenario.inference, *scenario.lead, *([scenario.auction] if scenario.auction else [])])
    for label, state, update in scenario_events(scenario, str(p), text, defence_model):
        if run is None:
            run = ScenarioRun(scenario, str(p), state)
        if update is not None:
            run.updates.append((label, update))
        seen.add(label)
        for entry in adds.get(label, []):
            for new_update in add_entry(entry, state, str(p), text, likelihood):
                run.updates.append((label, new_update))
        for exp in wanted.get(label, []):
            line = _expect_line(text, scenario.expect, exp)
            for check in [*_check(exp, label, state.bounds(), update), *_check_inferences(exp, label, state)]:
                check.line = line
                run.checks.append(check)
    assert run is not None
    for key in wanted:
        if key not in seen:  # a point the play does not reach: the scenario is wrong, not the engine
            raise ScenarioError(f"{p}, line {_expect_line(text, scenario.expect, wanted[key][0])}, field after: "
                                f"the play never reaches {key!r} (its points: {', '.join(sorted(seen))})")
    return run


def _expect_line(text: str, expectations: "list[Expectation]", exp: "Expectation") -> int:
    """The line of an expectation's ``[[expect]]`` table."""
    index = next(i for i, e in enumerate(expectations) if e is exp)
    return _line_of_key(text, ("expect", index))
