"""三打一's analysis adapter: the dealer alone against the three defenders, plays read by its own patterns (the
search: domain/solver/shedding.py; suits never matter, rules §1.2), each seat's bombs counted against its
allowance; a 报到 hand with locked sets is not analysed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.games.sandayi import patterns
from domain.games.shedding import LITTLE, RANK_VALUE, card_value
from domain.kernel.errors import IllegalAction
from domain.solver import candidates as family
from domain.solver.packed import Counts, as_dict, cards_for
from domain.solver.position import RankAnalysis
from domain.solver.shedding import RankRules

_NAMES = {v: ("S" + name if v < LITTLE else name) for name, v in RANK_VALUE.items()}


def rules(options: dict[str, Any]) -> RankRules:
    values = tuple(range(3, 18))
    compare = options["sdy.fullHouseCompare"]

    def readings(counts: Counts) -> tuple[Any, ...]:
        found = patterns.parse(cards_for(values, _NAMES, counts), as_dict(values, counts))
        return () if found is None else (found,)

    def answers(play: tuple[Any, ...], last: tuple[Any, ...]) -> tuple[Any, ...]:
        return play if patterns.beats(play[0], last[0], compare) else ()

    return RankRules("sandayi", values, RANK_VALUE["A"], card_value, readings, answers,
                     lambda found: patterns.is_bomb(found[0]), candidates=candidates)


_RANKS = 15  # 3..A, 2, 小王, 大王
_ACE, _TWO = RANK_VALUE["A"] - 3, RANK_VALUE["2"] - 3
# The rank indices in sequence positions 1..14: A (low), 2, 3..K, A (high) (§1.2).
_LINE = (_ACE, _TWO, *range(RANK_VALUE["K"] - 2), _ACE)


def candidates(hand: int) -> Iterator[int]:
    """The sub-multisets of a packed hand that can be a 三打一 play (§1.3), a superset `readings` sorts out:
    up to 4 cards of any ranks (single, pair, 天王炸弹), every set of one rank (triple, bombs of 4–8), a triple
    with 2 cards of another rank (三带二), runs of 1, 2 or 3 cards a sequence position (单顺, 双顺, 三顺; an ace
    low, high or both) and a run of triples with as many pairs of other ranks (飞机带翅膀)."""
    yield from family.small(hand, _RANKS, 4)
    yield from family.same_rank(hand, _RANKS)
    for triple in family.of_width(hand, _RANKS, 3):
        yield from family.with_kickers(hand, _RANKS, triple, (2,))
    for width in (1, 2):
        for play, _ in family.runs(hand, _LINE, width):
            yield play
    for body, used in family.runs(hand, _LINE, 3):
        yield body
        yield from family.with_pairs(hand, _RANKS, body, len(used))


def _not_locked(state: Any) -> None:
    if state.locked:
        raise IllegalAction("not_analysable", "A 报到 hand with locked sets (sdy.baodao.lockCards) is not "
                            "analysed.", "报到锁牌（sdy.baodao.lockCards）的局面不做分析。", {})


def _bombs(state: Any) -> tuple[int | None, ...]:
    return tuple(None if a is None else max(0, a - p)
                 for a, p in zip(state.allowance, state.bombs_by_seat, strict=True))


ANALYSIS = RankAnalysis(rules, role="dealer", others="defenders", bombs=_bombs, check=_not_locked)
