"""大怪路子's score slip, as docs/record-format.md "Result-only records" says: `finish_order` lists the seats in
the order they went out, up to the one that put a whole team out (A10.8: the deal ends there, so nobody after
it), each seat once; `fouls` count per team (A7). Teams alternate: team 0 = seats 0, 2, 4."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.records.slips import score

SEATS = ["甲", "乙", "丙", "丁", "戊", "己"]


def slip(facts: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return score(DealSetup("daguai", {}, SEATS, 0, [], [], {}), facts)


def refused(facts: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        slip(facts)
    for text in (caught.value.message, caught.value.message_zh):  # plain words, both languages, never `None`
        assert text and "None" not in text
    return caught.value


def test_the_order_stops_at_the_seat_that_puts_a_team_out() -> None:
    """Team 1 (1, 3, 5) is all out at place 5: the slip names five seats; the one left holds cards."""
    stored, result = slip({"finish_order": [1, 0, 3, 2, 5]})
    assert stored == {"finish_order": [1, 0, 3, 2, 5], "fouls": []}
    assert result["finish_order"] == [1, 0, 3, 2, 5] and result["head_team"] == 1


@pytest.mark.parametrize(("order", "last"), [([2, 0, 4, 1], 4), ([0, 2, 4, 1, 3, 5], 4), ([1, 3, 5, 0], 5)])
def test_nobody_goes_out_after_a_team_is_all_out(order: list[int], last: int) -> None:
    """The refusal names the player whose going out ended the deal (seat N counted from 1 here; the API and the
    pages show the player's name)."""
    error = refused({"finish_order": order})
    assert error.code == "impossible_slip" and error.details["finish_order"] == order
    assert f"seat {last + 1}'s team" in error.message


@pytest.mark.parametrize("order", [[], [2], [2, 0], [1, 0, 3, 2]])
def test_the_order_goes_on_until_a_team_is_all_out(order: list[int]) -> None:
    assert refused({"finish_order": order}).code == "impossible_slip"


def test_a_player_goes_out_once() -> None:
    error = refused({"finish_order": [2, 2, 0, 4]})
    assert error.code == "impossible_slip" and error.details["finish_order"] == [2, 2, 0, 4]


@pytest.mark.parametrize("order", [None, "2 0 4", [2, 0, 6], [2, 0, -1], [2, 0, True], [2.0, 0, 4]])
def test_the_order_lists_the_tables_seats(order: Any) -> None:
    assert refused({"finish_order": order}).code == "bad_slip"


def test_fouls_count_for_the_offenders_team() -> None:
    """A7: a side's second foul scores it as caught three — the other side's 8, whoever went out first."""
    stored, result = slip({"finish_order": [2, 0, 4], "fouls": [{"seat": 1, "code": "talking"},
                                                              {"seat": 5, "code": "peek", "note": "看牌"}]})
    assert [(f["seat"], f["code"], f["note"]) for f in stored["fouls"]] == [(1, "talking", ""), (5, "peek", "看牌")]
    assert (result["fouls_by_team"], result["team_points"], result["decided_by_fouls"]) == ([0, 2], [8, 0], True)
