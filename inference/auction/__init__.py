"""The auction as evidence: bidding books as data, read into inferences, calibrated on real hands.

* :mod:`~inference.auction.book`: the TOML format of a book, loaded and checked (``load_book``);
* :mod:`~inference.auction.context`: a call in its auction, and whether a rule matches it;
* :mod:`~inference.auction.explanations`: a record's alert or explanation text read as a claim;
* :mod:`~inference.auction.reading`: an auction read into inferences (``auction_inferences``);
* :mod:`~inference.auction.calibration`: a book measured on the callers' actual hands.
"""

from __future__ import annotations

from inference.auction.book import Book, available_books, load_book
from inference.auction.reading import AuctionReading, CallReading, auction_inferences, read_auction

__all__ = ["Book", "load_book", "available_books", "auction_inferences", "read_auction", "AuctionReading",
           "CallReading"]
