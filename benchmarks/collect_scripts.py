"""Collect the real ``dealer`` scripts of the compatibility benchmark again, from their manifest.

Run: ``python benchmarks/collect_scripts.py DEST [--manifest benchmarks/scripts.csv] [--from DIR]``.

The scripts are not part of the repository (they are other people's work, and kept apart so that
the project is never tuned to them); ``benchmarks/scripts.csv`` lists each one: its source
(``github:OWNER/REPO`` or ``debian:PACKAGE``), its path there, the commit it was read at, its SHA-256
and size. For a GitHub row the file is fetched at that commit from ``raw.githubusercontent.com``
(``--from DIR`` reads it from an earlier collection instead: ``DIR/OWNER__REPO/PATH``); for a Debian
row it is read where the package installs it (``apt-get install dealer``). Each file is checked
against its checksum and written to ``DEST/SOURCE/NAME`` (one folder per source, ``NAME`` the file's
name, made unique within its folder), ready for ``python benchmarks/compat.py DEST/*``. A file that
cannot be had or whose checksum differs is reported and not written. Exit status 1 if any was.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def folder_of(source: str) -> str:
    """The folder of a source: ``github:suokko/dealer`` -> ``suokko__dealer``, ``debian:dealer`` -> ``debian__dealer``."""
    kind, _, name = source.partition(":")
    return (name if kind == "github" else f"{kind}/{name}").replace("/", "__")


def fetch(row: dict[str, str], earlier: str | None) -> bytes:
    """The bytes of one manifest row, from GitHub at its commit, an earlier collection, or the disk."""
    source, path = row["source"], row["path"]
    if source.startswith("debian:"):
        with open(path, "rb") as f:
            return f.read()
    if earlier is not None:
        with open(os.path.join(earlier, folder_of(source), path), "rb") as f:
            return f.read()
    repo = source.removeprefix("github:")
    url = f"https://raw.githubusercontent.com/{repo}/{row['commit']}/{urllib.parse.quote(path)}"
    with urllib.request.urlopen(url, timeout=60) as response:
        data: bytes = response.read()
        return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", help="the folder to write the scripts to (one subfolder per source)")
    parser.add_argument("--manifest", default=os.path.join(HERE, "scripts.csv"))
    parser.add_argument("--from", dest="earlier", help="read GitHub files from an earlier collection (OWNER__REPO/PATH)")
    args = parser.parse_args()
    with open(args.manifest, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    written, failed, taken = 0, 0, set()
    for row in rows:
        try:
            data = fetch(row, args.earlier)
        except (OSError, urllib.error.URLError) as exc:
            print(f"missing  {row['source']} {row['path']}: {exc}")
            failed += 1
            continue
        digest = hashlib.sha256(data).hexdigest()
        if digest != row["sha256"] or len(data) != int(row["bytes"]):
            print(f"changed  {row['source']} {row['path']}: sha256 {digest[:12]}..., {len(data)} bytes")
            failed += 1
            continue
        folder = os.path.join(args.dest, folder_of(row["source"]))
        name, stem, n = os.path.basename(row["path"]), os.path.basename(row["path"]), 1
        while (folder, name) in taken:
            n += 1
            name = f"{stem}.{n}"
        taken.add((folder, name))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        written += 1
    sources = len({row["source"] for row in rows})
    print(f"# {written} of {len(rows)} scripts from {sources} sources written to {args.dest}; {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
