"""The everyday run: a script that wants few random deals, dealt and tested one at a time, without numpy.

Most real scripts keep a random deal in tens or hundreds and produce 40 deals: ``dealer`` runs them in a
few milliseconds, and importing numpy alone would take Kibitz longer (0.05 to 0.2 s, by machine). So
:func:`run_quick` runs such a script the way ``dealer`` does: random deals completing the predeal, one at
a time, from Python's own generator seeded with the run's seed (each completion equally likely: the
deals kept are uniform over those meeting the condition), the condition tested by the one interpreter
over one deal (:class:`~dealer.lang.one_deal.DealReader`), the deals kept printed and tallied
(:mod:`dealer.run.tallies`) as :mod:`dealer.run.runner` does, with ``dealer``'s totals at the end.

It *declines* a run it does not do, having written nothing and saying why (:func:`quick_refusal`): the
double-dummy solver, ``imps``/``score``, the forks' reports, an ``average`` with a filter, a numpy generator
given as the seed. It *gives up*, having written nothing, as soon as the
rate kept so far predicts more random deals than the budget's ``quick_deals``: then the batch run
(:func:`~dealer.run.runner.run_script`) runs the script from its start with the same seed. Which way a
run goes depends on the script, the options and the seed only, so a seed gives the same output again.

>>> import io
>>> from dealer.lang.statements import parse_statements
>>> out = io.StringIO()
>>> done = run_quick(parse_statements("condition hcp(north) >= 10 produce 2 action printoneline"), out, seed=1,
...                  explain=True, verbose=False)
>>> done.produced, done.generated >= 2, done.count
(2, True, None)
>>> print(out.getvalue().splitlines()[2])
plan: deal and select (uniform as dealer's own; nothing counted)
>>> run_quick(parse_statements("condition hcp(north) >= 37"), io.StringIO(), seed=1).left  # too rare: batches
"left after 128 random deals, 0 kept: the rate predicts more than the budget's quick_deals (4,096)"
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Collection, Mapping, Sequence, TextIO

from dealer.budget import current
from dealer.cards.cardset import CardSet
from dealer.cards.deal_text import columns, compact, oneline, pages, pbn_record
from dealer.cards.seat import Seat
from dealer.lang.actions import Average, BucketFrequency, Frequency, Print, PrintES
from dealer.lang.expr import And, Cond, Expr, Pos
from dealer.lang.fold import fold_conditions
from dealer.lang.one_deal import DealReader, script_points, unread
from dealer.lang.statements import ScriptSyntax, check_predeals
from dealer.rng import RandomSource
from dealer.run.plan import Plan
from dealer.run.settings import (
    DEFAULT_GENERATE, DEFAULT_PRODUCE, actions_of, check_frequencies, check_run_deals, given, prints_deals, run_seed,
    totals_text,
)
from dealer.run.tallies import AverageTally, BucketTally, FrequencyTally, Tally, tally_for

if TYPE_CHECKING:
    from dealer.run.script_dealer import CountResult

__all__ = ["run_quick", "QuickRun", "QuickDeals", "quick_refusal"]

#: Deals dealt before the rate kept is first weighed, and how often it is weighed again.
_FIRST_LOOK, _LOOK_EVERY = 128, 64
_PRINTED = ("printall", "printew", "printcompact", "printoneline", "printpbn", "print")


class QuickDeals:
    """Random deals completing the predealt cards, one at a time from a Python generator: ``dealer``'s random
    deals, four hand bit-sets (North, East, South, West) each.

    The free cards are shuffled by Fisher-Yates from the top, each swap's place drawn exactly (whole
    ``randrange`` draws of up to 62 bits, split into the swaps' places as the digits of a mixed radix); the
    shuffle stops once the cards above the last vacancy are placed: the rest go to that seat in any order.
    The seats ``first`` (those a condition reads) are dealt first (:meth:`start`), so that a deal the
    condition refuses is never completed (:meth:`finish`): the continued shuffle is the same Fisher-Yates, so
    a completed deal is uniform whether it was dealt whole or in two steps.
    """

    def __init__(self, predeals: "Mapping[Seat, tuple[CardSet, Pos]]", first: Collection[Seat] = ()) -> None:
        check_predeals(predeals)
        self.placed = [predeals[seat][0].mask if seat in predeals else 0 for seat in Seat]
        seen = self.placed[0] | self.placed[1] | self.placed[2] | self.placed[3]
        self.free = [1 << i for i in range(52) if not seen >> i & 1]
        vacancies = [(int(seat), 13 - self.placed[seat].bit_count()) for seat in Seat]
        vacancies = sorted(((seat, n) for seat, n in vacancies if n), key=lambda v: v[0] in first)
        cuts, at = [], 0  # from the bottom up: the last vacancy, ..., the seats read first at the top
        for seat, n in vacancies:
            cuts.append((seat, at, at + n))
            at += n
        bottom = vacancies[0][1] if vacancies else 0  # the last vacancy's cards are what the shuffle leaves
        top = len(self.free) - sum(n for seat, n in vacancies if seat in first)  # the seats read first: above
        split = max(top, bottom)
        #: The draws that place the seats read first, then the others'.
        self.draws = (_digits(len(self.free), split), _digits(split, bottom))
        self.first_cuts = [cut for cut in cuts if cut[1] >= top]
        self.later_cuts = [cut for cut in cuts if cut[1] < top]

    def start(self, rng: Random) -> tuple[list[int], list[int]]:
        """The seats read first dealt: the cards (shuffled above them) and the hands so far."""
        cards = self.free.copy()
        _shuffle(cards, self.draws[0], rng)
        hands = self.placed.copy()
        for seat, start, end in self.first_cuts:
            hands[seat] |= sum(cards[start:end])
        return cards, hands

    def finish(self, cards: list[int], hands: list[int], rng: Random) -> tuple[int, ...]:
        """The deal :meth:`start` began, completed."""
        _shuffle(cards, self.draws[1], rng)
        for seat, start, end in self.later_cuts:
            hands[seat] |= sum(cards[start:end])
        return tuple(hands)

    def deal(self, rng: Random) -> tuple[int, ...]:
        """One random deal: the free cards shuffled and handed out to the seats' vacancies."""
        return self.finish(*self.start(rng), rng)


def _shuffle(cards: list[int], draws: list[tuple[int, list[int]]], rng: Random) -> None:
    """Fisher-Yates steps on ``cards``, from the top: each draw's digits are the places swapped in."""
    draw = rng.randrange
    for radix, places in draws:
        r = draw(radix)
        for k in places:
            j = r % k
            r //= k
            cards[k - 1], cards[j] = cards[j], cards[k - 1]


def _digits(size: int, last: int) -> list[tuple[int, list[int]]]:
    """The draws of a shuffle of ``size`` cards down to ``last``: (the draw's range, the swaps it places)."""
    out: list[tuple[int, list[int]]] = []
    k = size
    while k > last:
        radix, places = 1, []
        while k > last and radix * k < 1 << 62:
            radix *= k
            places.append(k)
            k -= 1
        out.append((radix, places))
    return out


def quick_refusal(syntax: ScriptSyntax) -> str:
    """Why the script is not run one deal at a time (what it asks that only the batches do), or "" if it is."""
    for node in [*syntax.conditions, *syntax.action_nodes()]:
        part = unread(node)
        if part is not None:
            return f"{part.pos}: {part} is not read on one deal"
    for action in syntax.actions:
        if isinstance(action, Print) and action.kind not in _PRINTED or \
                not isinstance(action, (Print, PrintES, Average, Frequency, BucketFrequency)):
            name = action.kind if isinstance(action, Print) else type(action).__name__
            return f"{action.pos}: {name} is done in batches"
        if isinstance(action, Average) and action.filter is not None:
            return f"{action.pos}: an average with a filter is done in batches"
    return ""


class _Quick:
    """One run dealt and written a deal at a time: the deals kept, then the text, kept until the run is done."""

    def __init__(self, syntax: ScriptSyntax, quiet: bool, seed: int, source: str) -> None:
        self.syntax, self.seed, self.source = syntax, seed, source
        self.rng = Random(seed)
        self.reader = DealReader(script_points(syntax), self.rng)
        folded = fold_conditions(syntax.conditions)
        self.condition: Cond | None = None if not folded else folded[0] if len(folded) == 1 else And(tuple(folded))
        self.actions, self.each = actions_of(syntax, quiet)
        self.tallies = {id(a): tally_for(a) for a in self.actions if not any(a is b for b in self.each)}
        self.kept: list[tuple[int, ...]] = []
        self.used = 0

    def select(self, produce: int, generate: int, most: int) -> bool:
        """Deal until ``produce`` deals are kept or ``generate`` dealt; False as soon as the rate kept so far
        predicts more than ``most`` random deals (and ``generate`` allows more)."""
        dealing = QuickDeals(self.syntax.predeals, () if self.condition is None else self.condition.seats())
        rng, reader, condition, kept = self.rng, self.reader, self.condition, self.kept
        while len(kept) < produce and self.used < generate:
            used = self.used
            if generate > most and used >= _FIRST_LOOK and (used % _LOOK_EVERY == 0 or used >= most):
                rate = (len(kept) + 1) / (used + 2)
                if used >= most or used + (produce - len(kept)) / rate > most:
                    return False
            cards, hands = dealing.start(rng)
            self.used = used + 1
            if condition is None or reader.evaluate(condition, hands):
                kept.append(dealing.finish(cards, hands, rng))
        return True

    def text(self) -> str:
        """The deals' text and the reports, as the batch run writes them."""
        out: list[str] = []
        for number, deal in enumerate(self.kept, 1):
            memo: dict[int, object] = {}
            out.extend(self._deal_text(action, deal, number, memo) for action in self.each)
            for action in self.actions:
                tally = self.tallies.get(id(action))
                if tally is not None:
                    tally.add_deal([self._value(node, deal, memo) for node in _axes(tally)])
        for action in self.actions:
            tally = self.tallies.get(id(action))
            if tally is not None:
                out.append(tally.text())
            elif id(action) in self.tallies:
                assert isinstance(action, Print)
                out.append(pages(self.kept, tuple(sorted(set(action.seats)))))
        return "".join(out)

    def _value(self, node: Expr, deal: Sequence[int], memo: dict[int, object]) -> int:
        """An action's expression on a deal kept, as a number (``rnd`` draws once a deal, for every action)."""
        return int(self.reader.evaluate(node, deal, memo))

    def _deal_text(self, action: object, deal: Sequence[int], number: int, memo: dict[int, object]) -> str:
        """What a per-deal action prints for deal ``number`` (from 1) of the run."""
        if isinstance(action, PrintES):
            return "".join(item if isinstance(item, str) else str(self._value(item, deal, memo))
                           for item in action.items)
        assert isinstance(action, Print)
        if action.kind == "printall":
            return columns(deal, tuple(Seat), number)
        if action.kind == "printew":
            return columns(deal, (Seat.W, Seat.E))
        if action.kind == "printpbn":
            return pbn_record(deal, number, f"Hand simulated by kibitz dealer with file {self.source}, seed {self.seed}",
                              _today(), self.syntax.dealer, self.syntax.vulnerable)
        if action.kind == "printcompact":
            text = compact(deal)
            return text if action.expr is None else f"{text}{self._value(action.expr, deal, memo)}\n"
        text = oneline(deal)
        return text if action.expr is None else f"{text[:-1]}{self._value(action.expr, deal, memo)}\n"


def _today() -> str:
    """Today's date as PBN writes it (``2026.11.28``)."""
    import datetime

    return datetime.date.today().strftime("%Y.%m.%d")


def _axes(tally: Tally) -> list[Expr]:
    """The expressions a tally adds a deal by."""
    if isinstance(tally, AverageTally):
        return [tally.action.expr]
    assert isinstance(tally, (FrequencyTally, BucketTally))
    return [axis[0] for axis in tally.action.axes]


@dataclass(frozen=True)
class QuickRun:
    """A run tried one deal at a time: the random deals dealt, the deals produced and the count when asked; or,
    if it was left to the batches, why (``left``)."""

    generated: int
    produced: int
    count: "CountResult | None" = None
    left: str = ""

    @property
    def done(self) -> bool:
        """Whether the run was done this way (its text written)."""
        return not self.left


def run_quick(syntax: ScriptSyntax, out: TextIO, *, seed: RandomSource = None, produce: int | None = None,
              generate: int | None = None, quiet: bool = False, verbose: bool = True, count: bool = False,
              explain: bool = False, source: str = "<script>", limit: int | None = None, text: str = ""
              ) -> QuickRun:
    """Run a script one deal at a time, as :func:`~dealer.run.runner.run_script` would (same options); or leave
    it, having written nothing, saying why (``left``: see the module).

    ``count`` counts the condition after the run, with the tables ``kibitz count`` builds (``limit`` and
    ``text`` as :class:`~dealer.run.script_dealer.ScriptDealer` takes them; numpy is imported then).
    """
    start = time.perf_counter()
    if not (seed is None or isinstance(seed, int)):
        return QuickRun(0, 0, left="not tried: the seed is a generator")
    refused = quick_refusal(syntax)
    if refused:
        return QuickRun(0, 0, left=f"not tried: {refused}")
    generate = given(generate, syntax.generate, "generate") or DEFAULT_GENERATE
    n = given(produce, syntax.produce, "produce") or (DEFAULT_PRODUCE if prints_deals(syntax) else generate)
    check_frequencies(syntax.actions)
    check_run_deals(syntax.actions, n)
    run = _Quick(syntax, quiet, run_seed(syntax, seed), source)
    most = current().quick_deals
    if not run.select(n, generate, most):
        return QuickRun(run.used, len(run.kept), left=f"left after {run.used:,} random deals, {len(run.kept):,} kept: "
                        f"the rate predicts more than the budget's quick_deals ({most:,})")
    written = run.text()
    if verbose:
        written += totals_text(run.used, len(run.kept), run.seed, time.perf_counter() - start)
    if explain:
        how = f"{len(run.kept):,} of {run.used:,} random deals kept, one at a time (numpy not loaded)"
        written += Plan("deal and select", False, selection=how).text() + "\n"
    out.write(written)
    if not count:
        return QuickRun(run.used, len(run.kept))
    from dealer.run.script_dealer import count_after_run

    return QuickRun(run.used, len(run.kept), count_after_run(syntax, out, limit=limit, text=text, seed=run.seed))
