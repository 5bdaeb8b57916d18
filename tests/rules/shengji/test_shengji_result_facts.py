"""升级's result facts as docs/record-format.md "Result" (升级) lists them, with S004's 大分 and 小分
(docs/rules/shengji.md §3.12: a hold scores the dealer team 2, 4 under 40, 6 at 0; a take-over the attackers 2, 4
at 120, 6 at 160, 10 at 200; 小分 = the attackers' P, 0 for the dealer team). Entered as score slips (the engine's
own scoring of the facts)."""

from __future__ import annotations

from typing import Any

import pytest
from game_support import documented_example, final_result

from domain.kernel.engine import DealSetup
from domain.records.slips import score

SEATS = ["东", "南", "西", "北"]
CONTEXT = {"levels": [5, 3], "dealer": 0, "deal_number": 4}


def scored(facts: dict[str, Any]) -> dict[str, Any]:
    return score(DealSetup("shengji", {}, SEATS, 0, [], [], CONTEXT), facts)[1]


@pytest.mark.parametrize(("points", "big", "winner", "next_dealer"), [
    (0, [6, 0], 0, 2), (35, [4, 0], 0, 2), (40, [2, 0], 0, 2), (75, [2, 0], 0, 2),
    (80, [0, 2], 1, 1), (120, [0, 4], 1, 1), (160, [0, 6], 1, 1), (200, [0, 10], 1, 1),
])
def test_big_and_small_points_by_team(points: int, big: list[int], winner: int, next_dealer: int) -> None:
    """Dealer 东 (team 0 = 东 西) at level 5: the attackers (南 北) take P; a hold passes the deal to the dealer's
    partner, a take-over to the dealer's next player (§3.10)."""
    result = scored({"dealer": 0, "points": points, "kitty": {"points": 0, "pairs": None}})
    assert (result["big_points"], result["small_points"]) == (big, [0, points])
    assert (result["winner_team"], result["takeover"], result["next_dealer"]) == (winner, winner == 1, next_dealer)


def test_the_deal_as_played() -> None:
    result = scored({"dealer": 0, "points": 60, "kitty": {"points": 0, "pairs": None}, "trump": "H", "declarer": 0})
    assert (result["dealer"], result["dealer_team"], result["declarer"], result["trump"]) == (0, 0, 0, "H")
    assert (result["level"], result["levels"], result["deal_number"]) == (5, [5, 3], 4)
    assert (result["attacker_points"], result["dealer_team_points"]) == (60, 140)
    assert result["level_change"] == {"team": 0, "steps": 1} and result["new_levels"] == [6, 3]


def test_small_points_go_to_the_attackers_whichever_team_they_are() -> None:
    """Dealer 南 (team 1): the attackers are 东 西, team 0."""
    result = score(DealSetup("shengji", {}, SEATS, 0, [], [], {**CONTEXT, "dealer": 1}),
                   {"dealer": 1, "points": 60, "kitty": {"points": 0, "pairs": None}})[1]
    assert (result["small_points"], result["big_points"], result["dealer_team"]) == ([60, 0], [0, 2], 1)


ADJUDICATE = {"sj.illegalPlay": "adjudicate"}


def cut_short(facts: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    return score(DealSetup("shengji", options, SEATS, 0, [], [], CONTEXT), facts)[1]


def test_an_attackers_revoke_gives_the_dealer_team_two() -> None:
    """§3.13: a revoke is 0 : 2 — the non-offending dealer team gets 2 大分 and holds at +1, whatever P the
    attackers had (120 would earn them 4)."""
    result = cut_short({"dealer": 0, "points": 120, "ended_by": "revoke", "offender": 1}, ADJUDICATE)
    assert (result["big_points"], result["winner_team"], result["takeover"]) == ([2, 0], 0, False)
    assert result["level_change"] == {"team": 0, "steps": 1} and result["match_winner"] is None


@pytest.mark.parametrize("ending", ["revoke", "miscount"])
def test_a_revoke_or_miscount_ends_the_match_under_the_option(ending: str) -> None:
    """§3.13 and the options table: with `sj.revokeEndsMatch` a revoke or a miscount ends the match, won by the
    non-offending side."""
    facts = {"dealer": 0, "points": 40, "ended_by": ending, "offender": 3}
    assert cut_short(facts, {**ADJUDICATE, "sj.revokeEndsMatch": True})["match_winner"] == 0
    assert cut_short(facts, ADJUDICATE)["match_winner"] is None


def test_the_declarer_is_the_seat_whose_declaration_fixed_the_trump() -> None:
    """docs/record-format.md's complete 升级 example, played: `declarer` is the seat of its last declaration."""
    record = documented_example("升级")
    declarations = [action for action in record["actions"] if action["type"] == "declare"]
    assert declarations and final_result(record)["declarer"] == declarations[-1]["seat"]
