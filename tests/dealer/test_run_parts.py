"""A ``kibitz dealer`` run dealt in parts (the budget's ``run_part``): its reports are those of the whole run."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest

from dealer.budget import DEFAULT
from dealer.errors import DealerError
from dealer.lang.statements import parse_statements
from dealer.run.runner import run_script
from tests.inference.helpers import needs_solver

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}

SCRIPT = """produce 50
condition hcp(north) >= 10
action printoneline,
  average "north" hcp(north),
  frequency "south" (hcp(south), 2, 30),
  frequency "pair" (spades(north), 2, 6, hearts(north), 2, 6),
  bktfreq "west" (hcp(west), 4, 16, 3),
  printpbn
"""


def _hands(out: str) -> list[dict[str, str]]:
    """The deals ``printoneline`` printed: seat letter -> hand text (spades.hearts.diamonds.clubs)."""
    rows = re.findall(r"^n (\S+) e (\S+) s (\S+) w (\S+) $", out, flags=re.M)
    return [dict(zip("nesw", row)) for row in rows]


def _hcp(hand: str) -> int:
    return sum(HCP.get(c, 0) for c in hand)


def _run(script: str, part: int, **kwargs: object) -> str:
    out = io.StringIO()
    with DEFAULT.replace(run_part=part).applied():
        run_script(parse_statements(script), out, seed=7, **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


@pytest.mark.parametrize("part", [1, 7, 50, 1000])
def test_the_reports_are_those_of_every_deal_printed(part: int) -> None:
    out = _run(SCRIPT, part)
    hands = _hands(out)
    assert len(hands) == 50 and "Produced 50 hands" in out
    assert all(_hcp(h["n"]) >= 10 for h in hands)
    assert re.findall(r'\[Board "(\d+)"\]', out) == [str(k) for k in range(1, 51)]  # numbered across parts
    mean = sum(_hcp(h["n"]) for h in hands) / 50
    assert f"north: {mean:g}\n" in out
    south = Counter(min(max(_hcp(h["s"]), 1), 31) for h in hands)  # 1: Low, 31: High
    lines = [f"{x:5d}\t{south[x]:8d}" for x in range(2, 31)]
    assert "\n".join(lines) in out
    grid = Counter(tuple(min(max(len(suit), 1), 7) for suit in h["n"].split(".")[:2]) for h in hands)
    assert int(re.search(r"^Sum (.*)$", out, flags=re.M).group(1).split()[-1]) == 50  # type: ignore[union-attr]
    row4 = re.search(r"^   4(.*)$", out, flags=re.M).group(1).split()  # type: ignore[union-attr]
    assert [int(c) for c in row4[:-1]] == [grid[(4, k)] for k in range(1, 8)]
    west = [_hcp(h["w"]) for h in hands]
    assert re.search(r"^Total\t\s+50\t", out, flags=re.M)
    assert re.search(rf"^    7\t\s+{sum(7 <= v < 10 for v in west)}\t", out, flags=re.M)


def test_a_run_stops_at_its_generate_across_parts() -> None:
    out = _run("generate 3000\nproduce 100\ncondition hcp(north) >= 19\naction printoneline\n", 4)
    generated = int(re.search(r"Generated (\d+) hands", out).group(1))  # type: ignore[union-attr]
    produced = int(re.search(r"Produced (\d+) hands", out).group(1))  # type: ignore[union-attr]
    assert generated <= 3000 and produced == len(_hands(out)) < 100
    assert all(_hcp(h["n"]) >= 19 for h in _hands(out))


def test_only_a_run_that_reports_on_every_deal_at_once_is_bounded() -> None:
    small = DEFAULT.replace(run_deals=100, run_part=10)
    with small.applied():
        with pytest.raises(DealerError, match=r"produce 101: print\(...\).*run_deals"):
            run_script(parse_statements("produce 101\naction print(north)"), io.StringIO(), seed=1)
        out = io.StringIO()
        run_script(parse_statements("produce 101\naction average hcp(north)"), out, seed=1, verbose=False)
    assert re.fullmatch(r"\d+(\.\d+)?\n", out.getvalue())


def test_the_selection_and_its_budget_are_the_whole_runs() -> None:
    """The plan counts every part's random deals, and ``select_deals`` bounds the run, not each part: past it the
    tables take over, as in a run of one part."""
    script = "produce 70\ncondition hcp(north) >= 20\naction average hcp(north)\n"
    out = _run(script, 7, explain=True)
    generated = int(re.search(r"Generated (\d+) hands", out).group(1))  # type: ignore[union-attr]
    assert f"70 of {generated:,} random deals kept" in out
    small = io.StringIO()
    with DEFAULT.replace(run_part=7, select_deals=2000).applied():
        run_script(parse_statements(script), small, seed=7, explain=True)
    whole = io.StringIO()
    with DEFAULT.replace(select_deals=2000).applied():
        run_script(parse_statements(script), whole, seed=7, explain=True)
    for text in (small.getvalue(), whole.getvalue()):
        assert "Produced 70 hands" in text and "plan: tables" in text, text[-600:]


@needs_solver
def test_an_empty_last_part_of_a_frequency_per_lead() -> None:
    """A part that comes back empty (the generate limit reached after a full part) adds nothing, even to a
    frequency per opening lead, whose leads the first part named."""
    import numpy as np

    from dealer.lang.evaluate import Counts
    from dealer.lang.fold import fold_conditions
    from dealer.run.selection import Selection
    from dealer.run.tallies import FrequencyTally

    syntax = parse_statements("""predeal west SAK2, HQJ3, D9876, C432
condition hcp(north) + hcp(south) >= 24
action frequency (leadtricks(south, notrump), 5, 13)""")
    counts = Counts.of_script(syntax)
    rng = np.random.default_rng(1)
    deals = Selection(fold_conditions(syntax.conditions), syntax.predeals, counts).select(3, 10 ** 6, rng,
                                                                                         most=10 ** 7).deals
    tally = FrequencyTally(syntax.actions[0])  # type: ignore[arg-type]
    tally.add(deals, counts, {}, rng)
    before = tally.text(counts)
    tally.add(np.zeros((0, 4), dtype=np.uint64), counts, {}, rng)
    assert tally.text(counts) == before and tally.leads
    sums = re.search(r"^Sum (.*)$", before, flags=re.M).group(1).split()  # type: ignore[union-attr]
    assert int(sums[-1]) == 3 * len(tally.leads)  # a column per lead: each deal once in each


def test_a_run_without_produce_as_dealer_counts_it() -> None:
    """No ``produce`` (or 0, which dealer reads as unset): 40 deals when an action prints, else up to ``generate``
    (statistics alone); ``-q`` leaves out printpbn, not printall."""
    stats = _run("generate 1000\naction average hcp(north), frequency (hcp(south), 0, 37)", 1000)
    assert "Generated 1000 hands\nProduced 1000 hands" in stats
    zero = _run("produce 0\ngenerate 100000\ncondition hcp(north) >= 10\naction printoneline", 1000)
    assert "Produced 40 hands" in zero and len(_hands(zero)) == 40
    out = io.StringIO()
    run_script(parse_statements("action printall, printpbn"), out, seed=1, quiet=True, produce=0)
    assert "[Deal " not in out.getvalue() and "Produced 40 hands" in out.getvalue()
    assert re.search(r"^  40\.", out.getvalue(), flags=re.M)  # printall's deals are printed under -q, as dealer's


def test_print_shows_each_seat_once_north_to_west() -> None:
    """``print(south, north, south)`` prints North's page, then South's, as dealer does."""
    out = _run("produce 2\naction print(south, north, south)", 1000, verbose=False)
    assert out.count("hands:") == 2 and out.index("North hands:") < out.index("South hands:")


def test_a_two_way_frequency_keeps_a_space_between_counts_of_a_million() -> None:
    from dealer.lang.evaluate import Counts
    from dealer.run.tallies import FrequencyTally

    action = parse_statements("action frequency (hcp(north), 12, 12, hcp(south), 12, 12)").actions[0]
    tally = FrequencyTally(action)  # type: ignore[arg-type]
    tally.grid = [[0, 0, 0], [0, 1_000_000, 0], [0, 0, 0]]
    assert "  12      0 1000000      0 1000000\n" in tally.text(Counts.of_script(parse_statements("")))
