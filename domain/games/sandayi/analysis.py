"""三打一's analysis adapter: the dealer alone against the three defenders, plays read by its own patterns (the
search: domain/solver/shedding.py; suits never matter, rules §1.2), each seat's bombs counted against its
allowance; a 报到 hand with locked sets is not analysed."""

from __future__ import annotations

from typing import Any

from domain.games.sandayi import patterns
from domain.games.shedding import LITTLE, RANK_VALUE, card_value
from domain.kernel.errors import IllegalAction
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
                     lambda found: patterns.is_bomb(found[0]))


def _not_locked(state: Any) -> None:
    if state.locked:
        raise IllegalAction("not_analysable", "A 报到 hand with locked sets (sdy.baodao.lockCards) is not "
                            "analysed.", "报到锁牌（sdy.baodao.lockCards）的局面不做分析。", {})


def _bombs(state: Any) -> tuple[int | None, ...]:
    return tuple(None if a is None else max(0, a - p)
                 for a, p in zip(state.allowance, state.bombs_by_seat, strict=True))


ANALYSIS = RankAnalysis(rules, role="dealer", others="defenders", bombs=_bombs, check=_not_locked)
