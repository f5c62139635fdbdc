"""How a script is dealt, as a frozen value: which condition goes where, at what cost, and why.

:class:`~dealer.run.script_dealer.ScriptDealer` decides, within the budget in force (:mod:`dealer.budget`),
which of the script's conditions the seats' exact tables hold, which a condition across seats
counts through the seats' labels (:mod:`dealer.spec.cross`), which a union of disjoint tables holds
(:mod:`dealer.tables.union`) and which are left to the filter, sizing each way of tabling them before
it builds any (:mod:`dealer.tables.design`) and building the first that fits; ``kibitz dealer`` may instead deal
random deals and select (``dealer``'s own way) when the condition keeps many of them. The
:class:`Plan` records the choice and every way tried on the way (:class:`Step`); ``kibitz count
--explain`` and ``kibitz dealer --explain`` print it.

>>> plan = Plan("tables", exact=True, tables="dense, 120 cells", held=("hcp(north) >= 20",),
...             steps=(Step("dense tables", "fits, dense, 120 cells"),))
>>> print(plan.text())
plan: tables (an exact count)
  tables: dense, 120 cells
  held by the tables: hcp(north) >= 20
  tried: dense tables: fits, dense, 120 cells
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Plan", "Step", "METHODS"]

#: The ways a script's deals are found: tables only, tables and a filter, random deals and a filter.
METHODS = ("tables", "tables and filter", "deal and select")


@dataclass(frozen=True)
class Step:
    """One way the planner weighed: what it tried and what came of it (it fits, with its size; built; or refused and why)."""

    tried: str
    outcome: str

    def text(self) -> str:
        """The step on one line."""
        return f"{self.tried}: {self.outcome}"


@dataclass(frozen=True)
class Plan:
    """How a script's deals are found (``method``, one of :data:`METHODS`), and why."""

    method: str
    exact: bool
    tables: str = ""
    held: tuple[str, ...] = ()
    across: tuple[str, ...] = ()
    union: str = ""
    filtered: tuple[str, ...] = ()
    loosened: tuple[str, ...] = ()
    superset: int | None = None
    selection: str = ""
    steps: tuple[Step, ...] = ()

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}: expected one of {', '.join(METHODS)}")

    def text(self) -> str:
        """The plan, a line per part, then each way tried."""
        if self.method == "deal and select":
            how = "uniform as dealer's own; nothing counted"
        else:
            how = "an exact count" if self.exact else "a count is an estimate"
        lines = [f"plan: {self.method} ({how})"]
        rows = (("selection", self.selection), ("tables", self.tables), ("superset", self._superset()),
                ("held by the tables", "; ".join(self.held)), ("across seats, by labels", "; ".join(self.across)),
                ("union", self.union), ("seats left to the filter", ", ".join(self.loosened)),
                ("filter", "; ".join(self.filtered)))
        lines += [f"  {name}: {value}" for name, value in rows if value]
        lines += [f"  tried: {step.text()}" for step in self.steps]
        return "\n".join(lines)

    def _superset(self) -> str:
        return "" if self.superset is None else f"{self.superset:,} deals"
