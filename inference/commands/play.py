"""``kibitz play``: the reference declarer plays a real deal from a PBN/LIN record (extra ``kibitz[bot]``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Sequence, TextIO

from dealer import Card, Seat

from inference.errors import InvalidArgumentError
from inference.commands.options import (VIEWS, Subparsers, add_book, add_defence_model, add_file, add_likelihood, add_n,
                                        add_record, add_seed, add_view, agreement_names, defence_model, likelihood,
                                        whole)

if TYPE_CHECKING:
    from inference.rules.contract import Strain

__all__ = ["register", "record_tricks", "run_play"]


def record_tricks(play: Sequence[Card], declarer: Seat, strain: Strain) -> int | None:
    """Tricks declarer's side took in a complete recorded play (None when the play is incomplete)."""
    from inference.rules.trick import trick_winner

    if len(play) != 52:
        return None
    leader = declarer.lho
    won = 0
    for i in range(0, 52, 4):
        leader = trick_winner([(leader.after(j), play[i + j]) for j in range(4)], strain)
        won += int(leader) % 2 == int(declarer) % 2
    return won


def run_play(args: argparse.Namespace, out: TextIO) -> int:
    """Play declarer on the chosen record with the reference declarer; print each card and the result."""
    from inference.auction.population import book_for
    from inference.apps.bot import CardReader, DoubleDummy, HeardAuction, PlayedCard, RecordedDefence, Table, play_deal
    from inference.state.leads import load_carding_agreement, load_lead_agreement
    from inference.rules.trick import trick_winner
    from inference.commands.inputs import first_record
    from inference.defence.evidence import defence_evidence

    if args.n < 1:
        raise InvalidArgumentError(f"invalid -n {args.n}: expected a positive number of layouts")
    if args.seed < 0:
        raise InvalidArgumentError(f"invalid --seed {args.seed}: expected an integer >= 0")
    if not 0 <= args.tricks <= 13:
        raise InvalidArgumentError(f"invalid --tricks {args.tricks}: expected 0 .. 13")
    if args.view not in VIEWS:  # pragma: no cover - argparse checks choices
        raise InvalidArgumentError(f"invalid view {args.view!r}")
    if args.file.lower().endswith(".toml"):
        raise InvalidArgumentError(f"{args.file!r} is a scenario: play replays a PBN or LIN record (its deal and "
                                   "opening lead); replay a scenario with kibitz replay")
    evidence = defence_evidence(defence_model(args))  # a bad model file is refused before anything is written
    heard_likelihood = likelihood(args)
    rec = first_record(args.file, args.board, args.record)
    if not rec.play:
        raise InvalidArgumentError(f"{rec.label}: no opening lead recorded")
    solver = DoubleDummy()
    lead = load_lead_agreement(args.lead_agreement) if args.lead_agreement != "none" else None
    carding = load_carding_agreement(args.carding) if args.carding != "none" else None
    strain = rec.contract.strain
    defence = RecordedDefence(rec.play, solver)
    start = solver.solve([Table(rec.deal.masks, rec.declarer.lho, (), strain)])[0]
    dd_start = 13 - max(start.values())
    recorded = record_tricks(rec.play, rec.declarer, strain)
    if recorded is None:
        recorded = rec.claim if rec.claim is not None else rec.result
    out.write(f"{rec.label}: {rec.contract} by {rec.declarer.name_long}; the reference declarer samples "
              f"{args.n} {args.view} layouts a decision (seed {args.seed})\n")
    out.flush()
    trick: list[PlayedCard] = []

    def show(p: PlayedCard) -> None:
        trick.append(p)
        if args.quiet:
            return
        if p.decision is not None:
            how = p.decision.verdict(args.top)
        elif p.seat in (rec.declarer.lho, rec.declarer.rho):
            how = "defender"
        else:
            how = "double dummy (past --tricks)"
        out.write(f"  trick {p.trick:2d}  {p.seat.name}  {p.card}   {how}\n")
        if len(trick) == 4:
            winner = trick_winner([(c.seat, c.card) for c in trick], strain)
            out.write(f"           won by {winner.name_long}\n")
            trick.clear()
        out.flush()

    heard = None
    if args.book and rec.calls and rec.dealer is not None:
        heard = HeardAuction(rec.dealer, rec.calls, book_for(args.book, rec.source, rec.players) or args.book,
                             rec.vulnerable, rec.explanations, heard_likelihood, restore_passes=True)
    reader = CardReader(lead, carding, auction=heard)
    result = play_deal(rec.deal, rec.declarer, rec.contract, defence, n=args.n, seed=args.seed, view=args.view,
                       solver=solver, reader=reader, on_card=show,
                       tricks=args.tricks, defence_model=evidence)
    out.write(f"declarer's side took {result.declarer_tricks} tricks (the record: "
              f"{recorded if recorded is not None else 'unknown'}; double dummy from the lead: {dd_start})\n")
    out.write(f"defenders: {defence.from_record} card{'s' if defence.from_record != 1 else ''} from the record, "
              f"{defence.double_dummy} double dummy; "
              f"{solver.positions_solved} positions solved"
              + (f"; {result.fallbacks} decisions fell back to the lawful view" if result.fallbacks else "") + "\n")
    return 0


def register(sub: Subparsers) -> None:
    """Add ``play`` to the ``kibitz`` subcommands."""
    p = sub.add_parser(
        "play",
        help="the reference declarer plays a real deal (needs the extra kibitz[bot])",
        description="Play declarer on a recorded deal: at each of declarer's turns draw N layouts from the view, "
                    "solve each double dummy (endplay/DDS, batched) and play the card with the best average "
                    "(ties: the lowest card, clubs before diamonds before hearts before spades). The defenders "
                    "play their recorded cards while the play follows the record, and the double-dummy best "
                    "card from the first card declarer plays differently. Each card is printed as it is played. "
                    "Needs: pip install 'kibitz[bot]'.",
    )
    add_file(p, "a PBN or LIN file of played deals")
    add_record(p, "the first with play recorded")
    add_book(p)
    add_view(p, "the layouts sampled")
    add_n(p, "layouts per decision", 100)
    add_seed(p, 0)
    add_defence_model(p)
    add_likelihood(p)
    p.add_argument("--tricks", type=whole("--tricks", 0, 13), default=13, help="tricks the bot plays; the rest double dummy (default: 13)")
    p.add_argument("--lead-agreement", default="fourth-best-nt",
                   help=f"read the opening lead by this agreement, or 'none' (known: "
                        f"{', '.join(agreement_names('leads'))})")
    p.add_argument("--carding", default="standard-count",
                   help=f"read count signals by this agreement, or 'none' (known: "
                        f"{', '.join(agreement_names('carding'))})")
    p.add_argument("--top", type=whole("--top", 1, 52), default=3, help="cards shown in each decision's verdict (default: 3)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(handler=run_play)
