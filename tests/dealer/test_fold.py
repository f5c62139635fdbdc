"""dealer.lang.fold: constant folding keeps every deal's verdict, and makes constant-switched scripts exact."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings, strategies as st

from dealer.tables.exact import ExactDealer
from dealer.lang.evaluate import evaluate
from dealer.lang.expr import Always, Node, Truth, walk
from dealer.lang.fold import fold
from dealer.run.script_dealer import ScriptDealer
from dealer.spec.spec import DealSpec
from dealer.lang.statements import parse_statements
from dealer.lang.syntax import parse_condition
from tests.strategies import examples

DEALS = ExactDealer(DealSpec()).sample_masks(400, 2026)

ATOMS = st.sampled_from(["hcp(north) >= 12", "spades(south) > 4", "hascard(west, SA)", "hcp(east, hearts) >= 3",
                         "shape(north, any 4333)", "losers(south) < 7", "hcp(north) + hcp(south) > 24"])
CONSTANTS = st.sampled_from(["0", "1", "2 > 1 + 1", "3 * 2 == 6", "(1 ? 0 : 1)", "!(0)", "(1 > 0) + 1 == 2"])


def _conditions() -> st.SearchStrategy[str]:
    leaf = st.one_of(ATOMS, CONSTANTS)
    return st.recursive(leaf, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["&&", "||", "^^"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"!({x})"),
        st.tuples(inner, inner, inner).map(lambda t: f"(({t[0]}) ? ({t[1]}) : ({t[2]})) != 0")), max_leaves=8)


@settings(max_examples=examples(150), deadline=None)
@given(_conditions())
def test_folding_keeps_every_deals_verdict(text: str) -> None:
    cond = parse_condition(text)
    folded = fold(cond)
    assert np.array_equal(evaluate(cond, DEALS) != 0, evaluate(folded, DEALS) != 0), (text, str(folded))
    # nothing constant is left inside a connective: a constant survives only as the whole condition
    assert isinstance(folded, Always) or not any(isinstance(n, Always) for n in walk(folded))


def test_a_constant_switched_script_counts_exactly_as_the_same_script_without_the_switches(tmp_path: Path) -> None:
    switched = ("keep0 = 0\nkeep = 1\na = hcp(north) >= 20 and keep0\nb = hascard(west, C2) or hascard(east, D2)\n"
                "condition (a or hcp(south) >= 20) and (b or keep0) and keep\n")
    plain = "condition hcp(south) >= 20 and (hascard(west, C2) or hascard(east, D2))\n"
    runs = [ScriptDealer(parse_statements(t, source="s.dl"), text=t) for t in (switched, plain)]
    assert all(r.exact for r in runs)
    assert runs[0].count().deals == runs[1].count().deals
    deals = runs[0].count().deals
    assert deals is not None and deals < ExactDealer(DealSpec.parse("hcp(south) >= 20")).count()


def test_a_part_used_many_times_is_folded_once_and_stays_shared() -> None:
    """Nested variables make a graph whose tree has 2**40 leaves: folding must neither walk nor copy the tree."""
    script = ["v0 = hcp(north) + (1 > 2)"] + [f"v{i} = v{i - 1} + v{i - 1}" for i in range(1, 41)]
    syntax = parse_statements("\n".join(script) + "\ncondition v40 > 0 && 1\n")
    folded = fold(syntax.conditions[0])
    distinct: dict[int, Node] = {}
    stack: list[Node] = [folded]
    while stack:  # distinct objects in the folded graph
        node = stack.pop()
        if id(node) not in distinct:
            distinct[id(node)] = node
            stack.extend(node.children())
    assert len(distinct) < 100
    assert not any(isinstance(n, (Truth, Always)) for n in distinct.values())  # (1 > 2) folded to 0
    dealt = ExactDealer(DealSpec()).sample_masks(200, 7)
    assert (evaluate(folded, dealt) == evaluate(parse_condition("hcp(north) > 0"), dealt)).all()
