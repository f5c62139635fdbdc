"""``kibitz defence CORPUS...``: a model of real defenders' play, fitted on the calibration half, scored on the other.

Walks every ``.pbn``/``.lin`` file under the paths, codes each defender's card of every record with
legal play as a choice among its holding's classes of equal cards, fits the model's counts on the
calibration half of the split (:mod:`inference.io.halves`; the smoothing chosen on its validation
part) and prints the evaluation half's bits a card: the model's and two baselines' (uniform over
the cards of the suit held, uniform over their classes), per phase and per group of players, with
95% intervals bootstrapped by record. ``--model OUT.json`` writes the fitted model (the form
shipped as ``inference/data/defence/default.json``); ``--json`` prints the scores. A progress bar
goes to standard error (``--progress``; by default when it is a terminal). With ``--jobs J`` the
files are shared among worker processes (or a Dask cluster's); same result.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, TextIO

from inference.commands.options import (Subparsers, plain, add_file, add_fit_half, add_json, add_progress, add_workers,
                                        existing_paths, progress_wanted)

if TYPE_CHECKING:
    from inference.defence.fitting import Fitted, Score

__all__ = ["register", "run_defence", "format_scores"]


def register(sub: Subparsers) -> None:
    """Add ``defence`` to the ``kibitz`` parser."""
    p = sub.add_parser("defence", help="fit a model of real defenders' play on a corpus and score it",
                       description=plain(__doc__.split("\n\n")[0] if __doc__ else None))
    add_file(p, "PBN/LIN files or folders of played deals", many=True)
    add_json(p, "the scores")
    p.add_argument("--model", metavar="OUT.json", help="also write the fitted model")
    add_fit_half(p, "a model")
    add_progress(p)
    add_workers(p)
    p.set_defaults(handler=run_defence)


def run_defence(args: argparse.Namespace, out: TextIO) -> int:
    """Fit, score, print (and write the model)."""
    from pathlib import Path

    from inference.defence.fitting import fit

    existing_paths(args.file)
    show = progress_wanted(args)
    command = "kibitz defence " + " ".join(Path(f).name or f for f in args.file)
    if args.half != "calibration":
        command += f" --half {args.half}"
    fitted = fit(args.file, progress=show, jobs=args.jobs, scheduler=args.scheduler, command=command, half=args.half)
    if args.model:
        fitted.model.save(args.model)
    if args.json:
        json.dump(fitted.as_dict(), out, indent=1)
        out.write("\n")
    else:
        out.write(format_scores(fitted))
    return 0


def _cell(x: tuple[float, float, float]) -> str:
    return f"{x[0]:.3f} [{x[1]:.3f}, {x[2]:.3f}]"


def format_scores(fitted: "Fitted") -> str:
    """The scores as a text table: bits a card on the evaluation half."""
    lines = [f"{fitted.records:,} records read ({fitted.errors} unreadable); alpha {fitted.model.alpha} "
             f"(validation bits a card: " + ", ".join(f"{a}: {b:.4f}" for a, b in fitted.alphas.items()) + "); "
             f"beta {fitted.model.beta} (" + ", ".join(f"{a}: {b:.4f}" for a, b in fitted.betas.items()) + "); "
             f"gamma {fitted.model.gamma} (" + ", ".join(f"{a}: {b:.4f}" for a, b in fitted.gammas.items()) + ")", "",
             f"bits a card on the {'calibration' if 'evaluation' in fitted.model.provenance.get('fitted on', '') else 'evaluation'}"
             " half (95% interval, bootstrapped by record)",
             f"{'':22} {'cards':>8}  {'model':24} {'uniform over cards':24} {'uniform over classes':24}"]

    def row(name: str, s: "Score") -> None:
        lines.append(f"{name[:22]:22} {s.cards:8,}  {_cell(s.model):24} {_cell(s.uniform_cards):24} "
                     f"{_cell(s.uniform_classes):24}")

    row("all", fitted.overall)
    for name, s in fitted.phases.items():
        row(name, s)
    for name, s in fitted.groups.items():
        row(f"group {name}", s)
    for name, s in fitted.by_overlap.items():  # what the half fitted holds of each record scored
        row(name, s)
    return "\n".join(lines) + "\n"
