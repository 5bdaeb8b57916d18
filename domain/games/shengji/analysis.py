"""升级's analysis adapter: its endgames: the most points the attackers can still take under perfect play.

Trick play has too many rules to mirror safely (following suit, pairs and tractors §3.7, throws §3.6, the kitty
bonus §3.9), so here the engine itself is the game: a position is a copy of its state, a move is applied by
`ShengjiEngine.apply`, a follow is legal exactly when `follow_obligation` finds nothing wrong with it, and a lead
is any set of one effective suit the engine accepts (a throw that fails is a legal action too: the engine plays
its forced part and charges its penalty). The value of a finished deal is the engine's `attacker_points`.
Only endgames of at most MAX_TRICKS tricks are searched; the search's budget still applies.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Hashable
from typing import Any

from domain.games.shengji.engine import ShengjiEngine
from domain.games.shengji.state import ShengjiState
from domain.kernel.engine import Engine, team_of
from domain.kernel.errors import IllegalAction
from domain.solver.position import Position
from domain.solver.search import Budget, TooLarge

MAX_TRICKS = 4  # the endgames searched: at most this many tricks left (docs/analysis.md, docs/PERFORMANCE.md)

Move = tuple[str, ...]


def clone(state: ShengjiState) -> ShengjiState:
    """A copy of a playing state that the engine may change without touching the original: every list play
    changes is copied (the trick entries and the tricks closed are never changed once made)."""
    out = copy.copy(state)
    out.hands = [list(hand) for hand in state.hands]
    out.counts = [list(row) for row in state.counts]
    out.trick = list(state.trick)
    out.tricks = list(state.tricks)
    out.captured = list(state.captured)
    out.penalties = list(state.penalties)
    out.fouls = list(state.fouls)
    out.irregularities = list(state.irregularities)
    return out


def tricks_left(state: ShengjiState) -> int:
    return max(len(hand) for hand in state.hands)


class ShengjiGame:
    """升级 for the search: the attackers maximise their points, the dealer's team minimises them."""

    bounds = (0, 100_000)  # far beyond any deal's points, kitty bonus included

    def __init__(self, engine: ShengjiEngine, dealer: int):
        self.engine = engine
        self.attackers = 1 - team_of(dealer)
        self._children: dict[tuple[Hashable, Move], ShengjiState] = {}

    def key(self, state: ShengjiState) -> Hashable:
        trick = tuple((entry["seat"], tuple(entry["cards"])) for entry in state.trick)
        effect = sum(p["effect"] for p in state.penalties)
        return (tuple(tuple(sorted(hand)) for hand in state.hands), state.to_act, trick, state.shape,
                state.best_seat, state.best_key, tuple(state.captured), effect)

    def terminal(self, state: ShengjiState) -> int | None:
        if state.phase != "finished":
            return None
        result = self.engine.result(state)
        assert result is not None
        return int(result["attacker_points"])

    def maximising(self, state: ShengjiState) -> bool:
        return team_of(state.to_act) == self.attackers

    def moves(self, state: ShengjiState, budget: Budget) -> list[Move]:
        seat = state.to_act
        hand = sorted(state.hands[seat])
        order = state.order
        assert order is not None
        if state.trick:
            assert state.shape is not None
            candidates = set(itertools.combinations(hand, state.shape.size))
            budget.tick(1 + len(candidates) // 16)
            return [c for c in sorted(candidates) if self.engine.follow_obligation(state, seat, list(c)) is None]
        found: list[Move] = []
        by_suit: dict[Any, list[str]] = {}
        for code in hand:
            by_suit.setdefault(order.suit[code], []).append(code)
        for cards in by_suit.values():
            for size in range(1, len(cards) + 1):
                candidates = set(itertools.combinations(cards, size))
                budget.tick(1 + len(candidates) // 16)
                found.extend(c for c in sorted(candidates) if self._accepted(state, c))
        return found

    def _accepted(self, state: ShengjiState, move: Move) -> bool:
        try:
            self.child(state, move)
        except IllegalAction:
            return False
        return True

    def child(self, state: ShengjiState, move: Move) -> ShengjiState:
        cache = (self.key(state), move)
        found = self._children.get(cache)
        if found is None:
            found = clone(state)
            self.engine.apply(found, {"seat": state.to_act, "type": "play", "cards": list(move)})
            self._children[cache] = found
        return found


class ShengjiAnalysis:
    """Endgames of at most MAX_TRICKS tricks (larger ones are TooLarge at once); the search values the points
    the attackers still take, and the side to act wins when the engine's `winner_team` at the end of the best
    line is its team."""

    points = True
    suitless = False

    def position(self, engine: Engine, state: Any) -> Position:
        seat = state.to_act
        if tricks_left(state) > MAX_TRICKS:
            raise TooLarge(0, 0.0)
        game = ShengjiGame(engine, state.dealer)  # type: ignore[arg-type]
        side = "attackers" if team_of(seat) == game.attackers else "dealer_team"
        return Position(game, state, seat, side, engine, state)

    def side_wins(self, engine: Engine, final: Any, to_act: int) -> bool:
        result = engine.result(final)
        assert result is not None
        return bool(result["winner_team"] == team_of(to_act))


ANALYSIS = ShengjiAnalysis()
