"""Checks at the boundary: strict argument types, bounded sizes, and text files read safely.

Every value that enters Kibitz from outside (a command-line option, a protocol
request, a public function's argument, a file) is checked here or by a model
built on these helpers, so a bad value is refused with the project's own
error, naming the value (shortened) and where it was, before anything changes.
Each helper takes the exception class to raise, so both layers keep their own
root (:class:`~dealer.errors.DealerError`, ``InferenceError``).

* types are strict: a bool is not an int, a float is not an int, an int is not
  a seat or a card set;
* text files are read with a size limit (:data:`MAX_FILE_BYTES`), only from
  regular files (not a device such as ``/dev/zero``), and decoded as UTF-8
  (a byte-order mark is honoured, so UTF-16 and UTF-32 files with one are read
  too); bytes that are not UTF-8 are read as Latin-1 (Windows exports), and a
  file with NUL bytes and no byte-order mark is refused as binary.

>>> shown("x" * 100, 10)
"'xxxxxxxxxx'... (100 characters)"
>>> check_int(True, "n", ValueError)
Traceback (most recent call last):
...
ValueError: n must be a whole number, got True
"""

from __future__ import annotations

import codecs
import os
import stat
from typing import Any, Sequence, TypeVar

__all__ = ["MAX_FILE_BYTES", "shown", "check_int", "check_bool", "check_str", "check_choice", "read_text",
           "decode_text"]

#: The largest text file Kibitz reads whole (a spec, a scenario, a PBN or LIN file): 64 MiB.
MAX_FILE_BYTES = 64 * 2 ** 20

E = TypeVar("E", bound=Exception)

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` for a message, shortened past ``limit`` characters (with the full length)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def check_int(value: Any, what: str, error: type[Exception], lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int, refused (``error``) if it is not a whole number (bools too) or out of ``lo..hi``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be a whole number, got {shown(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{lo:,}..{hi:,}" if lo is not None and hi is not None else f">= {lo:,}" if lo is not None else f"<= {hi:,}"
        raise error(f"{what} must be {span}, got {shown(value)}")
    return value


def check_bool(value: Any, what: str, error: type[Exception]) -> bool:
    """``value`` if it is ``True`` or ``False`` (not a string, not a number)."""
    if not isinstance(value, bool):
        raise error(f"{what} must be true or false, got {shown(value)}")
    return value


def check_str(value: Any, what: str, error: type[Exception], limit: int = 100_000) -> str:
    """``value`` if it is text of at most ``limit`` characters."""
    if not isinstance(value, str):
        raise error(f"{what} must be text, got {type(value).__name__} {shown(value)}")
    if len(value) > limit:
        raise error(f"{what} is {len(value):,} characters long, more than the {limit:,} allowed")
    return value


def check_choice(value: Any, what: str, choices: Sequence[str], error: type[Exception]) -> str:
    """``value`` if it is one of ``choices`` (text)."""
    if not isinstance(value, str) or value not in choices:
        raise error(f"invalid {what} {shown(value)}: expected one of {', '.join(choices)}")
    return value


def decode_text(raw: bytes, source: str, error: type[Exception]) -> str:
    """Bytes of a text file as text: UTF-8, or what a byte-order mark says, else Latin-1; binary is refused."""
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError as exc:
                raise error(f"{source}: not valid {encoding.upper()} at byte {exc.start:,}") from None
    if b"\x00" in raw[:65536]:
        raise error(f"{source}: not a text file (NUL bytes; a UTF-16 file needs a byte-order mark)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def read_text(path: "str | os.PathLike[str]", what: str, error: type[Exception],
              limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most ``limit`` bytes (see the module doc for encodings)."""
    p = os.fspath(path)  # no pathlib: it is slow to import, and a command reading one script needs none
    try:
        info = os.stat(p)
    except OSError as exc:
        raise error(f"cannot read {what} {shown(str(p), 80)}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise error(f"cannot read {what} {shown(str(p), 80)}: {kind}")
    if info.st_size > limit:
        raise error(f"{what} {shown(str(p), 80)} is {info.st_size:,} bytes, more than the {limit:,} allowed")
    try:
        with open(p, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {shown(str(p), 80)}: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise error(f"{what} {shown(str(p), 80)} is more than the {limit:,} bytes allowed")
    return decode_text(raw, str(p), error)
