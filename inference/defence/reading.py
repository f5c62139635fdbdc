"""What a defender's card says most strongly, in words: the narration's and the viewer's evidence line.

The card a defender just played has, under the defence model, a probability from each holding he
may have held in its suit at that moment (the card and any of the suit's cards the viewer had not
seen). The strongest evidence is the pair of those holdings, one card apart and at most
:data:`LONGEST_SHOWN` cards long, whose probabilities of the card differ most (the largest ratio,
either way): restricted choice reads "E's HQ: from HQ 2 times as likely as from HQJ". These are the
factors the weighted view multiplies in (:class:`~inference.defence.evidence.DefenceEvidence`);
the line only names the largest.

>>> from fractions import Fraction
>>> from dealer import Card, Seat
>>> from inference.defence.cards import Phase, Situation
>>> from inference.claims.weights import holding_bits
>>> halves = DefenceEvidence(lambda situation, holding, position: Fraction(1, (holding >> 2 & 3).bit_count()),
...                          bits=None)  # of Q-J, either card half the time
>>> follow = Situation(Phase.FOURTH, False, False, 1, 0, 0)
>>> strongest_reading(halves, Seat.E, Card.parse("HQ"), follow, holding_bits("J32")).text()
"E's HQ: from HQ 2 times as likely as from HQJ"
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import log

from dealer import Card, Seat

from inference.defence.cards import Situation, role_words
from inference.defence.evidence import DefenceEvidence

__all__ = ["Reading", "strongest_reading", "LONGEST_SHOWN"]

#: The longest holding a reading names (the pair compared: this many cards and one fewer).
LONGEST_SHOWN = 3
_RANKS = "AKQJT98765432"


@dataclass(frozen=True)
class Reading:
    """A defender's card and the two holdings (13-bit, at that moment) it tells apart most."""

    seat: Seat
    card: Card
    shorter: int
    longer: int
    ratio: Fraction  # the card's probability from the longer holding over that from the shorter
    role: str = ""  # on a lead or a discard, the suit's role (inference.defence.cards.suit_role)

    def text(self) -> str:
        """One line, the likelier holding first: ``"E's HQ: from HQ 2 times as likely as from HQJ"``; on a lead
        or a discard, what is known of the suit's role: ``"W's S6 (partner bid it): ..."``."""
        suit = str(self.card)[0]
        likelier, other, ratio = ((self.longer, self.shorter, self.ratio) if self.ratio >= 1 else
                                  (self.shorter, self.longer, 1 / self.ratio))
        known = role_words(self.role)
        return (f"{self.seat.name}'s {self.card}{f' ({known})' if known else ''}: from {suit}{_ranks(likelier)} "
                f"{_times(ratio)} times as likely as from {suit}{_ranks(other)}")


def _times(ratio: Fraction) -> str:
    """A ratio for people: two significant digits below 100 (``2``, ``5.4``, ``34``), whole above (``340``, ``1,200``)."""
    value = float(ratio)
    return f"{value:.2g}" if value < 99.5 else f"{float(f'{value:.2g}'):,.0f}"


def _ranks(holding: int) -> str:
    return "".join(r for b, r in enumerate(_RANKS) if holding >> b & 1)


def strongest_reading(evidence: DefenceEvidence, seat: Seat, card: Card, situation: Situation, free: int,
                      longest: int = LONGEST_SHOWN) -> Reading | None:
    """The pair of holdings the card tells apart most (None when no two differ); ``free``: the suit's cards
    (13-bit) the viewer had not seen when it was played, the card aside; ``longest``: the most cards the
    defender held then (his cards left in hand, this one included: a holding longer is none he could hold)."""
    position = card.index % 13
    free &= ~(1 << position)
    spare = [1 << b for b in range(13) if free >> b & 1]
    best: Reading | None = None
    strength = 0.0
    shorter = [1 << position | sum(more) for n in range(min(LONGEST_SHOWN, longest) - 1)
               for more in combinations(spare, n)]
    for short in shorter:
        p = evidence.factor(situation, short, position)
        if not p:
            continue
        for x in spare:
            if short & x:
                continue
            q = evidence.factor(situation, short | x, position)
            if q and abs(log(q / p)) > strength + 1e-12:
                best, strength = Reading(seat, card, short, short | x, q / p, situation.role), abs(log(q / p))
    return best
