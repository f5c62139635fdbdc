"""Helpers for inference tests: random legal play and brute-force lawful layouts."""

from __future__ import annotations

import builtins
import importlib.util
import itertools
import random
from typing import Any, Iterator

import pytest

from dealer import CARDS, Card, CardSet, Deal, Seat
from inference.rules.contract import Strain
from inference.state.play import PlayState
from inference.rules.trick import trick_winner


def legal_cards(deal: Deal, played: set[int], trick: list[tuple[Seat, Card]], seat: Seat) -> list[Card]:
    hand = [c for c in deal[seat] if c.index not in played]
    if trick:
        led = trick[0][1].suit
        follow = [c for c in hand if c.suit == led]
        if follow:
            return follow
    return hand


def random_play(deal: Deal, declarer: Seat, strain: Strain, rng: random.Random, n: int) -> list[Card]:
    """The first ``n`` cards of a random legal play of ``deal``."""
    out: list[Card] = []
    played: set[int] = set()
    leader = declarer.lho
    trick: list[tuple[Seat, Card]] = []
    while len(out) < min(n, 52):
        seat = Seat((leader + len(trick)) % 4)
        card = rng.choice(legal_cards(deal, played, trick, seat))
        out.append(card)
        played.add(card.index)
        trick.append((seat, card))
        if len(trick) == 4:
            leader = trick_winner(trick, strain)
            trick = []
    return out


def replay(deal: Deal, declarer: Seat, strain: Strain, cards: list[Card], viewer: Seat | None = None,
           defence_model: object = None) -> Iterator[PlayState]:
    """A PlayState from ``viewer`` (default declarer) yielded after the start and each event."""
    viewer = declarer if viewer is None else viewer
    state = PlayState(deal[viewer], declarer=declarer, contract=strain, viewer=viewer, defence_model=defence_model)
    yield state
    for i, card in enumerate(cards):
        state.play(card)
        yield state
        if i == 0 and declarer.partner != viewer:
            state.table_dummy(deal[declarer.partner])
            yield state


def brute_force_layouts(state: PlayState) -> list[dict[Seat, int]]:
    """Every lawful assignment of the unseen cards to the concealed seats (dealt masks per seat)."""
    snap = state.snapshot
    concealed = state.concealed()
    unseen = [c for c in range(52) if snap.unseen >> c & 1]
    need = {s: 13 - CardSet(snap.played[s]).__len__() for s in concealed}
    out = []

    def rec(i: int, seats: list[Seat], pool: list[int], acc: dict[Seat, int]) -> None:
        if i == len(seats) - 1:
            s = seats[i]
            mask = sum(1 << c for c in pool)
            if _lawful(s, mask, snap.voids[s]):
                out.append({**acc, s: mask | snap.played[s]})
            return
        s = seats[i]
        for combo in itertools.combinations(pool, need[s]):
            mask = sum(1 << c for c in combo)
            if not _lawful(s, mask, snap.voids[s]):
                continue
            rest = [c for c in pool if not mask >> c & 1]
            rec(i + 1, seats, rest, {**acc, s: mask | snap.played[s]})

    rec(0, list(concealed), unseen, {})
    return out


def assert_keeps_the_play(state: PlayState, hands: "dict[Seat, CardSet]") -> None:
    """A layout keeps every card seen where it was seen (visible hands whole, played cards) and every void shown."""
    snap = state.snapshot
    for seat in Seat:
        assert CardSet(snap.played[seat]) <= hands[seat]
        if snap.remaining[seat] >= 0:
            assert hands[seat] == CardSet(snap.remaining[seat] | snap.played[seat])
        for s in range(4):
            if snap.voids[seat] >> s & 1:
                assert hands[seat].length(s) == CardSet(snap.played[seat]).length(s)


def _lawful(seat: Seat, mask: int, voids: int) -> bool:
    return all(not (voids >> s & 1 and mask >> (13 * s) & 0x1FFF) for s in range(4))


def bounds_from_layouts(layouts: list[dict[Seat, int]]) -> tuple[dict[Seat, dict[str, tuple[int, int]]], dict[int, int]]:
    seats = layouts[0].keys()
    out: dict[Seat, dict[str, tuple[int, int]]] = {}
    for seat in seats:
        table = {}
        for s, q in enumerate("SHDC"):
            vals = [(lay[seat] >> (13 * s) & 0x1FFF).bit_count() for lay in layouts]
            table[q] = (min(vals), max(vals))
        h = [CardSet(lay[seat]).hcp for lay in layouts]
        table["HCP"] = (min(h), max(h))
        out[seat] = table
    holders: dict[int, int] = {}
    for lay in layouts:
        for seat, mask in lay.items():
            for c in range(52):
                if mask >> c & 1:
                    holders[c] = holders.get(c, 0) | (1 << seat)
    return out, holders


__all__ = ["needs_solver", "hide_endplay", "legal_cards", "random_play", "replay", "brute_force_layouts", "bounds_from_layouts", "CARDS"]


_NO_SOLVER = pytest.mark.skipif(importlib.util.find_spec("endplay") is None,
                                reason="the reference declarer's tests need the extra kibitz[bot] (endplay)")


def needs_solver(test: Any) -> Any:
    """The test needs the double-dummy solver: marked ``bot``, skipped without the extra."""
    return pytest.mark.bot(_NO_SOLVER(test))


def hide_endplay(monkeypatch: pytest.MonkeyPatch, fault: type[Exception] = ImportError) -> None:
    """Make importing endplay (the bot extra) raise ``fault``, as if it were not installed."""
    real = builtins.__import__

    def no_endplay(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("endplay"):
            raise fault(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_endplay)
