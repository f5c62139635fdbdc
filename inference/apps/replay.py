"""Replaying a real deal's play (a :class:`~inference.io.records.PlayRecord`) from any seat.

The viewer sees its own hand from the start and dummy as soon as the opening
lead is faced. :func:`replay_record` yields a :class:`Step` after each card;
the step of the opening lead comes after dummy is tabled, so every card's
bounds are the viewer's view as the next card is about to be played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from dealer import Card, Seat

from inference.auction.likelihood import Likelihood
from inference.auction.population import book_for
from inference.errors import InferenceError, RecordError
from inference.rules.lawful import Bounds
from inference.state.events import Update
from inference.state.play import PlayState
from inference.io.records import PlayRecord

__all__ = ["Step", "replay_record", "step_json"]


@dataclass(frozen=True)
class Step:
    """One card of a replay: where it was played, by whom, what it changed, and the bounds after it."""

    trick: int
    card_no: int
    seat: Seat
    card: Card
    updates: tuple[Update, ...]  # the card's update, and dummy's tabling after the opening lead
    bounds: Bounds


def replay_record(record: PlayRecord, viewer: Seat | None = None, book: "str | None" = None,
                  defence_model: object = "default", likelihood: "Likelihood | str | None" = "default"
                  ) -> Iterator[tuple[PlayState, Step]]:
    """Replay ``record`` from ``viewer`` (default: declarer); yields (state, step) after each card.

    ``book``: read the record's auction with this bidding book before the lead (its event comes
    first in the first card's step; ``auto``: the book of the record's population,
    :func:`~inference.auction.population.book_for`). ``defence_model``: as
    :class:`~inference.state.play.PlayState` takes it; ``likelihood``: as its ``add_auction`` does.
    """
    book = book_for(book, record.source, record.players)
    view = record.declarer if viewer is None else viewer
    state = PlayState(record.deal[view], declarer=record.declarer, contract=record.contract, viewer=view,
                      defence_model=defence_model)
    auction = state.add_auction(record.dealer, record.calls, book=book, vulnerability=record.vulnerable,
                                explanations=record.explanations, likelihood=likelihood,
                                restore_passes=True) if book and record.calls and record.dealer is not None else None
    for n, card in enumerate(record.play):
        trick, card_no = state.trick_number, len(state.snapshot.current.cards) + 1
        seat = state.to_play
        try:
            updates = ([auction] if auction is not None and n == 0 else []) + [state.play(card)]
            if n == 0 and record.declarer.partner != view:
                updates.append(state.table_dummy(record.deal[record.declarer.partner]))
        except InferenceError as exc:
            raise RecordError(f"{record.label}, trick {trick}: {exc}") from None
        yield state, Step(trick, card_no, seat, card, tuple(updates), state.bounds())


def step_json(step: Step, board: str | None = None) -> dict[str, object]:
    """``{"trick", "seat", "card", "bounds": {seat: {S,H,D,C,HCP: [lo, hi]}}, "changes": [...]}``."""
    obj: dict[str, object] = {
        "trick": step.trick,
        "seat": step.seat.name,
        "card": str(step.card),
        "bounds": step.bounds.as_dict(),
        "changes": [c.as_dict() for u in step.updates for c in u.changes],
    }
    if board is not None:
        obj["board"] = board
    return obj
