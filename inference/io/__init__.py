"""Real deals with their play (PBN and LIN records) and the one split of a corpus into halves.
"""
