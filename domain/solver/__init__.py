"""Perfect open-hand play at a step (docs/analysis.md): the search, its exhaustive reference and the positions
of each kind of game."""
