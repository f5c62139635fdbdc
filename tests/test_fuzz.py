"""Fuzzing every parser and the protocol: any input is either read or refused with the project's own error.

Hypothesis feeds each reader text (random characters, and mutations of valid input: bytes cut,
swapped, repeated, nested); the only exceptions allowed out are the packages' roots
(:class:`~dealer.errors.DealerError`, :class:`~inference.errors.InferenceError`), each a ``ValueError``
with a one-line message. The protocol answers every line with one JSON reply and keeps its state.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer import Card, CardSet, Deal, DealerError
from dealer.checks import decode_text
from dealer.errors import InvalidFileError
from dealer.spec.language import parse_script
from dealer.cards.shapes import ShapeSet
from dealer.spec.spec import DealSpec
from inference.claims.language import one_fewer, parse_claim
from inference.errors import InferenceError
from inference.apps.protocol import serve
from inference.io.records import read_lin, read_pbn
from inference.apps.scenario import parse_scenario
from tests.strategies import examples

ROOT = Path(__file__).resolve().parent.parent
SPEC = "predeal north SAK\nopener = hcp(south) >= 12 && shape(south, any 4432 + any 5332)\ncondition opener ^^ hearts(north) >= 5"
CLAIM = "(hearts(LHO) >= 5 || hcp(RHO, spades) > 3) && !hascard(partner, SA) ^^ longest(LHO, 2) >= 9"
PBN = (ROOT / "scenarios" / "records" / "example.pbn").read_text()
SCENARIO = (ROOT / "scenarios" / "seed" / "02-07-five-card-ending.toml").read_text()
LIN = ("pn|S,W,N,E|st||md|3SAKQ2HAK2DAK2CA32,S543HQJ3DQJ3CKQJ4,SJT9H8765D8765CT9,|rh||ah|Board 1|sv|o|"
       "mb|2N|mb|p|mb|3N|mb|p|mb|p|mb|p|pg||pc|SJ|pc|SQ|pc|S3|pc|S6|pg||mc|9|")

_ALPHABET = st.characters(codec="utf-8", exclude_categories=("Cs",))
_SYMBOLS = "()!&|^<>=+-*,.#/ \n\t0123456789NESWHDCAKQJTnorthsuwe[]\"|:;xX"


def _mutations(seed: str) -> st.SearchStrategy[str]:
    """Valid text cut, spliced, repeated or wrapped: near misses are where parsers break."""
    n = len(seed)
    cut = st.tuples(st.integers(0, n), st.integers(0, n)).map(lambda ab: seed[:min(ab)] + seed[max(ab):])
    insert = st.tuples(st.integers(0, n), st.text(alphabet=_SYMBOLS, max_size=20)).map(
        lambda it: seed[:it[0]] + it[1] + seed[it[0]:])
    wrap = st.integers(0, 400).map(lambda k: "(" * k + seed + ")" * k)
    repeat = st.integers(1, 50).map(lambda k: " && ".join([seed] * k))
    return st.one_of(cut, insert, wrap, repeat, st.text(alphabet=_SYMBOLS, max_size=200),
                     st.text(alphabet=_ALPHABET, max_size=100))


def _read_or_refuse(read: Callable[[str], Any], text: str) -> None:
    try:
        read(text)
    except (DealerError, InferenceError) as exc:
        assert isinstance(exc, ValueError), type(exc)
        message = str(exc)
        assert "\n" not in message, message[:300]
        assert len(message) < 2_000, len(message)


FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(_mutations(SPEC))
def test_dealer_scripts(text: str) -> None:
    _read_or_refuse(lambda t: parse_script(t), text)
    _read_or_refuse(DealSpec.parse, text)


@FUZZ
@given(_mutations(CLAIM))
def test_claims_and_their_fallbacks(text: str) -> None:
    _read_or_refuse(lambda t: parse_claim(t, viewer="S", declarer="S"), text)
    _read_or_refuse(one_fewer, text)


@FUZZ
@given(_mutations("AKQ.JT9.8765.432"))
def test_cards_hands_deals_and_shapes(text: str) -> None:
    _read_or_refuse(CardSet.parse, text)
    _read_or_refuse(Card.parse, text)
    _read_or_refuse(lambda t: Deal.from_pbn("N:" + t), text)
    _read_or_refuse(ShapeSet.parse, text)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations(PBN))
def test_pbn_records(text: str) -> None:
    _read_or_refuse(lambda t: list(read_pbn(t, "<fuzz>")), text)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations(LIN))
def test_lin_records(text: str) -> None:
    _read_or_refuse(lambda t: list(read_lin(t, "<fuzz>")), text)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations(SCENARIO))
def test_scenarios(text: str) -> None:
    _read_or_refuse(lambda t: parse_scenario(t, "<fuzz>"), text)


@FUZZ
@given(st.binary(max_size=300))
def test_file_bytes(raw: bytes) -> None:
    _read_or_refuse(lambda b: decode_text(b.encode("latin-1"), "<fuzz>", InvalidFileError), raw.decode("latin-1"))


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                     max_leaves=12)
_COMMANDS = ["new", "inference", "lead", "auction", "dummy", "play", "undo", "bounds", "statuses", "odds", "sample",
             "state", "bogus", 7, None]
_FIELDS = ["hand", "declarer", "contract", "viewer", "name", "by", "claim", "tag", "fallbacks", "group", "card",
           "agreement", "early", "seat", "to", "view", "n", "seed", "id", "x", "dealer", "calls", "book", "vulnerable",
           "explanations"]
_REQUESTS = st.builds(lambda cmd, fields: {"cmd": cmd, **fields}, st.sampled_from(_COMMANDS),
                      st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=4))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_REQUESTS.map(json.dumps), st.text(alphabet=_SYMBOLS, max_size=40)), max_size=8))
def test_the_protocol_never_dies_and_keeps_its_state(lines: list[str]) -> None:
    """Random requests between a valid start and a state check: one reply each, the state where it was."""
    start = [json.dumps({"cmd": "new", "hand": "KQ.QJ2.K87.AJ543", "declarer": "S", "contract": "3NT"}),
             json.dumps({"cmd": "play", "card": "CQ"}), json.dumps({"cmd": "dummy", "hand": "A5.K98765.A4.K76"})]
    bad = [line.replace("\n", " ") for line in lines]
    out = io.StringIO()
    serve(io.StringIO("\n".join(start + bad + [json.dumps({"cmd": "state"})]) + "\n"), out)
    replies = [json.loads(r) for r in out.getvalue().splitlines()]
    sent = [line for line in start + bad if line.strip()] + ["state"]
    assert len(replies) <= len(sent) and all(isinstance(r.get("ok"), bool) for r in replies)
    if any(r.get("bye") for r in replies):
        return
    assert len(replies) == len(sent)
    for r in replies:
        assert r["ok"] or ("\n" not in r["error"] and r["kind"] != "InternalError"), r
    final = replies[-1]
    if all(not r["ok"] for r in replies[len(start):-1]):  # only rejected requests: the state is untouched
        assert (final["ply"], final["to_play"]) == (2, "N")
