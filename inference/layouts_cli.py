"""``kibitz sample`` and ``kibitz odds``: layouts consistent with the play so far, from a file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from dealer import Seat
from dealer.pbnio import write_deals

from .errors import InvalidArgumentError
from .layouts import VIEWS
from .play import PlayState
from .replay_cli import _select
from .scenario import _add_entry, by_after, load_scenario, scenario_events

__all__ = ["register", "state_after"]


def state_after(path: str, board: str | None, record: int | None, after: int, seat: str | None) -> PlayState:
    """The play state after ``after`` cards of a record (or scenario), dummy visible, from ``seat``'s view."""
    if after < 0:
        raise InvalidArgumentError(f"invalid --after {after}: expected a number of cards >= 0")
    if Path(path).suffix.lower() == ".toml":
        scenario = load_scenario(path)
        text = Path(path).read_text(encoding="utf-8")
        adds = by_after([*scenario.inference, *scenario.lead])
        has_dummy = scenario.declarer.partner in scenario.hands and scenario.declarer.partner != (
            scenario.viewer if scenario.viewer is not None else scenario.declarer)
        played = 0
        state = None
        for label, st, update in scenario_events(scenario, path, text):
            state = st
            for entry in adds.get(label, []):
                _add_entry(entry, st, path, text)
            if update is not None and update.card is not None:
                played += 1
            if played > after:
                raise AssertionError("unreachable")  # pragma: no cover
            if played == after and (st.snapshot.dummy_tabled or not has_dummy or after == 0):
                if not (after == 0 and scenario.dummy_first and not st.snapshot.dummy_tabled):
                    return st
        raise InvalidArgumentError(f"{path}: the scenario plays {played} cards, fewer than --after {after}")
    rec = _select(path, board, record)[0]
    if after > len(rec.play):
        raise InvalidArgumentError(f"{rec.label}: only {len(rec.play)} cards were played, fewer than --after {after}")
    view = Seat.parse(seat) if seat else rec.declarer
    state = PlayState(rec.deal[view], declarer=rec.declarer, contract=rec.contract, viewer=view)
    dummy = rec.declarer.partner
    if after == 0 and dummy != view:
        state.table_dummy(rec.deal[dummy], early=True)
    for i, card in enumerate(rec.play[:after]):
        state.play(card)
        if i == 0 and dummy != view:
            state.table_dummy(rec.deal[dummy])
    return state


def _cmd_sample(args: argparse.Namespace, out: TextIO) -> int:
    if args.n < 0:
        raise InvalidArgumentError(f"invalid -n {args.n}: expected a number of layouts >= 0")
    state = state_after(args.file, args.board, args.record, args.after, args.seat)
    masks = state.sample_masks(args.n, args.seed, args.view)
    write_deals(masks, out, args.format, event=f"kibitz sample ({args.view} view)", declarer=state.declarer,
                contract=_pbn_contract(state, args.file))
    return 0


def _cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    state = state_after(args.file, args.board, args.record, args.after, args.seat)
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
    lines.append("holders of unseen cards:")
    for card, by in sorted(odds.holder.items()):
        lines.append(f"  {card}: " + "  ".join(f"{s.name} {float(p):6.2%}" for s, p in by.items()))
    out.write("\n".join(lines) + "\n")
    return 0


def _pbn_contract(state: PlayState, path: str) -> str:
    """The contract for a PBN ``Contract`` tag (``4H``, ``3NTX``), or ``?`` when the source gives only a strain."""
    if Path(path).suffix.lower() == ".toml" and not load_scenario(path).contract.strip()[:1].isdigit():
        return "?"
    return str(state.contract)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a PBN/LIN file of played deals, or a scenario (.toml)")
    p.add_argument("--board", help="the board (default: the first with play)")
    p.add_argument("--record", type=int, help="the record, by its 1-based position in the file")
    p.add_argument("--after", type=int, default=0, help="cards of the play already seen (default 0)")
    p.add_argument("--seat", help="the viewer (default: declarer)")
    p.add_argument("--view", choices=VIEWS, default="lawful", help="lawful (default), agreement or weighted")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``sample`` and ``odds`` to the ``kibitz`` subcommands."""
    p = sub.add_parser("sample", help="deal layouts consistent with the play so far, exactly, as PBN",
                       description="Deal N complete layouts consistent with everything seen after --after cards "
                                   "(and the view's inferences), drawn exactly: uniform in the lawful and agreement "
                                   "views, in proportion to the weights in the weighted view.")
    _common(p)
    p.add_argument("-n", type=int, default=10, help="how many layouts (default 10)")
    p.add_argument("--seed", type=int, default=None, help="random seed (same seed, same layouts)")
    p.add_argument("--format", choices=("pbn", "oneline", "json"), default="pbn")
    p.set_defaults(handler=_cmd_sample)
    p = sub.add_parser("odds", help="exact odds: who holds each card, lengths and HCP of the concealed hands",
                       description="Exact odds, as fractions, after --after cards: the number of layouts, the chance "
                                   "each concealed seat holds each unseen card, and each seat's dealt length per suit "
                                   "and dealt HCP distributions.")
    _common(p)
    p.add_argument("--json", action="store_true", help='print {"layouts", "holder", "length", "hcp", "split"}')
    p.set_defaults(handler=_cmd_odds)
