"""Arguments as callers give them (text or values) turned into the engine's values, or a clear error.

Each function accepts the value itself or its text, and raises
:class:`~inference.errors.InvalidArgumentError` naming the argument (``what``) and the bad value.

>>> seat_argument("W", "leader")
<Seat.W: 3>
>>> cards_argument("-", "dummy"), str(contract_argument("4S")), voids_argument({"E": "hearts, C"})
(CardSet('...'), '4S', [0, 10, 0, 0])
"""

from __future__ import annotations

from typing import Any, Mapping

from dealer import CardSet, InvalidCardError, InvalidHandError, Seat, Suit
from dealer.checks import shown

from inference.claims.language import seat_word
from inference.rules.contract import Contract, Strain
from inference.errors import InvalidArgumentError
from inference.claims.inferences import Inference

__all__ = ["seat_argument", "cards_argument", "contract_argument", "voids_argument", "won_argument",
           "inference_argument"]

_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def seat_argument(value: "Seat | str", what: str) -> Seat:
    """A seat from a :class:`~dealer.Seat` or its letter or name (a bare number is not a seat)."""
    if not isinstance(value, (Seat, str)):
        raise InvalidArgumentError(f"{what}: expected a seat such as N, E, S, W, got {shown(value)}")
    try:
        return Seat.parse(value)
    except ValueError as exc:
        raise InvalidArgumentError(f"{what}: {exc}") from None


def cards_argument(value: "CardSet | str", what: str) -> CardSet:
    """A set of cards from a :class:`~dealer.CardSet` or its text (PBN holding or card list; ``-`` or blank: none)."""
    if isinstance(value, CardSet):
        return value
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{what}: expected cards as text such as 'AKQ.JT9.876.5432', got {shown(value)}")
    try:
        return CardSet.parse(value) if str(value).strip() not in ("", "-") else CardSet()
    except (InvalidHandError, InvalidCardError) as exc:
        raise InvalidArgumentError(f"{what}: {exc}") from None


def contract_argument(value: "Contract | Strain | str") -> Contract:
    """A contract from a :class:`~inference.rules.contract.Contract`, a strain (at the one level) or its text."""
    if isinstance(value, Contract):
        return value
    if isinstance(value, Strain):
        return Contract(1, value)
    if not isinstance(value, str):
        raise InvalidArgumentError(f"contract: expected text such as '4S' or 'NT', got {shown(value)}")
    text = value.strip()
    if text and text[0].isdigit():
        return Contract.parse(text)
    return Contract(1, Strain.parse(text))


def voids_argument(voids: "Mapping[Seat | str, str] | None") -> list[int]:
    """The suits each seat has shown out of (4-bit masks, North first), from ``{seat: "S H"}``.

    Suits are letters (``"SH"``, ``"S, H"``) or names (``"spades hearts"``).
    """
    masks = [0, 0, 0, 0]
    if voids is not None and not isinstance(voids, Mapping):
        raise InvalidArgumentError(f"voids: expected a mapping such as {{'E': 'H'}}, got {shown(voids)}")
    for s, suits in (voids or {}).items():
        if not isinstance(suits, str):
            raise InvalidArgumentError(f"voids[{s}]: expected suits as text such as 'S H', got {shown(suits)}")
        for word in suits.replace(",", " ").split():
            parts = [word] if word.lower() in _SUIT_WORDS else list(word)
            for ch in parts:
                try:
                    masks[seat_argument(s, "voids")] |= 1 << Suit.parse(ch)
                except ValueError as exc:
                    raise InvalidArgumentError(f"voids[{s}]: {exc}") from None
    return masks


def won_argument(value: Any, tricks: int) -> tuple[int, int]:
    """Tricks won so far by (N-S, E-W): two whole numbers >= 0 adding up to the ``tricks`` played
    (``(0, 0)``, the default, is taken as not told)."""
    if not isinstance(value, (tuple, list)) or len(value) != 2 or any(isinstance(v, bool) or not isinstance(v, int)
                                                                      for v in value):
        raise InvalidArgumentError(f"won: expected two whole numbers (N-S, E-W), got {shown(value)}")
    if tuple(value) != (0, 0) and (min(value) < 0 or sum(value) != tricks):
        raise InvalidArgumentError(f"won: {value[0]} + {value[1]} tricks won must be >= 0 each and add up to the "
                                   f"{tricks} tricks played")
    return (value[0], value[1])


def inference_argument(value: "Inference | Mapping[str, Any]", viewer: Seat, declarer: Seat) -> Inference:
    """An :class:`~inference.claims.inferences.Inference`, or one built from its fields; ``by`` may be a seat word
    as the viewer speaks (``LHO``, ``partner``, ``we``...)."""
    if isinstance(value, Inference):
        return value
    if not isinstance(value, Mapping):
        raise InvalidArgumentError(f"expected an Inference or a mapping of its fields, got {shown(value)}")
    data = dict(value)
    if isinstance(data.get("by"), str):
        try:
            data["by"] = seat_word(data["by"], viewer, declarer)
        except ValueError as exc:
            raise InvalidArgumentError(f"invalid inference {data.get('name', '?')!r}: by: {exc}") from None
    return Inference(**data)
