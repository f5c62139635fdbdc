"""The double-dummy solver, asked for many deals at once: ``tricks`` in conditions and ``evalcontract``.

The solver is DDS through endplay (the bot extra, ``pip install 'kibitz[bot]'``). Its batch call
(``calc_all_tables``) solves up to :data:`SOLVER_TABLES` tables a call (40 deals of five strains) and
spreads them over the machine's cores (DDS's own threads): a filter on ``tricks(south, notrump)``
asks it for the strains the condition reads, in calls of as many deals as it accepts, instead of a
whole table a deal (a notrump script's 20 deals in 2.7 s instead of 13.1 s on this project's two-core
machine, docs/language.rst). The last deals solved are kept with their tables, so the actions of one
run that read the same deals (``average tricks(north, spades)``, ``printrpt`` with ``trix``, ``par``) ask
the solver once: :func:`solve_for` solves, before them, every strain they read.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from dealer.cards.pbnio import masks_to_pbn
from dealer.cards.seat import Seat
from dealer.errors import UnsupportedSpecError
from dealer.lang.expr import LeadTricks, Node, Par, Pos, Tricks, walk_once

__all__ = ["SOLVER_TABLES", "STRAINS", "batch_solver", "solved_tables", "solve_for", "strains_read", "forget_solved",
           "tricks_of", "double_dummy_tricks", "double_dummy_tables", "sequence_tops", "lead_tricks", "lead_names",
           "par_scores", "par_contracts", "SOLVER_NODES"]

#: The most double-dummy tables the solver takes in one call, strains counted (DDS: 40 deals of five strains).
SOLVER_TABLES = 200
#: The nodes of the language whose values the double-dummy solver gives.
SOLVER_NODES = (Tricks, LeadTricks, Par)
#: The strains in the language's letters, in the order of :func:`double_dummy_tables`.
STRAINS = "CDHSN"


def batch_solver(pos: Pos, what: str = "evalcontract") -> Any:
    """endplay's batch solver (``calc_all_tables``); without the bot extra, an
    :class:`~dealer.errors.UnsupportedSpecError` naming line, column and ``what`` needs it."""
    try:
        from endplay.dds import calc_all_tables
    except ImportError:
        raise UnsupportedSpecError(f"line {pos.line}, column {pos.column}: {what!r} needs the bot extra "
                                   "(pip install 'kibitz[bot]': the endplay double-dummy solver)") from None
    return calc_all_tables


#: The last deals solved: their key (a digest of the masks), the strains solved and the tables.
_LAST: dict[bytes, tuple[str, list[Any]]] = {}


def solved_tables(masks: np.ndarray, strains: str, pos: Pos = Pos(), what: str = "evalcontract") -> list[Any]:
    """Each deal's double-dummy table in ``strains`` (letters of ``C D H S N``), asked of the solver in
    calls it accepts; the same deals solved last in those strains (or more) are not solved again."""
    import hashlib

    calc_all_tables = batch_solver(pos, what)
    from endplay.types import Deal as EndplayDeal

    rows_array = np.ascontiguousarray(masks, dtype=np.uint64)
    key = hashlib.sha256(rows_array.tobytes()).digest()
    last = _LAST.get(key)
    if last is not None and set(strains) <= set(last[0]):
        return last[1]
    exclude = [_denom(strain) for strain in STRAINS if strain not in strains]
    rows = rows_array.tolist()
    step = max(SOLVER_TABLES // len(strains), 1)
    tables: list[Any] = []
    for first in range(0, len(rows), step):
        deals = [EndplayDeal(masks_to_pbn(row)) for row in rows[first:first + step]]
        tables.extend(calc_all_tables(deals, exclude=exclude))
    _LAST.clear()  # one set of deals kept: memory stays that of the deals asked
    _LAST[key] = (strains, tables)
    return tables


def forget_solved() -> None:
    """Forget the deals solved last (the next call asks the solver; what a benchmark or a test measures)."""
    _LAST.clear()


def strains_read(nodes: Iterable[Node]) -> str:
    """The strains the solver must solve for ``nodes``: each ``tricks``' strain, all five for ``par``
    (``leadtricks`` is solved lead by lead, apart)."""
    found: set[str] = set()
    for node in nodes:
        for n in walk_once(node):
            if isinstance(n, Tricks):
                found.add(n.strain)
            elif isinstance(n, Par):
                found.update(STRAINS)
    return "".join(s for s in STRAINS if s in found)


def solve_for(masks: np.ndarray, strains: str, pos: Pos = Pos()) -> None:
    """Solve ``masks`` in ``strains`` now (nothing if none), so that the calls that follow on the same deals,
    each reading some of them, find them solved."""
    if strains and len(masks):
        solved_tables(masks, strains, pos, "tricks")


def tricks_of(tables: list[Any], declarer: Seat, strain: str) -> np.ndarray:
    """The tricks ``declarer`` takes in ``strain`` on each of the solved ``tables``."""
    from endplay.types import Player

    denom, player = _denom(strain), Player(int(declarer))
    return np.array([int(table[denom, player]) for table in tables], dtype=np.int64)


def _denom(strain: str) -> Any:
    """endplay's denomination of a strain letter (``S H D C N``)."""
    from endplay.types import Denom

    return {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "N": Denom.nt}[strain]


def double_dummy_tricks(masks: np.ndarray, declarer: Seat, strain: str, pos: Pos = Pos(),
                        what: str = "evalcontract") -> np.ndarray:
    """The tricks ``declarer`` takes double dummy in ``strain`` (``S H D C N``) on every deal of ``masks``."""
    return tricks_of(solved_tables(masks, strain, pos, what), declarer, strain)


def double_dummy_tables(masks: np.ndarray, pos: Pos = Pos()) -> np.ndarray:
    """Every deal's double-dummy tricks: ``out[deal, strain, seat]``, strains ``C D H S N``, seats N E S W."""
    tables = solved_tables(masks, STRAINS, pos)
    out = np.zeros((len(masks), 5, 4), dtype=np.int64)
    for k, strain in enumerate(STRAINS):
        for seat in Seat:
            out[:, k, int(seat)] = tricks_of(tables, seat, strain)
    return out


def sequence_tops(hand: int) -> tuple[int, ...]:
    """The card indices of the top card of each sequence (touching cards of a suit) of a hand's 52-bit mask.

    >>> from dealer.cards.card import CARDS
    >>> from dealer.cards.cardset import CardSet
    >>> [str(CARDS[i]) for i in sequence_tops(CardSet.parse("SAKJT9 HQ2 D32").mask)]
    ['SA', 'SJ', 'HQ', 'H2', 'D3']
    """
    return tuple(i for i in range(52) if hand >> i & 1 and (i % 13 == 0 or not hand >> (i - 1) & 1))


def lead_tricks(masks: np.ndarray, declarer: Seat, strain: str, pos: Pos = Pos()) -> np.ndarray:
    """``out[lead, deal]``: the tricks ``declarer`` takes double dummy in ``strain`` after each opening lead
    (the top card of each of the leader's sequences: :func:`sequence_tops` of the leader's hand on the first
    deal, which the script predeals), solved in batches of the solver's size (its threads spread them)."""
    try:
        from endplay.dds import solve_all_boards
    except ImportError:
        batch_solver(pos, "leadtricks")
        raise
    from endplay.types import Deal as EndplayDeal, Player

    from dealer.cards.card import Card

    leader = declarer.lho
    rows = np.asarray(masks, dtype=np.uint64).tolist()
    leads = sequence_tops(int(rows[0][int(leader)])) if rows else ()
    out = np.zeros((len(leads), len(rows)), dtype=np.int64)
    denom = _denom(strain)
    for first in range(0, len(rows), SOLVER_TABLES):
        deals = []
        for row in rows[first:first + SOLVER_TABLES]:
            deal = EndplayDeal(masks_to_pbn(row))
            deal.first, deal.trump = Player(int(leader)), denom
            deals.append(deal)
        for j, board in enumerate(solve_all_boards(deals)):
            defence = {Card.parse(str(card)).index: int(tricks) for card, tricks in board}
            out[:, first + j] = [13 - defence[i] for i in leads]
    return out


def lead_names(node: Node, masks: np.ndarray) -> list[str]:
    """The names of the opening leads of the ``leadtricks`` in ``node`` (``SA``...), from the first deal."""
    from dealer.cards.card import CARDS

    first = next(n for n in walk_once(node) if isinstance(n, LeadTricks))
    hand = int(np.asarray(masks, dtype=np.uint64)[0, int(first.seat.lho)]) if len(masks) else 0
    return [str(CARDS[i]) for i in sequence_tops(hand)]


def _pars(masks: np.ndarray, vulnerable: str, pos: Pos, what: str) -> list[Any]:
    """Each deal's par (endplay's list of par contracts, with its score), ``vulnerable`` one of ``none``, ``ns``,
    ``ew``, ``both``, north-south bidding first."""
    tables = solved_tables(masks, STRAINS, pos, what)
    from endplay.dds import par
    from endplay.types import Player, Vul

    vul = {"none": Vul.none, "ns": Vul.ns, "ew": Vul.ew, "both": Vul.both}[vulnerable]
    return [par(table, vul, Player.north) for table in tables]


def par_contracts(masks: np.ndarray, vulnerable: str = "none", pos: Pos = Pos()) -> list[str]:
    """Each deal's par contract as DealerV2's ``parcontract`` writes it (``' 4H  by NS none'``: the level in two
    places, the strain of ``NSHDC``, ``*`` for a doubled sacrifice, the declarer (``N E S W``, or ``NS``/``EW``
    when either of the side may declare it) and the vulnerability), north-south bidding first."""
    from endplay.types import Penalty

    out = []
    for contracts in _pars(masks, vulnerable, pos, "parcontract"):
        found = list(contracts)  # passed out: one contract of level 0
        first = found[0]
        seat = "NESW"[int(first.declarer)]
        # a contract either of a side may declare comes as two: the same contract, by each (endplay yields
        # the second seat twice)
        if len(found) > 1 and (found[1].level, found[1].denom) == (first.level, first.denom) and \
                int(found[1].declarer) % 2 == int(first.declarer) % 2:
            seat = "NS" if int(first.declarer) % 2 == 0 else "EW"
        doubled = "*" if first.penalty != Penalty.passed else " "
        out.append(f"{first.level:2d}{'SHDCN'[int(first.denom)]}{doubled} by {seat} {vulnerable}")
    return out


def par_scores(masks: np.ndarray, side: str, vulnerable: str = "none", pos: Pos = Pos()) -> np.ndarray:
    """Each deal's par score, double dummy, from ``side``'s view (``NS`` or ``EW``), with ``vulnerable``
    (``none``, ``ns``, ``ew``, ``both``), north-south bidding first (:class:`~dealer.lang.expr.Par`)."""
    sign = 1 if side == "NS" else -1  # the solver's score is north-south's
    return np.array([sign * int(p.score) for p in _pars(masks, vulnerable, pos, "par")], dtype=np.int64)
