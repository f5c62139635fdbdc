"""The one exact layout engine: a position's lawful layouts as a graph, suit by suit, with its passes
(counts, bounds, odds, distributions, sampling), the exact dealer past the graph's limit, and the views.
"""
