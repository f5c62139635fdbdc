"""``kibitz likelihood CORPUS... --book B``: the auction's graded likelihood of the defenders' hands, fitted and scored.

Reads every auction under the paths with the book, keys each defender's hand by what his claims allow
(:mod:`inference.auction.likelihood`), counts the calibration half's defenders per key against a lawful
layout's law, and prints the evaluation half's score: the bits the likelihood gives a defender's true
HCP and lengths (:mod:`inference.auction.likelihood_fit`). ``--out OUT.json`` writes the likelihood (the
form shipped as ``inference/data/auction/<book>.likelihood.json``); ``--json`` prints the score. A
progress bar goes to standard error (``--progress``); ``--jobs J`` shares the files among workers (same
result). ``--half evaluation`` fits it on the evaluation half, scored on the calibration half.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from inference.commands.options import (Subparsers, plain, add_book, add_file, add_fit_half, add_json, add_progress,
                                        add_workers, existing_paths, progress_wanted, written_to)

__all__ = ["register", "run_likelihood"]


def register(sub: Subparsers) -> None:
    """Add ``likelihood`` to the ``kibitz`` parser."""
    p = sub.add_parser("likelihood", help="fit the auction's graded likelihood of the defenders' hands",
                       description=plain(__doc__.split("\n\n")[0] if __doc__ else None))
    add_file(p, "PBN/LIN files or folders of played deals", many=True)
    add_book(p, required=True)
    add_json(p, "the score")
    p.add_argument("--out", metavar="OUT.json", help="also write the fitted likelihood")
    p.add_argument("--population", choices=("robots", "humans"),
                   help="only the records of this population (default: every record)")
    add_fit_half(p, "the likelihood")
    add_progress(p)
    add_workers(p)
    p.set_defaults(handler=run_likelihood)


def run_likelihood(args: argparse.Namespace, out: TextIO) -> int:
    """Fit, score, print (and write the likelihood)."""
    from pathlib import Path

    from inference.auction.likelihood_fit import fit_likelihood

    existing_paths(args.file)
    command = "kibitz likelihood " + " ".join(Path(f).name or f for f in args.file) + f" --book {args.book}"
    if args.population:
        command += f" --population {args.population}"
    if args.half != "calibration":
        command += f" --half {args.half}"
    fitted = fit_likelihood(args.file, args.book, progress=progress_wanted(args), jobs=args.jobs,
                            scheduler=args.scheduler, command=command, population=args.population, half=args.half)
    if args.out:
        with written_to(args.out, out) as fh:
            fh.write(fitted.likelihood.as_json())
    if args.json:
        json.dump(fitted.as_dict(), out, indent=1)
        out.write("\n")
        return 0
    s = fitted.score
    tried = ", ".join(f"{a}: {b:.4f}" for a, b in fitted.alphas.items())
    out.write(f"{fitted.likelihood.provenance.get('records', 0):,} {args.half} records; "
              f"{len(fitted.likelihood.hcp)} HCP keys, {len(fitted.likelihood.lengths)} length keys; alpha "
              f"{fitted.likelihood.provenance.get('alpha')} (validation bits a defender: {tried})\n"
              f"{fitted.scored_on} half, {s['defenders']:,} defenders: {s['hcp']:.4f} bits of HCP, "
              f"{s['lengths']:.4f} bits of lengths a defender\n")
    for group, g in fitted.by_overlap.items():
        out.write(f"  {group} ({g['defenders']:,} defenders): {g['hcp']:.4f} + {g['lengths']:.4f} bits\n")
    return 0
