"""Unit-testing one inference rule in a few lines.

>>> run = rule_run("KQ.QJ2.K87.AJ543", declarer="S", dummy="A5.K98765.A4.K76", play="CQ C6 C2 C3",
...                inferences=[dict(name="five hearts", by="LHO", claim="hearts(LHO) >= 5", one_fewer=True)])
>>> run.status("start", "five hearts"), run.status("dummy", "five hearts")
('active', 'active (fallback 1)')
>>> run.agreement("start", "E", "H")
(0, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence, cast

from dealer import Seat

from inference.claims.inferences import DEFAULT_POLICY, Tag
from inference.rules.lawful import Bounds
from inference.state.play import PlayState
from inference.apps.scenario import InferenceEntry, LeadEntry, Scenario, add_entry, scenario_events

__all__ = ["RuleRun", "rule_run"]


@dataclass
class RuleRun:
    """Snapshots after each event (``start``, ``dummy``, ``TRICK.CARD``), to ask statuses and bounds."""

    state: PlayState
    plies: dict[str, int] = field(default_factory=dict)

    def _at(self, label: str) -> PlayState:
        if label not in self.plies:
            raise KeyError(f"no event {label!r}; events: {', '.join(self.plies)}")
        return self.state.at(self.plies[label])

    def status(self, label: str, name: str) -> str:
        """``active``, ``confirmed``, ``impossible`` or ``superseded``, with `` (fallback N)`` if one is in force."""
        st = self._at(label).statuses()[name]
        return st.status.value + (f" (fallback {st.level})" if st.level else "")

    def bounds(self, label: str) -> Bounds:
        """Lawful bounds after the event."""
        return self._at(label).bounds()

    def agreement(self, label: str, seat: "Seat | str", quantity: str,
                  policy: "frozenset[Tag] | None" = None) -> tuple[int, int]:
        """Agreement-view bound of ``seat``'s ``quantity`` (S/H/D/C/HCP) after the event."""
        bounds, _ = self._at(label).agreement_bounds(policy or DEFAULT_POLICY)
        return bounds[Seat.parse(seat)].get(quantity)


def rule_run(hand: str, *, declarer: str, contract: str = "NT", viewer: str | None = None, dummy: str | None = None,
             play: "str | Sequence[str]" = (), inferences: Sequence[Mapping[str, Any]] = (),
             leads: Sequence[Mapping[str, Any]] = (), dummy_first: bool = False) -> RuleRun:
    """Play ``play`` from ``hand`` with ``inferences`` (dicts as in scenario files) and ``leads`` added."""
    decl = Seat.parse(declarer)
    view = Seat.parse(viewer) if viewer else decl
    hands = {view: hand}
    if dummy is not None:
        hands[decl.partner] = dummy
    scenario = Scenario(title="rule", declarer=decl, contract=contract, viewer=view, hands=hands,
                        dummy_first=dummy_first, play=cast(Any, play) if isinstance(play, str) else list(play),
                        inference=[InferenceEntry(**dict(i)) for i in inferences],
                        lead=[LeadEntry(**dict(x)) for x in leads])
    adds: dict[str, list[Any]] = {}
    for entry in list(scenario.inference) + list(scenario.lead):
        adds.setdefault(entry.after, []).append(entry)
    run: RuleRun | None = None
    for label, state, _ in scenario_events(scenario, "<rule>"):
        if run is None:
            run = RuleRun(state)
        for entry in adds.get(label, []):
            add_entry(entry, state, "<rule>", None)
        run.plies[label] = state.ply
    assert run is not None
    return run
