"""The engine behind a JSON-lines protocol, for bots in any language (the ``kibitz serve`` command).

Each line on stdin is a JSON object with a ``cmd``; each answer is one JSON line on stdout with
``"ok": true`` and the results, or ``"ok": false``, an ``"error"`` message and its ``"kind"`` (the
exception class); a request's ``"id"``, if any, is echoed. A rejected request leaves the state as it
was. Commands:

==========  ===========================================================================================
new         ``hand``, ``declarer``, optional ``contract`` (default NT) and ``viewer`` (default declarer)
inference   an inference: ``name``, ``by`` (LHO, RHO, partner, N...), ``claim``, optional ``tag``,
            ``action``, ``kind``, ``fallbacks``, ``group``
lead        read a lead: ``card``, optional ``agreement`` (default fourth-best-nt)
auction     read an auction: ``dealer``, ``calls`` (a list or space-separated), ``book``, optional
            ``vulnerable`` and ``explanations`` (per call: text or null)
dummy       ``hand``; optional ``early`` (before the opening lead)
play        ``card``, optional ``seat`` (must be the seat on turn)
undo        optional ``to`` (a ply; default: the last event)
bounds      optional ``view``: lawful (default) or agreement
statuses    every inference's status
odds        optional ``view``: lawful (default), agreement or weighted
sample      ``n``, optional ``seed`` and ``view``; returns PBN deal strings
state       whose turn, trick, ply, concealed seats
quit        end the session
==========  ===========================================================================================
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, Callable, TextIO

from dealer import DealerError

from .errors import InferenceError, InvalidArgumentError, OutOfOrderError

if TYPE_CHECKING:
    from .play import PlayState

__all__ = ["COMMANDS", "Session", "serve"]

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
        handler: Callable[[dict[str, Any]], dict[str, Any]] | None = getattr(self, f"cmd_{cmd}", None)
        if not isinstance(cmd, str) or handler is None:
            raise InvalidArgumentError(f"unknown command {cmd!r}: expected one of {', '.join(COMMANDS)}")
        return handler(request)

    def cmd_new(self, r: dict[str, Any]) -> dict[str, Any]:
        """``new``: a fresh play state from ``hand``, ``declarer``, ``contract`` and ``viewer``."""
        from .play import PlayState

        for field in ("hand", "declarer"):
            if field not in r:
                raise InvalidArgumentError(f"new: missing {field!r}")
        self.state = PlayState(r["hand"], declarer=r["declarer"], contract=r.get("contract", "NT"),
                               viewer=r.get("viewer"))
        return self.cmd_state({})

    def cmd_inference(self, r: dict[str, Any]) -> dict[str, Any]:
        """``inference``: add an inference; the statuses it changed."""
        data = {k: v for k, v in r.items() if k not in ("cmd", "id")}
        update = self._need().add_inference(data)
        return {"statuses": [sc.as_dict() for sc in update.statuses]}

    def cmd_lead(self, r: dict[str, Any]) -> dict[str, Any]:
        """``lead``: read the opening lead ``card`` by an ``agreement``; the statuses it changed."""
        from .scenario import LeadEntry, add_entry

        entry = LeadEntry(card=r.get("card", ""), agreement=r.get("agreement", "fourth-best-nt"),
                          group=r.get("group", "lead"))
        updates = add_entry(entry, self._need(), "<serve>", None)
        return {"statuses": [sc.as_dict() for u in updates for sc in u.statuses]}

    def cmd_auction(self, r: dict[str, Any]) -> dict[str, Any]:
        """``auction``: read ``calls`` with a ``book``; the inferences added and the statuses they got."""
        for field in ("dealer", "calls", "book"):
            if field not in r:
                raise InvalidArgumentError(f"auction: missing {field!r}")
        calls = r["calls"].split() if isinstance(r["calls"], str) else list(r["calls"])
        update = self._need().add_auction(r["dealer"], calls, book=r["book"], vulnerability=r.get("vulnerable", ""),
                                          explanations=r.get("explanations"))
        return {"event": update.event if update else None,
                "statuses": [sc.as_dict() for sc in update.statuses] if update else []}

    def cmd_dummy(self, r: dict[str, Any]) -> dict[str, Any]:
        """``dummy``: table dummy's ``hand``; the bounds it changed."""
        update = self._need().table_dummy(r.get("hand", ""), early=bool(r.get("early", False)))
        return {"changes": [c.as_dict() for c in update.changes]}

    def cmd_play(self, r: dict[str, Any]) -> dict[str, Any]:
        """``play``: the ``card`` played (by ``seat``, if given); the bounds and statuses it changed."""
        if "card" not in r:
            raise InvalidArgumentError("play: missing 'card'")
        update = self._need().play(r["card"], r.get("seat"))
        return {"trick": update.trick, "seat": update.seat.name if update.seat is not None else None,
                "changes": [c.as_dict() for c in update.changes],
                "statuses": [sc.as_dict() for sc in update.statuses]}

    def cmd_undo(self, r: dict[str, Any]) -> dict[str, Any]:
        """``undo``: back to ply ``to`` (default: before the last event); the state then."""
        state = self._need()
        if "to" in r:
            state.undo_to(r["to"])
        else:
            state.pop()
        return self.cmd_state({})

    def cmd_bounds(self, r: dict[str, Any]) -> dict[str, Any]:
        """``bounds``: the lawful or agreement bounds of the concealed seats."""
        state = self._need()
        view = r.get("view", "lawful")
        if view == "lawful":
            return {"bounds": state.bounds().as_dict()}
        if view == "agreement":
            bounds, events = state.agreement_bounds()
            return {"bounds": bounds.as_dict(), "decisions": [e.as_dict() for e in events]}
        raise InvalidArgumentError(f"bounds: view {view!r} must be lawful or agreement")

    def cmd_statuses(self, r: dict[str, Any]) -> dict[str, Any]:
        """``statuses``: every inference's status, fallback level and note."""
        return {"statuses": {n: {"status": st.status.value, "level": st.level, "note": st.note}
                             for n, st in self._need().statuses().items()}}

    def cmd_odds(self, r: dict[str, Any]) -> dict[str, Any]:
        """``odds``: the exact odds in a ``view``."""
        return {"odds": self._need().odds(r.get("view", "lawful")).as_json()}

    def cmd_sample(self, r: dict[str, Any]) -> dict[str, Any]:
        """``sample``: ``n`` layouts drawn with ``seed`` in a ``view``, as PBN deal strings."""
        n = r.get("n", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > 100_000:
            raise InvalidArgumentError(f"sample: n must be an integer 0..100000, got {n!r}")
        seed = r.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidArgumentError(f"sample: seed must be an integer, got {seed!r}")
        from dealer.pbnio import masks_to_pbn

        masks = self._need().sample_masks(n, seed, r.get("view", "lawful"))
        return {"deals": [masks_to_pbn(row) for row in masks.tolist()]}

    def cmd_state(self, r: dict[str, Any]) -> dict[str, Any]:
        """``state``: whose turn, the trick, the ply, the concealed seats."""
        state = self._need()
        return {"ply": state.ply, "to_play": state.to_play.name, "trick": state.trick_number,
                "concealed": [s.name for s in state.concealed()], "dummy_tabled": state.snapshot.dummy_tabled}

    def cmd_quit(self, r: dict[str, Any]) -> dict[str, Any]:
        """``quit``: end the session."""
        return {"bye": True}


def serve(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer JSON lines until ``quit`` or end of input."""
    session = Session()
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        reply: dict[str, Any]
        request: Any = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise InvalidArgumentError(f"line {number}: expected a JSON object, got {type(request).__name__}")
            reply = {"ok": True, **session.handle(request)}
        except json.JSONDecodeError as exc:
            reply = {"ok": False, "error": f"line {number}: invalid JSON: {exc.msg} at column {exc.colno}",
                     "kind": "InvalidJSON"}
        except (InferenceError, DealerError) as exc:
            reply = {"ok": False, "error": str(exc), "kind": type(exc).__name__}
        if isinstance(request, dict) and "id" in request:
            reply["id"] = request["id"]
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if reply.get("bye"):
            break
    return 0
