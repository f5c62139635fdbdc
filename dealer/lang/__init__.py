"""The dealer language: its syntax tree, parsers, constant folding and evaluation on deals."""
