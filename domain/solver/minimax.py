"""The reference the solver is checked against: plain exhaustive minimax — every move of every position searched
to the end, no pruning, no transposition table, no move ordering that matters. Slow by design; only the tests
and the benchmark's ratio use it (on positions small enough)."""

from __future__ import annotations

from typing import Any

from domain.solver.search import Budget, Game


def minimax(game: Game, pos: Any, budget: Budget) -> int:
    """The value of `pos` for the maximising side, every line searched."""
    end = game.terminal(pos)
    if end is not None:
        return end
    budget.tick()
    scores = [minimax(game, game.child(pos, move), budget) for move in game.moves(pos, budget)]
    return max(scores) if game.maximising(pos) else min(scores)


def move_values(game: Game, pos: Any, budget: Budget) -> list[tuple[Any, int]]:
    """Each move of `pos` with its exhaustive value, in the adapter's order."""
    return [(move, minimax(game, game.child(pos, move), budget)) for move in game.moves(pos, budget)]
