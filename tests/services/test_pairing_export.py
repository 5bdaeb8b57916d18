"""The pairing's history as `fupan pair --export` writes it and the organiser's override as it is refused
(docs/pairing.md "The history file", "The command", "The organiser's override"): pure functions over a stored
tournament's facts, no store."""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from projections.pairing import check_override, export_history, pair, ranking, read_history
from projections.standings_values import TournamentFacts


def board(match_id: str, number: int, scores: list[int], **scored: Any) -> dict[str, Any]:
    return {"deal_id": f"{match_id}b{number}" + ("r" if scored else ""), "match_id": match_id, "number": number,
            "result": {"scores": scores, "board": number}, "winner": None, "finished": {}, "scored": scored}


def stored(first_outcome: dict[str, Any]) -> TournamentFacts:
    """Seven players, two of them named 张伟; round 1: two tables of two boards, p7 on a bye. Board 1 of table 1
    under appeal A (its redeal scored after board 2), board 2 of table 2 assigned by appeal B (its compensation
    recorded), and a penalty of p2 in round 1; round 2 started, no table yet; p6 withdrew."""
    players = [{"player_id": f"p{i}", "name": "张伟" if i in (1, 2) else f"选手{i}"} for i in range(1, 8)]
    deals = [board("m1", 1, [4, -2, -2]), board("m1", 2, [-6, 3, 3]),
             board("m1", 1, [1, 2, -3], replaces="m1b1", appeal_id="A"), board("m2", 1, [2, -1, -1]),
             board("m2", 2, [-6, 3, 3])]
    return TournamentFacts(
        tournament={"tournament_id": "t-id", "name": "t", "game": "wakeng", "format": "wakeng.s003", "tiebreaks": [],
                    "lots_seed": None},
        players=players,
        rounds=[{"round": 1, "label": "第1轮", "kind": "tables", "byes": ["p7"]},
                {"round": 2, "label": "第2轮", "kind": "tables"}],
        matches=[{"match_id": "m1", "round": 1, "table": "1-1", "seats": ["p1", "p2", "p3"], "start_chips": None},
                 {"match_id": "m2", "round": 1, "table": "1-2", "seats": ["p4", "p5", "p6"], "start_chips": None},
                 {"match_id": "m3", "round": 2, "table": "2-1", "seats": None, "start_chips": None}],
        deals=deals,
        adjustments=[{"player_id": "p2", "points": -2, "round": 1, "kind": "penalty", "reason": "迟到 / late"},
                     {"player_id": "p4", "points": 3, "round": 1, "kind": "appeal", "reason": "申诉 B",
                      "refers_to": {"appeal_id": "B", "deal_id": "m2b2"}}],
        appeals=[{"appeal_id": "A", "deal_id": "m1b1", "outcome": first_outcome},
                 {"appeal_id": "B", "deal_id": "m2b2", "outcome": {"kind": "assigned", "scores": [-3, 3, 0]}}])


def test_the_export_gives_the_boards_as_the_standings_count_them():
    """A voided board gives way to its redeal, in its place; an assigned score is the board's; the appeal's
    compensation is counted in the board and not listed again, a penalty is; the byes and the withdrawn are
    listed; two players of one name are written by their ids; without a recorded seed, the tournament's id."""
    history = export_history(stored({"kind": "void"}), withdrawn=["p6", "nobody"])
    assert history == {
        "players": ["p1", "p2", "p3", "p4", "p5", "p6", "p7"], "seed": "t-id",
        "rounds": [{"round": 1, "tables": [{"seats": ["p1", "p2", "p3"], "results": [[1, 2, -3], [-6, 3, 3]]},
                                           {"seats": ["p4", "p5", "p6"], "results": [[2, -1, -1], [-3, 3, 0]]}],
                    "byes": ["p7"]},
                   {"round": 2, "tables": [], "byes": []}],
        "withdrawn": ["p6"],
        "adjustments": [{"player": "p2", "mp": -2, "reason": "迟到 / late", "round": 1}]}
    read_history(history)  # and `fupan pair --history` reads it back


def test_a_redeal_whose_appeal_no_longer_voids_is_left_out_and_unique_names_are_written():
    facts = stored({"kind": "assigned", "scores": [0, 0, 0]})
    facts.players[1]["name"] = "李娜"
    history = export_history(facts)
    assert history["players"] == ["张伟", "李娜", "选手3", "选手4", "选手5", "选手6", "选手7"]
    assert history["rounds"][0]["tables"][0] == {"seats": ["张伟", "李娜", "选手3"],
                                                 "results": [[0, 0, 0], [-6, 3, 3]]}
    assert history["rounds"][0]["byes"] == ["选手7"] and history["withdrawn"] == []
    assert history["rounds"][0]["tables"][1]["results"] == [[2, -1, -1], [-3, 3, 0]]  # the deals after the redeal
    facts.rounds = []  # tables opened before any round was started: round 1, no byes recorded
    assert [(r["round"], len(r["tables"]), r["byes"]) for r in export_history(facts)["rounds"]] == [(1, 2, [])]


def test_an_override_that_cannot_be_opened_is_refused_naming_the_players_in_both_languages():
    """The last row of docs/pairing.md's table: each problem `refused`, with its rule, the players named in
    Chinese and in English (`players`)."""
    history = read_history({"players": [f"p{i}" for i in range(1, 7)] + ["p7"], "seed": "s",
                            "rounds": [], "withdrawn": ["p7"]})
    proposal = pair(history, 1)
    a, b = proposal["tables"]
    problems = check_override(history, 1, [[a[0], a[1], "陌生人"], [b[0], b[1], a[0]]], ["p7"])
    assert [(p["code"], p["severity"], p["rule"], p["players"]) for p in problems] == [
        ("unknown", "refused", "entries", ["陌生人"]), ("twice", "refused", "B8", [a[0]]),
        ("withdrawn", "refused", "withdrawal", ["p7"]), ("missing", "refused", "B8", [a[2], b[2]])]
    for problem in problems:
        assert all(name in problem["en"] and name in problem["zh"] for name in problem["players"])
    short = check_override(history, 1, [a[:2], b], [a[2]])
    assert [(p["code"], p["severity"], p["rule"]) for p in short] == [("table_size", "refused", "B8")]
    assert "1" in short[0]["en"] and "1" in short[0]["zh"]


def test_a_tie_on_every_figure_keeps_the_order_of_the_round_before_not_registration():
    """B11.8: after the figures, the previous position — the pairing order after the round before. A and D end
    level on everything (a win and a loss each, seat 0 against each other's table); D led after round 1."""
    history = read_history({"players": ["A", "B", "C", "D", "E", "F"], "seed": "s", "rounds": [
        {"round": 1, "tables": [{"seats": ["A", "B", "C"], "results": [[-2, 1, 1]]},
                                {"seats": ["D", "E", "F"], "results": [[4, -2, -2]]}]},
        {"round": 2, "tables": [{"seats": ["A", "E", "F"], "results": [[4, -2, -2]]},
                                {"seats": ["D", "B", "C"], "results": [[-2, 1, 1]]}]}]})
    order = ranking(history)
    assert order.index("D") < order.index("A")


def test_round_1_seats_each_table_by_the_lot_of_its_round():
    """docs/pairing.md 5: with no seat sat yet every seating ties, so the lot decides: the smallest SHA-256 of
    `{seed}:seats:{round}:{p0}|{p1}|{p2}`."""
    history = read_history({"players": [f"选手{i}" for i in range(1, 7)], "seed": "2026-挖坑", "rounds": []})
    for seats in pair(history, 1)["tables"]:
        assert seats == list(min(itertools.permutations(seats), key=lambda order: hashlib.sha256(
            f"2026-挖坑:seats:1:{'|'.join(order)}".encode()).hexdigest()))


def test_a_name_with_a_lone_surrogate_is_drawn_by_its_bytes():
    """A JSON history may escape a lone surrogate (\\ud800): the lot hashes the name's UTF-8 with it kept."""
    players = ["甲", "乙\ud800", "丙"]
    history = read_history({"players": players, "seed": "s", "rounds": []})
    (seats,) = pair(history, 1)["tables"]
    assert seats == list(min(itertools.permutations(players), key=lambda order: hashlib.sha256(
        f"s:seats:1:{'|'.join(order)}".encode("utf-8", "surrogatepass")).hexdigest()))


def test_an_override_breaking_a_bye_rule_is_a_warning_of_b11_9_naming_the_byes():
    """docs/pairing.md's table: `bye_count`, `bye_twice` and `not_lowest_bye` are warnings of B11.9, each naming
    the players given the bye (`players`)."""
    seven = [f"p{i}" for i in range(1, 8)]
    r1 = {"round": 1, "tables": [{"seats": ["p1", "p2", "p3"], "results": [[4, -2, -2]]},
                                 {"seats": ["p4", "p5", "p6"], "results": [[2, -1, -1]]}], "byes": ["p7"]}
    history = read_history({"players": seven, "seed": "s", "rounds": [r1]})
    proposal = pair(history, 2)
    (bye,) = proposal["byes"]
    first, second = proposal["tables"]

    def problems(tables: list[list[str]], byes: list[str]) -> list[tuple[str, str, str, list[str]]]:
        return [(p["code"], p["severity"], p["rule"], p["players"]) for p in check_override(history, 2, tables, byes)
                if p["rule"] == "B11.9"]

    # one table and four byes, among them p7, who had round 1's bye while the table's players had none
    playing, resting = (first, second) if "p7" in second else (second, first)
    again = problems([playing], [bye, *resting])
    assert again[0] == ("bye_count", "warning", "B11.9", [bye, *resting])
    assert again[1] == ("bye_twice", "warning", "B11.9", ["p7"])
    other = next(name for name in first if name != "p7")
    swapped = [[bye if name == other else name for name in first], second]
    assert problems(swapped, [other]) == [("not_lowest_bye", "warning", "B11.9", [other])]


def test_round_1_not_drawn_by_lot_and_repeats_name_the_players_who_meet_again():
    """B8.1: a round 1 other than the draw is `not_the_lot`; B11.10's `repeat_opponents` names who meets again."""
    six = [f"p{i}" for i in range(1, 7)]
    history = read_history({"players": six, "seed": "s", "rounds": []})
    a, b = pair(history, 1)["tables"]
    regrouped = [[a[0], a[1], b[0]], [b[1], b[2], a[2]]]
    assert [p["code"] for p in check_override(history, 1, regrouped, [])] == ["not_the_lot"]
    assert check_override(history, 1, [a, b], []) == []
    played = read_history({"players": six, "seed": "s", "rounds": [
        {"round": 1, "tables": [{"seats": a, "results": [[2, -1, -1]]}, {"seats": b, "results": [[2, -1, -1]]}]}]})
    again = [p for p in check_override(played, 2, [a, b], []) if p["code"] == "repeat_opponents"]
    assert [sorted(p["players"]) for p in again] == [sorted(six)]
