"""The exact status of agreement-tagged inferences: each claim's verdict over the lawful layouts.

What :mod:`inference.claims.inferences` says (the model: tags, statuses, fallbacks, groups), decided here by the
solver (:mod:`inference.exact.solver`) after every event: a claim true in some lawful layouts and false in
others is ``active``, true in every one ``confirmed``, true in none ``impossible`` (then the next
fallback is tried); clashing claims are settled by the conflict policy (partner's prevail, the
opponents' are joined by XOR), which makes the agreement view's claim.
"""

from __future__ import annotations

from typing import Any, Sequence

from dealer import Seat
from dealer.lang.interpret import COMPARE

from inference.claims.language import And, Claim, Compare, Const, Length, Xor, claim_text
from inference.claims.inferences import Inference, InferenceState, Status, StatusChange, Tag
from inference.exact.position import Position
from inference.exact.solver import Solver

__all__ = ["evaluate_statuses", "agreement_units", "agreement_claim"]


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
