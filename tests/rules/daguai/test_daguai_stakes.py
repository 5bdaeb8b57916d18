"""大怪路子 points against docs/rules/daguai.md A6 and A7 written as a small oracle: every finishing pattern of the
two teams, for either team as the 头家's, with 0, 1 or 2 fouls on each side — the boundary of "a side with ≥ 2
fouls" on one side, the other, and both. The existing vectors list A6's table and three foul cases; the oracle here
is A6's formula (caught k = 6 − p from the place p of the 头家 team's third finisher, else k = the 头家 team's
players left), not that table.
"""

from __future__ import annotations

import itertools

import pytest
from test_daguai_rules import ENGINE, play_finishing_order, seats_for

CATCH_POINTS = {3: 8, 2: 5, 1: 3}  # 抓3家 / 抓2家 / 抓1家
CAUGHT_POINTS = {1: 1, 2: 0}  # 被关1家 / 被关2家


def doc_points(letters: str, fouls: tuple[int, int], head_team: int) -> list[int]:
    """Points per team: A letters are the 头家's team (it finished first), B the other's, in finishing order."""
    third_a = [i for i, letter in enumerate(letters) if letter == "A"][2] + 1  # place of the team's third finisher
    third_b = [i for i, letter in enumerate(letters) if letter == "B"][2] + 1
    # The 头家's team out first catches k = 6 − p; else it is caught with k of its players left.
    caught = CATCH_POINTS[6 - third_a] if third_a < third_b else CAUGHT_POINTS[letters[third_b:].count("A")]
    points = [caught if team == head_team else 0 for team in (0, 1)]
    fouled = [n >= 2 for n in fouls]  # A7: a side with ≥ 2 fouls in the deal is scored as caught three
    if all(fouled):
        return [0, 0]
    if any(fouled):
        return [0 if fouled[team] else 8 for team in (0, 1)]
    return points


PATTERNS = sorted({"A" + "".join(p) for p in itertools.permutations("AABBB")})


@pytest.mark.parametrize("fouls", list(itertools.product(range(3), repeat=2)), ids=lambda f: f"fouls{f[0]}{f[1]}")
@pytest.mark.parametrize("head_team", [0, 1])
@pytest.mark.parametrize("letters", PATTERNS)
def test_every_finishing_pattern_with_every_foul_count(letters, head_team, fouls):
    order = seats_for(letters, head_team)
    against = [seat for team in (0, 1) for seat in range(team, 6, 2)[:fouls[team]]]
    result = ENGINE.result(play_finishing_order(order, against))
    assert result["fouls_by_team"] == list(fouls)
    expected = doc_points(letters, fouls, head_team)
    assert result["team_points"] == expected
    assert result["scores"] == [expected[s % 2] for s in range(6)]
    assert result["decided_by_fouls"] == any(n >= 2 for n in fouls)
