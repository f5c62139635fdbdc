"""Every bad command line is answered in one line on stderr with exit status 2, and writes nothing else.

The table holds the cases found by a hostile review (issue 12) and more of the same kinds: values of
the wrong form, out of range, too large or too deep, unreadable or binary files, impossible specs.
"""

from __future__ import annotations

import codecs
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.inference.commands.helpers import run

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = str(ROOT / "scenarios" / "records" / "example.pbn")
SCENARIO = ROOT / "scenarios" / "seed" / "02-07-five-card-ending.toml"


def files(tmp: Path) -> dict[str, str]:
    """Bad files of every kind, written once into ``tmp``."""
    text = SCENARIO.read_text()
    made = {
        "latin1.dl": "hcp(north) > 3 # café".encode("latin-1"),
        "utf16.dl": codecs.BOM_UTF16_LE + "hcp(north) > 3\n".encode("utf-16-le"),
        "nobom16.dl": "hcp(north) > 3\n".encode("utf-16-le"),
        "deep.toml": ('title = "x"\ndeclarer = "S"\nhands = {S = "AKQ.AKQ.AKQ.AKQJ"}\nx = '
                      + "[" * 5000 + "]" * 5000).encode(),
        "play42.toml": re.sub(r'play = """.*?"""', "play = 42", text, flags=re.S).encode(),
        "won.toml": text.replace("won = [8, 0]", "won = [-1, 99]").encode(),
        "binary.pbn": bytes(range(256)) * 100,
        "big.pbn": b"%" * (33 * 2 ** 20),
        "utf16.pbn": codecs.BOM_UTF16_LE + Path(EXAMPLE).read_text().encode("utf-16-le"),
    }
    out = {}
    for name, data in made.items():
        (tmp / name).write_bytes(data)
        out[name] = str(tmp / name)
    os.symlink("/dev/zero", tmp / "zero.pbn")
    out["zero.pbn"] = str(tmp / "zero.pbn")
    out["folder"] = str(tmp)
    return out


CASES: list[tuple[list[str], str]] = [
    (["odds", EXAMPLE, "--frob"], "error: kibitz odds: unrecognized arguments: --frob (see kibitz odds --help)"),
    (["--bogus"], "error: unknown option '--bogus' before the command"),
    (["count", "hcp(north) >= 99999999999999999999"], "too large"),
    (["count", "(" * 150 + "hcp(north) > 3" + ")" * 150], "nested more than 100"),
    (["count", "hcp(north) >"], "<spec>:1:13: expected a number"),
    (["deal", "hcp(north) > 3", "--seed", "-1"], "invalid --seed -1"),
    (["sample", EXAMPLE, "--seed", "-1"], "invalid --seed -1"),
    (["replay", EXAMPLE, "--scheduler", "tcp://127.0.0.1:1"], "--jobs and --scheduler share out a summary's files"),
    (["replay", EXAMPLE, "--jobs", "2"], "--jobs and --scheduler share out a summary's files"),
    (["deal", "hcp(north) > 3", "-n", "x"], "invalid -n 'x'"),
    (["deal", "hcp(north) > 3", "-n", "１０"], "invalid -n"),
    (["stats", "-n", "0", "--spec", "hcp(north) > 3"], "at least one deal"),
    (["stats", "-n", "-5", "--spec", "hcp(north) > 3"], "invalid -n -5"),
    (["stats", EXAMPLE, "--spec", "hcp(north) >= 40"], "no deal satisfies the spec"),
    (["count", "hcp(north) > 3", "--limit", "-1"], "invalid --limit -1"),
    (["number", "１２３"], "digits 0-9"),
    (["number", "9" * 5000], "too long"),
    (["replay", str(SCENARIO), "--board", "3"], "--board picks a record"),
    (["replay", str(SCENARIO), "--seat", "E"], "--seat picks a record"),
    (["odds", str(SCENARIO), "--record", "2"], "--record picks a record"),
    (["replay", EXAMPLE, "--record", "0"], "invalid --record 0"),
    (["replay", EXAMPLE, "--seat", "X" * 1000], "invalid seat"),
    (["count", "/no/such/spec.dl"], "no such file"),
    (["count", "-f", "/no/such/spec.dl"], "cannot read spec file"),
    (["replay", "/no/such.pbn"], "cannot read record file"),
    (["deal", "hcp(north) > 3", "-n", "1", "-o", "/no/such/dir/out.pbn"], "cannot write"),
    (["deal", "spades(north) >= 7 && spades(south) >= 7", "-n", "1"], "no deal satisfies the spec"),
    (["dealer", "produce 1\naction printall", "-o", "/no/such/dir/out.txt"], "cannot write '/no/such/dir/out.txt'"),
    (["count", "predeal north SAKQJT98765432,HA"], "north: predeal holds 14 cards"),
    (["count", "predeal north S" + "Z" * 100_000], "characters)"),
    (["replay"], "the following arguments are required"),
    (["bogus"], "invalid choice"),
    (["odds", EXAMPLE, "--view", "psychic"], "invalid choice"),
]

FILE_CASES: list[tuple[list[str], str]] = [
    (["count", "-f", "{nobom16.dl}"], "not a text file"),
    (["replay", "{deep.toml}"], "nested more than 16 deep"),
    (["replay", "{play42.toml}"], "field play"),
    (["replay", "{won.toml}"], "start.won"),
    (["replay", "{binary.pbn}"], "not a text file"),
    (["replay", "{big.pbn}"], "more than the"),
    (["replay", "{zero.pbn}"], "not a regular file"),
    (["count", "-f", "{folder}"], "a folder"),
]


#: Every command that writes a file, onto a full disk: the error names the file (not only the system's reason).
FULL_DISK: list[list[str]] = [
    ["deal", "hcp(north) > 3", "-n", "5", "-o", "/dev/full"],
    ["dealer", "produce 5\naction printall", "-o", "/dev/full"],
    ["view", EXAMPLE, "--board", "1", "-o", "/dev/full"],
    ["rules", EXAMPLE, "--book", "sayc", "--calibration", "/dev/full"],
]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("argv", FULL_DISK, ids=[a[0] for a in FULL_DISK])
def test_a_full_disk_names_the_file(argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == "", (out[:200], err)
    assert err == "kibitz: error: cannot write '/dev/full': No space left on device\n", err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("argv", [["deal", "hcp(north) > 3", "-n", "5"], ["count", "hcp(north) > 3"], ["--help"],
                                  ["deal", "--help"]])
def test_a_full_disk_under_standard_output_is_named(argv: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "inference.commands", *argv], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr == "kibitz: error: cannot write standard output: No space left on device\n", done.stderr


@pytest.mark.parametrize("argv,fragment", CASES, ids=[" ".join(a)[:40] for a, _ in CASES])
def test_bad_command_lines(argv: list[str], fragment: str) -> None:
    status, out, err = run(*argv)
    assert status == 2, (argv, out, err)
    assert out == "", out[:200]
    assert err.count("\n") == 1 and err.startswith("kibitz: error: "), err[:300]
    assert fragment in err, err[:300]
    assert len(err) < 700


@pytest.mark.parametrize("argv,fragment", FILE_CASES, ids=[" ".join(a) for a, _ in FILE_CASES])
def test_bad_files(argv: list[str], fragment: str, tmp_path: Path) -> None:
    paths = files(tmp_path)
    status, out, err = run(*[paths[a[1:-1]] if a.startswith("{") else a for a in argv])
    assert status == 2 and out == "" and err.count("\n") == 1 and err.startswith("kibitz: error: "), err[:300]
    assert fragment in err, err[:300]


def test_files_in_other_encodings_are_read(tmp_path: Path) -> None:
    """Lenient by decision: Latin-1 bytes and UTF-16 with a byte-order mark are text too."""
    paths = files(tmp_path)
    for name in ("latin1.dl", "utf16.dl"):
        status, out, err = run("count", "-f", paths[name])
        assert status == 0 and "deals:" in out, (name, err)
    status, out, err = run("replay", paths["utf16.pbn"], "--board", "1")
    assert status == 0 and "trick 1, card 1" in out, err


def test_a_constant_false_spec_counts_zero_and_deals_nothing() -> None:
    """Decided: ``count`` answers 0 (exit 0) for a spec no deal meets; ``deal`` refuses it (exit 2)."""
    status, out, _ = run("count", "0")
    assert status == 0 and "deals:        0" in out
    status, out, err = run("deal", "0")
    assert status == 2 and out == "" and "never true" in err


def test_produce_zero_deals_none() -> None:
    status, out, err = run("deal", "produce 0\nhcp(north) > 3", "--seed", "1")
    assert status == 0 and out == "", err


def test_internal_faults_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong inside a command, the user reads one line and status 2 (never a traceback)."""
    import inference.commands.number as number

    def boom(*args: object) -> int:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(number, "run_number", boom)
    from inference.commands import build_parser

    parser = build_parser()
    monkeypatch.setattr("inference.commands.build_parser", lambda command=None: parser)
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        action.choices["number"].set_defaults(handler=boom)  # type: ignore[index]
    status, out, err = run("number", "0")
    assert status == 2 and err == "kibitz: error: internal error (RecursionError): maximum recursion depth exceeded\n"
