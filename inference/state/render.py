"""Rendering bounds as the seed writes them, and as a compact table.

Iconic: ``X`` for each card the seat must have been dealt, ``?`` for each it
may have been dealt, ``[?]`` for a place that has just dropped out::

    clubs: ????? -> ????[?]        (0 <= clubs_dealt_RHO <= 4)

Arithmetic: ``1 <= clubs_dealt_LHO <= 4``.

>>> iconic((0, 5))
'?????'
>>> iconic((1, 4), before=(1, 5))
'X???[?]'
>>> arithmetic("C", "LHO", (1, 4))
'1 <= clubs_dealt_LHO <= 4'
"""

from __future__ import annotations

from typing import Sequence

from dealer import Seat, Suit  # noqa: F401 - Seat is used by the doctests

from inference.state.events import Change, SeatNames, Update
from inference.rules.lawful import QUANTITIES, Bounds

__all__ = ["iconic", "arithmetic", "render_change", "render_update", "bounds_table", "render_bounds"]


def iconic(bounds: tuple[int, int], before: tuple[int, int] | None = None) -> str:
    """``X`` x lo, ``?`` x (hi - lo), then ``[?]`` for each place lost since ``before``."""
    lo, hi = bounds
    text = "X" * lo + "?" * (hi - lo)
    if before is not None and before[1] > hi:
        text += "[?]" * (before[1] - hi)
    return text


def arithmetic(quantity: str, who: str, bounds: tuple[int, int]) -> str:
    """``lo <= spades_dealt_LHO <= hi`` (or ``HCP_dealt_LHO``)."""
    name = "HCP" if quantity == "HCP" else Suit.parse(quantity).name_long
    return f"{bounds[0]} <= {name}_dealt_{who} <= {bounds[1]}"


def _symbol(quantity: str) -> str:
    return "HCP" if quantity == "HCP" else Suit.parse(quantity).symbol


def render_change(change: Change, names: SeatNames) -> str:
    """One change: iconic before -> after, arithmetic form, and the reason."""
    who = names.name(change.seat)
    if change.quantity == "located":
        return f"  {change.reason}"
    if change.quantity == "HCP":
        icon = f"{change.old[0]}..{change.old[1]} -> {change.new[0]}..{change.new[1]}"
    else:
        icon = f"{iconic(change.old)} -> {iconic(change.new, before=change.old)}"
    return (f"  {who} {_symbol(change.quantity)}: {icon}   "
            f"({arithmetic(change.quantity, who, change.new)})\n      because {change.reason}")


def render_update(update: Update, names: SeatNames, evidence: str | None = None) -> str:
    """An event and every bound it changed, with reasons; ``evidence``: what the card says most strongly
    under the defence model (:meth:`~inference.state.play.PlayState.reading`)."""
    lines = [update.event]
    if not update.changes and not update.statuses:
        lines.append("  (no bound changes)")
    lines += [render_change(c, names) for c in update.changes]
    for sc in update.statuses:
        lines.append(f"  inference {sc.name!r}: {sc.old} -> {sc.new}\n      because {sc.reason}")
    if evidence:
        lines.append(f"  evidence: {evidence}")
    return "\n".join(lines)


def render_bounds(bounds: Bounds, names: SeatNames) -> str:
    """Each concealed seat's bounds, suit by suit, iconic and arithmetic."""
    lines = []
    for seat, sb in bounds.seats:
        who = names.name(seat)
        lines.append(f"{who} ({seat.name})")
        for q in QUANTITIES[:4]:
            lines.append(f"  {_symbol(q)}: {iconic(sb.get(q)):<15} {arithmetic(q, who, sb.get(q))}")
        lines.append(f"  {arithmetic('HCP', who, sb.hcp)}")
    return "\n".join(lines)


def bounds_table(bounds: Bounds, names: "Sequence[str] | None" = None) -> str:
    """A compact table: one row per concealed seat, one column per quantity.

    >>> from inference.rules.lawful import SeatBounds
    >>> b = Bounds(((Seat.W, SeatBounds(((1, 11), (0, 6), (0, 5), (0, 4)), (3, 12))),), (0,) * 52)
    >>> print(bounds_table(b))
    seat      ♠     ♥     ♦     ♣    HCP
    W      1-11   0-6   0-5   0-4   3-12
    """
    labels = [names[i] if names else seat.name for i, (seat, _) in enumerate(bounds.seats)]
    width = max([5, *(len(label) + 1 for label in labels)])  # the longest name, so the columns stay aligned
    header = f"{'seat':<{width}}" + "".join(f"{_symbol(q):>6}" for q in QUANTITIES[:4]) + f"{'HCP':>7}"
    rows = [header]
    for label, (seat, sb) in zip(labels, bounds.seats):
        cells = "".join(f"{lo}-{hi}".rjust(6) for lo, hi in sb.length)
        rows.append(f"{label:<{width}}{cells}{f'{sb.hcp[0]}-{sb.hcp[1]}':>7}")
    return "\n".join(rows)
