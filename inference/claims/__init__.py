"""What may be said about the concealed hands: the claim language, features, per-holding weights, and
agreement-tagged inferences (the model; their verdicts are :mod:`inference.exact.statuses`).
"""
