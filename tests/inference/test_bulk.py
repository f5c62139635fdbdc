"""Replaying many files at once: exact counts, reasons, soundness, workers (the command: tests/inference/commands)."""

from __future__ import annotations

import random
from typing import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from dealer import Seat
from inference.apps.bulk import record_files, replay_file, replay_many, violations
from inference.rules.contract import Strain
from inference.errors import InvalidArgumentError
from inference.io.records import PlayRecord, read_pbn
from inference.apps.replay import replay_record
from tests.inference.helpers import random_play
from tests.inference.test_records import DEAL, pbn_rows, pbn_text

ROOT = Path(__file__).resolve().parents[2]


def folder(tmp_path: Path) -> Path:
    """Three files: two legal records (one cut short), one illegal (a card twice), one passed out."""
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    good = [random_play(DEAL, Seat.S, Strain.H, random.Random(k), 52 if k == 0 else 17) for k in range(2)]
    text = "\n".join(pbn_text(DEAL, Seat.S, "4H", pbn_rows(DEAL, Seat.S, Strain.H, c, Seat.W)) for c in good)
    (root / "a.pbn").write_text(text)
    twice = good[0][:8]
    bad = pbn_text(DEAL, Seat.S, "4H", pbn_rows(DEAL, Seat.S, Strain.H, twice, Seat.W))
    bad = bad.replace(str(twice[1]), str(twice[0]), 1)
    passed = '[Board "9"]\n[Dealer "N"]\n[Deal "' + DEAL.to_pbn() + '"]\n[Contract "Pass"]\n\n'
    (root / "sub" / "b.pbn").write_text(bad + "\n" + passed)
    (root / "notes.txt").write_text("not a record")
    return root


def test_counts_reasons_and_soundness(tmp_path: Path) -> None:
    root = folder(tmp_path)
    files = record_files([root])
    assert [f.name for f in files] == ["a.pbn", "b.pbn"]
    s = replay_many(files)
    assert (s.files, s.read, s.replayed, s.cards) == (2, 4, 2, 52 + 17)
    assert dict(s.rejected) == {"card played twice": 1}
    assert dict(s.skipped) == {"passed out": 1} and s.violations == []
    parallel = replay_many(files, jobs=2)
    assert parallel.as_json() | {"cpu_seconds": 0} == s.as_json() | {"cpu_seconds": 0}


def test_big_files_split_among_workers_count_the_same(tmp_path: Path, shrink_budget: Callable[..., None]) -> None:
    root = folder(tmp_path)
    files = record_files([root])
    shrink_budget(part_bytes=100)  # every file in several parts
    assert (root / "a.pbn").stat().st_size // 100 >= 2
    split = replay_many(files, jobs=2)
    whole = replay_many(files)
    assert split.as_json() | {"cpu_seconds": 0} == whole.as_json() | {"cpu_seconds": 0}


def test_the_soundness_check_can_fail() -> None:
    """Tighten one bound by one: the checker must report the true deal excluded."""
    rec = next(r for r in read_pbn(pbn_text(DEAL, Seat.S, "4H", pbn_rows(DEAL, Seat.S, Strain.H, random_play(
        DEAL, Seat.S, Strain.H, random.Random(3), 12), Seat.W))) if isinstance(r, PlayRecord))
    state, step = list(replay_record(rec))[5]
    assert violations(rec, step.bounds, state.snapshot.unseen) == []
    seat, sb = step.bounds.seats[0]
    true = DEAL[seat].length(0)
    narrowed = replace(sb, length=((true + 1, 13),) + sb.length[1:])
    bounds = replace(step.bounds, seats=((seat, narrowed),) + step.bounds.seats[1:])
    assert violations(rec, bounds, state.snapshot.unseen)


def test_replay_file_equals_one_file_of_many(tmp_path: Path) -> None:
    root = folder(tmp_path)
    one = replay_file(root / "a.pbn")
    many = replay_many([root / "a.pbn"])
    assert (one.read, one.replayed, one.cards) == (many.read, many.replayed, many.cards)
    with pytest.raises(InvalidArgumentError, match="jobs=0"):
        replay_many([root / "a.pbn"], jobs=0)


def test_local_jobs_need_no_dask_and_a_cluster_without_it_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--jobs`` runs on this machine's processes without importing Dask; ``--scheduler`` without Dask
    installed is a :class:`~inference.errors.DaskUnavailableError` naming the extra."""
    import importlib
    import subprocess
    import sys

    from inference.distributed import run_map
    from inference.errors import DaskUnavailableError

    code = ("import sys; from inference.distributed import run_map; "
            "print(run_map(abs, [-3, 1, -2, 5, -8], jobs=2), 'distributed' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stdout.split("]")[1].strip() == "False", done.stderr
    assert done.stdout.startswith("[3, 1, 2, 5, 8]")
    real = importlib.import_module

    def no_dask(name: str, package: str | None = None) -> object:
        if name == "distributed":
            raise ImportError("No module named 'distributed'")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_dask)
    with pytest.raises(DaskUnavailableError, match=r"pip install 'kibitz\[dask\]'"):
        run_map(abs, [1], scheduler="tcp://127.0.0.1:9")
    with pytest.raises(InvalidArgumentError, match="jobs=0"):
        run_map(abs, [1], jobs=0)
