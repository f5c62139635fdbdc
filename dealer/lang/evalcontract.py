"""The ``evalcontract`` actions: a contract's double-dummy results, in both forms of the forks.

``evalcontract(NS, x3N, vul)`` (DealerV2) plays the contract double dummy on every produced deal
(South declares for NS, West for EW), and at the end prints, as the fork does, the average score,
how often it made and failed, how often a game or slam was missed (the game or slam in the same
strain made double dummy) and what missing it cost in IMPs per board. ``evalcontract`` with no
arguments (the original ``dealer`` and the suokko fork) prints, not vulnerable then vulnerable, a
table of every contract (levels 1 to 7, strains c d h s n) with North's and South's average
undoubled score as declarer, truncated to whole points (:func:`evaltable_text`). Double-dummy
tricks come from the solver of the bot extra (endplay's DDS), as for ``tricks``; scores are
duplicate scores, doubled and redoubled included (:func:`dealer.lang.scoring.score`).

>>> tricks = np.zeros((2, 5, 4), dtype=np.int64) + 9   # every strain, every declarer: 9 tricks
>>> print(evaltable_text(tricks).splitlines()[2])
c:  110/ 110  110/ 110  110/ 110  -50/ -50 -100/-100 -150/-150 -200/-200 
"""

from __future__ import annotations

import numpy as np

from dealer.lang.double_dummy import batch_solver
from dealer.lang.scoring import imps, score
from dealer.lang.statements import EvalContract, EvalTable

__all__ = ["evaltable_text", "check_solver", "evalcontract_text", "GAME_LEVEL"]

#: The lowest game level in each strain.
GAME_LEVEL = {"N": 3, "S": 4, "H": 4, "D": 5, "C": 5}


def check_solver(action: "EvalContract | EvalTable") -> None:
    """Raise :class:`~dealer.errors.UnsupportedSpecError` naming line and column if the solver is missing."""
    batch_solver(action.pos)


def _mean(total: int, n: int) -> int:
    """``total / n`` truncated toward zero, as C's integer conversion."""
    q = abs(total) // n
    return q if total >= 0 else -q


def evaltable_text(tables: np.ndarray) -> str:
    """The original ``evalcontract``'s report from :func:`~dealer.lang.double_dummy.double_dummy_tables` of the produced deals: per
    vulnerability, a row per strain (c d h s n), per level North's and South's average score as declarer."""
    n = max(len(tables), 1)
    out = []
    for vul in (False, True):
        out.append(f"{'Vulnerable' if vul else 'Not Vulnerable'}\n" + "   " + "".join(f"  {level}       "
                                                                                  for level in range(1, 8)) + "\n")
        for k, strain in enumerate("CDHSN"):
            cells = []
            for level in range(1, 8):
                north, south = (int(score(vul, level, strain, tables[:, k, seat]).sum()) for seat in (0, 2))
                cells.append(f"{_mean(north, n):4d}/{_mean(south, n):4d} ")
            out.append(f"{strain.lower()}: " + "".join(cells) + "\n")
        out.append("\n")
    return "".join(out)


def evalcontract_text(action: EvalContract, tricks: np.ndarray) -> str:
    """The fork's end-of-run report of ``action`` from the double-dummy ``tricks`` of the produced deals."""
    t = np.asarray(tricks, dtype=np.int64)
    n = len(t)
    seen = np.bincount(t, minlength=14)[:14]
    level, strain, vul = action.level, action.strain, action.vulnerable
    every = np.arange(14)
    scores = score(vul, level, strain, every, action.doubled)
    total = int((seen * scores).sum())
    made, failed = int(seen[scores > 0].sum()), int(seen[scores < 0].sum())
    plain = score(vul, level, strain, every)  # missed games and slams compare undoubled scores
    game = GAME_LEVEL[strain]
    missed_games = missed_game_imps = missed_slams = missed_slam_imps = 0
    if level < game:
        gains = imps(score(vul, game, strain, every) - plain)
        missed_games = int(seen[game + 6:].sum())
        missed_game_imps = int((seen[game + 6:] * gains[game + 6:]).sum())
    if level < 6:
        missed_slams = int(seen[12] + seen[13])
        missed_slam_imps = int(seen[12] * imps(score(vul, 6, strain, every) - plain)[12]
                               + seen[13] * imps(score(vul, 7, strain, every) - plain)[13])

    def per(x: int, scale: float = 1.0) -> float:
        return scale * x / n if n else float("nan")

    name = f"{level}{strain}{'x' * action.doubled or ' '} {'V' if vul else ' '}"
    return (f"\nContract {name:>6} by {action.side:>3} Average Result = {per(total): 8.2f}, "
            f"Made pct= {per(made, 100): 7.2f}, Fail pct= {per(failed, 100): 7.2f}\n"
            f"Missed Game_pct= {per(missed_games, 100): 7.2f}, Missed Slam_pct={per(missed_slams, 100): 7.2f}, "
            f"Missed Game Imps/board={per(missed_game_imps): 7.2f}, "
            f"Missed Slam Imps/board={per(missed_slam_imps): 7.2f}\n")
