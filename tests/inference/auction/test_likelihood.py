"""The auction's graded likelihood: keys, lawful laws, fitting, its JSON form, and the weighted view it weighs."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest

from dealer import CardSet, Deal, Seat
from inference.auction.likelihood import (DENOMINATOR, DefenderKey, Likelihood, Tally, defender_key, lawful_laws,
                                          load_likelihood, sample_digest, shipped_likelihood)
from inference.claims.language import parse_claim
from inference.errors import InvalidArgumentError
from inference.exact.layouts import View
from inference.state.play import PlayState
from tests.inference.test_inferences import ending
from tests.inference.test_layouts import assert_space_equals_brute_force

DEAL = Deal.from_pbn("N:AKQ2.AK2.AK2.AK2 JT98.QJT.QJT.QJT 7654.987.987.987 3.6543.6543.6543")


def claims(*texts: str) -> list:
    return [parse_claim(t, viewer=Seat.S, declarer=Seat.S) for t in texts]


def test_key_reads_the_defenders_own_claims() -> None:
    """South declares: West is his LHO. A claim on another seat is not West's; one that contradicts the
    earlier ones is left out."""
    bids = (0, 0, 0, 0b0001)  # West bid spades
    key = defender_key(claims("hcp(W) >= 12 && hcp(W) <= 14", "spades(W) >= 5", "hcp(E) >= 20", "hcp(W) >= 30"),
                       Seat.W, Seat.S, bids, 1)
    assert key.hcp == "lho 12-14"
    low, high = (int(x) for x in key.lengths[0].split()[0].split("-"))
    assert low == 5 and 6 <= high <= 9 and key.lengths[0].endswith(" m -")
    assert key.lengths[1].endswith(" - T")  # hearts: nobody bid them, trumps
    none = defender_key(claims("hcp(E) >= 20"), Seat.W, Seat.S, None, None)
    assert none == DefenderKey("lho -", ("- ? -",) * 4)
    assert defender_key([], Seat.E, Seat.S, (0, 0, 0b0010, 0), None).lengths[1] == "- d -"  # declarer bid hearts


def test_lawful_laws_are_the_laws_of_13_cards_of_the_26_unseen() -> None:
    visible = DEAL[Seat.N].mask | DEAL[Seat.S].mask
    hcp, lengths = lawful_laws(visible)
    assert abs(hcp.sum() - 1) < 1e-12 and all(abs(x.sum() - 1) < 1e-12 for x in lengths)
    unseen = CardSet(DEAL[Seat.E].mask | DEAL[Seat.W].mask)
    assert abs(float(np.arange(38) @ hcp) - unseen.hcp / 2) < 1e-9  # each unseen card is a defender's half the time
    u = unseen.length(0)
    assert abs(lengths[0][2] - comb(u, 2) * comb(26 - u, 11) / comb(26, 13)) < 1e-12
    # every honour seen by declarer: a defender has 0 HCP for sure
    honours = [i for i in range(52) if i % 13 < 4]
    spots = [i for i in range(52) if i % 13 >= 4][:10]
    no_honours = lawful_laws(sum(1 << i for i in honours + spots))[0]
    assert no_honours[0] == pytest.approx(1.0)
    with pytest.raises(InvalidArgumentError, match="26 visible"):
        lawful_laws(DEAL[Seat.N].mask)


def test_fitted_weights_are_true_counts_over_lawful_ones_shrunk() -> None:
    tally = Tally()
    visible = DEAL[Seat.N].mask | DEAL[Seat.S].mask
    east = DEAL[Seat.E]
    h, spades = east.hcp, east.length(0)
    key = DefenderKey("lho 10-12", ("5-6 m -", "0-4 - -", "0-4 p -", "0-3 d T"))
    for _ in range(200):
        tally.add(key, h, east.shape, visible)
    tally.records = 200
    like = Likelihood.fitted(tally, "test", alpha=20)
    w = like.hcp["lho 10-12"]
    law = lawful_laws(visible)[0]
    expected = (200 + 20 * law[h]) / (200 * law[h] * (1 + 20 / 200))
    assert w[h] == round(expected * DENOMINATOR) > DENOMINATOR
    assert all(x < DENOMINATOR for v, x in enumerate(w) if v != h and law[v] > 0) and min(w) >= 1
    assert all(x == DENOMINATOR for v, x in enumerate(w) if law[v] == 0)
    assert like.lengths["5-6 m -"][spades] > DENOMINATOR > like.lengths["5-6 m -"][spades + 1]
    # counts that are exactly what lawful layouts give: weight 1 everywhere
    even = Tally(hcp={"lho 3-9": law * 50}, hcp_lawful={"lho 3-9": law * 50}, lengths={}, lengths_lawful={}, records=50)
    assert set(Likelihood.fitted(even, "test").hcp["lho 3-9"]) == {DENOMINATOR}


def test_json_round_trip_and_bad_files(tmp_path) -> None:
    like = Likelihood("b", {"lho -": tuple(range(1, 39))}, {"- ? -": tuple(range(1, 15))}, {"records": 3})
    path = tmp_path / "x.json"
    like.save(path)
    assert load_likelihood(path) == like
    bad = like.as_dict()
    bad["hcp"]["lho -"] = [0] * 38
    path.write_text(__import__("json").dumps(bad))
    with pytest.raises(InvalidArgumentError, match="integers from 1 to"):
        load_likelihood(path)
    with pytest.raises(InvalidArgumentError, match="cannot read the likelihood"):
        load_likelihood(tmp_path / "missing.json")


def test_shipped_likelihoods_load() -> None:
    for book in ("sayc", "natural-wide", "robots"):
        like = shipped_likelihood(book)
        assert like is not None and like.book == book and like.hcp and like.lengths
    assert shipped_likelihood("no-such-book") is None


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_factors_weigh_layouts_exactly(seed: int) -> None:
    """A group of ``hcp == h`` claims and per-holding length weights: every count and odd equals brute force."""
    rnd = random.Random(seed)
    cards = list(range(52))
    rnd.shuffle(cards)
    deal = Deal.from_masks([sum(1 << c for c in cards[13 * k: 13 * k + 13]) for k in range(4)])
    state = ending(deal, Seat(seed % 4), 36 + seed, rnd)
    lho = state.declarer.lho
    table = {h: Fraction(rnd.randrange(1, 9), 4) for h in range(38)}
    group = tuple((parse_claim(f"hcp({lho.name}) == {h}", viewer=state.viewer, declarer=state.declarer), w)
                  for h, w in table.items())
    view = View("weighted", factors=(group,))
    assert_space_equals_brute_force(state, state.layouts(view), lambda hands: table[hands[lho].hcp], seed)


def test_view_factors_are_checked() -> None:
    claim = parse_claim("hcp(W) == 3")
    with pytest.raises(InvalidArgumentError, match="invalid factor"):
        View("weighted", factors=(((claim, 0.5),),))  # type: ignore[arg-type]


def test_add_auction_weighs_the_defenders_by_the_likelihood() -> None:
    """The graded likelihood replaces the calls' measured ratios in the weighted view only, once dummy is seen
    (before, with three hands concealed, the ratios weigh it); undo drops it."""
    auction = ["1H", "1S", "2H", "2S", "3H", "P", "P", "P"]
    graded = PlayState(DEAL[Seat.N], declarer="N", contract="3H")
    plain = PlayState(DEAL[Seat.N], declarer="N", contract="3H")
    up = graded.add_auction("N", auction, book="sayc")
    plain.add_auction("N", auction, book="sayc", likelihood=None)
    assert up is not None and graded.snapshot.auction is not None and plain.snapshot.auction is None
    names = {i.name for i in graded.snapshot.inferences if i.by in (Seat.E, Seat.W)}
    assert names and graded.snapshot.auction.replaces == names
    assert graded.odds("weighted") == plain.odds("weighted")  # three hands concealed: the measured ratios
    for state in (graded, plain):
        state.table_dummy(DEAL[Seat.S], early=True)
    assert graded.odds("lawful") == plain.odds("lawful")
    assert graded.layouts("agreement").count() == plain.layouts("agreement").count()
    assert graded.odds("weighted").holder != plain.odds("weighted").holder
    for card in DEAL[Seat.E]:  # soundness: no true holding excluded
        assert graded.odds("weighted").holder[card][Seat.E] > 0
    graded.pop()
    graded.pop()
    assert graded.snapshot.auction is None and not graded.snapshot.inferences


def test_the_auction_event_says_when_the_likelihood_weighs() -> None:
    """From declarer's seat it weighs once dummy is seen; from dummy's, never (three hands stay concealed)."""
    auction = ["1H", "1S", "2H", "2S", "3H", "P", "P", "P"]
    declarer = PlayState(DEAL[Seat.N], declarer="N", contract="3H")
    assert "likelihood weighs" in declarer.add_auction("N", auction, book="sayc").event  # type: ignore[union-attr]
    dummy = PlayState(DEAL[Seat.S], declarer="N", contract="3H", viewer="S")
    text = dummy.add_auction("N", auction, book="sayc").event  # type: ignore[union-attr]
    assert "likelihood weighs" not in text and "not weighed from dummy's seat" in text


def test_add_auction_likelihood_argument() -> None:
    state = PlayState(DEAL[Seat.N], declarer="N", contract="3H")
    with pytest.raises(InvalidArgumentError, match="invalid likelihood"):
        state.add_auction("N", ["1H", "P", "P", "P"], book="sayc", likelihood=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="invalid likelihood 3"):  # checked when no call gives a claim too
        state.add_auction("N", ["P", "P", "P", "P"], book="sayc", likelihood=3)  # type: ignore[arg-type]
    robots = shipped_likelihood("robots")
    with pytest.raises(InvalidArgumentError, match="fitted for the book 'robots', not for 'sayc'"):
        state.add_auction("N", ["1H", "P", "P", "P"], book="sayc", likelihood=robots)
    assert not state.snapshot.inferences  # nothing changed
    state.add_auction("N", ["1H", "P", "P", "P"], book="sayc", likelihood="none")  # as the CLI's none: the ratios
    assert state.snapshot.inferences and state.snapshot.auction is None


def test_keys_are_the_same_for_every_permutation_of_equal_claims() -> None:
    texts = ["hcp(W) >= 6", "hcp(W) <= 10", "hearts(W) >= 4"]
    keys = {defender_key(claims(*p), Seat.W, Seat.S, None, None) for p in itertools.permutations(texts)}
    assert len(keys) == 1


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_likelihoods_weights_are_exact_against_brute_force(seed: int) -> None:
    """Both defenders' HCP and lengths weighed by a likelihood's tables: the weighted view's counts and odds
    equal brute force over every lawful layout, each weighed by the product of its tables' entries."""
    rnd = random.Random(seed)
    cards = list(range(52))
    rnd.shuffle(cards)
    deal = Deal.from_masks([sum(1 << c for c in cards[13 * k: 13 * k + 13]) for k in range(4)])
    state = ending(deal, Seat(seed % 4), 37, rnd)
    hcp = {key: tuple(rnd.randrange(1, 3000) for _ in range(38)) for key in ("lho -", "rho -")}
    lengths = {"- ? -": tuple(rnd.randrange(1, 3000) for _ in range(14))}
    like = Likelihood("test", hcp, lengths)
    weights = like.weights([], state.declarer, state.viewer, None, None)
    assert weights is not None and not weights.replaces
    view = View("weighted", factors=weights.factors, holdings=weights.holdings)
    sides = {state.declarer.lho: hcp["lho -"], state.declarer.rho: hcp["rho -"]}

    def weight(hands: dict) -> Fraction:
        out = Fraction(1)
        for seat, table in sides.items():
            out *= Fraction(table[hands[seat].hcp], DENOMINATOR)
            for s in range(4):
                out *= Fraction(lengths["- ? -"][hands[seat].length(s)], DENOMINATOR)
        return out

    assert_space_equals_brute_force(state, state.layouts(view), weight, seed)


def test_every_shipped_likelihood_weighs_a_real_auction() -> None:
    """The shipped tables are in the form the keys are written in: an auction with calls by both defenders
    finds both keys in each of them."""
    auction = ["1H", "1S", "2H", "2S", "3H", "P", "P", "P"]
    for book in ("sayc", "natural-wide", "robots"):
        state = PlayState(DEAL[Seat.N], declarer="N", contract="3H")
        state.add_auction("N", auction, book=book)
        weights = state.snapshot.auction
        assert weights is not None and {seat for seat, _ in weights.keys} == {Seat.E, Seat.W}, book


@pytest.mark.parametrize("bad, message", [
    ({"hcp": {"lho -": [1e400] * 38}}, "38 integers"),
    ({"hcp": {"lho -": [1.7] * 38}}, "38 integers"),
    ({"hcp": {"lho -": [5] * 37}}, "38 integers"),
    ({"hcp": {"north 0-11": [5] * 38}}, "invalid HCP key 'north 0-11'"),
    ({"lengths": {"- ? -": [0] * 14}}, "from 1 to"),
    ({"lengths": {"- ? -": [10 ** 20] * 14}}, "from 1 to 1000000000"),
    ({"lengths": {"- ? -": 5}}, "invalid length weights for '- \\? -'"),
    ({"hcp": [1, 2]}, "HCP table \\[1, 2\\]: expected a mapping"),
    ({"book": 7}, "invalid likelihood book 7"),
    ({"provenance": "hello"}, "provenance 'hello': expected a mapping"),
    ({"denominator": 100}, "denominator 100"),
    ({"denominator": 1000.0}, "denominator 1000.0"),
    ({"hcp": {"lho 30-2": [5] * 38}}, "hcp key 'lho 30-2': the range 30-2"),
    ({"lengths": {"9-14 m -": [5] * 14}}, "lengths key '9-14 m -': the range 9-14 is not within 0-13"),
])
def test_bad_likelihood_files_are_refused_with_the_value(tmp_path, bad: dict, message: str) -> None:
    data = {"book": "b", "denominator": DENOMINATOR, "hcp": {}, "lengths": {}, **bad}
    path = tmp_path / "bad.json"
    path.write_text(__import__("json").dumps(data))
    with pytest.raises(InvalidArgumentError, match=message):
        load_likelihood(path)
    missing = tmp_path / "missing-field.json"
    missing.write_text('{"book": "b", "hcp": {}, "lengths": {}}')
    with pytest.raises(InvalidArgumentError, match="missing field 'denominator'"):
        load_likelihood(missing)
    missing.write_text('"a likelihood"')
    with pytest.raises(InvalidArgumentError, match="a JSON str, not an object"):
        load_likelihood(missing)


def test_a_likelihood_built_in_code_is_checked() -> None:
    with pytest.raises(InvalidArgumentError, match="from 1 to"):
        Likelihood("b", {"lho -": (0,) * 38}, {})


def test_view_factors_must_be_groups_of_claims() -> None:
    with pytest.raises(InvalidArgumentError, match="invalid factors"):
        View("weighted", factors=(5,))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="invalid factor"):
        View("weighted", factors=((("hcp(W) == 3", Fraction(1)),),))  # type: ignore[arg-type]


def test_a_later_auction_without_a_likelihood_keeps_the_weights() -> None:
    state = PlayState(DEAL[Seat.N], declarer="N", contract="3H")
    state.add_auction("N", ["1H", "1S", "2H", "2S", "3H", "P", "P", "P"], book="sayc")
    kept = state.snapshot.auction
    state.add_inferences([dict(name="a lead", by="LHO", claim="hcp(LHO) >= 1")])
    assert kept is not None and state.snapshot.auction is kept


def test_the_shipped_keys_were_read_over_this_sample() -> None:
    """A numpy whose generator drew other hands would make the keys differ from the shipped tables' silently:
    each shipped file records the digest of the sample its keys were read over."""
    for book in ("sayc", "natural-wide", "robots"):
        like = shipped_likelihood(book)
        assert like is not None and like.provenance["sample"] == sample_digest(), book


def test_a_record_that_dropped_its_leading_pass_keys_the_real_defenders(tmp_path) -> None:
    """rpbridge's exports drop an auction's leading passes: dealer North, the auction written ``1NT P P P``,
    declarer East. The defenders are South and North (not East and West, as the calls alone would say)."""
    from inference.auction.book import load_book
    from inference.auction.likelihood_fit import record_defenders
    from inference.io.records import read_auctions

    deal = DEAL
    pbn = (f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal.to_pbn()}"]\n[Declarer "E"]\n'
           '[Contract "1NT"]\n[Auction "N"]\n1NT Pass Pass Pass\n')
    path = tmp_path / "dropped.pbn"
    path.write_text(pbn)
    record = next(iter(read_auctions(str(path))))
    defenders = record_defenders(record, load_book("sayc"))
    hcp = {item[0].hcp.split()[0]: item[1] for item in defenders}
    assert hcp == {"lho": deal[Seat.S].hcp, "rho": deal[Seat.N].hcp}  # East declares: South is LHO, North RHO
    visible = deal[Seat.E].mask | deal[Seat.W].mask
    assert all(item[3] == visible for item in defenders)


def two_folder_auctions(root: Path, auctions: str | None = None, pool: int | None = None) -> None:
    """A corpus of two folders of played records (random deals, a few auctions), with its listing; ``auctions``:
    only that half's records have an auction (default: all); ``pool``: the deals drawn from so many (boards
    played at several tables)."""
    import json
    import random as rnd

    from inference.io.halves import Halves

    calls = [("N", "1NT Pass 3NT Pass Pass Pass", "N", "3NT"), ("E", "1S Pass 2S Pass Pass Pass", "E", "2S"),
             ("S", "Pass 1H 1S 2H Pass Pass Pass", "W", "2H"),
             ("W", "Pass Pass 1D Pass 1NT Pass Pass Pass", "W", "1NT")]
    names = [(f"{folder}/r{j}.pbn", i) for folder in ("humans", "bot-matches-ben") for j in range(3)
             for i in range(1, 5)]
    root.mkdir(parents=True)
    (root / "records.jsonl").write_text("".join(json.dumps({"file": f, "index": i}) + "\n" for f, i in names))
    halves, draw, boards = Halves.of_corpus(root), rnd.Random(7), {}
    deals = []
    for _ in range(pool or len(names)):
        cards = list(range(52))
        draw.shuffle(cards)
        deals.append(Deal.from_masks([sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)]))
    for k, (name, i) in enumerate(names):
        deal = deals[draw.randrange(pool)] if pool else deals[k]
        dealer, auction, declarer, contract = calls[(i + int(name[-5])) % 4]
        heard = auctions is None or halves.half(name, i) == auctions
        boards.setdefault(name, []).append(
            f'[Board "{i}"]\n[Dealer "{dealer}"]\n[Vulnerable "None"]\n[Deal "{deal.to_pbn()}"]\n'
            f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n'
            + (f'[Auction "{dealer}"]\n{auction}\n' if heard else ""))
    for name, texts in boards.items():
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_text("\n".join(texts))


def test_a_likelihood_fitted_on_either_half_counts_that_halfs_defenders(tmp_path) -> None:
    """Fitted on the calibration half (the default) or the evaluation half: the tables are that half's defenders
    counted by hand, the score is over the other half's, the shrinking the same."""
    from inference.auction.book import load_book
    from inference.auction.likelihood_fit import fit_likelihood, record_defenders, score
    from inference.io.halves import CALIBRATION, EVALUATION, corpus_files
    from inference.io.records import read_auctions

    root = tmp_path / "corpus"
    two_folder_auctions(root)
    book = load_book("sayc")
    by_half: dict[str, list] = {CALIBRATION: [], EVALUATION: []}
    for f in corpus_files([root]):
        for rec in read_auctions(str(f.path)):
            by_half[f.half(rec.index)].append(record_defenders(rec, book))
    assert all(by_half.values()) and all(d for recs in by_half.values() for d in recs)
    fits = {h: fit_likelihood([root], "sayc", half=h) for h in (CALIBRATION, EVALUATION)}
    assert fits[CALIBRATION].alphas == fits[EVALUATION].alphas
    for half, other in ((CALIBRATION, EVALUATION), (EVALUATION, CALIBRATION)):
        fitted = fits[half]
        tally = Tally()
        for defenders in by_half[half]:
            tally.records += 1
            for key, hcp, lengths, visible in defenders:
                tally.add(key, hcp, lengths, visible)
        alpha = fitted.likelihood.provenance["alpha"]
        by_hand = Likelihood.fitted(tally, "sayc", alpha=alpha)
        assert (fitted.likelihood.hcp, fitted.likelihood.lengths) == (by_hand.hcp, by_hand.lengths)
        assert fitted.likelihood.provenance["fitted on"] == f"the {half} half"
        assert fitted.likelihood.provenance["records"] == len(by_half[half])
        assert fitted.score["defenders"] == sum(len(d) for d in by_half[other])
        assert fitted.score == pytest.approx(score(by_hand, [i for d in by_half[other] for i in d]))
        assert fitted.scored_on == other and other in fitted.as_dict()
    with pytest.raises(InvalidArgumentError, match="invalid half 'both'"):
        fit_likelihood([root], "sayc", half="both")
    unheard = tmp_path / "unheard"  # no auction on the evaluation half: nothing to fit there, refused
    two_folder_auctions(unheard, auctions=CALIBRATION)
    assert fit_likelihood([unheard], "sayc").likelihood.hcp
    with pytest.raises(InvalidArgumentError, match="no auction read on the evaluation half under .*unheard"):
        fit_likelihood([unheard], "sayc", half=EVALUATION)


def test_the_fit_is_scored_by_what_its_half_holds_of_each_record(tmp_path) -> None:
    """Boards played at several tables: the score of each group (fresh deal; deal seen in the half fitted, with
    another auction; with the same auction) is the score of that group's defenders, grouped by hand."""
    from inference.auction.book import load_book
    from inference.auction.likelihood_fit import fit_likelihood, record_defenders, score
    from inference.io.halves import CALIBRATION, EVALUATION, corpus_files
    from inference.io.overlap import FRESH, SAME_AUCTION, SAME_DEAL
    from inference.io.records import read_auctions

    root = tmp_path / "corpus"
    two_folder_auctions(root, pool=20)
    book = load_book("sayc")
    records: dict[str, list] = {CALIBRATION: [], EVALUATION: []}
    for f in corpus_files([root]):
        for rec in read_auctions(str(f.path)):
            records[f.half(rec.index)].append((rec, record_defenders(rec, book)))
    for half, other in ((CALIBRATION, EVALUATION), (EVALUATION, CALIBRATION)):
        fitted = fit_likelihood([root], "sayc", half=half)
        seen = {(rec.deal.masks, rec.calls) for rec, defenders in records[half] if defenders}
        groups: dict[str, list] = {FRESH: [], SAME_DEAL: [], SAME_AUCTION: []}
        for rec, defenders in records[other]:
            group = SAME_AUCTION if (rec.deal.masks, rec.calls) in seen else \
                SAME_DEAL if rec.deal.masks in {deal for deal, _ in seen} else FRESH
            groups[group].extend(defenders)
        assert all(groups.values()), {g: len(d) for g, d in groups.items()}  # every group is exercised
        assert set(fitted.by_overlap) == set(groups)
        for group, items in groups.items():
            assert fitted.by_overlap[group] == pytest.approx(score(fitted.likelihood, items))
        assert sum(g["defenders"] for g in fitted.by_overlap.values()) == fitted.score["defenders"]


def test_the_command_fits_on_the_half_asked(tmp_path, capsys) -> None:
    import json

    from inference.commands import main

    root = tmp_path / "corpus"
    two_folder_auctions(root)
    assert main(["likelihood", str(root), "--book", "sayc", "--half", "evaluation", "--json", "--no-progress"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["provenance"]["fitted on"] == "the evaluation half" and "calibration" in shown
    assert shown["provenance"]["command"].endswith("--half evaluation")
    assert sum(g["defenders"] for g in shown["by overlap"].values()) == shown["calibration"]["defenders"]
    assert main(["likelihood", str(root), "--book", "sayc", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert " calibration records; " in text and "\nevaluation half, " in text
    assert shown["by overlap"]["deal seen"]["defenders"] == 0  # no board played twice: every deal is fresh
    assert "\n  fresh (" in text and "\n  deal seen (0 defenders)" in text and "\n  deal and auction seen (0 " in text
