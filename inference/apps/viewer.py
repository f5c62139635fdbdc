"""What the replay viewer shows, computed by Kibitz: one plain JSON-ready value per card of the play.

``kibitz view`` writes a page (:mod:`inference.apps.viewer_page`) that only *displays* the data made
here. :func:`play_steps` walks a finished :class:`~inference.state.play.PlayState` back through its
snapshots (:meth:`~inference.state.play.PlayState.at`) and, for the start and after each card, records:

* the table: each seat's cards still held when the viewer sees them (its own, dummy's once
  tabled), the cards each seat has played, the trick in progress and the tricks won;
* ``lawful``: the lawful bounds of every concealed seat (:meth:`~inference.state.play.PlayState.bounds`)
  and ``agreement``: the bounds under the agreement view
  (:meth:`~inference.state.play.PlayState.agreement_bounds`; null when that view is empty);
* ``odds``: in the lawful view, the agreement view when inferences are in force, and the weighted
  view (the inferences' weights and the defenders' cards under the model of real defenders) when
  either weighs anything (:meth:`~inference.state.play.PlayState.odds`): ``holder``, who holds each unseen
  card, and ``split``, the splits of each suit, as exact fractions (``"n/d"``) with the percentage
  shown; a view not computed is null;
* ``inferences``: each inference's standing now and the reason it changed at this card;
* ``narration``: the lines ``kibitz replay`` prints for the card (:mod:`inference.state.render`).

The events between two cards (dummy tabled after the opening lead, inferences and leads read)
fold into the step of the card before them, as in ``kibitz replay --json``; the events before the
first card make the start step.

>>> from inference.state.play import PlayState
>>> state = PlayState("AK2.QJ3.K32.J432", declarer="S", contract="3NT")
>>> _ = state.play("S9"); _ = state.table_dummy("QJ54.954.A54.KQ5")
>>> steps = play_steps(state)
>>> [s["label"] for s in steps]
['start of play', 'trick 1, card 1: LHO (W) plays S9']
>>> steps[1]["lawful"]["E"]["S"], steps[1]["odds"]["lawful"]["holder"]["ST"]["W"]
([0, 5], ['12/25', '48.0'])
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence

from dealer import CardSet, Seat, Suit

from inference.io.records import pbn_vulnerability
from inference.errors import InconsistentCardsError
from inference.state.events import Update
from inference.state.render import render_update

if TYPE_CHECKING:
    from inference.auction.likelihood import Likelihood
    from inference.claims.inferences import Inference
    from inference.state.play import PlayState
    from inference.io.records import PlayRecord
    from inference.apps.scenario import ScenarioRun

__all__ = ["VERSION", "percent", "fraction_text", "play_steps", "record_page", "scenario_page", "auction_calls"]

#: Vulnerability as LIN (``sv``) and PBN spell it, in PBN's words.

#: The layout of the data :func:`record_page` and :func:`scenario_page` return (the page checks it).
VERSION = 1


def fraction_text(p: Fraction) -> str:
    """An exact probability as ``"n/d"`` (``"1/1"`` for certainty).

    >>> fraction_text(Fraction(3, 6))
    '1/2'
    """
    return f"{p.numerator}/{p.denominator}"


def percent(p: Fraction) -> str:
    """The percentage the page prints beside a probability: one decimal, the exact value rounded half to even.

    >>> percent(Fraction(2, 3)), percent(Fraction(1)), percent(Fraction(0)), percent(Fraction(1, 16))
    ('66.7', '100.0', '0.0', '6.2')
    """
    tenths = round(p * 1000)
    return f"{tenths // 10}.{tenths % 10}"


def _cards(mask: int) -> list[str]:
    return [str(c) for c in CardSet(mask)]


def _odds(state: PlayState, view: str) -> dict[str, Any] | None:
    """Who holds each unseen card and the splits of each suit in ``view``, exact and in percent (None: empty view)."""
    try:
        odds = state.odds(view)
    except InconsistentCardsError:
        return None
    holder = {str(card): {s.name: [fraction_text(p), percent(p)] for s, p in sorted(by.items())}
              for card, by in sorted(odds.holder.items())}
    split = {}
    for suit, table in odds.split.items():
        rows = sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))
        split[Suit(suit).name] = [{"lengths": list(k), "p": fraction_text(p), "pct": percent(p)} for k, p in rows]
    return {"layouts": str(odds.layouts), "holder": holder, "split": split}


def _step(state: PlayState, event: Update, group: Sequence[Update], ply: int) -> dict[str, Any]:
    """Everything shown at one moment of the play: ``state`` as it is then; ``event``, the card (or the
    start); ``group``, every event since the step before (the card's and those folded into it)."""
    snap = state.snapshot
    update = event
    lawful = state.bounds()
    try:
        agreement: dict[str, dict[str, list[int]]] | None = state.agreement_bounds()[0].as_dict()
        agreement_note = ""
    except InconsistentCardsError as exc:
        agreement, agreement_note = None, str(exc)
    concealed = lawful.concealed
    odds = {"lawful": _odds(state, "lawful"), "agreement": None, "weighted": None}
    if snap.inferences and agreement is not None:
        odds["agreement"] = _odds(state, "agreement")
    if (snap.inferences and agreement is not None) or (state.defence is not None and state.ply > 0):
        odds["weighted"] = _odds(state, "weighted")
    statuses = state.statuses()
    inferences = []
    for inf in snap.inferences:
        st = statuses[inf.name]
        inferences.append({"name": inf.name, "by": inf.by.name, "who": state.name(inf.by), "action": inf.action,
                           "kind": inf.kind, "claim": inf.claim, "tag": inf.tag.value, "status": st.status.value,
                           "level": st.level, "in_force": (inf.claim, *inf.fallbacks)[st.level], "note": st.note})
    changed = [sc.as_dict() for u in group for sc in u.statuses]
    reading = state.reading() if event.card is not None else None
    evidence = reading.text() if reading is not None else None
    trick = snap.current
    last = snap.tricks[-1] if snap.tricks and not trick.cards else None
    shown = last if last is not None else trick
    return {
        "ply": ply,
        "label": update.event,
        "seat": update.seat.name if update.seat is not None else None,
        "card": str(update.card) if update.card is not None else None,
        "trick": update.trick,
        "held": {s.name: (_cards(snap.remaining[s]) if snap.remaining[s] >= 0 else None) for s in Seat},
        "played": {s.name: _cards(snap.played[s]) for s in Seat},
        "voids": {s.name: [Suit(t).name for t in range(4) if snap.voids[s] >> t & 1] for s in Seat},
        "table": {"leader": shown.leader.name, "cards": [[s.name, str(c)] for s, c in shown.cards],
                  "complete": last is not None,
                  "winner": last.winner.name if last is not None and last.winner is not None else None},
        "won": {"NS": snap.won[0], "EW": snap.won[1]},
        "to_play": state.to_play.name,
        "concealed": [s.name for s in concealed],
        "lawful": lawful.as_dict(),
        "agreement": agreement,
        "agreement_note": agreement_note,
        "odds": odds,
        "inferences": inferences,
        "changed": changed,
        "narration": [render_update(u, state, evidence if u is event else None) for u in group],
        "evidence": evidence,
    }


def play_steps(state: PlayState) -> list[dict[str, Any]]:
    """The viewer's steps of ``state``'s play so far: the start, then one per card (see the module)."""
    groups: list[list[int]] = [[]]
    for ply in range(1, state.ply + 1):
        if state.at(ply).snapshot.update.card is not None:
            groups.append([])
        groups[-1].append(ply)
    updates = state.updates()
    steps = []
    for index, plies in enumerate(groups):
        last = plies[-1] if plies else 0
        then = state.at(last)
        group = [updates[p - 1] for p in plies]
        event = group[0] if index else state.at(0).snapshot.update
        step = _step(then, event, group, last)
        step["index"] = index
        steps.append(step)
    return steps


def auction_calls(calls: Sequence[str], dealer: Seat | None,
                  claims: "Sequence[Sequence[str]] | None" = None) -> list[dict[str, Any]]:
    """The auction panel's rows: each call with its seat and the claims it carries (none without a book).

    >>> [(c["seat"], c["call"]) for c in auction_calls(["1NT", "Pass", "3NT"], Seat.E)]
    [('E', '1NT'), ('S', 'Pass'), ('W', '3NT')]
    """
    seat = dealer if dealer is not None else Seat.N
    rows = []
    for i, call in enumerate(calls):
        rows.append({"seat": seat.name, "call": call, "claims": list(claims[i]) if claims and i < len(claims) else []})
        seat = seat.lho
    return rows


def _call_claims(inferences: Sequence[Inference]) -> list[dict[str, Any]]:
    """A scenario's inferences drawn from calls, as auction rows (the scenario gives no auction of its own)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for inf in inferences:
        if inf.kind != "call":
            continue
        key = (inf.by.name, inf.action or "call")
        rows.setdefault(key, {"seat": inf.by.name, "call": inf.action or "call", "claims": []})
        rows[key]["claims"].append(f"{inf.name}: {inf.claim}")
    return list(rows.values())


def _header(state: PlayState, title: str) -> dict[str, Any]:
    return {
        "version": VERSION,
        "title": title,
        "viewer": state.viewer.name,
        "declarer": state.declarer.name,
        "dummy": state.dummy.name,
        "contract": str(state.contract),
        "names": {s.name: state.name(s) for s in Seat},
    }


def record_page(record: PlayRecord, viewer: Seat | None = None,
                claims: "Sequence[Sequence[str]] | None" = None, book: "str | None" = None,
                defence_model: object = "default", likelihood: "Likelihood | str | None" = "default"
                ) -> dict[str, Any]:
    """The viewer's data for a played record, from ``viewer`` (default: declarer); ``defence_model`` (as
    :class:`~inference.state.play.PlayState` takes it) gives each defender's card its evidence line;
    ``likelihood`` weighs the defenders' auction (as ``PlayState.add_auction`` takes it).

    ``book``: read the auction with this bidding book (:mod:`inference.auction`): each call shows the
    claims it gives, and the claims are in force from the start of the play. ``claims``: instead, the
    claims each call carries, given.
    """
    from inference.apps.replay import replay_record

    calls: Sequence[str] = record.calls
    if book is not None:
        from inference.auction.population import book_for
        from inference.auction.reading import read_auction

        dealer = record.dealer if record.dealer is not None else record.declarer
        read_with = book_for(book, record.source, record.players) or book  # auto: the record's population's
        reading = read_auction(dealer, record.calls, read_with, record.vulnerable, record.explanations,
                               record.declarer)
        restored = len(reading.calls) - len(record.calls)  # leading passes the record dropped, put back
        calls = ["Pass"] * restored + list(record.calls)
        claims = [[f"{inf.claim} ({inf.tag.value.removeprefix('agreement-')}; {c.source})" for inf in c.inferences]
                  for c in reading.calls]
    state = None
    for state, _ in replay_record(record, viewer, book=book, defence_model=defence_model,
                                  likelihood=likelihood):
        pass
    if state is None:
        raise InconsistentCardsError(f"{record.label}: no card was played")
    data = _header(state, f"Board {record.board}: {record.contract} by {record.declarer.name_long.capitalize()}")
    dealer_seat = record.dealer if book is None or record.dealer is not None else record.declarer
    data.update(source=record.label, dealer=dealer_seat.name if dealer_seat is not None else None,
                vulnerable=pbn_vulnerability(record.vulnerable) or record.vulnerable,
                auction=auction_calls(calls, dealer_seat, claims), steps=play_steps(state))
    return data


def scenario_page(run: ScenarioRun) -> dict[str, Any]:
    """The viewer's data for a scenario file's run (its inferences from calls make the auction panel)."""
    state = run.state
    data = _header(state, run.scenario.title)
    data.update(source=run.path, dealer=None, vulnerable="",
                auction=_call_claims(state.snapshot.inferences), steps=play_steps(state),
                checks={"passed": sum(c.ok for c in run.checks), "total": len(run.checks)})
    return data
