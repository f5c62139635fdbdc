"""A hand in progress: the play state (the one mutable owner), its events, the re-examination of the
inferences, the reasons a bound moved, rendering, and the carding conventions read as inferences.
"""
