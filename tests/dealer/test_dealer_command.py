"""``kibitz dealer SCRIPT`` and ``kibitz count SCRIPT`` on whole scripts: output, exactness, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer import Deal
from tests.inference.commands.helpers import run

SCRIPT = """# a teaching script
produce 4
seed 9
predeal south SAQ542, HKJ87, D32, CAK
west1c = hcp(west) > 11 && clubs(west) >= 3
north2d = diamonds(north) >= 6 and hcp(north) > 5 and hcp(north) < 11
condition west1c and north2d
action printpbn, average "west" hcp(west)
"""


def test_dealer_runs_a_script_file(tmp_path: Path) -> None:
    path = tmp_path / "you_hold.dl"
    path.write_text(SCRIPT)
    status, out, err = run("dealer", str(path))
    assert status == 0 and err == ""
    deals = [Deal.from_pbn(line.split('"')[1]) for line in out.splitlines() if line.startswith("[Deal ")]
    assert len(deals) == 4
    for d in deals:
        assert str(d[2]) == "AQ542.KJ87.32.AK"
        west = sum(c.hcp for c in d[3])
        north = sum(c.hcp for c in d[0])
        assert west > 11 and d[3].length(3) >= 3 and d[0].length(2) >= 6 and 5 < north < 11
    assert "Produced 4 hands\nInitial random seed 9\n" in out
    assert "west: " in out and "count:" not in out  # nothing counted unless asked
    again = run("dealer", str(path))[1]
    assert again.split("Time needed")[0] == out.split("Time needed")[0]
    counted = run("dealer", str(path), "--count")[1]
    assert counted.split("Time needed")[0] == out.split("Time needed")[0] and "\ncount: exact " in counted


def test_dealer_marks_an_estimate(tmp_path: Path) -> None:
    path = tmp_path / "or.dl"
    path.write_text("produce 3\ncondition hascard(west, 2C) or hascard(east, 2D)\naction printoneline\n")
    status, out, _ = run("dealer", str(path), "--seed", "3", "--count")
    assert status == 0
    lines = [line for line in out.splitlines() if line.startswith("n ")]
    assert len(lines) == 3
    assert "\ncount: " in out and ("estimate" in out or "exact" in out)


def test_count_says_exact_or_estimate(tmp_path: Path) -> None:
    # a suit's quality is no count the tables hold: it is filtered
    status, out, _ = run("count", "hcp(north) >= 12 && losers(north) <= 5 && quality(north, spades) >= 350", "--seed", "1",
                         "--draws", "20000")
    assert status == 0 and "exact:        no (an estimate)" in out and "95% interval" in out
    status, out, _ = run("count", "hcp(north) >= 12 && spades(north) >= 5")
    assert status == 0 and "exact:        yes" in out
    status, out, _ = run("count", "--json", "hcp(north) >= 12 && quality(north, spades) >= 350", "--draws", "5000",
                         "--seed", "2")
    obj = json.loads(out)
    assert obj["exact"] is False and obj["deals"] is None and obj["interval"][0] <= obj["estimate"]
    status, out, _ = run("count", "--json", "hcp(north) + hcp(south) >= 26")  # across seats: exact (dealer.spec.cross)
    obj = json.loads(out)
    assert obj["exact"] is True and obj["deals"] == 6783726771372380471164320000  # sum over h of hcp(N)==h && hcp(S)>=26-h
    status, out, _ = run("count", "--json", "spades(west) >= 5 || hearts(east) >= 5")
    obj = json.loads(out)
    assert obj["exact"] is True and isinstance(obj["deals"], int) and obj["estimate"] is None


def test_missing_script_is_a_missing_file_error() -> None:
    for argv in (["dealer", "no/such/script.dl"], ["count", "nosuch.dl"], ["deal", "scripts/none.dlr"]):
        status, out, err = run(*argv)
        assert status == 2 and out == ""
        assert err.startswith("kibitz: error: cannot read spec file") and "no such file" in err
        assert err.count("\n") == 1


def test_script_errors_name_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.dl"
    path.write_text("produce 3\ncondition hcp(north) > 10 &&\n    bogus(south) > 1\n")
    status, out, err = run("dealer", str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"kibitz: error: {path}:3:5: unknown function 'bogus'")


def _deal_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("n ")]


def test_dealers_own_options_work_as_in_dealer(tmp_path: Path) -> None:
    path = tmp_path / "opts.dl"
    path.write_text("produce 9\ncondition hcp(north) > 20\naction printpbn, printoneline, average hcp(north)\n")
    # -s and -p as in dealer: same seed, same deals; -p replaces the script's produce
    status, out, err = run("dealer", "-s", "5", "-p", "3", str(path))
    assert status == 0 and err == ""
    assert len(_deal_lines(out)) == 3 and out.count("[Deal ") == 3
    assert "Produced 3 hands\nInitial random seed 5\n" in out
    assert _deal_lines(run("dealer", "--seed", "5", "-p", "3", str(path))[1]) == _deal_lines(out)
    # -q leaves out printpbn's (and printall's) hands, not printoneline's nor the average
    quiet = run("dealer", "-s", "5", "-p", "3", "-q", str(path))[1]
    assert "[Deal " not in quiet and _deal_lines(quiet) == _deal_lines(out)
    assert [x for x in quiet.splitlines() if x.replace(".", "").isdigit()] == \
        [x for x in out.splitlines() if x.replace(".", "").isdigit()]
    # -v toggles the totals off; the count asked for stays
    terse = run("dealer", "-s", "5", "-p", "3", "-v", "--count", str(path))[1]
    assert "Generated" not in terse and "Time needed" not in terse and "\ncount: exact " in terse
    # -g caps the deals generated, as dealer counts them: in 1,000 deals, 9 over 25 HCP (each 1 in 4,000)
    # would be a chance below 1e-15
    rare = tmp_path / "rare.dl"
    rare.write_text("produce 9\ncondition hcp(north) > 25\naction printoneline\n")
    capped = run("dealer", "-s", "5", "-g", "1000", str(rare))[1]
    produced = int(capped.split("Produced ")[1].split()[0])
    assert "Generated 1000 hands" in capped and produced < 9 and len(_deal_lines(capped)) == produced
    # dealer's options that change nothing here are accepted
    assert run("dealer", "-s", "5", "-p", "3", "-u", "-m", "-0", str(path))[1].split("Time")[0] == out.split("Time")[0]


def test_dealer_reads_the_script_from_standard_input() -> None:
    script = "produce 2\ncondition spades(north) >= 6\naction printoneline\n"
    status, out, _ = run("dealer", "-s", "1", stdin=script)
    assert status == 0 and len(_deal_lines(out)) == 2
    assert all(len(line.split()[1].split(".")[0]) >= 6 for line in _deal_lines(out))
    assert run("dealer", "-s", "1", "-", stdin=script)[1].split("Time")[0] == out.split("Time")[0]
    status, _, err = run("dealer", stdin="produce 2\ncondition hcp(north) >\n")
    assert status == 2 and "<stdin>:3:1" in err


def test_dealer_refuses_its_unsupported_options_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "x.dl"
    path.write_text("hcp(north) > 20\n")
    for argv, word in ((["-e"], "exhaust"), (["-l", "library.dat"], "library.dat")):
        status, out, err = run("dealer", *argv, str(path))
        assert status == 2 and out == "" and word in err and len(err.strip().splitlines()) == 1
    for argv, shown in ((["-p=-1"], "-p -1"), (["-g=-5"], "-g -5"), (["-g", "lots"], "'lots'")):
        status, out, err = run("dealer", *argv, str(path))
        assert status == 2 and out == "" and shown in err and len(err.strip().splitlines()) == 1
    status, out, err = run("count", "hcp(north) >= 30 && quality(north, spades) >= 350", "--draws", "0")
    assert status == 2 and out == "" and "--draws 0" in err
    status, out, _ = run("dealer", "-V")
    assert status == 0 and out.startswith("kibitz dealer ")


FOUR_SEATS = ("shape(north, any 4333 + any 4432 + any 5332) && hcp(north) >= 15 && hcp(north) <= 17 && "
              "hearts(south) >= 5 && hcp(south) >= 8 && hcp(east) <= 10 && hcp(west) <= 10 && spades(west) <= 4")


def test_count_says_when_the_tables_size_made_it_an_estimate() -> None:
    # its kept tables reach 11 million states (spot cards first, honours last), past count's patience: it
    # counts them one position at a time (1.7 million states at most), exactly; past that too it filters
    # seats and says so; with --limit the user chose the size, so there is nothing to suggest
    from dealer.budget import current

    status, out, _ = run("count", FOUR_SEATS, "--explain")
    assert status == 0 and "exact:        yes" in out and "tables: streamed tables" in out
    with current().replace(stream_states=1000).applied():
        status, out, _ = run("count", FOUR_SEATS, "--draws", "2000", "--seed", "1")
    assert status == 0 and "exact:        no (an estimate); E, W filtered" in out and "--limit CELLS" in out
    assert "(or 1,000 at one position, counted and not kept)" in out
    status, out, _ = run("count", FOUR_SEATS, "--draws", "2000", "--seed", "1", "--limit", "1000000")
    assert status == 0 and out.rstrip().endswith("exact:        no (an estimate)")
    # a condition no table holds (a third count) is an estimate whatever the size: no hint
    status, out, _ = run("count", "hcp(north) >= 12 && quality(north, spades) >= 350", "--draws", "2000", "--seed", "1")
    assert status == 0 and out.rstrip().endswith("exact:        no (an estimate)")


def test_count_shows_a_progress_bar_while_it_streams_when_asked() -> None:
    """``--progress``: a bar on stderr for each stream (card positions, states held); not asked, stderr not a
    terminal: none. The count is the same either way."""
    status, out, err = run("count", FOUR_SEATS, "--progress")
    assert status == 0 and "streamed tables" in err and "52/52" in err and " states" in err
    quiet = run("count", FOUR_SEATS)
    deals = [line for line in out.splitlines() if line.startswith("deals:")]
    assert quiet[0] == 0 and deals and deals[0] in quiet[1] and "streamed tables" not in quiet[2]


def test_dealer_count_is_kibitz_counts_answer(tmp_path: Path) -> None:
    """The run's tables (at its own patience) would filter East and West; ``--count`` counts as ``kibitz count``
    does (streamed tables here), exactly, and the deals are the run's own."""
    path = tmp_path / "four.dl"
    path.write_text(f"produce 2\ncondition {FOUR_SEATS}\naction printoneline\n")
    plain = run("dealer", str(path), "-s", "4")[1]
    status, out, _ = run("dealer", str(path), "-s", "4", "--count", "--explain")
    _, counted, _ = run("count", FOUR_SEATS)
    deals = next(line for line in counted.splitlines() if line.startswith("deals:")).split()[1]
    assert status == 0 and out.split("Time needed")[0] == plain.split("Time needed")[0]
    assert f"\ncount: exact {deals} deals" in out


@pytest.mark.slow
def test_four_constrained_seats_count_exactly_within_the_default_limit() -> None:
    # the same seats with --limit 40000000: the kept tables fit, the count is exact, the spec's own, and the
    # streamed count's
    from dealer.tables.exact import ExactDealer
    from dealer.spec.spec import DealSpec

    status, out, _ = run("count", FOUR_SEATS, "--limit", "40000000", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["exact"] is True and result["estimate"] is None
    assert result["deals"] == ExactDealer(DealSpec.parse(FOUR_SEATS)).count()
    _, streamed, _ = run("count", FOUR_SEATS, "--json")
    assert json.loads(streamed)["deals"] == result["deals"]


def test_a_count_that_asks_the_solver_draws_few_deals() -> None:
    # each deal that reaches 'tricks' is solved double dummy (some 0.04 s): an estimate draws the budget's
    # solver_draws deals by default, not its draws (100,000 solves would take hours); quality >= 700 keeps almost
    # none from the solver
    pytest.importorskip("endplay")
    from dealer.budget import current
    from dealer.run.script_dealer import ScriptDealer
    from dealer.lang.statements import parse_statements

    DRAWS, SOLVER_DRAWS = current().draws, current().solver_draws

    text = "condition quality(north, spades) >= 700 && tricks(north, notrump) >= 0\n"
    run = ScriptDealer(parse_statements(text, source="t.dl"), text=text)
    assert run.solves and not run.exact and SOLVER_DRAWS < DRAWS
    assert run.count(seed=1).drawn == SOLVER_DRAWS
    plain = ScriptDealer(parse_statements("condition quality(north, spades) >= 700\n", source="p.dl"))
    assert not plain.solves and plain.count(seed=1).drawn == DRAWS


def test_an_estimate_says_how_many_deals_were_solved_double_dummy(solver_calls: list[tuple[int, int]]) -> None:
    """Only the drawn deals that pass the cheap parts reach the solver, each once, in every strain the
    condition reads (two parts asking it are one call), and the estimate says how many."""
    pytest.importorskip("endplay")
    from dealer.lang.evaluate import evaluate
    from dealer.lang.syntax import SPEC_DIALECT, parse_condition
    from dealer.rng import make_rng
    from dealer.run.script_dealer import ScriptDealer
    from dealer.lang.statements import parse_statements

    calls = solver_calls
    text = "condition quality(north, spades) >= 275 && tricks(north, notrump) >= 0 && tricks(south, spades) >= 0\n"
    run = ScriptDealer(parse_statements(text))
    result = run.count(draws=40, seed=1)
    drawn = run.dealer.sample_masks(40, make_rng(1))  # the deals the count drew, in one batch
    cheap = int(evaluate(parse_condition("quality(north, spades) >= 275", SPEC_DIALECT), drawn).sum())
    assert result.drawn == 40 and 0 < result.solved == cheap < 40 and result.accepted == cheap
    assert calls == [(cheap, 3)]  # one call: the kept deals, notrump and spades together
    assert f", {cheap:,} of them solved double dummy)" in result.text()


def test_explain_prints_the_plan_of_count_and_dealer(tmp_path: Path) -> None:
    """``--explain``: ``kibitz count`` prints where each condition went; ``kibitz dealer`` the way its deals came
    (deal and select for a common condition, the tables for a rare one) and counts nothing unless asked."""
    script = "hcp(north) >= 12 && hcp(north) + hcp(south) >= 26 && quality(north, spades) >= 350"
    status, out, err = run("count", script, "--explain", "--draws", "500", "--seed", "1")
    assert status == 0 and err == ""
    assert "plan: tables and filter (a count is an estimate)" in out
    assert "  across seats, by labels: (hcp(north) + hcp(south)) >= 26" in out and "  filter: quality(north, spades) >= 350" in out
    as_json = json.loads(run("count", script, "--explain", "--json", "--draws", "500", "--seed", "1")[1])
    assert as_json["plan"] == out[out.index("plan: "):].rstrip("\n")
    assert json.loads(run("count", script, "--json", "--draws", "500", "--seed", "1")[1])["plan"] is None
    common = tmp_path / "common.dl"
    common.write_text("condition hcp(north) >= 10\nproduce 3\naction printoneline\n")
    status, out, _ = run("dealer", str(common), "-s", "2", "--explain")
    assert status == 0 and "plan: deal and select (uniform as dealer's own; nothing counted)" in out
    assert "count:" not in out
    rare = tmp_path / "rare.dl"
    rare.write_text("condition hcp(north) >= 30\nproduce 3\naction printoneline\n")
    status, out, _ = run("dealer", str(rare), "-s", "2", "--explain", "--count")
    assert status == 0 and "plan: tables (an exact count)" in out and "tried: deal and select: left" in out
    assert out.rstrip("\n").splitlines()[-1].startswith("count: exact ")


def test_the_actions_of_a_run_ask_the_solver_once(monkeypatch: pytest.MonkeyPatch,
                                                  solver_calls: list[tuple[int, int]]) -> None:
    """Two averages of tricks in two strains and a frequency read the same deals: one solve of both strains,
    before them, and the same output as each action asking the solver itself."""
    pytest.importorskip("endplay")
    import io

    import dealer.lang.double_dummy as double_dummy_module
    import dealer.run.runner as runner_module
    from dealer.lang.statements import parse_statements

    calls = solver_calls

    def output() -> str:
        double_dummy_module.forget_solved()
        out = io.StringIO()
        text = ("produce 3\ncondition hcp(north) >= 10\naction average tricks(north, spades), "
                "average tricks(south, notrump), frequency(tricks(north, spades), 0, 13)\n")
        runner_module.run_script(parse_statements(text), out, seed=4, verbose=False)
        return out.getvalue()

    shared = output()
    assert calls == [(3, 3)]  # three deals, three strains left out, one call
    calls.clear()
    monkeypatch.setattr(runner_module, "solve_for", lambda masks, strains, pos=None: None)
    alone = output()
    assert shared == alone and calls == [(3, 4), (3, 4), (3, 4)]  # each action asked for its own strain


def test_printoneline_and_printcompact_print_their_value(tmp_path: Path) -> None:
    """As in dealer: ``printoneline EXPR`` ends each deal's line with the value, ``printcompact (EXPR)`` prints it
    on a line of its own after the four hands; the value is the deal's own (read back from the hands)."""
    path = tmp_path / "values.dl"
    path.write_text("produce 3\ncondition hcp(north) > 10\naction printoneline hcp(north), printcompact (hcp(south))\n")
    status, out, _ = run("dealer", "-s", "4", str(path))
    assert status == 0
    lines = out.splitlines()
    for k in range(3):
        oneline, compact, value = lines[6 * k], lines[6 * k + 1:6 * k + 5], lines[6 * k + 5]
        north = oneline.split()[1]
        assert oneline.split()[-1] == str(_hcp(north)) and int(oneline.split()[-1]) > 10
        assert compact[2].startswith("s ") and value == str(_hcp(compact[2].split()[1]))


def _hcp(hand: str) -> int:
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c, 0) for c in hand)


def test_a_card_condition_the_predeal_makes_false_gives_no_deal(tmp_path: Path) -> None:
    """``predeal north SA`` with ``hascard(south, SA)``: no deal, as in dealer (every deal generated, none
    produced), and an exact count of 0 naming the condition, not an error."""
    path = tmp_path / "never.dl"
    path.write_text("predeal north SA\ncondition hascard(south, SA)\nproduce 2\naction printoneline\n")
    status, out, err = run("dealer", "-s", "1", "-g", "5000", "--count", str(path))
    assert status == 0 and err == "" and "Generated 5000 hands\nProduced 0 hands\n" in out
    assert "impossible: " in out and "never.dl:2:11" in out and "count: exact 0 deals" in out
    from dealer.budget import current

    with current().replace(select_deals=1000).applied():  # past deal and select: the tables find it empty
        status, out, err = run("dealer", "-s", "1", "-g", "100000", str(path))
    assert status == 0 and err == "" and "Generated 100000 hands\nProduced 0 hands\n" in out
    status, out, _ = run("count", "--json", str(path))
    assert status == 0 and json.loads(out)["deals"] == 0
    for text in ("condition hascard(south, SA) && !hascard(south, SA)\n", "hascard(south, SA) && hascard(west, SA)"):
        status, out, _ = run("count", "--json", text)
        assert status == 0 and json.loads(out)["deals"] == 0, text


def test_a_card_predealt_twice_is_named_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "twice.dl"
    path.write_text("predeal north SA\npredeal south SA\ncondition hcp(north) > 5\n")
    for command in ("count", "dealer"):
        status, _, err = run(command, str(path))
        assert status == 2 and f"{path}:2:" in err and "SA dealt to south and to another seat" in err, command


def test_sizes_past_the_budget_are_refused_before_dealing(tmp_path: Path) -> None:
    """A run that reports on every deal at once keeps its deals (the budget's run_deals) in memory, and every run
    its frequency tables (frequency_cells)."""
    path = tmp_path / "big.dl"
    path.write_text("condition hcp(north) >= 0\naction print(north)\n")
    status, _, err = run("dealer", "-p", "1000000000", str(path))
    assert status == 2 and "produce 1,000,000,000" in err and "run_deals" in err
    path.write_text("produce 2\naction frequency \"x\" (hcp(north), 0, 100000000)\n")
    status, _, err = run("dealer", str(path))
    assert status == 2 and "big.dl:2:8: frequency: a table of 100,000,003 cells" in err
    path.write_text("produce 2\naction frequency \"x\" (hcp(north), 10, 5)\n")
    status, _, err = run("dealer", str(path))
    assert status == 2 and "high bound 5 is below the low bound 10" in err


def test_count_reads_standard_input_and_names_a_folder(tmp_path: Path) -> None:
    status, out, _ = run("count", "-", stdin="hcp(north) >= 37\n")
    assert status == 0 and "(1 in 158,753,389,900)" in out  # exact: 1 / 158753389900
    status, _, err = run("count", str(tmp_path))
    assert status == 2 and "it is a folder" in err


def test_a_chain_of_xor_reads_as_dealer_reads_it() -> None:
    """dealer's ``^^`` is binary and joins from the left: ``a ^^ b ^^ c`` holds when one or all three hold (an
    odd number), as ``(a ^^ b) ^^ c`` does, not when exactly one does."""
    predeal = ("predeal north SQJT9876,HAK,DKQJ,CA\npredeal south S543,HT98,DT98\n"
               "predeal east H765,D765,CT98\npredeal west H42,D32,C76432\n")
    a, b, c = "hcp(east) >= 6", "hcp(west) >= 6", "hcp(south) >= 6"
    counts = {}
    for name, cond in (("chain", f"{a} ^^ {b} ^^ {c}"), ("left", f"({a} ^^ {b}) ^^ {c}"),
                       ("right", f"{a} ^^ ({b} ^^ {c})"),
                       ("one", f"({a} && !({b}) && !({c})) || (!({a}) && {b} && !({c})) || (!({a}) && !({b}) && {c})"),
                       ("all", f"{a} && {b} && {c}")):
        status, out, _ = run("count", "--json", predeal + f"condition {cond}\n")
        assert status == 0, cond
        counts[name] = json.loads(out)["deals"]
    assert counts["chain"] == counts["left"] == counts["right"] == counts["one"] + counts["all"]
    assert counts["all"] > 0
