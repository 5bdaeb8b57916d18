"""挖坑's analysis adapter: the digger alone against the two defenders, plays read by its own patterns (the
search: domain/solver/shedding.py; suits never matter, rules B2)."""

from __future__ import annotations

from typing import Any

from domain.games.wakeng import patterns
from domain.solver.packed import Counts, cards_for
from domain.solver.position import RankAnalysis
from domain.solver.shedding import RankRules

_NAMES = {v: "S" + name for name, v in patterns.RANK_VALUE.items()}


def rules(options: dict[str, Any]) -> RankRules:
    values = tuple(sorted(patterns.RANK_VALUE.values()))
    quad_is_bomb = options["wk.quadIsBomb"]

    def readings(counts: Counts) -> tuple[Any, ...]:
        found = patterns.parse(cards_for(values, _NAMES, counts))
        return () if found is None else (found,)

    def answers(play: tuple[Any, ...], last: tuple[Any, ...]) -> tuple[Any, ...]:
        return play if patterns.beats(play[0], last[0], quad_is_bomb) else ()

    # A sequence tops at A, as in the other shedding games (the ranks above it never chain).
    return RankRules("wakeng", values, patterns.RANK_VALUE["A"], patterns.card_value, readings, answers,
                     lambda found: quad_is_bomb and found[0].kind == "quad")


ANALYSIS = RankAnalysis(rules, role="digger", others="defenders")
