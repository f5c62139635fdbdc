"""What the benchmarks share: where the corpus is and how its complete played deals are read."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from inference.io.records import PlayRecord, read_records

#: ``../shared/corpus`` beside the checkout (override with ``--corpus``).
DEFAULT_CORPUS = str(Path(__file__).resolve().parents[2] / "shared" / "corpus")


def complete_records(files: Iterable[Path], n: int) -> list[PlayRecord]:
    """The first ``n`` records with a complete 52-card play, file by file in the order given."""
    out: list[PlayRecord] = []
    for f in files:
        for r in read_records(f):
            if isinstance(r, PlayRecord) and r.complete:
                out.append(r)
                if len(out) >= n:
                    return out
    return out
