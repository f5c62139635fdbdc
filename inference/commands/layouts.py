"""``kibitz sample`` and ``kibitz odds``: layouts consistent with the play so far, from a file.

``odds --json`` prints one object with the keys ``layouts``, ``weight``, ``holder``, ``length``,
``hcp`` and ``split`` (see ``as_json`` of the odds in :mod:`inference.exact.layouts`), exact
probabilities as ``"num/den"`` strings.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from inference.commands.options import (Subparsers, add_after, add_book, add_defence_model, add_file, add_format, add_json, add_n,
                      add_record, add_seat, add_seed, add_view, defence_model, add_likelihood,
                      likelihood, output_format, seed_of)

if TYPE_CHECKING:
    from inference.io.records import PlayRecord
    from inference.state.play import PlayState

__all__ = ["register", "run_odds", "run_sample"]



def run_sample(args: argparse.Namespace, out: TextIO) -> int:
    """Write ``-n`` layouts consistent with the play after ``--after`` cards, drawn exactly in ``--view``."""
    from dealer.cards.pbnio import write_deals

    from inference.commands.inputs import record_state_after

    from dealer.rng import make_rng
    from inference.exact.sampling import MAX_LAYOUTS_AT_ONCE as batch  # the API's most at once: the same layouts

    rec, state = record_state_after(args.file, args.board, args.record, args.after, args.seat, args.book,
                                    defence_model(args), likelihood(args))
    space = state.layouts(args.view)  # built (and checked) before anything is written
    contract = _pbn_contract(state, args.file)
    board = _board_tags(rec)
    seed = seed_of(args)
    rng = make_rng(seed)
    written = 0
    while written < args.n:  # streamed, batch by batch: memory stays bounded whatever -n is
        masks = space.sample_masks(min(batch, args.n - written), rng)
        write_deals(masks, out, output_format(args), start=written + 1, event=f"kibitz sample ({args.view} view)",
                    declarer=state.declarer, contract=contract, seed=seed, **board)
        written += len(masks)
    return 0


def run_odds(args: argparse.Namespace, out: TextIO) -> int:
    """Print the exact odds after ``--after`` cards in ``--view`` (text, or JSON with ``--json``)."""
    from inference.commands.inputs import state_after

    state = state_after(args.file, args.board, args.record, args.after, args.seat, args.book, defence_model(args),
                        likelihood(args))
    odds = state.odds(args.view)
    obj = odds.as_json()
    if args.json:
        out.write(json.dumps(obj) + "\n")
        return 0
    lines = [f"{obj['layouts']} layouts ({args.view} view), viewer {state.viewer.name_long}"]
    for seat, by_suit in odds.length.items():
        lines.append(f"{state.name(seat)} ({seat.name}) dealt lengths:")
        for suit, dist in by_suit.items():
            cells = "  ".join(f"{n}:{float(p):6.2%}" for n, p in dist.items())
            lines.append(f"  {'SHDC'[suit]}  {cells}")
        lines.append(f"{state.name(seat)} ({seat.name}) dealt HCP:")
        hcp = sorted(odds.hcp[seat].items())
        for row in range(0, len(hcp), 8):
            lines.append("  " + "  ".join(f"{h:2}:{float(p):6.2%}" for h, p in hcp[row:row + 8]))
    seats = "-".join(s.name for s in odds.length)
    lines.append(f"dealt splits ({seats}):")
    for suit, splits in odds.split.items():
        lines.append(f"  {'SHDC'[suit]}  " + "  ".join(f"{'-'.join(map(str, k))}:{float(p):6.2%}"
                                                      for k, p in splits.items()))
    lines.append("holders of unseen cards:")
    for card, by in sorted(odds.holder.items()):
        lines.append(f"  {card}: " + "  ".join(f"{s.name} {float(p):6.2%}" for s, p in by.items()))
    out.write("\n".join(lines) + "\n")
    return 0


def _board_tags(rec: PlayRecord | None) -> dict[str, Any]:
    """The record's dealer and vulnerability (``?`` if unknown), for every layout's PBN tags; none for a scenario
    or a record without a dealer (the layouts' numbers' go round)."""
    from inference.io.records import pbn_vulnerability

    if rec is None or rec.dealer is None:
        return {}
    return {"dealer": rec.dealer, "vulnerable": pbn_vulnerability(rec.vulnerable) or "?"}


def _pbn_contract(state: PlayState, path: str) -> str:
    """The contract for a PBN ``Contract`` tag (``4H``, ``3NTX``), or ``?`` when the source gives only a strain."""
    from inference.apps.scenario import load_scenario

    if Path(path).suffix.lower() == ".toml" and not load_scenario(path).contract.strip()[:1].isdigit():
        return "?"
    return str(state.contract)


def _common(p: argparse.ArgumentParser) -> None:
    add_file(p, "a PBN/LIN file of played deals, or a scenario (.toml)")
    add_record(p, "the first with play")
    add_book(p)
    add_after(p)
    add_seat(p)
    add_view(p)
    add_defence_model(p)
    add_likelihood(p)


def register(sub: Subparsers) -> None:
    """Add ``sample`` and ``odds`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("sample", help="deal layouts consistent with the play so far, exactly, as PBN",
                       description="Deal N complete layouts consistent with everything seen after --after cards "
                                   "(and the view's inferences), drawn exactly: uniform in the lawful and agreement "
                                   "views, in proportion to the weights in the weighted view.")
    _common(p)
    add_n(p, "layouts", 10)
    add_seed(p, None, shown="a fresh seed each run; PBN output shows it in its header")
    add_format(p)
    p.set_defaults(handler=run_sample)
    p = sub.add_parser("odds", help="exact odds: who holds each card, lengths and HCP of the concealed hands",
                       description="Exact odds, as fractions, after --after cards: the number of layouts, the chance "
                                   "each concealed seat holds each unseen card, and each seat's dealt length per suit "
                                   "and dealt HCP distributions.")
    _common(p)
    add_json(p, 'the odds ({"layouts", "weight", "holder", "length", "hcp", "split"})')
    p.set_defaults(handler=run_odds)
