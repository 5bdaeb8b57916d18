"""Who deals each deal of a 升级 match (docs/record-format.md `first`; docs/rules/shengji.md §3.11), the match's
table called directly (no service)."""

from __future__ import annotations

import random
from typing import Any

from domain.games.shengji.table import ShengjiTable, _won_by, next_context, time_cap_outcome
from fixtures.random_play import common as shared
from fixtures.random_play.shengji import ENGINE, NAMES, play_deal

TABLE = ShengjiTable()


def test_the_first_deal_starts_from_the_opened_seat_and_every_later_deal_from_its_dealer():
    """§3.11: the first deal is a 抢庄 deal at level 2 for both, started from the seat the match was opened with;
    then `first` is the dealer the last deal named."""
    standing = TABLE.start({}, 4)
    assert standing["next"] == {"levels": [2, 2], "dealer": None, "deal_number": 1}
    assert [TABLE.first_seat(standing, first, 1, 4) for first in range(4)] == [0, 1, 2, 3]
    later = {**standing, "next": next_context(standing["next"], {"new_levels": [3, 2], "next_dealer": 1})}
    assert later["next"] == {"levels": [3, 2], "dealer": 1, "deal_number": 2}
    assert [TABLE.first_seat(later, first, 2, 4) for first in range(4)] == [1, 1, 1, 1]
    redealt = next_context(later["next"], {"redeal": True})
    assert redealt == later["next"]  # a redeal is dealt again with the same context


def test_a_context_without_a_deal_number_is_deal_1():
    """docs/record-format.md `context`: the deal number defaults to 1, so the deal after it is deal 2."""
    after = next_context({"levels": [2, 2], "dealer": None}, {"new_levels": [2, 3], "next_dealer": 2})
    assert after == {"levels": [2, 3], "dealer": 2, "deal_number": 2}


def _played(seed: int, dealer: int) -> dict[str, Any]:
    """A random deal played to its end with a dealer, its result as the engine scores it."""
    rng = random.Random(seed)
    setup = shared.random_setup(ENGINE, rng, NAMES, dealer, {}, {"levels": [5, 7], "dealer": dealer,
                                                                 "deal_number": 3})
    state, _ = play_deal(setup, rng, foul_rate=0, irregularity_rate=0)
    return dict(ENGINE.result(state))


def test_each_seat_carries_its_teams_figures_that_the_tiebreaks_read():
    """§3.12: 大分 and 小分 are a team's, both of its players carry them; the level is the team's (S004's
    `level` tiebreak); the dealer and the deal's winning team as the deal named them. Teams are the seats
    across the table (N-S 0 and 2, E-W 1 and 3)."""
    for seed, dealer in ((3, 1), (8, 2)):
        result = _played(seed, dealer)
        facts = TABLE.seat_facts(result, None)
        assert facts["team"] == [0, 1, 0, 1]
        assert facts["level"] == [result["new_levels"][seat % 2] for seat in range(4)]
        assert facts["dealer"] == [int(seat == dealer) for seat in range(4)]
        assert facts["won"] == [int(result["winner_team"] == seat % 2) for seat in range(4)]
        assert facts["big_points"] == [result["big_points"][seat % 2] for seat in range(4)]
        assert facts["small_points"] == [result["small_points"][seat % 2] for seat in range(4)]
        assert sum(facts["won"]) == 2 and facts["extra_deal"] == [0, 0, 0, 0]


def test_a_redeal_counts_for_nobody_and_keeps_the_levels_it_was_dealt_at():
    """§3.4: a 抢庄 deal nobody declared in is dealt again: no dealer, no winner, no points; the levels stand."""
    redeal = {"redeal": True, "scores": [0, 0, 0, 0], "levels": [4, 4]}
    facts = TABLE.seat_facts(redeal, None)
    assert facts == {"team": [0, 1, 0, 1], "level": [4, 4, 4, 4], "dealer": [0, 0, 0, 0], "won": [0, 0, 0, 0],
                     "big_points": [0, 0, 0, 0], "small_points": [0, 0, 0, 0], "extra_deal": [0, 0, 0, 0]}


def test_in_a_match_the_level_is_the_matchs_and_the_extra_deal_is_its_winners():
    """S001: the match's level (a 加赛 deal restarts at 2 but moves no level of the match) and the 加赛 won by the
    team the match's end names (`extra_deal` tiebreak)."""
    result = _played(3, 1)
    standing = {"levels": [9, 11], "end": {"by": "extra_deal", "winner": 1}}
    facts = TABLE.seat_facts(result, standing)
    assert facts["level"] == [9, 11, 9, 11]
    assert facts["extra_deal"] == [0, 1, 0, 1]
    assert TABLE.seat_facts(result, {"levels": [9, 11], "end": {"by": "level", "winner": 1}})["extra_deal"] == [0] * 4


def test_a_match_is_won_on_its_goal_or_by_passing_a_and_otherwise_by_a_revoke():
    """§3.12 / `sj.goalLevel`: a team reaching the goal wins; at 15 only passing A does (a level never passes A:
    the team that would, wins). A match ended otherwise was ended by a revoke (`sj.revokeEndsMatch`)."""
    def won(levels: list[int], team: int, steps: int, goal: int) -> str:
        new = [min(14, level + steps) if seat == team else level for seat, level in enumerate(levels)]
        return _won_by({"levels": levels, "new_levels": new, "level_change": {"team": team, "steps": steps}}, team,
                       goal)

    assert won([4, 3], 0, 1, 5) == "goal"  # S001: level 5 reached
    assert won([3, 3], 1, 1, 5) == "revoke"  # 4: short of the goal
    assert won([13, 9], 0, 2, 15) == "goal"  # K + 2 would pass A
    assert won([14, 9], 0, 1, 15) == "goal"  # at A, one more step passes it
    assert won([12, 9], 0, 2, 15) == "revoke"  # reaching A is not passing it
    assert won([13, 9], 1, 3, 15) == "revoke"  # the other team's steps


def test_at_the_time_cap_the_team_ahead_in_level_wins():
    """§3.11: at the time cap the team ahead in level wins, whichever it is; equal levels go to 大分 then 小分
    (S004) or to an extra deal (S001)."""
    summed = {"big_points": [6, 2], "small_points": [40, 90]}
    s004 = {"sj.equalLevels": "bigPoints"}
    assert time_cap_outcome([9, 5], summed, s004) == {"winner": 0, "by": "level"}
    assert time_cap_outcome([5, 9], summed, s004) == {"winner": 1, "by": "level"}
    assert time_cap_outcome([7, 7], summed, s004) == {"winner": 0, "by": "big_points"}
    assert time_cap_outcome([7, 7], {"big_points": [4, 4], "small_points": [40, 90]}, s004) == {
        "winner": 1, "by": "small_points"}
    assert time_cap_outcome([7, 7], summed, {"sj.equalLevels": "extraDeal"})["by"] == "extra_deal"


def test_misdeals_start_at_none_and_a_standing_recorded_before_them_counts_none():
    """§3.13 (S004 13): each misdeal is dealt again; a team that misdeals more than the allowed number of times is
    disqualified. A match starts with none; a standing recorded before misdeals were counted reads as none, and
    a deal played on it keeps that count."""
    standing = TABLE.start({}, 4)
    assert standing["misdeals"] == [0, 0]
    legacy = {key: value for key, value in standing.items() if key != "misdeals"}
    once = TABLE.misdeal(legacy, 1, 4)
    assert (once["misdeals"], once["end"]) == ([0, 1], None)
    result = dict(_played(3, 1))
    played = TABLE.after_deal(legacy, {"sj.goalLevel": 15}, result)
    assert played["misdeals"] == [0, 0]
    assert TABLE.after_deal(once, {"sj.goalLevel": 15}, result)["misdeals"] == [0, 1]
