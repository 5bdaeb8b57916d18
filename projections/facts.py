"""Per-seat facts of one finished deal: the vocabulary that formats and tiebreaks are written in.

Every game gives `score` (its `result.scores[seat]`); its table names the rest (`MatchRules.seat_facts`: from
the stored result and the table's standing after the deal, which alone knows some of them, such as 升级's match
levels and who won the 加赛). docs/ARCHITECTURE.md lists what each format needs (also `Format.facts`).
"""

from __future__ import annotations

from typing import Any

from domain.games import get_table

Facts = dict[str, Any]


def seat_facts(game: str, result: dict[str, Any], standing: dict[str, Any] | None = None) -> list[Facts]:
    """One dict of facts per seat, from a finished deal's result and the table's standing after it (None: a
    deal not counted at a table, or scored before tables recorded their standing)."""
    facts: list[Facts] = [{"score": score} for score in result["scores"]]
    for name, values in get_table(game).seat_facts(result, standing).items():
        for seat, value in enumerate(values):
            facts[seat][name] = value
    return facts
