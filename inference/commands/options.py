"""The options the ``kibitz`` commands share, each declared once with one meaning.

==================  =========================================================================
``FILE``            a PBN/LIN file of played deals, or a scenario (``.toml``)
``--board N``       the board to use (its label in the file: ``7``, ``o7``/``c7`` also match ``7``)
``--record K``      the record to use, by its 1-based position in the file
``--seat S``        the *viewer*: whose view of the play (default: declarer); never a filter
``--after K``       cards of the play already seen
``--view V``        the layouts considered: lawful, agreement or weighted
``-n N``            how many (deals, layouts, layouts per decision)
``--seed S``        random seed: same seed, same output
``--json``          print JSON instead of text
``--format F``      pbn, oneline or json lines (deals and layouts)
``-o FILE``         write to this file instead of standard output (:func:`written_to`)
``SPEC``/``-f``     a spec in the dealer language, inline or in a file; ``--limit`` bounds its tables
``--hand S``        (``stats``) only this seat's tables
``--book B``        a bidding book (``sayc``, ``natural-wide`` or a ``.toml`` file): read the auction with it
==================  =========================================================================

Declaring an option imports nothing heavy: the choices the engine defines (views, formats,
features, the dealer's table limit, the agreements shipped) are mirrored here, and a test checks
they equal the engine's. What the options *select* (a record, a play state, a spec) is
:mod:`inference.commands.inputs`.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator, TextIO, TypeAlias

if TYPE_CHECKING:
    from inference.auction.likelihood import Likelihood

__all__ = [
    "written_to",
    "plain",
    "Handler",
    "Subparsers",
    "VIEWS",
    "FORMATS",
    "DEFAULT_TABLES",
    "FEATURES",
    "agreement_names",
    "whole",
    "RECORD",
    "AFTER",
    "COUNT",
    "SEED",
    "LIMIT",
    "JOBS",
    "add_file",
    "add_record",
    "add_seat",
    "add_after",
    "add_view",
    "add_n",
    "add_seed",
    "add_json",
    "seed_of",
    "add_format",
    "output_format",
    "add_fit_half",
    "add_output",
    "add_spec",
    "add_limit",
    "add_explain",
    "add_book",
    "add_defence_model",
    "add_likelihood",
    "existing_paths",
    "likelihood",
    "add_progress",
    "progress_wanted",
    "defence_model",
    "add_workers",
]

#: What a command runs: the parsed arguments and standard output in, the exit status out.
Handler: TypeAlias = Callable[[argparse.Namespace, TextIO], int]
#: The object ``add_subparsers`` returns, which each command module registers its parsers on.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: The views of the layouts (``inference.exact.layouts.VIEWS``).
VIEWS = ("lawful", "agreement", "weighted")
#: The budget's default ``tables`` (``dealer.budget.DEFAULT.tables``), mirrored so that building the parser
#: imports no dataclass machinery (a test keeps the two equal).
DEFAULT_TABLES = 40_000_000
#: Formats for deals and layouts (``dealer.cards.pbnio.FORMATS``).
FORMATS = ("pbn", "oneline", "json")
#: Features ``stats`` tabulates (``dealer.tables.exact.FEATURES``).
FEATURES = ("S", "H", "D", "C", "hcp", "pattern")


def whole(option: str, lo: int = 0, hi: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number in ``lo..hi`` written with ASCII digits (``1000`` or ``1_000``).

    Full-width or other non-ASCII digits, signs where ``lo >= 0`` allows none, and huge texts are
    refused, so the message is one line naming the option and the value.
    """

    def parse(text: str) -> int:
        body = text.strip().replace("_", "")
        if not (body.isascii() and body.lstrip("+-").isdigit()) or len(body) > 30:
            shown = text if len(text) <= 30 else text[:30] + "..."
            raise argparse.ArgumentTypeError(f"invalid {option} {shown!r}: expected a whole number")
        value = int(body)
        if value < lo or (hi is not None and value > hi):
            span = f"{lo:,}..{hi:,}" if hi is not None else f"{lo:,} or more"
            raise argparse.ArgumentTypeError(f"invalid {option} {text.strip()}: expected {span}")
        return value

    parse.__name__ = f"whole number for {option}"
    parse.__doc__ = f"``{option}``: a whole number {lo}..{hi if hi is not None else ''} (ASCII digits)."
    return parse


#: The one parser of each integer option (one type object each, shared by every command).
RECORD = whole("--record", 1)
AFTER = whole("--after", 0)
COUNT = whole("-n", 0)
SEED = whole("--seed", 0, 2 ** 63 - 1)
LIMIT = whole("--limit", 1)
JOBS = whole("--jobs", 1, 256)


def agreement_names(folder: str) -> list[str]:
    """Names of the agreements shipped in ``inference/data/<folder>`` (as ``inference.state.leads.available_agreements``)."""
    base = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", folder)
    return sorted(name[:-5] for name in os.listdir(base) if name.endswith(".toml"))


def existing_paths(paths: list[str]) -> list[str]:
    """``paths`` (a command's FILE arguments), each checked to exist: else the error naming the first missing."""
    from inference.errors import InvalidArgumentError

    for f in paths:
        if not os.path.exists(f):
            raise InvalidArgumentError(f"no such file or folder {f!r} (FILE)")
    return paths


def add_file(p: argparse.ArgumentParser, what: str, *, many: bool = False) -> None:
    """The positional ``FILE`` (``FILE...`` when ``many``): ``what`` says which files the command reads."""
    p.add_argument("file", nargs="+" if many else None, metavar="FILE", help=what)


def add_record(p: argparse.ArgumentParser, default: str) -> None:
    """``--board N`` and ``--record K``: which record of the file; ``default`` says which when neither is given."""
    p.add_argument("--board", help=f"the board, by its label in the file (default: {default})")
    p.add_argument("--record", type=RECORD, help="the record, by its 1-based position in the file")


def add_seat(p: argparse.ArgumentParser) -> None:
    """``--seat S``: the viewer."""
    p.add_argument("--seat", help="the viewer: whose view of the play (default: declarer)")


def add_after(p: argparse.ArgumentParser) -> None:
    """``--after K``: cards of the play already seen."""
    p.add_argument("--after", type=AFTER, default=0, help="cards of the play already seen (default 0)")


def add_view(p: argparse.ArgumentParser, what: str = "the layouts considered") -> None:
    """``--view V``: lawful (default), agreement or weighted."""
    p.add_argument("--view", choices=VIEWS, default="lawful", help=f"{what}: lawful (default), agreement or weighted")


def add_n(p: argparse.ArgumentParser, what: str, default: int | None, shown: str | None = None) -> None:
    """``-n N``: how many ``what``; ``shown`` describes a ``default`` of None (the command decides)."""
    text = shown if shown is not None else f"{default:,}"
    p.add_argument("-n", type=COUNT, default=default, help=f"how many {what} (default: {text})")


def add_seed(p: argparse.ArgumentParser, default: int | None, shown: str = "a fresh seed each run",
             short: str | None = None) -> None:
    """``--seed S`` (and ``short``, e.g. ``-s`` as in ``dealer``): the random seed; ``shown`` describes a ``default``
    of None."""
    text = shown if default is None else str(default)
    flags = ("--seed",) if short is None else (short, "--seed")
    p.add_argument(*flags, type=SEED, default=default, help=f"random seed: same seed, same output (default: {text})")


def seed_of(args: argparse.Namespace, given: int | None = None) -> int:
    """The seed a run draws with, to be shown: ``--seed``, else ``given`` (a script's), else a fresh one."""
    if args.seed is not None:
        return int(args.seed)
    if given is not None:
        return given
    from dealer.rng import fresh_seed

    return fresh_seed()


def add_json(p: argparse.ArgumentParser, what: str) -> None:
    """``--json``: print ``what`` as JSON instead of text."""
    p.add_argument("--json", action="store_true", help=f"print {what} as JSON")


def add_format(p: argparse.ArgumentParser) -> None:
    """``--format F``: pbn (default), oneline or json lines; ``--json`` for ``--format json``, as other commands
    spell it."""
    either = p.add_mutually_exclusive_group()
    either.add_argument("--format", choices=FORMATS, default="pbn", help="pbn (default), oneline or json lines")
    either.add_argument("--json", action="store_true", help="the same as --format json")


def add_fit_half(p: argparse.ArgumentParser, what: str) -> None:
    """``--half H``: the half of the corpus's split to fit ``what`` on (scored on the other)."""
    p.add_argument("--half", choices=("calibration", "evaluation"), default="calibration",
                   help=f"the half to fit on (default calibration, scored on the evaluation half; evaluation: {what} "
                        "of the defenders a declarer is judged against, scored on the calibration half)")


def output_format(args: argparse.Namespace) -> str:
    """The format ``--format`` or ``--json`` asked for."""
    return "json" if args.json else str(args.format)


def add_output(p: argparse.ArgumentParser) -> None:
    """``-o FILE``: write to a file instead of standard output."""
    p.add_argument("-o", "--output", help="write to this file instead of standard output")


def add_spec(p: argparse.ArgumentParser, *, positional: bool = True) -> None:
    """The spec: ``SPEC`` (or ``--spec SPEC`` when not ``positional``) and ``-f FILE``; plus ``--limit``."""
    if positional:
        p.add_argument("spec", nargs="?", metavar="SPEC", help="spec in the dealer language, or a file holding one")
        p.add_argument("-f", "--file", dest="spec_file", help="read the spec from this file")
    else:
        p.add_argument("--spec", help="spec the deals should follow (text or file)")
        p.add_argument("--spec-file", dest="spec_file", help="read the spec from this file")
    add_limit(p)


def add_limit(p: argparse.ArgumentParser) -> None:
    """``--limit CELLS``: the largest table the exact dealer may build (None when not given: see :func:`limit_of`)."""
    p.add_argument("--limit", type=LIMIT, default=None,
                   help=f"largest table (cells) the exact dealer may build (default {DEFAULT_TABLES:,}); given, a "
                        "script's count tries tables up to it before it filters")


def limit_of(args: argparse.Namespace) -> tuple[int, int | None]:
    """The table limit ``--limit`` asks for, and the patience to try first (None: the whole limit, for a
    ``--limit`` given; else the budget's ``count_patience``)."""
    from dealer.budget import current

    if args.limit is None:
        return current().tables, current().count_patience
    return int(args.limit), None


def add_explain(p: argparse.ArgumentParser) -> None:
    """``--explain``: print the plan (which condition goes to the tables, labels, a union or the filter, and why)."""
    p.add_argument("--explain", action="store_true",
                   help="print how the script is dealt: what the tables, the labels across seats, a union and the "
                        "filter hold, and every way tried within the budget")


def plain(doc: str | None) -> str:
    """A docstring as ``--help`` shows it: Sphinx roles as their names, literals without their backquotes."""
    import re

    def name(role: "re.Match[str]") -> str:
        kind, target = role.group(1), role.group(2)
        if "<" in target:  # a role with a title: the title
            return target.split("<", 1)[0].strip()
        if kind in ("file", "doc", "ref"):
            return target
        return target.rsplit(".", 1)[-1]

    return re.sub(r":(\w+):`~?([^`]+)`", name, doc or "").replace("``", "")


def add_book(p: argparse.ArgumentParser, *, required: bool = False) -> None:
    """``--book B``: a bidding book, by name (``inference/data/auction``) or a ``.toml`` file; where a record's
    auction is read (``required`` false), also ``auto``: the book of the record's population."""
    known = ", ".join(agreement_names("auction"))
    auto = "" if required else ", auto (robots' records with robots, the others with natural-wide)"
    p.add_argument("--book", required=required, type=_book,
                   help=f"bidding book to read the auction with: {known}{auto}, or a .toml file"
                        + ("" if required else " (default: the auction is not read)"))


def _book(value: str) -> str:
    """``--book``'s value, checked before anything runs: a shipped book's name, a book file, or ``auto``."""
    from inference.auction.book import load_book
    from inference.errors import InferenceError

    if value != "auto":
        try:
            load_book(value)
        except InferenceError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def add_defence_model(p: argparse.ArgumentParser) -> None:
    """``--defence-model M``: what weighs the weighted view by the defenders' cards."""
    p.add_argument("--defence-model", default="default", metavar="M",
                   help="weigh the weighted view by the defenders' cards with this model of real defenders: "
                        "'default' (shipped), a model file (.json), or 'none' (default: default)")


def add_likelihood(p: argparse.ArgumentParser) -> None:
    """``--likelihood L``: what weighs the weighted view by the defenders' auction."""
    p.add_argument("--likelihood", default="default", metavar="L",
                   help="weigh the defenders' hands in the weighted view by the auction's graded likelihood: "
                        "'default' (the one shipped with the book), a likelihood file (.json), or 'none' (each "
                        "call's measured ratio) (default: default)")


def likelihood(args: argparse.Namespace) -> "Likelihood | str | None":
    """The ``--likelihood`` option as ``PlayState.add_auction`` takes it: None for 'none', 'default', or the file
    read once (:class:`~inference.errors.InvalidArgumentError` naming it when it cannot be)."""
    given: str | None = getattr(args, "likelihood", "default")
    if given in (None, "none"):
        return None
    if given == "default":
        return given
    from inference.auction.likelihood import load_likelihood

    return load_likelihood(given)


def defence_model(args: argparse.Namespace) -> str | None:
    """The ``--defence-model`` option as ``PlayState`` takes it (None for 'none')."""
    given: str | None = getattr(args, "defence_model", "default")
    return None if given in (None, "none") else given


def add_progress(p: argparse.ArgumentParser, when: str = "") -> None:
    """``--progress`` / ``--no-progress``: a progress bar on standard error (default: when it is a terminal)."""
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help=f"a progress bar on stderr{when} (default: when stderr is a terminal)")


def progress_wanted(args: argparse.Namespace) -> bool:
    """Whether to show the progress bar: ``--progress``, ``--no-progress``, else when stderr is a terminal."""
    given: bool | None = args.progress
    return given if given is not None else sys.stderr.isatty()


def add_workers(p: argparse.ArgumentParser) -> None:
    """``--jobs J`` and ``--scheduler ADDRESS``: a bulk job's workers (this machine's processes, or a Dask cluster's)."""
    p.add_argument("--jobs", type=JOBS, default=1,
                   help="worker processes of this machine (default: 1, in this process)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786) instead (the extra "
                        "kibitz[dask])")


@contextmanager
def written_to(path: str | None, out: TextIO) -> Iterator[TextIO]:
    """``out`` when ``path`` is None, else the file ``path`` (created or emptied, closed after): a failure to
    open, write or close it is an :class:`~inference.errors.OutputError` naming it (``cannot write
    'deals.pbn': No space left on device``)."""
    if not path:
        yield out
        return
    from inference.errors import OutputError

    try:
        handle = open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise OutputError.of(path, exc) from None
    try:
        with handle:
            yield handle
    except OSError as exc:
        if exc.filename is None and not isinstance(exc, OutputError):  # a write or the flush at closing: this file's
            raise OutputError.of(path, exc) from None
        raise
