"""Streamed tables (counted forward one position at a time, not kept) give the kept tables' exact counts.

The kept compact tables are the oracle (they are checked against brute force elsewhere); the streamed ones
must reach the same joint states, count them alike whatever the chunk, refuse past their limit with a
message, and refuse to deal. ``kibitz count`` (``ScriptDealer(count_only=True)``) counts with them a script
whose kept tables pass the budget, instead of filtering.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Seat
from dealer.budget import current
from dealer.errors import SpecLimitError
from dealer.progress import reporting
from dealer.lang.syntax import parse_condition
from dealer.lang.statements import parse_statements
from dealer.run.script_dealer import ScriptDealer
from dealer.spec.cross import CrossCondition
from dealer.spec.spec import DealSpec
from dealer.tables.exact import ExactDealer
from dealer.tables.union import UnionDealer
from dealer.cards.card import HCP_BY_INDEX
from dealer.tables.reach import StreamedTables, longest_block, stream_within

FOUR = ("hcp(north) >= 15 && hcp(north) <= 17 && hcp(south) >= 8 && hcp(east) <= 10 && hcp(west) <= 10 "
        "&& hearts(south) >= 5")


def test_streamed_tables_walk_the_kept_tables_states() -> None:
    """Beside the counts of ``test_seed_totals``: the same reachable states, one position at a time (so few that no
    block of spot cards is taken: below)."""
    spec = DealSpec.parse("hascard(north, SA) && hcp(north) >= 12 && top3(south, hearts) >= 2 && spades(west) <= 2")
    kept = ExactDealer(spec, backend="compact")
    streamed = ExactDealer(spec, backend="streamed")
    assert isinstance(streamed.tables, StreamedTables)
    assert streamed.count() == kept.count() > 0
    assert streamed.cells == max(kept.tables.sizes)
    assert streamed.distribution(Seat.W, "S") == kept.distribution(Seat.W, "S")


def test_a_condition_across_seats_is_counted_at_the_end_of_the_stream() -> None:
    across = CrossCondition.build([parse_condition("hcp(north) + hcp(south) >= 30")])
    spec = DealSpec.parse("shape(north, any 4333 + any 4432) && hearts(south) >= 5")
    kept = ExactDealer(spec, across=across, backend="compact")
    streamed = ExactDealer(spec, across=across, backend="streamed")
    assert streamed.count() == kept.count() > 0
    assert streamed.count() < ExactDealer(spec, backend="streamed").count()  # the labels do cut


@settings(max_examples=8, deadline=None)
@given(north=st.integers(0, 20), south=st.integers(0, 20), spades=st.integers(0, 7),
       chunk=st.integers(256, 5000) | st.integers(8, 64))
def test_any_chunk_gives_the_same_count(north: int, south: int, spades: int, chunk: int) -> None:
    """Any chunk counts alike: small chunks make many short sorted runs of successors, kept apart by ranges of keys
    (about twice the chunk each) and merged a range at a time; the final keys come out distinct and in order, so
    the dense final counts hold every way."""
    spec = DealSpec.parse(f"hcp(north) >= {north} && hcp(south) <= {south} && spades(east) >= {spades}")
    kept = ExactDealer(spec, backend="compact")
    design = kept.design
    if design.dead:
        assert kept.count() == 0
        return
    found = stream_within(design.automata, len(design.cards.free), bool(design.cards.pool), design.final,
                          limit=max(kept.tables.sizes), chunk=chunk)
    assert isinstance(found, StreamedTables)
    assert found.total() == kept.tables.total()
    assert all(int(a) < int(b) for a, b in zip(found.final_keys[:-1], found.final_keys[1:]))
    assert sum(found.forward_final().reshape(-1).tolist()) == sum(found.values.tolist())


def test_past_its_limit_a_stream_says_so_and_streamed_tables_cannot_deal() -> None:
    spec = DealSpec.parse(FOUR)
    streamed = ExactDealer(spec, backend="streamed")
    most = streamed.cells
    design = streamed.design
    why = stream_within(design.automata, len(design.cards.free), bool(design.cards.pool), None, most - 1, chunk=999,
                        blocks=False)
    assert why == (f"this spec reaches more than {most - 1:,} joint states of its constrained seats at one position, "
                   f"beyond the limit of {most - 1:,}; constrain fewer seats jointly or loosen HCP conditions")
    with pytest.raises(SpecLimitError, match="at one position"):
        ExactDealer(spec, backend="streamed", limit=1000)
    with pytest.raises(SpecLimitError, match=r"counted one position at a time \([\d,]+ joint states at most\) and "
                                             r"not kept: they count, but cannot deal"):
        streamed.sample_masks(3, seed=1)


def test_a_count_streams_the_tables_it_cannot_keep_and_a_deal_filters() -> None:
    exact = ExactDealer(DealSpec.parse(FOUR), backend="compact").count()
    with current().replace(count_patience=1000, dense_cells=1000, across_states=1000).applied():
        counted = ScriptDealer(parse_statements(FOUR), patience=1000, count_only=True)
        dealt = ScriptDealer(parse_statements(FOUR), patience=1000)
        with current().replace(stream_states=1000).applied():
            short = ScriptDealer(parse_statements(FOUR), patience=1000, count_only=True)
    assert counted.exact and counted.dealer.count() == exact
    assert "streamed tables (counted one position at a time, not kept)" in counted.plan.text()
    assert not dealt.exact and dealt.loosened  # a run that deals keeps its tables: a seat goes to the filter
    assert not short.exact and "streamed tables: refused" in short.plan.text()


def test_a_count_does_not_stream_what_leaves_a_filter() -> None:
    """A filtered condition needs deals drawn from the tables for its estimate: those are kept, not streamed."""
    text = FOUR + " && cccc(north) >= 1200"
    with current().replace(count_patience=1000, dense_cells=1000).applied():
        run = ScriptDealer(parse_statements(text), patience=1000, count_only=True)
    assert not run.exact and "streamed" not in run.plan.text()
    assert run.dealer.sample_masks(2, seed=1).shape == (2, 4)


def test_a_count_streams_the_parts_of_a_union() -> None:
    text = "hcp(north) >= 15 && hcp(south) >= 8 && hcp(west) <= 10 && (hascard(west, C2) || hcp(east) > 8)"
    with current().replace(side_totals=1).applied():  # no side count for West's C2: a union holds the '||'
        kept = ScriptDealer(parse_statements(text))
    assert kept.exact and isinstance(kept.dealer, UnionDealer)
    with current().replace(count_patience=1000, dense_cells=1000, union_cells=1000, across_states=1000,
                           side_totals=1).applied():
        counted = ScriptDealer(parse_statements(text), patience=1000, count_only=True)
    assert counted.exact and isinstance(counted.dealer, UnionDealer) and counted.dealer.count() == kept.dealer.count()
    assert any(isinstance(part.tables, StreamedTables) for part in counted.dealer.parts)


def test_a_stream_with_no_way_left_counts_zero_and_says_why() -> None:
    """Seats possible alone but not together: no state survives some position (found by a review: it crashed)."""
    spec = DealSpec.parse(FOUR + " && spades(north) >= 7 && spades(south) >= 7")
    assert ExactDealer(spec, backend="compact").count() == 0
    streamed = ExactDealer(spec, backend="streamed")
    assert streamed.count() == 0 and streamed.is_empty
    why = streamed.explain_empty()
    assert why.startswith("north: ") and "south: " in why and why.endswith("cannot all hold together")
    dead = DealSpec.parse("hcp(north) >= 38 && hcp(east) >= 0 && hcp(south) >= 0 && hcp(west) >= 0")
    assert ExactDealer(dead, backend="streamed").count() == 0
    status, out = _count("hcp(north) >= 10 && hcp(south) >= 10 && spades(north) >= 7 && spades(south) >= 7",
                         "--limit", "1000")
    assert status == 0 and "deals:        0" in out and "exact:        yes" in out


def test_an_empty_streamed_count_is_explained_within_its_limit() -> None:
    """The explanation counts smaller tables of the same kind (not kept ones, which pass the limit here); a set
    of seats whose tables pass it is passed over."""
    spec = DealSpec.parse(FOUR + " && hearts(west) >= 9")
    with pytest.raises(SpecLimitError):
        ExactDealer(spec, backend="compact", limit=1000)
    streamed = ExactDealer(spec, backend="streamed", limit=1000)
    why = streamed.explain_empty()
    assert streamed.count() == 0 and "west: hcp(west) <= 10 && hearts(west) >= 9" in why
    assert why.endswith("cannot all hold together")


def test_a_union_refused_says_what_its_parts_were_given() -> None:
    text = "hcp(north) >= 15 && hcp(south) >= 6 && (hascard(west, C2) || hcp(east) >= 12)"
    small = current().replace(count_patience=300, dense_cells=300, union_cells=300, across_states=300,
                              across_cells=300, stream_states=500)
    with small.applied():
        run = ScriptDealer(parse_statements(text), patience=300, count_only=True)
    union = next(step.outcome for step in run.plan.steps if step.tried.startswith("a union"))
    assert union.startswith("refused, its parts' tables pass ") and "(300 together) and 500 states at one position" in union
    assert "-" not in union.split("pass ")[1].split(" cells")[0]


def _count(*argv: str) -> tuple[int, str]:
    from tests.inference.commands.helpers import run

    status, out, _ = run("count", *argv)
    return status, out


def test_loosened_tables_list_their_conditions_across_seats_as_filtered() -> None:
    text = "hcp(north) >= 12 && hcp(north) + hcp(south) >= 26 && hcp(east) <= 10 && hcp(west) <= 10"
    small = current().replace(count_patience=300, dense_cells=300, across_states=300, across_cells=300,
                              stream_states=300)
    with small.applied():
        run = ScriptDealer(parse_statements(text), patience=300, count_only=True)
    assert run.loosened and not run.exact and run.across is None
    assert run.plan.across == () and "(hcp(north) + hcp(south)) >= 26" in run.plan.filtered


def test_a_distribution_past_the_dealers_limit_is_streamed() -> None:
    """A distribution is a count: when the tables that keep the feature pass the limit, they are streamed
    (up to the budget's ``observed_states``, not ``kibitz count``'s ``stream_states``)."""
    spec = DealSpec.parse("hcp(north) >= 15 && hcp(south) >= 10 && hcp(east) < 8")
    small = ExactDealer(spec, backend="compact", limit=300_000)  # its own tables fit; North's spades' do not
    expected = ExactDealer(spec).distribution(Seat.N, "S")
    assert small.distribution(Seat.N, "S") == expected
    with current().replace(stream_states=1000).applied():  # a count's limit: not a distribution's
        assert small.distribution(Seat.N, "S") == expected
    with current().replace(observed_states=1000).applied(), pytest.raises(SpecLimitError, match="at one position"):
        small.distribution(Seat.N, "S")


def _streams(text: str, **kw: object) -> tuple[ExactDealer, list[StreamedTables]]:
    """The kept compact tables of a spec and its streams with blocks always, never and by size."""
    kept = ExactDealer(DealSpec.parse(text), backend="compact")
    d = kept.design
    found = [stream_within(d.automata, len(d.cards.free), bool(d.cards.pool), d.final, max(kept.tables.sizes),
                           blocks=blocks, **kw) for blocks in (True, False, None)]  # type: ignore[arg-type]
    assert all(isinstance(f, StreamedTables) for f in found)
    return kept, found  # type: ignore[return-value]


def test_the_spot_cards_of_a_suit_are_shared_out_in_one_step() -> None:
    """A block is the cards no seat tells apart (for HCP and lengths: the spot cards, ten to two, of a suit); its
    states are never held, so the stream's peak falls, and the count is the kept tables' exactly."""
    kept, (blocked, card_by_card, by_size) = _streams(
        "hascard(north, SA) && hcp(north) >= 12 && top3(south, hearts) >= 2 && spades(west) <= 2")
    d = kept.design
    n = len(d.cards.free)
    blocks = [(a, found[0]) for a in range(n) if (found := longest_block(d.automata, a, n)) is not None]
    assert blocks and all(HCP_BY_INDEX[d.cards.free[t]] == 0 for a, b in blocks for t in range(a, b))
    assert all(b - a >= 2 for a, b in blocks) and blocks[0] == (3, 12)  # SK SQ SJ, then the ten to the two
    assert blocked.total() == card_by_card.total() == by_size.total() == kept.tables.total()
    assert blocked.cells < card_by_card.cells == max(kept.tables.sizes)
    assert by_size.cells < card_by_card.cells  # at this limit (the kept peak) its largest positions take blocks
    roomy = stream_within(d.automata, n, bool(d.cards.pool), d.final, 8 * card_by_card.cells)
    assert isinstance(roomy, StreamedTables) and roomy.cells == card_by_card.cells  # none holds an eighth
    ace = d.cards.free.index(next(c for c in d.cards.free if HCP_BY_INDEX[c] == 4))
    assert longest_block(d.automata, ace, n) is None  # the ace and the card after it: North reads the ace
    b, maps = longest_block(d.automata, 3, n) or (0, [])
    assert [m.shape[1] for m in maps] == [b - 3 + 1] * len(d.automata)  # taking 0 .. 9 of the nine spots


@settings(max_examples=10, deadline=None)
@given(north=st.integers(0, 20), spades=st.integers(0, 7), spot=st.sampled_from(["S5", "H9", "C2", "DT"]),
       chunk=st.integers(64, 4000))
def test_blocks_count_what_card_by_card_counts(north: int, spades: int, spot: str, chunk: int) -> None:
    """Blocks split around a spot card a seat reads (``hascard``), and any chunk counts alike."""
    text = f"hcp(north) >= {north} && spades(south) >= {spades} && hascard(west, {spot}) && hcp(east) <= 12"
    kept = ExactDealer(DealSpec.parse(text), backend="compact")
    if kept.design.dead:
        return
    _, found = _streams(text, chunk=chunk)
    assert {f.total() for f in found} == {kept.tables.total()}


def test_a_stream_reports_each_step_to_whoever_listens() -> None:
    """Each position (or block) a stream reaches is reported, in order, up to the last free card, with the states
    it holds; nobody listening, nothing is told, and the count is the same."""
    kept = ExactDealer(DealSpec.parse(FOUR), backend="compact")
    d = kept.design
    n = len(d.cards.free)
    seen: list[tuple[str, int, int, str]] = []
    with reporting(lambda *told: seen.append(told)):
        found = stream_within(d.automata, n, bool(d.cards.pool), d.final, max(kept.tables.sizes))
    assert isinstance(found, StreamedTables) and found.total() == kept.tables.total()
    done = [step[1] for step in seen if step[0] == "streamed tables"]
    assert done == sorted(set(done)) and done[-1] == n and all(step[2] == n for step in seen)
    assert max(int(step[3].split()[0].replace(",", "")) for step in seen) == found.cells
