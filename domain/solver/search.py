"""The solver: perfect open-hand play on a game tree a position adapter describes (each game's
`domain/games/<game>/analysis.py`, the ranks-only shedding games on domain/solver/shedding.py).

One search for every game: alpha-beta over whole-number values (win = 1 / lose = 0 for the shedding games, the
attackers' points for 升级) with a transposition table keyed on the adapter's canonical position, holding a
lower and an upper bound per position. The adapter orders the moves (plays that empty the hand first, bombs
last), so a winning line is usually found first and the rest of the node is cut off; in a win/lose game a
window of (0, 1) makes this the AND/OR search the published 斗地主残局 solvers use. Nothing is cut that could
change a value: the answer is exact, or the budget runs out and the query answers TooLarge.

Every query has a budget (`Budget`: wall-clock milliseconds and nodes); passing either raises TooLarge — never
a guess, never a hang.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

DEFAULT_LIMIT_MS = 2000
# Nodes a query may search at most: the time limit is what usually ends a search (the pure-Python search walks
# 50,000–270,000 nodes a second, the compiled core of the ranks-only games some millions: docs/analysis.md).
DEFAULT_NODE_LIMIT = 50_000_000
CHECK_EVERY = 256  # nodes between two looks at the clock


class TooLarge(Exception):
    """The position needs more than the budget allows."""

    def __init__(self, nodes: int, ms: float):
        super().__init__(f"too large: {nodes} nodes in {ms:.0f} ms")
        self.nodes, self.ms = nodes, ms


@dataclass
class Budget:
    """A query's limits, and what it has used so far."""

    limit_ms: float = DEFAULT_LIMIT_MS
    node_limit: int = DEFAULT_NODE_LIMIT
    nodes: int = 0
    # The clock the milliseconds are read on: wall time; the benchmark may count the process's CPU time
    # instead (time.process_time), what a quiet machine's wall time would be, on a machine others load.
    clock: Callable[[], float] = time.perf_counter
    started: float = field(default=-1.0)

    def __post_init__(self) -> None:
        if self.started < 0:
            self.started = self.clock()

    def elapsed_ms(self) -> float:
        return (self.clock() - self.started) * 1000

    def tick(self, count: int = 1) -> None:
        """Count `count` nodes (or units of move generation); TooLarge once past either limit."""
        self.nodes += count
        if self.nodes > self.node_limit:
            raise TooLarge(self.nodes, self.elapsed_ms())
        if self.nodes % CHECK_EVERY < count and self.elapsed_ms() > self.limit_ms:
            raise TooLarge(self.nodes, self.elapsed_ms())

    def check(self) -> None:
        """TooLarge when past either limit now (what `tick` checks, for a search that counts its own nodes)."""
        if self.nodes > self.node_limit or self.elapsed_ms() > self.limit_ms:
            raise TooLarge(self.nodes, self.elapsed_ms())


class Game(Protocol):
    """What the search needs of a game: positions, their moves, and the value of a finished one.

    Values are for the maximising side (the side the query asks about, or 升级's attackers); `bounds` is the
    range every value lies in, so a window can close early (a win is the best there is)."""

    bounds: tuple[int, int]

    def key(self, pos: Any) -> Hashable: ...

    def terminal(self, pos: Any) -> int | None: ...

    def maximising(self, pos: Any) -> bool: ...

    def moves(self, pos: Any, budget: Budget) -> Sequence[Any]: ...

    def child(self, pos: Any, move: Any) -> Any: ...


class Solver:
    """Alpha-beta with a transposition table over one game; the table lives as long as the solver (one query)."""

    def __init__(self, game: Game, budget: Budget):
        self.game, self.budget = game, budget
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.decided: dict[Hashable, int] = {}
        # An adapter may prove some positions statically (RankGame.proven: a win in a few unanswerable plays).
        self.proven = getattr(game, "proven", None)
        self.inlined = getattr(game, "decide", None)

    def value(self, pos: Any, alpha: int | None = None, beta: int | None = None) -> int:
        """The exact value of `pos` when it lies inside (alpha, beta); else a bound on the side it fell."""
        low, high = self.game.bounds
        return self._search(pos, low - 1 if alpha is None else alpha, high + 1 if beta is None else beta)

    def _search(self, pos: Any, alpha: int, beta: int) -> int:
        game, table, budget = self.game, self.table, self.budget
        while True:
            end = game.terminal(pos)
            if end is not None:
                return end
            budget.tick()
            key = game.key(pos)
            low, high = table.get(key, game.bounds)
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
            moves = game.moves(pos, budget)
            if len(moves) != 1:
                break
            # One move only (a seat that cannot answer must pass): the node's value is its child's, so the
            # search walks on without a table entry of its own (a third of the nodes of the larger positions).
            pos = game.child(pos, moves[0])
        if self.proven is not None:
            proven = self.proven(pos, budget)
            if proven is not None:
                table[key] = (proven, proven)
                return proven
        alpha, beta = max(alpha, low), min(beta, high)
        original_alpha, original_beta = alpha, beta
        maximising = game.maximising(pos)
        best = game.bounds[0] - 1 if maximising else game.bounds[1] + 1
        # The best a side can get here is its bound: a win found (or the stored bound reached) ends the node.
        enough = high if maximising else low
        for move in moves:
            score = self._search(game.child(pos, move), alpha, beta)
            if maximising:
                if score > best:
                    best = score
                    alpha = max(alpha, score)
            elif score < best:
                best = score
                beta = min(beta, score)
            if alpha >= beta or best == enough:
                break
        # What this search proved: a fail-high is a lower bound, a fail-low an upper bound, else exact.
        if best <= original_alpha:
            high = min(high, best)
        elif best >= original_beta:
            low = max(low, best)
        else:
            low = high = best
        table[key] = (low, high)
        return best

    def exact(self, pos: Any) -> int:
        if self.game.bounds == (0, 1):
            return self._decide(pos)
        return self.value(pos)

    def _decide(self, pos: Any) -> int:
        """The value of `pos` in a win/lose game (bounds 0, 1): the AND/OR search `_search` amounts to there,
        without windows — a side wins at a node when one of its moves wins, and every node's value is exact, so
        the table holds one value per position (its own table: `_search`'s holds bounds). An adapter may bring
        this same search with its own steps worked in (`decide`: RankGame, where calls are most of the time)."""
        game, decided, budget, proven = self.game, self.decided, self.budget, self.proven
        if self.inlined is not None:
            return self.inlined(pos, decided, budget)
        while True:
            end = game.terminal(pos)
            if end is not None:
                return end
            budget.tick()
            moves = game.moves(pos, budget)
            if len(moves) != 1:
                break
            # One move only: the node's value is its child's (as in `_search`); such a node is never stored,
            # so it is not looked up either.
            pos = game.child(pos, moves[0])
        key = game.key(pos)
        known = decided.get(key)
        if known is not None:
            return known
        if proven is not None:
            value = proven(pos, budget)
            if value is not None:
                decided[key] = value
                return value
        wins = int(game.maximising(pos))  # the value that ends the node: a win for the side to move
        value = 1 - wins
        for move in moves:
            if self._decide(game.child(pos, move)) == wins:
                value = wins
                break
        decided[key] = value
        return value


class Unfinished(TooLarge):
    """The budget ran out before the side's verdict was proven: what was proven by then — moves shown to keep
    or lose (each with its exact value) and the moves not settled."""

    def __init__(self, nodes: int, ms: float, proven: list[tuple[Any, int]], unproven: list[Any]):
        super().__init__(nodes, ms)
        self.proven, self.unproven = proven, unproven


@dataclass
class Analysis:
    """A solved position: its value, each move's value (in the adapter's order), and one line of best play.
    `unproven`: the moves whose value the budget did not settle once the position's value was proven (only
    the win/lose games leave any: their value needs one winning move, not all); `moves` then lists the others."""

    value: int
    moves: list[tuple[Any, int]]
    line: list[Any]
    nodes: int
    ms: float
    unproven: list[Any] = field(default_factory=list)
    line_complete: bool = True  # False: the budget ran out before the line reached the end of the deal


_NONE = object()  # no move chosen yet (a pass is the move None)
ROOT_SHARE_NODES, ROOT_SHARE = 1_000_000, 0.5  # the position's own search first: at most this part of the budget
# left (nodes and time) and these nodes (`analyse`)
FIRST_SLICE = 2_000  # nodes a root move is first given before the next one is tried (`_root_values`)
SLICE_GROWTH = 4
LINE_SLICE = 2_000  # nodes a line's step gives each candidate before the candidates are solved in full


class _Slice:
    """A share of a query's budget for one search: the query's own limits, lowered to `nodes` more nodes and
    `ms` more milliseconds; `run` tells a share's end from the query's."""

    def __init__(self, budget: Budget):
        self.budget, self.node_limit, self.limit_ms = budget, budget.node_limit, budget.limit_ms

    def run(self, search: Any, nodes: int | None, ms: float | None = None) -> int | None:
        """`search()` within `nodes` more nodes and `ms` more milliseconds (None: the rest of the budget): its
        value, or None when the share ran out first. TooLarge when the query's own budget runs out."""
        budget = self.budget
        budget.node_limit = self.node_limit if nodes is None else min(self.node_limit, budget.nodes + nodes)
        budget.limit_ms = self.limit_ms if ms is None else min(self.limit_ms, budget.elapsed_ms() + ms)
        try:
            return int(search())
        except TooLarge:
            if budget.nodes > self.node_limit or budget.elapsed_ms() > self.limit_ms or nodes is None and ms is None:
                raise
            return None
        finally:
            budget.node_limit, budget.limit_ms = self.node_limit, self.limit_ms


def _root_values(solver: Solver, game: Game, pos: Any, moves: Sequence[Any], values: dict[int, int],
                 enough: int | None, share: _Slice) -> None:
    """Settle the values of the root's `moves` (by index into `values`), stopping at the first whose value is
    `enough` (the side to act's win: the position's value is then proven) — a win/lose game needs one winning
    move, not all. The moves take turns with a growing share of nodes each (`FIRST_SLICE`, ×`SLICE_GROWTH`),
    so a move whose proof is short is not held up behind one whose proof is long; the shared table keeps what
    an interrupted search settled (an entry is written only once its value is exact). TooLarge when the
    query's budget runs out first."""
    nodes = FIRST_SLICE
    while True:
        open_moves = [i for i in range(len(moves)) if i not in values]
        if not open_moves:
            return
        for i in open_moves:
            value = share.run(lambda i=i: solver.exact(game.child(pos, moves[i])), nodes)  # type: ignore[misc]
            if value is not None:
                values[i] = value
                if value == enough:
                    return
        nodes *= SLICE_GROWTH


def analyse(game: Game, pos: Any, budget: Budget, line_limit: int = 200) -> Analysis:
    """Every move of the position with its exact value, the position's value and a line of best play from it
    (each side keeping its value). TooLarge when the budget runs out first — `Unfinished` with the moves it
    proved when the position's value is not proven; in a win/lose game, once it is (a winning move, or every
    move losing) and the line is made, the budget running out leaves the other moves `unproven` instead."""
    solver = Solver(game, budget)
    maximising = game.maximising(pos)
    moves = list(game.moves(pos, budget))
    if game.bounds != (0, 1) or not moves:
        scored = [(move, solver.exact(game.child(pos, move))) for move in moves]
        values_only = [score for _, score in scored]
        value = (max(values_only) if maximising else min(values_only)) if values_only else solver.exact(pos)
        return Analysis(value, scored, _line(solver, game, pos, value, budget, line_limit, None, []), budget.nodes,
                        budget.elapsed_ms())
    share = _Slice(budget)
    wins = int(maximising)
    values: dict[int, int] = {}
    try:
        # First the position itself, in the search's own order, with a share of the budget: the verdict needs
        # one winning move (or every move losing), and the search's order usually finds it soonest; the table
        # then holds the children it settled. Only if that share is not enough do the moves take turns.
        # (Depth-first proof-number search did worse here: docs/PERFORMANCE.md, "Reach".)
        nodes_left, ms_left = budget.node_limit - budget.nodes, budget.limit_ms - budget.elapsed_ms()
        # (An adapter whose search is compiled walks some 20 times the nodes in the same time: its own cap.)
        cap = getattr(game, "root_share_nodes", ROOT_SHARE_NODES)
        part = getattr(game, "root_share", ROOT_SHARE)  # (and its own part of the budget, where it has one)
        share.run(lambda: solver.exact(pos), min(cap, int(nodes_left * part)), ms_left * part)
        _root_values(solver, game, pos, moves, values, wins, share)
    except TooLarge as error:
        raise Unfinished(error.nodes, error.ms, [(moves[i], values[i]) for i in sorted(values)],
                         [m for i, m in enumerate(moves) if i not in values]) from error
    value = wins if wins in values.values() else 1 - wins
    line: list[Any] = []
    try:
        _line(solver, game, pos, value, budget, line_limit, share, line)
    except TooLarge:  # the verdict stands; the line is cut where the budget ran out
        return Analysis(value, [(moves[i], values[i]) for i in sorted(values)], line, budget.nodes,
                        budget.elapsed_ms(), [m for i, m in enumerate(moves) if i not in values], line_complete=False)
    with contextlib.suppress(TooLarge):  # the value and the line stand; the moves left are reported unproven
        _root_values(solver, game, pos, moves, values, None, share)
    scored = [(moves[i], values[i]) for i in range(len(moves)) if i in values]
    return Analysis(value, scored, line, budget.nodes, budget.elapsed_ms(),
                    [m for i, m in enumerate(moves) if i not in values])


def _line(solver: Solver, game: Game, pos: Any, value: int, budget: Budget, line_limit: int,
          share: _Slice | None, line: list[Any]) -> list[Any]:
    """A line of best play from `pos` (of value `value`) to the end, appended to `line` (so a caller keeps what
    was made if the budget runs out): at each step the first move, in the adapter's order, that keeps the value.
    In a win/lose game each candidate is first given a small share of nodes (`LINE_SLICE`: the proof just made
    has most of them in the table) and only then solved in full."""
    current, target = pos, value
    win_lose = game.bounds == (0, 1)
    while game.terminal(current) is None and len(line) < line_limit:
        here = game.moves(current, budget)
        chosen: Any = _NONE
        if len(here) == 1 or win_lose and target != int(game.maximising(current)):
            # One move, or (win/lose) a side that loses here: every move keeps the value, so the first is the
            # one the search below would choose too — without solving its child again.
            chosen = here[0]
        else:
            if share is not None:
                quick = (share.run(lambda m=m, at=current: solver.exact(game.child(at, m)), LINE_SLICE) == target
                         for m in here)
                chosen = next((m for m, keeps in zip(here, quick, strict=False) if keeps), _NONE)
            if chosen is _NONE:
                chosen = next(m for m in here if solver.exact(game.child(current, m)) == target)
        line.append(chosen)
        current = game.child(current, chosen)
    return line


# The budget of a cache refill inside `child`: the plays were generated (and counted) when `moves` asked.
UNLIMITED = Budget(limit_ms=float("inf"), node_limit=1 << 62)
