"""The laws of the play: strains and contracts, the rules of a trick, and the lawful bounds the cards seen allow.
"""
