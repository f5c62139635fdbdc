"""Who made the calls: robots or people, from what a record says about its players and source.

A call means what its caller's system and habits make it mean: a 1NT opening is 15-17 for nearly
every robot and for about 70% of experts (docs/auction.rst). Records say who played them: a PBN's
``North``...``West`` tags, a LIN's ``pn`` (BBO's robots are ``~~`` names), and the folder a corpus
keeps robot matches in. A record is of the **robots** population when it comes from a robot match
or daylong folder (:data:`ROBOT_FOLDERS`) or at least three of its four players are robots (a BBO
robot daylong: one person and three robots, the defenders always robots); else of the **humans**.
``--book auto`` reads the robots' records with the ``robots`` book and the others with
``natural-wide`` (:func:`book_for`).

>>> population("bbo-myhands-endplay/example1.lin", ("~~M2509087", "~~M25116nn", "domtp", "~~M25054gn"))
'robots'
>>> population("bbo-vugraph/x.lin", ("Fredin", "Vainikonis", "De Knijff", "Olanski")), is_robot("GIB")
('humans', True)
"""

from __future__ import annotations

import re
from typing import Sequence

__all__ = ["POPULATIONS", "ROBOT_FOLDERS", "BOOK_BY_POPULATION", "is_robot", "population", "book_for"]

#: The populations, as ``kibitz rules --population`` names them.
POPULATIONS = ("robots", "humans")
#: Corpus folders that hold only robots' play (../shared/corpus/README.md).
ROBOT_FOLDERS = ("bbo-robot-daylongs-ben", "bot-matches-ben")
#: The book ``--book auto`` reads each population with.
BOOK_BY_POPULATION = {"robots": "robots", "humans": "natural-wide"}
_ROBOT = re.compile(r"^(~~.*|gib|ben|wbridge ?5|jack|argine|synrey|shark ?bridge|q-?plus|micro ?bridge|"
                    r"bridge ?baron|robot|bbo ?robot)$", re.IGNORECASE)


def is_robot(name: str) -> bool:
    """Whether a player's name is a robot's: BBO's ``~~`` names, or a bridge program's name (GIB, BEN, ...)."""
    return bool(_ROBOT.match(name.strip()))


def population(source: str, players: Sequence[str] = ()) -> str:
    """``robots`` or ``humans``: a record from a robots' folder, or with three or four robots at the table,
    is the robots'."""
    parts = re.split(r"[\\/]", source)
    if any(folder in parts for folder in ROBOT_FOLDERS):
        return "robots"
    return "robots" if sum(is_robot(name) for name in players) >= 3 else "humans"


def book_for(book: str | None, source: str, players: Sequence[str] = ()) -> str | None:
    """The book to read a record's auction with: ``book`` itself, or for ``auto`` its population's book."""
    if book != "auto":
        return book
    return BOOK_BY_POPULATION[population(source, players)]
