"""dealer.arrays: distinct values and rows by sorting, held to ``np.unique`` (the oracle) on random arrays.

Each test states the contract a caller relies on: the same distinct values or rows, in the same
increasing (lexicographic) order, an inverse that rebuilds the input, and a representative index
that points at an equal value.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from dealer.arrays import rank_packed, unique_ints, unique_inverse, unique_rows
from tests.strategies import examples

INTS = hnp.arrays(np.int64, st.integers(0, 300), elements=st.integers(-(1 << 62), (1 << 62)))
SMALL = st.integers(-5, 5)


@given(INTS)
def test_unique_ints_is_np_unique(values: np.ndarray) -> None:
    assert np.array_equal(unique_ints(values), np.unique(values))


@given(hnp.arrays(np.int64, st.integers(0, 300), elements=st.one_of(SMALL, st.integers(0, 1 << 62))))
def test_unique_inverse_rebuilds_the_values(values: np.ndarray) -> None:
    # small non-negative values take the packed sort, negative or wide ones the argsort
    values = np.concatenate([values, values[::3]])
    uniq, some, inverse = unique_inverse(values)
    expected, expected_first = np.unique(values, return_index=True)
    assert np.array_equal(uniq, expected)
    assert np.array_equal(uniq[inverse], values)
    assert np.array_equal(values[some], uniq)
    if len(values) and values.min() >= 0 and values.max() < 1 << 40:  # packed with their positions: the first
        assert np.array_equal(some, expected_first)
    if len(values) and values.min() >= 0 and values.max() < 1 << 40:  # the same, packed with given places
        places = max(len(values) - 1, 1).bit_length()
        packed = (values << places) | np.arange(len(values))
        distinct, where, rank, start = rank_packed(packed, places)
        assert np.array_equal(distinct, expected) and np.array_equal(where[start], expected_first)
        assert np.array_equal(np.sort(where), np.arange(len(values))) and np.array_equal(distinct[rank], values[where])


@settings(max_examples=examples(150))
@given(st.integers(1, 120), st.data())
def test_unique_rows_is_np_unique_on_rows(columns: int, data: st.DataObject) -> None:
    # wide rows of wide values need several keys: spans of 2**40 pass 62 bits by the second column
    kind = data.draw(st.sampled_from(["bool", "small", "wide"]))
    elements = {"bool": st.integers(0, 1), "small": SMALL, "wide": st.integers(0, 1 << 40)}[kind]
    rows = data.draw(hnp.arrays(np.int64, (data.draw(st.integers(1, 60)), columns), elements=elements))
    rows = np.concatenate([rows, rows[::2]]).astype(bool if kind == "bool" else np.int64)
    expected, expected_inverse = np.unique(rows, axis=0, return_inverse=True)
    got, inverse = unique_rows(rows, return_inverse=True)
    assert np.array_equal(got, expected)
    assert np.array_equal(inverse, expected_inverse.reshape(-1))
    assert np.array_equal(got[inverse], rows)
    assert np.array_equal(unique_rows(rows), expected)


def test_unique_rows_of_no_rows_or_no_columns() -> None:
    assert unique_rows(np.zeros((0, 3), dtype=np.int64)).shape == (0, 3)
    rows, inverse = unique_rows(np.zeros((4, 0), dtype=np.int64), return_inverse=True)
    assert rows.shape == (1, 0) and inverse.tolist() == [0, 0, 0, 0]
