"""Where a call stands in its auction, and whether a book's rule matches it.

A call's :class:`CallContext` is what a rule can ask: the caller, its position from the dealer,
the calls from the opening bid up to it (as tokens: ``P``, ``X``, ``XX``, ``1C`` ... ``7N``), and
whether the caller's side is vulnerable. :func:`match` binds a rule's suit variables or says it
does not apply.

>>> ctx = contexts(Seat.N, ["1S", "Pass", "2H"], "None")[2]
>>> ctx.caller, ctx.position, ctx.after
(<Seat.S: 2>, 3, ('1S', 'P'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from dealer import Seat, Suit

from inference.errors import InvalidArgumentError
from inference.io.records import contract_from_auction, parse_calls
from inference.rules.contract import Strain
from inference.auction.book import CONTEXT_FIELDS, Rule

__all__ = ["CallContext", "call_token", "contexts", "vulnerable_sides", "match", "placeholders", "omitted_passes",
           "suits_bid", "illegal_call", "auction_declarer"]

_STRAIN_RANK = {"C": 0, "D": 1, "H": 2, "S": 3, "N": 4}
_SUIT_OF = {"S": Suit.S, "H": Suit.H, "D": Suit.D, "C": Suit.C}
_VARIABLES = {"M": ("S", "H"), "m": ("D", "C"), "x": ("S", "H", "D", "C"), "y": ("S", "H", "D", "C")}


def call_token(call: str) -> str:
    """A record's call as a book token: ``Pass`` -> ``P``, ``1NT`` -> ``1N``; X, XX and bids unchanged.

    >>> call_token("Pass"), call_token("3NT"), call_token("2h")
    ('P', '3N', '2H')
    """
    t = call.strip().upper()
    if t in ("PASS", "P"):
        return "P"
    if t in ("X", "XX"):
        return t
    if len(t) >= 2 and t[0] in "1234567" and t[1:] in ("NT", "N", "S", "H", "D", "C"):
        return t[:2]
    raise InvalidArgumentError(f"invalid call {call!r}: expected Pass, X, XX or a bid such as 1NT")


def vulnerable_sides(vulnerability: str) -> frozenset[Seat]:
    """The seats whose side is vulnerable, from PBN (``None``, ``NS``, ``EW``, ``All``) or LIN (o n e b).

    >>> sorted(s.name for s in vulnerable_sides("NS"))
    ['N', 'S']
    """
    v = (vulnerability or "").strip().lower()
    if v in ("", "none", "-", "o", "0", "love", "nil"):
        return frozenset()
    if v in ("ns", "n", "n-s"):
        return frozenset({Seat.N, Seat.S})
    if v in ("ew", "e", "e-w"):
        return frozenset({Seat.E, Seat.W})
    if v in ("all", "both", "b"):
        return frozenset(Seat)
    raise InvalidArgumentError(f"invalid vulnerability {vulnerability!r}: expected None, NS, EW or All")


@dataclass(frozen=True)
class CallContext:
    """One call in its auction: who made it, from which position, after which calls."""

    index: int  # 0-based position in the auction
    caller: Seat
    position: int  # 1 = the dealer
    call: str  # the call as a token
    after: tuple[str, ...]  # tokens from the opening bid up to the call
    vulnerable: bool
    min_level: int  # the lowest level the call's strain could be bid at (0 for P, X, XX)

    @property
    def side(self) -> str:
        """The caller's side: ``unopened`` (nobody has bid yet), ``opener`` (the opening side), or ``other``."""
        if not self.after:
            return "unopened"
        return "opener" if len(self.after) % 2 == 0 else "other"  # the opening bid was len(after) calls ago

    @property
    def round(self) -> int:
        """The round of the auction the call is in: 1, 2, or 3 for the third and later."""
        return min(self.index // 4 + 1, 3)

    @property
    def contested(self) -> bool:
        """Whether the side that did not open has called (other than pass) since the opening bid."""
        return any(t != "P" for j, t in enumerate(self.after) if j % 2 == 1)

    @property
    def strain_bid_by(self) -> str:
        """Who bid this bid's strain earlier in the auction: ``caller``, else ``partner``, else ``opponents``, else
        ``none`` (``none`` too for a pass, double or redouble)."""
        if not self.call[0].isdigit():
            return "none"
        n, strain = len(self.after), self.call[1]
        by = [j for j in range(n) if self.after[j][0].isdigit() and self.after[j][1] == strain]
        for who, parity in (("caller", 0), ("partner", 2)):
            if any((n - j) % 4 == parity for j in by):
                return who
        return "opponents" if by else "none"

    @property
    def partner_notrump(self) -> bool:
        """Whether partner's last call was a notrump bid (after which a suit bid is often conventional)."""
        return len(self.after) >= 2 and self.after[-2][0].isdigit() and self.after[-2][1] == "N"

    @property
    def caller_bid(self) -> bool:
        """Whether the caller has bid (a level and a strain, not pass or a double) earlier in the auction."""
        return any(self.after[j][0].isdigit() for j in range(len(self.after) - 4, -1, -4))

    @property
    def asked(self) -> str:
        """What partner's last call asked, when it is the question of a slam convention and the opponents passed
        it: ``blackwood`` (4NT after the side bid a suit, its last bid not notrump: not quantitative),
        ``gerber`` (4C straight over the caller's 1NT or 2NT opening), else ``none``."""
        n = len(self.after)
        if n < 4 or self.after[-1] != "P" or self.after[-2] not in ("4N", "4C"):
            return "none"
        ours = [self.after[j] for j in range(n % 2, n - 2, 2) if self.after[j][0].isdigit()]  # the side's bids
        if self.after[-2] == "4C":
            return "gerber" if n == 4 and self.after[0] in ("1N", "2N") and self.after[1] == "P" else "none"
        return "blackwood" if ours and ours[-1][1] != "N" else "none"

    @property
    def trump(self) -> str | None:
        """The last suit the caller's side bid (S, H, D or C) before the call, or None: the suit a reply to
        Roman Key Card Blackwood counts the king of."""
        n = len(self.after)
        suits = [self.after[j][1] for j in range(n % 2, n, 2)
                 if self.after[j][0].isdigit() and self.after[j][1] != "N"]
        return suits[-1] if suits else None

    @property
    def first_bidder(self) -> bool:
        """Whether the caller made his side's first bid (the opening bid, or his side's first overcall)."""
        n = len(self.after)  # the caller's side called at the positions of n's parity, the caller every fourth
        first = next((j for j in range(n % 2, n, 2) if self.after[j][0].isdigit()), None)
        return first is not None and (n - first) % 4 == 0


def _min_level(last_bid: str | None, strain: str) -> int:
    if last_bid is None:
        return 1
    level, last = int(last_bid[0]), last_bid[1]
    return level if _STRAIN_RANK[strain] > _STRAIN_RANK[last] else level + 1


def contexts(dealer: Seat, calls: Sequence[str], vulnerability: str = "") -> list[CallContext]:
    """The context of every call of an auction."""
    vul = vulnerable_sides(vulnerability)
    tokens = [call_token(c) for c in calls]
    out: list[CallContext] = []
    opened: int | None = None
    last_bid: str | None = None
    for i, token in enumerate(tokens):
        caller = dealer.after(i)
        bid = token[0].isdigit()
        minimum = _min_level(last_bid, token[1]) if bid else 0
        after = tuple(tokens[opened:i]) if opened is not None else ()
        out.append(CallContext(i, caller, i % 4 + 1, token, after, caller in vul, minimum))
        if bid:
            last_bid = token
            if opened is None:
                opened = i
    return out


def _bind(pattern: str, token: str, binding: dict[str, str]) -> bool:
    if pattern == "*":
        return True
    if pattern == "B":
        return token[0].isdigit()
    if len(pattern) == 2 and pattern[1] in _VARIABLES:  # a level (or * for any) and a suit variable
        if not token[0].isdigit() or pattern[0] not in ("*", token[0]) or token[1] == "N":
            return False
        var, suit = pattern[1], token[1]
        if suit not in _VARIABLES[var]:
            return False
        if var in binding:
            return binding[var] == suit
        if suit in binding.values():
            return False  # different letters bind different suits
        binding[var] = suit
        return True
    return pattern == token


def _fits(wanted: object, ctx: CallContext, name: str) -> bool:
    """Whether the context's ``name`` is what a rule asks (None: anything, not computed; a tuple: one of its
    values)."""
    if wanted is None:
        return True
    have = getattr(ctx, name)
    return have in wanted if isinstance(wanted, tuple) else bool(have == wanted)


def match(rule: Rule, ctx: CallContext) -> dict[str, str] | None:
    """The rule's suit variables bound by the call in its context (letter -> S/H/D/C), or None.

    A rule with a ``side`` or an ``asked`` matches by the call's context (its side, round, contested or not,
    whether the caller has bid before, whether he made his side's first bid, who bid its strain before, whether
    partner last bid notrump, what partner's last call asked) and its call, whatever came before; else the calls
    since the opening bid must match its ``after`` one by one.
    """
    if ctx.position not in rule.seat:
        return None
    if rule.general:
        if rule.side not in (None, ctx.side):
            return None
        if not all(_fits(getattr(rule, name), ctx, name) for name in CONTEXT_FIELDS):
            return None
    elif len(rule.after) != len(ctx.after):
        return None
    if rule.vulnerable is not None and rule.vulnerable != ctx.vulnerable:
        return None
    if rule.jump is not None and (not ctx.call[0].isdigit() or (int(ctx.call[0]) > ctx.min_level) != rule.jump):
        return None
    binding: dict[str, str] = {}
    patterns = (rule.call,) if rule.general else (*rule.after, rule.call)
    tokens = (ctx.call,) if rule.general else (*ctx.after, ctx.call)
    for pattern, token in zip(patterns, tokens):
        if not _bind(pattern, token, binding):
            return None
    return binding


def placeholders(binding: dict[str, str], params: dict[str, int | str], trump: str | None = None
                 ) -> dict[str, object]:
    """The values a rule's templates are filled with: each bound suit (``x``: ``spades``; ``x_letter``:
    ``S``), the other major or minor (``other_M``, ``other_m``), the side's last suit (``trump``, when the
    context has one: :attr:`CallContext.trump`) and the book's params."""
    values: dict[str, object] = dict(params)
    if trump is not None:
        values["trump"] = _SUIT_OF[trump].name_long
        values["trump_letter"] = trump
    for var, letter in binding.items():
        values[var] = _SUIT_OF[letter].name_long
        values[f"{var}_letter"] = letter
    for var, pair in (("M", ("S", "H")), ("m", ("D", "C"))):
        if var in binding:
            other = pair[1] if binding[var] == pair[0] else pair[0]
            values[f"other_{var}"] = _SUIT_OF[other].name_long
    return values


def illegal_call(dealer: Seat, calls: Sequence[str]) -> tuple[int, str] | None:
    """The first call the laws do not allow, as (index, why), or None: a bid not higher than the last, a
    double not of an opponent's bid, a redouble not of an opponent's double, a call after the auction ended
    (a pass after it is let be: some records' operators add one).

    >>> illegal_call(Seat.N, ["1S", "1H"]), illegal_call(Seat.N, ["1S", "X", "XX", "2C"])
    ((1, 'a bid must be higher than 1S'), None)
    """
    top: str | None = None  # the last bid
    last: tuple[str, Seat] | None = None  # the last call other than a pass, and its caller
    passes = 0
    for i, token in enumerate(call_token(c) for c in calls):
        caller = dealer.after(i)
        if passes >= (3 if last else 4) and token != "P":
            return i, "the auction has ended"
        if token == "P":
            passes += 1
            continue
        by_opponent = last is not None and last[1] not in (caller, caller.partner)
        if token == "X" and not (by_opponent and last is not None and last[0][0].isdigit()):
            return i, "a double must follow an opponent's bid"
        if token == "XX" and not (by_opponent and last is not None and last[0] == "X"):
            return i, "a redouble must follow an opponent's double"
        if token[0].isdigit():
            if top is not None and (token[0], _STRAIN_RANK[token[1]]) <= (top[0], _STRAIN_RANK[top[1]]):
                return i, f"a bid must be higher than {top}"
            top = token
        last, passes = (token, caller), 0
    return None


def omitted_passes(dealer: Seat, calls: Sequence[str], declarer: "Seat | str | None") -> int:
    """How many leading passes a recorded auction lacks, as its declarer says: 0 to 3.

    rpbridge.net's PBN exports drop an auction's leading passes (dealer N passes, E opens: the
    auction reads ``1NT ...`` from N). When the auction as written names another declarer than the
    record's, and prepending one to three passes makes it name the record's, that many were dropped.

    >>> omitted_passes(Seat.N, ["1NT", "Pass", "Pass", "Pass"], "E"), omitted_passes(Seat.N, ["1NT"], "E")
    (1, 0)
    """
    if declarer is None or declarer == "" or len(calls) < 4 or list(calls[-3:]) != ["Pass"] * 3:
        return 0  # only a finished auction names a declarer to compare with
    want = Seat.parse(declarer) if isinstance(declarer, str) else declarer
    for k in range(4):
        found = contract_from_auction(dealer, ["Pass"] * k + list(calls))
        if found is None or found[1] == want:
            return k
    return 0


def suits_bid(dealer: Seat | None, calls: Sequence[str], declarer: Seat | None = None
              ) -> tuple[int, int, int, int] | None:
    """Per seat (N E S W), a 4-bit mask of the suits it bid in the auction (bit 0: spades); None when the
    auction is not known (no dealer, no calls, a call that cannot be read). Leading passes a record dropped
    are put back as ``declarer`` says (:func:`~inference.auction.context.omitted_passes`)."""
    if dealer is None:
        return None
    try:
        tokens = parse_calls(calls)
    except ValueError:
        return None
    if not tokens:
        return None
    bids = [0, 0, 0, 0]
    for k, call in enumerate(tokens, start=omitted_passes(dealer, tokens, declarer)):
        if call[0] in "1234567" and call[1] in "SHDC":
            bids[dealer.after(k)] |= 1 << "SHDC".index(call[1])
    return bids[0], bids[1], bids[2], bids[3]


def auction_declarer(dealer: Seat, calls: Sequence[str], declarer: Seat, strain: Strain | None = None,
                     restore_passes: bool = False) -> Seat | None:
    """Check that a finished auction names the declarer of the contract played (only the declarer: a contract
    may be given by its strain alone, or left at its default, notrump): None when it does as written (or is
    not finished, or cannot be read: the reading says why), ``declarer`` when leading passes the record
    dropped must be put back and ``restore_passes`` allows it (rpbridge's exports: a record's contract is
    given in full, so the auction put back must end in its ``strain`` too); else
    :class:`~inference.errors.InvalidArgumentError`, naming the contract the auction ends in.

    >>> auction_declarer(Seat.N, ["1NT", "Pass", "Pass", "Pass"], Seat.N) is None
    True
    >>> auction_declarer(Seat.N, ["1NT", "Pass", "Pass", "Pass"], Seat.E, restore_passes=True)
    <Seat.E: 1>
    """
    try:
        tokens = parse_calls(calls)
    except (ValueError, TypeError, AttributeError):
        return None  # the reading names the bad call
    if len(tokens) < 4 or tokens[-3:] != ["Pass"] * 3 or illegal_call(dealer, tokens) is not None:
        return None  # not finished (no contract yet), or not legal (the reading names the call)
    found = contract_from_auction(dealer, tokens)
    if found is None:
        raise InvalidArgumentError(f"the auction {' '.join(tokens)!r} is passed out: no contract, where "
                                   f"{declarer.name} declares one")
    if found[1] == declarer:
        return None
    dropped = omitted_passes(dealer, tokens, declarer)
    if dropped and strain is not None and found[0].strain != strain:
        dropped = 0  # passes put back name the declarer, not the strain played: not a dropped-pass record
    if dropped and restore_passes:
        return declarer
    hint = (f" (a record that dropped {dropped} leading pass{'es' if dropped > 1 else ''}? restore_passes=True puts "
            "them back)") if dropped else ""
    raise InvalidArgumentError(f"the auction {' '.join(tokens)!r} from dealer {dealer.name} ends in {found[0]} by "
                               f"{found[1].name}, but {declarer.name} declares the contract played{hint}")
