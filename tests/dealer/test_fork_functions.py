"""The forks' ``ltc``, ``rnd``, ``evalcontract``, ``abs``, doubled ``score``, ``bktfreq``, decimals, ``opener``
and ``seed =``, each against an independent computation or the fork's documented results.

``ltc``: a card-by-card oracle written from the fork's definition (the top three cards weighed
A=32 K=16 Q=8 J=4 T=2 x=1, a missing card 64, the weight's sum looked up). ``rnd``: uniformity
(chi-square) and the seed. ``evalcontract``: scores against endplay's scoring and tricks against
endplay's solver called directly (marked ``bot``).
"""

from __future__ import annotations

import io
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from scipy import stats as scipy_stats

from dealer import Deal, Seat, SpecSyntaxError, UnsupportedSpecError
from dealer.lang.double_dummy import double_dummy_tables, double_dummy_tricks
from dealer.lang.evalcontract import evalcontract_text, evaltable_text
from dealer.lang.scoring import score
from dealer.lang.evaluate import evaluate
from dealer.tables.exact import ExactDealer
from dealer.lang.expr import Random
from dealer.run.runner import run_script
from dealer.run.script_dealer import ScriptDealer
from dealer.spec.spec import DealSpec
from dealer.lang.statements import EvalContract, parse_statements
from dealer.lang.syntax import SPEC_DIALECT, parse_expression
from tests.inference.helpers import hide_endplay, needs_solver
from tests.strategies import deals, examples

# -- ltc: the oracle, card by card --------------------------------------------------------------

WEIGHT = {"A": 32, "K": 16, "Q": 8, "J": 4, "T": 2}
#: Hundredths of a loser by the sum of the top three weights, as the fork lists them.
BY_SUM = {
    0: (56, 112, 160, 192), 50: (44, 52, 104, 144),
    100: (25, 26, 28, 41, 42, 49, 50, 81, 82, 84, 88, 97, 98, 100, 129, 130, 132, 136),
    150: (22, 38), 200: (13, 14, 18, 19, 21, 34, 35, 37, 66, 67, 69, 70, 73, 74, 76), 250: (10, 11),
    300: (3, 4, 6, 7),
}
SUM_TO_LTC = {total: value for value, totals in BY_SUM.items() for total in totals}


def ltc_of_cards(ranks: list[str]) -> int:
    """The fork's count of one suit from its cards' ranks (any order)."""
    weights = sorted((WEIGHT.get(r, 1) for r in ranks), reverse=True)[:3]
    return SUM_TO_LTC[sum(weights) + 64 * (3 - len(weights))]


def suit_ranks(deal: Deal, seat: Seat, suit: str) -> list[str]:
    return [str(c)[1] for c in deal[seat] if str(c)[0] == suit]


def test_every_holding_pattern_has_a_count() -> None:
    assert len(SUM_TO_LTC) == sum(len(v) for v in BY_SUM.values())  # no sum listed twice
    masks = ExactDealer(DealSpec()).sample_masks(3000, 4)
    deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    masks = np.concatenate([masks, np.array([deal.masks], dtype=np.uint64)])
    deals = [Deal.from_pbn(_pbn(row)) for row in masks.tolist()]
    for seat in Seat:
        values = evaluate(parse_expression(f"ltc({seat.name_long})", SPEC_DIALECT), masks)
        for suit, name in zip("SHDC", ("spades", "hearts", "diamonds", "clubs")):
            by_suit = evaluate(parse_expression(f"ltc({seat.name_long}, {name})", SPEC_DIALECT), masks)
            for d, got in zip(deals[:400], by_suit[:400].tolist()):
                assert got == ltc_of_cards(suit_ranks(d, seat, suit))
        for d, got in zip(deals, values.tolist()):
            assert got == sum(ltc_of_cards(suit_ranks(d, seat, s)) for s in "SHDC")
    assert values[-1] == 0  # a 13-card suit and three voids: no loser


def _pbn(row: list[int]) -> str:
    from dealer.cards.pbnio import masks_to_pbn

    return masks_to_pbn(row)


@settings(max_examples=examples(100))
@given(deals())
def test_ltc_of_any_deal_matches_the_cards(deal: Deal) -> None:
    masks = np.array([deal.masks], dtype=np.uint64)
    for seat in Seat:
        got = int(evaluate(parse_expression(f"ltc({seat.name_long})", SPEC_DIALECT), masks)[0])
        assert got == sum(ltc_of_cards(suit_ranks(deal, seat, s)) for s in "SHDC")


def test_ltc_in_one_suit_is_counted_exactly_and_whole_hand_ltc_is_filtered() -> None:
    run = ScriptDealer(parse_statements("condition ltc(north, spades) <= 50"))
    assert run.exact
    # oracle: the spade holdings with at most half a loser, each completed by any 13 - k other cards
    ranks = "AKQJT98765432"
    p = Fraction(0)
    for h in range(1 << 13):
        cards = [ranks[i] for i in range(13) if h >> i & 1]
        if ltc_of_cards(cards) <= 50:
            p += Fraction(math.comb(39, 13 - len(cards)), math.comb(52, 13))
    assert run.dealer.probability() == p
    # over the whole hand, ltc is North's side count beside HCP (dealer.spec.sidecount): exact, and a
    # third count (top3) goes beside it too; 12 HCP need an ace, king or queen, so it changes no count
    whole = ScriptDealer(parse_statements("condition ltc(north) <= 700 && hcp(north) >= 12"))
    assert whole.exact and whole.spec.seat("N").side is not None
    third = ScriptDealer(parse_statements("condition ltc(north) <= 700 && hcp(north) >= 12 && top3(north) >= 1"))
    assert third.exact and third.residual == [] and third.count().deals == whole.count().deals
    for run in (whole, third):
        kept = run.sample_masks(300, 2)
        assert (evaluate(parse_expression("ltc(north)", SPEC_DIALECT), kept) <= 700).all()


# -- rnd ---------------------------------------------------------------------------------------

def test_rnd_is_uniform_and_drawn_from_the_stream_given() -> None:
    masks = ExactDealer(DealSpec()).sample_masks(50_000, 1)
    node = parse_expression("rnd(6)", SPEC_DIALECT)
    assert isinstance(node, Random) and str(node) == "rnd(6)"
    values = evaluate(node, masks, rng=np.random.default_rng(5))
    assert values.min() == 0 and values.max() == 5
    observed = np.bincount(values, minlength=6)
    assert scipy_stats.chisquare(observed).pvalue > 1e-4
    again = evaluate(node, masks, rng=np.random.default_rng(5))
    other = evaluate(node, masks, rng=np.random.default_rng(6))
    assert (values == again).all() and not (values == other).all()
    assert (evaluate(parse_expression("rnd(1)", SPEC_DIALECT), masks[:10], rng=np.random.default_rng(1)) == 0).all()
    with pytest.raises(UnsupportedSpecError, match="line 1, column 1: 'rnd' needs"):
        evaluate(node, masks[:3])


def test_a_condition_with_rnd_is_filtered_and_counted_as_an_estimate() -> None:
    run = ScriptDealer(parse_statements("condition rnd(4) == 0 && hcp(north) >= 15"))
    assert not run.exact and [str(c) for c in run.residual] == ["rnd(4) == 0"]
    result = run.count(draws=40_000, seed=3)
    exact = int(ExactDealer(DealSpec.parse("hcp(north) >= 15")).count())
    assert not result.exact and result.low <= exact / 4 <= result.high
    kept = run.sample_masks(2000, 7)
    assert (evaluate(parse_expression("hcp(north)", SPEC_DIALECT), kept) >= 15).all()


def test_scripts_with_rnd_repeat_with_their_seed() -> None:
    script = parse_statements("condition rnd(3) == 1\nproduce 20\naction printoneline, average rnd(100)")
    texts = []
    for seed in (11, 11, 12):
        out = io.StringIO()
        run_script(script, out, seed=seed)
        texts.append("\n".join(line for line in out.getvalue().splitlines() if not line.startswith("Time")))
    assert texts[0] == texts[1] != texts[2]
    assert texts[0].count("\nn ") + texts[0].startswith("n ") == 20


# -- evalcontract --------------------------------------------------------------------------------

def test_evalcontract_parses_its_side_contract_and_vulnerability() -> None:
    actions = parse_statements("action evalcontract(NS, x3N, vul), evalcontract(ew, 4Hxx, nv), "
                               "evalcontract(NS, z6Cx, nonvul)").actions
    assert actions == [EvalContract("NS", 3, "N", 0, True), EvalContract("EW", 4, "H", 2, False),
                       EvalContract("NS", 6, "C", 1, False)]
    assert [a.declarer for a in actions if isinstance(a, EvalContract)] == [Seat.S, Seat.W, Seat.S]
    for text, column, message in (("action evalcontract(NE, x3N, vul)", 21, "side NS or EW"),
                                  ("action evalcontract(NS, x8N, vul)", 25, "a contract such as"),
                                  ("action evalcontract(NS, x3N, maybe)", 30, "vul or nv")):
        with pytest.raises(SpecSyntaxError, match=message) as err:
            parse_statements(text)
        assert f"<spec>:1:{column}:" in str(err.value)


def test_evalcontract_report_from_tricks() -> None:
    """3NT not vulnerable, on four deals taking 9, 10, 8 and 12 tricks: worked by hand."""
    text = evalcontract_text(EvalContract("NS", 3, "N", 0, False), np.array([9, 10, 8, 12]))
    # scores 400 430 -50 490: average 317.5; one missed slam, 990 - 490 = 500 = 11 IMPs
    assert text == ("\nContract  3N    by  NS Average Result =   317.50, Made pct=   75.00, Fail pct=   25.00\n"
                    "Missed Game_pct=    0.00, Missed Slam_pct=  25.00, Missed Game Imps/board=   0.00, "
                    "Missed Slam Imps/board=   2.75\n")
    # 2S doubled vulnerable: 8 tricks 670, 10 tricks 670 + 400 = 1070, 6 tricks -500; a game missed
    # at 10 tricks (620 - 170 = 450: 10 IMPs), no slam
    text = evalcontract_text(EvalContract("EW", 2, "S", 1, True), np.array([8, 10, 6]))
    assert "Contract  2Sx V by  EW Average Result =   413.33, Made pct=   66.67, Fail pct=   33.33" in text
    assert "Missed Game_pct=   33.33, Missed Slam_pct=   0.00, Missed Game Imps/board=   3.33" in text


@needs_solver
def test_scores_equal_endplays() -> None:
    from endplay.types import Contract, Denom, Penalty, Player, Vul

    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "N": Denom.nt}
    penalties = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
    tricks = np.arange(14)
    for level in range(1, 8):
        for strain, denom in denoms.items():
            for doubled, penalty in enumerate(penalties):
                for vul in (False, True):
                    ours = score(vul, level, strain, tricks, doubled).tolist()
                    theirs = [Contract(level=level, denom=denom, declarer=Player.south, penalty=penalty,
                                       result=int(t) - level - 6).score(Vul.ns if vul else Vul.none)
                              for t in tricks]
                    assert ours == theirs, (level, strain, doubled, vul)


@needs_solver
def test_double_dummy_tricks_and_the_action_equal_endplay_called_directly() -> None:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EndplayDeal, Denom, Player

    script = parse_statements("condition hcp(north) + hcp(south) >= 23\nproduce 6\n"
                              "action printoneline, evalcontract(NS, x4S, vul), evalcontract(EW, x2Hx, nv)")
    out = io.StringIO()
    run_script(script, out, seed=4)
    lines = out.getvalue().splitlines()
    hands = [line.split()[1::2] for line in lines if line.startswith("n ")]
    assert len(hands) == 6
    pbns = ["N:" + " ".join(h) for h in hands]
    tables = [calc_dd_table(EndplayDeal(p)) for p in pbns]
    south = np.array([t[Denom.spades, Player.south] for t in tables])
    west = np.array([t[Denom.hearts, Player.west] for t in tables])
    masks = np.array([Deal.from_pbn(p).masks for p in pbns], dtype=np.uint64)
    assert double_dummy_tricks(masks, Seat.S, "S").tolist() == south.tolist()
    text = out.getvalue()
    assert evalcontract_text(EvalContract("NS", 4, "S", 0, True), south) in text
    assert evalcontract_text(EvalContract("EW", 2, "H", 1, False), west) in text


def test_evalcontract_without_the_solver_names_line_and_column(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_endplay(monkeypatch)
    with pytest.raises(UnsupportedSpecError, match="line 2, column 8: 'evalcontract' needs the bot extra"):
        ScriptDealer(parse_statements("produce 3\naction evalcontract(NS, x3N, vul)"))
    for item in ("trix", "parcontract"):  # a report's solver items, named before any deal is dealt
        script = f"produce 3\naction printrpt(NS, {item}{'(north)' if item == 'trix' else ''})"
        with pytest.raises(UnsupportedSpecError, match=f"line 2, column 8: '{item}' needs the bot extra"):
            run_script(parse_statements(script), io.StringIO(), seed=1, verbose=False)


# -- the forks' other forms (suokko's dealer, dealer version 2) ------------------------------------


def _count(text: str) -> int:
    run = ScriptDealer(parse_statements(text))
    assert run.exact
    return int(run.dealer.count())


def test_abs_counts_and_evaluates_as_the_absolute_value() -> None:
    """suokko's ``abs``: exact across seats (as both inequalities), and |x| on dealt deals."""
    assert _count("abs(hcp(north) - hcp(south)) <= 2 && hcp(north) >= 12") == \
        _count("hcp(north) - hcp(south) <= 2 && hcp(south) - hcp(north) <= 2 && hcp(north) >= 12")
    masks = ExactDealer(DealSpec()).sample_masks(500, seed=3)
    ours = evaluate(parse_expression("abs(spades(north) - 2 * hearts(south))", SPEC_DIALECT), masks)
    plain = evaluate(parse_expression("spades(north) - 2 * hearts(south)", SPEC_DIALECT), masks)
    assert ours.tolist() == np.abs(plain).tolist()


def test_score_reads_doubled_and_redoubled_contracts() -> None:
    """suokko's test_score results (7C not vulnerable made: 1440; x2Hx vulnerable, 13 tricks: 1670; x2Sx not
    vulnerable, 5 tricks: -500) and dealer version 2's z-contracts, redoubled included."""
    cases = {"score(nv, x7C, 13)": 1440, "score(vul, x2Hx, 13)": 1670, "score(nv, x2Sx, 5)": -500,
             "score(nv, z4Hx, 10)": 590, "score(vul, z4Hxx, 9)": -400, "score(vul, x3N, 9)": 600}
    masks = ExactDealer(DealSpec()).sample_masks(2, seed=1)
    for text, wanted in cases.items():
        assert evaluate(parse_expression(text, SPEC_DIALECT), masks).tolist() == [wanted, wanted], text
    assert str(parse_expression("score(vul, x4Sxx, 10)", SPEC_DIALECT)) == "score(vul, x4Sxx, 10)"


def test_decimals_are_hundredths_as_in_dealer_version_2() -> None:
    assert _count("ltc(north) < 5.5") == _count("ltc(north) < 550")
    syntax = parse_statements("pointcount 4.5 3 1.5 0.75 0.25\ncondition hcp(north) >= 10")
    assert syntax.pointcount == (450, 3, 150, 75, 25) + (0,) * 8  # as dealer version 2: a whole number stays
    with pytest.raises(SpecSyntaxError, match="decimal point out of place"):
        parse_statements("condition cccc(north) >= 130.25")
    from inference.claims.language import parse_claim
    from inference.errors import InferenceError

    with pytest.raises(InferenceError, match="unexpected decimal 10.5"):
        parse_claim("hcp(W) >= 10.5", viewer="S")  # claims count in whole numbers


def test_opener_and_seed_equals_change_no_deal() -> None:
    """dealer version 2's ``opener SEAT`` sets only its 'opc' count's opener; ``seed = N`` is ``seed N``."""
    base = "condition hcp(north) >= 14\nproduce 3\naction printoneline\n"
    outs = []
    for head in ("seed 7\n", "seed = 7\nopener south\n"):
        out = io.StringIO()
        run_script(parse_statements(head + base), out, verbose=False)
        outs.append(out.getvalue())
    assert outs[0] == outs[1] and outs[0].count("\nn ") + outs[0].startswith("n ") == 3
    assert parse_statements("opener west\n" + base).opener == Seat.W
    assert parse_statements("opener = hcp(north) >= 12\ncondition opener\n").opener is None  # a variable


def _bucket_counts(values: list[int], low: int, high: int, size: int) -> list[int]:
    """dealer version 2's buckets, one value at a time: Low, [low + (i-1) size, low + i size)..., High."""
    n = 3 + (high - low) // size
    counts = [0] * n
    for v in values:
        counts[0 if v < low else min((v - low) // size + 1, n - 1)] += 1
    return counts


def test_bktfreq_counts_each_bucket() -> None:
    script = ("condition hcp(north) >= 12\nproduce 300\n"
              "action printoneline, bktfreq \"k\" (cccc(north), 12.00, 16.00, 0.50), "
              "bktfreq \"2d\" (hcp(north), 12, 18, 3, spades(north), 3, 5, 1)\n")
    out = io.StringIO()
    run_script(parse_statements(script), out, seed=2, verbose=False)
    text = out.getvalue()
    hands = [line.split()[1] for line in text.splitlines() if line.startswith("n ")]
    assert len(hands) == 300
    cccc = evaluate(parse_expression("cccc(north)", SPEC_DIALECT), _north_masks(hands))
    one = text[text.index("Description: k\n"):text.index("Total")]
    counts = [int(line.split("\t")[1]) for line in one.splitlines()[2:] if "\t" in line and "-" not in line]
    wanted = _bucket_counts(cccc.tolist(), 1200, 1600, 50)
    shown = ([wanted[0]] if wanted[0] else []) + wanted[1:-1] + ([wanted[-1]] if wanted[-1] else [])
    assert counts == shown
    grid_text = text[text.index("Description: 2d"):]
    sums = grid_text.splitlines()[-1].split()
    assert sums[0] == "Sum" and int(sums[-1]) == 300


def _north_masks(hands: list[str]) -> np.ndarray:
    """Deals with North's hands as given (PBN holdings) and the other cards split in any way."""
    from dealer import CardSet

    rows = []
    for hand in hands:
        north = CardSet.parse(" ".join(f"{suit}{rank}" for suit, holding in zip("SHDC", hand.split("."))
                                       for rank in holding)).mask
        rest = [i for i in range(52) if not north >> i & 1]
        rows.append([north] + [sum(1 << i for i in rest[k * 13:(k + 1) * 13]) for k in range(3)])
    return np.array(rows, dtype=np.uint64)


@needs_solver
def test_evalcontract_alone_prints_the_originals_table() -> None:
    """The original's ``evalcontract``: each cell the average undoubled score, North's then South's, of every
    contract, from the tricks endplay's solver gives each of them declaring (checked one contract at a time)."""
    masks = ExactDealer(DealSpec.parse("hcp(north) + 0 >= 0 && hcp(north) >= 16")).sample_masks(6, seed=4)
    tables = double_dummy_tables(masks)
    text = evaltable_text(tables)
    lines = text.splitlines()
    assert lines[0] == "Not Vulnerable" and lines[8] == "Vulnerable"
    tricks = {(seat, strain): double_dummy_tricks(masks, seat, strain)
              for seat in (Seat.N, Seat.S) for strain in "CDHSN"}
    for vul, first in ((False, 2), (True, 10)):
        for k, strain in enumerate("CDHSN"):
            row = lines[first + k]
            assert row.startswith(f"{strain.lower()}: ")
            for level in range(1, 8):
                north, south = (int(score(vul, level, strain, tricks[seat, strain]).sum()) for seat in (Seat.N, Seat.S))
                cell = row[3 + 10 * (level - 1):3 + 10 * level]
                assert cell == f"{int(north / 6):4d}/{int(south / 6):4d} ", (vul, strain, level)
    syntax = parse_statements("condition hcp(north) >= 20\nproduce 1\naction evalcontract\n")
    out = io.StringIO()
    run_script(syntax, out, seed=1, verbose=False)
    assert out.getvalue().count("Not Vulnerable\n") == 1


@pytest.mark.slow
@needs_solver
def test_the_solver_is_asked_in_calls_it_accepts(monkeypatch: pytest.MonkeyPatch,
                                                 solver_calls: list[tuple[int, int]]) -> None:
    """DDS takes at most 200 tables a call (40 deals of five strains): 250 deals of evalcontract once failed.
    With the bound shrunk to 10 tables, 12 deals go in several calls and give the answers of one call."""
    from endplay import _dds

    import dealer.lang.double_dummy as double_dummy_module

    assert double_dummy_module.SOLVER_TABLES == _dds.MAXNOOFTABLES * 5
    masks = ExactDealer(DealSpec()).sample_masks(12, seed=8)
    whole = double_dummy_tables(masks), double_dummy_tricks(masks, Seat.W, "H")
    monkeypatch.setattr(double_dummy_module, "SOLVER_TABLES", 10)
    solver_calls.clear()
    double_dummy_module.forget_solved()  # the same deals: solved again, not found
    assert double_dummy_tables(masks).tolist() == whole[0].tolist() and [n for n, _ in solver_calls] == [2] * 6
    double_dummy_module.forget_solved()
    assert double_dummy_tricks(masks, Seat.W, "H").tolist() == whole[1].tolist()
    assert [n for n, _ in solver_calls[6:]] == [10, 2]


def test_average_with_a_filter_prints_only_where_it_holds() -> None:
    """suokko's ``average "label" (expr, filter)``: ``avg`` is the mean in millionths, truncated."""
    script = ("condition hcp(north) >= 12\nproduce 60\naction printoneline, "
              "average \"a\" (hcp(north), avg > {lo}), average \"b\" (hcp(north), avg > {hi}), "
              "average \"c\" (hcp(north))\n")
    out = io.StringIO()
    run_script(parse_statements(script.format(lo=0, hi=10 ** 9)), out, seed=5, verbose=False)
    text = out.getvalue()
    hands = [line.split()[1] for line in text.splitlines() if line.startswith("n ")]
    mean = sum(_north_hcp(hand) for hand in hands) / len(hands)
    assert f"a: {mean:g}\n" in text and "b: " not in text and f"c: {mean:g}\n" in text
    ppm = int(mean * 1_000_000)
    for bound, shown in ((ppm - 1, True), (ppm, False)):
        out = io.StringIO()
        run_script(parse_statements(script.format(lo=bound, hi=bound)), out, seed=5, verbose=False)
        assert ("a: " in out.getvalue()) is shown and ("b: " in out.getvalue()) is shown
    assert parse_statements("avg = 3\ncondition avg > 2").conditions  # a variable named avg stays one


def _north_hcp(hand: str) -> int:
    return sum("JQKA".index(rank) + 1 for holding in hand.split(".") for rank in holding if rank in "JQKA")


@needs_solver
def test_a_tricks_filter_solves_its_strains_together_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """``tricks`` in a condition asks the batch solver once per batch for every strain the tree reads (not a
    whole table a deal): with the bound shrunk to 10 tables, 12 deals in notrump and spades go in batches of
    5, 5 and 2, and the values equal the tricks solved one strain at a time."""
    import dealer.lang.double_dummy as double_dummy_module

    masks = ExactDealer(DealSpec()).sample_masks(12, seed=9)
    expected = double_dummy_tricks(masks, Seat.S, "N") + 100 * double_dummy_tricks(masks, Seat.N, "S")
    calls: list[tuple[int, int]] = []
    real = double_dummy_module.batch_solver

    def counting(pos: object, what: str = "") -> object:
        solve = real(pos)  # type: ignore[arg-type]
        return lambda deals, exclude=(): calls.append((len(deals), len(exclude))) or solve(deals, exclude=exclude)

    monkeypatch.setattr(double_dummy_module, "SOLVER_TABLES", 10)
    monkeypatch.setattr(double_dummy_module, "batch_solver", counting)
    node = parse_expression("tricks(south, notrump) + 100 * tricks(north, spades) + 0 * tricks(west, nt)",
                            SPEC_DIALECT)
    assert evaluate(node, masks).tolist() == expected.tolist()
    assert calls == [(5, 3), (5, 3), (2, 3)]
