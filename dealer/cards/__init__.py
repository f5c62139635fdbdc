"""The vocabulary of bridge and its texts: cards, hands, seats, deals, their numbers and printing."""
