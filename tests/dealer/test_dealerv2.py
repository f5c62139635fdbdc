"""DealerV2's report actions (``printrpt``, ``csvrpt``, ``export``, ``trix``) and ``par``, as its source and
User Guide describe them (dealerv2/DealerV2_4: src/dealaction_subs.c ``do_csvrpt``, deal_conversion_subs.c
``Hand52_export``, dealdds_subs.c ``dds_parscore``; docs/DealerV2_User_Guide).

Rows are parsed back and checked against the deal they print: its hands, HCP counted card by card, the
double-dummy tricks from endplay's solver called directly, and ``export`` read back into the same hands.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from dealer import Deal, SpecSyntaxError
from dealer.lang.double_dummy import par_scores
from dealer.lang.statements import parse_statements
from dealer.run.runner import run_script
from tests.inference.helpers import needs_solver

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


def _run(text: str, seed: int = 2) -> list[str]:
    """The lines a script prints, its closing totals left out."""
    out = io.StringIO()
    run_script(parse_statements(text), out, seed=seed)
    return [line for line in out.getvalue().splitlines()
            if not re.match(r"(Generated|Produced|Initial random seed|Time needed) ", line)]


def _hands(field: str) -> dict[str, str]:
    """``n AKJ3.KJ943.T76.J s T98.A8765.AK8.32 `` -> {"n": ..., "s": ...}."""
    return dict(re.findall(r"([nesw]) ([AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*) ", field))


def _export(line: str) -> dict[str, str]:
    """``-E SAJ5,HT872,DJT7,CJ53  -W ...`` -> {"e": "AJ5.T872.JT7.J53", ...} (voids written as empty suits)."""
    out = {}
    for seat, body in re.findall(r"-([NESW]) ([^ ]*) ", line):
        suits = {part[0]: part[1:] for part in body.split(",") if part}
        out[seat.lower()] = ".".join(suits.get(s, "") for s in "SHDC")
    return out


@needs_solver
def test_rows_print_the_deal_they_come_from() -> None:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EndplayDeal, Denom, Player

    lines = _run('condition hcp(north) >= 12\nproduce 6\naction printrpt(NS, "hcp n", hcp(north), trix(south), '
                 'west), export(EW)')
    rows, exports = lines[0:12:2], lines[1:12:2]
    assert len(rows) == 6 and all(r.startswith(" n ") for r in rows) and all(e.startswith("-E ") for e in exports)
    for row, export in zip(rows, exports):
        fields = row[1:].split(",")
        hands = {**_hands(fields[0]), **_hands(fields[-1]), **_export(export)}
        assert fields[1] == "'hcp n'" and sorted(hands) == ["e", "n", "s", "w"]
        assert _hands(fields[-1]) == {"w": hands["w"]}  # west as its own field, and the same hand export gave
        assert int(fields[2]) == sum(HCP.get(c, 0) for c in hands["n"]) >= 12
        deal = EndplayDeal("N:" + " ".join(hands[s] for s in "nesw"))
        table = calc_dd_table(deal)
        tricks = [int(table[d, Player.south]) for d in (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades,
                                                      Denom.nt)]
        assert [int(x) for x in fields[3:8]] == tricks


@needs_solver
def test_trix_of_the_deal_is_twenty_numbers_seat_by_seat() -> None:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EndplayDeal, Denom, Player

    for row in _run("produce 3\naction csvrpt(deal, trix(deal))"):
        hands = _hands(row)
        numbers = [int(x) for x in row.split(",")[1:]]
        table = calc_dd_table(EndplayDeal("N:" + " ".join(hands[s] for s in "nesw")))
        assert numbers == [int(table[d, p]) for p in Player for d in (Denom.clubs, Denom.diamonds, Denom.hearts,
                                                                    Denom.spades, Denom.nt)]


@needs_solver
def test_par_is_the_solvers_par_seen_from_each_side() -> None:
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal as EndplayDeal, Player, Vul

    rows = _run("produce 45\naction printrpt(deal, par(NS), par(EW), par(NS, both), par(EW, ns))", seed=9)
    assert len(rows) == 45  # more deals than one solver call takes (40): the batches keep their order
    for row in rows:
        hands = _hands(row)
        table = calc_dd_table(EndplayDeal("N:" + " ".join(hands[s] for s in "nesw")))
        ns, ew, both, ew_ns = (int(x) for x in row.split(",")[1:])
        assert ns == -ew == par(table, Vul.none, Player.north).score
        assert both == par(table, Vul.both, Player.north).score and ew_ns == -par(table, Vul.ns, Player.north).score
    grand = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.8765.765 432.5432.432.432")
    masks = np.array([grand.masks], dtype=np.uint64)
    assert par_scores(masks, "NS").tolist() == [1520] and par_scores(masks, "EW", "both").tolist() == [-2220]


@needs_solver
def test_parcontract_scores_the_par_score() -> None:
    """DealerV2's ``parcontract`` (``' 4H  by NS none'``): the contract, made or doubled down as the double-dummy
    table says for its best declarer of the side, scores the par score (par(NS), the solver's own par)."""
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EndplayDeal, Denom, Player

    from dealer.lang.scoring import score

    rows = _run("produce 30\naction printrpt(deal, par(NS), parcontract, par(NS, both), parcontract(all))", seed=3)
    assert len(rows) == 30
    checked = 0
    for row in rows:
        fields = row.split(",")
        hands = _hands(fields[0])
        table = calc_dd_table(EndplayDeal("N:" + " ".join(hands[s] for s in "nesw")))
        for par_ns, text, vul in ((int(fields[1]), fields[2], "none"), (int(fields[3]), fields[4], "both")):
            m = re.fullmatch(r"'([ 1-7]\d|\s\d)([NSHDC])([* ]) by (N|E|S|W|NS|EW) (none|both)'", text)
            assert m is not None and m.group(5) == vul, text
            level, strain, doubled, by = int(m.group(1)), m.group(2), m.group(3) == "*", m.group(4)
            if level == 0:
                assert par_ns == 0
                continue
            denom = {"N": Denom.nt, "S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}
            tricks = max(int(table[denom[strain], Player.find(seat)]) for seat in by)
            made = int(score(vul == "both", level, strain, np.array([tricks]), int(doubled))[0])
            assert (made if by in ("N", "S", "NS") else -made) == par_ns, (row, text)
            checked += 1
    assert checked >= 50


def test_report_items_and_errors() -> None:
    rows = _run('produce 2\naction printrpt("a", 7 * 3, south), csvrpt(north, \\n)')
    assert re.fullmatch(r" 'a',21,s [^ ]+ ", rows[0]) and re.fullmatch(r" n [^ ]+ ,'", rows[1]) and rows[2] == "'"
    with pytest.raises(SpecSyntaxError, match="parcontract: expected none, ns, ew or both, found 'red'"):
        parse_statements("action printrpt(NS, parcontract(red))")
    with pytest.raises(SpecSyntaxError, match="export: expected a seat or the side NS or EW"):
        parse_statements("action export(deal)")
    with pytest.raises(SpecSyntaxError, match="expected the side NS or EW"):
        parse_statements("condition par(north) > 0")
    assert str(parse_statements("condition par(EW, all) > 0").conditions[0]) == "par(EW, both) > 0"


def test_export_writes_every_card_once_and_omits_voids() -> None:
    for line in _run("condition shape(east, 7xx0 + 6xx0)\nproduce 3\naction export(EW), export(north)"):
        if line.startswith("-E"):
            east = line.split(" -W ")[0]
            assert ",C" not in east and east.endswith(" ") and line.endswith(" ")  # the void left out
            hands = _export(line)
            assert hands["e"].endswith(".") and len(hands["e"].replace(".", "")) == 13
            assert sum(len(h.replace(".", "")) for h in hands.values()) == 26
        elif line.startswith("-N"):
            assert len(_export(line)["n"].replace(".", "")) == 13

