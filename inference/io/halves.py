"""One split of a corpus for everything measured on it: a calibration half and an evaluation half.

A record (one table result) is named by its file's path under the corpus root and its 1-based
index in the file. Its *rank* is the SHA-256 of ``"<path>#<index>"``. Within each source folder
(the first folder under the root) the records are sorted by rank: the first half (rounded up) is
the **calibration** half, the rest the **evaluation** half; the last fifth of the calibration half
(by rank) is its **validation** part, where a model's form is chosen before it is fitted on the
whole calibration half. The split is stratified by folder (one file may hold thousands of records:
a split by file would be lopsided) and fixed: it depends only on the records' names.

The records of a folder come from the corpus's ``records.jsonl`` (every record, whatever its
status). Without it, a record's half is read off its rank alone (calibration below the middle of
the hash range; validation in the top fifth of that): the same in expectation, exact balance not
guaranteed.

>>> halves = Halves.of_names([("a/x.pbn", i) for i in range(1, 11)])
>>> sorted(halves.counts()["a"].items())
[('calibration', 5), ('evaluation', 5)]
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, NamedTuple

from inference.errors import InvalidArgumentError

__all__ = ["CALIBRATION", "EVALUATION", "VALIDATION", "HALVES", "rank", "folder_of", "Halves", "corpus_root",
           "CorpusFile", "corpus_files"]

CALIBRATION = "calibration"
EVALUATION = "evaluation"
#: Not a half: the part of the calibration half kept to choose a model's form.
VALIDATION = "validation"
HALVES = (CALIBRATION, EVALUATION)
#: The share of the calibration half kept for validation.
VALIDATION_SHARE = 0.2


def rank(path: str, index: int) -> int:
    """A record's place in the split: the SHA-256 of ``"<path>#<index>"`` as an integer."""
    return int.from_bytes(hashlib.sha256(f"{path}#{index}".encode()).digest(), "big")


def folder_of(path: str) -> str:
    """A record's source folder: the first folder of its path under the corpus root ('.' if none)."""
    parts = path.replace("\\", "/").split("/")
    return parts[0] if len(parts) > 1 else "."


def corpus_root(path: "str | Path") -> Path | None:
    """The nearest folder at or above ``path`` that holds a ``records.jsonl`` (None: no such folder)."""
    p = Path(path).resolve()
    for folder in ([p] if p.is_dir() else []) + list(p.parents):
        if (folder / "records.jsonl").is_file():
            return folder
    return None


@dataclass(frozen=True)
class Halves:
    """The split of one corpus: each listed record's half (``calibration`` or ``evaluation``)."""

    assigned: Mapping[tuple[str, int], str] = field(default_factory=dict)
    validation: frozenset[tuple[str, int]] = frozenset()

    @classmethod
    def of_names(cls, names: Iterable[tuple[str, int]]) -> "Halves":
        """The split of the records named ``(path under the root, index)``, stratified by folder."""
        by_folder: dict[str, list[tuple[int, tuple[str, int]]]] = defaultdict(list)
        for path, index in names:
            by_folder[folder_of(path)].append((rank(path, index), (path, index)))
        assigned: dict[tuple[str, int], str] = {}
        validation: set[tuple[str, int]] = set()
        for ranked in by_folder.values():
            ranked.sort()
            cut = (len(ranked) + 1) // 2
            held_out = cut - round(cut * (1 - VALIDATION_SHARE))
            for j, (_, name) in enumerate(ranked):
                assigned[name] = CALIBRATION if j < cut else EVALUATION
                if cut - held_out <= j < cut:
                    validation.add(name)
        return cls(assigned, frozenset(validation))

    @classmethod
    def of_corpus(cls, root: "str | Path") -> "Halves":
        """The split of the corpus under ``root``, listed by its ``records.jsonl`` (empty if it has none)."""
        listing = Path(root) / "records.jsonl"
        if not listing.is_file():
            return cls()
        names = []
        with listing.open(encoding="utf-8") as fh:
            for line_no, line in enumerate(fh, 1):
                try:
                    entry = json.loads(line)
                    names.append((str(entry["file"]), int(entry["index"])))
                except (ValueError, KeyError, TypeError) as exc:
                    raise InvalidArgumentError(f"{listing}:{line_no}: not a record entry ({exc}): {line[:80]!r}") from None
        return cls.of_names(names)

    def half(self, path: str, index: int) -> str:
        """The half of record ``index`` of ``path`` (under the root); unlisted, by its rank alone."""
        found = self.assigned.get((path, index))
        if found is not None:
            return found
        return CALIBRATION if rank(path, index) < 1 << 255 else EVALUATION

    def in_validation(self, path: str, index: int) -> bool:
        """Whether the record is in the calibration half's validation part."""
        if (path, index) in self.assigned:
            return (path, index) in self.validation
        r = rank(path, index)
        return (1 << 255) * (1 - VALIDATION_SHARE) <= r < 1 << 255

    def counts(self) -> dict[str, dict[str, int]]:
        """Per folder: how many listed records each half holds."""
        out: dict[str, dict[str, int]] = defaultdict(lambda: {h: 0 for h in HALVES})
        for (path, _), half in self.assigned.items():
            out[folder_of(path)][half] += 1
        return dict(out)

    def digest(self) -> str:
        """A short hash of the split (for a fitted model's provenance)."""
        text = "\n".join(f"{p}#{i}:{h}" for (p, i), h in sorted(self.assigned.items()))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class CorpusFile(NamedTuple):
    """A file of played deals: its path, its name under the corpus root, its source folder, the corpus's split."""

    path: Path
    name: str
    folder: str
    halves: Halves

    def half(self, index: int) -> str:
        """The half of the file's record ``index``."""
        return self.halves.half(self.name, index)


def corpus_files(paths: Iterable["str | Path"]) -> list[CorpusFile]:
    """Every ``.pbn``/``.lin`` file under the paths, sorted, each named under its corpus root (the nearest
    folder above with a ``records.jsonl``; else the path given, or a lone file's folder)."""
    out = []
    splits: dict[Path, Halves] = {}
    for p in map(Path, paths):
        root = (corpus_root(p) or (p if p.is_dir() else p.parent)).resolve()
        if root not in splits:
            splits[root] = Halves.of_corpus(root)
        files = sorted(x for x in p.rglob("*") if x.suffix.lower() in (".pbn", ".lin") and x.is_file()) \
            if p.is_dir() else [p]
        for f in files:
            name = f.resolve().relative_to(root).as_posix()
            out.append(CorpusFile(f, name, folder_of(name), splits[root]))
    return out
