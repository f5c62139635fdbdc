"""The reachable joint states (dealer.tables.reach), on counting automata whose joint counts are multinomials."""

from __future__ import annotations

from math import factorial, prod

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import dealer.tables.reach as reach_module
from dealer.tables.automaton import SeatAutomaton
from dealer.tables.engine import CompactTables, DenseTables
from dealer.errors import SpecLimitError
from dealer.tables.reach import reach
from tests.strategies import examples


def taker(n: int, m: int) -> SeatAutomaton:
    """A seat that takes exactly ``m`` of ``n`` cards: its state is how many it holds (trimmed to the
    states from which ``m`` can still be reached, as the engine's minimised automata are)."""
    def alive(t: int) -> list[int]:
        return [j for j in range(min(t, m) + 1) if j + (n - t) >= m]

    layers = [alive(t) for t in range(n + 1)]
    index = [{j: i for i, j in enumerate(layer)} for layer in layers]
    next0 = tuple(np.array([index[t + 1].get(j, -1) for j in layers[t]], dtype=np.int32) for t in range(n))
    next1 = tuple(np.array([index[t + 1].get(j + 1, -1) for j in layers[t]], dtype=np.int32) for t in range(n))
    return SeatAutomaton(tuple(len(layer) for layer in layers), next0, next1, (None,) * n, (None,) * n,
                         np.zeros(1, dtype=np.int32), 1, 1)


def multinomial(parts: list[int]) -> int:
    return factorial(sum(parts)) // prod(factorial(p) for p in parts)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.integers(0, 4), st.booleans())
def test_joint_counts_are_multinomials(takes: list[int], rest: int, pool: bool) -> None:
    n = sum(takes) + (rest if pool else 0)
    automata = [taker(n, m) for m in takes]
    compact = CompactTables(automata, n, pool)
    expected = multinomial(takes + ([rest] if pool else []))
    assert compact.total() == expected == DenseTables(automata, n, pool).total()
    found = reach(automata, n, pool, 10**6)
    assert found.sizes == [len(layer) for layer in compact.backward]
    assert found.cells == sum(found.sizes)
    # every live move leads to a state of the next position
    for t, nxt in enumerate(found.next):
        assert nxt.dtype == np.int32 and nxt.shape == (len(takes) + pool, found.sizes[t])
        assert ((nxt >= -1) & (nxt < found.sizes[t + 1])).all()


def test_wide_fields_fall_back_to_a_radix(monkeypatch: pytest.MonkeyPatch) -> None:
    # three seats of up to 3 states: bit fields of 6 bits, a radix of 27 keys: with 5 bits, the radix
    automata = [taker(6, 2) for _ in range(3)]
    expected = multinomial([2, 2, 2])
    monkeypatch.setattr(reach_module, "_KEY_BITS", 5)
    assert CompactTables(automata, 6, False).total() == expected
    monkeypatch.setattr(reach_module, "_KEY_BITS", 4)  # 27 keys need 5 bits
    with pytest.raises(SpecLimitError, match="keys beyond 4 bits"):
        reach(automata, 6, False, 10**6)


def test_the_limit_is_checked_before_the_successors_are_placed() -> None:
    automata = [taker(12, 3) for _ in range(4)]
    full = reach(automata, 12, False, 10**6)
    with pytest.raises(SpecLimitError, match=f"more than {full.cells - 1:,} joint states"):
        reach(automata, 12, False, full.cells - 1)
    assert reach(automata, 12, False, full.cells).cells == full.cells
