"""Duplicate scoring (the 挖坑 rules B7): each seat's result matchpointed against every other result on
the same board in the same seat, a weighted score (an appeal's, docs/appeals.md) part by part."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from projections.facts import Facts
from projections.standings_values import Line, Number

PARTS = "_parts"  # a weighted score's (weight, score) parts for one seat, matchpointed part by part (Law 12C1c)


def matchpoint(every: list[tuple[Line, dict[str, Any], Facts]], duplicate: Sequence[str]) -> None:
    """Set `mp`, `mp_max` and `mp_rate` on each counted deal's facts (`every`: line, deal, facts), compared within
    the groups the format's `duplicate` names (round, seat, or a fact such as the board)."""
    groups: dict[tuple[Any, ...], list[Facts]] = {}
    for line, deal, entry in every:
        # A deal without a board is compared with nothing (rate ½), never with another board.
        key = tuple(line.round if name == "round" else line.seat if name == "seat"
                    else entry.get(name, deal["deal_id"]) for name in duplicate)
        groups.setdefault(key, []).append(entry)
    for group in groups.values():
        for entry in group:
            mp = sum(_versus(entry, other) for other in group if other is not entry)
            entry["mp"] = mp
            entry["mp_max"] = 2 * (len(group) - 1)
            entry["mp_rate"] = Fraction(mp, 2 * (len(group) - 1)) if len(group) > 1 else Fraction(1, 2)


def _versus(mine: Facts, theirs: Facts) -> Number:
    # A weighted score is matchpointed part by part, each comparison weighted (Law 12C1c, as bridge does).
    return sum(wa * wb * (2 if a > b else 1 if a == b else 0)
               for wa, a in mine.get(PARTS, [(1, mine["score"])])
               for wb, b in theirs.get(PARTS, [(1, theirs["score"])]))
