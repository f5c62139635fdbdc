"""The replay viewer's data and pages (without a browser; tests/inference/test_viewer_browser.py renders them).

The data of every step is checked against the play state computed here independently (the record
replayed with :func:`inference.apps.replay.replay_record`, the scenario run, each card's state taken
with :meth:`PlayState.at`), and the holder probabilities against a brute-force count of the
layouts at the end of a hand.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from dealer import Card, CardSet, Seat
from inference.claims.inferences import Status
from inference.state.play import PlayState
from inference.io.records import PlayRecord, read_records
from inference.apps.replay import replay_record
from inference.apps.scenario import run_scenario
from inference.apps.viewer import auction_calls, record_page, scenario_page
from inference.apps.viewer_page import embedded_data, index_html, page_html, page_name
from tests.inference.commands.helpers import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "records" / "example.pbn"
SEED = ROOT / "scenarios" / "seed"
LEADS = SEED / "14-15-lead-interpretations.toml"
CORPUS = Path(os.environ.get("KIBITZ_CORPUS", ROOT.parent / "shared" / "corpus"))


def example(board: str) -> PlayRecord:
    return next(r for r in read_records(EXAMPLE) if isinstance(r, PlayRecord) and r.board == board)


def card_states(state: PlayState) -> list[PlayState]:
    """The state shown at the start and after each card: just before the next card is played (or at the end)."""
    card_plies = [p for p in range(1, state.ply + 1) if state.at(p).snapshot.update.card is not None]
    ends = [p - 1 for p in card_plies] + [state.ply]
    return [state.at(p) for p in ends]


def frac(text: str) -> Fraction:
    n, d = text.split("/")
    return Fraction(int(n), int(d))


def check_step(step: dict[str, Any], state: PlayState) -> None:
    """Everything a step shows equals the engine's values for ``state``."""
    assert step["lawful"] == state.bounds().as_dict()
    assert step["concealed"] == [s.name for s in state.bounds().concealed]
    assert step["agreement"] == state.agreement_bounds()[0].as_dict()
    odds = state.odds()
    shown = step["odds"]["lawful"]
    assert int(shown["layouts"]) == odds.layouts
    assert {Card.parse(c) for c in shown["holder"]} == set(odds.holder)
    for card, by in odds.holder.items():
        for seat, p in by.items():
            text, pct = shown["holder"][str(card)][seat.name]
            assert frac(text) == p
            assert abs(float(pct) - float(p) * 100) <= 0.05
    for suit, table in odds.split.items():
        rows = shown["split"]["SHDC"[suit]]
        assert {tuple(r["lengths"]): frac(r["p"]) for r in rows} == table
        assert [frac(r["p"]) for r in rows] == sorted((frac(r["p"]) for r in rows), reverse=True)
    statuses = state.statuses()
    assert {i["name"]: (i["status"], i["level"]) for i in step["inferences"]} == {
        n: (s.status.value, s.level) for n, s in statuses.items()}
    snap = state.snapshot
    for seat in Seat:
        assert step["played"][seat.name] == [str(c) for c in CardSet(snap.played[seat])]
        held = snap.remaining[seat]
        assert step["held"][seat.name] == (None if held < 0 else [str(c) for c in CardSet(held)])


@pytest.mark.slow
def test_record_steps_equal_the_engine_card_by_card() -> None:
    rec = example("1")
    data = record_page(rec)
    states = [PlayState(rec.deal[rec.declarer], declarer=rec.declarer, contract=rec.contract)]
    replayed = [st.at(st.ply) for st, _ in replay_record(rec)]
    assert len(data["steps"]) == len(rec.play) + 1
    check_step(data["steps"][0], states[0])
    for k, (step, state) in enumerate(zip(data["steps"][1:], replayed), start=1):
        assert step["card"] == str(rec.play[k - 1]) and step["index"] == k
        check_step(step, state)
    assert data["steps"][-1]["won"] == {"NS": sum(1 for t in replayed[-1].snapshot.tricks if t.winner in (Seat.N, Seat.S)),
                                        "EW": sum(1 for t in replayed[-1].snapshot.tricks if t.winner in (Seat.E, Seat.W))}


def test_a_defenders_view_sees_dummy_and_not_declarer() -> None:
    rec = example("2")  # North declares, South is dummy; East's view
    data = record_page(rec, Seat.E)
    assert data["viewer"] == "E" and data["names"]["E"] == "we" and data["names"]["W"] == "partner"
    first = data["steps"][1]
    assert first["held"]["S"] is not None and first["held"]["N"] is None and first["held"]["W"] is None
    assert first["concealed"] == ["W", "N"]
    assert data["steps"][0]["concealed"] == ["S", "W", "N"]


@pytest.mark.slow
def test_scenario_steps_carry_statuses_agreement_odds_and_reasons() -> None:
    run_ = run_scenario(LEADS)
    data = scenario_page(run_)
    states = card_states(run_.state)
    assert len(data["steps"]) == len(states)
    for step, state in zip(data["steps"], states):
        check_step(step, state)
        shown = step["odds"]["agreement"]
        if not state.snapshot.inferences:
            assert shown is None
            continue
        agreement = state.odds("agreement")
        assert int(shown["layouts"]) == agreement.layouts
        for card, by in agreement.holder.items():
            assert {s: frac(v[0]) for s, v in shown["holder"][str(card)].items()} == {s.name: p for s, p in by.items()}
    # the reasons: every status change of the run appears once, at the card it follows
    changes = [sc.as_dict() for _, u in run_.updates for sc in u.statuses]
    assert [c for s in data["steps"] for c in s["changed"]] == changes
    king = next(s for s in data["steps"] if s["card"] == "SK")
    assert any(c["inference"] == "lead: higher of two cards" and c["new"] == Status.IMPOSSIBLE.value
               for c in king["changed"])
    assert data["checks"] == {"passed": len(run_.checks), "total": len(run_.checks)}
    # the inferences from calls make the auction panel of a scenario
    assert data["auction"] == []  # this scenario has lead inferences only
    hcp = scenario_page(run_scenario(SEED / "18-conflicts.toml"))
    assert hcp["auction"] and all(row["claims"] for row in hcp["auction"])


def test_holder_odds_match_a_brute_force_count_late_in_the_play() -> None:
    """After ten tricks, every way to give the unseen cards to the concealed hands, counted by hand."""
    rec = example("1")
    states = [st.at(st.ply) for st, _ in replay_record(rec)]
    state = states[39]  # after 40 cards: 12 unseen cards
    step = record_page(rec)["steps"][40]
    unseen = list(CardSet(state.snapshot.unseen))
    concealed = state.bounds().concealed
    need = {s: 13 - len(CardSet(state.snapshot.played[s])) for s in concealed}
    voids = state.snapshot.voids
    counts = {(c, s): 0 for c in unseen for s in concealed}
    total = 0
    for chosen in itertools.combinations(unseen, need[concealed[0]]):
        rest = [c for c in unseen if c not in chosen]
        hands = {concealed[0]: chosen, concealed[1]: rest}
        if any(voids[s] >> c.suit & 1 for s, cards in hands.items() for c in cards):
            continue
        total += 1
        for s, cards in hands.items():
            for c in cards:
                counts[c, s] += 1
    assert total == int(step["odds"]["lawful"]["layouts"])
    for (c, s), n in counts.items():
        assert frac(step["odds"]["lawful"]["holder"][str(c)][s.name][0]) == Fraction(n, total)


def test_narration_is_the_replay_text() -> None:
    status, out, _ = run("replay", str(EXAMPLE), "--board", "1")
    assert status == 0
    data = record_page(example("1"))
    for step in data["steps"][1:]:
        for text in step["narration"]:
            assert text in out


def test_auction_rows_follow_the_dealer_and_carry_claims() -> None:
    rows = auction_calls(["1NT", "Pass", "2C", "Pass"], Seat.W, [["hcp(W) >= 15 && hcp(W) <= 17"], [], ["hcp(E) >= 8"]])
    assert [(r["seat"], r["call"]) for r in rows] == [("W", "1NT"), ("N", "Pass"), ("E", "2C"), ("S", "Pass")]
    assert rows[0]["claims"] == ["hcp(W) >= 15 && hcp(W) <= 17"] and rows[3]["claims"] == []


def test_the_page_is_self_contained_and_embeds_the_data() -> None:
    data = record_page(example("2"))
    data["title"] = "</script><script>alert(1)</script> & <b>"
    page = page_html(data)
    assert embedded_data(page) == json.loads(json.dumps(data))
    assert page.count("</script>") == 2  # the data's own cannot close its element
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "the page fetches nothing"
    assert "@import" not in page and "url(" not in page
    assert "<title>&lt;/script&gt;" in page


def test_index_links_every_page_and_lists_problems() -> None:
    page = index_html("Kibitz: corpus", [("a.html", "Board 1", "x"), ("b c.html", "Board <2>", "y")], ["bad: why"])
    assert 'href="a.html"' in page and 'href="b c.html"' in page and "Board &lt;2&gt;" in page
    assert "Not shown (1)" in page and "bad: why" in page
    assert page_name("my file", "o7", 3) == "my_file-r3-bo7.html"


def test_view_writes_one_page(tmp_path: Path) -> None:
    out = tmp_path / "b2.html"
    status, text, err = run("view", str(EXAMPLE), "--board", "2", "--seat", "W", "-o", str(out))
    assert (status, text, err) == (0, "", "")
    data = embedded_data(out.read_text(encoding="utf-8"))
    assert data["title"].startswith("Board 2") and data["viewer"] == "W" and len(data["steps"]) == 53
    status, text, _ = run("view", str(LEADS))
    assert status == 0 and embedded_data(text)["title"].startswith("Interpreting the lead")


@pytest.mark.slow
def test_view_all_writes_an_index_and_a_page_per_scenario_and_record(tmp_path: Path) -> None:
    status, text, err = run("view", str(SEED), str(EXAMPLE), "--all", "-o", str(tmp_path / "site"))
    scenarios = sorted(SEED.glob("*.toml"))
    assert status == 0 and err == "", err
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'href="([^"]+)"', index)
    assert links == [f"{s.stem}.html" for s in scenarios] + ["example-r1-b1.html", "example-r2-b2.html"]
    for link in links:
        assert embedded_data((tmp_path / "site" / link).read_text(encoding="utf-8"))["steps"]
    assert text.startswith(f"wrote {len(links)} pages")


@pytest.mark.parametrize("argv, message", [
    (["view", "/no/such.pbn"], "/no/such.pbn"),
    (["view", str(SEED)], "is a folder"),
    (["view", str(SEED), "--all"], "-o DIR"),
    (["view", str(SEED), "--all", "-n", "0", "-o", "/no/such/dir"], "invalid -n 0"),
    (["view", str(LEADS), "-o", "/no/such/dir/page.html"], "cannot write"),
    (["view", str(EXAMPLE), "--board", "9"], "board 9"),
    (["view", str(EXAMPLE), "--all", "--board", "1", "-o", "x"], "not with --all"),
    (["view", str(LEADS), "--seat", "W"], "a scenario names its viewer"),
    (["view", str(EXAMPLE), str(EXAMPLE)], "one FILE makes one page"),
])
def test_view_errors_are_one_line_and_exit_2(argv: list[str], message: str) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.startswith("kibitz: error: ") and err.count("\n") == 1 and message in err, err


@pytest.mark.slow
def test_view_all_caps_pages_and_lists_the_records_that_make_none(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    bad = text.split("\n\n")[0].replace('[Board "1"]', '[Board "9"]').replace("S6 S2 SJ S4", "S6 S2 SJ HK")
    (tmp_path / "games.pbn").write_text(text + "\n\n" + bad + "\n", encoding="utf-8")
    (tmp_path / "noise.pbn").write_bytes(bytes(range(256)) * 8)  # not a text file: listed, not fatal
    status, out, err = run("view", str(tmp_path / "games.pbn"), str(tmp_path / "noise.pbn"), "--all",
                           "-o", str(tmp_path / "site"))
    assert status == 0 and err == ""
    assert out.startswith("wrote 2 pages") and "2 not shown" in out
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'href="([^"]+)"', index) == ["games-r1-b1.html", "games-r2-b2.html"]
    assert "Not shown (2)" in index and "board 9" in index and "noise.pbn" in index
    status, out, _ = run("view", str(tmp_path / "games.pbn"), "--all", "-n", "1", "-o", str(tmp_path / "one"))
    assert status == 0 and out.startswith("wrote 1 page ")
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == ["games-r1-b1.html", "index.html"]


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "bbo-vugraph").is_dir(), reason=f"no corpus at {CORPUS}")
def test_corpus_records_show_their_auction_from_the_dealer(tmp_path: Path) -> None:
    """Real records (BBO vugraph, LIN): pages for the first three, each with its calls from the dealer on."""
    status, out, err = run("view", str(CORPUS / "bbo-vugraph"), "--all", "-n", "3", "-o", str(tmp_path))
    assert status == 0 and out.startswith("wrote 3 pages"), err
    for link in re.findall(r'href="([^"]+)"', (tmp_path / "index.html").read_text(encoding="utf-8")):
        data = embedded_data((tmp_path / link).read_text(encoding="utf-8"))
        source, index = re.match(r"(.*), board \S+ \(record (\d+)\)$", data["source"]).groups()
        rec = next(r for r in read_records(source, record=int(index)) if isinstance(r, PlayRecord))
        assert [(c["seat"], c["call"]) for c in data["auction"]] == [
            (Seat((rec.dealer + i) % 4 if rec.dealer is not None else i % 4).name, call)
            for i, call in enumerate(rec.calls)]
        assert len(data["steps"]) == len(rec.play) + 1


def test_view_defaults_to_the_first_replayable_record(tmp_path: Path) -> None:
    first, second = EXAMPLE.read_text(encoding="utf-8").split("\n\n", 1)
    unplayed = re.sub(r'\[Play "W"\].*?\*', "", first, flags=re.S)  # board 1 without its play
    (tmp_path / "two.pbn").write_text(unplayed + "\n\n" + second, encoding="utf-8")
    status, out, err = run("view", str(tmp_path / "two.pbn"))
    assert status == 0, err
    assert embedded_data(out)["title"].startswith("Board 2")


def test_a_book_reads_the_auction_into_the_page() -> None:
    """``--book``: each call shows the claims the book gives it, and those about hidden hands are in force."""
    from dataclasses import replace

    from inference.auction.reading import read_auction

    rec = replace(example("1"), calls=("1H", "Pass", "4H", "Pass", "Pass", "Pass"), dealer=Seat.S)
    reading = read_auction(Seat.S, rec.calls, "sayc", rec.vulnerable, None, rec.declarer)
    data = record_page(rec, book="sayc")
    assert [row["call"] for row in data["auction"]] == list(rec.calls)
    for row, call in zip(data["auction"], reading.calls):
        assert [c.split(" (")[0] for c in row["claims"]] == [inf.claim for inf in call.inferences]
    assert any(row["claims"] for row in data["auction"])  # the opening says something
    in_force = {inf["name"] for inf in data["steps"][0]["inferences"]}
    hidden = {inf.name for inf in reading.inferences if inf.by != rec.declarer}
    assert hidden and hidden <= in_force
    status, _, err = run("view", str(EXAMPLE), "--board", "1", "--book", "no-such-book", "-o", os.devnull)
    assert status == 2 and "no-such-book" in err
