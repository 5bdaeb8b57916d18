"""Reading `fupan pair`'s history file as docs/pairing.md "The history file" writes it, and exporting a stored
tournament's: `results` hold one list of 3 whole scores per board (a yes/no or a fraction is no score), or an
appeal's weighted score whose parts' weights, each above 0 and at most 1, add up to 1; an inconsistent history is
refused naming the round and the table (counted from 1) where it is. Pure functions, no store."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from test_pairing_export import board, stored

from projections.pairing import BadHistory, export_history, read_history

HISTORY = {"players": ["甲", "乙", "丙", "丁", "戊", "己", "庚"], "seed": "s",
           "rounds": [{"round": 1, "tables": [{"seats": ["甲", "乙", "丙"], "results": [[4, -2, -2]]},
                                              {"seats": ["丁", "戊", "己"], "results": [[2, -1, -1]]}],
                       "byes": ["庚"]}]}


def with_table(table: dict[str, Any], round_number: int = 1) -> dict[str, Any]:
    """The history with its round's second table replaced."""
    history = copy.deepcopy(HISTORY)
    history["rounds"][round_number - 1]["tables"][1] = table
    return history


def refused(history: dict[str, Any]) -> BadHistory:
    with pytest.raises(BadHistory) as caught:
        read_history(history)
    error = caught.value
    assert "None" not in error.message and "None" not in error.message_zh
    return error


@pytest.mark.parametrize("results", [
    [[2, -1]], [[2, -1, -1, 0]], [[2.0, -1, -1]], [[True, -1, 0]], "[[2, -1, -1]]", 5, [None], ["2 -1 -1"],
    [{"scores": [2, -1, -1]}], [{"scores": [2, -1], "parts": [{"weight": "1", "scores": [2, -1, -1]}]}],
    [{"scores": [2, -1, -1], "parts": [{"weight": "1", "scores": [2, -1]}]}],
    [{"scores": [2, -1, -1], "parts": [{"weight": "0", "scores": [1, 1, -2]}, {"weight": "1", "scores": [2, -1, -1]}]}],
    [{"scores": [2, -1, -1], "parts": [{"weight": "1/2", "scores": [1, 1, -2]}]}],
    [{"scores": [2, -1, -1], "parts": []}], [{"scores": [2, -1, -1], "parts": [{"weight": "x", "scores": [1, 1, -2]}]}],
])
def test_a_board_holds_three_whole_scores_or_a_weighted_score_whose_weights_add_up_to_1(results: Any) -> None:
    error = refused(with_table({"seats": ["丁", "戊", "己"], "results": results}))
    assert error.code == "bad_results" and (error.details["round"], error.details["table"]) == (1, 2)
    assert "round 1, table 2" in error.message and "第 1 轮第 2 桌" in error.message_zh


def test_a_weighted_score_of_one_part_of_weight_1_reads() -> None:
    history = read_history(with_table({"seats": ["丁", "戊", "己"], "results": [
        [2, -1, -1], {"scores": [2, -1, -1], "parts": [{"weight": "1", "scores": [2, -1, -1]}]}]}))
    table = history.rounds[0].tables[1]
    assert table.results == ((2, -1, -1), (2, -1, -1)) and list(table.weighted) == [1]


@pytest.mark.parametrize(("table", "code", "where"), [
    ({"seats": "丁 戊 己"}, "bad_history", "round 1, table 2, seats"),
    ({"seats": ["丁", "戊"]}, "table_not_three", None),
    ({"seats": ["丁", "戊", "辛"]}, "unknown_player", "round 1, table 2"),
])
def test_a_tables_seats_are_three_entered_names_and_a_refusal_says_which_table(table: dict[str, Any], code: str,
                                                                              where: str | None) -> None:
    error = refused(with_table(table))
    assert error.code == code and "round 1, table 2" in error.message
    if where is not None:
        assert error.details["where"] == where
    else:
        assert (error.details["round"], error.details["table"]) == (1, 2)


def test_the_byes_are_entered_names_of_the_round() -> None:
    history = copy.deepcopy(HISTORY)
    history["rounds"][0]["byes"] = ["辛"]
    error = refused(history)
    assert error.code == "unknown_player" and error.details["where"] == "round 1, byes"
    history["rounds"][0]["byes"] = "庚"
    error = refused(history)
    assert error.code == "bad_history" and error.details["where"] == "round 1, byes"


def test_the_export_lists_every_rounds_tables_and_a_table_without_a_scored_board() -> None:
    """`--export`: every round's seated tables with their scored boards in deal order — a table that has not
    scored a board yet lists none; a later round's tables after the earlier round's."""
    facts = stored({"kind": "void"})
    facts.matches[2]["seats"] = ["p1", "p4", "p7"]
    facts.matches.append({"match_id": "m4", "round": 2, "table": "2-2", "seats": ["p2", "p3", "p5"],
                          "start_chips": None})
    facts.deals.append(board("m4", 1, [3, -1, -2]))
    rounds = export_history(facts)["rounds"]
    assert rounds[1]["tables"] == [{"seats": ["p1", "p4", "p7"], "results": []},
                                   {"seats": ["p2", "p3", "p5"], "results": [[3, -1, -2]]}]
    assert [len(r["tables"]) for r in rounds] == [2, 2]


def refused_with(**changes: Any) -> BadHistory:
    return refused({**copy.deepcopy(HISTORY), **changes})


@pytest.mark.parametrize(("players", "code", "details"), [
    ("甲 乙", "bad_history", {"where": "players"}), (["甲", ""], "bad_history", {"where": "players"}),
    (["甲", 5], "bad_history", {"where": "players"}),
    (["甲", "乙", "甲", "丙", "丁", "戊", "己", "庚"], "player_twice", {"players": ["甲"]}),
])
def test_the_players_are_names_each_once(players: Any, code: str, details: dict[str, Any]) -> None:
    error = refused_with(players=players)
    assert error.code == code and error.details == details


def test_the_withdrawn_are_entered_names() -> None:
    error = refused_with(withdrawn="庚")
    assert (error.code, error.details) == ("bad_history", {"where": "withdrawn"})
    error = refused_with(withdrawn=["辛"])
    assert (error.code, error.details) == ("unknown_player", {"names": ["辛"], "where": "withdrawn"})


@pytest.mark.parametrize("adjustments", [
    5, [["丙", -2]], [{"player": 5, "mp": -2}], [{"player": "丙", "mp": "-2"}],
    [{"player": "丙", "mp": -2, "reason": 3}],
    [{"player": "丙", "mp": -2, "round": "1"}], [{"player": "丙", "mp": True}],
])
def test_an_adjustment_is_a_player_whole_matchpoints_a_reason_and_a_round(adjustments: Any) -> None:
    assert refused_with(adjustments=adjustments).code == "bad_history"


def test_an_adjustment_counts_from_its_round_or_the_last_and_keeps_its_reason() -> None:
    """docs/pairing.md: `round` (optional) is the round it counts from (default: the last round given);
    `reason` optional."""
    history = copy.deepcopy(HISTORY)
    history["rounds"].append({"round": 2, "tables": [{"seats": ["甲", "丁", "庚"], "results": [[1, 2, -3]]},
                                                     {"seats": ["乙", "戊", "己"], "results": [[1, 2, -3]]}],
                              "byes": ["丙"]})
    history["adjustments"] = [{"player": "丙", "mp": -2, "reason": "迟到 / late", "round": 1},
                              {"player": "甲", "mp": 1}]
    assert read_history(history).adjustments == (
        {"player": "丙", "mp": -2, "reason": "迟到 / late", "round": 1},
        {"player": "甲", "mp": 1, "reason": "", "round": 2})
    history["adjustments"] = [{"player": "辛", "mp": 1}]
    error = refused(history)
    assert (error.code, error.details) == ("unknown_player", {"names": ["辛"], "where": "adjustments"})
