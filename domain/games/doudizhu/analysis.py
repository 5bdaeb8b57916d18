"""斗地主's analysis adapter: the landlord alone against the two farmers, plays read by its own patterns (the
search: domain/solver/shedding.py; suits never matter, rules §2.1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.games.doudizhu import patterns
from domain.games.shedding import RANK_VALUE, card_value
from domain.solver import candidates as family
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
                     sequences_only_of_counts=True, candidates=candidates)


_RANKS = 15  # 3..A, 2, 小王, 大王
_LINE = tuple(range(RANK_VALUE["A"] - 2))  # the rank indices a sequence may use: 3..A (§2.2)


def candidates(hand: int) -> Iterator[int]:
    """The sub-multisets of a packed hand that can be a 斗地主 play (§2.2), a superset `readings` sorts out:
    up to 4 cards of any ranks (single, pair, trio, bomb, rocket, 三带一), a trio with 2 cards of other ranks
    (三带一对), runs of 1, 2 or 3 cards a rank (单顺, 双顺, 三顺), four with 2 cards or 2 pairs of other ranks
    (四带二), and a run of trios with as many cards, or pairs, of the other ranks (飞机带翅膀)."""
    yield from family.small(hand, _RANKS, 4)
    for width in (1, 2):
        for play, _ in family.runs(hand, _LINE, width):
            yield play
    for trio in family.of_width(hand, _RANKS, 3):
        yield from family.with_kickers(hand, _RANKS, trio, (2,))
    for quad in family.of_width(hand, _RANKS, 4):
        yield from family.with_kickers(hand, _RANKS, quad, (2,))
        yield from family.with_pairs(hand, _RANKS, quad, 2)
    for body, used in family.runs(hand, _LINE, 3):
        yield body
        yield from family.with_kickers(hand, _RANKS, body, (len(used),))
        yield from family.with_pairs(hand, _RANKS, body, len(used))


ANALYSIS = RankAnalysis(rules, role="landlord", others="farmers", last=lambda state: tuple(state.last_readings))
