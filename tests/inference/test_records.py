"""PBN and LIN records: the formats, the real-world quirks, and precise errors."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pytest

from dealer import Card, Deal, Seat
from inference.rules.contract import Strain
from inference.errors import InvalidArgumentError, RecordError
from inference.io.records import (PlayRecord, Skipped, contract_from_auction, parse_calls, read_lin, read_pbn,
                               read_records)
from inference.rules.trick import trick_winner
from tests.inference.helpers import random_play

ROOT = Path(__file__).resolve().parents[2]
DEAL = Deal.from_pbn("N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43")


def pbn_rows(deal: Deal, declarer: Seat, strain: Strain, cards: list[Card], first: Seat) -> list[list[str]]:
    """Fixed-column rows (column k = seat first+k) of a play, as a correct exporter writes them."""
    rows = []
    leader = declarer.lho
    for t in range(0, len(cards), 4):
        trick = [(Seat((leader + j) % 4), c) for j, c in enumerate(cards[t:t + 4])]
        row = ["-"] * 4
        for seat, card in trick:
            row[(seat - first) % 4] = str(card)
        rows.append(row)
        if len(trick) == 4:
            leader = trick_winner(trick, strain)
    return rows


def pbn_text(deal: Deal, declarer: Seat, contract: str, rows: list[list[str]], extra: str = "") -> str:
    body = "\n".join(" ".join(r) for r in rows)
    return (f'[Board "7"]\n[Dealer "N"]\n[Deal "{deal.to_pbn()}"]\n[Declarer "{declarer.name}"]\n'
            f'[Contract "{contract}"]\n{extra}[Play "{declarer.lho.name}"]\n{body}\n*\n')


def only(items: list[object]) -> PlayRecord:
    assert len(items) == 1 and isinstance(items[0], PlayRecord), items
    return items[0]


@pytest.mark.parametrize("seed", range(8))
def test_pbn_round_trip_of_a_random_play(seed: int) -> None:
    rnd = random.Random(seed)
    declarer = Seat(seed % 4)
    cards = random_play(DEAL, declarer, Strain.H, rnd, 52)
    rec = only(list(read_pbn(pbn_text(DEAL, declarer, "4H", pbn_rows(DEAL, declarer, Strain.H, cards,
                                                                         declarer.lho)))))
    assert list(rec.play) == cards and rec.complete and rec.declarer == declarer and rec.quirk == ""


def test_pbn_quirks_tolerated() -> None:
    cards = random_play(DEAL, Seat.S, Strain.NT, random.Random(1), 13)
    rows = pbn_rows(DEAL, Seat.S, Strain.NT, cards, Seat.W)
    body = "\n".join("\t".join(tok.lower() + ("!" if i == 0 else "") for i, tok in enumerate(r)) for r in rows)
    text = (
        "% PBN 2.0\n% Import\n[Event Random Deal #]\n[Date  \"2-Aug-2023\"]\n"
        f'[Board "3"]\n[Dealer "N"]\n[Deal "{DEAL.to_pbn("E")}"]\n'
        "{a comment\nover two lines}\n"
        '[Declarer "S"]\n[Contract "3NT"]\n[Auction "N"]\n1D Pass 1H =1= Pass ; note\n3NT AP\n'
        '[Note "1: Alert."]\n'
        f'[Play "W"]\n{body}\n*\n'
    )
    rec = only(list(read_pbn(text)))
    assert list(rec.play) == cards
    assert rec.calls == ("1D", "Pass", "1H", "Pass", "3NT", "Pass", "Pass", "Pass")


def test_pbn_claim_stops_at_first_unknown_in_play_order() -> None:
    cards = random_play(DEAL, Seat.S, Strain.NT, random.Random(2), 20)
    rows = pbn_rows(DEAL, Seat.S, Strain.NT, cards, Seat.W)
    rows[-1] = ["-" if i % 2 else tok for i, tok in enumerate(rows[-1])]
    rec = only(list(read_pbn(pbn_text(DEAL, Seat.S, "3NT", rows))))
    assert 16 <= len(rec.play) < 20 and list(rec.play) == cards[:len(rec.play)]


def test_pbn_inheritance() -> None:
    first = random_play(DEAL, Seat.S, Strain.NT, random.Random(3), 8)
    second = random_play(DEAL, Seat.N, Strain.S, random.Random(4), 8)
    text = (pbn_text(DEAL, Seat.S, "3NT", pbn_rows(DEAL, Seat.S, Strain.NT, first, Seat.W),
                     extra='[Event "##Camrose"]\n')
            + "\n"  # rpbridge: the second result of a board omits Deal, Board, Dealer, Event
            + '[Declarer "N"]\n[Contract "4S"]\n[Play "E"]\n'
            + "\n".join(" ".join(r) for r in pbn_rows(DEAL, Seat.N, Strain.S, second, Seat.E)) + "\n*\n"
            + "\n" + pbn_text(DEAL, Seat.S, "3NT", pbn_rows(DEAL, Seat.S, Strain.NT, first, Seat.W)).replace(
                '[Board "7"]', '[Board "#"]'))
    recs = list(read_pbn(text))
    assert [type(r) for r in recs] == [PlayRecord] * 3
    assert recs[1].deal == DEAL and recs[1].board == "7" and list(recs[1].play) == second
    assert recs[2].board == "7"


def test_pbn_contract_from_auction_and_passed_out() -> None:
    cards = random_play(DEAL, Seat.E, Strain.S, random.Random(5), 8)
    rows = pbn_rows(DEAL, Seat.E, Strain.S, cards, Seat.S)
    text = (f'[Board "1"]\n[Deal "{DEAL.to_pbn()}"]\n[Auction "N"]\nPass 1S Pass 2S\nPass 4S AP\n'
            f'[Play "S"]\n' + "\n".join(" ".join(r) for r in rows) + "\n*\n")
    rec = only(list(read_pbn(text)))
    assert rec.declarer == Seat.E and str(rec.contract) == "4S"
    passed = f'[Board "2"]\n[Deal "{DEAL.to_pbn()}"]\n[Contract "Pass"]\n'
    assert isinstance(next(read_pbn(passed)), Skipped)


def exporter_with_the_rpbridge_bug(deal: Deal, declarer: Seat, strain: Strain, cards: list[Card],
                                   first: Seat) -> list[list[str]]:
    """Rows as rpbridge.net's exporter wrote them: its leader goes wrong after a lower trump follows a higher."""
    rows = []
    leader = writer = declarer.lho
    for t in range(0, len(cards), 4):
        trick = cards[t:t + 4]
        row = ["-"] * 4
        for j, card in enumerate(trick):
            row[(writer + j - first) % 4] = str(card)  # laid out from the writer's (maybe wrong) leader
        rows.append(row)
        true = [(Seat((leader + j) % 4), c) for j, c in enumerate(trick)]
        win = trick_winner(true, strain)
        idx = [s for s, _ in true].index(win)
        trumps = [j for j, c in enumerate(trick) if c.suit == strain.trump]
        fell = any(trick[b].rank < trick[a].rank for a in trumps for b in trumps if b > a)
        writer = Seat((writer + (trumps[-1] if fell else idx)) % 4)
        leader = win
    return rows


def test_rpbridge_rotated_rows_are_recovered() -> None:
    """A play where a lower trump falls after a higher one: the standard reading fails, the quirk reading fits."""
    found = None
    for seed in range(400):
        cards = random_play(DEAL, Seat.S, Strain.S, random.Random(seed), 52)
        rows = exporter_with_the_rpbridge_bug(DEAL, Seat.S, Strain.S, cards, Seat.W)
        if rows != pbn_rows(DEAL, Seat.S, Strain.S, cards, Seat.W):
            found = (cards, rows)
            break
    assert found is not None
    cards, rows = found
    rec = only(list(read_pbn(pbn_text(DEAL, Seat.S, "4S", rows))))
    assert rec.quirk == "rotated-rows" and list(rec.play) == cards


@pytest.mark.parametrize("mutate,fragment", [
    (lambda t: t.replace('[Deal "N:852.T.KQT543.K52 KJ93.A543.A6.A87 AT74.K9872.2.Q96 Q6.QJ6.J987.JT43"]\n', ""),
     "no Deal tag"),
    (lambda t: t.replace('[Play "W"]', '[Play "N"]'), "the opening leader is declarer's LHO, west"),
    (lambda t: t.replace('[Contract "3NT"]', '[Contract "8NT"]'), "invalid contract '8NT'"),
    (lambda t: t.replace("SQ", "SZ", 1), "invalid card 'SZ'"),
])
def test_pbn_errors_name_file_board_and_trick(mutate: object, fragment: str) -> None:
    cards = random_play(DEAL, Seat.S, Strain.NT, random.Random(9), 12)
    text = pbn_text(DEAL, Seat.S, "3NT", pbn_rows(DEAL, Seat.S, Strain.NT, cards, Seat.W))
    if "SQ" not in text and "SZ" in fragment:
        text = text.replace(str(cards[0]), "SQ")
    items = list(read_pbn(mutate(text), "deals.pbn"))  # type: ignore[operator]
    assert len(items) == 1 and isinstance(items[0], RecordError), items
    assert "deals.pbn, board 7" in str(items[0]) and fragment in str(items[0])


def test_pbn_illegal_plays() -> None:
    cards = random_play(DEAL, Seat.S, Strain.NT, random.Random(11), 12)
    rows = pbn_rows(DEAL, Seat.S, Strain.NT, cards, Seat.W)
    twice = [r[:] for r in rows]
    twice[1][1] = rows[0][1]
    err = next(read_pbn(pbn_text(DEAL, Seat.S, "3NT", twice), "m.pbn"))
    assert isinstance(err, RecordError) and "trick 2" in str(err)
    swapped = [r[:] for r in rows]
    swapped[0][0], swapped[0][1] = swapped[0][1], swapped[0][0]
    err = next(read_pbn(pbn_text(DEAL, Seat.S, "3NT", swapped), "m.pbn"))
    assert isinstance(err, RecordError) and "trick 1" in str(err) and "belongs to" in str(err)


LIN = ("pn|a,b,c,d|st||md|3S2QAH4QAD8TQC78QK,S579JKH389D6C369A,S48H267TKD257JKAC,|rh||ah|Board 5|sv|b|"
       "mb|1C|mb|p|mb|1H|mb|p|mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pg||")


def lin_with_play(n: int, claim: int | None = None) -> tuple[str, list[Card]]:
    rec_deal = next(iter(read_lin(LIN)))
    assert isinstance(rec_deal, Skipped)
    deal = lin_deal()
    calls = parse_calls(["1C", "p", "1H", "p", "1N", "p", "3N", "p", "p", "p"])
    contract, declarer = contract_from_auction(Seat.N, calls)  # type: ignore[misc]
    cards = random_play(deal, declarer, contract.strain, random.Random(3), n)
    text = LIN + "".join(f"pc|{str(c).lower() if i % 2 else str(c)}|" + ("pg||" if i % 4 == 3 else "")
                         for i, c in enumerate(cards))
    if claim is not None:
        text += f"mc|{claim}|"
    return text, cards


def lin_deal() -> Deal:
    from dealer import CardSet, PartialDeal

    def hand(text: str) -> CardSet:
        cards, suit = [], ""
        for ch in text:
            if ch in "SHDC":
                suit = ch
            else:
                cards.append(suit + ch)
        return CardSet(cards)

    s, w, n = (hand(x) for x in "S2QAH4QAD8TQC78QK,S579JKH389D6C369A,S48H267TKD257JKAC".split(","))
    return PartialDeal([n, None, s, w]).completed().to_deal()


def test_lin_hand_record() -> None:
    text, cards = lin_with_play(22, claim=9)
    rec = next(iter(read_lin(text, "h.lin")))
    assert isinstance(rec, PlayRecord), rec
    assert rec.declarer == Seat.N and str(rec.contract) == "3NT" and rec.board == "5"  # north bid 1NT first
    assert rec.deal == lin_deal() and list(rec.play) == cards and rec.claim == 9
    assert rec.deal[Seat.N].length("C") == 0  # north's void is written as a bare 'C'
    assert rec.deal[Seat.S].to_pbn() == "AQ2.AQ4.QT8.KQ87"  # ranks written low to high


def test_lin_declarer_is_first_of_the_side_to_name_the_strain() -> None:
    calls = parse_calls(["1S", "p", "2S", "p", "4S", "p", "p", "p"])
    assert contract_from_auction(Seat.W, calls) == (contract_from_auction(Seat.W, calls)[0], Seat.W)  # type: ignore
    calls = parse_calls(["1C", "1H", "2C", "2H", "p", "p", "3C", "d", "p", "p", "p"])
    contract, declarer = contract_from_auction(Seat.N, calls)  # type: ignore[misc]
    assert str(contract) == "3CX" and declarer == Seat.N


def test_lin_errors() -> None:
    text, cards = lin_with_play(8)
    bad = text.replace(f"pc|{cards[5]}|", f"pc|{cards[1]}|", 1) if f"pc|{cards[5]}|" in text else text.replace(
        f"pc|{str(cards[5]).lower()}|", f"pc|{cards[1]}|", 1)
    err = next(iter(read_lin(bad, "x.lin")))
    assert isinstance(err, RecordError) and "x.lin, board 5" in str(err) and "trick 2" in str(err)
    err = next(iter(read_lin("md|9SA|", "y.lin")))
    assert isinstance(err, RecordError) and "dealer digit" in str(err)


# -- one record of a file, without reading the others' play -----------------------------------------------

def comparable(item: object) -> object:
    """Records compare as values; an error by its type and message."""
    return (type(item), str(item)) if isinstance(item, RecordError) else item


def many_records() -> str:
    """A PBN file of every kind of record: inheritance (``##``, ``#``, a record omitting Deal and Board),
    comments (one of them alone on a line between records), passed out, no play, illegal play, errors."""
    rnd = random.Random(21)
    parts = []
    for k in range(6):
        declarer = Seat(k % 4)
        cards = random_play(DEAL, declarer, Strain.H, rnd, 4 * (k + 1))
        parts.append(pbn_text(DEAL, declarer, "4H", pbn_rows(DEAL, declarer, Strain.H, cards, declarer.lho),
                              extra='[Event "##Club night"]\n' if k == 0 else "").replace('"7"', f'"{k + 1}"'))
    inherited = random_play(DEAL, Seat.N, Strain.S, rnd, 8)
    parts.insert(2, '[Declarer "N"]\n[Contract "4S"]\n[Play "E"]\n'
                 + "\n".join(" ".join(r) for r in pbn_rows(DEAL, Seat.N, Strain.S, inherited, Seat.E)) + "\n*\n")
    parts.insert(4, f'[Board "#"]\n[Deal "{DEAL.to_pbn()}"]\n[Contract "Pass"]\n')
    parts.insert(5, f'[Board "20"]\n[Deal "{DEAL.to_pbn()}"]\n[Declarer "S"]\n[Contract "3NT"]\n')
    parts.insert(6, parts[0].replace("4H", "8H"))
    twice = pbn_rows(DEAL, Seat.S, Strain.NT, random_play(DEAL, Seat.S, Strain.NT, rnd, 8), Seat.W)
    twice[1][1] = twice[0][1]
    parts.append(pbn_text(DEAL, Seat.S, "3NT", twice).replace('"7"', '"30"'))
    parts.append('[Board "31"]\n[Deal "N:AKQ.. - - -"]\n[Declarer "S"]\n[Contract "1C"]\n[Play "W"]\nC2 - - -\n')
    return "% PBN 2.0\n\n" + "\n{ a comment alone between records }\n".join(parts)


@pytest.fixture(scope="module")
def many_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("records") / "many.pbn"
    path.write_text(many_records())
    return str(path)


def test_the_generated_file_has_every_kind_of_record(many_path: str) -> None:
    items = list(read_records(many_path))
    kinds = {type(i).__name__ for i in items}
    assert kinds == {"PlayRecord", "Skipped", "RecordError"} and len(items) == 12
    assert [i.index for i in items if not isinstance(i, RecordError)] == [
        n for n, i in enumerate(items, start=1) if not isinstance(i, RecordError)]


@pytest.mark.parametrize("path", ["scenarios/records/example.pbn", "many"])
def test_one_record_is_the_item_the_full_read_gives(path: str, many_path: str) -> None:
    path = many_path if path == "many" else str(ROOT / path)
    items = list(read_records(path))
    assert len(items) >= 2
    for k, item in enumerate(items, start=1):
        assert [comparable(i) for i in read_records(path, record=k)] == [comparable(item)], k
    assert list(read_records(path, record=len(items) + 1)) == []


def test_one_lin_record(tmp_path: Path) -> None:
    text, _ = lin_with_play(12, claim=8)
    path = tmp_path / "three.lin"
    path.write_text(LIN + text + "qx|o3|md|9SA|")
    items = list(read_records(path))
    assert [type(i) for i in items] == [Skipped, PlayRecord, RecordError]
    for k, item in enumerate(items, start=1):
        assert [comparable(i) for i in read_records(path, record=k)] == [comparable(item)]


def test_one_record_reads_no_other_record(monkeypatch: pytest.MonkeyPatch, many_path: str) -> None:
    """Only the chosen record's deal and play are parsed and checked; the reader stops after it."""
    import inference.io.records as records

    calls: list[int] = []
    real = records._pbn_record

    def counting(tags: dict[str, str], game: object, source: str, index: int, board: str, where: str) -> object:
        calls.append(index)
        return real(tags, game, source, index, board, where)  # type: ignore[arg-type]

    monkeypatch.setattr(records, "_pbn_record", counting)
    assert len(list(read_records(many_path, record=5))) == 1 and calls == [5]
    games: list[int] = []
    real_games = records.pbn_games

    def counting_games(text: str) -> Iterator[object]:
        for game in real_games(text):
            games.append(1)
            yield game

    monkeypatch.setattr(records, "pbn_games", counting_games)
    list(read_records(many_path, record=2))
    assert len(games) == 2  # the games after the chosen one are not even split off


@pytest.mark.parametrize("bad", [0, -1, True, "2"])
def test_record_must_be_a_position(bad: object, many_path: str) -> None:
    with pytest.raises(InvalidArgumentError, match="invalid record"):
        list(read_records(many_path, record=bad))  # type: ignore[arg-type]
