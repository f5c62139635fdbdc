"""PBN text split into games: comments stripped, tags and their sections gathered (:mod:`inference.io.records`
reads the games)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

__all__ = ["TAG", "PbnGame", "strip_comments", "pbn_games"]

#: One PBN tag on a line: ``[Name "value"]`` (or a value without quotes).
TAG = re.compile(r'^\[\s*([A-Za-z][\w]*)\s*(?:"([^"]*)"|([^\]]*?))\s*\]\s*$')


def strip_comments(text: str) -> Iterator[tuple[int, str]]:
    """Lines with ``{...}`` and ``;`` comments and ``%`` lines removed, with 1-based line numbers.

    Only a line that is blank in the file separates games; a line emptied by
    removing a comment is dropped (``None`` text), not taken as a separator.
    """
    in_brace = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.replace("\ufeff", "")
        if not in_brace and not line.strip():
            yield number, ""
            continue
        if not in_brace and line.lstrip().startswith("%"):
            continue
        if not in_brace and "{" not in line and ";" not in line:  # nothing to strip (most lines)
            yield number, line
            continue
        buf = []
        in_quote = False
        i = 0
        while i < len(line):
            ch = line[i]
            if in_brace:
                if ch == "}":
                    in_brace = False
                i += 1
                continue
            if ch == '"':
                in_quote = not in_quote
            elif not in_quote and ch == "{":
                in_brace = True
                i += 1
                continue
            elif not in_quote and ch == ";":
                break
            buf.append(ch)
            i += 1
        kept = "".join(buf)
        if kept.strip():
            yield number, kept


@dataclass
class PbnGame:
    """One PBN game as read: its first line, tags, notes and the lines of each tag's section."""

    first_line: int
    tags: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # PBN [Note "n:text"], by n
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)  # the line each tag is on


def pbn_games(text: str) -> Iterator[PbnGame]:
    """The games of a PBN text in order, each as soon as it ends: a game is a run of lines with tags,
    ended by a line blank in the file."""
    game: PbnGame | None = None
    current: str | None = None
    for number, line in strip_comments(text):
        stripped = line.strip()
        if not stripped:
            if game is not None and game.tags:
                yield game
                game = None
                current = None
            continue
        if stripped.startswith("["):
            m = TAG.match(stripped)
            if not m:
                # several tags on one line, or a broken one: take what parses
                parts = re.findall(r"\[[^\]]*\]", stripped)
                if not parts:
                    continue
                matches = [TAG.match(p) for p in parts]
            else:
                matches = [m]
            for mm in matches:
                if mm is None:
                    continue
                if game is None:
                    game = PbnGame(number)
                name = mm.group(1)
                value = mm.group(2) if mm.group(2) is not None else (mm.group(3) or "").strip()
                game.tags[name] = value
                game.tag_lines[name] = number
                if name == "Note" and ":" in value:
                    game.notes[value.split(":", 1)[0].strip()] = value.split(":", 1)[1].strip()
                current = name
                game.sections.setdefault(name, [])
            continue
        if game is not None and current is not None:
            game.sections[current].append((number, stripped))
    if game is not None and game.tags:
        yield game
