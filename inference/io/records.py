"""Real deals with their play: PBN and LIN records, read and checked.

A :class:`PlayRecord` is one table result: the deal, contract, declarer, the
auction, and the cards played in order (up to a claim). Readers check every
card against the deal (the right seat on turn, the card not played twice,
suit followed) and report a bad record as a :class:`~inference.errors.RecordError`
naming file, board and trick; they never skip one silently.

Real-world quirks handled (see ``../shared/corpus/README.md``):

* PBN: ``%`` lines, ``;`` and ``{}`` comments, tags without quotes, tabs,
  lowercase cards, ``=n=`` note references, ``$n`` NAGs, ``!``/``?``
  suffixes, ``-``/``+`` for cards not played (the play stops at the first
  one in play order), ``*``; ``#``/``##`` inheritance; and records that omit
  Deal/Board/Dealer/Vulnerable/Event to inherit them from the previous record
  (rpbridge.net exports).
* rpbridge.net's rotated play rows: after a trick in which a lower trump was
  played after a higher one, its exporter took the last trump as the winner
  and laid out later rows from that wrong leader. When the standard reading
  puts a card in the wrong hand, the reader tries that reading (the card
  order in each row is right, only the columns' seats are wrong) and, if it
  makes the whole play legal, uses it and marks the record ``rotated-rows``.
* LIN: ``md`` with three hands (the fourth is the rest), ranks in either
  order, lowercase ``pc`` cards, ``mc`` claims (also in mid-trick), ``pg``
  page breaks, ``an``/``nt`` comments; declarer from the auction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

from dealer import Card, CardSet, Deal, DealerError, PartialDeal, Seat
from dealer.checks import read_text

from inference.rules.contract import Contract, Strain
from inference.errors import InvalidArgumentError, InvalidContractError, RecordError
from inference.io.pbn_games import PbnGame, pbn_games
from inference.rules.trick import Fault, Irregularity, Trick, irregularity, play_order, trick_winner

#: The largest PBN or LIN file read (split bigger archives: 32 MiB holds about 100,000 records).
MAX_RECORD_FILE_BYTES = 32 * 2 ** 20

T = TypeVar("T")

__all__ = ["MAX_RECORD_FILE_BYTES", "PlayRecord", "Skipped", "AuctionRecord", "read_records", "read_auctions", "read_pbn",
           "read_lin", "parse_calls", "contract_from_auction", "file_items", "pbn_vulnerability"]

#: A record's vulnerability, as PBN (``None``, ``NS``, ``EW``, ``All``) or LIN (o n e b) writes it, in PBN.
_VULNERABLE = {"o": "None", "0": "None", "-": "None", "none": "None", "love": "None", "n": "NS", "ns": "NS",
               "e": "EW", "ew": "EW", "b": "All", "both": "All", "all": "All"}


def pbn_vulnerability(text: str) -> str | None:
    """A record's vulnerability as PBN's ``Vulnerable`` tag writes it, or None when it is unknown.

    >>> pbn_vulnerability("b"), pbn_vulnerability("NS"), pbn_vulnerability("")
    ('All', 'NS', None)
    """
    return _VULNERABLE.get(text.strip().lower())


@dataclass(frozen=True)
class PlayRecord:
    """One table result with its play, checked legal against the deal."""

    source: str
    index: int  # 1-based position of the record in its file
    board: str
    deal: Deal
    contract: Contract
    declarer: Seat
    play: tuple[Card, ...]
    dealer: Seat | None = None
    vulnerable: str = ""
    calls: tuple[str, ...] = ()
    claim: int | None = None  # declarer's claimed total of tricks (LIN mc)
    result: int | None = None  # PBN Result tag
    quirk: str = ""
    explanations: tuple[str | None, ...] = ()  # per call: its alert or explanation text (LIN an|, PBN note), or None
    players: tuple[str, ...] = ()  # the players' names by seat, N E S W (PBN North...; LIN pn), if the record says

    @property
    def label(self) -> str:
        return f"{self.source}, board {self.board} (record {self.index})"

    @property
    def complete(self) -> bool:
        return len(self.play) == 52


@dataclass(frozen=True)
class AuctionRecord:
    """One record's deal and auction, its play unread (:func:`read_auctions`; for the auction's calibration)."""

    source: str
    index: int
    board: str
    deal: Deal
    dealer: Seat
    vulnerable: str
    calls: tuple[str, ...]
    explanations: tuple[str | None, ...]
    declarer: str = ""  # the Declarer tag, if any (see inference.auction.context.omitted_passes)
    players: tuple[str, ...] = ()  # the players' names by seat, N E S W, if the record says


@dataclass(frozen=True)
class Skipped:
    """A record read but not replayable, with why: passed out, or no play recorded (not an error)."""

    source: str
    index: int
    board: str
    reason: str


_CALL_BID = re.compile(r"^([1-7])\s*(NT|N|S|H|D|C|♠|♥|♦|♣)$", re.IGNORECASE)


def parse_calls(tokens: Sequence[str]) -> list[str]:
    """Normalise auction tokens: ``Pass``, ``X``, ``XX``, bids like ``1NT``/``4S``; ``AP`` becomes three passes."""
    calls: list[str] = []
    for raw in tokens:
        tok = raw.strip().rstrip("!?").upper()
        if not tok or tok.startswith("=") or tok.startswith("$") or tok in ("*", "-", "+"):
            continue
        if tok in ("AP",):
            calls.extend(["Pass"] * 3)
            continue
        if tok in ("P", "PASS"):
            calls.append("Pass")
        elif tok in ("X", "D", "DBL", "DOUBLE"):
            calls.append("X")
        elif tok in ("XX", "R", "RDBL", "REDOUBLE"):
            calls.append("XX")
        else:
            m = _CALL_BID.match(tok)
            if not m:
                raise ValueError(f"invalid call {raw!r}")
            strain = Strain.parse(m.group(2))
            calls.append(f"{m.group(1)}{strain.name}")
    return calls


def _explained(tokens: Sequence[str], notes: "dict[str, str] | None") -> tuple[str | None, ...]:
    """Per call of ``parse_calls(tokens)``, its explanation: a PBN ``=n=`` note (``notes``) or LIN's
    ``an|`` text (a token ``\x00an:text`` after its call)."""
    out: list[str | None] = []
    for tok in tokens:
        ref = notes is not None and re.fullmatch(r"=\d+=", tok.strip())
        note = tok[4:] if tok.startswith("\x00an:") else (notes or {}).get(tok.strip().strip("=")) if ref else None
        if note is None and not ref:
            out.extend([None] * len(parse_calls([tok])))
        elif out and note and note.strip():
            out[-1] = note.strip()
    return tuple(out)


def contract_from_auction(dealer: Seat, calls: Sequence[str]) -> tuple[Contract, Seat] | None:
    """Contract and declarer from an auction (None if passed out or no bid)."""
    last_bid = None
    last_bidder = None
    doubled = 0
    for i, call in enumerate(calls):
        seat = dealer.after(i)
        if call == "Pass":
            continue
        if call == "X":
            doubled = 1
        elif call == "XX":
            doubled = 2
        else:
            last_bid, last_bidder, doubled = call, seat, 0
    if last_bid is None or last_bidder is None:
        return None
    contract = Contract(int(last_bid[0]), Strain.parse(last_bid[1:]), doubled)
    for i, call in enumerate(calls):
        seat = dealer.after(i)
        if seat in (last_bidder, last_bidder.partner) and call not in ("Pass", "X", "XX") \
                and Strain.parse(call[1:]) == contract.strain:
            return contract, seat
    return contract, last_bidder  # pragma: no cover - the last bidder named the strain


def _check_play(deal: Deal, declarer: Seat, strain: Strain, order: Sequence[tuple[Seat, Card]],
                where: str, lines: Sequence[int] = ()) -> None:
    """Each card from the seat on turn, dealt to it, not played twice, following suit (the rules of :mod:`.trick`)."""
    hands = list(deal.masks)
    played = [0, 0, 0, 0]
    trick = Trick(declarer.lho)
    for n, (seat, card) in enumerate(order):
        if trick.complete:
            trick = trick.next_trick()
        fault = irregularity(trick, card, seat=seat, hands=hands, played=played)
        if fault is not None:
            row = n // 4
            raise RecordError(f"{_at(where, lines[row] if row < len(lines) else None)}, trick {row + 1}: "
                              f"{_fault_text(fault, trick)}")
        hands[seat] &= ~card.bit
        played[seat] |= card.bit
        trick = trick.add(card, strain)


def _fault_text(fault: Irregularity, trick: Trick) -> str:
    """The record reader's words for a card the rules of play refuse (every hand is known)."""
    card, seat = fault.card, fault.seat
    if fault.fault is Fault.OUT_OF_TURN:
        return f"{card} given to {seat.name_long}, but it is {fault.on_turn.name_long}'s turn"
    if fault.fault is Fault.PLAYED_BEFORE:
        return f"{card} played twice"
    if fault.fault is Fault.NOT_HELD:
        holder = fault.other.name_long if fault.other is not None else "another hand"
        return f"{card} belongs to {holder}, not {seat.name_long} (wrong player or order)"
    led = trick.led_suit
    assert fault.fault is Fault.REVOKE and led is not None
    return (f"{seat.name_long} revokes: plays {card} on a {led.name_long[:-1]} lead holding "
            f"{fault.holding.to_text()}")


def _pbn_play_order(rows: list[list[str]], first: Seat, declarer: Seat, strain: Strain, deal: Deal,
                    rotated: bool) -> list[tuple[Seat, Card]]:
    """Cards in play order from fixed-column rows (column k is seat first+k); stop at the first unknown."""
    order: list[tuple[Seat, Card]] = []
    leader = declarer.lho
    writer_leader = leader  # the exporter's idea of the leader (rotated-rows reading)
    for row in rows:
        row = row + ["-"] * (4 - len(row))
        start = ((writer_leader if rotated else leader) - first) % 4
        trick: list[tuple[Seat, Card]] = []
        writer_seats: list[Seat] = []
        for j in range(4):
            col = (start + j) % 4
            token = row[col]
            seat = leader.after(j)
            if token in ("-", "+"):
                return order
            card = Card.parse(token)
            order.append((seat, card))
            trick.append((seat, card))
            writer_seats.append(writer_leader.after(j))
        winner = trick_winner(trick, strain)
        if rotated:
            idx = [s for s, _ in trick].index(winner)
            writer_leader = writer_seats[idx]
            trump = strain.trump
            if trump is not None:
                trumps = [i for i, (_, c) in enumerate(trick) if c.suit == trump]
                fell = any(trick[b][1].rank < trick[a][1].rank for a in trumps for b in trumps if b > a)
                if fell:
                    writer_leader = writer_seats[trumps[-1]]
        leader = winner
    return order


def _card_tokens(lines: list[tuple[int, str]]) -> list[str]:
    out = []
    for _, line in lines:
        for tok in line.split():
            if tok.startswith("=") or tok.startswith("$"):
                continue
            tok = tok.rstrip("!?")
            if tok:
                out.append(tok)
    return out


_INHERITED = ("Deal", "Board", "Dealer", "Vulnerable", "Event")


def read_pbn(text: str, source: str = "<pbn>", *, record: int | None = None
             ) -> Iterator["PlayRecord | Skipped | RecordError"]:
    """Every record of a PBN text: a PlayRecord, a Skipped (passed out, no play) or a RecordError.

    ``record``: only the record at that 1-based position (the others' tags are read, for what
    it inherits from them, but not their deals or play).
    """
    _check_record(record)
    yield from (item for item in _pbn_items(text, source, record, False) if not isinstance(item, AuctionRecord))


def _pbn_items(text: str, source: str, record: int | None, auctions: bool
               ) -> Iterator["PlayRecord | Skipped | AuctionRecord | RecordError"]:
    previous: dict[str, str] = {}
    sticky: dict[str, str] = {}
    for index, game in enumerate(pbn_games(text), start=1):
        tags = dict(game.tags)
        for name, value in list(tags.items()):
            if value == "#":
                tags[name] = previous.get(name, "")
            elif value.startswith("##"):
                tags[name] = value[2:]
                sticky[name] = value[2:]
        for name, value in sticky.items():
            tags.setdefault(name, value)
        if "Deal" not in tags and previous.get("Deal"):
            for name in _INHERITED:
                if name not in tags and name in previous:
                    tags[name] = previous[name]
        previous = dict(tags)
        if record is not None and index != record:
            continue
        board = tags.get("Board", "?")
        where = f"{source}, board {board} (record {index}, line {game.first_line})"
        try:
            yield _pbn_record(tags, game, source, index, board, where, auctions=True) if auctions else \
                _pbn_record(tags, game, source, index, board, where)
        except RecordError as exc:
            yield exc
        except (DealerError, ValueError) as exc:
            yield RecordError(f"{where}: {exc}")
        if index == record:
            return


def file_items(read: "Callable[[str], Iterator[T]]", path: str) -> "Iterator[T | RecordError]":
    """``read(path)``'s items, and a file that cannot be read at all (not text, too large) as one
    :class:`RecordError` among them: a corpus run counts it and goes on."""
    try:
        yield from read(path)
    except RecordError as exc:
        yield exc


def _check_record(record: int | None) -> None:
    if record is not None and (isinstance(record, bool) or not isinstance(record, int) or record < 1):
        raise InvalidArgumentError(f"invalid record {record!r}: expected a 1-based position in the file")


def _at(where: str, line: int | None) -> str:
    """A record's place with the line of the part at fault in place of the record's first line."""
    return where if line is None else re.sub(r"line \d+\)", f"line {line})", where)


def _pbn_play_rows(game: PbnGame, where: str) -> tuple[list[list[str]], list[int]]:
    """The Play section's rows of four tokens (up to ``*``), each card checked (``-`` and ``+`` kept), and the
    line of each row's first card."""
    tokens: list[tuple[str, int]] = []
    for number, text in game.sections["Play"]:
        found = _card_tokens([(number, text)])
        if "*" in found:
            tokens += [(tok, number) for tok in found[:found.index("*")]]
            break
        tokens += [(tok, number) for tok in found]
    rows = [[tok for tok, _ in tokens[i:i + 4]] for i in range(0, len(tokens), 4)]
    lines = [tokens[i][1] for i in range(0, len(tokens), 4)]
    for r, row in enumerate(rows, start=1):
        for tok in row:
            if tok not in ("-", "+"):
                try:
                    Card.parse(tok)
                except DealerError as exc:
                    raise RecordError(f"{_at(where, lines[r - 1])}, trick {r}: {exc}") from None
    return rows, lines


def _pbn_record(tags: dict[str, str], game: PbnGame, source: str, index: int, board: str,
                where: str, auctions: bool = False) -> "PlayRecord | Skipped | AuctionRecord":
    deal_text = tags.get("Deal")
    if not deal_text:
        raise RecordError(f"{where}: no Deal tag (and none to inherit)")
    try:
        deal = PartialDeal.from_pbn(deal_text).completed().to_deal()
    except DealerError as exc:
        raise RecordError(f"{_at(where, game.tag_lines.get('Deal'))}: Deal {deal_text!r}: {exc}") from None
    dealer = Seat.parse(tags["Dealer"]) if tags.get("Dealer", "").strip() in tuple("NESWnesw") and tags.get("Dealer") else None
    calls: list[str] = []
    notes: tuple[str | None, ...] = ()
    if "Auction" in game.sections and tags.get("Auction"):
        try:
            calls = parse_calls(_card_tokens(game.sections["Auction"]))
        except ValueError as exc:
            raise RecordError(f"{_at(where, game.tag_lines.get('Auction'))}: Auction: {exc}") from None
        if game.notes:
            notes = _explained([t for _, line in game.sections["Auction"] for t in line.split()], game.notes)
        if dealer is None or auctions:
            dealer = Seat.parse(tags["Auction"])
    if auctions:
        return AuctionRecord(source, index, board, deal, dealer or Seat.N, tags.get("Vulnerable", ""), tuple(calls), notes,
                             (tags.get("Declarer") or "").strip().lstrip("^"), _pbn_players(tags))
    contract_text = (tags.get("Contract") or "").strip()
    declarer_text = (tags.get("Declarer") or "").strip().lstrip("^")
    if contract_text.lower() in ("pass", "passed", "p"):
        return Skipped(source, index, board, "passed out")
    contract: Contract | None = None
    declarer: Seat | None = None
    if contract_text and contract_text != "?":
        try:
            contract = Contract.parse(contract_text)
        except InvalidContractError as exc:
            raise RecordError(f"{_at(where, game.tag_lines.get('Contract'))}: {exc}") from None
    if declarer_text and declarer_text != "?":
        declarer = _tag_seat(tags, "Declarer", declarer_text, game, where)
    if (contract is None or declarer is None) and calls and tags.get("Auction"):
        found = contract_from_auction(Seat.parse(tags["Auction"]), calls)
        if found is None:
            return Skipped(source, index, board, "passed out")
        contract = contract or found[0]
        declarer = declarer if declarer is not None else found[1]
    if "Play" not in game.sections or not tags.get("Play"):
        return Skipped(source, index, board, "no play recorded")
    if contract is None or declarer is None:
        raise RecordError(f"{where}: play recorded but no contract or declarer (no Contract/Declarer tag "
                          "and no auction to take them from)")
    first = _tag_seat(tags, "Play", tags["Play"].strip(), game, where)
    if first != declarer.lho:
        raise RecordError(f"{_at(where, game.tag_lines.get('Play'))}, trick 1: the play starts with {first.name_long}, but the opening leader "
                          f"is declarer's LHO, {declarer.lho.name_long}")
    rows, lines = _pbn_play_rows(game, where)
    order = _pbn_play_order(rows, first, declarer, contract.strain, deal, rotated=False)
    quirk = ""
    try:
        _check_play(deal, declarer, contract.strain, order, where, lines)
    except RecordError as standard:
        rotated = _pbn_play_order(rows, first, declarer, contract.strain, deal, rotated=True)
        try:
            _check_play(deal, declarer, contract.strain, rotated, where, lines)
        except RecordError:
            raise standard from None
        order, quirk = rotated, "rotated-rows"
    result = None
    if (tags.get("Result") or "").strip().isdigit():
        result = int(tags["Result"].strip())
    return PlayRecord(source, index, board, deal, contract, declarer, tuple(c for _, c in order), dealer,
                      tags.get("Vulnerable", ""), tuple(calls), None, result, quirk, notes, _pbn_players(tags))


def _tag_seat(tags: dict[str, str], name: str, text: str, game: PbnGame, where: str) -> Seat:
    """The seat a tag names (``Declarer``, ``Play``); a bad one is an error at the tag's line."""
    try:
        return Seat.parse(text)
    except DealerError as exc:
        raise RecordError(f"{_at(where, game.tag_lines.get(name))}: {name} {text!r}: {exc}") from None


def _pbn_players(tags: dict[str, str]) -> tuple[str, ...]:
    names = tuple((tags.get(seat) or "").strip() for seat in ("North", "East", "South", "West"))
    return names if any(names) else ()


_LIN_DEALER = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}


def read_lin(text: str, source: str = "<lin>", *, record: int | None = None
             ) -> Iterator["PlayRecord | Skipped | RecordError"]:
    """Every record (one per ``md``) of a LIN text; ``record``: only the record at that 1-based position."""
    _check_record(record)
    yield from (item for item in _lin_items(text, source, record, False) if not isinstance(item, AuctionRecord))


def _lin_items(text: str, source: str, record: int | None, auctions: bool
               ) -> Iterator["PlayRecord | Skipped | AuctionRecord | RecordError"]:
    flat = text.replace("\r", "").replace("\n", "")
    parts = flat.split("|")
    pairs = [(parts[i].strip().lower(), parts[i + 1] if i + 1 < len(parts) else "") for i in range(0, len(parts) - 1, 2)]
    records: list[list[tuple[str, str]]] = []
    pending_label, names = "", ""
    for key, value in pairs:
        if key == "qx":
            pending_label = value
            continue
        names = value if key == "pn" else names
        if key == "md":
            records.append([("label", pending_label), ("players", names)])
            pending_label = ""
        if records:
            records[-1].append((key, value))
    for index, rec in enumerate(records, start=1):
        if record is not None and index != record:
            continue
        try:
            yield _lin_record(rec, source, index, auctions=True) if auctions else _lin_record(rec, source, index)
        except RecordError as exc:
            yield exc
        if index == record:
            return


def _lin_hand(text: str) -> CardSet:
    """A LIN hand: suit letters each followed by its ranks (any order); a suit letter alone is a void."""
    cards = []
    suit = None
    for ch in text:
        if ch.upper() in "SHDC":
            suit = ch.upper()
        elif suit is None:
            raise DealerError(f"invalid hand {text!r}: expected a suit letter before {ch!r}")
        else:
            cards.append(Card.parse(suit + ch))
    return CardSet(cards)


def _lin_record(rec: list[tuple[str, str]], source: str, index: int, auctions: bool = False
                ) -> "PlayRecord | Skipped | AuctionRecord":
    label = dict(rec).get("label", "") or ""
    ah = next((v for k, v in rec if k == "ah"), "")
    board = ah.replace("Board", "").strip() or label or str(index)
    where = f"{source}, board {board} (record {index})"
    md = next(v for k, v in rec if k == "md")
    if not md or md[0] not in _LIN_DEALER:
        raise RecordError(f"{where}: md {md!r}: expected a dealer digit 1-4 then the hands S,W,N,E")
    dealer = _LIN_DEALER[md[0]]
    hands_text = md[1:].split(",")
    while len(hands_text) < 4:
        hands_text.append("")
    seats = (Seat.S, Seat.W, Seat.N, Seat.E)
    hands: list[CardSet | None] = [None, None, None, None]
    try:
        for seat, text in zip(seats, hands_text[:4]):
            if text.strip():
                hands[seat] = _lin_hand(text.strip())
        deal = PartialDeal(hands).completed().to_deal()
    except DealerError as exc:
        raise RecordError(f"{where}: md {md!r}: {exc}") from None
    try:
        calls = parse_calls([v for k, v in rec if k == "mb"])
    except ValueError as exc:
        raise RecordError(f"{where}: auction: {exc}") from None
    vul = next((v for k, v in rec if k == "sv"), "")
    notes = _explained([v if k == "mb" else "\x00an:" + v for k, v in rec if k in ("mb", "an")], None) \
        if any(k == "an" for k, _ in rec) else ()
    if auctions:
        return AuctionRecord(source, index, board, deal, dealer, vul, tuple(calls), notes, players=_lin_players(rec))
    found = contract_from_auction(dealer, calls) if calls else None
    plays = [v for k, v in rec if k == "pc"]
    claims = [v for k, v in rec if k == "mc"]
    if found is None:
        if plays:
            raise RecordError(f"{where}: cards played but the auction names no contract")
        return Skipped(source, index, board, "passed out" if len(calls) >= 4 else "no contract")
    contract, declarer = found
    if not plays:
        return Skipped(source, index, board, "no play recorded")
    cards: list[Card] = []
    for n, token in enumerate(plays):
        try:
            cards.append(Card.parse(token.strip()))
        except DealerError as exc:
            raise RecordError(f"{where}, trick {n // 4 + 1}: {exc}") from None
    order = list(play_order(cards, declarer.lho, contract.strain))
    # the seat on turn is by construction; check the card was dealt to it and suit was followed
    _check_play(deal, declarer, contract.strain, order, where)
    claim = None
    if claims and claims[-1].strip().isdigit():
        claim = int(claims[-1].strip())
    return PlayRecord(source, index, board, deal, contract, declarer, tuple(c for _, c in order), dealer,
                      vul, tuple(calls), claim, None, "", notes, _lin_players(rec))


def _lin_players(rec: list[tuple[str, str]]) -> tuple[str, ...]:
    """The players by seat (N E S W) from the last ``pn`` before the record: S W N E, then a vugraph's closed
    room (``qx|c..``) as four more."""
    names = [n.strip() for n in dict(rec).get("players", "").split(",")]
    if len(names) >= 8 and dict(rec).get("label", "")[:1].lower() == "c":
        names = names[4:]
    return (names[2], names[3], names[0], names[1]) if len(names) >= 4 and any(names[:4]) else ()


def read_auctions(path: "str | Path") -> Iterator["AuctionRecord | RecordError"]:
    """The deal and auction of every record of a ``.pbn`` or ``.lin`` file, play unread; or a RecordError."""
    text, source, lin = _read_text(path)
    for item in (_lin_items if lin else _pbn_items)(text, source, None, True):
        assert isinstance(item, (AuctionRecord, RecordError))
        yield item


def _read_text(path: "str | Path") -> tuple[str, str, bool]:
    p = Path(path)
    text = read_text(p, "record file", RecordError, limit=MAX_RECORD_FILE_BYTES)
    ext = p.suffix.lower()
    return text, str(p), ext == ".lin" or (ext != ".pbn" and bool(re.search(r"(^|\|)md\|", text)))


def read_records(path: "str | Path", *, record: int | None = None) -> Iterator["PlayRecord | Skipped | RecordError"]:
    """Records of a ``.pbn`` or ``.lin`` file (by extension; content sniffed otherwise).

    ``record``: only the item of the record at that 1-based position in the file (the ``index`` of
    a PlayRecord or Skipped, the ``record N`` of an error), found without reading the other
    records' deals and play; nothing if the file has fewer records.
    """
    _check_record(record)
    text, source, lin = _read_text(path)
    yield from (read_lin if lin else read_pbn)(text, source, record=record)

