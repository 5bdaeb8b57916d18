"""What the shedding games share (斗地主, 快乐三打一, 大怪路子; 挖坑 has its own card order): the usual rank values
(3 … 10, J 11, Q 12, K 13, A 14, 2 15, small joker 16, big joker 17 — docs/rules/doudizhu.md §2.1,
docs/rules/sandayi.md §1.2, docs/rules/daguai.md A2) and a round of plays as the views show it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

RANK_VALUE = {str(n): n for n in range(3, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14, "2": 15, "LJ": 16, "BJ": 17}
LITTLE, BIG = 16, 17


def card_value(code: str) -> int:
    return RANK_VALUE[code if code in ("LJ", "BJ") else code[1:]]


def rank_counts(cards: list[str]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for code in cards:
        value = card_value(code)
        counts[value] = counts.get(value, 0) + 1
    return counts


def round_json(plays: list[dict[str, Any]], describe: Callable[[Any], Any]) -> list[dict[str, Any]]:
    """A round's plays for a view: each play's pattern (an engine's own object) as `describe` writes it."""
    return [{**p, "pattern": describe(p["pattern"])} if "pattern" in p else dict(p) for p in plays]
