"""The actions of a ``dealer`` script as values: what each one prints or tallies for the produced deals
(:mod:`dealer.lang.statements` parses them; :mod:`dealer.run.runner` does them)."""

from __future__ import annotations

from dataclasses import field

from dealer.cards.seat import Seat
from dealer.lang.expr import Cond, Const, Expr, Pos
from dealer.lang.frozen import frozen

__all__ = ["Action", "Print", "PrintES", "Average", "Frequency", "BucketFrequency", "Hands", "DoubleDummyRow",
           "ParContract", "Report", "Export", "EvalContract", "EvalTable"]


@frozen
class Action:
    """An action of a script, run on every produced deal; ``pos`` is where it was written."""

    pos: Pos = field(default=Pos(), compare=False, repr=False, kw_only=True)


@frozen
class Print(Action):
    """A print action: ``kind`` is its word; ``seats`` for ``print(...)``; ``expr`` for printcompact/oneline."""

    kind: str
    seats: tuple[Seat, ...] = ()
    expr: Expr | None = None


@frozen
class PrintES(Action):
    """``printes "text", EXPR, \\n``: text and values, printed for each deal."""

    items: tuple["str | Expr", ...]


@frozen
class Average(Action):
    """``average "label" EXPR``: the mean of the expression over the produced deals.

    The suokko fork's ``average "label" (EXPR, FILTER)`` prints it only when ``FILTER`` holds, where
    ``avg`` is the mean in millionths (``avg > 500000``: a mean above 0.5); ``avg`` is the node the
    filter reads it from.
    """

    label: str | None
    expr: Expr
    filter: Cond | None = None
    avg: Const | None = None


@frozen
class Frequency(Action):
    """``frequency "label" (EXPR, LOW, HIGH[, EXPR2, LOW2, HIGH2])``: a 1-D or 2-D histogram."""

    label: str | None
    axes: tuple[tuple[Expr, int, int], ...]


@frozen
class BucketFrequency(Action):
    """``bktfreq "label" (EXPR, LOW, HIGH, SIZE[, EXPR2, LOW2, HIGH2, SIZE2])`` (dealer version 2): a 1-D or
    2-D histogram in buckets of ``SIZE``, from ``LOW`` (values below: Low) to the bucket starting at ``HIGH``
    (values past it: High)."""

    label: str | None
    axes: tuple[tuple[Expr, int, int, int], ...]


@frozen
class Hands:
    """An item of ``printrpt``/``csvrpt``: the hands of ``seats`` (a seat, ``NS``/``EW``, or ``deal``)."""

    seats: tuple[Seat, ...]


@frozen
class DoubleDummyRow:
    """An item of ``printrpt``/``csvrpt``: ``trix(SEAT)`` or ``trix(deal)``, each seat's double-dummy tricks as
    declarer in clubs, diamonds, hearts, spades and notrump."""

    seats: tuple[Seat, ...]


@frozen
class ParContract:
    """An item of ``printrpt``/``csvrpt``: ``parcontract`` or ``parcontract(VUL)`` (DealerV2), the par contract as
    text, ``vulnerable`` one of ``none``, ``ns``, ``ew``, ``both`` (``none`` when not given)."""

    vulnerable: str


@frozen
class Report(Action):
    """``printrpt(...)`` or ``csvrpt(...)`` (DealerV2): a line per produced deal of its items, each a number
    (an expression), a quoted string, hands (:class:`Hands`), double-dummy tricks (:class:`DoubleDummyRow`) or
    the par contract (:class:`ParContract`)."""

    kind: str
    items: tuple["str | Expr | Hands | DoubleDummyRow | ParContract", ...]


@frozen
class Export(Action):
    """``export(NS)``, ``export(west)`` (DealerV2): the hands of ``seats``, a line per produced deal, in the
    form DealerV2's ``-N``...``-W`` options read back (``-W SAJ4,HKJ9,D853,CAQT7``)."""

    seats: tuple[Seat, ...]


@frozen
class EvalContract(Action):
    """``evalcontract(NS, x3N, vul)``: the double-dummy results of a contract over the produced deals.

    ``side`` is ``NS`` (South declares) or ``EW`` (West declares), as in the dealer fork (DealerV2);
    ``strain`` one of ``S H D C N``; ``doubled`` 0, 1 (``x3Nx``) or 2 (``x3Nxx``).
    """

    side: str
    level: int
    strain: str
    doubled: int
    vulnerable: bool

    @property
    def declarer(self) -> Seat:
        """The seat that declares: South for NS, West for EW."""
        return Seat.S if self.side == "NS" else Seat.W


@frozen
class EvalTable(Action):
    """``evalcontract`` with no arguments (the original ``dealer``, the suokko fork): every contract's average
    undoubled score with North and with South declaring, double dummy, over the produced deals."""
