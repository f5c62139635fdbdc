"""Whole dealer scripts: the language in full, the evaluator against a brute-force oracle, the runner."""

from __future__ import annotations

import io
import itertools
import os
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from dealer import Deal, Seat, SpecSyntaxError, Suit, UnsupportedSpecError
from dealer.lang.evaluate import evaluate
from dealer.lang.scoring import imps, score
from dealer.tables.exact import ExactDealer
from dealer.lang.expr import HandCount, Ternary, Truth
from dealer.cards.pbnio import masks_to_pbn
from dealer.cards.printing import compact_text, deal_texts, oneline_text
from dealer.run.runner import run_script
from dealer.run.script_dealer import ScriptDealer, wilson
from dealer.spec.spec import DealSpec
from dealer.lang.statements import Average, Frequency, Print, PrintES, parse_statements
from dealer.lang.syntax import SPEC_DIALECT, parse_expression

EXAMPLES = Path("/usr/share/doc/dealer/examples")


def random_masks(n: int, seed: int) -> np.ndarray:
    return ExactDealer(DealSpec()).sample_masks(n, seed)


# -- the oracle: every feature computed card by card from Deal objects ------------------------

RANKS = "AKQJT98765432"


def holding(deal: Deal, seat: Seat, suit: Suit) -> str:
    return "".join(sorted((str(c)[1] for c in deal[seat] if c.suit == suit), key=RANKS.index))


def oracle_count(kind: str, cards: str) -> int:
    alt = {"pt0": "T", "pt1": "J", "pt2": "Q", "pt3": "K", "pt4": "A", "pt5": "AK", "pt6": "AKQ", "pt7": "AKQJ",
           "pt8": "AKQJT"}
    if kind in alt:
        return sum(1 for c in cards if c in alt[kind])
    if kind == "pt9":
        return sum({"A": 6, "K": 4, "Q": 2, "J": 1}.get(c, 0) for c in cards)
    if kind == "controls":
        return sum({"A": 2, "K": 1}.get(c, 0) for c in cards)
    if kind == "losers":
        n = len(cards)
        if n == 0:
            return 0
        if n == 1:
            return 0 if cards == "A" else 1
        if n == 2:
            return 2 - sum(1 for c in cards if c in "AK")
        return 3 - sum(1 for c in cards if c in "AKQ")
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["pt0", "pt1", "pt2", "pt3", "pt4", "pt5", "pt6", "pt7", "pt8", "pt9", "controls",
                                  "losers"])
def test_hand_counts_match_a_card_by_card_oracle(kind: str) -> None:
    masks = random_masks(300, seed=7)
    deals = [Deal.from_masks([int(x) for x in row]) for row in masks]
    for seat in Seat:
        for suit in [None, *Suit]:
            got = evaluate(HandCount(kind, seat, suit), masks)
            suits = list(Suit) if suit is None else [suit]
            want = [sum(oracle_count(kind, holding(d, seat, s)) for s in suits) for d in deals]
            assert got.tolist() == want, (kind, seat, suit)


def test_spellings_of_the_counts() -> None:
    for text, kind in [("top3(north, spades)", "pt6"), ("c13(east)", "pt9"), ("aces(west)", "pt4"),
                       ("ace(west)", "pt4"), ("control(south)", "controls"), ("loser(north, hearts)", "losers"),
                       ("pt2(north)", "pt2"), ("tens(north)", "pt0")]:
        node = parse_expression(text, SPEC_DIALECT)
        assert isinstance(node, HandCount) and node.kind == kind, text


def test_expressions_against_python_on_random_deals() -> None:
    masks = random_masks(500, seed=3)
    deals = [Deal.from_masks([int(x) for x in row]) for row in masks]
    text = ("(hcp(north) > 10 ? hcp(north, spades) * 3 : -spades(south)) + shape(east, any 4432 + 5xxx) * 100"
            " + hcp(west) / 3 - hcp(west) % 4 + hascard(south, HA)")

    def by_hand(d: Deal) -> int:
        hcp = {s: sum(c.hcp for c in d[s]) for s in Seat}
        sp_hcp = sum(c.hcp for c in d[Seat.N] if c.suit == Suit.S)
        first = sp_hcp * 3 if hcp[Seat.N] > 10 else -d[Seat.S].length(Suit.S)
        east = sorted((d[Seat.E].length(s) for s in Suit), reverse=True)
        shape = int(east == [4, 4, 3, 2] or d[Seat.E].length(Suit.S) == 5)
        return first + 100 * shape + hcp[Seat.W] // 3 - hcp[Seat.W] % 4 + int(any(str(c) == "HA" for c in d[Seat.S]))

    got = evaluate(parse_expression(text, SPEC_DIALECT), masks)
    assert got.tolist() == [by_hand(d) for d in deals]


def test_c_division_and_operator_order_as_dealer() -> None:
    """The Debian package's own operator test: every value printed next to the value it should have."""
    path = EXAMPLES / "Descr.test_operator_order"
    if not path.exists():
        pytest.skip("the dealer package's examples are not installed")
    out = io.StringIO()
    run_script(parse_statements(path.read_text(), source=str(path)), out, seed=1)
    pairs = re.findall(r"(-?\d+)==(-?\d+)", out.getvalue())
    assert len(pairs) > 30
    assert all(a == b for a, b in pairs), [p for p in pairs if p[0] != p[1]]


def test_score_and_imps() -> None:
    assert score(False, 4, "S", np.array([10, 11, 9])).tolist() == [420, 450, -50]
    assert score(True, 7, "N", np.array([13])).tolist() == [2220]
    assert score(False, 2, "C", np.array([8, 9])).tolist() == [90, 110]
    assert imps(np.array([0, 19, 20, 49, 50, 3999, 4000, -1430])).tolist() == [0, 0, 1, 1, 2, 23, 24, -16]


# -- the language ---------------------------------------------------------------------------------

SCRIPT = '''
/* a block
   comment */ generate 5000 produce 7
n = hcp(north)   // a variable named like a seat
s = spades(south)
predeal north SAKQ, HAK
        south C2, D3
balanced = shape(west, any 4333, any 4432 any 5332)
opener = n >= 15 ? 1 : 0
x = opener
(s >= 4 || hascard(west, 2D)) && balanced && !0
pointcount 4 3 2 1
altcount 9 6 4 2 1
action printoneline, average "sp" s, frequency "n" (n, 14, 18),
       frequency (n, 15, 16, s, 3, 5), printes "hearts: ", hearts(east), \\n,
'''


def test_every_statement_and_action_parses() -> None:
    syntax = parse_statements(SCRIPT, source="t.dl")
    assert (syntax.generate, syntax.produce) == (5000, 7)
    assert {s: str(c) for s, (c, _) in syntax.predeals.items()} == {Seat.N: "AKQ.AK..", Seat.S: "..3.2"}
    assert len(syntax.conditions) == 1
    kinds = [type(a) for a in syntax.actions]
    assert kinds == [Print, Average, Frequency, Frequency, PrintES]
    freq = syntax.actions[3]
    assert isinstance(freq, Frequency) and [(lo, hi) for _, lo, hi in freq.axes] == [(15, 16), (3, 5)]
    es = syntax.actions[4]
    assert isinstance(es, PrintES) and es.items[0] == "hearts: " and es.items[-1] == "\n"
    assert syntax.pointcount == (4, 3, 2, 1) + (0,) * 9 and syntax.altcounts[9][:4] == (6, 4, 2, 1)


def test_conditions_as_numbers_and_ternaries_build_their_nodes() -> None:
    node = parse_expression("hcp(south) + shape(south, 5xxx)", SPEC_DIALECT)
    assert isinstance(node.children()[1], Truth)
    node = parse_expression("clubs(north) > diamonds(north) ? hcp(north, clubs) : hcp(north, diamonds)",
                            SPEC_DIALECT)
    assert isinstance(node, Ternary)


@pytest.mark.parametrize("text,line,column,fragment", [
    ("hcp(north) > 3\naction average \"x\" hcp(north),\n  frequency (hcp(north), 1)", 3, 27, "expected ','"),
    ("condition hcp(north) > 3\naction printall, bogus", 2, 18, "expected an action"),
    ("predeal north SAKQ\n south", 2, 7, "expected the cards to predeal"),
    ("x = 3 ;", 1, 7, "';'"),
    ("pointcount", 1, 11, "pointcount: expected 1 to 13 numbers"),
    ("hcp(north) > 3 action evalcontract(NS, x3N)", 1, 43, "expected ',' and the vulnerability"),
    ("score(vul, x9N, 3) > 0", 1, 12, "expected a contract"),
    ("tricks(north, bogus) > 3", 1, 15, "expected a strain"),
])
def test_errors_name_line_column_and_feature(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(SpecSyntaxError) as info:
        parse_statements(text, source="s.dl")
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert fragment in str(info.value)


def test_tricks_without_the_bot_extra_names_line_column_and_feature(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_endplay(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("endplay"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_endplay)
    syntax = parse_statements("produce 1\ncondition hcp(north) > 10 &&\n    tricks(south, notrump) >= 9")
    with pytest.raises(UnsupportedSpecError, match=r"line 3, column 5: 'tricks' needs the bot extra"):
        ScriptDealer(syntax)


# -- counting and dealing -------------------------------------------------------------------------

def exact(text: str) -> int:
    return int(ExactDealer(DealSpec.parse(text)).count())


def test_tableable_scripts_are_exact_and_equal_the_dealer() -> None:
    syntax = parse_statements("s = spades(south)\npredeal north SAKQ\ncondition s >= 5 && hcp(south) + "
                              "shape(south, 5xxx) >= 12")
    run = ScriptDealer(syntax)
    assert run.exact
    result = run.count()
    assert result.exact and result.deals == exact(
        "hascard(north, SA) && hascard(north, SK) && hascard(north, SQ) && spades(south) >= 5 && "
        "hcp(south) + (spades(south) == 5) * 1 >= 12".replace("(spades(south) == 5) * 1", "(spades(south) == 5)"))
    assert "exact" in result.text()


def test_cross_seat_or_is_exact_by_disjoint_parts() -> None:
    """A || B (and a '!' over seats) split into disjoint per-seat specs: exactly inclusion-exclusion."""
    a, b = "spades(west) >= 6", "hcp(east) >= 16"
    run = ScriptDealer(parse_statements(f"hcp(north) >= 10 && ({a} || {b})"))
    assert run.exact
    n = "hcp(north) >= 10 && "
    assert run.count().deals == exact(n + a) + exact(n + b) - exact(f"{n}{a} && {b}")
    run = ScriptDealer(parse_statements(f"!({a} && {b}) && hascard(north, SA)"))
    assert run.exact and run.count().deals == exact("hascard(north, SA)") - exact(f"hascard(north, SA) && {a} && {b}")
    run = ScriptDealer(parse_statements("hascard(west, C2) ^^ hascard(east, D2) ^^ hcp(south, spades) >= 4"))
    assert run.exact and run.count().deals is not None


def test_counts_in_the_tables_are_exact() -> None:
    """top2 in a suit (a holding filter) and controls or aces over a hand (the seat's count) are exact."""
    run = ScriptDealer(parse_statements("hcp(north) >= 15 && top2(north, spades) == 2"))
    assert run.exact
    assert run.count().deals == exact("hcp(north) >= 15 && hascard(north, SA) && hascard(north, SK)")
    run = ScriptDealer(parse_statements("aces(south) == 4 && spades(south) >= 5"))
    assert run.exact
    assert run.count().deals == exact("hascard(south, SA) && hascard(south, HA) && hascard(south, DA) && "
                                      "hascard(south, CA) && spades(south) >= 5")
    # two counts: controls is East's side count beside HCP (dealer.spec.sidecount); a third goes beside too
    mixed = ScriptDealer(parse_statements("hcp(east) > 7 && control(east) < 3"))
    assert mixed.exact and mixed.spec.seat("E").side is not None
    tops = ["SA", "HA", "DA", "CA", "SK", "HK", "DK", "CK"]  # oracle: every set of aces and kings with < 3 controls
    held = [set(s) for k in range(3) for s in itertools.combinations(tops, k)
            if sum(2 if c[1] == "A" else 1 for c in s) < 3]
    assert mixed.count().deals == sum(exact("hcp(east) > 7 && " + " && ".join(
        f"{'' if c in s else '!'}hascard(east, {c})" for c in tops)) for s in held)
    third = ScriptDealer(parse_statements("hcp(east) > 7 && control(east) < 3 && aces(east) == 0"))
    assert third.exact and third.count().deals == sum(exact("hcp(east) > 7 && " + " && ".join(
        f"{'' if c in s else '!'}hascard(east, {c})" for c in tops)) for s in held if not any(c[1] == "A" for c in s))
    run = ScriptDealer(parse_statements("controls(west) >= 11"))
    aces = "hascard(west, SA) && hascard(west, HA) && hascard(west, DA) && hascard(west, CA)"
    kings = ["SK", "HK", "DK", "CK"]
    twelve = exact(aces + "".join(f" && hascard(west, {k})" for k in kings))
    eleven = sum(exact(aces + "".join(f" && {'!' if k == gone else ''}hascard(west, {k})" for k in kings))
                 for gone in kings)
    assert run.exact and run.count().deals == twelve + eleven


def sum_at_least(total: int) -> tuple[int, dict[int, int]]:
    """Deals with spades(north) + spades(south) >= total, exactly, and by spades(north)."""
    by_north = {a: exact(f"spades(north) == {a} && spades(south) >= {total - a}") if a < total
                else exact(f"spades(north) == {a}") for a in range(14)}
    return sum(by_north.values()), by_north


def test_estimate_covers_the_exact_count() -> None:
    """Cross-seat arithmetic filtered (across=False: an estimate); the exact count by disjoint parts: |z| small."""
    truth, _ = sum_at_least(8)
    run = ScriptDealer(parse_statements("spades(north) + spades(south) >= 8"), across=False)
    result = run.count(draws=200_000, seed=11)
    assert not result.exact and "estimate" in result.text() and "95% interval" in result.text()
    p = truth / result.superset
    z = (result.accepted - result.drawn * p) / np.sqrt(result.drawn * p * (1 - p))
    assert abs(z) < 4, z


def test_filtered_deals_are_uniform_chi_square() -> None:
    """spades(north) among deals with spades(north) + spades(south) >= 8 (filtered) against exact."""
    run = ScriptDealer(parse_statements("spades(north) + spades(south) >= 8"), across=False)
    assert not run.exact
    masks, _ = run.produce(20_000, 10 ** 12, np.random.default_rng(5))
    assert len(masks) == 20_000
    north = evaluate(parse_expression("spades(north)", SPEC_DIALECT), masks)
    total, weights = sum_at_least(8)
    keys = sorted(a for a in weights if weights[a] * 20_000 / total >= 5)
    observed = [int((north == a).sum()) for a in keys]
    expected = [weights[a] * 20_000 / total for a in keys]
    scale = sum(observed) / sum(expected)
    chi2, pvalue = scipy_stats.chisquare(observed, [float(e) * scale for e in expected])
    assert pvalue > 1e-3, (chi2, pvalue)


def test_union_deals_are_uniform_chi_square() -> None:
    """hcp(north) among deals with hcp(north) >= 12 || hcp(south) >= 12 (exact union) against exact."""
    run = ScriptDealer(parse_statements("hcp(north) >= 12 || hcp(south) >= 12"))
    assert run.exact
    masks, _ = run.produce(20_000, 10 ** 12, np.random.default_rng(6))
    hcp_n = evaluate(parse_expression("hcp(north)", SPEC_DIALECT), masks)
    alone = ExactDealer(DealSpec.parse("hcp(north) >= 0")).distribution("N", "hcp")
    with_south = ExactDealer(DealSpec.parse("hcp(south) >= 12")).distribution("N", "hcp")
    weights = {h: (alone[h] if h >= 12 else with_south.get(h, 0)) for h in alone}
    total = sum(weights.values())
    assert sum(weights.values()) == run.count().deals
    keys = sorted(h for h in weights if weights[h] * 20_000 / total >= 5)
    observed = [int((hcp_n == h).sum()) for h in keys]
    expected = [weights[h] * 20_000 / total for h in keys]
    scale = sum(observed) / sum(expected)
    chi2, pvalue = scipy_stats.chisquare(observed, [float(e) * scale for e in expected])
    assert pvalue > 1e-3, (chi2, pvalue)


def test_produce_and_generate_follow_dealer() -> None:
    """With 1000 random deals and p = P(hcp(north) >= 10), the produced count is Binomial(1000, p)."""
    syntax = parse_statements("generate 1000\nproduce 100000\nhcp(north) >= 10")
    run = ScriptDealer(syntax)
    p = float(run.count().probability or 0)
    counts = [len(run.produce(100_000, 1000, np.random.default_rng(seed))[0]) for seed in range(20)]
    mean = float(np.mean(counts))
    assert abs(mean - 1000 * p) < 5 * np.sqrt(1000 * p * (1 - p) / 20)
    masks, generated = run.produce(5, 10 ** 7, np.random.default_rng(1))
    assert len(masks) == 5 and 5 <= generated < 200


def test_wilson_interval() -> None:
    low, high = wilson(0, 1000)
    assert low < 1e-12 and 0 < high < 0.01
    assert wilson(1000, 1000)[1] == 1.0


# -- printing -------------------------------------------------------------------------------------

def test_fast_formats_equal_the_deal_by_deal_text() -> None:
    masks = random_masks(200, seed=2)
    assert deal_texts(masks) == [masks_to_pbn(row) for row in masks.tolist()]
    lines = oneline_text(masks).splitlines()
    for line, row in zip(lines, masks.tolist()):
        hands = masks_to_pbn(row)[2:].split()
        assert line == f"n {hands[0]} e {hands[1]} s {hands[2]} w {hands[3]} "
    assert compact_text(masks[:1]).splitlines()[0].startswith("n ")


def test_run_script_output_ends_like_dealer_and_says_exact() -> None:
    out = io.StringIO()
    run_script(parse_statements(SCRIPT), out, seed=4, count=True)
    text = out.getvalue()
    assert re.search(r"^Generated \d+ hands\nProduced 7 hands\nInitial random seed 4\nTime needed +[\d.]+ sec\n"
                     r"count: (exact|estimate) ", text, re.M)
    assert text.count("\nn ") + text.startswith("n ") == 7
    assert "Frequency n:" in text and "sp: " in text and "hearts: " in text
    first = run_script(parse_statements(SCRIPT), io.StringIO(), seed=4, count=True)
    assert first is not None and first == run_script(parse_statements(SCRIPT), io.StringIO(), seed=4, count=True)
    assert run_script(parse_statements(SCRIPT), io.StringIO(), seed=4) is None  # nothing counted unless asked


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("Descr.*")) if EXAMPLES.exists() else [])
def test_debian_examples_parse(name: str) -> None:
    syntax = parse_statements((EXAMPLES / name).read_text(encoding="latin-1"), source=name)
    assert syntax.actions or syntax.conditions


DEALER = Path("/usr/games/dealer")


def dealer_program() -> str:
    import shutil
    found = shutil.which("dealer") or (str(DEALER) if DEALER.exists() else None)
    if found is None:
        if os.environ.get("CI") == "true":  # .ci/run installs it: there a missing program is a failure
            pytest.fail("CI must run the dealer comparisons: the dealer program is not installed")
        pytest.skip("the dealer program is not installed (apt-get install dealer)")
    return found


def test_cccc_quality_and_counts_equal_the_dealer_program(tmp_path: Path) -> None:
    """dealer prints its own values for 200 deals; Kibitz's evaluator must give the same for each deal."""
    import subprocess

    exprs = ["cccc(north)", "quality(north, spades)", "quality(east, hearts)", "cccc(south)", "losers(west)",
             "controls(east)", "top3(north, clubs)", "c13(south)", "hcp(west, diamonds)", "tens(east)",
             "loser(north, spades)"]
    items = ", \" \", ".join(exprs)
    script = tmp_path / "values.dl"
    script.write_text(f'produce 200\naction printoneline, printes ("v ", {items}, "\n")\n')
    out = subprocess.run([dealer_program(), "-s", "7", str(script)], capture_output=True, text=True,
                         timeout=60).stdout.splitlines()
    hands = [line.split() for line in out if line.startswith("n ")]
    values = [[int(x) for x in line.split()[1:]] for line in out if line.startswith("v ")]
    assert len(hands) == len(values) == 200
    masks = np.array([Deal.from_pbn("N:" + " ".join(h[i] for i in (1, 3, 5, 7))).masks for h in hands],
                     dtype=np.uint64)
    for k, text in enumerate(exprs):
        got = evaluate(parse_expression(text, SPEC_DIALECT), masks).tolist()
        assert got == [v[k] for v in values], text


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "predeal south SAQ5, HK2\nn1 = hcp(north) >= 12 ? shape(north, any 4333 + any 4432) : spades(north) >= 6\n"
    "condition n1 && (hascard(west, 2C) or hascard(east, 2D))\naction printoneline\n",
    "x = top3(east, hearts) >= 2 && controls(east) >= 4\ncondition x and !(hcp(west) > 12) && losers(north) <= 7\n"
    "action printoneline\n",
    "s = spades(north) + spades(south)\ncondition s >= 8 && hcp(north) + hcp(south) >= 23\naction printoneline\n",
])
def test_acceptance_rate_agrees_with_the_dealer_program(tmp_path: Path, text: str) -> None:
    """dealer's produced/generated over 300,000 deals against Kibitz's probability: |z| <= 4."""
    import subprocess

    script = tmp_path / "s.dl"
    script.write_text(text)
    out = subprocess.run([dealer_program(), "-s", "3", "-g", "300000", "-p", "10000000", str(script)],
                         capture_output=True, text=True, timeout=120).stdout
    produced = int(re.search(r"Produced (\d+) hands", out).group(1))  # type: ignore[union-attr]
    generated = int(re.search(r"Generated (\d+) hands", out).group(1))  # type: ignore[union-attr]
    run = ScriptDealer(parse_statements(text))
    result = run.count(draws=200_000, seed=1)
    p = (result.deals if result.exact else result.estimate) / run.space
    var = p * (1 - p) / generated
    if not result.exact:
        q = result.accepted / result.drawn
        var += (result.superset / run.space) ** 2 * q * (1 - q) / result.drawn
    z = (produced / generated - p) / np.sqrt(var)
    assert abs(z) <= 4, (z, produced, generated, p)


def test_tables_beyond_the_limit_filter_the_loosest_seats() -> None:
    """Four seats over a tiny limit: the seats whose conditions cut least move to the filter; still uniform."""
    text = "hcp(north) >= 12 && hcp(south) >= 6 && spades(east) <= 3 && hcp(west) <= 9"
    run = ScriptDealer(parse_statements(text), limit=3000)
    assert run.loosened and not run.exact
    masks, _ = run.produce(2000, 10 ** 12, np.random.default_rng(2))
    ok = evaluate(parse_expression(text, SPEC_DIALECT), masks)
    assert len(masks) == 2000 and ok.all()
    exact_count = ScriptDealer(parse_statements(text)).count().deals
    result = run.count(draws=50_000, seed=3)
    p = exact_count / result.superset
    z = (result.accepted - result.drawn * p) / np.sqrt(result.drawn * p * (1 - p))
    assert abs(z) < 4


FULL = ("predeal north S98, HKQ8753, D52, CAK6\npredeal east SAQT7, HT6, D98, CQJT98\n"
        "predeal south SJ642, HJ9, DAKQJ74, C2\npredeal west SK53, HA42, DT63, C7543\n")


def _dealt(script: str) -> str:
    out = io.StringIO()
    run_script(parse_statements(FULL + script), out, seed=1, verbose=False)
    return out.getvalue()


def test_read_as_dealer_reads_it() -> None:
    """Found by a differential test against dealer on a predealt deal (the same deal for both programs)."""
    assert _dealt("produce 1\naction printes(hcp(north), \\n)") == "12\n"  # an expression first in printes
    assert _dealt('produce 1\naction printes("a\\\\nb ", (3), \\n)') == "a\\\\nb 3\n"  # quoted text as written
    assert _dealt("produce 1\naction printoneline\naction average hcp(north)") == "12\n"  # the last action list
    syntax = parse_statements("produce 3\naction printoneline\nhcp(north) >= 20")  # a bare condition, next line
    assert str(syntax.conditions[0]) == "hcp(north) >= 20" and syntax.actions[0].expr is None  # type: ignore[union-attr]
    assert parse_statements("action printoneline hcp(north)").actions[0].expr is not None  # type: ignore[union-attr]
    assert len(parse_statements("action printoneline\naction average hcp(north)").replaced_actions) == 1
    assert parse_statements("produce 2\nproduce 5\ngenerate 0\ngenerate 7").produce == 2  # the first not 0
    assert parse_statements("produce 0\nproduce 5\ngenerate 0\ngenerate 7").generate == 7
    assert str(parse_statements("predeal north SAKQ, H, D5432, C5432").predeals[Seat.N][0]) == "AKQ..5432.5432"
