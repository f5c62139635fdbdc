"""Deals written a batch at a time (``dealer.cards.handtext``, ``dealer.cards.pbnio.write_deals``) against text built card by card.

The oracles: a hand's text from its cards (sorted by hand, no lookup table), and the per-deal
writer the batch writer replaced (``tests/dealer/pbn_oracle.py``), which must agree byte for byte.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Deal, Seat
from dealer.tables.exact import ExactDealer
from dealer.cards.handtext import digits_bytes, hand_text_bytes, hands_text_bytes, join_rows
from dealer.cards.pbnio import FORMATS, write_deals
from dealer.spec.spec import DealSpec
from dealer.cards.printing import columns_text
from tests.dealer.pbn_oracle import columns_per_deal, write_deals_per_deal
from tests.strategies import deals, examples

RANKS = "AKQJT98765432"


def hand_by_cards(mask: int) -> str:
    """A hand's PBN text from its cards: card ``13 * suit + rank`` (rank 0 = ace), suits S H D C."""
    cards = [b for b in range(52) if mask >> b & 1]
    return ".".join("".join(RANKS[b % 13] for b in sorted(cards) if b // 13 == suit) for suit in range(4))


def whole_suits() -> np.ndarray:
    """Deals where every seat holds one whole suit (three voids each, in every position), all 24 ways."""
    from itertools import permutations

    full = [0x1FFF << (13 * s) for s in range(4)]
    return np.array([[full[p[seat]] for seat in range(4)] for p in permutations(range(4))], dtype=np.uint64)


def edge_deals() -> np.ndarray:
    """Whole suits, 7-6 two-suiters with voids, and the deal sorted card by card round the table."""
    rows = [list(r) for r in whole_suits().tolist()]
    spades, hearts, diamonds, clubs = (0x1FFF << (13 * s) for s in range(4))
    low7, high6 = 0x1FC0, 0x003F  # 7 lowest cards, 6 highest
    rows.append([low7 | (high6 << 13), (low7 << 13) | high6, (low7 << 26) | (high6 << 39), (low7 << 39) | (high6 << 26)])
    rows.append([sum(1 << b for b in range(52) if b % 4 == seat) for seat in range(4)])
    for row in rows:
        assert sum(row) == (1 << 52) - 1 and all(bin(m).count("1") == 13 for m in row)
    assert spades | hearts | diamonds | clubs == (1 << 52) - 1
    return np.array(rows, dtype=np.uint64)


def many_deals(n: int = 3000, seed: int = 5) -> np.ndarray:
    return np.concatenate([edge_deals(), ExactDealer(DealSpec()).sample_masks(n, seed)])


# -- hands -----------------------------------------------------------------------------------------

def test_hand_text_of_edge_deals_and_random_deals_matches_the_cards() -> None:
    masks = many_deals()
    text = hands_text_bytes(masks)
    assert text.shape == (len(masks), 4, 16)
    for row, got in zip(masks.tolist(), text):
        assert [bytes(h).decode() for h in got] == [hand_by_cards(m) for m in row]
    assert bytes(hand_text_bytes(masks[:, 2])[0]).decode() == hand_by_cards(int(masks[0, 2]))


@settings(max_examples=examples(200))
@given(deals())
def test_hand_text_of_any_deal_matches_the_cards(deal: Deal) -> None:
    masks = np.array([deal.masks], dtype=np.uint64)
    assert [bytes(h).decode() for h in hands_text_bytes(masks)[0]] == [hand_by_cards(int(m)) for m in deal.masks]


def test_a_hand_of_twelve_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="13 cards"):
        hands_text_bytes(np.array([[0xFFF]], dtype=np.uint64))
    assert hands_text_bytes(np.zeros((0, 4), dtype=np.uint64)).shape == (0, 4, 16)


# -- fields ----------------------------------------------------------------------------------------

@given(st.lists(st.integers(0, 99_999), max_size=40), st.integers(5, 7))
def test_digits_are_the_decimal_text_padded_with_zero_bytes(values: list[int], width: int) -> None:
    got = digits_bytes(np.array(values, dtype=np.int64), width)
    assert [bytes(r).lstrip(b"\0").decode() for r in got] == [str(v) for v in values]
    assert all(bytes(r).rjust(width, b"\0") == bytes(r) for r in got)


def test_digits_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError, match="100 .. 100"):
        digits_bytes(np.array([100]), 2)
    with pytest.raises(ValueError, match="-1"):
        digits_bytes(np.array([-1, 3]), 2)


@given(st.lists(st.tuples(st.text("ab", max_size=3), st.text("xyz", max_size=2)), min_size=1, max_size=20))
def test_join_rows_drops_padding_in_array_fields_only(rows: list[tuple[str, str]]) -> None:
    first = np.zeros((len(rows), 3), dtype=np.uint8)
    second = np.zeros((len(rows), 2), dtype=np.uint8)
    for i, (a, b) in enumerate(rows):
        first[i, 3 - len(a):] = np.frombuffer(a.encode(), dtype=np.uint8)  # right-aligned
        second[i, :len(b)] = np.frombuffer(b.encode(), dtype=np.uint8)  # left-aligned
    got = join_rows([b"<", first, b"\0|", second, b">\n"], len(rows))
    assert got == b"".join(f"<{a}\0|{b}>\n".encode() for a, b in rows)
    with pytest.raises(ValueError, match="3 rows for 2"):
        join_rows([first[:3]], 2) if len(rows) >= 3 else join_rows([np.zeros((3, 1), np.uint8)], 2)


# -- the writer ------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
def test_batch_writer_equals_the_per_deal_writer_byte_for_byte(fmt: str) -> None:
    masks = many_deals(1200)  # boards 1 .. 1226: numbers of 1 to 4 digits
    kwargs = dict(spec_text="predeal north SAKQ\ncondition hcp(south) >= 12", event="kibitz deal é")
    new, old = io.StringIO(), io.StringIO()
    assert write_deals(masks, new, fmt, **kwargs) == write_deals_per_deal(masks, old, fmt, **kwargs) == len(masks)
    assert new.getvalue() == old.getvalue()
    assert new.getvalue().count("\n") >= len(masks)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("start,n", [(0, 12), (1, 0), (1, 1), (2, 15), (5, 16), (7, 17), (9, 40), (95, 33),
                                     (9_990, 50), (65_537, 70), (999_999, 3)])
def test_batches_starting_anywhere_equal_the_per_deal_writer(fmt: str, start: int, n: int) -> None:
    masks = many_deals(100, seed=start)[:n]
    for declarer, contract in ((None, None), (Seat.W, "3NTX")):
        new, old = io.StringIO(), io.StringIO()
        write_deals(masks, new, fmt, start=start, declarer=declarer, contract=contract)
        write_deals_per_deal(masks, old, fmt, start=start, declarer=declarer, contract=contract)
        assert new.getvalue() == old.getvalue()


def test_predealt_seats_are_written_as_before() -> None:
    spec = DealSpec.parse("predeal north SAKQJT98765432\ncondition hcp(south) >= 15")
    masks = ExactDealer(spec).sample_masks(100, 3)
    assert (masks[:, 0] == 0x1FFF).all()
    for fmt in FORMATS:
        new, old = io.StringIO(), io.StringIO()
        write_deals(masks, new, fmt, start=3)
        write_deals_per_deal(masks, old, fmt, start=3)
        assert new.getvalue() == old.getvalue()


def test_writer_errors() -> None:
    masks = edge_deals()
    with pytest.raises(ValueError, match="'csv'"):
        write_deals(masks, io.StringIO(), "csv")
    with pytest.raises(ValueError, match="-3"):
        write_deals(masks, io.StringIO(), "pbn", start=-3)


@pytest.mark.parametrize("seats", [tuple(Seat), (Seat.W, Seat.E)])
@pytest.mark.parametrize("start", [None, 1, 9_990])
def test_printall_columns_equal_the_per_deal_text(seats: tuple[Seat, ...], start: int | None) -> None:
    masks = many_deals(600, seed=8)  # long suits overflow their column: 13 cards are 26 characters
    assert columns_text(masks, seats, start) == columns_per_deal(masks, seats, start)
    assert columns_text(masks[:0], seats, start) == ""
