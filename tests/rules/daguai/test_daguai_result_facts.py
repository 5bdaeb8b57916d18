"""大怪路子's whole result, fact by fact, as docs/record-format.md "Result" (大怪路子) lists them and
docs/rules/daguai.md A6/A7 price them: only the 头家's team scores (抓 3/2/1 家 8/5/3, 被关 1 家 1, 被关 2 家 0); a
side with two fouls scores 0 and the other 8, both sides 0. Teams alternate: team 0 = seats 0, 2, 4. Entered as
score slips (the engine's own scoring of the facts)."""

from __future__ import annotations

from typing import Any

from domain.kernel.engine import DealSetup
from domain.records.slips import score

SEATS = ["甲", "乙", "丙", "丁", "戊", "己"]
TEAMS = [0, 1, 0, 1, 0, 1]


def scored(order: list[int], fouls: list[int] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    facts = {"finish_order": order, "fouls": [{"seat": s, "code": "talking"} for s in fouls]}
    return score(DealSetup("daguai", {}, SEATS, 0, [], [], {}), facts)[1]


def test_catching_three() -> None:
    """Seat 2 goes out first (头家, team 0) and team 0 is all out at place 3: 抓 3 家, 8."""
    assert scored([2, 0, 4]) == {
        "scores": [8, 0, 8, 0, 8, 0], "team_points": [8, 0], "finish_order": [2, 0, 4], "deciding_order": [2, 0, 4],
        "first_finisher": 2, "head_team": 0, "outcome": "catch", "k": 3, "fouls_by_team": [0, 0],
        "decided_by_fouls": False, "seat_facts": {"team": TEAMS, "first_finisher": [1, 0, 1, 0, 1, 0]},
    }


def test_caught_one() -> None:
    """Seat 1 first (team 1); team 0 all out first while one of team 1 still holds cards: 被关 1 家, 1 to team 1."""
    result = scored([1, 0, 3, 2, 4])
    assert (result["team_points"], result["head_team"], result["outcome"], result["k"]) == ([0, 1], 1, "caught", 1)
    assert result["scores"] == [0, 1, 0, 1, 0, 1]
    assert result["seat_facts"] == {"team": TEAMS, "first_finisher": [0, 1, 0, 1, 0, 1]}


def test_two_fouls_on_a_side_give_the_other_eight() -> None:
    result = scored([2, 0, 4], fouls=[0, 4])
    assert (result["team_points"], result["fouls_by_team"], result["decided_by_fouls"]) == ([0, 8], [2, 0], True)
    assert result["scores"] == [0, 8, 0, 8, 0, 8]
    both = scored([2, 0, 4], fouls=[0, 4, 1, 3])
    assert (both["team_points"], both["decided_by_fouls"]) == ([0, 0], True)
