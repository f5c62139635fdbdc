"""Replaying many played deals at once: records read, rejected by reason, soundness, throughput.

Every PBN and LIN file under the paths given is read; every legal record is replayed card by card
from declarer's view, and after each card the lawful bounds are checked against the true deal (a
*soundness violation* is a bound, or a card's possible holders, that excludes what the true deal
has: it must never happen). With ``jobs`` > 1 or a Dask ``scheduler`` the files, big ones split by
record, are shared among worker processes or a Dask cluster's workers (:mod:`inference.distributed`);
the summary is the same.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from dealer import CardSet
from dealer.budget import current

from inference.errors import InvalidArgumentError, RecordError
from inference.io.records import PlayRecord, Skipped, file_items, read_records
from inference.apps.replay import replay_record

__all__ = ["workers", "plan", "replay_part", "Summary", "record_files", "violations", "rejection_reason", "replay_file", "replay_many"]

_SUFFIXES = (".pbn", ".lin")


def record_files(paths: Iterable["str | Path"]) -> list[Path]:
    """The PBN and LIN files named, or found (recursively, sorted) under the folders named."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in _SUFFIXES)
        elif p.is_file():
            out.append(p)
        else:
            raise InvalidArgumentError(f"no such file or folder: {str(p)!r}")
    return out


def violations(rec: PlayRecord, bounds: object, unseen: int) -> list[str]:
    """Where lawful ``bounds`` exclude the true deal of ``rec`` (empty when sound)."""
    out = []
    for seat, sb in bounds.seats:  # type: ignore[attr-defined]
        hand = rec.deal[seat]
        for s in range(4):
            lo, hi = sb.length[s]
            if not lo <= hand.length(s) <= hi:
                out.append(f"{seat.name} length[{s}] {hand.length(s)} outside {lo}-{hi}")
        if not sb.hcp[0] <= hand.hcp <= sb.hcp[1]:
            out.append(f"{seat.name} hcp {hand.hcp} outside {sb.hcp[0]}-{sb.hcp[1]}")
    for card in CardSet(unseen):
        if rec.deal.holder(card) not in bounds.possible_holders(card):  # type: ignore[attr-defined]
            out.append(f"{card} held by {rec.deal.holder(card).name}, not a possible holder")
    return out


_CATEGORIES = (
    ("revoke", "revoke"),
    ("belongs to", "wrong player or order"),
    ("twice", "card played twice"),
    ("not in", "card not in the deal"),
)


def rejection_reason(error: RecordError) -> str:
    """A short category for a rejected record (the message without its file, board and card)."""
    text = str(error)
    for needle, category in _CATEGORIES:
        if needle in text.lower():
            return category
    tail = text.split(": ")[-1]
    return re.sub(r"\b[SHDC][AKQJT2-9]\b|\d+", "#", tail)[:60]


@dataclass
class Summary:
    """Counts over files: records read, replayed, rejected (by reason), skipped, cards, violations, time."""

    files: int = 0
    read: int = 0
    replayed: int = 0
    cards: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: "Summary") -> None:
        """Fold another summary into this one (times add: they are CPU seconds)."""
        self.files += other.files
        self.read += other.read
        self.replayed += other.replayed
        self.cards += other.cards
        self.rejected.update(other.rejected)
        self.skipped.update(other.skipped)
        self.violations += other.violations
        self.seconds += other.seconds

    def as_json(self) -> dict[str, object]:
        """The summary as plain JSON values."""
        return {"files": self.files, "read": self.read, "replayed": self.replayed, "cards": self.cards,
                "rejected": sum(self.rejected.values()), "rejected_by_reason": dict(self.rejected.most_common()),
                "skipped": dict(self.skipped.most_common()), "soundness_violations": len(self.violations),
                "first_violations": self.violations[:10], "cpu_seconds": round(self.seconds, 3)}


def replay_file(path: "str | Path", part: int = 0, parts: int = 1) -> Summary:
    """Replay the records of one file from declarer's view; count and check soundness after every card.

    With ``parts`` > 1 only every ``parts``-th record from number ``part`` is counted (a big file
    shared among workers); the file itself counts in part 0.
    """
    start = time.process_time()
    s = Summary(files=int(part == 0))
    for k, item in enumerate(file_items(read_records, str(path))):  # a file not read at all: one rejection
        if k % parts != part:
            continue
        s.read += 1
        if isinstance(item, RecordError):
            s.rejected[rejection_reason(item)] += 1
            continue
        if isinstance(item, Skipped):
            s.skipped[item.reason] += 1
            continue
        s.replayed += 1
        for number, (state, step) in enumerate(replay_record(item), start=1):
            s.cards += 1
            bad = violations(item, step.bounds, state.snapshot.unseen)
            if bad:
                s.violations.append(f"{item.label}, card {number}: {bad[0]}")
    s.seconds = time.process_time() - start
    return s


def replay_part(job: tuple[Path, int, int]) -> Summary:
    """:func:`replay_file` on a ``(path, part, parts)`` work item of :func:`plan` (a pure function of it)."""
    return replay_file(*job)


def workers(jobs: int) -> int:
    """How many local worker processes ``jobs`` gives: at most one per core."""
    return max(1, min(jobs, os.cpu_count() or 1))




def plan(files: Sequence[Path], split: bool = True) -> list[tuple[Path, int, int]]:
    """The work items ``(path, part, parts)``: the biggest files first, each split into one part per
    the budget's ``part_bytes`` (one part each when not ``split``: the in-process order, files as given)."""
    if not split:
        return [(path, 0, 1) for path in files]
    work: list[tuple[Path, int, int]] = []
    for path in sorted(files, key=lambda f: f.stat().st_size, reverse=True):
        parts = max(1, path.stat().st_size // current().part_bytes)
        work += [(path, k, parts) for k in range(parts)]
    return work


def _canonical(total: Summary) -> Summary:
    """Orders that must not depend on who finished first: reasons by count then name, violations sorted."""
    total.rejected = Counter(dict(sorted(total.rejected.items(), key=lambda kv: (-kv[1], kv[0]))))
    total.skipped = Counter(dict(sorted(total.skipped.items(), key=lambda kv: (-kv[1], kv[0]))))
    total.violations.sort()
    return total


def replay_many(files: Sequence[Path], *, jobs: int = 1, scheduler: str | None = None,
                progress: Callable[[Summary, Path], None] | None = None) -> Summary:
    """Replay every file: in this process when ``jobs`` is 1 and no ``scheduler`` is named, else on
    workers (``jobs`` processes of this machine, or the Dask cluster at ``scheduler``) with big files split by
    record; ``progress`` is called after each file or part. The summary is the same either way."""
    if jobs < 1:
        raise InvalidArgumentError(f"invalid jobs={jobs}: expected at least 1")
    total = Summary()
    if workers(jobs) == 1 and scheduler is None:
        for path in files:
            total.add(replay_file(path))
            if progress is not None:
                progress(total, path)
        return _canonical(total)
    from inference.distributed import run_map

    work = plan(files)

    def arrived(k: int, part: Summary) -> None:
        total.add(part)
        if progress is not None:
            progress(total, work[k][0])

    run_map(replay_part, work, jobs=workers(jobs), scheduler=scheduler, on_result=arrived, name="replay")
    return _canonical(total)
