"""Scripts run: the plan, deal and select, the tables with a filter, and the dealer program's run."""
