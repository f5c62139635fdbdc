"""Bad input is named where it is, and nothing is lost: scenario fields by file, line and field; a malformed
record among good ones; options checked before anything runs; strict JSON in the protocol."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.inference.commands.helpers import run

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "scenarios" / "records" / "example.pbn"
SEED = (ROOT / "scenarios" / "seed" / "08-10-declaring-side-and-trick-one.toml").read_text()


def _scenario(tmp_path: Path, old: str, new: str) -> Path:
    assert old in SEED
    path = tmp_path / "s.toml"
    path.write_text(SEED.replace(old, new, 1))
    return path


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_failed_expectation_names_its_line(tmp_path: Path) -> None:
    path = _scenario(tmp_path, 'bounds.E = { S = "0..0", H = "4..6"', 'bounds.E = { S = "0..0", H = "5..6"')
    status, out, _ = run("replay", str(path))
    expect = _line(path, 'H = "5..6"')
    line = max(i for i, text in enumerate(path.read_text().splitlines()[:expect], 1) if "[[expect]]" in text)
    assert status == 1 and f"FAILED {path}:{line}: after 1.3: E H [5, 6] (got [4, 6])" in out
    status, out, err = run("replay", "--json", str(path))
    assert status == 1 and f"FAILED {path}:{line}: after 1.3" in err
    assert all(json.loads(row) for row in out.splitlines())  # the rows stay JSON


@pytest.mark.parametrize("old, new, field, message", [
    ('H = "4..6"', 'H = "6..4"', "expect.3.bounds", "low end is above its high end: '6..4'"),
    ('N = "2.KJT', 'N = "A.KJT', "hands.N", "already seen elsewhere: SA"),
    ('contract = "3NT"', 'contract = "8NT"', "contract", "invalid contract '8NT'"),
    ('after = "1.3"', 'after = "9.9"', "after", "the play never reaches '9.9'"),
])
def test_a_bad_scenario_field_is_named_with_its_line(tmp_path: Path, old: str, new: str, field: str,
                                                     message: str) -> None:
    """Each is an input error (status 2), not a failed expectation, at the line where the bad value is."""
    path = _scenario(tmp_path, old, new)
    status, out, err = run("replay", str(path))
    assert status == 2 and out == "" and f"field {field}: " in err and message in err
    shown = int(err.split(", line ")[1].split(",")[0])
    lines = path.read_text().splitlines()
    assert new.split(" = ")[1] in lines[shown - 1] or "[[expect]]" in lines[shown - 1], (shown, err)


def test_a_malformed_record_among_good_ones_is_named(tmp_path: Path) -> None:
    """The good records are replayed; the malformed one is named on standard error and the status says so."""
    text = EXAMPLE.read_text()
    path = tmp_path / "two.pbn"
    path.write_text(text.replace("DK D4 D3 D2", "DK D4 D3 DZ", 1))
    assert "DZ" in path.read_text()
    status, out, err = run("replay", str(path))
    assert status == 2 and "board 1" in out and "invalid card 'DZ'" in err and "(record 2" in err


@pytest.mark.parametrize("command", ["odds", "sample", "view", "play"])
def test_a_malformed_first_record_is_not_passed_over(command: str, tmp_path: Path) -> None:
    """Without --board or --record the first record is the one meant: a malformed one is named, not skipped."""
    deal = next(line for line in EXAMPLE.read_text().splitlines() if line.startswith("[Deal "))
    path = tmp_path / "first-bad.pbn"
    path.write_text(EXAMPLE.read_text().replace(deal, deal.replace("K", "Z", 1), 1))
    extra = ["-o", str(tmp_path / "v.html")] if command == "view" else ["-n", "1"] if command != "odds" else []
    status, out, err = run(command, str(path), *extra)
    assert status == 2 and out == "" and "(record 1, line " in err and "--board or --record" in err, err
    status, out, err = run("odds", str(path), "--board", "2")
    assert status == 0 and err == ""


def test_options_and_paths_are_checked_before_anything_runs(tmp_path: Path) -> None:
    for argv in (["odds", str(EXAMPLE), "--book", "nosuch"], ["sample", str(EXAMPLE), "--book", "/none.toml"]):
        status, out, err = run(*argv)
        assert status == 2 and out == "" and "unknown book" in err, argv
    status, out, err = run("stats", "--spec", "hcp(north) >= 20", "-n", "50", "--plot", "/nonexistent/x.png")
    assert status == 2 and out == "" and "cannot write plot" in err
    scenario = str(ROOT / "scenarios" / "seed" / "16-hcp-bounds.toml")
    status, _, err = run("replay", scenario, str(EXAMPLE))
    assert status == 2 and "is a scenario: replay it on its own" in err
    status, _, err = run("play", scenario)
    assert status == 2 and "is a scenario" in err


def test_a_binary_file_in_a_folder_is_one_rejection(tmp_path: Path) -> None:
    (tmp_path / "example.pbn").write_text(EXAMPLE.read_text())
    (tmp_path / "binary.pbn").write_bytes(b"abc\0def")
    status, out, _ = run("replay", "--summary", "--json", str(tmp_path))
    summary = json.loads(out)
    assert status == 0 and summary["rejected"] == 1 and summary["replayed"] >= 1
    assert any("not a text file" in reason for reason in summary["rejected_by_reason"])


def test_the_protocol_speaks_strict_json() -> None:
    requests = '{"cmd":"x","id":NaN}\n{"cmd":"play","card":"C6","id":1e400}\n{"cmd":"quit","id":3}\n'
    status, out, _ = run("serve", stdin=requests)
    replies = [json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} in a reply")) for line in
               out.splitlines()]
    assert status == 0 and len(replies) == 3
    assert replies[0]["kind"] == "InvalidJSON" and "NaN is not JSON" in replies[0]["error"]
    assert replies[1]["ok"] is False and "id" not in replies[1] and replies[2]["id"] == 3


def test_help_is_plain_text_and_names_what_is_wrong() -> None:
    """--help shows no Sphinx markup; an unknown agreement and a bad seat are named as the user wrote them."""
    import re

    for command in ("replay", "rules", "defence", "likelihood", "serve"):
        status, out, _ = run(command, "--help")
        assert status == 0 and not re.search(r":\w+:`|``", out), command
    assert "1,000,000 characters" in run("serve", "--help")[1]
    status, _, err = run("play", str(EXAMPLE), "--carding", "bogus")
    assert status == 2 and "unknown carding agreement 'bogus'" in err
    for command in ("odds", "sample", "view", "replay"):
        status, _, err = run(command, str(EXAMPLE), "--seat", "Q")
        assert status == 2 and "--seat: invalid seat 'Q'" in err, command


def test_a_pbn_error_names_the_line_of_the_bad_part(tmp_path: Path) -> None:
    """A bad Deal is named at its tag's line, a bad card of the play at its row's line, not the record's first."""
    text = EXAMPLE.read_text()
    bad_play = tmp_path / "play.pbn"
    bad_play.write_text(text.replace("DK D4 D3 D2", "DK D4 D3 DZ", 1))
    status, _, err = run("replay", str(bad_play), "--board", "2")
    row = next(i for i, line in enumerate(bad_play.read_text().splitlines(), 1) if "DZ" in line)
    assert status == 2 and f"line {row}), trick 2: invalid card 'DZ'" in err
    deal = next(line for line in text.splitlines() if line.startswith("[Deal "))
    bad_deal = tmp_path / "deal.pbn"
    bad_deal.write_text(text.replace(deal, deal.replace("K", "Z", 1), 1))
    status, _, err = run("replay", str(bad_deal), "--record", "1")
    tag = next(i for i, line in enumerate(bad_deal.read_text().splitlines(), 1) if line.startswith("[Deal "))
    assert status == 2 and f"(record 1, line {tag}): Deal " in err
    for old, new in (('[Contract "4H"]', '[Contract "8H"]'), ('[Declarer "S"]', '[Declarer "Q"]'),
                     ('[Play "W"]', '[Play "X"]'), ('[Play "W"]', '[Play "N"]')):
        bad_tag = tmp_path / "tag.pbn"
        bad_tag.write_text(text.replace(old, new, 1))
        status, _, err = run("replay", str(bad_tag), "--record", "1")
        tag = next(i for i, line in enumerate(bad_tag.read_text().splitlines(), 1) if line == new)
        assert status == 2 and f"(record 1, line {tag})" in err, (new, err)


def test_a_malformed_record_not_asked_for_is_let_be(tmp_path: Path) -> None:
    """``--board 2`` replays board 2 whatever board 1 holds."""
    path = tmp_path / "one-bad.pbn"
    path.write_text(EXAMPLE.read_text().replace("D7 D3 D6 D2", "D7 D3 D6 DZ", 1))
    assert "DZ" in path.read_text()
    status, out, err = run("replay", str(path), "--board", "2")
    assert status == 0 and err == "" and "board 2" in out


def test_view_reads_book_auto_and_keeps_every_page(tmp_path: Path) -> None:
    """``--book auto`` is the book of each record's population; two files of one name make two pages."""
    out = tmp_path / "page.html"
    status, _, err = run("view", str(EXAMPLE), "--book", "auto", "-o", str(out))
    assert status == 0 and err == "" and out.stat().st_size > 0
    scenarios = ROOT / "scenarios" / "seed"
    for folder, source in (("a", "16-hcp-bounds.toml"), ("b", "18-conflicts.toml")):
        (tmp_path / "in" / folder).mkdir(parents=True)
        (tmp_path / "in" / folder / "x.toml").write_text((scenarios / source).read_text())
    status, said, _ = run("view", "--all", str(tmp_path / "in"), "-o", str(tmp_path / "out"))
    pages = sorted(p.name for p in (tmp_path / "out").glob("*.html") if p.name != "index.html")
    assert status == 0 and said.startswith("wrote 2 pages") and len(pages) == 2
    index = (tmp_path / "out" / "index.html").read_text()
    assert all(f'href="{name}"' in index for name in pages)


def test_stats_compares_hcp_even_where_the_spec_counts_controls() -> None:
    """The exact HCP frequencies of a seat whose conditions use controls are its HCP's (22 to 37 for ten
    controls), so the deals drawn show no impossible value."""
    from fractions import Fraction

    status, out, _ = run("stats", "--spec", "controls(north) >= 10", "-n", "300", "--seed", "1", "--hand", "N",
                         "--feature", "hcp", "--json")
    table = json.loads(out)["tables"][0]
    assert status == 0 and not table["impossible_seen"]
    assert min(map(int, table["exact"])) == 22 and sum(Fraction(p) for p in table["exact"].values()) == 1


def test_a_record_and_board_that_do_not_meet_say_so() -> None:
    status, _, err = run("replay", str(EXAMPLE), "--board", "2", "--record", "1")
    assert status == 2 and "no replayable play for record 1 as board 2" in err


def test_the_bounds_table_keeps_long_names_whole() -> None:
    """From North (dummy's seat as declarer's partner), the table's rows name declarer whole, columns aligned."""
    status, out, _ = run("replay", str(EXAMPLE), "--seat", "N")
    table = out.split("bounds at the end:\n")[1].splitlines()[:4]
    assert status == 0 and any(row.startswith("declarer ") for row in table)
    assert len({len(row) for row in table[1:]}) == 1


def test_stats_compares_with_a_spec_across_seats() -> None:
    """``hcp(north) + hcp(south) >= 30`` (refused before: it relates two seats): North's exact HCP frequencies
    sum to 1, and the deals drawn from the spec show no impossible value."""
    from fractions import Fraction

    status, out, _ = run("stats", "--spec", "hcp(north) + hcp(south) >= 30", "-n", "300", "--seed", "2",
                         "--hand", "N", "--feature", "hcp", "--json")
    table = json.loads(out)["tables"][0]
    assert status == 0 and not table["impossible_seen"]
    assert sum(Fraction(p) for p in table["exact"].values()) == 1
    assert sum(table["observed"].values()) == 300


def test_corpus_commands_count_an_unreadable_file_and_refuse_nothing_to_read(tmp_path: Path) -> None:
    """A binary file among the records is one unreadable file, not the end of the run; a folder with nothing
    to read is an error, not an empty table or model."""
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "example.pbn").write_text(EXAMPLE.read_text())
    (tmp_path / "good" / "binary.pbn").write_bytes(b"abc\0def")
    status, out, _ = run("rules", str(tmp_path / "good"), "--book", "sayc", "--json")
    assert status == 0 and json.loads(out)["records"] >= 1
    (tmp_path / "empty").mkdir()
    for argv in (["rules", str(tmp_path / "empty"), "--book", "sayc"], ["defence", str(tmp_path / "empty")],
                 ["likelihood", str(tmp_path / "empty"), "--book", "sayc", "--out", str(tmp_path / "l.json")]):
        status, out, err = run(*argv)
        assert status == 2 and out == "" and ("no record" in err or "too few records" in err), argv
    assert not (tmp_path / "l.json").exists()
