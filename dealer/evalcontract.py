"""The ``evalcontract`` action of the dealer fork (DealerV2): a contract's double-dummy results.

``evalcontract(NS, x3N, vul)`` plays the contract double dummy on every produced deal (South
declares for NS, West for EW), and at the end prints, as the fork does, the average score, how
often it made and failed, how often a game or slam was missed (the game or slam in the same
strain made double dummy) and what missing it cost in IMPs per board. Double-dummy tricks come from
the solver of the bot extra (endplay's DDS), as for ``tricks``; scores are duplicate scores,
doubled and redoubled included (:func:`contract_scores`).

>>> contract_scores(3, "N", 0, False, np.array([9, 10, 8])).tolist()
[400, 430, -50]
>>> contract_scores(4, "S", 1, True, np.array([10, 8])).tolist()
[790, -500]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import UnsupportedSpecError
from .evaluate import imps
from .expr import Pos
from .pbnio import masks_to_pbn
from .seat import Seat
from .statements import EvalContract

__all__ = ["contract_scores", "double_dummy_tricks", "check_solver", "evalcontract_text", "GAME_LEVEL"]

#: The lowest game level in each strain.
GAME_LEVEL = {"N": 3, "S": 4, "H": 4, "D": 5, "C": 5}


def contract_scores(level: int, strain: str, doubled: int, vulnerable: bool, tricks: np.ndarray) -> np.ndarray:
    """Declarer's duplicate score of a contract (``doubled`` 0, 1 or 2) when declarer takes ``tricks`` (0..13)."""
    t = np.asarray(tricks, dtype=np.int64)
    per = 20 if strain in "CD" else 30
    first = per + (10 if strain == "N" else 0)
    factor = (1, 2, 4)[doubled]
    contract_points = (first + per * (level - 1)) * factor
    bonus = ((500 if vulnerable else 300) if contract_points >= 100 else 50) + (0, 50, 100)[doubled]
    if level == 6:
        bonus += 750 if vulnerable else 500
    elif level == 7:
        bonus += 1500 if vulnerable else 1000
    over = t - (level + 6)
    overtrick = per if doubled == 0 else (200 if vulnerable else 100) * doubled
    made = contract_points + bonus + overtrick * np.maximum(over, 0)
    down = -over
    if doubled == 0:
        penalty = down * (100 if vulnerable else 50)
    elif vulnerable:
        penalty = (300 * down - 100) * doubled
    else:  # 100, 300, 500, then 300 a trick
        penalty = (np.where(down <= 3, 200 * down - 100, 300 * down - 400)) * doubled
    return np.asarray(np.where(over >= 0, made, -penalty), dtype=np.int64)


def _solver(pos: Pos) -> Any:
    try:
        from endplay.dds import calc_all_tables
    except ImportError:
        raise UnsupportedSpecError(f"line {pos.line}, column {pos.column}: 'evalcontract' needs the bot extra "
                                   "(pip install 'kibitz[bot]': the endplay double-dummy solver)") from None
    return calc_all_tables


def check_solver(action: EvalContract) -> None:
    """Raise :class:`~dealer.errors.UnsupportedSpecError` naming line and column if the solver is missing."""
    _solver(action.pos)


def double_dummy_tricks(masks: np.ndarray, declarer: Seat, strain: str, pos: Pos = Pos()) -> np.ndarray:
    """The tricks ``declarer`` takes double dummy in ``strain`` (``S H D C N``) on every deal of ``masks``."""
    calc_all_tables = _solver(pos)
    from endplay.types import Deal as EndplayDeal, Denom, Player

    denom = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "N": Denom.nt}[strain]
    player = (Player.north, Player.east, Player.south, Player.west)[int(declarer)]
    rows = np.asarray(masks, dtype=np.uint64).tolist()
    if not rows:
        return np.zeros(0, dtype=np.int64)
    tables = calc_all_tables([EndplayDeal(masks_to_pbn(row)) for row in rows],
                             exclude=[d for d in Denom if d != denom])
    return np.array([int(table[denom, player]) for table in tables], dtype=np.int64)


def evalcontract_text(action: EvalContract, tricks: np.ndarray) -> str:
    """The fork's end-of-run report of ``action`` from the double-dummy ``tricks`` of the produced deals."""
    t = np.asarray(tricks, dtype=np.int64)
    n = len(t)
    seen = np.bincount(t, minlength=14)[:14]
    level, strain, vul = action.level, action.strain, action.vulnerable
    every = np.arange(14)
    scores = contract_scores(level, strain, action.doubled, vul, every)
    total = int((seen * scores).sum())
    made, failed = int(seen[scores > 0].sum()), int(seen[scores < 0].sum())
    plain = contract_scores(level, strain, 0, vul, every)  # missed games and slams compare undoubled scores
    game = GAME_LEVEL[strain]
    missed_games = missed_game_imps = missed_slams = missed_slam_imps = 0
    if level < game:
        gains = imps(contract_scores(game, strain, 0, vul, every) - plain)
        missed_games = int(seen[game + 6:].sum())
        missed_game_imps = int((seen[game + 6:] * gains[game + 6:]).sum())
    if level < 6:
        missed_slams = int(seen[12] + seen[13])
        missed_slam_imps = int(seen[12] * imps(contract_scores(6, strain, 0, vul, every) - plain)[12]
                               + seen[13] * imps(contract_scores(7, strain, 0, vul, every) - plain)[13])

    def per(x: int, scale: float = 1.0) -> float:
        return scale * x / n if n else float("nan")

    name = f"{level}{strain}{'x' * action.doubled or ' '} {'V' if vul else ' '}"
    return (f"\nContract {name:>6} by {action.side:>3} Average Result = {per(total): 8.2f}, "
            f"Made pct= {per(made, 100): 7.2f}, Fail pct= {per(failed, 100): 7.2f}\n"
            f"Missed Game_pct= {per(missed_games, 100): 7.2f}, Missed Slam_pct={per(missed_slams, 100): 7.2f}, "
            f"Missed Game Imps/board={per(missed_game_imps): 7.2f}, "
            f"Missed Slam Imps/board={per(missed_slam_imps): 7.2f}\n")
