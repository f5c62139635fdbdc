"""Mapping a pure function over work items: in this process, this machine's processes, or a Dask cluster.

:func:`run_map` hands the results back as they finish, so a caller's progress bar stays live. With
one job it maps in this process; with ``jobs`` above one, in that many worker processes of this
machine (:class:`concurrent.futures.ProcessPoolExecutor`: the standard library, nothing to install or
set up); with ``scheduler`` (``tcp://host:8786``) or a ``client``, on a Dask cluster's workers
(:mod:`dask.distributed`, the extra ``kibitz[dask]``: a ``dask scheduler`` and ``dask worker``
processes started as Dask documents; see ``docs/distributed.rst``). :func:`connect` also makes a
Dask :class:`~dask.distributed.LocalCluster` of this machine's processes for callers who want one.

The function must be pure (an item's result depends on the item alone): on a cluster, a worker lost
mid-run has its tasks redone by Dask on another worker, and each result is taken once, by its task
key, so a retried task or a result seen twice is never counted twice. Dask is imported here, inside
the functions, and only for a cluster, so neither ``kibitz --help`` nor ``--jobs`` pays for it.
"""

from __future__ import annotations

import logging
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence, TypeVar

from inference.errors import DaskUnavailableError, InvalidArgumentError

__all__ = ["HTTP", "task_keys", "connect", "run_map", "run_files"]

#: The scheduler's small HTTP server (health, metrics; no dashboard) on a free loopback port, not 8787.
HTTP = {"dashboard_address": "127.0.0.1:0"}

Item = TypeVar("Item")
Result = TypeVar("Result")


def task_keys(name: str, count: int) -> list[str]:
    """One Dask task key per item: ``name``, a run token and the item's position (unique per run)."""
    import uuid

    token = uuid.uuid4().hex[:12]
    return [f"{name}-{token}-{k}" for k in range(count)]


def _distributed() -> Any:
    """:mod:`dask.distributed`, imported when first needed (it is untyped: Any); a clear error without it."""
    import importlib

    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise DaskUnavailableError("a Dask cluster (--scheduler) needs Dask: pip install 'kibitz[dask]'") from None


@contextmanager
def connect(jobs: int = 1, scheduler: str | None = None, timeout: float = 10.0) -> Iterator[Any]:
    """A Dask client: to the cluster at ``scheduler``, or to a new local cluster of ``jobs`` worker
    processes (one thread each) on 127.0.0.1 without a dashboard; closed (the local cluster shut
    down) on leaving, whatever happens. A scheduler not reached within ``timeout`` seconds is an
    argument error."""
    if jobs < 1:
        raise InvalidArgumentError(f"invalid jobs={jobs}: expected at least 1")
    dask = _distributed()
    if scheduler is not None:
        try:
            client = dask.Client(scheduler, timeout=f"{timeout}s")
        except (OSError, ValueError, TypeError) as exc:
            raise InvalidArgumentError(f"cannot reach the Dask scheduler {scheduler[:80]!r} (--scheduler): {exc}") from exc
        try:
            yield client
        finally:
            client.close()
        return
    cluster = dask.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, host="127.0.0.1",
                                dashboard_address=None, silence_logs=logging.ERROR, scheduler_kwargs=HTTP)
    try:
        client = dask.Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


def run_map(function: Callable[[Item], Result], items: Sequence[Item], *, jobs: int = 1,
            scheduler: str | None = None, client: Any = None,
            on_result: Callable[[int, Result], None] | None = None, name: str = "kibitz") -> list[Result]:
    """``function`` applied to every item; the results in the items' order.

    ``on_result(k, result)`` is called once per item, as its result arrives (in finishing order).
    With no scheduler nor client: one job maps the items here, in this process, in order; more run
    them in ``jobs`` processes of this machine. Else the workers are ``client``'s, or those of the
    Dask cluster at ``scheduler``. A task that fails raises its exception here (after the others are
    cancelled).
    """
    if client is None and scheduler is None:
        if jobs < 1:
            raise InvalidArgumentError(f"invalid jobs={jobs}: expected at least 1")
        if jobs > 1:
            return _run_local(function, items, jobs, on_result)
        out = []
        for k, item in enumerate(items):
            out.append(function(item))
            if on_result is not None:
                on_result(k, out[-1])
        return out
    if client is None:
        with connect(jobs, scheduler) as own:
            return run_map(function, items, client=own, on_result=on_result, name=name)
    as_completed = _distributed().as_completed
    keys = task_keys(name, len(items))
    position = {key: k for k, key in enumerate(keys)}
    futures = [client.submit(function, item, key=key, pure=False) for key, item in zip(keys, items)]
    results: dict[int, Any] = {}
    try:
        for future in as_completed(futures):
            k = position[future.key]
            if k in results:  # a result seen twice counts once
                continue
            results[k] = future.result()
            if on_result is not None:
                on_result(k, results[k])
    finally:
        client.cancel([f for f in futures if not f.done()])
    return [results[k] for k in range(len(items))]


def _run_local(function: Callable[[Item], Result], items: Sequence[Item], jobs: int,
               on_result: Callable[[int, Result], None] | None) -> list[Result]:
    """:func:`run_map` on ``jobs`` processes of this machine (the standard library's process pool)."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results: dict[int, Result] = {}
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(function, item): k for k, item in enumerate(items)}
        for future in as_completed(futures):
            k = futures[future]
            results[k] = future.result()
            if on_result is not None:
                on_result(k, results[k])
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [results[k] for k in range(len(items))]


def run_files(function: Callable[[Item], Result], items: Sequence[Item], *, jobs: int = 1,
              scheduler: str | None = None, name: str = "kibitz", progress: str | None = None) -> list[Result]:
    """:func:`run_map` over a corpus's files, with a progress bar on standard error labelled ``progress``
    (None: no bar), one step a file."""
    bar: Any = None
    if progress is not None:
        from tqdm import tqdm
        bar = tqdm(total=len(items), unit="file", desc=progress, file=sys.stderr)
    try:
        return run_map(function, items, jobs=jobs, scheduler=scheduler, name=name,
                       on_result=None if bar is None else lambda k, r: bar.update(1))
    finally:
        if bar is not None:
            bar.close()
