"""Bulk jobs on a local Dask cluster (two worker processes on 127.0.0.1): the same results as in-process,
results taken once by task key, a worker killed mid-run loses nothing and counts nothing twice."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

pytest.importorskip("distributed")

import cloudpickle
import psutil
from distributed import Client, LocalCluster

from inference.auction.calibration import calibrate
from inference.apps.bulk import Summary, plan, record_files, replay_many, replay_part
from inference.distributed import HTTP, connect, run_map, task_keys
from inference.errors import InvalidArgumentError
from tests.inference.commands.helpers import run
from tests.inference.test_bulk import folder
from tests.inference.test_records import DEAL, pbn_rows, pbn_text

# the test's own functions go to the workers by value (the workers do not import the tests)
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "records" / "example.pbn"
CORPUS = Path(os.environ.get("KIBITZ_CORPUS", ROOT.parent / "shared" / "corpus"))
LIN = ("pn|S,W,N,E|st||md|3SAKQJT98765432,H,DAKQJ,C|rh||ah|Board 1|sv|o|"
       "mb|1C|an|2+ clubs|mb|P|mb|1N|mb|P|mb|P|mb|P|pg||\n")


def spawned() -> list[psutil.Process]:
    """This process's children but Python's resource tracker (which lives as long as we do)."""
    return [p for p in psutil.Process().children(recursive=True)
            if not any("resource_tracker" in part for part in p.cmdline())]


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[LocalCluster, Client]]:
    """Two worker processes, one thread each, on the loopback address, no dashboard; always shut down."""
    lc = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, scheduler_kwargs=HTTP)
    children: list[psutil.Process] = []
    try:
        client = Client(lc)
        try:
            client.wait_for_workers(2, timeout=60)
            children = spawned()
            yield lc, client
        finally:
            client.close()
    finally:
        lc.close()
        gone, alive = psutil.wait_procs(children, timeout=10)
        assert not alive, f"worker processes left behind: {alive}"


def ready(cluster: tuple[LocalCluster, Client]) -> str:
    """The scheduler's address once both workers are up (a test may have killed one)."""
    lc, client = cluster
    client.wait_for_workers(2, timeout=60)
    return str(lc.scheduler_address)


def same(a: Summary, b: Summary) -> None:
    """Field by field (CPU seconds aside): counts, reasons in order, every violation."""
    assert (a.files, a.read, a.replayed, a.cards) == (b.files, b.read, b.replayed, b.cards)
    assert list(a.rejected.items()) == list(b.rejected.items())
    assert list(a.skipped.items()) == list(b.skipped.items())
    assert a.violations == b.violations
    assert a.as_json() | {"cpu_seconds": 0} == b.as_json() | {"cpu_seconds": 0}


def small_files(tmp_path: Path) -> list[Path]:
    """example.pbn, a folder of legal, illegal and passed-out records, and a file of many short records."""
    root = folder(tmp_path)
    from dealer import Seat
    from inference.rules.contract import Strain
    from tests.inference.helpers import random_play
    import random

    plays = [random_play(DEAL, Seat.S, Strain.H, random.Random(100 + k), 4 + k % 9) for k in range(24)]
    (root / "many.pbn").write_text("\n".join(pbn_text(DEAL, Seat.S, "4H", pbn_rows(DEAL, Seat.S, Strain.H, c, Seat.W))
                                             for c in plays))
    return [EXAMPLE, *record_files([root])]


def test_listening_on_loopback_only(cluster: tuple[LocalCluster, Client]) -> None:
    ready(cluster)
    _, client = cluster
    info = client.scheduler_info()
    addresses = [info["address"], *info["workers"], *(w["nanny"] for w in info["workers"].values())]
    assert addresses and all(a.startswith("tcp://127.0.0.1:") for a in addresses), addresses
    for proc in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        for conn in proc.net_connections(kind="inet"):
            if conn.status == psutil.CONN_LISTEN:
                assert conn.laddr.ip == "127.0.0.1", (proc, conn)


def test_run_map_keeps_order_and_takes_each_result_once(cluster: tuple[LocalCluster, Client]) -> None:
    ready(cluster)
    seen: list[tuple[int, int]] = []
    out = run_map(abs, [-5, 3, -1, 0, -8], client=cluster[1], on_result=lambda k, r: seen.append((k, r)))
    assert out == [5, 3, 1, 0, 8]
    assert sorted(seen) == [(0, 5), (1, 3), (2, 1), (3, 0), (4, 8)]
    keys = task_keys("x", 3)
    assert len(set(keys + task_keys("x", 3))) == 6  # a fresh token per run: no stale result reused


def test_a_result_seen_twice_counts_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """as_completed handing back a finished task again (a retried task) must not count it again."""
    class Future:
        def __init__(self, key: str, value: int) -> None:
            self.key, self.value = key, value

        def result(self) -> int:
            return self.value

        def done(self) -> bool:
            return True

    class FakeClient:
        def submit(self, function: Any, item: int, *, key: str, pure: bool) -> Future:
            return Future(key, function(item))

        def cancel(self, futures: list[Future]) -> None:
            assert futures == []

    class Dask:
        @staticmethod
        def as_completed(futures: list[Future]) -> Iterator[Future]:
            yield from [futures[1], futures[0], futures[1], futures[2], futures[0]]

    monkeypatch.setattr("inference.distributed._distributed", lambda: Dask)
    calls: list[tuple[int, int]] = []
    assert run_map(abs, [-1, -2, -3], client=FakeClient(), on_result=lambda k, r: calls.append((k, r))) == [1, 2, 3]
    assert calls == [(1, 2), (0, 1), (2, 3)]


def test_replay_on_the_cluster_equals_in_process(tmp_path: Path, cluster: tuple[LocalCluster, Client],
                                                 shrink_budget: Callable[..., None]) -> None:
    address = ready(cluster)
    files = small_files(tmp_path)
    here = replay_many(files)
    assert here.rejected == {"card played twice": 1} and here.skipped == {"passed out": 1}
    shrink_budget(part_bytes=400)  # big files split by record
    assert len(plan(files)) > len(files)
    calls: list[Path] = []
    there = replay_many(files, scheduler=address, progress=lambda total, path: calls.append(path))
    same(there, here)
    assert len(calls) == len(plan(files))  # the bar moved once per part, as each arrived


def test_the_cli_replay_and_rules_through_a_scheduler(tmp_path: Path, cluster: tuple[LocalCluster, Client]) -> None:
    address = ready(cluster)
    files = [str(f) for f in small_files(tmp_path)]
    status, out, _ = run("replay", *files, "--json", "--no-progress")
    status2, out2, _ = run("replay", *files, "--json", "--no-progress", "--scheduler", address)
    assert status == status2 == 0
    a, b = json.loads(out), json.loads(out2)
    assert a | {"seconds": 0, "cpu_seconds": 0} == b | {"seconds": 0, "cpu_seconds": 0}
    (tmp_path / "lin").mkdir()
    for k in range(3):
        (tmp_path / "lin" / f"x{k}.lin").write_text(LIN * (k + 1))
    rules = [*files, str(tmp_path / "lin")]
    status, out, _ = run("rules", *rules, "--book", "sayc", "--json", "--no-progress")
    status2, out2, _ = run("rules", *rules, "--book", "sayc", "--json", "--no-progress", "--scheduler", address)
    assert status == status2 == 0 and out == out2  # every tally, prior and interval, in the same order
    assert json.loads(out)["records"] == json.loads(out2)["records"] > 6


def test_calibrate_on_the_cluster_equals_in_process(tmp_path: Path, cluster: tuple[LocalCluster, Client]) -> None:
    address = ready(cluster)
    for k in range(4):
        (tmp_path / f"y{k}.lin").write_text(LIN * (k + 1))
    paths = [tmp_path, EXAMPLE]
    assert calibrate(paths, "sayc", scheduler=address) == calibrate(paths, "sayc")


def slow_part(job: tuple[Path, int, int]) -> Summary:
    """A part replayed slowly, so that tasks are pending when a worker is killed."""
    time.sleep(0.15)
    return replay_part(job)


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_nothing_and_counts_nothing_twice(
        tmp_path: Path, cluster: tuple[LocalCluster, Client], shrink_budget: Callable[..., None]) -> None:
    ready(cluster)
    lc, client = cluster
    files = small_files(tmp_path)
    shrink_budget(part_bytes=150)
    work = plan(files)
    assert len(work) >= 20
    pids = client.run(os.getpid)  # worker address -> its process
    killed: list[str] = []
    arrived: list[int] = []
    total = Summary()

    def on_result(k: int, part: Summary) -> None:
        arrived.append(k)
        total.add(part)
        if not killed:  # kill the worker busy on a pending task, with most of the run to go
            busy = [w for w, keys in client.processing().items() if keys]
            killed.append(busy[0])
            psutil.Process(pids[busy[0]]).kill()

    results = run_map(slow_part, work, client=client, on_result=on_result)
    assert killed and sorted(arrived) == list(range(len(work)))  # every part once
    whole = replay_many(files)
    same(canonical(total), whole)  # as the results arrived
    same(canonical(_fold(results)), whole)  # as returned, by task


def _fold(parts: list[Summary]) -> Summary:
    s = Summary()
    for p in parts:
        s.add(p)
    return s


def canonical(s: Summary) -> Summary:
    """Reasons by count then name, violations sorted (as replay_many leaves them)."""
    from collections import Counter

    s.violations.sort()
    s.rejected = Counter(dict(sorted(s.rejected.items(), key=lambda kv: (-kv[1], kv[0]))))
    s.skipped = Counter(dict(sorted(s.skipped.items(), key=lambda kv: (-kv[1], kv[0]))))
    return s


def test_a_local_cluster_of_our_own_shuts_down(tmp_path: Path) -> None:
    before = {p.pid for p in spawned()}
    with connect(jobs=2) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        ours = [p for p in spawned() if p.pid not in before]
        assert len(ours) == 2
    gone, alive = psutil.wait_procs(ours, timeout=10)
    assert not alive


def test_bad_workers_are_argument_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="jobs=0"):
        with connect(jobs=0):
            pass
    with pytest.raises(InvalidArgumentError, match="tcp://127.0.0.1:9"):
        with connect(scheduler="tcp://127.0.0.1:9", timeout=1):
            pass


@pytest.mark.corpus
@pytest.mark.slow
def test_corpus_sample_on_the_cluster_equals_in_process(cluster: tuple[LocalCluster, Client],
                                                       shrink_budget: Callable[..., None]) -> None:
    sample = [CORPUS / "bbo-vugraph-flagged"]
    if not all(p.exists() for p in sample):
        pytest.skip("no corpus")
    address = ready(cluster)
    files = record_files(sample)
    here = replay_many(files)
    assert sum(here.rejected.values()) > 100  # the flagged folder's illegal records, by reason
    shrink_budget(part_bytes=2048)  # its files split into parts of a few records, as big files are
    assert len(plan(files)) > 2 * len(files)
    same(replay_many(files, scheduler=address), here)


@pytest.mark.bot
@pytest.mark.slow
def test_a_small_bot_run_on_two_processes_equals_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/bot.py's deals played on two worker processes of this machine (as ``--jobs 2`` runs them)."""
    pytest.importorskip("endplay")
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bot  # benchmarks/bot.py; its functions go to the workers by value

    cloudpickle.register_pickle_by_value(bot)
    jobs = bot.dealer_jobs(2, 0)  # dealer deals, seed 11: one for each worker
    for job in jobs:
        job.update(n=3, tricks=2, book="natural-wide")
    here = bot.play_all(jobs)
    there = bot.play_all(jobs, 2)

    def numbers(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in r.items() if not k.endswith(" s")} for r in rows]

    assert numbers(there) == numbers(here) and len(here) == 2
    assert all(isinstance(r["lawful"], int) for r in here)


@pytest.mark.bot
def test_the_bot_benchmark_noise_floor_run_joins_the_main_run_by_deal(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--views lawful,reseeded`` replays the lawful view (same cards as in the full run) and adds the
    reseeded one; ``--report`` joins the two runs' rows by deal and tables every view found in both."""
    pytest.importorskip("endplay")
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bot

    jobs = bot.dealer_jobs(2, 0)
    for job in jobs:
        job.update(n=3, tricks=2, book="natural-wide")
    full = bot.play_all(jobs)
    control = bot.play_all([dict(job, views=("lawful", bot.RESEEDED)) for job in jobs])
    for a, b in zip(full, control):
        assert a["lawful cards"] == b["lawful cards"] and a["lawful"] == b["lawful"]
        assert "agreement" not in b and isinstance(b[bot.RESEEDED], int)
        assert (b[f"{bot.RESEEDED} diverged"] is None) == (b[f"{bot.RESEEDED} cards"] == b["lawful cards"])
    files = []
    for name, rows in (("main", full), ("control", control[:1])):
        files.append(tmp_path / f"{name}.jsonl")
        files[-1].write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["bot.py", "--report", *map(str, files)])
    bot.main()
    out = capsys.readouterr().out
    assert ": 1 deals" in out  # only the deal found in both files
    assert f"| {bot.RESEEDED} |" in out and "| omniscient |" in out


@pytest.mark.bot
def test_the_bot_benchmark_reuses_the_views_a_change_cannot_move(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--reuse ROWS`` copies the lawful and omniscient results of an earlier run (played again they are the
    same: they read neither the declarer's model nor the weighted view) and plays only the rest."""
    pytest.importorskip("endplay")
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bot

    jobs = bot.dealer_jobs(1, 0)
    for job in jobs:
        job.update(n=3, tricks=2, book="natural-wide", views=("lawful", "weighted", "omniscient"))
    earlier = bot.play_all(jobs)
    again = bot.play_all(jobs)
    marked = [dict(r, **{"lawful s": -1.0}) for r in earlier]  # a mark: copied rows keep it, played ones cannot
    reused = bot.play_all([dict(job, reused={k: v for k, v in row.items() if k.split(" ")[0] in bot.REUSABLE})
                           for job, row in zip(jobs, marked)])

    def numbers(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in r.items() if not k.endswith(" s")} for r in rows]

    assert numbers(again) == numbers(earlier) == numbers(reused)  # deterministic, and the copy is faithful
    assert all(r["lawful s"] == -1.0 and r["weighted s"] > 0 for r in reused)
