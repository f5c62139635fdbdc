"""Dealing specifications: per-seat specs, the split of conditions, side counts, conditions across seats."""
