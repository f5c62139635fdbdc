"""An auction read with a book (and the players' explanations) into inferences about the callers.

For each call, in order: a readable explanation of the call gives its claim (it overrides the
book), else the first rule of the book that matches the call in its context gives the rule's
claims, else the call is *uncovered*: no claim, counted, never an error. A book claim measured on
real hands (a shipped book's calibration, :mod:`inference.auction.measures`) carries its measured
weight for the weighted view.

>>> infs = auction_inferences("N", ["Pass", "1S", "Pass", "2S"], "sayc", "None")
>>> infs[0].name
'N passed in first or second seat: at most 11 HCP (call 1)'
>>> infs[0].claim
'hcp(N) <= 11'
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from dealer import Seat

from inference.claims.arguments import seat_argument
from inference.claims.language import quote
from inference.errors import InferenceError, InvalidArgumentError
from inference.claims.inferences import Inference, Tag
from inference.io.records import parse_calls
from inference.auction.book import Book, Rule, load_book, render
from inference.auction.context import CallContext, contexts, illegal_call, match, omitted_passes, placeholders
from inference.auction.measures import Level, load_measures, measured_weight
from inference.auction.explanations import read_explanation

__all__ = ["CallReading", "AuctionReading", "read_auction", "auction_inferences", "EXPLANATION_RULE"]

#: The rule id a claim read from an explanation is filed under.
EXPLANATION_RULE = "explanation"


@dataclass(frozen=True)
class CallReading:
    """What one call was read as: its context, the rule (or explanation) used and the inferences."""

    context: CallContext
    rule: Rule | None
    source: str  # "book", "explanation" or "uncovered"
    inferences: tuple[Inference, ...]
    templates: tuple[tuple[str, tuple[str, ...]], ...]  # (claim, fallbacks) before the caller is filled in
    unreadable: bool = False  # an explanation was given but could not be read

    @property
    def rule_id(self) -> str:
        """The rule behind the claims ("explanation" for an explanation; "" when uncovered)."""
        if self.source == "explanation":
            return EXPLANATION_RULE
        return self.rule.id if self.rule is not None else ""


@dataclass(frozen=True)
class AuctionReading:
    """Every call's reading, and the counts: calls covered by the book, by explanations, uncovered."""

    calls: tuple[CallReading, ...]

    @property
    def inferences(self) -> list[Inference]:
        """All the inferences, call by call; a general rule (:attr:`~inference.auction.book.Rule.side`) gives a
        caller its claims once: the same statement repeated (a second quiet pass) is not new evidence."""
        said: set[tuple[object, str]] = set()
        out: list[Inference] = []
        for c in self.calls:
            if c.rule is not None and c.rule.side is not None and c.source == "book":
                key = (c.context.caller, c.rule.id)
                if key in said:
                    continue
                said.add(key)
            out.extend(c.inferences)
        return out

    def count(self, source: str) -> int:
        """How many calls were read from ``source`` (book, explanation, uncovered)."""
        return sum(1 for c in self.calls if c.source == source)

    @property
    def unreadable(self) -> int:
        """Explanations given that could not be read."""
        return sum(1 for c in self.calls if c.unreadable)


_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def _call_word(token: str) -> str:
    return {"P": "passed", "X": "doubled", "XX": "redoubled"}.get(token, f"bid {token.replace('N', 'NT')}")


def read_auction(dealer: "Seat | str", calls: Sequence[str], book: "Book | str | Path",
                 vulnerability: str = "", explanations: "Sequence[str | None] | None" = None,
                 declarer: "Seat | str | None" = None) -> AuctionReading:
    """Read every call of an auction with ``book``; ``explanations``: per call, its text or None.

    ``declarer``: the record's declarer, if known: leading passes the record dropped are put back
    (:func:`~inference.auction.context.omitted_passes`), and the calls are numbered as if they were there.
    """
    first = seat_argument(dealer, "dealer")
    the_book = load_book(book)
    if isinstance(calls, str) or not all(isinstance(c, str) for c in calls):
        raise InvalidArgumentError(f"calls: expected a list of calls such as ['1H', 'Pass'], got {quote(repr(calls), 60)}")
    try:
        calls = parse_calls(calls)  # Pass, X, XX, 1NT ...: as the records give them
        dropped = omitted_passes(first, calls, declarer)
    except InferenceError:
        raise
    except ValueError as exc:
        raise InvalidArgumentError(f"calls: {exc}") from None
    calls = ["Pass"] * dropped + list(calls)
    fault = illegal_call(first, calls)
    if fault is not None:
        i, why = fault
        raise InvalidArgumentError(f"calls: call {i + 1 - dropped} ({calls[i]!r} by {first.after(i).name_long}) is "
                                   f"not legal: {why}")
    notes = [None] * dropped + list(explanations or ())
    out: list[CallReading] = []
    for ctx in contexts(first, calls, vulnerability):
        note = notes[ctx.index] if ctx.index < len(notes) else None
        read = read_explanation(note, ctx.call) if note else None
        if read is not None:
            claim, fallback = read
            meaning = f"{_call_word(ctx.call)}, explained {quote(note.strip(), 60)}" if note else ""
            templates = ((claim, (fallback,)),)
            out.append(CallReading(ctx, None, "explanation",
                                   _inferences(ctx, meaning, templates, (Tag.UNSPECIFIED,), (None,), ("",)), templates))
            continue
        unreadable = bool(note and note.strip())
        for rule in the_book.rule:
            binding = match(rule, ctx)
            if binding is None:
                continue
            values = placeholders(binding, the_book.params, ctx.trump)
            filled = tuple((_fill(c.text, values), tuple(_fill(f, values) for f in c.fallbacks)) for c in rule.claim)
            measured = load_measures(the_book.name)
            weights = tuple(_weight(measured.get((rule.id, c.label))) for c in rule.claim)
            infs = _inferences(ctx, render(rule.meaning, None, values), filled, tuple(c.tag for c in rule.claim),
                               weights, tuple(c.label for c in rule.claim))
            out.append(CallReading(ctx, rule, "book", infs, filled, unreadable))
            break
        else:
            out.append(CallReading(ctx, None, "uncovered", (), (), unreadable))
    return AuctionReading(tuple(out))


def _fill(text: str, values: dict[str, object]) -> str:
    """A template with its placeholders filled and ``caller`` kept (filled per seat later)."""
    return render(text, None, values)


def _weight(levels: "tuple[Level, ...] | None") -> float | None:
    return measured_weight(levels[0]) if levels else None


def _inferences(ctx: CallContext, meaning: str, templates: tuple[tuple[str, tuple[str, ...]], ...],
                tags: tuple[Tag, ...], weights: tuple[float | None, ...], labels: tuple[str, ...]
                ) -> tuple[Inference, ...]:
    seat = ctx.caller
    out = []
    for n, ((claim, fallbacks), tag, weight, label) in enumerate(zip(templates, tags, weights, labels), start=1):
        suffix = f" [{label or n}]" if len(templates) > 1 else ""
        out.append(Inference(name=f"{seat.name} {meaning} (call {ctx.index + 1}){suffix}", by=seat,
                             action=f"{ctx.call.replace('N', 'NT') if ctx.call[0].isdigit() else ctx.call} "
                                    f"in {_ORDINAL[ctx.position]} seat",
                             kind="call", claim=render(claim, seat, {}), tag=tag,
                             fallbacks=tuple(render(f, seat, {}) for f in fallbacks), weight=weight))
    return tuple(out)


def auction_inferences(dealer: "Seat | str", calls: Sequence[str], book: "Book | str | Path",
                       vulnerability: str = "", explanations: "Sequence[str | None] | None" = None,
                       declarer: "Seat | str | None" = None) -> list[Inference]:
    """The inferences an auction gives about the callers' hands, call by call (see :func:`read_auction`)."""
    return read_auction(dealer, calls, book, vulnerability, explanations, declarer).inferences
