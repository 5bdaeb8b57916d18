"""升级 scoring against an oracle written from docs/rules/shengji.md's own tables, not from the engine's functions.

`doc_outcome` prices a deal's attacker points P by §3.10's table (both columns), §3.12's 大分, §3.13's 0 : 2
for a revoke or miscount and its P = 80 for a mishandled kitty, and moves the levels by §3.10 / §3.11 /
§3.14a.10 (never past A; passing A wins; reaching `sj.goalLevel` wins — 15: only passing A does). The engine's
result must agree:

- on real deals (random legal play from fixtures/random_play) whose P is then set to a chosen value by a
  referee's point penalty recorded before the last card (§3.13: a dealer-team player's penalty raises P, an
  attacker's lowers it) — every threshold of the table on both sides, landing exactly on A and passing it;
- on random legal deals as they come, irregularities and all (hypothesis, derandomised).
"""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

import pytest
from game_support import final_result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.records.format import check_record
from fixtures.random_play.shengji import random_record

A = 14

# §3.10: (lowest P of the row, attackers take over, levels under `s001`, levels under `s004`); a row runs up to
# the next row's lowest P. "0" is P = 0 only; "5–35" is every P above 0 and under 40. s001's last row: +4, then
# +1 per further 40, ⌊(P − 40)/40⌋.
LEVEL_TABLE = (
    (0, False, 3, 3),
    (5, False, 2, 2),
    (40, False, 1, 1),
    (80, True, 1, 0),
    (120, True, 2, 1),
    (160, True, 3, 2),
    (200, True, None, 3),
)
# §3.12: (lowest P, the dealer team's 大分, the attackers' 大分); 2 + 2 小光 / + 4 大光, or 2 / 4 / 6 / 10.
BIG_POINTS = ((0, 6, 0), (5, 4, 0), (40, 2, 0), (80, 0, 2), (120, 0, 4), (160, 0, 6), (200, 0, 10))


def row(table: tuple[tuple[Any, ...], ...], points: int) -> tuple[Any, ...]:
    if points == 0:
        return table[0]
    return [r for r in table[1:] if r[0] <= max(points, 5)][-1]


def doc_level_change(points: int, column: str) -> tuple[bool, int]:
    _, takeover, s001, s004 = row(LEVEL_TABLE, points)
    if column == "s004":
        return takeover, s004
    return takeover, (points - 40) // 40 if s001 is None else s001


def doc_big_points(points: int) -> tuple[int, int]:
    _, dealer_team, attackers = row(BIG_POINTS, points)
    return dealer_team, attackers


def doc_outcome(points: int, *, column: str, levels: list[int], dealer: int, goal: int, ended_by: str = "play",
                offender: int | None = None, revoke_ends_match: bool = False) -> dict[str, Any]:
    """What the rules documents say a deal ending with attacker points `points` does."""
    dealer_team, attackers = dealer % 2, 1 - dealer % 2
    big = [0, 0]
    if ended_by in ("revoke", "miscount"):  # §3.13: 0 : 2, the non-offender wins the deal minimally
        assert offender is not None
        winner = 1 - offender % 2
        takeover = winner == attackers
        steps = (0 if column == "s004" else 1) if takeover else 1
        big[winner] = max(2, doc_big_points(points)[1]) if takeover else 2
    else:
        if ended_by == "kitty_mishandled":
            points = 80  # the dealer steps down, the opponents take over: scored as P = 80
        takeover, steps = doc_level_change(points, column)
        big[dealer_team], big[attackers] = doc_big_points(points)
    gaining = attackers if takeover else dealer_team
    new_levels = list(levels)
    new_levels[gaining] = min(A, levels[gaining] + steps)  # a level never passes A (§3.10)
    match_winner = None
    if levels[gaining] + steps > A or levels[gaining] < goal <= new_levels[gaining]:
        match_winner = gaining  # passing A wins (§3.14a.10); so does reaching the goal level (§3.11)
    elif ended_by in ("revoke", "miscount") and revoke_ends_match:
        match_winner = 1 - offender % 2  # type: ignore[operator]
    return {"takeover": takeover, "level_change": {"team": gaining, "steps": steps}, "new_levels": new_levels,
            "match_winner": match_winner, "big_points": big,
            "next_dealer": (dealer + 1) % 4 if takeover else (dealer + 2) % 4,
            "scores": [steps if s % 2 == gaining else 0 for s in range(4)]}


def observed(result: dict[str, Any]) -> dict[str, Any]:
    return {key: result[key] for key in ("takeover", "level_change", "new_levels", "match_winner", "big_points",
                                         "next_dealer", "scores")}


# --- real deals with P set by a referee's penalty -------------------------------------------------------------


@cache
def played(seed: int, preset: str, levels: tuple[int, int], dealer: int, goal: int) -> dict[str, Any]:
    """A random legal deal played to its end: no fouls or irregularities of its own, so its P is its cards, its
    kitty bonus and its failed throws' penalties."""
    options = {"sj.preset": preset, "sj.goalLevel": goal}
    return random_record(random.Random(seed), options, context={"levels": list(levels), "dealer": dealer,
                                                                 "deal_number": 2},
                         foul_rate=0, irregularity_rate=0, timeout_rate=0)


def with_points(record: dict[str, Any], target: int) -> dict[str, Any]:
    """The record with a referee's point penalty before its last card, so that the attackers' P is `target`:
    a dealer-team player's penalty raises P, an attacker's lowers it (§3.13)."""
    points = final_result(record)["points"]
    raw = points["cards"] + points["kitty_bonus"] + points["penalties"]  # P before "P < 0 counts as 0"
    dealer = record["context"]["dealer"]
    out = copy.deepcopy(record)
    out.pop("result")
    if target != raw:
        seat = dealer if target > raw else (dealer + 1) % 4
        out["actions"].insert(len(out["actions"]) - 1, {"seat": seat, "type": "foul", "code": "other",
                                                        "note": "罚分", "penalty": abs(target - raw)})
    return out


def outcome_of(record: dict[str, Any], target: int) -> dict[str, Any]:
    """The engine's result of the record with P set to `target` (checked as `fupan check` would)."""
    changed = with_points(record, target)
    report = check_record(changed)
    assert report["ok"], report
    result = final_result(changed)
    assert result["attacker_points"] == target and result["ended_by"] == "play"
    return result


# Every threshold of §3.10 and §3.12 on both sides: (P, s001 (takeover, levels), s004 (takeover, levels), 大分).
THRESHOLDS = [
    (0, (False, 3), (False, 3), [6, 0]),
    (5, (False, 2), (False, 2), [4, 0]),
    (35, (False, 2), (False, 2), [4, 0]),
    (40, (False, 1), (False, 1), [2, 0]),
    (75, (False, 1), (False, 1), [2, 0]),
    (80, (True, 1), (True, 0), [0, 2]),
    (115, (True, 1), (True, 0), [0, 2]),
    (120, (True, 2), (True, 1), [0, 4]),
    (155, (True, 2), (True, 1), [0, 4]),
    (160, (True, 3), (True, 2), [0, 6]),
    (195, (True, 3), (True, 2), [0, 6]),
    (200, (True, 4), (True, 3), [0, 10]),
    (235, (True, 4), (True, 3), [0, 10]),
    (240, (True, 5), (True, 3), [0, 10]),
    (280, (True, 6), (True, 3), [0, 10]),
]


@pytest.mark.parametrize(("points", "s001", "s004", "big"), THRESHOLDS, ids=[f"P{t[0]}" for t in THRESHOLDS])
def test_every_threshold_of_the_points_table_on_both_sides(points, s001, s004, big):
    """Dealer seat 1 (team 1) at level 5, attackers at 6, goal J: far from any match end."""
    for preset, (takeover, steps) in (("s001", s001), ("s004", s004)):
        assert doc_level_change(points, preset) == (takeover, steps)  # the oracle reads the table as the vector
        result = outcome_of(played(3, preset, (6, 5), 1, 11), points)
        assert result["takeover"] is takeover and result["level_change"]["steps"] == steps, preset
        assert result["big_points"] == [big[1], big[0]]  # by team: team 0 attacks, team 1 deals
        assert observed(result) == doc_outcome(points, column=preset, levels=[6, 5], dealer=1, goal=11)


@pytest.mark.parametrize(("levels", "dealer", "points", "preset", "goal", "new_levels", "winner"), [
    # The dealer team lands exactly on A: no match end unless the goal is A itself.
    pytest.param((12, 7), 0, 35, "s004", 15, [14, 7], None, id="dealer_lands_on_A_goal_15"),
    pytest.param((13, 7), 2, 40, "s001", 15, [14, 7], None, id="dealer_lands_on_A_at_P40_goal_15"),
    pytest.param((12, 7), 0, 35, "s004", 14, [14, 7], 0, id="dealer_lands_on_A_goal_14"),
    # … and passes A: its level stays A and it wins the match, whatever the goal.
    pytest.param((12, 7), 0, 0, "s004", 15, [14, 7], 0, id="dealer_passes_A_goal_15"),
    pytest.param((13, 7), 2, 5, "s001", 15, [14, 7], 0, id="dealer_passes_A_by_one"),
    # The attackers take over onto A, or past it.
    pytest.param((7, 13), 0, 120, "s004", 15, [7, 14], None, id="attackers_land_on_A_s004"),
    pytest.param((7, 13), 0, 120, "s001", 15, [7, 14], 1, id="attackers_pass_A_s001"),
    pytest.param((7, 12), 2, 200, "s004", 15, [7, 14], 1, id="attackers_pass_A_at_the_s004_cap"),
    pytest.param((7, 11), 2, 160, "s004", 15, [7, 13], None, id="attackers_stop_under_A"),
    # The goal level J (S004 "通过10"): reached by any advancement, from below.
    pytest.param((9, 4), 0, 35, "s004", 11, [11, 4], 0, id="dealer_reaches_J"),
    pytest.param((8, 4), 0, 35, "s004", 11, [10, 4], None, id="dealer_stops_at_10"),
    pytest.param((4, 10), 0, 80, "s001", 11, [4, 11], 1, id="attackers_reach_J_at_P80_s001"),
    pytest.param((4, 10), 0, 80, "s004", 11, [4, 10], None, id="attackers_take_over_at_plus_0_s004"),
])
def test_landing_on_A_passing_A_and_reaching_the_goal(levels, dealer, points, preset, goal, new_levels, winner):
    result = outcome_of(played(5, preset, levels, dealer, goal), points)
    assert (result["new_levels"], result["match_winner"]) == (new_levels, winner)
    assert observed(result) == doc_outcome(points, column=preset, levels=list(levels), dealer=dealer, goal=goal)


# --- hypothesis --------------------------------------------------------------------------------------------------

POINTS = st.one_of(st.sampled_from([t[0] for t in THRESHOLDS]), st.integers(0, 64).map(lambda n: 5 * n))


@settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["s001", "s004"]), points=POINTS,
       levels=st.tuples(st.integers(2, A), st.integers(2, A)), dealer=st.integers(0, 3), goal=st.integers(3, 15))
def test_real_deals_with_any_points_move_the_levels_as_the_tables_say(seed, preset, points, levels, dealer, goal):
    record = random_record(random.Random(seed), {"sj.preset": preset, "sj.goalLevel": goal},
                           context={"levels": list(levels), "dealer": dealer, "deal_number": 2},
                           foul_rate=0, irregularity_rate=0, timeout_rate=0)
    result = outcome_of(record, points)
    assert observed(result) == doc_outcome(points, column=preset, levels=list(levels), dealer=dealer, goal=goal)


OPTIONS = st.fixed_dictionaries({
    "sj.preset": st.sampled_from(["s001", "s004"]),
    "sj.illegalPlay": st.sampled_from(["reject", "adjudicate"]),
    "sj.revokeEndsMatch": st.booleans(),
    "sj.throwPenalty": st.sampled_from(["perRetractedCard", "flat10", "none"]),
})


@settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_legal_deals_score_as_the_tables_say(seed, options):
    """Random legal deals as they come (redeals, irregularities, fouls and timeouts included): the outcome of the
    P each one ends with, by the documents' tables."""
    record = random_record(random.Random(seed), options, irregularity_rate=0.05)
    result = final_result(record)
    if result.get("redeal"):
        assert result["scores"] == [0, 0, 0, 0]
        return
    column = options["sj.preset"]  # each preset sets `sj.levelTable` to its own column
    goal = 5 if options["sj.preset"] == "s001" else 11  # §3.11: each preset's goal level
    expected = doc_outcome(result["attacker_points"], column=column, levels=result["levels"], dealer=result["dealer"],
                           goal=goal, ended_by=result["ended_by"], offender=result["offender"],
                           revoke_ends_match=options["sj.revokeEndsMatch"])
    assert observed(result) == expected, result["ended_by"]
