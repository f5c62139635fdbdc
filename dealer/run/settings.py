"""What a run of a ``dealer`` script is asked for: its seed, how many deals, which actions, and its totals.

Shared by both ways a script is run, one deal at a time (:mod:`dealer.run.quick`) and in batches
(:mod:`dealer.run.runner`), so that they read a script and its options alike and end alike; nothing
here imports numpy.

>>> from dealer.lang.statements import parse_statements
>>> syntax = parse_statements("condition hcp(north) >= 10 action average hcp(south)")
>>> given(None, syntax.produce, "produce") or (DEFAULT_PRODUCE if prints_deals(syntax) else DEFAULT_GENERATE)
10000000
"""

from __future__ import annotations

from typing import Sequence

from dealer.budget import current
from dealer.errors import DealerError
from dealer.lang.actions import (
    Average, BucketFrequency, EvalContract, EvalTable, Export, Frequency, Print, PrintES, Report,
)
from dealer.lang.statements import ScriptSyntax
from dealer.rng import fresh_seed

__all__ = ["DEFAULT_PRODUCE", "DEFAULT_GENERATE", "run_seed", "given", "prints_deals", "actions_of",
           "check_frequencies", "check_run_deals", "totals_text"]

#: ``dealer``'s defaults: deals produced, and random deals generated at most.
DEFAULT_PRODUCE = 40
DEFAULT_GENERATE = 10_000_000


def run_seed(syntax: ScriptSyntax, seed: int | None) -> int:
    """The seed a run draws with and prints (``dealer``'s): the one given, else the script's, else a fresh one."""
    if seed is not None:
        return seed
    return syntax.seed if syntax.seed is not None else fresh_seed() % (1 << 31)


def given(option: int | None, statement: int | None, name: str) -> int:
    """``-p``/``-g`` else the script's ``produce``/``generate``; 0 when neither is given, or either is 0 (dealer
    reads 0 as unset)."""
    value = option if option else statement
    if value is not None and value < 0:
        raise DealerError(f"invalid {name} {value}: expected a number of deals >= 0")
    return value or 0


def prints_deals(syntax: ScriptSyntax) -> bool:
    """Whether a run without ``produce`` stops at 40 deals: it has no action (printall) or one that prints (as
    ``dealer``: a script of statistics alone, ``average`` and ``frequency``, runs to its ``generate``)."""
    return not syntax.actions or any(not isinstance(a, (Average, Frequency, BucketFrequency)) for a in syntax.actions)


def actions_of(syntax: ScriptSyntax, quiet: bool) -> tuple[list[object], list[object]]:
    """The script's actions (``printall`` when it has none; ``dealer -q`` leaves out printpbn), and
    those of them that print each deal (``printall``, ``printes``, ``printrpt``...)."""
    actions: list[object] = [a for a in syntax.actions or [Print("printall")]
                             if not (isinstance(a, Print) and quiet and a.kind == "printpbn")]
    each: list[object] = [a for a in actions
                          if isinstance(a, (PrintES, Report, Export)) or isinstance(a, Print) and a.kind != "print"]
    return actions, each


def check_frequencies(actions: Sequence[object]) -> None:
    """Refuse a ``frequency`` whose bounds are reversed or whose table passes the budget's ``frequency_cells``."""
    for action in actions:
        if not isinstance(action, Frequency):
            continue
        cells = 1
        for _, low, high in action.axes:
            if high < low:
                raise DealerError(f"{action.pos}: frequency: the high bound {high} is below the low bound {low}")
            cells *= high - low + 3
        if cells > current().frequency_cells:
            raise DealerError(f"{action.pos}: frequency: a table of {cells:,} cells, more than the budget's "
                              f"frequency_cells ({current().frequency_cells:,}); narrow its bounds")


def check_run_deals(actions: Sequence[object], produce: int) -> None:
    """Refuse a run of more than the budget's ``run_deals`` deals when an action reports on every deal at once
    (``print(...)``, ``evalcontract``): such a run keeps its deals."""
    whole = [a for a in actions if isinstance(a, (EvalContract, EvalTable)) or isinstance(a, Print) and a.kind == "print"]
    if whole and produce > current().run_deals:
        raise DealerError(f"produce {produce:,}: print(...) and evalcontract report on every deal at once, so "
                          f"such a run keeps its deals in memory (some 80 bytes each) and may produce at most "
                          f"{current().run_deals:,} (the budget's run_deals); run it in parts with other seeds")


def totals_text(generated: int, produced: int, seed: int | None, seconds: float) -> str:
    """``dealer``'s totals at the end of a run (``-v`` leaves them out)."""
    return (f"Generated {generated} hands\nProduced {produced} hands\nInitial random seed {seed}\n"
            f"Time needed {seconds:8.3f} sec\n")
