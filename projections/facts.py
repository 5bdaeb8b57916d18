"""Per-seat facts of one finished deal: the vocabulary that formats and tiebreaks are written in.

Every game gives `score` (its `result.scores[seat]`). A game's result may name further facts directly as
`result.seat_facts = {name: [value per seat]}`; the engines written before that convention (斗地主, 升级) are
read by the adapters below. A deal counted at a table also has the table's standing after it (the match
layer's, `Match.DealScored`), which the 升级 adapter reads for what only the match knows: the match's levels and
who won the 加赛. docs/ARCHITECTURE.md lists what each format needs (also `Format.facts`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine import team_of

Facts = dict[str, Any]


def _doudizhu(result: dict[str, Any], standing: dict[str, Any] | None, facts: list[Facts]) -> None:
    landlord = result.get("landlord")  # None on a redeal: nobody won or lost
    penalties = result.get("penalties") or [0] * len(facts)
    for seat, entry in enumerate(facts):
        is_landlord = landlord == seat
        won = landlord is not None and is_landlord == bool(result["landlord_won"])
        entry.update(landlord=int(is_landlord), won=int(won), landlord_won=int(is_landlord and won),
                     penalty=-penalties[seat])


def _shengji(result: dict[str, Any], standing: dict[str, Any] | None, facts: list[Facts]) -> None:
    redeal = bool(result.get("redeal"))
    # The match's levels: S001's 加赛 restarts at 2 in its own deal, but moves no level of the match.
    levels = standing["levels"] if standing else result["levels"] if redeal else result["new_levels"]
    end = (standing or {}).get("end") or {}
    for seat, entry in enumerate(facts):
        team = team_of(seat)
        entry.update(team=team, level=levels[team], dealer=int(not redeal and result["dealer"] == seat),
                     won=int(not redeal and result["winner_team"] == team),
                     big_points=0 if redeal else result["big_points"][team],
                     small_points=0 if redeal else result["small_points"][team],
                     extra_deal=int(end.get("by") == "extra_deal" and end.get("winner") == team))


Adapter = Callable[[dict[str, Any], "dict[str, Any] | None", list[Facts]], None]
ADAPTERS: dict[str, Adapter] = {"doudizhu": _doudizhu, "shengji": _shengji}


def seat_facts(game: str, result: dict[str, Any], standing: dict[str, Any] | None = None) -> list[Facts]:
    """One dict of facts per seat, from a finished deal's result and the table's standing after it (None: a
    deal not counted at a table, or scored before tables recorded their standing)."""
    facts: list[Facts] = [{"score": score} for score in result["scores"]]
    adapter = ADAPTERS.get(game)
    if adapter is not None:
        adapter(result, standing, facts)
    for name, values in (result.get("seat_facts") or {}).items():
        for seat, value in enumerate(values):
            facts[seat][name] = value
    if "board" in result:  # duplicate scoring compares the same board (docs/rules/wakeng.md B11.8)
        for entry in facts:
            entry["board"] = result["board"]
    return facts
