"""``kibitz deal``: random deals satisfying a spec, exactly and uniformly."""

from __future__ import annotations

import argparse
from typing import TextIO

from inference.commands.options import (Subparsers, add_format, add_n, add_output, add_seed, add_spec, limit_of,
                                        output_format, seed_of, written_to)

__all__ = ["register", "run_deal"]

#: Deals sampled (and written) at a time.
BATCH = 65536


def run_deal(args: argparse.Namespace, out: TextIO) -> int:
    """Deal ``-n`` deals uniformly over those satisfying the spec and write them (``--format``, ``-o``)."""
    from dealer import ImpossibleSpecError

    from dealer.rng import make_rng
    from dealer.cards.pbnio import write_deals
    from dealer.run.script_dealer import ScriptDealer
    from inference.commands.inputs import read_statements

    script, text, _ = read_statements(args.spec, args.spec_file)
    n = args.n if args.n is not None else (script.produce if script.produce is not None else 10)
    limit, patience = limit_of(args)
    run = ScriptDealer(script, limit=limit, text=text.strip(), patience=patience)  # exact, or filtered uniformly
    if run.dealer.is_empty:
        raise ImpossibleSpecError(f"no deal satisfies the spec: {run.dealer.explain_empty()}")
    seed = seed_of(args, script.seed)
    rng = make_rng(seed)
    with written_to(args.output, out) as target:
        written = 0
        while written < n:
            masks = run.sample_masks(min(BATCH, n - written), rng)
            write_deals(masks, target, output_format(args), start=written + 1, spec_text=text.strip(), seed=seed)
            written += len(masks)
    return 0


def register(sub: Subparsers) -> None:
    """Add ``deal`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("deal", help="deal random deals satisfying a spec, exactly and uniformly",
                       description="Deal N independent deals, uniform over those satisfying SPEC.")
    add_spec(p)
    add_n(p, "deals", None, shown="the spec's produce, else 10")
    add_seed(p, None, shown="the spec's seed, else a fresh one; PBN output shows it in its header")
    add_format(p)
    add_output(p)
    p.set_defaults(handler=run_deal)
