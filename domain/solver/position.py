"""What a game's analysis adapter (domain/games/<game>/analysis.py) hands the search: a `Position`, and the
adapter every ranks-only shedding game shares (`RankAnalysis`: a side alone against the others, plays read by
the game's own patterns through a `RankRules`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.kernel.engine import Engine
from domain.kernel.errors import IllegalAction
from domain.solver.shedding import RankGame, RankPosition, RankRules


def not_analysable(phase: str) -> IllegalAction:
    return IllegalAction("not_analysable", f"Analysis is of card play; this position is in phase {phase!r} "
                         "(bidding, declaring, burying or a finished deal has no play to analyse).",
                         f"分析只针对出牌阶段；该局面处于 {phase!r} 阶段（叫牌、亮主、扣底或已结束的牌局无可分析）。",
                         {"phase": phase})


@dataclass
class Position:
    """A position ready to search: the adapter, its root, the side names and how moves read as actions."""

    game: Any
    root: Any
    to_act: int
    side: str
    engine: Engine
    state: Any  # the engine's state at the root (never changed)


_RULES_SEEN: dict[tuple[str, Any], tuple[tuple[Any, ...], RankRules]] = {}


def _rules(game_code: str, options: dict[str, Any], make: Callable[[dict[str, Any]], RankRules]
           ) -> tuple[tuple[Any, ...], RankRules]:
    """The rules of a deal's options and the key its queries share tables under, made once per options."""
    try:
        seen: Any = (game_code, frozenset(options.items()))
        found = _RULES_SEEN.get(seen)
    except TypeError:  # an option's value is a list or a table: keyed by its JSON instead
        seen = (game_code, json.dumps(options, sort_keys=True, default=str))
        found = _RULES_SEEN.get(seen)
    if found is None:
        if len(_RULES_SEEN) > 64:
            _RULES_SEEN.clear()
        found = _RULES_SEEN[seen] = ((json.dumps(options, sort_keys=True, default=str),), make(options))
    return found


@dataclass(frozen=True)
class RankAnalysis:
    """The analysis of a ranks-only shedding game where one seat (its `role`: the state's attribute naming it)
    plays alone against the `others`. `check` refuses a state the search cannot read; `bombs` gives the bombs
    each seat may still play (None: any); `last` the readings of the play to answer."""

    rules: Callable[[dict[str, Any]], RankRules]
    role: str
    others: str
    last: Callable[[Any], tuple[Any, ...]] = lambda state: (state.last_pattern,)
    bombs: Callable[[Any], tuple[int | None, ...]] | None = None
    check: Callable[[Any], None] | None = None
    points = False
    suitless = True

    def position(self, engine: Engine, state: Any) -> Position:
        seat = state.to_act
        alone = getattr(state, self.role)
        if self.check is not None:
            self.check(state)
        teams = [0 if s == alone else 1 for s in range(engine.seat_count)]
        # Queries of the same rules (the deal's options) share what they learn of plays (packed._Shared).
        options_key, rules = _rules(engine.game, state.options, self.rules)
        game = RankGame(rules, teams, teams[seat], options_key)
        bombs = self.bombs(state) if self.bombs is not None else (None,) * engine.seat_count
        following = state.last_seat is not None and state.last_seat != seat
        last: Any = tuple(sorted(set(self.last(state)))) if following else None
        root = RankPosition(tuple(game.counts(hand) for hand in state.hands), seat,
                            state.last_seat if following else None, last, bombs)
        game.set_root(root)
        side = self.role if teams[seat] == 0 else self.others
        return Position(game, root, seat, side, engine, state)
