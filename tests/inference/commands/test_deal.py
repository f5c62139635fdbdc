"""``kibitz deal``: random deals satisfying a spec, in each format, to a file, and its errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dealer import Deal, Seat
from tests.inference.commands.helpers import run


def deals_in(pbn: str) -> list[Deal]:
    return [Deal.from_pbn(m) for m in re.findall(r'\[Deal "([^"]+)"\]', pbn)]


def test_deal_pbn_is_valid_and_satisfies_the_spec() -> None:
    status, out, _ = run("deal", "shape(east, any 5332) && hcp(east) == 34", "-n", "20", "--seed", "7")
    assert status == 0
    deals = deals_in(out)
    assert len(deals) == 20
    for deal in deals:
        assert deal[Seat.E].hcp == 34 and sorted(deal[Seat.E].shape) == [2, 3, 3, 5]
    assert out.startswith("% PBN 2.1")
    games = out.strip().split("\n\n")[1:]
    for number, game in enumerate(games, start=1):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        assert tags["Board"] == str(number)
        assert tags["Deal"].startswith(tags["Dealer"] + ":")
        for tag in ("Event", "Site", "Date", "West", "North", "East", "South", "Vulnerable", "Scoring",
                    "Declarer", "Contract", "Result"):
            assert tag in tags


def test_deal_same_seed_same_output_and_formats() -> None:
    spec = "hcp(west) >= 11 && hcp(west) <= 15 && hcp(east) >= 6 && hcp(east) <= 10"
    _, a, _ = run("deal", spec, "-n", "30", "--seed", "3", "--format", "oneline")
    _, b, _ = run("deal", spec, "-n", "30", "--seed", "3", "--format", "oneline")
    _, c, _ = run("deal", spec, "-n", "30", "--seed", "4", "--format", "oneline")
    assert a == b != c
    lines = a.splitlines()
    assert len(lines) == 30 and all(11 <= Deal.from_pbn(x)[Seat.W].hcp <= 15 for x in lines)
    _, j, _ = run("deal", spec, "-n", "30", "--seed", "3", "--format", "json")
    objs = [json.loads(x) for x in j.splitlines()]
    assert [o["deal"] for o in objs] == lines
    assert all(Deal.from_pbn(o["deal"])[Seat.E].to_pbn() == o["hands"]["E"] for o in objs)


def test_deal_to_file_and_spec_file(tmp_path: Path) -> None:
    spec = tmp_path / "weak2.dl"
    spec.write_text("predeal north SAKQ\ncondition hearts(south) == 6 && hcp(south) <= 10\nproduce 4\n")
    target = tmp_path / "out.pbn"
    status, out, _ = run("deal", "-f", str(spec), "--seed", "1", "-o", str(target))
    assert status == 0 and out == ""
    deals = deals_in(target.read_text())
    assert len(deals) == 4 and all("SA" in d[Seat.N] and d[Seat.S].length("H") == 6 for d in deals)


@pytest.mark.parametrize("argv,fragment", [
    (["deal", "spades(north) >= 7 && spades(south) >= 7", "-n", "1"], "no deal satisfies the spec"),
    (["deal", "-f", "/no/such/file.dl"], "cannot read spec file"),
    (["deal", "hcp(north) > 3", "-n", "-1"], "invalid -n -1"),
])
def test_bad_input_exit_2(argv: list[str], fragment: str) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.startswith("kibitz: error:") and fragment in err


def test_deal_takes_conditions_across_seats() -> None:
    """An '||' across seats is dealt (exactly, as a union of per-seat parts), every deal meeting it."""
    from dealer import Deal

    status, out, _ = run("deal", "spades(west) >= 5 || hearts(east) >= 5", "-n", "20", "--seed", "4",
                         "--format", "oneline")
    assert status == 0
    deals = [Deal.from_pbn(line) for line in out.splitlines()]
    assert len(deals) == 20
    assert all(d[3].length(0) >= 5 or d[1].length(1) >= 5 for d in deals)


@pytest.mark.parametrize("fmt", ["pbn", "oneline", "json"])
def test_deal_streams_batches_byte_for_byte_as_the_per_deal_writer(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 7 (boards numbered across them, the header once) give the old writer's text exactly."""
    import io

    from dealer.rng import make_rng
    from dealer.run.script_dealer import ScriptDealer
    from dealer.lang.statements import parse_statements
    from inference.commands import deal as deal_command
    from tests.dealer.pbn_oracle import write_deals_per_deal

    script = "predeal north SAKQJT98765432\ncondition hcp(south) >= 12 && shape(east, any 4333 + any 5xxx)"
    monkeypatch.setattr(deal_command, "BATCH", 7)
    status, out, _ = run("deal", script, "-n", "40", "--seed", "9", "--format", fmt)
    assert status == 0
    dealer = ScriptDealer(parse_statements(script), text=script)
    rng, expected, written = make_rng(9), io.StringIO(), 0
    while written < 40:
        masks = dealer.sample_masks(min(7, 40 - written), rng)
        write_deals_per_deal(masks, expected, fmt, start=written + 1, spec_text=script, seed=9)
        written += len(masks)
    assert out == expected.getvalue()
    assert out.count("N:AKQJT98765432...") == 40 if fmt != "pbn" else out.count("AKQJT98765432...") == 40
