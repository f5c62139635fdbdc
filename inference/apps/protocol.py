"""The engine behind a JSON-lines protocol, for bots in any language (the ``kibitz serve`` command).

Each line on stdin is a JSON object with a ``cmd``; each answer is one JSON line on stdout with
``"ok": true`` and the results, or ``"ok": false``, an ``"error"`` message and its ``"kind"`` (the
exception class); a request's ``"id"``, if any, is echoed. A rejected request leaves the state as it
was, and the session goes on whatever a request holds: a line longer than :data:`MAX_LINE_BYTES`,
JSON nested too deeply, a field of the wrong type (a bool is not a number, a number is not a seat or
a card), an unknown field, or a fault of the engine itself (``"kind": "InternalError"``). Fields are
checked strictly, request by request, before the state is touched. Commands:

==========  ===========================================================================================
new         ``hand``, ``declarer``, optional ``contract`` (default NT), ``viewer`` (default declarer) and
            ``defence_model`` (``default``: the shipped model of real defenders; a model file; ``none``)
inference   an inference: ``name``, ``by`` (LHO, RHO, partner, N...), ``claim``, optional ``tag``,
            ``action``, ``kind``, ``fallbacks``, ``group``
lead        read a lead: ``card``, optional ``agreement`` (default fourth-best-nt)
auction     read an auction: ``dealer``, ``calls`` (space-separated), ``book``, optional ``vulnerable``,
            ``explanations`` (a list: per call, its text or ""), ``likelihood`` (``default``: the one
            shipped with the book; a likelihood file; ``none``: each call's measured ratio) and
            ``restore_passes`` (put back the leading passes a record dropped; a finished auction must name
            the declarer of the contract played)
dummy       ``hand``; optional ``early`` (before the opening lead)
play        ``card``, optional ``seat`` (must be the seat on turn)
undo        optional ``to`` (a ply; default: the last event)
bounds      optional ``view``: lawful (default) or agreement
statuses    every inference's status
odds        optional ``view``: lawful (default), agreement or weighted
sample      optional ``n`` (default 1), ``seed`` and ``view``; returns PBN deal strings
state       whose turn, trick, ply, concealed seats
quit        end the session
==========  ===========================================================================================
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterator, TextIO

from dealer import DealerError

from dealer.checks import shown

from inference.errors import InferenceError, InvalidArgumentError, OutOfOrderError

if TYPE_CHECKING:
    from inference.state.play import PlayState

__all__ = ["COMMANDS", "MAX_LINE_BYTES", "MAX_SAMPLE", "Session", "serve"]

#: The longest request line answered (a longer one is skipped to its end and refused).
MAX_LINE_BYTES = 1_000_000
#: The most layouts one ``sample`` request may ask for.
MAX_SAMPLE = 100_000

#: The protocol's commands, in the order the module's table documents them.
COMMANDS = ("new", "inference", "lead", "auction", "dummy", "play", "undo", "bounds", "statuses", "odds", "sample", "state",
            "quit")


class Session:
    """One client's play state and the commands on it."""

    def __init__(self) -> None:
        self.state: PlayState | None = None

    def _need(self) -> PlayState:
        if self.state is None:
            raise OutOfOrderError("no hand yet: send {\"cmd\": \"new\", ...} first")
        return self.state

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request (without ``ok`` and ``id``); an error leaves the state as it was."""
        cmd = request.get("cmd")
        if not isinstance(cmd, str) or cmd not in COMMANDS:
            raise InvalidArgumentError(f"unknown command {shown(cmd)}: expected one of {', '.join(COMMANDS)}")
        handler: Callable[[dict[str, Any]], dict[str, Any]] = getattr(self, f"cmd_{cmd}")
        return handler(_fields(cmd, request))

    def cmd_new(self, r: dict[str, Any]) -> dict[str, Any]:
        """``new``: a fresh play state from ``hand``, ``declarer``, ``contract``, ``viewer`` and ``defence_model``
        (a shipped model's name, ``default``; a model file; or ``none``)."""
        from inference.state.play import PlayState

        model = None if r["defence_model"] in (None, "none") else r["defence_model"]
        self.state = PlayState(r["hand"], declarer=r["declarer"], contract=r["contract"], viewer=r["viewer"],
                               defence_model=model)
        return self.cmd_state({})

    def cmd_inference(self, r: dict[str, Any]) -> dict[str, Any]:
        """``inference``: add an inference; the statuses it changed."""
        update = self._need().add_inference({k: v for k, v in r.items() if v is not None or k == "group"})
        return {"statuses": [sc.as_dict() for sc in update.statuses]}

    def cmd_lead(self, r: dict[str, Any]) -> dict[str, Any]:
        """``lead``: read the opening lead ``card`` by an ``agreement``; the statuses it changed."""
        from inference.apps.scenario import LeadEntry, add_entry

        entry = LeadEntry(card=r["card"], agreement=r["agreement"], group=r["group"])
        updates = add_entry(entry, self._need(), "<serve>", None)
        return {"statuses": [sc.as_dict() for u in updates for sc in u.statuses]}

    def cmd_auction(self, r: dict[str, Any]) -> dict[str, Any]:
        """``auction``: read ``calls`` with a ``book``; the inferences added and the statuses they got."""
        calls = r["calls"].split() if isinstance(r["calls"], str) else r["calls"]
        update = self._need().add_auction(r["dealer"], calls, book=r["book"],
                                          vulnerability=r["vulnerable"],
                                          explanations=[e or None for e in r["explanations"] or ()],
                                          likelihood=None if r["likelihood"] == "none" else r["likelihood"],
                                          restore_passes=r["restore_passes"])
        return {"event": update.event if update else None,
                "statuses": [sc.as_dict() for sc in update.statuses] if update else []}

    def cmd_dummy(self, r: dict[str, Any]) -> dict[str, Any]:
        """``dummy``: table dummy's ``hand``; the bounds it changed."""
        update = self._need().table_dummy(r["hand"], early=r["early"])
        return {"changes": [c.as_dict() for c in update.changes]}

    def cmd_play(self, r: dict[str, Any]) -> dict[str, Any]:
        """``play``: the ``card`` played (by ``seat``, if given); the bounds and statuses it changed."""
        update = self._need().play(r["card"], r["seat"])
        return {"trick": update.trick, "seat": update.seat.name if update.seat is not None else None,
                "changes": [c.as_dict() for c in update.changes],
                "statuses": [sc.as_dict() for sc in update.statuses]}

    def cmd_undo(self, r: dict[str, Any]) -> dict[str, Any]:
        """``undo``: back to ply ``to`` (default: before the last event); the state then."""
        state = self._need()
        if r["to"] is not None:
            state.undo_to(r["to"])
        else:
            state.pop()
        return self.cmd_state({})

    def cmd_bounds(self, r: dict[str, Any]) -> dict[str, Any]:
        """``bounds``: the lawful or agreement bounds of the concealed seats."""
        state = self._need()
        if r["view"] == "lawful":
            return {"bounds": state.bounds().as_dict()}
        bounds, events = state.agreement_bounds()
        return {"bounds": bounds.as_dict(), "decisions": [e.as_dict() for e in events]}

    def cmd_statuses(self, r: dict[str, Any]) -> dict[str, Any]:
        """``statuses``: every inference's status, fallback level and note."""
        return {"statuses": {n: {"status": st.status.value, "level": st.level, "note": st.note}
                             for n, st in self._need().statuses().items()}}

    def cmd_odds(self, r: dict[str, Any]) -> dict[str, Any]:
        """``odds``: the exact odds in a ``view``."""
        return {"odds": self._need().odds(r["view"]).as_json()}

    def cmd_sample(self, r: dict[str, Any]) -> dict[str, Any]:
        """``sample``: ``n`` layouts drawn with ``seed`` in a ``view``, as PBN deal strings."""
        from dealer.cards.pbnio import masks_to_pbn

        masks = self._need().sample_masks(r["n"], r["seed"], r["view"])
        return {"deals": [masks_to_pbn(row) for row in masks.tolist()]}

    def cmd_state(self, r: dict[str, Any]) -> dict[str, Any]:
        """``state``: whose turn, the trick, the ply, the concealed seats."""
        state = self._need()
        return {"ply": state.ply, "to_play": state.to_play.name, "trick": state.trick_number,
                "concealed": [s.name for s in state.concealed()], "dummy_tabled": state.snapshot.dummy_tabled}

    def cmd_quit(self, r: dict[str, Any]) -> dict[str, Any]:
        """``quit``: end the session."""
        return {"bye": True}


_TEXT, _BOOL, _WHOLE = "text", "true or false", "a whole number"
_CALLS = "calls as text ('1H P 2H') or a list of calls"
_VIEWS = ("lawful", "agreement", "weighted")
#: Each command's fields: name -> (kind, required, default, choices or a (lo, hi) range).
_FIELDS: dict[str, dict[str, tuple[str, bool, Any, Any]]] = {
    "new": {"hand": (_TEXT, True, None, None), "declarer": (_TEXT, True, None, None),
            "contract": (_TEXT, False, "NT", None), "viewer": (_TEXT, False, None, None),
            "defence_model": (_TEXT, False, "default", None)},
    "inference": {"name": (_TEXT, True, None, None), "by": (_TEXT, True, None, None),
                  "claim": (_TEXT, True, None, None), "tag": (_TEXT, False, None, None),
                  "action": (_TEXT, False, None, None), "kind": (_TEXT, False, None, None),
                  "fallbacks": ("a list of claims", False, None, None), "group": (_TEXT, False, None, None)},
    "lead": {"card": (_TEXT, True, None, None), "agreement": (_TEXT, False, "fourth-best-nt", None),
             "group": (_TEXT, False, "lead", None)},
    "auction": {"dealer": (_TEXT, True, None, None), "calls": (_CALLS, True, None, None),
                "book": (_TEXT, True, None, None), "vulnerable": (_TEXT, False, "", None),
                "explanations": ("a list of claims", False, None, None),
                "likelihood": (_TEXT, False, "default", None), "restore_passes": (_BOOL, False, False, None)},
    "dummy": {"hand": (_TEXT, True, None, None), "early": (_BOOL, False, False, None)},
    "play": {"card": (_TEXT, True, None, None), "seat": (_TEXT, False, None, None)},
    "undo": {"to": (_WHOLE, False, None, (0, 10_000))},
    "bounds": {"view": (_TEXT, False, "lawful", ("lawful", "agreement"))},
    "statuses": {}, "state": {}, "quit": {},
    "odds": {"view": (_TEXT, False, "lawful", _VIEWS)},
    "sample": {"n": (_WHOLE, False, 1, (0, MAX_SAMPLE)), "seed": (_WHOLE, False, None, (0, 2 ** 63 - 1)),
               "view": (_TEXT, False, "lawful", _VIEWS)},
}


def _fields(cmd: str, request: dict[str, Any]) -> dict[str, Any]:
    """A request's fields, checked strictly against the command's (types, ranges, choices, no unknown field)."""
    spec = _FIELDS[cmd]
    unknown = sorted(set(request) - set(spec) - {"cmd", "id"})
    if unknown:
        raise InvalidArgumentError(f"{cmd}: unknown field {shown(unknown[0])}: expected "
                                   f"{', '.join(spec) or 'no field'}")
    out: dict[str, Any] = {}
    for name, (kind, required, default, allowed) in spec.items():
        if name not in request or request[name] is None:
            if required:
                raise InvalidArgumentError(f"{cmd}: missing {name!r}")
            out[name] = default
            continue
        value = request[name]
        ok = {_TEXT: isinstance(value, str), _BOOL: isinstance(value, bool),
              _WHOLE: isinstance(value, int) and not isinstance(value, bool),
              "a list of claims": isinstance(value, list) and all(isinstance(v, str) for v in value),
              _CALLS: isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
              }[kind]
        if not ok:
            raise InvalidArgumentError(f"{cmd}: {name} must be {kind}, got {shown(value)}")
        if isinstance(allowed, tuple) and len(allowed) == 2 and isinstance(allowed[0], int):
            if not allowed[0] <= value <= allowed[1]:
                raise InvalidArgumentError(f"{cmd}: {name} must be {allowed[0]:,}..{allowed[1]:,}, got {shown(value)}")
        elif allowed is not None and value not in allowed:
            raise InvalidArgumentError(f"{cmd}: {name} {shown(value)} must be one of {', '.join(allowed)}")
        out[name] = value
    return out


def _lines(stdin: TextIO) -> Iterator[tuple[int, str | None]]:
    """(line number, line) pairs; a line longer than :data:`MAX_LINE_BYTES` comes as None, read to its end."""
    number = 0
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith("\n"):
            while True:  # skip the rest of the long line, a piece at a time
                rest = stdin.readline(MAX_LINE_BYTES)
                if not rest or rest.endswith("\n"):
                    break
            yield number, None
            continue
        yield number, line


def _no_constant(name: str) -> None:
    """Refuse JSON's non-standard NaN, Infinity and -Infinity (a number past a float's range reads as infinity;
    a reply never echoes one: replies are strict JSON)."""
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)


def _answer(session: Session, number: int, line: str | None) -> dict[str, Any]:
    """The reply to one line: never raises."""
    request: Any = None
    try:
        if line is None:
            raise InvalidArgumentError(f"line {number}: longer than {MAX_LINE_BYTES:,} characters: skipped")
        try:
            request = json.loads(line, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            return {"ok": False, "error": f"line {number}: invalid JSON: {exc.msg} at column {exc.colno}",
                    "kind": "InvalidJSON"}
        except RecursionError:
            return {"ok": False, "error": f"line {number}: invalid JSON: nested too deeply", "kind": "InvalidJSON"}
        if not isinstance(request, dict):
            raise InvalidArgumentError(f"line {number}: expected a JSON object, got {type(request).__name__}")
        reply: dict[str, Any] = {"ok": True, **session.handle(request)}
    except (InferenceError, DealerError) as exc:
        reply = {"ok": False, "error": str(exc), "kind": type(exc).__name__}
    except Exception as exc:  # noqa: BLE001 - a session never dies on a request
        reply = {"ok": False, "error": f"internal error ({type(exc).__name__}): {str(exc)[:300]}",
                 "kind": "InternalError"}
    if isinstance(request, dict) and "id" in request:
        reply["id"] = request["id"]
    return reply


def serve(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer JSON lines until ``quit`` or end of input; one reply line per request line, whatever it holds."""
    session = Session()
    for number, line in _lines(stdin):
        if line is not None and not line.strip():
            continue
        reply = _answer(session, number, line)
        try:
            text = json.dumps(reply, allow_nan=False)  # strict JSON: no NaN or Infinity in a reply
        except (TypeError, ValueError, RecursionError):  # an id that cannot be echoed
            reply.pop("id", None)
            text = json.dumps(reply)
        stdout.write(text + "\n")
        stdout.flush()
        if reply.get("bye"):
            break
    return 0
