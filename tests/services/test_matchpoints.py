"""Matchpoints as docs/rules/wakeng.md B7 defines them, computed here from its formula for small groups: within one
group (board, seat, round) MP_j = Σ_{i≠j} (2 if r_j > r_i, 1 if equal, 0 if lower), out of 2(N − 1); a result
compared with nothing rates ½; a deal without a board is compared with no other deal; a weighted score (an
appeal's, docs/appeals.md) is matchpointed part by part, each comparison weighted (projections/matchpoints.py)."""

from __future__ import annotations

from fractions import Fraction

from projections.matchpoints import PARTS, matchpoint
from projections.standings_values import Line


def results(*scores: object, board: str | None = "b1", seat: int = 0, round: int = 1) -> list:
    """(line, deal, facts) of one seat's results, one per table; `board` None: the deals name no board."""
    every = []
    for n, score in enumerate(scores):
        facts: dict = {"score": score} if not isinstance(score, list) else {"score": 0, PARTS: score}
        if board is not None:
            facts["board"] = board
        every.append((Line({"round": round, "id": f"m{n}"}, seat), {"deal_id": f"d{board}{n}{seat}{round}"}, facts))
    return every


def test_three_results_on_one_board_score_two_per_result_beaten_and_one_per_tie():
    every = results(10, 5, 5)
    matchpoint(every, ["round", "seat", "board"])
    assert [(f["mp"], f["mp_max"], f["mp_rate"]) for _, _, f in every] == [
        (4, 4, Fraction(1)), (1, 4, Fraction(1, 4)), (1, 4, Fraction(1, 4))]


def test_a_result_compared_with_nothing_rates_one_half():
    every = results(7)
    matchpoint(every, ["round", "seat", "board"])
    assert [(f["mp"], f["mp_max"], f["mp_rate"]) for _, _, f in every] == [(0, 0, Fraction(1, 2))]


def test_deals_without_a_board_are_compared_with_no_other_deal():
    every = results(10, 5, board=None)
    matchpoint(every, ["round", "seat", "board"])
    assert [(f["mp"], f["mp_max"], f["mp_rate"]) for _, _, f in every] == [(0, 0, Fraction(1, 2))] * 2


def test_other_seats_and_rounds_are_other_groups():
    every = results(10, seat=0) + results(5, seat=1) + results(3, round=2)
    matchpoint(every, ["round", "seat", "board"])
    assert [f["mp_rate"] for _, _, f in every] == [Fraction(1, 2)] * 3


def test_a_weighted_score_is_matchpointed_part_by_part():
    # Half of 10 and half of 0 against a plain 5: beats it with one half, loses with the other → 1 of 2.
    half = Fraction(1, 2)
    every = results([(half, 10), (half, 0)], 5)
    matchpoint(every, ["round", "seat", "board"])
    assert [(f["mp"], f["mp_rate"]) for _, _, f in every] == [(1, half), (1, half)]
