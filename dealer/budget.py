"""Every tuning limit of Kibitz in one frozen value, each with one unit (:class:`Budget`).

A limit says how much work or memory a step may take before Kibitz takes another way: a table
too large is left to the filter, a union too branchy is filtered, a graph too wide is answered by
the exact dealer. None changes an answer: a count past a limit is still exact or is marked an
estimate. The limits are documented as a set in ``docs/limits.rst``.

The budget in force is :func:`current` (:data:`DEFAULT` unless changed): :meth:`Budget.applied`
puts another in force for a block, which is how ``--limit`` reaches the tables and how tests
shrink a limit to force the way taken past it.

>>> small = DEFAULT.replace(union_atoms=2)
>>> with small.applied():
...     current().union_atoms
2
>>> current().union_atoms
16
"""

from __future__ import annotations

import contextlib
import dataclasses
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterator

from dealer.errors import SpecError

__all__ = ["Budget", "DEFAULT", "current"]


@dataclass(frozen=True)
class Budget:
    """Every tuning limit, in one unit each (the field's comment names it)."""

    #: Table cells (joint states) the exact dealer may build at most: ``--limit``.
    tables: int = 40_000_000
    #: Joint states ``kibitz dealer`` lets compact tables reach before it filters a seat instead.
    patience: int = 1_000_000
    #: Joint states ``kibitz count`` and ``kibitz deal`` let compact tables reach (``--limit`` raises it).
    count_patience: int = 5_000_000
    #: Joint states one position may hold when ``kibitz count`` counts tables too large to keep (streamed: one
    #: position at a time; some 50 bytes a state at the peak: about 3 GB).
    stream_states: int = 64_000_000
    #: Joint states one position may hold when a distribution (``kibitz stats``, the weighted view's fallback)
    #: counts tables too large to keep, streamed.
    observed_states: int = 16_000_000
    #: Dense table cells a condition across seats (counted through labels) may take.
    across_cells: int = 20_000_000
    #: Compact table states a condition across seats may take.
    across_states: int = 5_000_000
    #: Dense table cells a script may take before it tries compact tables.
    dense_cells: int = 20_000_000
    #: Dense table cells the parts of a union (``||``, ``!``, ``^^``) may take together.
    union_cells: int = 20_000_000
    #: Distinct atoms (per-seat conditions) a union may be built from.
    union_atoms: int = 16
    #: Disjoint parts (cubes) a union may have.
    union_parts: int = 64
    #: Parts a union of predealt-card conditions may have once the cards are placed.
    union_placed_parts: int = 128
    #: Nodes of a union's decision tree looked at before it gives up.
    union_visits: int = 1 << 14
    #: Cells of the acceptance table of a condition across seats (labels of every seat multiplied).
    label_cells: int = 4_000_000
    #: Raw automaton states a seat with a second count may build before minimising.
    raw_states: int = 50_000_000
    #: Totals a seat's second count (:mod:`dealer.spec.sidecount`) may carry beside its shape.
    side_totals: int = 8192
    #: Totals a side count may carry in a run that deals (``kibitz dealer``): larger side counts count exactly but
    #: take seconds to build, longer than dealing most scripts by selection.
    deal_side_totals: int = 512
    #: Totals the side counts may carry when a script is planned again because a union's part did not fit the
    #: tables (smaller side counts leave more conditions to the union, whose parts then fit).
    union_side_totals: int = 512
    #: Dense cells past which the exact dealer searches other card orders.
    order_search_from: int = 20_000_000
    #: Deals one call may ask for (draw more in batches with one generator).
    deals_at_once: int = 1_000_000
    #: Deals a ``kibitz dealer`` run holds at once: a longer run is dealt and reported in parts of this many.
    run_part: int = 1_000_000
    #: Deals a ``kibitz dealer`` run may produce when an action reports on every deal at once (``print``,
    #: ``evalcontract``): it keeps them in memory (some 80 bytes each).
    run_deals: int = 20_000_000
    #: Cells of a ``frequency`` table (rows, or rows times columns) a script may ask for.
    frequency_cells: int = 10_000_000
    #: Deals of the superset an estimated count draws.
    draws: int = 100_000
    #: The same when the filter asks the double-dummy solver (some 0.04 s a deal).
    solver_draws: int = 300
    #: Deals drawn in a row with none kept before a sampler gives up as impossible.
    misses: int = 1_000_000
    #: Random deals ``kibitz dealer`` may deal and select before it builds tables instead (0.3 to 1 us each on
    #: real scripts: 1.8 million for DONT in 0.54 s where its tables took 8 s; a condition too rare to keep
    #: any deal leaves after some 50,000, one that keeps a few may spend up to this many first).
    select_deals: int = 3_000_000
    #: Random deals ``kibitz dealer`` may deal one at a time without numpy (some 20 us each) before the run goes
    #: to batches instead (:mod:`dealer.run.quick`): the everyday script, 40 deals at a rate of a few percent.
    quick_deals: int = 4096
    #: (state, group) pairs one step of the layout graph may build (``inference``; past it the exact dealer answers).
    graph_pairs: int = 20_000_000
    #: (state, group) pairs of a join formed whole and checked, not searched.
    small_join: int = 4096
    #: Edges from which the graph's distribution pass uses sparse matrices.
    sparse_edges: int = 20_000
    #: Groups of a suit's step from which the graph walks the suit as honours then spot cards.
    split_groups: int = 256
    #: (state, group) pairs of a join from which a suit with fewer groups is split too (if its parts have fewer).
    split_pairs: int = 1 << 20
    #: Concealed hands that must be able to take a suit's cards before the graph looks at its parts.
    split_takers: int = 3
    #: Random lawful layouts tried as witnesses of a claim before an exact pass.
    witness_layouts: int = 512
    #: Positions whose solver (with its graphs) is kept for callers that ask in turn.
    solvers_kept: int = 2
    #: Inferences whose parsed claims a play state remembers (least recently used parsed again).
    claims_kept: int = 1024
    #: Dealer views a weighted view past the graph's limit may sum (sets of claims).
    mixture_terms: int = 64
    #: Bytes of a record file per part shared among workers (``--jobs``, a cluster).
    part_bytes: int = 200_000
    #: Least share of draws a mixture's sampler may keep.
    mixture_kept: Fraction = Fraction(1, 64)

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "mixture_kept":
                if not isinstance(value, Fraction) or not 0 < value <= 1:
                    raise SpecError(f"budget mixture_kept: expected a Fraction in (0, 1], got {value!r}")
            elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SpecError(f"budget {field.name}: expected a whole number >= 0, got {value!r}")

    def replace(self, **changes: Any) -> "Budget":
        """This budget with some limits changed (unknown names refused)."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise SpecError(f"unknown budget limit {unknown[0]!r}: expected one of {', '.join(sorted(names))}")
        return dataclasses.replace(self, **changes)

    @contextlib.contextmanager
    def applied(self) -> Iterator["Budget"]:
        """Put this budget in force for a block (:func:`current` returns it there)."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)


#: The budget Kibitz ships with.
DEFAULT = Budget()
_CURRENT: ContextVar[Budget] = ContextVar("kibitz_budget", default=DEFAULT)


def current() -> Budget:
    """The budget in force (:data:`DEFAULT` unless :meth:`Budget.applied` put another)."""
    return _CURRENT.get()
