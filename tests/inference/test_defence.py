"""The defence model: classes of equal cards, coded choices, exact probabilities, the corpus's split, the fit.

Properties: a class is exactly a run of the holding with nothing outstanding inside (brute force
over pairs of cards); every model's probabilities over the cards of a holding sum to exactly 1, in
every situation; restricted choice falls out (the queen from Q-J is half as likely as from a
singleton queen when defenders play either equal card alike); the split is stratified, fixed and
independent of the order records are listed in; refitting is deterministic.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import Card, Seat
from inference.contract import Strain
from inference.defence import DefenceModel, Phase, Situation, Way, classes, code_of, load_model, observations
from inference.defence.cards import WAY, allowed, allowed_within
from inference.defence.fitting import fit
from inference.errors import InvalidArgumentError
from inference.halves import CALIBRATION, EVALUATION, Halves, corpus_files
from tests.inference.helpers import random_play
from tests.strategies import deals

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "records" / "example.pbn"
QUEEN = Card.parse("HQ").index % 13  # the queen's position in a suit (0: the ace)


@st.composite
def holdings(draw: st.DrawFn) -> tuple[int, int]:
    """A non-empty 13-bit holding and the cards of the suit played already (disjoint)."""
    holding = draw(st.integers(1, (1 << 13) - 1))
    gone = draw(st.integers(0, (1 << 13) - 1)) & ~holding
    return holding, gone


@given(holdings())
def test_classes_are_runs_with_nothing_outstanding_inside(hg: tuple[int, int]) -> None:
    holding, gone = hg
    found = classes(holding, gone)
    assert sum(c.bit_count() for c in found) == holding.bit_count()
    assert [c & -c for c in found] == sorted(c & -c for c in found)  # the highest class first
    which = {b: j for j, c in enumerate(found) for b in range(13) if c >> b & 1}
    for a in which:
        for b in which:
            if a < b:
                between = range(a + 1, b)
                equal = all((holding | gone) >> x & 1 for x in between)
                assert (which[a] == which[b]) == equal, (bin(holding), bin(gone), a, b)


def random_model(rnd: random.Random) -> DefenceModel:
    """A model with random counts in every context and key."""
    counts: dict[str, dict[str, dict[str, int]]] = {}
    for phase in Phase:
        for nt in ("nt", "suit"):
            for partner in ("-", "pw", "pl"):
                context = f"{phase.value}|{nt}|{partner}"
                keys = [f"n{n}" for n in range(1, 6)] + [f"w{w}l{l}" for w in range(3) for l in range(4) if w or l]
                for key in keys:
                    counts.setdefault("human", {})[f"{context}|{key}"] = {c: rnd.randrange(5) for c in allowed(key)}
                for key in ("in1", "in2", "in3"):
                    counts["human"][f"{context}|{key}"] = {c: rnd.randrange(5) for c in allowed_within(key)}
    return DefenceModel(counts, Fraction(rnd.randrange(1, 4), 2))


@settings(max_examples=150, deadline=None)
@given(holdings(), st.sampled_from(list(Phase)), st.booleans(), st.booleans(), st.integers(-1, 13) | st.none(),
       st.integers(0, 10 ** 6))
def test_probabilities_over_a_holding_sum_to_one(hg: tuple[int, int], phase: Phase, nt: bool, partner: bool,
                                                 best: int | None, seed: int) -> None:
    holding, gone = hg
    model = random_model(random.Random(seed))
    situation = Situation(phase, nt, partner, 0, gone, best)
    ps = [model.card_probability(situation, holding, b, "human", WAY[phase]) for b in range(13)]
    assert sum(ps) == 1
    assert all(p > 0 for b, p in enumerate(ps) if holding >> b & 1)
    assert all(p == 0 for b, p in enumerate(ps) if not holding >> b & 1)


def test_restricted_choice_falls_out() -> None:
    """Second hand following with the queen: from Q-J when either equal card is played alike, half the odds
    of a singleton queen; from Q-J when the queen is the card always played from Q-J, nearly the same."""
    context = f"{Phase.SECOND.value}|suit|-"
    alike = DefenceModel({"human": {f"{context}|w1l0": {"cheapest winner": 10},
                                    f"{context}|in2": {"top": 50, "bottom": 50}}})
    situation = Situation(Phase.SECOND, False, False, 1, 0, 6)  # the best card so far: the eight
    qj, q = 0b0000000001100, 0b0000000000100
    p_qj = alike.card_probability(situation, qj, QUEEN, "human", Way.WINNING)
    p_q = alike.card_probability(situation, q, QUEEN, "human", Way.WINNING)
    assert p_qj / p_q == Fraction(1, 2)
    habit = DefenceModel({"human": {f"{context}|in2": {"top": 99, "bottom": 0}}})
    ratio = habit.card_probability(situation, qj, QUEEN, "human", Way.WINNING) / habit.card_probability(
        situation, q, QUEEN, "human", Way.WINNING)
    assert ratio == Fraction(99 + Fraction(1, 2), 99 + 1)


@settings(max_examples=30, deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.sampled_from(list(Strain)), st.randoms(use_true_random=False))
def test_observations_follow_the_play(deal: object, declarer: Seat, strain: Strain, rnd: random.Random) -> None:
    play = random_play(deal, declarer, strain, rnd, 52)  # type: ignore[arg-type]
    hands = [deal[s].mask for s in Seat]  # type: ignore[index]
    found = list(observations(hands, declarer, strain, play))
    assert len(found) == 26
    assert found[0].situation.phase == Phase.OPENING_LEAD and found[0].seat == declarer.lho
    assert sum(o.situation.phase == Phase.OPENING_LEAD for o in found) == 1
    for o in found:
        assert o.seat in (declarer.lho, declarer.rho)
        assert o.holding >> (o.card.index % 13) & 1 and not o.situation.gone >> (o.card.index % 13) & 1
        assert o.holding & ~(deal[o.seat].mask >> (13 * o.card.suit)) == 0  # type: ignore[index]
        assert (o.situation.phase == Phase.RUFF) <= (strain.trump == o.card.suit)
        choice = o.choice()
        assert choice.code in allowed(choice.key) and choice.within in allowed_within(choice.class_key)


def test_code_of_reads_the_trick() -> None:
    """Third hand with A-Q-3 over the king: the ace is the cheapest winner, the three the lowest loser."""
    ace, queen, three = 0b1, 0b100, 1 << 11
    holding = ace | queen | three
    assert code_of(Way.WINNING, holding, ace, 0, 1).code == "cheapest winner"
    assert code_of(Way.WINNING, holding, queen, 0, 1).code == "second lowest loser"
    assert code_of(Way.WINNING, holding, three, 0, 1).code == "lowest loser"
    assert code_of(Way.WINNING, holding, ace, 0, -1).key == "w0l3"  # the trick ruffed: nothing wins
    assert code_of(Way.WINNING, holding, queen, 0b10, 1).code == "cheapest winner"  # the king gone: A-Q equal
    with pytest.raises(ValueError, match="not in the holding"):
        code_of(Way.POSITION, holding, 0b10, 0, None)


def test_model_round_trip_and_bad_input(tmp_path: Path) -> None:
    model = random_model(random.Random(3))
    path = tmp_path / "m.json"
    model.save(path)
    again = load_model(str(path))
    assert again == DefenceModel(model.counts, model.alpha, {})
    with pytest.raises(InvalidArgumentError, match="not a defence model"):
        DefenceModel.from_dict({"format": "x"}, "m.json")
    with pytest.raises(InvalidArgumentError, match="m.json: a malformed"):
        DefenceModel.from_dict({"format": "kibitz-defence-model/1", "counts": {"human": {"k": {"c": "x"}}}}, "m.json")
    with pytest.raises(InvalidArgumentError, match="must not be negative"):
        DefenceModel.from_dict({"format": "kibitz-defence-model/1", "counts": {"human": {"k": {"c": -1}}}})
    with pytest.raises(InvalidArgumentError, match="alpha must be above 0"):
        DefenceModel({}, Fraction(0))
    with pytest.raises(InvalidArgumentError, match="unknown group"):
        DefenceModel({"martians": {}})
    with pytest.raises(InvalidArgumentError, match="no shipped defence model 'nope'"):
        load_model("nope")


def test_the_shipped_model_loads_with_its_provenance() -> None:
    model = load_model()
    assert {"command", "corpus", "split", "records"} <= set(model.provenance)
    assert set(model.counts) == {"human", "robot"}
    situation = Situation(Phase.FOURTH, True, False, 0, 0, 3)
    total = sum(model.card_probability(situation, 0b1000001100011, b, "human", Way.WINNING) for b in range(13))
    assert total == 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a/x.pbn", "a/y.lin", "b/z.pbn", "top.pbn"]), st.integers(1, 400)),
                unique=True, max_size=300), st.randoms(use_true_random=False))
def test_the_split_is_stratified_and_fixed(names: list[tuple[str, int]], rnd: random.Random) -> None:
    halves = Halves.of_names(names)
    shuffled = list(names)
    rnd.shuffle(shuffled)
    assert Halves.of_names(shuffled) == halves
    for folder, counts in halves.counts().items():
        assert 0 <= counts[CALIBRATION] - counts[EVALUATION] <= 1, folder
    assert all(halves.half(*n) == CALIBRATION for n in halves.validation)
    for name in names:
        assert halves.half(*name) in (CALIBRATION, EVALUATION)


def test_unlisted_records_split_by_rank_and_bad_listings_are_named(tmp_path: Path) -> None:
    halves = Halves()
    picks = [halves.half("f.pbn", i) for i in range(1, 2001)]
    assert 900 < picks.count(CALIBRATION) < 1100
    assert all(halves.half("f.pbn", i) == CALIBRATION for i in range(1, 2001) if halves.in_validation("f.pbn", i))
    (tmp_path / "records.jsonl").write_text('{"file": "a/x.pbn", "index": 1}\n{"file": "a/x.pbn"}\n')
    with pytest.raises(InvalidArgumentError, match=r"records.jsonl:2: not a record entry"):
        Halves.of_corpus(tmp_path)


def small_corpus(root: Path) -> Path:
    """A corpus of two folders holding the example records, with its listing."""
    lines = []
    for folder in ("humans", "bot-matches-ben"):
        (root / folder).mkdir(parents=True)
        for j in range(3):
            shutil.copy(EXAMPLE, root / folder / f"r{j}.pbn")
            lines += [json.dumps({"file": f"{folder}/r{j}.pbn", "index": i}) for i in (1, 2)]
    (root / "records.jsonl").write_text("\n".join(lines) + "\n")
    return root


def test_fitting_is_deterministic_and_counts_every_card(tmp_path: Path) -> None:
    root = small_corpus(tmp_path / "corpus")
    files = corpus_files([root])
    assert {f.folder for f in files} == {"humans", "bot-matches-ben"}
    first = fit([root])
    assert fit([root]).model == first.model
    cal = sum(1 for f in files for i in (1, 2) if f.half(i) == CALIBRATION)
    per_record = 26  # every card of the defenders, coded twice (its class, its place in the class)
    assert sum(n for t in first.model.counts.values() for v in t.values() for n in v.values()) == 2 * per_record * cal
    assert first.overall.cards == per_record * (12 - cal)
    assert set(first.model.counts) == {"human", "robot"}


def test_the_command(tmp_path: Path) -> None:
    root = small_corpus(tmp_path / "corpus")
    run = [sys.executable, "-m", "inference.commands", "defence"]
    done = subprocess.run([*run, str(root), "--json", "--model", str(tmp_path / "m.json")], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    scores = json.loads(done.stdout)
    assert scores["records"] == 12 and load_model(str(tmp_path / "m.json")).counts
    bad = subprocess.run([*run, str(tmp_path / "missing")], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "missing" in bad.stderr
