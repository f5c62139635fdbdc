"""The auction everywhere: PlayState.add_auction, the scenario [auction] table, the protocol's auction
command, kibitz replay --book and kibitz rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer import Seat
from inference.auction.calibration import calibrate, claim_prior
from inference.auction.measures import wilson
from inference.commands import main
from inference.errors import InvalidArgumentError, ScenarioError
from inference.state.play import PlayState
from inference.apps.protocol import Session
from inference.apps.scenario import run_scenario

# S holds the spades, W the hearts, N the diamonds, E the clubs; S opens 1C explained "2+ !C; 11-21 HCP"
LIN = ("pn|a,b,c,d|st||md|1S23456789TJQKA,H23456789TJQKA,D23456789TJQKA,|sv|o|"
       "mb|1C!|an|2+ !C; 11-21 HCP|mb|p|mb|1N|mb|p|mb|p|mb|p|pc|cA|pc|s2|pc|h2|pc|d2|")


def test_add_auction_is_one_event_about_the_other_seats() -> None:
    state = PlayState("AKQ2.K32.Q32.432", declarer="S", contract="4S")
    update = state.add_auction("W", ["Pass", "1NT", "Pass", "4S", "Pass", "Pass", "Pass"], book="sayc",
                               vulnerability="None")
    assert update is not None and state.ply == 1
    infs = state.snapshot.inferences
    assert all(i.by != Seat.S for i in infs)  # the viewer's own calls: its hand is known
    assert {i.by for i in infs} == {Seat.W, Seat.N, Seat.E}
    assert sorted(state.statuses()) == [  # the quiet passes of the second round by the general rule
        "E let the opponents bid unopposed: at most 11 HCP (call 7)", "E passed over 1NT: at most 15 HCP (call 3)",
        "N opened 1NT: 15-17 HCP, balanced (call 2) [balanced]", "N opened 1NT: 15-17 HCP, balanced (call 2) [range]",
        "W let the opponents bid unopposed: at most 11 HCP (call 5)",
        "W passed in first or second seat: at most 11 HCP (call 1)"]


def test_dropped_leading_passes_are_restored_only_when_asked() -> None:
    """rpbridge.net drops leading passes: the auction as written names W declarer; the record says S. Put back
    with ``restore_passes``; refused otherwise, saying so (no silent rewriting of what the caller gave)."""
    state = PlayState("AKQ2.K32.Q32.432", declarer="S", contract="4S")
    auction = ["1NT", "Pass", "4S", "Pass", "Pass", "Pass"]
    with pytest.raises(InvalidArgumentError, match=r"'1NT Pass 4S Pass Pass Pass' from dealer W ends in 4S by E, but "
                                                   r"S declares the contract played \(a record that dropped 1 leading "
                                                   r"pass\? restore_passes=True"):
        state.add_auction("W", auction, book="sayc")
    assert state.ply == 0 and state.snapshot.inferences == ()  # nothing changed
    state.add_auction("W", auction, book="sayc", restore_passes=True)  # really W passed first
    assert "N opened 1NT: 15-17 HCP, balanced (call 2) [range]" in state.statuses()
    assert "W passed in first or second seat: at most 11 HCP (call 1)" in state.statuses()
    state.pop()
    assert state.snapshot.inferences == ()
    with pytest.raises(InvalidArgumentError, match=r"ends in 3NT by N, but S declares the contract played$"):
        state.add_auction("N", ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"], book="sayc", restore_passes=True)
    with pytest.raises(InvalidArgumentError, match="is passed out: no contract, where S declares one"):
        state.add_auction("N", ["Pass"] * 4, book="sayc")
    with pytest.raises(InvalidArgumentError, match="call 2 .*not legal|a bid must be higher"):  # the reading's error
        state.add_auction("N", ["1S", "1H", "Pass", "Pass", "Pass"], book="sayc")
    with pytest.raises(InvalidArgumentError):
        state.add_auction("N", ["1S", 2, "Pass"], book="sayc")  # type: ignore[list-item]
    assert state.ply == 0
    notrump = PlayState("AKQ2.K32.Q32.432", declarer="S")  # the contract left at its default: notrump
    assert notrump.add_auction("N", ["Pass", "Pass", "1S", "Pass", "4S", "Pass", "Pass", "Pass"], book="sayc") is not None
    with pytest.raises(InvalidArgumentError, match="restore_passes must be true or false, got 'yes'"):
        state.add_auction("N", ["Pass"], book="sayc", restore_passes="yes")  # type: ignore[arg-type]
    assert state.add_auction("N", ["Pass", "1NT"], book="sayc") is not None  # unfinished: nothing to compare


def test_add_auction_uncovered_adds_nothing() -> None:
    state = PlayState("AKQ2.K32.Q32.432", declarer="S", contract="4S")
    assert state.add_auction("S", ["4S", "5S"], book="natural-wide") is None  # no rule reads a 4S opening, a cue bid
    assert state.ply == 0


def test_add_auction_statuses_follow_the_cards() -> None:
    """Dummy's pass said at most 11 HCP; dummy shows 12: the claim is impossible, its fallback confirmed."""
    state = PlayState("AKQJT98765432...", declarer="S", contract="7S")
    state.add_auction("W", ["Pass", "Pass", "Pass", "7S", "Pass", "Pass", "Pass"], book="sayc")
    name = "N passed in first or second seat: at most 11 HCP (call 2)"
    assert state.statuses()[name].status.value == "active"
    _ = state.play("H2")
    update = state.table_dummy("..AKQJT9876543.Q")
    st = state.statuses()[name]
    assert (st.level, st.status.value) == (1, "confirmed")
    assert any(sc.name == name and "fallback" in sc.reason for sc in update.statuses)
    # W (first seat) and E (third seat) passed: 18 HCP are unseen between them, so both stay open
    assert state.statuses()["W passed in first or second seat: at most 11 HCP (call 1)"].status.value == "active"


#: A scenario whose auction gives claims about both defenders.
SCENARIO = '''title = "auction"
declarer = "S"
contract = "4S"
[hands]
S = "AKQ2.K32.Q32.432"
[auction]
dealer = "W"
calls = "Pass 1NT Pass 4S Pass Pass Pass"
book = "sayc"
'''


def test_scenario_auction_table(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO + '''[[expect]]
after = "start"
status = { "W passed in first or second seat: at most 11 HCP (call 1)" = "active" }
''')
    run = run_scenario(path)
    assert run.ok, run.failures()
    dropped = SCENARIO.replace('calls = "Pass 1NT', 'calls = "1NT')  # a record's export without W's pass
    path.write_text(dropped)
    with pytest.raises(ScenarioError, match=r"s.toml, field auction: the auction '1NT Pass 4S .* restore_passes=True"):
        run_scenario(path)
    path.write_text(dropped.replace('book = "sayc"', 'book = "sayc"\nrestore_passes = true'))
    assert run_scenario(path).ok


def test_protocol_auction_command() -> None:
    session = Session()
    session.handle({"cmd": "new", "hand": "AKQ2.K32.Q32.432", "declarer": "S", "contract": "4S"})
    answer = session.handle({"cmd": "auction", "dealer": "W", "calls": "Pass 1NT Pass 4S Pass Pass Pass",
                             "book": "sayc"})
    assert answer["event"].startswith("inference W passed") and len(answer["statuses"]) == 6
    with pytest.raises(ValueError, match="missing 'book'"):
        session.handle({"cmd": "auction", "dealer": "W", "calls": "Pass"})
    session.handle({"cmd": "undo"})  # a record's auction that dropped its leading pass: put back when asked
    with pytest.raises(ValueError, match="restore_passes=True"):
        session.handle({"cmd": "auction", "dealer": "W", "calls": "1NT Pass 4S Pass Pass Pass", "book": "sayc"})
    answer = session.handle({"cmd": "auction", "dealer": "W", "calls": "1NT Pass 4S Pass Pass Pass", "book": "sayc",
                             "restore_passes": True})
    assert answer["event"].startswith("inference W passed") and len(answer["statuses"]) == 6


def test_replay_with_book_narrates_the_auction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.lin"
    path.write_text(LIN)
    assert main(["replay", str(path), "--book", "sayc"]) == 0
    out = capsys.readouterr().out
    assert "inference S bid 1C, explained '2+ !C; 11-21 HCP' (call 1)" in out
    assert "impossible" in out  # S holds thirteen spades


def test_unknown_book_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.lin"
    path.write_text(LIN)
    assert main(["replay", str(path), "--book", "acol-nonexistent"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kibitz: error: kibitz replay: argument --book: unknown book 'acol-nonexistent'")
    assert err.count("\n") == 1


def test_rules_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "folder").mkdir()
    path = tmp_path / "folder" / "x.lin"
    path.write_text(LIN)
    assert main(["rules", str(tmp_path), "--book", "sayc", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["records"] == 1 and data["coverage"]["calls"] == 6
    assert data["coverage"]["explanation"] == 1 and data["folders"]["folder"]["calls"] == 6
    by_rule = {r["rule"]: r for r in data["rules"]}
    # the explanation "2+ clubs" is false of S's thirteen spades; N's 1NT response... N opened? no: N
    # responded 1NT to partner's 1C: 6-10 HCP, and N holds AKQJ of diamonds (10 HCP)
    assert by_rule["explanation"]["levels"][0] == {**by_rule["explanation"]["levels"][0], "hits": 0, "n": 1}
    assert by_rule["response-1nt"]["levels"][0]["hits"] == 1
    assert main(["rules", str(path), "--book", "sayc", "--no-progress"]) == 0
    assert "response-1nt" in capsys.readouterr().out


def test_calibration_counts_match_a_direct_count(tmp_path: Path) -> None:
    path = tmp_path / "x.lin"
    path.write_text(LIN)
    result = calibrate([path], "sayc")
    assert result.coverage.calls == 6 and result.coverage.book + result.coverage.explanation \
        + result.coverage.uncovered == 6
    assert result.defenders.calls == 3  # W and E defend N's 1NT
    # the explanation's claim, false of S's thirteen spades, measured as a rule of its own, its accuracy (0 of 1)
    # shrunk towards its prior: (0 + 2 p) / (1 + 2)
    from inference.auction.calibration import claim_prior
    from inference.auction.measures import divergence

    prior = claim_prior("length(N, clubs) >= 2 && hcp(N) >= 11 && hcp(N) <= 21")
    assert prior is not None and 0 < prior < 1
    explained = next(r for r in result.rows if r.rule == "explanation")
    want = divergence(float(2 * prior / 3), float(prior))
    assert explained.texts == ((want, 1, 0),) and 0 < want < divergence(0.0, float(prior))  # shrunk: not 0 of 1


def test_prior_is_exact() -> None:
    from fractions import Fraction
    from math import comb

    # P(North holds 5+ spades) = sum_k C(13,k) C(39,13-k) / C(52,13)
    exact = Fraction(sum(comb(13, k) * comb(39, 13 - k) for k in range(5, 14)), comb(52, 13))
    assert claim_prior("spades(N) >= 5") == exact
    assert claim_prior("longest(N, 2) >= 10") is None  # outside the dealer's dialect
    # claims on named cards only, counted over which of them North holds
    assert claim_prior("aces(N) == 1") == Fraction(4 * comb(48, 12), comb(52, 13))
    assert claim_prior("hascard(N, SA) && keycards(N, spades) == 1") == Fraction(comb(47, 12), comb(52, 13))
    assert claim_prior("aces(N) == 1 && longest(N, 2) >= 10") is None


def test_wilson_interval() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.27 < hi < 0.28  # the textbook value 0.2775
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3


@pytest.mark.bot
def test_play_with_book_reads_the_auction(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("endplay")
    path = tmp_path / "x.lin"
    path.write_text(LIN)
    seen: list[tuple[str, ...]] = []
    original = PlayState.add_auction

    def spy(self: PlayState, dealer: object, calls: list[str], **kwargs: object) -> object:
        seen.append(tuple(calls))
        return original(self, dealer, calls, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(PlayState, "add_auction", spy)
    assert main(["play", str(path), "--book", "sayc", "-n", "2", "--tricks", "1", "--quiet"]) == 0
    assert seen == [("1C", "Pass", "1NT", "Pass", "Pass", "Pass")]
    assert "declarer's side took" in capsys.readouterr().out


def test_replay_json_carries_the_auction_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.lin"
    path.write_text(LIN)
    assert main(["replay", str(path), "--book", "sayc", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    first = [s["inference"] for s in rows[0]["statuses"]]
    assert first[0] == "S bid 1C, explained '2+ !C; 11-21 HCP' (call 1)"


def test_measured_weight_in_the_weighted_view() -> None:
    """A claim of weight w: the weighted view's probability of it is w p / (w p + 1 - p), p its lawful one."""
    from fractions import Fraction

    state = PlayState("AKQ2.K32.Q32.432", declarer="S", contract="4S", defence_model=None)  # the claim alone
    _ = state.play("H6")
    _ = state.table_dummy("J543.A54.A54.A65")
    lawful = state.odds("lawful").length[Seat.W][0]  # W's spade length
    p = sum((q for n, q in lawful.items() if n >= 3), Fraction(0))
    state.add_inference(dict(name="spades", by="W", claim="spades(W) >= 3", tag="unspecified", weight=3))
    weighted = state.odds("weighted").length[Seat.W][0]
    got = sum((q for n, q in weighted.items() if n >= 3), Fraction(0))
    assert 0 < p < 1 and got == 3 * p / (3 * p + 1 - p)


def test_book_claims_carry_their_measured_weight() -> None:
    from inference.auction.measures import load_measures, measured_weight

    (suit, _) = auction_inferences_of(["1S"])
    levels = load_measures("sayc")[("open-1major", "suit")]
    assert suit.weight == measured_weight(levels[0]) and suit.weight is not None and suit.weight > 10


def auction_inferences_of(calls: list[str]) -> list:  # type: ignore[type-arg]
    from inference.auction import auction_inferences

    return auction_inferences("N", calls, "sayc", "None")


def test_a_general_suit_rule_reads_who_bid_the_strain_before(tmp_path: Path) -> None:
    """``*x`` is a bid of any suit at any level; ``strain_bid_by`` tells a new suit, a rebid, a raise, a cue bid."""
    from inference.auction.book import load_book
    from inference.auction.context import contexts
    from inference.auction.reading import read_auction

    calls = ["1S", "2H", "2S", "3H", "Pass", "Pass", "4S", "Pass", "Pass", "Pass"]
    assert [c.strain_bid_by for c in contexts(Seat.N, calls)] == [
        "none", "none", "partner", "partner", "none", "none", "caller", "none", "none", "none"]
    assert [c.strain_bid_by for c in contexts(Seat.N, ["1H", "2H", "Pass", "Pass", "2S", "3C", "3H", "Pass", "4H"])] \
        == ["none", "opponents", "none", "none", "none", "none", "partner", "none", "caller"]  # East's cue bid
    # after partner's notrump a suit bid is often conventional (Stayman, a transfer, Gerber, a reply to Blackwood)
    assert [c.partner_notrump for c in contexts(Seat.N, ["1N", "2C", "2D", "Pass", "2H", "Pass", "4N", "Pass", "5D"])] \
        == [False, False, True, False, False, False, False, False, True]
    rule = "\n".join(['[[rule]]', 'id = "new-suit"', 'family = "general suit bid"', 'side = "other"',
                      'strain_bid_by = "none"', 'call = "*x"', 'meaning = "bid a new suit, {x}"',
                      'claim = [{ text = "length(caller, {x}) >= 5" }]', ''])
    book = tmp_path / "suits.toml"
    book.write_text('name = "suits"\n' + rule)
    reading = read_auction(Seat.N, ["1S", "3H", "Pass", "4C", "Pass", "4H"], load_book(str(book)), "None")
    # 3H and 4C: new suits of the side that did not open; 4H: East's own suit again
    assert [c.rule_id for c in reading.calls if c.source == "book"] == ["new-suit", "new-suit"]
    assert [c.context.call for c in reading.calls if c.source == "book"] == ["3H", "4C"]
    assert [str(i.claim) for i in reading.inferences] == ["length(E, hearts) >= 5", "length(W, clubs) >= 5"]
    for old, bad, message in (('strain_bid_by = "none"', 'strain_bid_by = "dealer"', "strain_bid_by must be one of"),
                              ('side = "other"', "", "need a side"), ('call = "*x"', 'call = "*N"', "invalid call token")):
        book.write_text('name = "bad"\n' + rule.replace(old, bad))
        with pytest.raises(ValueError, match=message):
            load_book(str(book))


def test_a_general_rule_matches_by_side_round_and_contest(tmp_path: Path) -> None:
    """A rule with a side reads a call by its context whatever came before; the specific rules still win."""
    from inference.auction.book import load_book
    from inference.auction.context import contexts, match
    from inference.auction.reading import read_auction

    book = tmp_path / "general.toml"
    book.write_text('''name = "general"
[[rule]]
id = "open-1s"
family = "opening"
call = "1S"
meaning = "opened 1S"
claim = [{ text = "spades(caller) >= 5" }]
[[rule]]
id = "quiet-pass"
family = "general pass"
side = "other"
round = [2, 3]
contested = false
call = "P"
meaning = "let the opponents bid freely again"
claim = [{ text = "hcp(caller) <= 15" }]
''')
    rules = load_book(str(book))
    calls = ["1S", "Pass", "2S", "Pass", "4S", "Pass", "Pass", "Pass"]
    ctxs = contexts(Seat.N, calls)
    assert [(c.side, c.round, c.contested) for c in ctxs[:3]] == [("unopened", 1, False), ("other", 1, False),
                                                                  ("opener", 1, False)]
    general = rules.rule_by_id("quiet-pass")
    assert [i for i, c in enumerate(ctxs) if match(general, c) is not None] == [5, 7]  # rounds 2 and 3+, not 1
    contested = contexts(Seat.N, ["1S", "2H", "2S", "Pass", "4S", "Pass"])
    assert match(general, contested[5]) is None  # the other side has bid: not quiet
    # whether the caller has bid before: the overcaller (East) and the opener yes; their partners no
    assert [c.caller_bid for c in contested] == [False, False, False, False, True, True]
    # East opens, South doubles (not a bid), North's earlier pass is not one either
    assert [c.caller_bid for c in contexts(Seat.N, ["Pass", "1S", "X", "Pass", "2S", "Pass", "Pass", "2H"])] == [
        False, False, False, False, False, True, False, False]
    # whether the caller made his side's first bid (earlier): North opened, East overcalled; South bid second
    assert [c.first_bidder for c in contested] == [False, False, False, False, True, True]
    late = contexts(Seat.W, ["Pass", "1H", "1S", "2H", "2S", "Pass", "Pass", "3H", "Pass", "Pass"])
    # North's two later calls (he opened) and East's (he overcalled); not West's, who raised East's overcall
    assert [i for i, c in enumerate(late) if c.first_bidder] == [5, 6, 9]
    reading = read_auction(Seat.N, calls, rules, "None")
    assert [c.rule_id for c in reading.calls if c.source == "book"] == ["open-1s", "quiet-pass", "quiet-pass"]
    # the shipped books read contested passes of players who have bid apart: the opener's, his partner's after a
    # raise, the overcaller's, his partner's after a raise
    for name in ("sayc", "natural-wide"):
        shipped = read_auction(Seat.N, ["1S", "2H", "2S", "3H", "Pass", "Pass", "Pass"], name, "None")
        assert [(c.context.caller, c.rule_id) for c in shipped.calls][4:] == [
            (Seat.N, "pass-opener-contested-opener"), (Seat.E, "pass-other-contested-bidder"),
            (Seat.S, "pass-opener-contested-responder")]
        claims = [str(i.claim) for i in shipped.calls[4].inferences + shipped.calls[6].inferences]
        assert claims == ["hcp(N) >= 11", "hcp(S) <= 10"]  # the opener's pass; his partner's
        shipped = read_auction(Seat.N, ["1S", "2H", "2S", "3H", "3S", "Pass", "Pass", "Pass"], name, "None")
        assert [(c.context.caller, c.rule_id) for c in shipped.calls][-1] == (Seat.W, "pass-other-contested-advancer")
        assert [str(i.claim) for i in shipped.calls[-1].inferences] == ["hcp(W) <= 10"]
    for bad, message in (('side = "west"', "side must be one of"), ("round = 4", "round must be 1, 2 or 3"),
                         ('side = "other"\nafter = "1S"', "no 'after'"), ("contested = true", "need a side"),
                         ("caller_bid = false", "need a side"), ("first_bidder = true", "need a side"),
                         ("partner_notrump = false", "need a side"), ("round = 2", "need a side")):
        book.write_text(f'''name = "bad"
[[rule]]
id = "r"
family = "f"
call = "P"
meaning = "m"
{bad}
''')
        with pytest.raises(ValueError, match=message):
            load_book(str(book))


def test_bits_and_the_calls_read_with_information() -> None:
    """A claim's bits are the divergence of its accuracy from its prior; a rule's are its claims' sum, and a call
    counts as read with information only when its rule's reach the threshold (an explanation's claim, its own)."""
    import math
    from fractions import Fraction

    from inference.auction.calibration import MIN_BITS, Calibration, ClaimRow, Coverage
    from inference.auction.measures import Level

    def kl(a: float, p: float) -> float:  # the same divergence, written from its definition in nats
        return (a * math.log(a / p) + (1 - a) * math.log((1 - a) / (1 - p))) / math.log(2)

    for hits, n, prior in ((9, 10, Fraction(1, 2)), (70, 100, Fraction(56, 100)), (1, 4, Fraction(3, 4))):
        assert Level(hits, n, prior).bits == pytest.approx(kl(hits / n, float(prior)))
    assert Level(5, 10, None).bits is None and Level(0, 0, Fraction(1, 2)).bits is None
    assert Level(10, 10, Fraction(1, 2)).bits == pytest.approx(1.0)  # always true of a coin: one bit

    def row(rule: str, label: str, level: Level, defenders: int) -> ClaimRow:
        return ClaimRow(rule, "f", label, "agreement-unspecified", (level,), {}, (0, defenders))

    weak = Level(60, 100, Fraction(1, 2))  # 0.029 bits: two of them pass the threshold together
    rows = (row("two-claims", "a", weak, 40), row("two-claims", "b", weak, 40), row("one-weak", "", weak, 7),
            row("explanation", "", Level(99, 100, None), 5))
    result = Calibration("b", 1, 0, rows, Coverage(calls=400), defenders=Coverage(calls=200))
    assert result.rule_bits() == pytest.approx({"two-claims": 2 * kl(0.6, 0.5), "one-weak": kl(0.6, 0.5)})
    assert kl(0.6, 0.5) < MIN_BITS <= 2 * kl(0.6, 0.5)
    assert result.informative() == (100, 40)
    # the claims read from explanations count one by one, each as a rule of its own
    texts = ((1.2, 30, 9), (MIN_BITS / 2, 5, 1), (None, 2, 0), (MIN_BITS, 4, 4))
    explained = ClaimRow("explanation", "explanation", "", "agreement-unspecified", (Level(99, 100, None),), {},
                         (0, 14), texts)
    with_texts = Calibration("b", 1, 0, rows[:3] + (explained,), Coverage(calls=400), defenders=Coverage(calls=200))
    assert with_texts.informative() == (100 + 30 + 4, 40 + 9 + 4)
    assert with_texts.informative(at_least=1.5) == (0, 0)
    # kibitz rules' tables keep their columns whatever the length of a rule's id
    from inference.commands.rules import format_table

    long = "a-rule-id-longer-than-the-default-column"
    text = format_table(Calibration("b", 1, 0, (row(long, "", weak, 3), *rows), Coverage(calls=400), {"f": Coverage(1)},
                                    defenders=Coverage(calls=200)))
    for table in text.split("\n\n")[1:4:2]:  # the rules and the folders
        starts = {line.index(" ", len(long)) for line in table.splitlines() if not line.startswith("claim accuracy")}
        assert len(starts) == 1, table


def test_a_general_rule_speaks_once_for_each_caller() -> None:
    """Every quiet pass of the other side is read, but a caller's repeated passes are one piece of evidence."""
    from inference.auction.reading import read_auction

    calls = ["1S", "Pass", "2S", "Pass", "3S", "Pass", "4S", "Pass", "Pass", "Pass"]
    reading = read_auction(Seat.N, calls, "sayc", "None")
    general = [c for c in reading.calls if c.rule_id == "pass-other-quiet"]
    assert len(general) >= 4 and {c.context.caller for c in general} == {Seat.E, Seat.W}
    names = [i.name for i in reading.inferences if "unopposed" in i.name]
    assert len(names) == 2 and {n[0] for n in names} == {"E", "W"}


def test_scenario_and_protocol_take_the_likelihood(tmp_path: Path) -> None:
    """``run_scenario(..., likelihood=None)`` and the protocol's ``"likelihood": "none"`` keep the calls' ratios."""
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)
    assert run_scenario(path).state.snapshot.auction is not None
    assert run_scenario(path, likelihood=None).state.snapshot.auction is None
    for given, weighed in (("default", True), ("none", False)):
        session = Session()
        session.handle({"cmd": "new", "hand": "AKQ2.K32.Q32.432", "declarer": "S", "contract": "4S"})
        session.handle({"cmd": "auction", "dealer": "W", "calls": "Pass 1NT Pass 4S Pass Pass Pass", "book": "sayc",
                        "likelihood": given})
        assert session.state is not None and (session.state.snapshot.auction is not None) == weighed


def test_odds_of_a_scenario_read_its_auction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``kibitz odds SCENARIO --view agreement`` holds the scenario's ``[auction]`` claims: fewer layouts."""
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.replace('[auction]', 'N = "J543.AQ4.AK4.AK5"\n[auction]'))
    counts = {}
    for view in ("lawful", "agreement"):
        assert main(["odds", str(path), "--view", view, "--json"]) == 0
        counts[view] = json.loads(capsys.readouterr().out)["layouts"]
    assert 0 < counts["agreement"] < counts["lawful"]


@pytest.mark.parametrize("calls, message", [
    (["1S", "1S"], "call 2 \\('1S' by east\\) is not legal: a bid must be higher than 1S"),
    (["1S", "P", "1H"], "call 3 \\('1H' by south\\) is not legal: a bid must be higher than 1S"),
    (["P", "X"], "call 2 \\('X' by east\\) is not legal: a double must follow an opponent's bid"),
    (["1S", "P", "X"], "a double must follow an opponent's bid"),
    (["1S", "X", "X"], "a double must follow an opponent's bid"),
    (["1S", "XX"], "a redouble must follow an opponent's double"),
    (["1S", "X", "P", "XX"], "a redouble must follow an opponent's double"),
    (["1NT", "P", "P", "P", "2C"], "call 5 \\('2C' by north\\) is not legal: the auction has ended"),
    (["P", "P", "P", "P", "1C"], "the auction has ended"),
])
def test_an_illegal_auction_is_refused_with_its_call(calls: list[str], message: str) -> None:
    """A call the laws do not allow is refused, named by its number and caller; the state is unchanged."""
    state = PlayState("AKQ2.K32.Q32.432", declarer="S", contract="4S")
    with pytest.raises(InvalidArgumentError, match=message):
        state.add_auction("N", calls, book="sayc")
    assert not state.snapshot.inferences


def test_legal_auctions_and_a_records_extra_pass_are_read() -> None:
    """Doubles, redoubles and bids over them are read; a pass after the end (some operators add one) is let be."""
    from inference.auction.context import illegal_call

    for calls in (["1S", "X", "XX", "2C", "P", "P", "X", "P", "P", "P"], ["P", "2NT", "P", "P", "P", "P"],
                  ["1C", "P", "P", "X", "P", "P", "XX", "P", "P", "P"]):
        assert illegal_call(Seat.N, calls) is None, calls
    state = PlayState("AKQ2.K32.Q32.432", declarer="S", contract="4S")
    state.add_auction("W", ["Pass", "1NT", "Pass", "4S", "Pass", "Pass", "Pass", "Pass"], book="sayc")
    assert state.snapshot.inferences


def test_view_of_a_scenario_takes_the_likelihood_and_the_model(tmp_path: Path) -> None:
    """``kibitz view SCENARIO --likelihood none`` makes the page without the graded likelihood's line."""
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)
    pages = {}
    for given in ("default", "none"):
        out = tmp_path / f"{given}.html"
        assert main(["view", str(path), "--likelihood", given, "-o", str(out)]) == 0
        pages[given] = out.read_text()
    assert "likelihood weighs" in pages["default"] and "likelihood weighs" not in pages["none"]
