"""Why a bound moved, in the words a player uses.

The bounds themselves come from :func:`~inference.rules.lawful.lawful_bounds`;
this module only *explains* each change, by finding which counting fact the
new bound equals: what the seat has played, a suit shown out of, how many
cards of the suit are still unseen (and how many the other hands must or
can hold), or how many places the seat's other suits leave.
"""

from __future__ import annotations

from dealer import CARDS, Card, CardSet, Seat, Suit

from inference.state.events import Change, SeatNames
from inference.rules.lawful import QUANTITIES, Bounds

__all__ = ["explain"]

_SUIT = 0x1FFF


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n != 1 else f"1 {word[:-1] if word.endswith('s') else word}"


def explain(old: Bounds, bounds: Bounds, played: tuple[int, ...], voids: tuple[int, ...], unseen: int,
            move: tuple[Seat, Card] | None, names: SeatNames) -> tuple[tuple[Change, ...], tuple[tuple[Card, Seat], ...]]:
    """The changes from ``old`` to ``bounds``, each with its reason, and newly located cards.

    ``played``, ``voids`` and ``unseen`` are the position after the event, ``move`` the card just
    played (None for another event); ``names`` names the seats (a play state or a viewpoint).
    """
    old_seats = set(old.concealed)
    changes: list[Change] = []
    u = [(unseen >> (13 * s) & _SUIT).bit_count() for s in range(4)]
    new_concealed = bounds.concealed
    for seat, nb in bounds.seats:
        if seat not in old_seats:
            continue
        ob = old[seat]
        name = names.name(seat)
        for q in QUANTITIES:
            before, after = ob.get(q), nb.get(q)
            if before == after:
                continue
            if q == "HCP":
                reason = _hcp_reason(seat, name, after, before, bounds, played, unseen, move, names)
            else:
                reason = _length_reason(seat, name, Suit.parse(q), after, before, bounds, played, voids, u,
                                        move, names, new_concealed)
            changes.append(Change(seat, q, before, after, reason))
    located: list[tuple[Card, Seat]] = []
    for i in range(52):
        mask = bounds.holders[i]
        if mask and mask & (mask - 1) == 0 and old.holders[i] != mask:
            holder = Seat(mask.bit_length() - 1)
            located.append((CARDS[i], holder))
    if located:
        by_seat: dict[Seat, list[Card]] = {}
        for card, seat in located:
            by_seat.setdefault(seat, []).append(card)
        for seat, cards in by_seat.items():
            text = CardSet(cards).to_text()
            changes.append(Change(seat, "located", (0, 0), (len(cards), len(cards)),
                                  f"{text} located: only {names.name(seat)} can hold "
                                  f"{'it' if len(cards) == 1 else 'them'}"))
    return tuple(changes), tuple(located)


def _length_reason(seat: Seat, name: str, suit: Suit, new: tuple[int, int], old: tuple[int, int], bounds: Bounds,
                   played: tuple[int, ...], voids: tuple[int, ...], u: list[int], move: tuple[Seat, Card] | None,
                   names: SeatNames, concealed: tuple[Seat, ...]) -> str:
    s = int(suit)
    word = suit.name_long
    p = (played[seat] >> (13 * s) & _SUIT).bit_count()
    vacancy = 13 - CardSet(played[seat]).__len__()
    others = [o for o in concealed if o != seat]
    lo, hi = new
    a, b = lo - p, hi - p
    if hi < old[1]:
        if voids[seat] >> s & 1:
            if p == 0:
                return f"{name} showed out of {word}: it was dealt none"
            return f"{name} showed out of {word}: it was dealt just the {p} it has played"
        other_min = sum(bounds[o].length[s][0] - (played[o] >> (13 * s) & _SUIT).bit_count() for o in others)
        if b == u[s] - other_min:
            text = f"only {_plural(u[s], word)} remain unseen"
            if other_min:
                holders = " and ".join(names.name(o) for o in others
                                       if bounds[o].length[s][0] > (played[o] >> (13 * s) & _SUIT).bit_count())
                text += f", and {holders} must hold at least {other_min} of them"
            return f"{text}: {name} was dealt at most {hi}"
        room = sum(bounds[seat].length[t][0] - (played[seat] >> (13 * t) & _SUIT).bit_count()
                   for t in range(4) if t != s)
        if b == vacancy - room:
            return (f"{name} holds at least {room} unseen cards in its other suits, leaving room for at most "
                    f"{b} {word} ({hi} dealt)")
        return f"no lawful layout gives {name} more than {hi} {word}"
    if lo > old[0]:
        if move is not None and move[0] == seat and move[1].suit == suit and lo == p:
            return f"{name} has played {_plural(p, word)}"
        other_max = sum(bounds[o].length[s][1] - (played[o] >> (13 * s) & _SUIT).bit_count() for o in others)
        if a == u[s] - other_max:
            shown = [o for o in others if voids[o] >> s & 1]
            if shown and len(shown) == len(others):
                who = " and ".join(names.name(o) for o in shown)
                return f"{who} showed out of {word}: {name} was dealt the other {a} ({lo} in all)"
            return (f"the other hands can hold at most {other_max} of the {u[s]} unseen {word}, so {name} was "
                    f"dealt at least {lo}")
        room = sum(bounds[seat].length[t][1] - (played[seat] >> (13 * t) & _SUIT).bit_count()
                   for t in range(4) if t != s)
        if a == vacancy - room:
            return (f"{name}'s other suits can take at most {room} of its {vacancy} unseen cards, so at least "
                    f"{a} are {word} ({lo} dealt)")
        return f"no lawful layout gives {name} fewer than {lo} {word}"
    return f"{name}'s {word} bounds are now {lo}..{hi}"  # pragma: no cover - bounds only tighten


def _hcp_reason(seat: Seat, name: str, new: tuple[int, int], old: tuple[int, int], bounds: Bounds,
                played: tuple[int, ...], unseen: int, move: tuple[Seat, Card] | None, names: SeatNames) -> str:
    shown = CardSet(played[seat]).hcp
    lo, hi = new
    if lo > old[0]:
        if lo == shown:
            return f"{name} has played {shown} HCP"
        return f"{name}'s unseen cards must include at least {lo - shown} HCP ({lo} dealt)"
    if hi < old[1]:
        free = CardSet(unseen).hcp
        if hi - shown == free:
            return f"only {free} HCP remain unseen: {name} was dealt at most {hi}"
        if move is not None and move[1].hcp and move[0] != seat:
            return (f"{names.name(move[0])} played {move[1]}: {name}'s unseen cards can hold at most "
                    f"{hi - shown} HCP ({hi} dealt)")
        return f"{name}'s unseen cards can hold at most {hi - shown} HCP ({hi} dealt)"
    return f"{name}'s HCP bounds are now {lo}..{hi}"  # pragma: no cover - bounds only tighten
