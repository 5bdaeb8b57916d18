"""挖坑's analysis adapter: the digger alone against the two defenders, plays read by its own patterns (the
search: domain/solver/shedding.py; suits never matter, rules B2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.games.wakeng import patterns
from domain.solver import candidates as family
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
                     lambda found: quad_is_bomb and found[0].kind == "quad", candidates=candidates)


_RANKS = len(patterns.RANK_VALUE)  # 4..K, A, 2, 3
_LINE = tuple(range(patterns.RUN_TOP - 3))  # the rank indices a run may use: 4..K (B2)


def candidates(hand: int) -> Iterator[int]:
    """The sub-multisets of a packed hand that can be a 挖坑 play (B2), a superset `readings` sorts out: every
    set of one rank (single, pair, triple, quad) and runs of 1 or 2 cards a rank (连牌, 对子连牌)."""
    yield from family.same_rank(hand, _RANKS)
    for width in (1, 2):
        for play, _ in family.runs(hand, _LINE, width):
            yield play


ANALYSIS = RankAnalysis(rules, role="digger", others="defenders")
