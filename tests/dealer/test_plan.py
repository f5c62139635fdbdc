"""The script planner under one budget (dealer.budget, dealer.run.plan) and deal-and-select (dealer.run.selection).

Each limit of the budget, shrunk, forces the way the planner takes past it; the count then stays exact
(equal to the count with the default budget) or is marked an estimate whose interval holds the exact
count, and the plan says what was refused and what went to the filter. Deal and select is checked
for uniformity by chi-square against the exact distribution, and for ``dealer``'s ``generate``.
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer import Seat
from dealer.budget import DEFAULT, Budget, current
from dealer.cards.cardset import CardSet
from dealer.errors import SpecError
from dealer.tables.exact import ExactDealer
from dealer.lang.expr import Pos
from dealer.run.plan import Plan
from dealer.run.runner import run_script
from dealer.run.script_dealer import ScriptDealer, wilson
from dealer.run.selection import RandomDeals, Selection
from dealer.spec.spec import DealSpec
from dealer.tables.union import UnionDealer
from dealer.tables.stats import chi_square
from dealer.lang.statements import parse_statements

JOINT = "hcp(north) >= 12 && hcp(north) + hcp(south) >= 26 && spades(north) >= 5"
UNION = "hcp(north) >= 15 && (hascard(west, C2) || hcp(east) > 10)"
SIDE = "hcp(north) >= 12 && hcp(north, spades) >= 5 && controls(north) >= 3"
FOUR = ("hcp(north) >= 15 && hcp(north) <= 17 && hcp(south) >= 8 && hcp(east) <= 10 && hcp(west) <= 10 "
        "&& hearts(south) >= 5")

#: (script, limits shrunk, what the plan must show): each forces one way past a limit.
PATHS = [
    (JOINT, dict(label_cells=1), "filter"),  # the labels across seats refused: the sum is filtered
    (JOINT, dict(patience=1, across_cells=1, across_states=1, dense_cells=1), "filter"),  # joint tables refused
    # (side_totals=1: no side count carries West's C2, so the seats' labels cannot count the '||': a union can)
    (UNION, dict(side_totals=1, union_atoms=1), "filter"),  # too many atoms for a union
    (UNION, dict(side_totals=1, union_visits=1), "filter"),  # the union's decision tree too big
    (UNION, dict(side_totals=1, union_cells=1, patience=1), "filter"),  # the union's parts too large together
    (UNION, dict(side_totals=1), "union"),  # a union of disjoint parts, exact
    (SIDE, dict(side_totals=1), "filter"),  # a seat's second count too wide: it is filtered
    (SIDE, dict(raw_states=1), "filter"),  # its raw states past the budget: filtered too, never refused
    (FOUR, dict(dense_cells=1), "compact tables"),  # dense tables refused: compact ones, still exact
    (FOUR, dict(tables=2000), "loosened"),  # tables too large: seats' conditions filtered
    (FOUR, dict(raw_states=1, side_totals=1), None),  # limits the script never reaches change nothing
]


def _exact(text: str) -> int:
    run = ScriptDealer(parse_statements(text))
    assert run.exact
    return int(run.dealer.count())


@pytest.mark.parametrize("text, changes, shown", PATHS)
def test_each_limit_forces_its_way_and_the_count_stays_true(text: str, changes: dict[str, int],
                                                            shown: str | None) -> None:
    exact = _exact(text)
    with DEFAULT.replace(**changes).applied():
        run = ScriptDealer(parse_statements(text), patience=current().patience)
        result = run.count(draws=4000, seed=1)
        plan = run.plan
    assert plan.exact == result.exact == run.exact
    if result.exact:
        assert result.deals == exact
    else:  # the estimate's interval, widened to 5 standard errors, holds the exact count
        low, high = wilson(result.accepted, result.drawn, z=5.0)
        assert low * result.superset <= exact <= high * result.superset
        assert plan.filtered and plan.method == "tables and filter" and result.superset >= exact
    text_shown = plan.text()
    if shown == "filter":
        assert not result.exact and "refused" in text_shown and "  filter: " in text_shown
    elif shown == "compact tables":
        assert result.exact and "compact tables" in plan.tables and "fits, dense" not in text_shown
    elif shown == "loosened":
        assert plan.loosened and "seats left to the filter" in text_shown
    elif shown == "union":
        assert result.exact and "disjoint parts" in plan.union and not plan.across
    else:
        assert result.exact and plan.tables == ScriptDealer(parse_statements(text)).plan.tables


@pytest.mark.parametrize("text, changes", [(JOINT, {}), (JOINT, dict(patience=1, across_cells=1, across_states=1)),
                                           (FOUR, dict(dense_cells=1)), (SIDE, dict(side_totals=1))])
def test_the_planner_sizes_every_way_and_builds_one(monkeypatch: pytest.MonkeyPatch, text: str,
                                                    changes: dict[str, int]) -> None:
    """The ways refused are sized, never built: one set of tables is built, the one the plan chose, as large
    as its sizing said."""
    import dealer.tables.exact as exact

    built: list[int] = []  # every call, whether it builds or refuses
    make_tables = exact.make_tables

    def counted(*args: object, **kwargs: object) -> object:
        built.append(-1)
        tables = make_tables(*args, **kwargs)  # type: ignore[arg-type]
        built[-1] = int(getattr(tables, "cells", 0))
        return tables

    monkeypatch.setattr(exact, "make_tables", counted)
    with DEFAULT.replace(**changes).applied():
        run = ScriptDealer(parse_statements(text), patience=current().patience)
    chosen = [step for step in run.plan.steps if step.outcome.startswith("fits")]
    assert len(built) == 1 and len(chosen) == 1
    assert chosen[0].outcome.endswith(f"{built[0]:,} cells") and run.dealer.cells == built[0]
    if "across_states" in changes:  # the ways across seats were refused first, by their size alone
        assert [step.outcome.split(",")[0] for step in run.plan.steps[:2]] == ["refused", "refused"]


def test_a_union_that_holds_is_built_instead_of_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The union is weighed before the tables: when it holds, only its parts are built; when nothing can be
    dealt, the tables (built then) say which seat's conditions fail."""
    import dealer.tables.exact as exact
    from dealer.tables.union import UnionDealer

    built: list[object] = []
    make_tables = exact.make_tables

    def counted(*args: object, **kwargs: object) -> object:
        built.append(make_tables(*args, **kwargs))  # type: ignore[arg-type]
        return built[-1]

    monkeypatch.setattr(exact, "make_tables", counted)
    with DEFAULT.replace(side_totals=1).applied():  # no side count for West's C2: a union holds the '||'
        run = ScriptDealer(parse_statements(UNION))
    assert isinstance(run.dealer, UnionDealer) and run.exact and len(built) == len(run.dealer.parts) >= 2
    assert run.dealer.count() == _exact(UNION)
    empty = ScriptDealer(parse_statements("shape(north, 7xxx) && spades(north) == 8 && (hascard(west, C2) || "
                                          "hcp(east) > 10)"))
    assert isinstance(empty.dealer, ExactDealer) and empty.dealer.is_empty and "north" in empty.dealer.explain_empty()


@pytest.mark.parametrize("text", ["hcp(north) >= 20 && spades(south) >= 5", FOUR,
                                  "shape(west, any 4333) && hcp(east) >= 11 && hearts(north) == 0"])
@pytest.mark.parametrize("backend", ["dense", "compact"])
def test_a_sizing_is_the_size_of_the_tables_built(text: str, backend: str) -> None:
    """The dense cells come from the automata alone and the compact ones from the reach: the tables built from
    a sizing, and the tables built without one, have that size and the same count."""
    from dealer.tables.design import TablesDesign

    spec = DealSpec.from_conditions(parse_statements(text).conditions, {})
    design = TablesDesign(spec)
    sizing = design.size(10**8, backend)
    assert sizing.fits and sizing.backend == backend
    dealer = ExactDealer(spec, limit=10**8, design=design, sizing=sizing)
    plain = ExactDealer(spec, limit=10**8, backend=backend)
    assert dealer.cells == plain.cells == sizing.cells and dealer.count() == plain.count()
    refused = design.size(sizing.cells - 1, backend)
    said = f"needs {sizing.cells} table cells" if backend == "dense" else f"reaches more than {sizing.cells - 1} joint"
    assert not refused.fits and not refused.reached and said in refused.why.replace(",", "")


def test_the_plan_names_where_each_condition_goes() -> None:
    plan = ScriptDealer(parse_statements(JOINT + " && quality(north, spades) >= 400")).plan
    assert plan.method == "tables and filter" and not plan.exact
    assert plan.across == ("(hcp(north) + hcp(south)) >= 26",)
    assert "hcp(north) >= 12" in plan.held and plan.filtered == ("quality(north, spades) >= 400",)
    assert plan.superset is not None and plan.superset > 0
    assert all(step.outcome.startswith(("fits", "built", "refused")) for step in plan.steps)
    with DEFAULT.replace(side_totals=1).applied():  # no side count for West's C2: a union holds the '||'
        united = ScriptDealer(parse_statements(UNION)).plan
    assert united.exact and united.held == ("hcp(north) >= 15",)
    assert united.union.startswith("hascard(west, C2) || hcp(east) > 10: ") and "disjoint parts" in united.union
    with pytest.raises(ValueError, match="unknown method 'guess'"):
        Plan("guess", True)


@pytest.mark.parametrize("count_only, cross_sides", [(True, None), (False, True)])
def test_side_counts_carry_a_condition_across_seats_when_asked(count_only: bool, cross_sides: bool | None) -> None:
    """West's C2 in West's side count: the seats' labels count the '||' (by default in a run that only counts)."""
    run = ScriptDealer(parse_statements(UNION), count_only=count_only, cross_sides=cross_sides)
    plan = run.plan
    assert run.exact and plan.across == ("hascard(west, C2) || hcp(east) > 10",) and not plan.union
    assert run.dealer.count() == _exact(UNION)  # the union's count (dealing runs use the union)
    assert not ScriptDealer(parse_statements(UNION)).cross_sides


#: South's parts on clubs and diamonds beside the '||' of one suit's HCP a branch: the '||' holds alone at the
#: budget's side_totals, so the union takes it whole, and with the others its part passes the totals.
LARGE_SIDES = ("hcp(south) >= 5 && hcp(south) <= 10 && top3(south, clubs) + top4(south, diamonds) * 2 + "
               "top2(south, clubs) * 3 != 4 && ((shape(south, 6xxx-x6xx-x5xx) && 2 * hcp(south, spades) > hcp(south)) "
               "|| (shape(south, x6xx-6xxx-5xxx) && 2 * hcp(south, hearts) > hcp(south)) || "
               "(shape(south, xx6x-x6xx-6xxx) && 2 * hcp(south, diamonds) > hcp(south)))")


def test_a_union_whose_part_passes_the_side_totals_is_planned_again_with_smaller_ones() -> None:
    run = ScriptDealer(parse_statements(LARGE_SIDES), count_only=True)  # (a run that deals has small side counts)
    steps = [step.tried for step in run.plan.steps]
    assert run.exact and isinstance(run.dealer, UnionDealer) and "side counts of the budget's side_totals" in steps
    with DEFAULT.replace(side_totals=DEFAULT.union_side_totals).applied():
        small = ScriptDealer(parse_statements(LARGE_SIDES), count_only=True)  # the same union at once
    dealing = ScriptDealer(parse_statements(LARGE_SIDES))  # deal_side_totals: the same union at once too
    assert "side counts of the budget's side_totals" not in [s.tried for s in dealing.plan.steps]
    assert small.exact and "side counts of the budget's side_totals" not in [s.tried for s in small.plan.steps]
    assert run.dealer.count() == small.dealer.count() == dealing.dealer.count()
    with DEFAULT.replace(union_atoms=0).applied():  # no union: the filter's estimate
        estimate = ScriptDealer(parse_statements(LARGE_SIDES)).count(draws=50_000, seed=3)
    assert not estimate.exact and abs(estimate.estimate - int(run.dealer.count())) < 4 * (estimate.high - estimate.low) / 3.92


def test_a_budget_is_checked_and_applied_for_a_block_only() -> None:
    assert current() is DEFAULT
    with pytest.raises(SpecError, match="unknown budget limit 'tabels'"):
        DEFAULT.replace(tabels=1)
    with pytest.raises(SpecError, match="budget draws: expected a whole number >= 0, got -1"):
        Budget(draws=-1)
    with pytest.raises(SpecError, match="budget union_atoms: expected a whole number >= 0, got True"):
        Budget(union_atoms=True)  # type: ignore[arg-type]
    with pytest.raises(SpecError, match="mixture_kept"):
        Budget(mixture_kept=Fraction(2))
    small = DEFAULT.replace(draws=7)
    with small.applied():
        assert current().draws == 7 and ScriptDealer(parse_statements("quality(north, spades) >= 400")).count(seed=1).drawn == 7
    assert current() is DEFAULT


def _hcp_counts(masks: np.ndarray, seat: Seat) -> list[int]:
    return np.bincount([CardSet(int(m)).hcp for m in masks[:, int(seat)]], minlength=38).tolist()


def test_deal_and_select_is_uniform_over_the_condition() -> None:
    """North's HCP in deals kept by selection follows the exact distribution under the condition."""
    text = "hcp(north) >= 12 && spades(south) >= 4"
    syntax = parse_statements(text)
    selection = Selection(syntax.conditions, syntax.predeals)
    done = selection.select(3000, 10 ** 7, np.random.default_rng(5), most=10 ** 7)
    assert done.finished and len(done.deals) == 3000
    exact = ExactDealer(DealSpec.parse(text))
    total = exact.count()
    dist = exact.distribution(Seat.N, "hcp")
    probabilities = [Fraction(int(dist.get(h, 0)), int(total)) for h in range(38)]
    _, _, p = chi_square(_hcp_counts(done.deals, Seat.N), probabilities, len(done.deals))
    assert p > 1e-4


def test_random_deals_complete_the_predeal_uniformly() -> None:
    """With North's four spade honours predealt, South's spades follow the hypergeometric law."""
    predeal = {Seat.N: (CardSet.parse("SA SK SQ SJ"), Pos())}
    masks = RandomDeals(predeal).sample_masks(4000, np.random.default_rng(2))
    assert all(int(m) & CardSet.parse("SA SK SQ SJ").mask == CardSet.parse("SA SK SQ SJ").mask
               for m in masks[:, 0])
    assert np.all(np.bitwise_or.reduce(masks, axis=1) == np.uint64((1 << 52) - 1))
    spades = [CardSet(int(m)).length("S") for m in masks[:, int(Seat.S)]]
    exact = ExactDealer(DealSpec.from_conditions([], predeal))
    dist, total = exact.distribution(Seat.S, "S"), exact.count()
    probabilities = [Fraction(int(dist.get(k, 0)), int(total)) for k in range(14)]
    _, _, p = chi_square(np.bincount(spades, minlength=14).tolist(), probabilities, len(masks))
    assert p > 1e-4
    with pytest.raises(SpecError, match="predeal: SA dealt to south and to another seat"):
        RandomDeals({Seat.N: (CardSet.parse("SA"), Pos()), Seat.S: (CardSet.parse("SA"), Pos())})


def test_generate_caps_the_random_deals_as_dealer_counts_them() -> None:
    out = io.StringIO()
    run_script(parse_statements("condition hcp(north) >= 30\nproduce 5\ngenerate 1000\naction printoneline\n"),
               out, seed=1)
    text = out.getvalue()
    assert "Generated 1000 hands\n" in text and "Produced 5 hands" not in text


def test_rare_scripts_leave_selection_for_the_tables(shrink_budget: Callable[..., None]) -> None:
    """Past the budget's select_deals the tables take over: the plan says so, the deals still meet the
    condition, and with no deal-and-select at all the output is the tables' alone."""
    script = "condition hcp(north) >= 20 && spades(north) >= 6\nproduce 4\naction printoneline\n"
    out = io.StringIO()
    shrink_budget(select_deals=100)
    run_script(parse_statements(script), out, seed=3, explain=True)
    text = out.getvalue()
    assert "plan: tables (an exact count)" in text and "tried: deal and select: left" in text
    hands = [line.split()[1] for line in text.splitlines() if line.startswith("n ")]
    assert len(hands) == 4
    for hand in hands:
        holdings = hand.split(".")
        hcp = sum("JQKA".index(rank) + 1 for holding in holdings for rank in holding if rank in "JQKA")
        assert hcp >= 20 and len(holdings[0]) >= 6


def test_every_limit_of_the_budget_is_documented_with_its_default() -> None:
    import dataclasses
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "limits.rst").read_text()
    for field in dataclasses.fields(Budget):
        value = getattr(DEFAULT, field.name)
        shown = f"{value:,}" if isinstance(value, int) else str(value)
        assert f"   * - ``{field.name}``\n     - {shown}\n" in text, field.name


TINY = dict(tables=10, patience=10, across_cells=10, across_states=10, dense_cells=10, union_cells=10, label_cells=10)


@pytest.mark.parametrize("text", [
    "hcp(north) + hcp(south) >= 26 && hcp(east) + hcp(west) <= 12",
    "hcp(north) >= 15 && hcp(east) >= 10 && hcp(south) >= 8 && hcp(west) <= 5 && spades(north) + spades(south) >= 8",
    "predeal north SAKQ\ncondition hcp(south) >= 10 && (hascard(west, C2) || hcp(east) > 10)",
    "shape(north, 5xxx) && shape(south, x5xx) && hcp(north) > hcp(south)",
])
def test_no_script_is_refused_for_size(text: str) -> None:
    """With every table limit at 10 cells, scripts are dealt by filtering an exact superset (an estimate whose
    interval holds the exact count), never refused."""
    run = ScriptDealer(parse_statements(text))
    exact = int(run.dealer.count()) if run.exact else None
    with DEFAULT.replace(**TINY).applied():
        small = ScriptDealer(parse_statements(text), patience=current().patience)
        result = small.count(draws=3000, seed=2)
        masks = small.sample_masks(50, seed=3)
    assert not result.exact and small.dealer.cells <= 10 and len(masks) == 50
    if exact is not None:
        low, high = wilson(result.accepted, result.drawn, z=5.0)
        assert low * result.superset <= exact <= high * result.superset
    from dealer.run.selection import Filter

    assert Filter(parse_statements(text).conditions).holds(masks).all()  # each deal meets the whole condition


@given(st.integers(1, 10_000), st.data())
def test_wilson_interval_holds_its_estimate(drawn: int, data: st.DataObject) -> None:
    """The interval holds accepted / drawn, ends at exactly 0 when nothing was accepted and at 1 when all were."""
    accepted = data.draw(st.integers(0, drawn))
    low, high = wilson(accepted, drawn)
    assert 0.0 <= low <= accepted / drawn <= high <= 1.0
    assert (low == 0.0) == (accepted == 0) and (high == 1.0) == (accepted == drawn)
