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

from dealer import Card, CardSet, Deal, Seat
from inference.rules.contract import Strain
from inference.defence import (DefenceModel, Observation, Phase, Situation, Way, classes, code_of, load_model,
                               observations)
from inference.defence.evidence import DefenceEvidence
from inference.defence.cards import (WAY, allowed, allowed_within, auction_free, play_tricks, role_words,
                                     ruff_context, situation_of, suit_feature, suit_role, suits_bid)
from inference.defence.fitting import fit
from inference.errors import InvalidArgumentError
from inference.io.halves import CALIBRATION, EVALUATION, Halves, corpus_files
from inference.io.records import PlayRecord, read_records
from inference.state.play import PlayState
from inference.exact.layouts import View
from tests.inference.helpers import brute_force_layouts, random_play, replay
from tests.strategies import deals, examples

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
                    for length in (n for n in range(1, 8) if rnd.random() < 0.5):  # some lengths counted apart
                        counts["human"][f"{context}|{key} L{length}"] = {c: rnd.randrange(5) for c in allowed(key)}
                for key in ("in1", "in2", "in3"):
                    counts["human"][f"{context}|{key}"] = {c: rnd.randrange(5) for c in allowed_within(key)}
                held = {f"L{n}T{t}": rnd.randrange(1, 9) for n in range(1, 7) for t in range(3) if t <= n}
                counts["human"][f"{context}|suit held"] = held
                counts["human"][f"{context}|suit chosen"] = {f: rnd.randrange(n + 1) for f, n in held.items()}
                for ruff in (f"ruff or discard|{pw}|{over}" for pw in ("pw", "pl") for over in ("over", "under")):
                    counts["human"][ruff] = {"ruff": rnd.randrange(9), "discard": rnd.randrange(9)}
                for role in (r for r in ROLES if rnd.random() < 0.3):  # some roles counted apart
                    held = {f"L{n}T{t}": rnd.randrange(1, 9) for n in range(1, 7) for t in range(3) if t <= n}
                    counts["human"][f"{context}|suit held {role}"] = held
                    chosen = {f: rnd.randrange(n + 1) for f, n in held.items()}
                    counts["human"][f"{context}|suit chosen {role}"] = chosen
    return DefenceModel(counts, Fraction(rnd.randrange(1, 4), 2), beta=Fraction(rnd.randrange(1, 9), 2),
                        gamma=Fraction(rnd.randrange(1, 9), 2))


#: Auctions the opening leader deals, each won by the declarer, with suits bid by all four seats.
AUCTIONS = (["1S", "2H", "2S", "3C", "Pass"], ["Pass", "1D", "1H", "1NT", "Pass"],  # unfinished: any contract
            ["1C", "Pass", "1S", "2D", "Pass", "3D", "Pass"])
#: Every role a suit may have (:func:`~inference.defence.cards.suit_role`).
ROLES = [f"{a}/{p}" for a in ("?", "-", "p", "m", "d", "pm", "pd", "md", "pmd")
         for p in ("-", "L", "M", "LM", "T", "LT", "MT", "LMT")]


@settings(max_examples=examples(150), deadline=None)
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


@settings(max_examples=examples(30), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.sampled_from(list(Strain)), st.randoms(use_true_random=False),
       st.none() | st.tuples(*[st.integers(0, 15)] * 4))
def test_observations_follow_the_play(deal: object, declarer: Seat, strain: Strain, rnd: random.Random,
                                      bids: tuple[int, ...] | None) -> None:
    play = random_play(deal, declarer, strain, rnd, 52)  # type: ignore[arg-type]
    hands = [deal[s].mask for s in Seat]  # type: ignore[index]
    found = list(observations(hands, declarer, strain, play, bids))
    led: list[list[tuple[Seat, int]]] = []  # per defender's card: the (leader, suit) of every earlier trick
    for ob in found:
        k = next(i for i, c in enumerate(play) if c == ob.card)
        led.append([(t[0][0], int(t[0][1].suit)) for t in play_tricks(play[:k // 4 * 4], declarer, strain)])
    for ob, before in zip(found, led):  # every suit's role, from its definition
        if ob.situation.phase not in (Phase.OPENING_LEAD, Phase.LEAD, Phase.DISCARD):
            assert ob.roles == () and ob.situation.role == ""
            continue
        me, partner = ob.defender, ob.defender.partner
        for u in range(4):
            who = [c for c, s in (("p", partner), ("m", me), ("d", declarer), ("d", declarer.partner))
                   if bids is not None and bids[s] >> u & 1]
            auction = "?" if bids is None else "".join(dict.fromkeys(who)) or "-"
            play_part = ("L" if (partner, u) in before else "") + ("M" if (me, u) in before else "") + (
                "T" if strain.trump == u else "")
            assert ob.roles[u] == f"{auction}/{play_part or '-'}"
        assert ob.situation.role == ob.roles[int(ob.card.suit)]
    assert len(found) == 26
    assert found[0].situation.phase == Phase.OPENING_LEAD and found[0].defender == declarer.lho
    assert sum(o.situation.phase == Phase.OPENING_LEAD for o in found) == 1
    for o in found:
        assert o.defender in (declarer.lho, declarer.rho)
        assert o.holding >> (o.card.index % 13) & 1 and not o.situation.gone >> (o.card.index % 13) & 1
        assert o.holding & ~(deal[o.defender].mask >> (13 * o.card.suit)) == 0  # type: ignore[index]
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


def test_a_lengths_counts_shrink_towards_the_keys() -> None:
    """Second hand from 9-8-3 (classes 9-8 and 3: key w0l2) against 9-3 (same key): counted by length apart."""
    context = "second hand|suit|-"
    key = {f"{context}|w0l2": {"second lowest loser": 10, "lowest loser": 30},
           f"{context}|w0l2 L2": {"second lowest loser": 6, "lowest loser": 2}}
    model = DefenceModel({"human": key}, Fraction(1), beta=Fraction(4))
    situation = Situation(Phase.SECOND, False, False, 0, 0, 0)  # the ace led: nothing wins
    nine, eight, three = 5, 6, 11  # bit positions (A=0 ... 2=12)
    base = Fraction(10 + 1, 40 + 2)  # the key's probability of the higher class (no L3 counts: it stands)
    doubleton = (6 + 4 * base) / (8 + 4)
    assert model.card_probability(situation, 1 << nine | 1 << three, nine, "human", Way.WINNING) == doubleton
    three_cards = model.card_probability(situation, 1 << nine | 1 << eight | 1 << three, eight, "human", Way.WINNING)
    assert three_cards == base * model.code_probability("human", context, "in2", "bottom", ("top", "bottom"))


def test_the_suits_bid_and_each_suits_role() -> None:
    """Who bid what (leading passes a record dropped put back, as its declarer says); a suit's role for a defender."""
    assert suits_bid(Seat.N, ["1S", "Pass", "2H", "3D", "X", "Pass", "Pass", "Pass"]) == (0b0001, 0, 0b0010, 0b0100)
    assert suits_bid(Seat.N, ["1NT", "Pass", "2C", "Pass", "2S", "Pass", "Pass", "Pass"]) == (0b0001, 0, 0b1000, 0)
    assert suits_bid(Seat.N, ["1H", "Pass", "Pass", "Pass"], Seat.E) == (0, 0b0010, 0, 0)  # N's pass was dropped
    assert suits_bid(None, ["1H"]) is None and suits_bid(Seat.N, ["9Z"]) is None and suits_bid(Seat.N, []) is None
    bids = (0b0001, 0b0011, 0, 0b0110)  # N: spades; E: spades, hearts; W: hearts, diamonds (declarer S)
    leads = (0, 0b1000, 0, 0b0100)      # E led clubs, W diamonds
    role = [suit_role(t, Seat.W, Seat.S, 1, bids, leads) for t in range(4)]
    assert role == ["pd/-", "pm/T", "m/M", "-/L"]
    assert [suit_role(t, Seat.E, Seat.S, None, None, leads) for t in (2, 3)] == ["?/L", "?/M"]
    assert auction_free("pd/LT") == "?/LT" and auction_free("") == ""


def test_a_suits_rate_by_role_shrinks_towards_its_rate_by_feature() -> None:
    """A lead of partner's suit is counted apart; a role never counted keeps the feature's rate."""
    context = "opening lead|nt|-"
    counts = {f"{context}|suit held": {"L3T0x": 90}, f"{context}|suit chosen": {"L3T0x": 18},
              f"{context}|suit held p/-": {"L3T0x": 10}, f"{context}|suit chosen p/-": {"L3T0x": 8}}
    model = DefenceModel({"human": counts}, Fraction(1), gamma=Fraction(4))
    base = Fraction(18 + 1, 90 + 2)
    assert model.rate("human", context, "L3T0x") == base == model.rate("human", context, "L3T0x", "-/-")
    assert model.rate("human", context, "L3T0x", "p/-") == (8 + 4 * base) / (10 + 4)
    situation = Situation(Phase.OPENING_LEAD, True, False, 1, 0, None, "p/-")
    holding = 0b0000011100000  # 9 8 7: three cards, no A K Q, no top (L3T0x)
    assert model.card_evidence(situation, holding, 5) == (
        model.card_probability(situation, holding, 5, "human", Way.POSITION) * (8 + 4 * base) / 14)
    with pytest.raises(InvalidArgumentError, match="gamma must be above 0, not 0"):
        DefenceModel({}, gamma=Fraction(0))


@pytest.mark.parametrize("cards, gone, feature", [
    ("AK", "", "L2T2s"), ("AQ", "", "L2T2a"), ("KQ7", "", "L3T2s"), ("K72", "", "L3T1h"), ("Q762", "", "L4T1h"),
    ("J1098", "", "L4T0s"), ("J762", "", "L4T0x"), ("9", "", "L1T0x"), ("QJ", "A", "L2T1s"), ("Q7", "AK", "L2T1a"),
    ("J7", "AQ", "L2T0h"), ("T9876542", "", "L6T0x")])
def test_a_suits_feature_reads_its_length_honours_and_top(cards: str, gone: str, feature: str) -> None:
    """The top of a suit is read among the cards still out: Q-7 after the A and K are gone holds the best card."""
    def mask(text: str) -> int:
        return sum(1 << "AKQJT98765432".index(c) for c in text.replace("10", "T"))
    assert suit_feature(mask(cards), mask(gone)) == feature


def test_ruff_or_discard_reads_the_trick_and_the_trumps_held() -> None:
    """Dummy leads a diamond, East follows, declarer ruffs with the king of hearts, West discards a club: West
    chose to discard, with partner losing the trick; with the ace of trumps he could have overruffed, with the
    queen not; void in trumps, or in notrump, he had no choice. The model weighs the discard by the choice's
    rate (and the card's own weight), and a ruff by the rate of ruffing."""
    cards = [Card.parse(c) for c in ("D2", "D3", "HK", "C2")]
    discard = situation_of(cards[:3], [Seat.N, Seat.E, Seat.S], Seat.W, cards[3], Strain.H, False)
    assert (discard.phase, discard.best, discard.trump, discard.partner_winning) == (Phase.DISCARD, 1, 1, False)
    ace, queen = 0b1, 0b100  # A=0 ... 2=12
    assert ruff_context(discard, ace) == "ruff or discard|pl|over"
    assert ruff_context(discard, queen) == "ruff or discard|pl|under"
    assert ruff_context(discard, 0) is None
    assert ruff_context(situation_of(cards[:3], [Seat.N, Seat.E, Seat.S], Seat.W, cards[3], Strain.NT, False),
                        ace) is None
    ruff = situation_of(cards[:1], [Seat.N], Seat.E, Card.parse("H3"), Strain.H, False)
    assert (ruff.phase, ruff.best) == (Phase.RUFF, None) and ruff_context(ruff, 1 << 11) == "ruff or discard|pl|over"
    follow = situation_of(cards[:1], [Seat.N], Seat.E, cards[1], Strain.H, False)
    assert ruff_context(follow, ace) is None
    counts = {"ruff or discard|pl|under": {"discard": 9, "ruff": 1},
              "ruff or discard|pl|over": {"discard": 1, "ruff": 3}}
    model = DefenceModel({"human": counts}, Fraction(1))
    clubs = 1 << 12  # the two of clubs
    hand = clubs << 39 | queen << 13  # the two of clubs and the queen of hearts
    ob = Observation(Seat.W, discard, clubs, cards[3], hand)
    assert model.evidence(ob) == model.card_evidence(discard, clubs, 12) * Fraction(9 + 1, 10 + 2)
    with_ace = model.hand_evidence(discard, clubs << 39 | ace << 13, 12)
    assert with_ace == model.card_evidence(discard, clubs, 12) * Fraction(1 + 1, 4 + 2)
    assert model.hand_evidence(discard, clubs << 39, 12) == model.card_evidence(discard, clubs, 12)  # void in trumps
    assert model.card_evidence(ruff, 1 << 11, 11) == model.card_probability(ruff, 1 << 11, 11, "human", Way.WINNING) * (
        Fraction(3 + 1, 4 + 2))


def test_model_round_trip_and_bad_input(tmp_path: Path) -> None:
    model = random_model(random.Random(3))
    path = tmp_path / "m.json"
    model.save(path)
    again = load_model(str(path))
    assert again == DefenceModel(model.counts, model.alpha, {}, model.beta, model.gamma) == model
    with pytest.raises(InvalidArgumentError, match="not a defence model"):
        DefenceModel.from_dict({"format": "x"}, "m.json")
    with pytest.raises(InvalidArgumentError, match="m.json: a defence model of an older form .* fit it again"):
        DefenceModel.from_dict({"format": "kibitz-defence-model/1", "counts": {}}, "m.json")
    with pytest.raises(InvalidArgumentError, match="m.json: a malformed"):
        DefenceModel.from_dict({"format": "kibitz-defence-model/2", "counts": {"human": {"k": {"c": "x"}}}}, "m.json")
    with pytest.raises(InvalidArgumentError, match="must not be negative"):
        DefenceModel.from_dict({"format": "kibitz-defence-model/2", "counts": {"human": {"k": {"c": -1}}}})
    for count in (2.7, "12", True):
        with pytest.raises(InvalidArgumentError, match=f"count human/k/c is {count!r}: expected an integer"):
            DefenceModel.from_dict({"format": "kibitz-defence-model/2", "counts": {"human": {"k": {"c": count}}}})
    with pytest.raises(InvalidArgumentError, match="provenance 'hello': expected a mapping"):
        DefenceModel.from_dict({"format": "kibitz-defence-model/2", "counts": {}, "provenance": "hello"}, "m.json")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"format": "\xe9"}')
    with pytest.raises(InvalidArgumentError, match="cannot read the defence model"):
        load_model(str(latin))
    with pytest.raises(InvalidArgumentError, match="alpha must be above 0"):
        DefenceModel({}, Fraction(0))
    with pytest.raises(InvalidArgumentError, match="beta must be above 0, not -1"):
        DefenceModel({}, beta=Fraction(-1))
    with pytest.raises(InvalidArgumentError, match="power must be a fraction above 0, not 0"):
        DefenceEvidence(model, power=Fraction(0))
    with pytest.raises(InvalidArgumentError, match="power must be a fraction above 0, not 0.5"):
        DefenceEvidence(model, power=0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="unknown group"):
        DefenceModel({"martians": {}})
    with pytest.raises(InvalidArgumentError, match="no shipped defence model 'nope'"):
        load_model("nope")
    form = {"format": "kibitz-defence-model/2"}
    with pytest.raises(InvalidArgumentError, match=r"m.json: a malformed .*counts is list \[1\]: expected a mapping"):
        DefenceModel.from_dict({**form, "counts": [1]}, "m.json")
    with pytest.raises(InvalidArgumentError, match="m.json: .*counts/human/k is int 5: expected a mapping"):
        DefenceModel.from_dict({**form, "counts": {"human": {"k": 5}}}, "m.json")
    with pytest.raises(InvalidArgumentError, match="m.json: the smoothing alpha must be above 0"):
        DefenceModel.from_dict({**form, "counts": {}, "alpha": 0}, "m.json")
    with pytest.raises(InvalidArgumentError, match=r"m.json: unknown group\(s\) \['martian'\]"):
        DefenceModel.from_dict({**form, "counts": {"martian": {}}}, "m.json")


def test_a_model_file_is_read_again_once_it_changes(tmp_path: Path) -> None:
    """A file changed since it was loaded (a protocol session's 'new' after a refit) is not the old model."""
    path = tmp_path / "m.json"
    random_model(random.Random(3)).save(path)
    first = load_model(str(path))
    assert load_model(str(path)) is first  # unchanged: read once
    other = random_model(random.Random(4))
    other.save(path)
    assert load_model(str(path)) == DefenceModel(other.counts, other.alpha, {}, other.beta, other.gamma) != first
    path.write_text('{"format": "junk"}')
    with pytest.raises(InvalidArgumentError, match="not a defence model"):
        load_model(str(path))


def test_the_shipped_model_loads_with_its_provenance() -> None:
    model = load_model()
    assert {"command", "corpus", "split", "records"} <= set(model.provenance)
    assert set(model.counts) == {"human", "robot"}
    situation = Situation(Phase.FOURTH, True, False, 0, 0, 3)
    total = sum(model.card_probability(situation, 0b1000001100011, b, "human", Way.WINNING) for b in range(13))
    assert total == 1


@settings(max_examples=examples(40), deadline=None)
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
    assert fit([root], jobs=2).model == first.model  # this machine's processes: the same tallies, folded in order
    cal = sum(1 for f in files for i in (1, 2) if f.half(i) == CALIBRATION)
    per_record = 26  # every card of the defenders, coded three times (its class, by length, its place in the class)
    cards = [(k, v) for t in first.model.counts.values() for k, v in t.items() if "|suit " not in k and " L" not in k]
    assert sum(n for _, v in cards for n in v.values()) == 2 * per_record * cal
    by_length = [(k, v) for t in first.model.counts.values() for k, v in t.items() if " L" in k]
    assert sum(n for _, v in by_length for n in v.values()) == per_record * cal
    chosen = sum(n for t in first.model.counts.values() for k, v in t.items() if k.endswith("|suit chosen")
                 for n in v.values())
    leads_and_discards = sum(n for k, v in cards if k.split("|")[0] in ("opening lead", "lead", "discard")
                             and k.split("|")[-1].startswith("n") for n in v.values())
    assert chosen == leads_and_discards > 0
    assert first.overall.cards == per_record * (12 - cal)
    assert set(first.model.counts) == {"human", "robot"}
    other = fit([root], half=EVALUATION)  # the other way round: fitted on the evaluation half, scored on the rest
    assert other.model.provenance["fitted on"] == "the evaluation half" != first.model.provenance["fitted on"]
    assert other.overall.cards == per_record * cal and other.model.alpha == first.model.alpha
    assert sum(n for t in other.model.counts.values() for k, v in t.items() if "|suit " not in k
               for n in v.values()) == 3 * per_record * (12 - cal)
    with pytest.raises(InvalidArgumentError, match="invalid half 'both'"):
        fit([root], half="both")


def varied_corpus(root: Path) -> Path:
    """Two folders of three files, each the example's boards in another mix: as recorded, board 1 with an
    auction (the same deal, another auction), board 1 turned one seat or two (other deals, the same play);
    mixed so that each half holds a deal the other does not, one in another auction, and one the same."""
    text = EXAMPLE.read_text()
    one, two = ("[Event" + b for b in text.split("[Event")[1:])
    heard = one.replace('[Play "W"]', '[Auction "N"]\n1D Pass 1H Pass\n2D Pass 4H Pass\nPass Pass\n[Play "W"]')
    turned, opposite = ((one.replace('[Deal "N:', f'[Deal "{a}:').replace('[Dealer "N"]', f'[Dealer "{a}"]')
                         .replace('[Declarer "S"]', f'[Declarer "{b}"]').replace('[Play "W"]', f'[Play "{c}"]'))
                        for a, b, c in (("E", "W", "N"), ("S", "N", "E")))
    mixes = [(turned, heard, one), (opposite, two), (one, opposite, heard), (heard, heard), (heard, two),
             (two, one, opposite)]
    lines = []
    for k, mix in enumerate(mixes):
        folder = ("humans", "bot-matches-ben")[k % 2]
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / f"r{k}.pbn").write_text("\n".join(mix))
        lines += [json.dumps({"file": f"{folder}/r{k}.pbn", "index": i}) for i in range(1, len(mix) + 1)]
    (root / "records.jsonl").write_text("\n".join(lines) + "\n")
    return root


def test_the_fit_is_scored_by_what_its_half_holds_of_each_record(tmp_path: Path) -> None:
    """Each overlap group's cards are those of the scored records whose deal (and auction) the fitted half holds,
    grouped by hand, fitted on either half; and each group's score is the model's on those records alone."""
    root = varied_corpus(tmp_path / "corpus")
    by_half: dict[str, list[PlayRecord]] = {CALIBRATION: [], EVALUATION: []}
    for f in corpus_files([root]):
        for rec in read_records(f.path):
            assert isinstance(rec, PlayRecord) and rec.complete
            by_half[f.half(rec.index)].append(rec)
    for half, other in ((CALIBRATION, EVALUATION), (EVALUATION, CALIBRATION)):
        fitted = fit([root], half=half)
        seen = {(r.deal.masks, r.calls) for r in by_half[half]}
        groups = {"fresh": 0, "deal seen": 0, "deal and auction seen": 0}
        for r in by_half[other]:
            groups["deal and auction seen" if (r.deal.masks, r.calls) in seen else
                   "deal seen" if r.deal.masks in {d for d, _ in seen} else "fresh"] += 1
        assert all(groups.values()), (half, groups)  # the mixes exercise every group, both ways
        assert {g: s.cards for g, s in fitted.by_overlap.items()} == {g: 26 * n for g, n in groups.items()}
        assert sum(s.model[0] * s.cards for s in fitted.by_overlap.values()) == \
            pytest.approx(fitted.overall.model[0] * fitted.overall.cards)


def test_the_command(tmp_path: Path) -> None:
    root = small_corpus(tmp_path / "corpus")
    run = [sys.executable, "-m", "inference.commands", "defence"]
    done = subprocess.run([*run, str(root), "--json", "--model", str(tmp_path / "m.json")], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    scores = json.loads(done.stdout)
    assert scores["records"] == 12 and load_model(str(tmp_path / "m.json")).counts
    assert sum(g["cards"] for g in scores["by overlap"].values()) == scores["overall"]["cards"]
    text = subprocess.run([*run, str(root), "--no-progress"], capture_output=True, text=True, cwd=ROOT).stdout
    assert "\ndeal and auction seen " in text and "\nfresh " in text
    bad = subprocess.run([*run, str(tmp_path / "missing")], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "missing" in bad.stderr
    out = tmp_path / "no" / "m.json"  # a model that cannot be written: the error names it
    bad = subprocess.run([*run, str(root), "--model", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr == f"kibitz: error: cannot write {str(out)!r}: No such file or directory\n"


# -- the defenders' cards as evidence in the weighted view ---------------------------------------------

def brute_weighted(state: PlayState, deal: Deal, factor: object) -> tuple[Fraction, dict[tuple[Card, Seat], Fraction]]:
    """Every lawful layout weighed by the product, over the defenders' cards so far, of ``factor(observation)``
    computed on the layout's own deal: the total and each unseen card's weight by holder."""
    snap = state.snapshot
    play = [c for t in snap.tricks + (snap.current,) for _, c in t.cards]
    total, holder = Fraction(0), {}
    for layout in brute_force_layouts(state):
        hands = [layout.get(s, deal[s].mask) for s in Seat]
        w = Fraction(1)
        for ob in observations(hands, state.declarer, state.strain, play, state.snapshot.bids):
            w *= factor(ob)  # type: ignore[operator]
        total += w
        for seat, mask in layout.items():
            for card in CardSet(mask & snap.unseen):
                holder[(card, seat)] = holder.get((card, seat), 0) + w
    return total, holder


def assert_weighted_equals_brute_force(state: PlayState, deal: Deal, factor: object) -> None:
    """The weighted view's odds (the defence's weights alone, in the lawful view, when an auction was heard: its
    claims weigh the weighted view too) against every lawful layout weighed by ``factor``."""
    total, holder = brute_weighted(state, deal, factor)
    heard = state.snapshot.bids is not None
    odds = state.layouts(View("lawful", holdings=state.defence_weights()) if heard else "weighted").odds()
    for card, by in odds.holder.items():
        for seat, p in by.items():
            assert p == holder.get((card, seat), 0) / total, (card, seat)


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.sampled_from(list(Strain)), st.integers(34, 44),
       st.randoms(use_true_random=False), st.integers(0, 10 ** 6))
def test_the_weighted_view_weighs_each_defenders_card_exactly(deal: Deal, declarer: Seat, strain: Strain, n: int,
                                                               rnd: random.Random, seed: int) -> None:
    """Exact products (no grid): the weighted view's odds equal every layout weighed, on its own deal, by the
    model's probability of each card the defenders played (leads, follows, discards, ruffs alike), at full
    strength or tempered (each probability raised to a power, as a float's exact fraction)."""
    model = random_model(random.Random(seed))
    cards = random_play(deal, declarer, strain, rnd, n)
    power = (Fraction(1), Fraction(1, 2), Fraction(3, 4))[seed % 3]
    evidence = DefenceEvidence(model, bits=None, power=power)
    states = replay(deal, declarer, strain, cards, defence_model=evidence)
    first = next(states)
    if seed % 2:  # the auction heard: the suits bid give each lead and discard its role
        first.add_auction(declarer.lho, rnd.choice(AUCTIONS), book="sayc")
        assert first.snapshot.bids is not None
    state = list(states)[-1] if cards else first

    def tempered(p: Fraction) -> Fraction:
        return p if power == 1 else Fraction(float(p) ** float(power))

    def factor(ob: Observation) -> Fraction:  # the card, and on a discard the choice not to ruff, each tempered
        card = tempered(model.card_evidence(ob.situation, ob.holding, ob.card.index % 13))
        if ob.situation.phase != Phase.DISCARD or ob.situation.trump is None:
            return card
        return card * tempered(model.trump_choice(ob.situation, ob.hand >> (13 * ob.situation.trump) & 0x1FFF))

    assert_weighted_equals_brute_force(state, deal, factor)


def test_restricted_choice_in_the_weighted_view() -> None:
    """Three cards left each (hearts trumps); dummy leads the ace of spades and East follows with the queen.
    East may have been dealt Q, Q-J, Q-8 or Q-J-8 of the unseen spades (the T 9 are gone, so Q-J-8 is one
    class). When defenders play either of two equal cards alike, Q-J weighs half of Q and the jack moves
    towards West (lawful: 2/5 with East)."""
    context = f"{Phase.SECOND.value}|suit|-"
    model = DefenceModel({"human": {f"{context}|in2": {"top": 40, "bottom": 40},
                                    f"{context}|w0l2": {"second lowest loser": 30, "lowest loser": 70}}})
    state = PlayState("2..34.", declarer="S", contract="4H", dummy="A4..2.", leader="N", won=(10, 0),
                      played={"N": "K.AKQJ.AKQ9.A", "E": "T.T98.JT87.KQ", "S": "9765.4.65.JT9",
                              "W": "3.32..8765432"}, defence_model=DefenceEvidence(model, bits=None, power=Fraction(1)))
    state.play("SA")
    state.play("SQ")
    jack = Card.parse("SJ")
    assert state.layouts("lawful").odds().holder[jack][Seat.E] == Fraction(2, 5)
    f_q, f_qj = Fraction(1), Fraction(1, 2)  # w0l1: the lowest loser is the only code; then the top of a pair
    f_q8 = Fraction(61, 202)                 # w0l2: the second lowest loser, (30 + 1/2) / (100 + 1)
    f_qj8 = Fraction(1, 3)                   # w0l1, the top of three equal cards (no counts: 1/2 over 3/2)
    want = (3 * f_qj + f_qj8) / (3 * f_q + 3 * f_qj + 3 * f_q8 + f_qj8)
    assert state.layouts("weighted").odds().holder[jack][Seat.E] == want < Fraction(2, 5)


@pytest.mark.slow
def test_the_switch_in_the_protocol_and_the_commands(tmp_path: Path) -> None:
    """``defence_model`` in the protocol's ``new``, ``--defence-model`` on ``kibitz odds``: on by default, off by
    ``none``, a bad model refused with one line naming it."""
    from inference.apps.protocol import Session

    session = Session()
    session.handle({"cmd": "new", "hand": "AKQ2.KJ3.Q87.A54", "declarer": "S", "contract": "3NT"})
    assert session.state is not None and session.state.defence is not None
    session.handle({"cmd": "new", "hand": "AKQ2.KJ3.Q87.A54", "declarer": "S", "defence_model": "none"})
    assert session.state.defence is None
    with pytest.raises(InvalidArgumentError, match="no shipped defence model 'nope'"):
        session.handle({"cmd": "new", "hand": "AKQ2.KJ3.Q87.A54", "declarer": "S", "defence_model": "nope"})
    assert session.state.defence is None  # the state the refused request found
    run = [sys.executable, "-m", "inference.commands", "odds", str(EXAMPLE), "--after", "12", "--view", "weighted",
           "--json"]
    on = subprocess.run(run, capture_output=True, text=True, cwd=ROOT)
    off = subprocess.run([*run, "--defence-model", "none"], capture_output=True, text=True, cwd=ROOT)
    assert on.returncode == off.returncode == 0, on.stderr + off.stderr
    assert json.loads(on.stdout)["holder"] != json.loads(off.stdout)["holder"]
    bad = subprocess.run([*run, "--defence-model", str(tmp_path / "missing.json")], capture_output=True, text=True,
                         cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "missing.json" in bad.stderr


def hashed_factor(situation: Situation, holding: int, position: int) -> Fraction:
    """An arbitrary model: a fixed pseudo-random probability per (holding, position), some of them 0."""
    return Fraction(random.Random(holding * 13 + position).randrange(4), 3)


@given(st.integers(0, 51), st.integers(0, 0x1FFF))
@settings(max_examples=examples(60), deadline=None)
def test_the_strongest_reading_is_the_largest_ratio(index: int, free: int) -> None:
    """Brute force over every pair of holdings one card apart, at most three cards long: the reading's ratio
    is the largest either way, and its holdings' factors give it exactly."""
    from itertools import combinations
    from math import log

    from inference.defence.reading import LONGEST_SHOWN, strongest_reading

    evidence = DefenceEvidence(hashed_factor, bits=None)
    card = Card.from_index(index)
    situation = Situation(Phase.FOURTH, False, False, int(card.suit), 0, None)
    position = index % 13
    spare = [1 << b for b in range(13) if (free & ~(1 << position)) >> b & 1]
    best = 0.0
    for n in range(LONGEST_SHOWN - 1):
        for more in combinations(spare, n):
            short = 1 << position | sum(more)
            p = hashed_factor(situation, short, position)
            for x in spare:
                q = hashed_factor(situation, short | x, position)
                if p and q and not short & x:
                    best = max(best, abs(log(q / p)))
    reading = strongest_reading(evidence, Seat.E, card, situation, free)
    if best == 0:
        assert reading is None
        return
    assert reading is not None and abs(abs(log(reading.ratio)) - best) < 1e-9
    assert reading.longer == reading.shorter | (reading.longer & ~reading.shorter)
    assert (reading.longer & ~reading.shorter).bit_count() == 1 and reading.shorter >> position & 1
    assert reading.ratio == hashed_factor(situation, reading.longer, position) / hashed_factor(
        situation, reading.shorter, position)
    lead = strongest_reading(evidence, Seat.E, card, situation._replace(phase=Phase.LEAD, role="pd/L"), free)
    assert lead is not None and lead.role == "pd/L" and lead.text().startswith(
        f"E's {card} (partner bid it, declarer's side bid it, partner led it): from ")
    assert reading.text().startswith(f"E's {card}: from ")  # following suit: no role


def test_a_role_in_words() -> None:
    """What is known of a suit's role, in the order it is written; nothing when nothing is known."""
    assert role_words("?/-") == "" and role_words("-/-") == "nobody bid it"
    assert role_words("m/MT") == "he bid it, he led it, trumps"
    assert role_words(suit_role(0, Seat.W, Seat.S, 0, None, (0, 0, 0, 0))) == "trumps"


def test_a_reading_names_only_holdings_the_defender_could_hold() -> None:
    """Every evidence line of a replayed record compares holdings no longer than the defender's cards left in
    hand (his last card, forced, reads nothing: board 2's trick 13 once compared E's HQ with HQ-T)."""
    rec = [r for r in read_records(EXAMPLE) if isinstance(r, PlayRecord)][1]
    state = PlayState(rec.deal[rec.declarer], declarer=rec.declarer, contract=rec.contract)
    left = {seat: 13 for seat in Seat}
    readings = 0
    for i, card in enumerate(rec.play):
        seat = state.to_play
        state.play(card)
        if i == 0:
            state.table_dummy(rec.deal[rec.declarer.partner])
        reading = state.reading()
        if reading is not None:
            readings += 1
            assert reading.seat == seat and reading.longer.bit_count() <= left[seat], (i, reading.text())
        left[seat] -= 1
    assert readings > 10


@pytest.mark.slow
def test_restricted_choice_in_the_narration_and_the_commands(tmp_path: Path) -> None:
    """East's queen under the ace: "from SQ 2 times as likely as from SQJ" (equal cards played alike); the
    replay prints an evidence line for defenders' cards with the model on, none with ``--defence-model none``;
    the viewer's steps carry it."""
    context = f"{Phase.SECOND.value}|suit|-"
    model = DefenceModel({"human": {f"{context}|in2": {"top": 40, "bottom": 40}}})
    state = PlayState("2..34.", declarer="S", contract="4H", dummy="A4..2.", leader="N", won=(10, 0),
                      played={"N": "K.AKQJ.AKQ9.A", "E": "T.T98.JT87.KQ", "S": "9765.4.65.JT9",
                              "W": "3.32..8765432"}, defence_model=DefenceEvidence(model, bits=None, power=Fraction(1)))
    state.play("SA")
    assert state.reading() is None  # dummy's card says nothing
    state.play("SQ")
    reading = state.reading()
    assert reading is not None and reading.text() == "E's SQ: from SQ 2 times as likely as from SQJ"
    assert PlayState("AKQ2.KJ3.Q87.A54", declarer="S", contract="3NT", defence_model=None).reading() is None
    run = [sys.executable, "-m", "inference.commands", "replay", str(EXAMPLE), "--record", "1"]
    on = subprocess.run(run, capture_output=True, text=True, cwd=ROOT)
    off = subprocess.run([*run, "--defence-model", "none"], capture_output=True, text=True, cwd=ROOT)
    assert on.returncode == off.returncode == 0, on.stderr + off.stderr
    lines = [line for line in on.stdout.splitlines() if line.startswith("  evidence: ")]
    assert lines and all(line.split(": ")[1].split("'s ")[0] in ("E", "W") for line in lines)
    assert "evidence: " not in off.stdout
    from inference.io.records import PlayRecord, read_records
    from inference.apps.viewer import record_page

    record = next(read_records(EXAMPLE, record=1))
    assert isinstance(record, PlayRecord)
    steps = record_page(record)["steps"]
    assert [s["evidence"] for s in steps if s["evidence"]] == [line.removeprefix("  evidence: ") for line in lines]
    assert not any(s["evidence"] for s in record_page(record, defence_model=None)["steps"])


@pytest.mark.parametrize("ratio, shown", [(Fraction(2), "2"), (Fraction(27, 5), "5.4"), (Fraction(1, 34), "34"),
                                          (Fraction(340), "340"), (Fraction(1234), "1,200")])
def test_a_reading_prints_its_ratio_for_people(ratio: Fraction, shown: str) -> None:
    """Two significant digits, and whole numbers past 100 (never ``3.4e+02``); the likelier holding first."""
    from inference.defence.reading import Reading

    reading = Reading(Seat.W, Card.parse("SA"), 0b1, 0b1000000000001, ratio)  # SA against SA2
    likelier, other = ("SA2", "SA") if ratio >= 1 else ("SA", "SA2")
    assert reading.text() == f"W's SA: from {likelier} {shown} times as likely as from {other}"


def test_a_defender_viewer_has_no_table_of_his_own_cards() -> None:
    """From East's seat his own cards weigh nothing he does not know: the weights are West's alone, and West's
    true holdings keep a weight above 0."""
    from inference.io.records import read_pbn

    rec = next(r for r in read_pbn(EXAMPLE.read_text()) if getattr(r, "board", "") == "2")
    state = PlayState(rec.deal[Seat.E], declarer=rec.declarer, contract=str(rec.contract), viewer="E")
    for i, card in enumerate(rec.play[:12]):
        state.play(card)
        if i == 0:
            state.table_dummy(rec.deal[rec.declarer.partner])
    weights = state.defence_weights()
    assert weights and {seat for seat, _ in weights.pairs} == {Seat.W}
    for seat, suit in weights.pairs:
        assert weights.weight(seat, suit, rec.deal[seat].mask >> (13 * suit) & 0x1FFF) > 0
