"""What the shared options select: records by ``--board``/``--record``, a spec, the play state after K cards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dealer import DealerError, Seat
from inference.commands.inputs import read_statements, record_index, select_records, state_after
from inference.rules.contract import Strain
from inference.errors import InvalidArgumentError, RecordError
from tests.inference.helpers import random_play
from tests.inference.test_records import DEAL, pbn_rows, pbn_text


def three_records(tmp_path: Path) -> Path:
    """Boards 1 and 3 legal (12 and 20 cards); board 2 illegal (a card twice)."""
    plays = [random_play(DEAL, Seat.S, Strain.H, random.Random(k), n) for k, n in ((1, 12), (2, 8), (3, 20))]
    texts = [pbn_text(DEAL, Seat.S, "4H", pbn_rows(DEAL, Seat.S, Strain.H, c, Seat.W)) for c in plays]
    texts[1] = texts[1].replace(str(plays[1][1]), str(plays[1][0]), 1)
    texts = [t.replace('[Board "7"]', f'[Board "{k}"]') for k, t in enumerate(texts, start=1)]
    path = tmp_path / "three.pbn"
    path.write_text("\n".join(texts))
    return path


def test_select_by_board_record_or_all(tmp_path: Path) -> None:
    path = three_records(tmp_path)
    assert [(r.board, r.index, len(r.play)) for r in select_records(str(path))] == [("1", 1, 12), ("3", 3, 20)]
    assert [r.index for r in select_records(str(path), board="3")] == [3]
    assert [r.board for r in select_records(str(path), record=1)] == ["1"]
    with pytest.raises(RecordError, match="board 2"):  # asked for: its error, not a skip
        select_records(str(path), board="2")
    with pytest.raises(RecordError, match=r"\(record 2"):
        select_records(str(path), record=2)
    with pytest.raises(RecordError, match="no replayable play for record 9"):  # only record 9 is read
        select_records(str(path), record=9)


def test_a_record_number_reads_only_that_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--record K`` hands K to the reader, which parses that record alone (not the whole file's play)."""
    import inference.io.records as records

    asked: list[int | None] = []
    real = records.read_records

    def spy(path: str, *, record: int | None = None):  # type: ignore[no-untyped-def]
        asked.append(record)
        return real(path, record=record)

    monkeypatch.setattr(records, "read_records", spy)
    select_records("scenarios/records/example.pbn", record=2)
    select_records("scenarios/records/example.pbn", board="1")
    assert asked == [2, None]


def test_record_index() -> None:
    assert record_index("x.pbn, board 7 (record 12), trick 1: revoke") == 12
    assert record_index("x.pbn: cannot read") is None


def test_read_statements_inline_file_or_missing(tmp_path: Path) -> None:
    spec = tmp_path / "s.dl"
    spec.write_text("condition hcp(north) >= 20\nproduce 3\n")
    assert read_statements(str(spec), None)[0].produce == 3 == read_statements(None, str(spec))[0].produce
    assert read_statements("hcp(north) >= 20", None)[0].produce is None
    with pytest.raises(InvalidArgumentError, match="no spec given"):  # a command-line argument, so inference's
        read_statements(None, None)
    with pytest.raises(DealerError, match="cannot read spec file"):
        read_statements(None, str(tmp_path / "none.dl"))


def test_state_after_counts_cards_and_tables_dummy(tmp_path: Path) -> None:
    path = three_records(tmp_path)
    rec = select_records(str(path), board="3")[0]
    state = state_after(str(path), "3", None, 5, None)
    assert state.ply == 6 and state.snapshot.dummy_tabled and state.viewer == Seat.S  # 5 cards, dummy
    assert state_after(str(path), "3", None, 0, "E").viewer == Seat.E
    assert [c for t in state.snapshot.tricks for _, c in t.cards][:4] == list(rec.play[:4])
    with pytest.raises(InvalidArgumentError, match="invalid --after -1"):
        state_after(str(path), None, None, -1, None)
    with pytest.raises(InvalidArgumentError, match="fewer than --after 21"):
        state_after(str(path), "3", None, 21, None)
