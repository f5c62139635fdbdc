"""The exact tables: seat automata, joint tables, the exact dealer, unions and statistics."""
