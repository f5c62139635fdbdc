"""The suokko fork's ``leadtricks``: declarer's double-dummy tricks after each opening lead.

The oracle is endplay's solver called directly, lead by lead (``solve_board`` with the leader on
play); the fork's rules, read from its source (``lead_dd`` and the value arithmetic of its
``dealer.cpp``): the leader must be predealt all 13 cards; a value per lead is worked on lead by
lead; ``&&``, ``||`` and a condition need every lead; a number printed is the leads' mean,
truncated; ``average`` takes each deal's mean; ``frequency`` of it is a table by lead.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from dealer import Deal, Seat, SpecError, UnsupportedSpecError
from dealer.cards.card import CARDS, Card
from dealer.lang.double_dummy import sequence_tops
from dealer.lang.evaluate import evaluate
from dealer.lang.statements import parse_statements
from dealer.lang.syntax import SPEC_DIALECT, parse_condition, parse_expression
from dealer.run.runner import run_script
from dealer.run.script_dealer import ScriptDealer
from tests.inference.helpers import hide_endplay, needs_solver

WEST = "SKQ2 HAJ93 D8 CT9876"  # the opening leader of a contract played by south: sequences KQ, 2, A, J, 9, 3, 8, T9876
SCRIPT = f"""predeal west {WEST.replace(' ', ', ')}
lead = leadtricks(south, notrump)
condition hcp(north) + hcp(south) >= 23
produce 4
action printoneline, printes("v ", lead, " ", !(lead >= 9), " ", lead >= 9 || lead <= 4, \\n),
  average "mean" lead, frequency "leads" (lead, 0, 13)
"""


def _run(seed: int) -> tuple[str, np.ndarray]:
    out = io.StringIO()
    run_script(parse_statements(SCRIPT), out, seed=seed)
    text = out.getvalue()
    pbns = ["N:" + " ".join(line.split()[1::2]) for line in text.splitlines() if line.startswith("n ")]
    return text, np.array([Deal.from_pbn(p).masks for p in pbns], dtype=np.uint64)


def _oracle(masks: np.ndarray, strain: str) -> list[dict[int, int]]:
    """Per deal, declarer south's tricks after each card west can lead, from endplay lead by lead."""
    from endplay.dds import solve_board
    from endplay.types import Deal as EndplayDeal, Denom, Player

    from dealer.cards.pbnio import masks_to_pbn

    out = []
    for row in masks.tolist():
        deal = EndplayDeal(masks_to_pbn(row))
        deal.first, deal.trump = Player.west, {"N": Denom.nt, "H": Denom.hearts}[strain]
        out.append({Card.parse(str(card)).index: 13 - int(t) for card, t in solve_board(deal)})
    return out


@needs_solver
def test_each_lead_equals_the_solver_called_directly() -> None:
    _, masks = _run(seed=7)
    tops = sequence_tops(int(masks[0, int(Seat.W)]))
    assert [str(CARDS[i]) for i in tops] == ["SK", "S2", "HA", "HJ", "H9", "H3", "D8", "CT"]
    for strain in "NH":
        values = evaluate(parse_expression(f"leadtricks(south, {strain})", SPEC_DIALECT), masks, per_lead=True)
        oracle = _oracle(masks, strain)
        assert values.shape == (len(tops), len(masks))
        for d, by_card in enumerate(oracle):
            assert sorted(by_card) == [i for i in range(52) if int(masks[d, int(Seat.W)]) >> i & 1]
            assert values[:, d].tolist() == [by_card[i] for i in tops]
            for i in by_card:  # touching cards give the same tricks: the top of each sequence stands for it
                top = max(t for t in tops if t <= i)
                assert by_card[i] == by_card[top]


@needs_solver
def test_conditions_need_every_lead_and_numbers_are_truncated_means() -> None:
    text, masks = _run(seed=3)
    values = evaluate(parse_expression("leadtricks(south, notrump)", SPEC_DIALECT), masks, per_lead=True)
    lines = [line.split()[1:] for line in text.splitlines() if line.startswith("v ")]
    assert len(lines) == len(masks) == 4
    for d, (mean, none_make, extreme) in enumerate(lines):
        v = values[:, d]
        assert int(mean) == int(v.sum()) // len(v)  # a number: the mean, truncated (tricks are >= 0)
        assert int(none_make) == int(all(v < 9))  # '!' lead by lead, then every lead
        assert int(extreme) == int(all(v >= 9) or all(v <= 4))  # '||' of two conditions, each over every lead
    cond = parse_condition("leadtricks(south, notrump) >= 8")
    assert evaluate(cond, masks).tolist() == (values >= 8).all(axis=0).astype(int).tolist()
    average = float(re.search(r"mean: (\S+)", text).group(1))  # type: ignore[union-attr]
    assert average == pytest.approx(values.mean(axis=0).mean(), rel=1e-5)


@needs_solver
def test_frequency_of_leads_is_a_table_by_lead() -> None:
    text, masks = _run(seed=5)
    values = evaluate(parse_expression("leadtricks(south, notrump)", SPEC_DIALECT), masks, per_lead=True)
    table = text[text.index("Frequency leads:"):].splitlines()
    assert table[1].split() == ["SK", "S2", "HA", "HJ", "H9", "H3", "D8", "CT", "Sum"]
    rows = {int(r.split()[0]): [int(x) for x in r.split()[1:]] for r in table[2:] if r.split()[:1] != ["Sum"]
            and r.strip() and r.split()[0].isdigit()}
    for tricks, counts in rows.items():
        assert counts[:-1] == (values == tricks).sum(axis=1).tolist() and counts[-1] == sum(counts[:-1])
    assert sorted(rows) == sorted(set(values.ravel().tolist()))  # rows no deal reaches are left out
    assert next(r for r in table if r.startswith("Sum")).split()[1:] == [str(len(masks))] * 8 + [str(values.size)]


def test_the_leader_must_be_predealt_whole() -> None:
    with pytest.raises(SpecError, match=r"<spec>:2:11: leadtricks\(south, notrump\): the opening leader, "
                                        r"west, must be predealt all 13 cards \(the script predeals 3\)"):
        ScriptDealer(parse_statements("predeal west SAKQ\ncondition leadtricks(south, nt) >= 9\nproduce 1"))
    with pytest.raises(SpecError, match="same opening leader"):
        ScriptDealer(parse_statements(f"predeal west {WEST.replace(' ', ', ')}\npredeal east {_east()}\n"
                                      "condition leadtricks(south, nt) > 9 && leadtricks(north, nt) > 9"))


def _east() -> str:
    """Thirteen cards west does not hold, as a predeal."""
    return ", ".join([str(c) for c in CARDS if str(c) not in _west_cards()][:13])


def _west_cards() -> set[str]:
    out: set[str] = set()
    for part in WEST.split():
        out.update(part[0] + r for r in part[1:])
    return out


def test_without_the_solver_leadtricks_names_line_and_column(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_endplay(monkeypatch)
    with pytest.raises(UnsupportedSpecError, match="line 2, column 8: 'leadtricks' needs the bot extra"):
        ScriptDealer(parse_statements(SCRIPT))


def test_no_deal_produced_gives_an_empty_average_without_warnings() -> None:
    import warnings

    script = SCRIPT.replace("condition hcp(north) + hcp(south) >= 23", "condition hcp(north) > 37\ngenerate 500")
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_script(parse_statements(script), out, seed=1)
    assert "mean: nan" in out.getvalue() and "Produced 0 hands" in out.getvalue()
