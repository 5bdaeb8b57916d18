"""Perfect open-hand play at any step of a deal (docs/analysis.md): the solver (search.py), its exhaustive
reference (minimax.py), the games as the search sees them (shedding.py, shengji.py) and the query (query.py)."""
