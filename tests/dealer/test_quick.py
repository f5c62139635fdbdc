"""The everyday run, one deal at a time without numpy (:mod:`dealer.run.quick`): the same values, text and
tallies as the batch run, uniform deals, and the way a run goes decided by the script and the seed."""

from __future__ import annotations

import datetime
import io
import re
import subprocess
import sys
from collections import Counter
from random import Random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats as scipy_stats

from dealer.budget import DEFAULT
from dealer.cards.cardset import CardSet
from dealer.cards.deal import Deal, PartialDeal
from dealer.cards.deal_text import columns, compact, oneline, pages, pbn_record
from dealer.cards.printing import columns_text, compact_text, oneline_text, pages_text, pbn_text
from dealer.cards.seat import Seat
from dealer.lang.evaluate import Counts, evaluate
from dealer.lang.one_deal import DealReader, script_points, unread
from dealer.lang.statements import parse_statements
from dealer.lang.syntax import SPEC_DIALECT, parse_expression
from dealer.run.quick import QuickDeals, quick_refusal, run_quick
from dealer.run.runner import run_script
from dealer.run.tallies import tally_for
from tests.strategies import deals, examples, partial_deals

_SEATS = ("north", "east", "south", "west")
_SUITS = ("spades", "hearts", "diamonds", "clubs")
_COUNTS = ("hcp", "controls", "losers", "ltc", "tens", "jacks", "queens", "kings", "aces", "top2", "top3", "top4",
           "top5", "c13")


@st.composite
def _numbers(draw: st.DrawFn, depth: int = 2) -> str:
    """An expression of the language read on one deal."""
    seat = draw(st.sampled_from(_SEATS))
    kind = draw(st.integers(0, 5 if depth else 3))
    if kind == 0:
        return str(draw(st.integers(-3, 20)))
    if kind == 1:
        return f"{draw(st.sampled_from(_SUITS))}({seat})"
    if kind == 2:
        suit = draw(st.sampled_from(("",) + tuple(f", {s}" for s in _SUITS)))
        count = draw(st.sampled_from(_COUNTS + ("quality", "cccc")))
        if count == "quality":  # a suit's count only; cccc the whole hand's only
            return f"quality({seat}, {draw(st.sampled_from(_SUITS))})"
        return f"cccc({seat})" if count == "cccc" else f"{count}({seat}{suit})"
    if kind == 3:
        return f"({draw(_conditions(0))})"
    if kind == 4:
        op = draw(st.sampled_from("+-*/%"))
        return f"({draw(_numbers(depth - 1))} {op} {draw(_numbers(depth - 1))})"
    return f"({draw(_conditions(depth - 1))} ? {draw(_numbers(depth - 1))} : {draw(_numbers(depth - 1))})"


@st.composite
def _conditions(draw: st.DrawFn, depth: int = 2) -> str:
    """A condition of the language read on one deal."""
    seat = draw(st.sampled_from(_SEATS))
    kind = draw(st.integers(0, 4 if depth else 2))
    if kind == 0:
        card = draw(st.sampled_from("AKQJT98765432")) + draw(st.sampled_from("SHDC"))
        return f"hascard({seat}, {card})"
    if kind == 1:
        return f"shape({seat}, {draw(st.sampled_from(['any 4432', '5xxx + any 4333', 'any 55xx - 5530', 'xx4x']))})"
    if kind == 2:
        op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
        return f"{draw(_numbers(max(depth - 1, 0)))} {op} {draw(st.integers(0, 15))}"
    if kind == 3:
        return f"!({draw(_conditions(depth - 1))})"
    op = draw(st.sampled_from(["&&", "||", "^^"]))
    return f"({draw(_conditions(depth - 1))}) {op} ({draw(_conditions(depth - 1))})"


@settings(max_examples=examples(150), deadline=None)
@given(st.one_of(_numbers(), _conditions()), st.lists(deals(), min_size=1, max_size=4))
def test_one_deal_reads_every_expression_as_the_batch_does(text: str, dealt: list[Deal]) -> None:
    """A deal's value read card by card (Python ints) is the batch evaluation's (numpy) on the same deal."""
    node = parse_expression(text, SPEC_DIALECT)
    assert unread(node) is None
    masks = np.array([d.masks for d in dealt], dtype=np.uint64)
    batch = evaluate(node, masks).tolist()
    reader = DealReader(script_points(None), Random(0))
    assert [int(reader.evaluate(node, d.masks)) for d in dealt] == batch, text


@settings(max_examples=examples(30), deadline=None)
@given(deals(), st.lists(st.integers(0, 5), min_size=13, max_size=13), st.integers(0, 9),
       st.lists(st.integers(0, 3), min_size=13, max_size=13))
def test_a_scripts_own_point_counts_read_alike(deal: Deal, points: list[int], alt: int, values: list[int]) -> None:
    """``pointcount`` and ``altcount`` change ``hcp`` and ``ptN`` alike on one deal and in batches."""
    script = parse_statements(f"pointcount {', '.join(map(str, points))}\naltcount {alt} {', '.join(map(str, values))}")
    node = parse_expression(f"hcp(north) * 1000 + pt{alt}(south) * 10 + hcp(west, hearts)", SPEC_DIALECT)
    batch = evaluate(node, np.array([deal.masks], dtype=np.uint64), Counts.of_script(script))
    assert DealReader(script_points(script), Random(0)).evaluate(node, deal.masks) == int(batch[0])


def test_what_is_not_read_on_one_deal_is_said() -> None:
    for text, part in (("hcp(south) > 3 && tricks(north, notrump) > 8", "tricks(north, notrump)"),
                       ("imps(hcp(north) * 10) > 2", "imps((hcp(north) * 10))"),
                       ("score(vul, x4S, tricks(south, spades)) > 600", "score(vul, x4S, tricks(south, spades))")):
        assert str(unread(parse_expression(text, SPEC_DIALECT))) == part


def _predeal_text(seat: str, hand: CardSet) -> str:
    """A ``predeal`` statement of a hand: ``predeal north SAK, H2``."""
    suits = [f"{letter}{part}" for letter, part in zip("SHDC", str(hand).split(".")) if part]
    return f"predeal {seat} {', '.join(suits)}\n" if suits else ""


@settings(max_examples=examples(60), deadline=None)
@given(partial_deals(), st.integers(0, 2 ** 32), st.sets(st.sampled_from(list(Seat))))
def test_a_quick_deal_completes_the_predeal_and_deals_every_card(partial: PartialDeal, seed: int,
                                                                 first: set[Seat]) -> None:
    text = "".join(_predeal_text(seat, hand) for seat, hand in zip(_SEATS, partial.hands) if hand is not None)
    script = parse_statements(text)
    dealing, rng = QuickDeals(script.predeals, first), Random(seed)
    cards, hands = dealing.start(rng)
    assert all(hands[seat].bit_count() == 13 for seat in first)
    deal = dealing.finish(cards, hands, rng)
    assert [h.bit_count() for h in deal] == [13] * 4 and deal[0] | deal[1] | deal[2] | deal[3] == (1 << 52) - 1
    for seat, (cards, _) in script.predeals.items():
        assert deal[seat] & cards.mask == cards.mask


@pytest.mark.parametrize("first", [(), (Seat.S,), (Seat.N, Seat.W), tuple(Seat)])
def test_quick_deals_are_uniform_chi_square(first: tuple[Seat, ...]) -> None:
    """Where two free cards go, with a seat partly predealt, the seats a condition reads dealt first (and
    complete before the others are dealt): the exact shares are the seats' vacancies'."""
    script = parse_statements("predeal north SAKQJT98, HAK")
    dealing, rng = QuickDeals(script.predeals, first), Random(11)
    vacancies = [4, 13, 13, 13]  # north holds nine cards
    free = [1 << i for i in range(52) if not script.predeals[Seat.N][0].mask >> i & 1]
    cards = (free[0], free[-1])
    n = 20_000
    seen: Counter[tuple[int, int]] = Counter()
    for _ in range(n):
        started, hands = dealing.start(rng)
        assert all(hands[seat].bit_count() == 13 for seat in first)
        deal = dealing.finish(started, hands, rng)
        seen[tuple(next(s for s in range(4) if deal[s] & c) for c in cards)] += 1  # type: ignore[misc]
    total = sum(vacancies)
    keys = [(a, b) for a in range(4) for b in range(4)]
    expected = [n * vacancies[a] * (vacancies[b] - (a == b)) / (total * (total - 1)) for a, b in keys]
    assert scipy_stats.chisquare([seen[k] for k in keys], expected).pvalue > 1e-4


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(deals(), min_size=1, max_size=6), st.integers(1, 99_990))
def test_a_deals_text_is_the_batch_printers(dealt: list[Deal], start: int) -> None:
    masks = np.array([d.masks for d in dealt], dtype=np.uint64)
    rows = [d.masks for d in dealt]
    assert "".join(oneline(r) for r in rows) == oneline_text(masks)
    assert "".join(compact(r) for r in rows) == compact_text(masks)
    assert "".join(columns(r, tuple(Seat), start + i) for i, r in enumerate(rows)) == columns_text(masks, tuple(Seat), start)
    assert "".join(columns(r, (Seat.W, Seat.E)) for r in rows) == columns_text(masks, (Seat.W, Seat.E))
    assert pages(rows, (Seat.S, Seat.E), start) == pages_text(masks, (Seat.S, Seat.E), start)
    for dealer, vulnerable in ((None, None), (Seat.E, "Both")):
        today = datetime.date.today().strftime("%Y.%m.%d")
        records = "".join(pbn_record(r, start + i, "e", today, dealer, vulnerable) for i, r in enumerate(rows))
        assert records == pbn_text(masks, start, "e", dealer, vulnerable)


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(deals(), min_size=1, max_size=12), st.sampled_from([
    "action average \"a\" hcp(north) + spades(south)", "action frequency \"f\" (hcp(east), 5, 15)",
    "action frequency (spades(north), 2, 5, losers(south), 4, 9)", "action bktfreq \"b\" (hcp(west), 4, 16, 3)",
    "action bktfreq (hcp(west), 4, 16, 3, clubs(east), 0, 6, 2)"]))
def test_a_tally_added_deal_by_deal_is_the_batch_tally(dealt: list[Deal], text: str) -> None:
    action = parse_statements(text).actions[0]
    batch, one = tally_for(action), tally_for(action)
    assert batch is not None and one is not None
    masks = np.array([d.masks for d in dealt], dtype=np.uint64)
    batch.add(masks, Counts(), {}, np.random.default_rng(0))
    reader = DealReader(script_points(None), Random(0))
    axes = [action.expr] if hasattr(action, "expr") else [axis[0] for axis in action.axes]  # type: ignore[attr-defined]
    for d in dealt:
        one.add_deal([int(reader.evaluate(node, d.masks)) for node in axes])
    assert one.text() == batch.text(Counts())


_EVERYDAY = """condition hcp(north) >= 12 && spades(north) >= 4 && shape(south, any 4333 + any 4432)
produce 12
action printoneline hcp(north), printall, printes "north ", hcp(north), " south ", losers(south), " ",
  average "ns" hcp(north) + hcp(south), frequency "sp" (spades(north), 4, 8), print(south)
"""


def _deals_of(text: str) -> list[str]:
    """The deals ``printoneline`` printed, with the value after each."""
    return re.findall(r"n \S+ e \S+ s \S+ w \S+ -?\d*", text)


def test_the_everyday_run_is_dealt_one_deal_at_a_time_and_meets_its_condition() -> None:
    script = parse_statements(_EVERYDAY)
    assert quick_refusal(script) == ""
    out = io.StringIO()
    done = run_quick(script, out, seed=5, explain=True)
    assert done.done and done.produced == 12 and done.count is None
    text = out.getvalue()
    assert "one at a time (numpy not loaded)" in text and f"Generated {done.generated} hands" in text
    shown = _deals_of(text)
    assert len(shown) == 12
    masks = np.array([Deal.from_pbn("N:" + " ".join(line.split()[1:8:2])).masks for line in shown], dtype=np.uint64)
    assert evaluate(script.conditions[0], masks).all()
    hcp = evaluate(parse_expression("hcp(north)", SPEC_DIALECT), masks).tolist()
    assert [int(line.split()[-1]) for line in shown] == hcp  # printoneline EXPR: the value ends the line
    assert text.count("north ") == 12 and "\fSouth hands:" not in text and "South hands:" in text
    assert re.search(r"ns: \d+(\.\d+)?\n", text) and "Frequency sp:" in text


def test_same_seed_same_output_in_the_library_and_on_the_command_line(tmp_path: object) -> None:
    from pathlib import Path

    from tests.inference.commands.helpers import run

    path = Path(str(tmp_path)) / "everyday.dl"
    path.write_text(_EVERYDAY)
    library = io.StringIO()
    run_script(parse_statements(_EVERYDAY), library, seed=3)
    status, out, _ = run("dealer", str(path), "-s", "3")
    assert status == 0 and out.split("Time needed")[0] == library.getvalue().split("Time needed")[0]
    again = io.StringIO()
    run_script(parse_statements(_EVERYDAY), again, seed=3)
    assert again.getvalue().split("Time needed")[0] == library.getvalue().split("Time needed")[0]


@pytest.mark.parametrize("script, why", [
    ("condition hcp(north) > 5 && tricks(north, spades) > 9\nproduce 2",
     "not tried: <spec>:1:29: tricks(north, spades) is not read on one deal"),
    ("produce 2\naction printes \"q \", imps(hcp(north) * 10)", "is not read on one deal"),
    ("condition hcp(north) > 10\nproduce 2\naction average \"a\" (hcp(north), avg > 5)",
     "an average with a filter is done in batches"),
    ("condition hcp(north) >= 30\nproduce 2", "quick_deals (4,096)"),  # rare: the rate predicts too many deals
])
def test_a_run_not_for_this_way_writes_nothing_and_goes_to_batches(script: str, why: str) -> None:
    syntax = parse_statements(script)
    out = io.StringIO()
    left = run_quick(syntax, out, seed=1)
    assert not left.done and out.getvalue() == "" and why in left.left, left.left
    whole = io.StringIO()
    run_script(syntax, whole, seed=1, explain=True)
    assert "one at a time (numpy not loaded)" not in whole.getvalue()
    assert f"tried: one deal at a time: {left.left}" in whole.getvalue()


def test_a_run_gives_up_within_its_budget() -> None:
    """Past ``quick_deals`` random deals a run goes to batches, whatever the rate so far predicted."""
    syntax = parse_statements("condition hcp(north) >= 16\nproduce 40")
    with DEFAULT.replace(quick_deals=300).applied():
        left = run_quick(syntax, io.StringIO(), seed=2)
    assert not left.done and left.generated <= 300 and "quick_deals (300)" in left.left
    with DEFAULT.replace(quick_deals=300).applied():  # a generate within the budget: dealt whole, quick
        done = run_quick(syntax, io.StringIO(), seed=2, generate=250)
    assert done.done and done.generated == 250


def test_the_everyday_script_starts_without_numpy(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "one.dl"
    path.write_text("condition hcp(north) >= 15\nproduce 10\naction printoneline\n")
    code = ("import sys; from inference.commands import main; status = main(['dealer', sys.argv[1], '-s', '1']); "
            "sys.stdout.flush(); print('numpy' in sys.modules, status)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True).stdout
    assert out.endswith("False 0\n") and len(_deals_of(out)) == 10
