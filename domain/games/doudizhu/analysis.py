"""斗地主's analysis adapter: the landlord alone against the two farmers, plays read by its own patterns (the
search: domain/solver/shedding.py; suits never matter, rules §2.1)."""

from __future__ import annotations

from typing import Any

from domain.games.doudizhu import patterns
from domain.games.shedding import RANK_VALUE, card_value
from domain.solver.packed import Counts, as_dict
from domain.solver.position import RankAnalysis
from domain.solver.shedding import RankRules


def rules(options: dict[str, Any]) -> RankRules:
    values = tuple(range(3, 18))

    def readings(counts: Counts) -> tuple[Any, ...]:
        return tuple(sorted(set(patterns.parses_of_counts(as_dict(values, counts), sum(counts)))))

    def answers(play: tuple[Any, ...], last: tuple[Any, ...]) -> tuple[Any, ...]:
        # The readings that beat some reading of the last play; the round goes on from them (§2.2).
        return tuple(patterns.answers(list(play), list(last)))

    return RankRules("doudizhu", values, RANK_VALUE["A"], card_value, readings, answers,
                     lambda found: patterns.is_bomb(patterns.lead_reading(list(found))),
                     sequences_only_of_counts=True)


ANALYSIS = RankAnalysis(rules, role="landlord", others="farmers", last=lambda state: tuple(state.last_readings))
