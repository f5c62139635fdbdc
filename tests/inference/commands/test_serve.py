"""``kibitz serve``: the JSON-lines protocol (:mod:`inference.apps.protocol`) through the command, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from dealer import Deal, Seat

ROOT = Path(__file__).resolve().parents[3]


def test_serve_protocol_subprocess() -> None:
    lines = [
        {"cmd": "play", "card": "SK"},  # out of order: no hand yet
        {"cmd": "new", "hand": "A.A432.A432.A432", "declarer": "S", "contract": "3NT", "id": 1},
        {"cmd": "play", "card": "SK", "id": 2},
        "this is not json",
        {"cmd": "dummy", "hand": "2.KJT.KJT9.KJT98"},
        {"cmd": "play", "card": "S2"},
        {"cmd": "play", "card": "S2"},  # already played: an error, state intact
        {"cmd": "play", "card": "CA", "seat": "W"},  # wrong seat
        {"cmd": "inference", "name": "long hearts", "by": "RHO", "claim": "hearts(RHO) >= 5"},
        {"cmd": "play", "card": "H5"},
        {"cmd": "bounds"},
        {"cmd": "statuses"},
        {"cmd": "odds", "view": "agreement"},
        {"cmd": "sample", "n": 3, "seed": 9, "view": "weighted"},
        {"cmd": "sample", "n": "many"},
        {"cmd": "fly"},
        [1, 2],
        {"cmd": "undo"},
        {"cmd": "state"},
        {"cmd": "quit"},
        {"cmd": "state"},  # after quit: never read
    ]
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    proc = subprocess.run([sys.executable, "-m", "inference.commands", "serve"], input=text, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    replies = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 0 and len(replies) == len(lines) - 1
    ok = [r["ok"] for r in replies]
    assert ok == [False, True, True, False, True, True, False, False, True, True, True, True, True, True, False,
                  False, False, True, True, True]
    assert replies[0]["kind"] == "OutOfOrderError" and replies[1]["id"] == 1 and replies[2]["id"] == 2
    assert replies[3]["kind"] == "InvalidJSON"
    assert replies[5]["seat"] == "N"
    assert replies[6]["kind"] == "IllegalPlayError" and "already played" in replies[6]["error"]
    assert replies[7]["kind"] == "IllegalPlayError"
    assert replies[10]["bounds"]["E"]["S"] == [0, 0] and replies[10]["bounds"]["W"]["S"] == [11, 11]
    assert replies[11]["statuses"]["long hearts"]["status"] in ("active", "confirmed")
    assert Fraction(replies[12]["odds"]["layouts"]) > 0
    deals = [Deal.from_pbn(d) for d in replies[13]["deals"]]
    assert len(deals) == 3 and all(d[Seat.W].length("S") == 11 for d in deals)
    assert replies[18]["ply"] == 4 and replies[18]["to_play"] == "E"  # undo took back RHO's card
    assert replies[19] == {"ok": True, "bye": True}
