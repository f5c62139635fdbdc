"""The auction's likelihood of each defender's dealt HCP and suit lengths: graded, and calibrated on real hands.

A book's claims say where a caller's HCP and lengths lie, each claim weighed by one measured likelihood
ratio (true against false). That says nothing of where within a range the hand lies, real callers stray
from it, and the claims of one defender's several calls overlap (his pass and his later pass say much the
same): multiplied as if independent, they say too much. This module weighs each defender's hand once, by
what his whole auction allows:

* his **key**: the HCP interval his claims leave (over a fixed sample of hands, :func:`defender_key`), his
  seat (declarer's left or right), and per suit the interval of its length, the suit's role in the auction
  (``m`` he bid it, ``p`` his partner, ``d`` declarer's side, ``-`` nobody, ``?`` unknown) and whether it is
  trumps;
* per key, counted on the calibration half: the defenders' true HCP (or length) against what a lawful
  layout would give when dummy is tabled (the law of 13 cards drawn from the 26 declarer does not see);
  their ratio, shrunk towards 1 by :data:`ALPHA` pseudo-records, is the likelihood of the auction given the
  HCP (or the length): :class:`Likelihood`.

In the weighted view (:meth:`~inference.state.play.PlayState.add_auction`), a defender's HCP weighs each
layout through one group of claims ``hcp(seat) == h`` (:attr:`~inference.exact.layouts.View.factors`) and
his lengths through per-holding weights; his calls' measured ratios are then not applied as well (nothing
counted twice). The claims themselves stay: their statuses, bounds and the agreement view are unchanged.
Weights are exact rationals (thousandths, none below 1/1000: no lawful layout is excluded).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from dealer import Seat
from dealer.cards.card import HCP_BY_INDEX

from inference.claims.features import Feature, Kind, evaluate, hand_values, holding_values
from inference.claims.inferences import Inference
from inference.claims.language import Claim, parse_claim
from inference.claims.weights import HoldingWeights
from inference.errors import InvalidArgumentError

__all__ = ["ALPHA", "SAMPLE_HANDS", "DENOMINATOR", "MAX_WEIGHT", "HCP_KEY", "LENGTH_KEY", "DefenderKey", "AuctionWeights",
           "Likelihood", "Tally", "defender_key", "bidder_role", "lawful_laws", "load_likelihood", "sample_digest",
           "shipped_likelihood"]

#: Pseudo-records that shrink a key's ratios towards 1 (a key seen rarely says little).
ALPHA = 20
#: Hands in the fixed sample a defender's claims are read over (:func:`defender_key`).
SAMPLE_HANDS = 40_000
#: The weights' common denominator (and the smallest weight, as its inverse).
DENOMINATOR = 1000
#: The largest weight a likelihood file may give (in thousandths: a million to one).
MAX_WEIGHT = 10 ** 9
#: The forms of the keys :func:`defender_key` writes (a likelihood's tables are refused with others).
HCP_KEY = re.compile(r"(lho|rho) (\d+-\d+|-)")
LENGTH_KEY = re.compile(r"(\d+-\d+|-) [mpd?-] [T-]")
#: The length of each 13-bit holding.
_LENGTH_OF = holding_values(Kind.LENGTH, 0, np.arange(1 << 13))


@lru_cache(maxsize=1)
def _sample() -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """The fixed sample of hands (52-bit masks, seeded), their HCP and their four suit lengths."""
    order = np.argsort(np.random.default_rng(20261127).random((SAMPLE_HANDS, 52)), axis=1)[:, :13]
    masks = (np.int64(1) << order.astype(np.int64)).sum(axis=1)
    lengths = tuple(hand_values(Feature.length(Seat.N, s), masks) for s in range(4))
    return masks, hand_values(Feature.hcp(Seat.N), masks), lengths


def sample_digest() -> str:
    """A short hash of the fixed sample of hands: a likelihood records the one its keys were read over (numpy's
    generator drawing other hands would make keys differ; the tests compare the shipped files' with this)."""
    import hashlib

    return hashlib.sha256(_sample()[0].astype("<i8").tobytes()).hexdigest()[:16]


@dataclass(frozen=True)
class DefenderKey:
    """What one defender's auction says, as the likelihood's tables look it up: an HCP key, four length keys."""

    hcp: str
    lengths: tuple[str, str, str, str]


def _interval(values: np.ndarray) -> str:
    return f"{int(values.min())}-{int(values.max())}"


def bidder_role(bids: Sequence[int] | None, suit: int, seat: Seat, declarer: Seat) -> str:
    """Who bid ``suit`` as ``seat`` sees it: ``m`` he, ``p`` partner, ``d`` declarer's side, ``-`` nobody, ``?``."""
    if bids is None:
        return "?"
    if bids[seat] >> suit & 1:
        return "m"
    if bids[seat.partner] >> suit & 1:
        return "p"
    return "d" if (bids[declarer] | bids[declarer.partner]) >> suit & 1 else "-"


def defender_key(claims: Sequence[Claim], seat: Seat, declarer: Seat, bids: Sequence[int] | None,
                 trump: int | None) -> DefenderKey:
    """The key of ``seat``'s auction: his claims (those that read his hand only) taken in order over the fixed
    sample of hands, a claim that no sampled hand meets with the earlier ones left out; the intervals of HCP and
    of each suit's length over the hands left (``-`` when no claim was read)."""
    masks, hcp, lengths = _sample()
    kept = np.ones(len(masks), dtype=bool)
    read = 0
    for claim in claims:
        if claim.seats() != {seat}:
            continue
        truth = evaluate(claim, lambda f: hand_values(f, masks), len(masks))
        if (kept & truth).any():
            kept &= truth
            read += 1
    side = "lho" if seat == declarer.lho else "rho"
    roles = [bidder_role(bids, s, seat, declarer) + (" T" if s == trump else " -") for s in range(4)]
    if not read:
        return DefenderKey(f"{side} -", tuple(f"- {r}" for r in roles))  # type: ignore[arg-type]
    return DefenderKey(f"{side} {_interval(hcp[kept])}",
                       tuple(f"{_interval(lengths[s][kept])} {roles[s]}" for s in range(4)))  # type: ignore[arg-type]


@lru_cache(maxsize=8)  # both defenders of a record share it
def lawful_laws(visible: int) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The law of a defender's HCP (38 values) and of each suit's length (14) when declarer sees ``visible``
    (26 cards, a 52-bit mask): 13 cards drawn from the 26 others (read-only arrays)."""
    unseen = [i for i in range(52) if not visible >> i & 1]
    n = len(unseen)
    if n != 26:
        raise InvalidArgumentError(f"expected 26 visible cards, got {52 - n}")
    ways = np.zeros((14, 38), dtype=object)
    ways[0, 0] = 1
    for i in unseen:
        v = HCP_BY_INDEX[i]
        ways[1:, v:] = ways[1:, v:] + ways[:-1, :38 - v]
    total = comb(n, 13)
    hcp = np.array([float(Fraction(int(x), total)) for x in ways[13]])
    per_suit = []
    for s in range(4):
        u = sum(1 for i in unseen if i // 13 == s)
        per_suit.append(np.array([comb(u, k) * comb(n - u, 13 - k) / total for k in range(14)]))
    for law in (hcp, *per_suit):
        law.setflags(write=False)
    return hcp, tuple(per_suit)


@dataclass
class Tally:
    """Per key: the defenders' true values counted, and what lawful layouts would give (the mutable fit)."""

    hcp: dict[str, np.ndarray] = field(default_factory=dict)
    hcp_lawful: dict[str, np.ndarray] = field(default_factory=dict)
    lengths: dict[str, np.ndarray] = field(default_factory=dict)
    lengths_lawful: dict[str, np.ndarray] = field(default_factory=dict)
    records: int = 0

    def add(self, key: DefenderKey, hcp: int, lengths: Sequence[int], visible: int) -> None:
        """Count one defender's hand under its key."""
        law_hcp, law_lengths = lawful_laws(visible)
        _bump(self.hcp, self.hcp_lawful, key.hcp, hcp, law_hcp)
        for s in range(4):
            _bump(self.lengths, self.lengths_lawful, key.lengths[s], lengths[s], law_lengths[s])

    def merge(self, other: "Tally") -> None:
        """Add another tally's counts (files counted apart)."""
        for mine, theirs in ((self.hcp, other.hcp), (self.hcp_lawful, other.hcp_lawful),
                             (self.lengths, other.lengths), (self.lengths_lawful, other.lengths_lawful)):
            for k, v in theirs.items():
                mine[k] = mine[k] + v if k in mine else v.copy()
        self.records += other.records


def _bump(counts: dict[str, np.ndarray], lawful: dict[str, np.ndarray], key: str, value: int, law: np.ndarray) -> None:
    if key not in counts:
        counts[key] = np.zeros(len(law))
        lawful[key] = np.zeros(len(law))
    counts[key][value] += 1
    lawful[key] += law


def _ratios(counts: np.ndarray, lawful: np.ndarray, alpha: float) -> tuple[int, ...]:
    """Thousandths of ``(count + alpha law / n) / (law (1 + alpha / n))`` per value (1 where no layout has it)."""
    n = max(float(counts.sum()), 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = (counts + alpha * lawful / n) / (lawful * (1 + alpha / n))
    w = np.where(lawful > 1e-12, w, 1.0)
    return tuple(max(1, int(round(x * DENOMINATOR))) for x in w)


@dataclass(frozen=True)
class AuctionWeights:
    """What a heard auction weighs the weighted view's layouts by: per defender one group of ``hcp == h`` claims
    and his lengths' per-holding weights; ``replaces`` names the inferences whose measured ratios it stands for."""

    factors: tuple[tuple[tuple[Claim, Fraction], ...], ...]
    holdings: HoldingWeights
    replaces: frozenset[str]
    keys: tuple[tuple[Seat, DefenderKey], ...]


@dataclass(frozen=True)
class Likelihood:
    """Per key, the auction's likelihood of a defender's HCP (38 thousandths) and of a suit's length (14)."""

    book: str
    hcp: Mapping[str, tuple[int, ...]]
    lengths: Mapping[str, tuple[int, ...]]
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.book, str) or not self.book:
            raise InvalidArgumentError(f"invalid likelihood book {self.book!r}: expected the name of a book")
        if not isinstance(self.provenance, Mapping):
            raise InvalidArgumentError(f"invalid likelihood provenance {self.provenance!r}: expected a mapping")
        for what, tables, size, form in (("HCP", self.hcp, 38, HCP_KEY), ("length", self.lengths, 14, LENGTH_KEY)):
            if not isinstance(tables, Mapping):
                raise InvalidArgumentError(f"invalid likelihood {what} table {tables!r:.80}: expected a mapping of "
                                           "keys to weights")
            for key, row in tables.items():
                if not isinstance(key, str) or not form.fullmatch(key):
                    raise InvalidArgumentError(f"invalid {what} key {key!r}: not the form defender_key writes")
                if (not isinstance(row, (tuple, list)) or len(row) != size
                        or any(isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= MAX_WEIGHT for w in row)):
                    raise InvalidArgumentError(f"invalid {what} weights for {key!r}: expected {size} integers from 1 "
                                               f"to {MAX_WEIGHT} (thousandths), got {row!r:.200}")

    @classmethod
    def fitted(cls, tally: Tally, book: str, provenance: Mapping[str, Any] | None = None,
               alpha: float = ALPHA) -> "Likelihood":
        """The likelihood a tally gives, shrunk by ``alpha`` pseudo-records."""
        return cls(book, {k: _ratios(v, tally.hcp_lawful[k], alpha) for k, v in sorted(tally.hcp.items())},
                   {k: _ratios(v, tally.lengths_lawful[k], alpha) for k, v in sorted(tally.lengths.items())},
                   dict(provenance or {}, alpha=alpha, records=tally.records, sample=sample_digest()))

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (the file shipped as ``data/auction/<book>.likelihood.json``)."""
        return {"book": self.book, "denominator": DENOMINATOR, "provenance": dict(self.provenance),
                "hcp": {k: list(v) for k, v in self.hcp.items()},
                "lengths": {k: list(v) for k, v in self.lengths.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "<likelihood>") -> "Likelihood":
        """Read the JSON form back; :class:`~inference.errors.InvalidArgumentError` names what is wrong."""
        try:
            if not isinstance(data, Mapping):
                raise ValueError(f"a JSON {type(data).__name__}, not an object with the fields book, denominator, "
                                 "hcp and lengths")
            missing = [k for k in ("book", "denominator", "hcp", "lengths") if k not in data]
            if missing:
                raise ValueError(f"missing field {missing[0]!r}")
            if type(data["denominator"]) is not int or data["denominator"] != DENOMINATOR:
                raise ValueError(f"denominator {data['denominator']!r}, expected {DENOMINATOR}")
            for name in ("hcp", "lengths"):
                for key in data[name] if isinstance(data[name], Mapping) else ():
                    _check_key(name, key)
            hcp, lengths = (({k: tuple(v) if isinstance(v, list) else v for k, v in data[name].items()}
                             if isinstance(data[name], Mapping) else data[name]) for name in ("hcp", "lengths"))
            return cls(data["book"], hcp, lengths, data.get("provenance", {}))
        except (TypeError, ValueError, AttributeError, InvalidArgumentError) as exc:
            raise InvalidArgumentError(f"invalid likelihood {where}: {exc}") from None

    def as_json(self) -> str:
        """The JSON form as text, a key's weights on one line."""
        text = json.dumps(self.as_dict(), indent=1)
        return re.sub(r"\[\n\s*([0-9,\s]*?)\s*\]", lambda m: "[" + ", ".join(m.group(1).replace(",", " ").split()) + "]",
                      text) + "\n"

    def save(self, path: "str | Path") -> None:
        """Write the JSON form."""
        Path(path).write_text(self.as_json(), encoding="utf-8")

    def weights(self, inferences: Sequence[Inference], declarer: Seat, viewer: Seat, bids: Sequence[int] | None,
                trump: int | None) -> AuctionWeights | None:
        """The weights of the concealed defenders' auctions (None when no key of theirs is in the tables)."""
        factors: list[tuple[tuple[Claim, Fraction], ...]] = []
        tables: dict[tuple[Seat, int], tuple[np.ndarray, int]] = {}
        replaces: set[str] = set()
        keys: list[tuple[Seat, DefenderKey]] = []
        for seat in (declarer.lho, declarer.rho):
            if seat == viewer:
                continue
            own = [i for i in inferences if i.by == seat]
            key = defender_key([i.claims(viewer, declarer)[0] for i in own], seat, declarer, bids, trump)
            hcp = self.hcp.get(key.hcp)
            laws = [law for law in (self.lengths.get(k) for k in key.lengths) if law is not None]
            if hcp is None or len(laws) < 4:  # a key not met in the fit: his calls' ratios stay
                continue
            factors.append(tuple((parse_claim(f"hcp({seat.name}) == {h}", viewer=viewer, declarer=declarer),
                                  Fraction(w, DENOMINATOR)) for h, w in enumerate(hcp) if w != DENOMINATOR))
            for s, law in enumerate(laws):
                tables[(seat, s)] = (np.array(law, dtype=np.int64)[_LENGTH_OF], DENOMINATOR)
            replaces.update(i.name for i in own)
            keys.append((seat, key))
        if not keys:
            return None
        return AuctionWeights(tuple(f for f in factors if f), HoldingWeights.from_arrays(tables), frozenset(replaces),
                              tuple(keys))


#: The ranges of a key (``lho 0-10``, ``4-13 m T``): each low end at most its high end, within HCP or a suit's cards.
_RANGE = re.compile(r"(\d+)-(\d+)")


def _check_key(table: str, key: object) -> None:
    """Refuse a key whose range is reversed or out of reach (a key the fit never writes)."""
    top = 37 if table == "hcp" else 13
    for low, high in _RANGE.findall(str(key)):
        if not int(low) <= int(high) <= top:
            raise ValueError(f"{table} key {key!r}: the range {low}-{high} is not within 0-{top}")


def load_likelihood(path: "str | Path") -> Likelihood:
    """A likelihood from its JSON file."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidArgumentError(f"cannot read the likelihood {str(p)!r}: {exc}") from None
    return Likelihood.from_dict(data, repr(str(p)))


@lru_cache(maxsize=8)
def shipped_likelihood(book: str) -> Likelihood | None:
    """The likelihood shipped for a book of that name (``data/auction/<book>.likelihood.json``), or None."""
    from importlib import resources

    res = resources.files("inference") / "data" / "auction" / f"{book}.likelihood.json"
    if not res.is_file():
        return None
    try:
        data = json.loads(res.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InvalidArgumentError(f"cannot read the likelihood shipped for {book!r}: {exc}") from None
    return Likelihood.from_dict(data, f"{book}.likelihood.json")
