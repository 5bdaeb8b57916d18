"""Formats and tiebreaks as data: every registered format ranks by its declared criteria in the declared
order, over facts shaped like its game's results (the test vectors of docs/rules/ where they give them)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from domain.kernel.errors import IllegalAction
from domain.records.format import fold, parse_record
from fixtures.random_play.shengji import random_record as shengji_record
from projections.formats import FORMATS, declare, resolve
from projections.standings import Standings
from projections.standings_values import TournamentFacts

SEED = "lots-seed"


def lot_order(players: list[str], seed: str = SEED) -> list[str]:
    return sorted(players, key=lambda p: hashlib.sha256(f"{seed}:{p}".encode()).hexdigest())


def tournament(game: str, format_code: str, tiebreaks: list[str], players: list[str],
               tables: list[tuple[int, list[str], list[dict[str, Any]], bool]],
               rounds: list[tuple[int, str]] = (), adjustments: list[dict[str, Any]] = ()) -> TournamentFacts:
    """Facts as the store loads them: tables are (round, seats, results of its scored deals, over)."""
    matches, deals = [], []
    for index, (number, seats, results, over) in enumerate(tables):
        match_id = f"m{index}"
        matches.append({"match_id": match_id, "round": number, "table": str(index + 1), "seats": seats,
                        "start_chips": 10})
        for deal_number, result in enumerate(results, start=1):
            last = deal_number == len(results)
            deals.append({"deal_id": f"{match_id}-{deal_number}", "match_id": match_id, "number": deal_number,
                          "result": result, "winner": 0 if over and last else None, "finished": {}, "scored": {}})
    return TournamentFacts(
        tournament={"tournament_id": "t", "name": "t", "game": game, "format": format_code, "tiebreaks": tiebreaks,
                    "lots_seed": SEED},
        players=[{"player_id": p, "name": p} for p in players],
        rounds=[{"round": r, "label": f"R{r}", "kind": kind} for r, kind in rounds],
        matches=matches, deals=deals, adjustments=list(adjustments))


def ranking(facts: TournamentFacts) -> list[str]:
    return [row["player_id"] for row in Standings(facts).rows]


def ddz(landlord: int, won: bool, scores: list[int]) -> dict[str, Any]:
    return {"scores": scores, "landlord": landlord, "landlord_won": won, "penalties": [0, 0, 0]}


# 甲 and 丙 won two deals each, 乙 one but as landlord; all three end on the chips they started with.
EVEN = [ddz(1, True, [-2, 4, -2]), ddz(1, False, [1, -2, 1]), ddz(1, False, [1, -2, 1])]


def test_doudizhu_tiebreaks_apply_in_the_declared_order_down_to_lots():
    players = ["甲", "乙", "丙"]
    by_wins = tournament("doudizhu", "doudizhu.s001", ["deals_won", "landlord_wins", "lots"], players,
                         [(1, players, EVEN, False)])
    rows = Standings(by_wins).rows
    assert {row["total"] for row in rows} == {10}
    first_two = [p for p in lot_order(players) if p != "乙"]
    assert [row["player_id"] for row in rows] == [*first_two, "乙"]
    assert [row["decided_by"] for row in rows] == [None, "lots", "deals_won"]
    by_landlord = tournament("doudizhu", "doudizhu.s001", ["landlord_wins", "deals_won", "lots"], players,
                             [(1, players, EVEN, False)])
    assert ranking(by_landlord) == ["乙", *first_two]


def test_an_adjustment_in_an_earlier_round_decided_who_advanced_not_the_final_places():
    first, second = ["甲", "乙", "丙"], ["丁", "戊", "己"]
    landlord_wins = [ddz(0, True, [6, -2, -2])]
    tables = [(1, first, landlord_wins, True), (1, second, landlord_wins, True)]
    rounds = [(1, "tables"), (2, "final")]
    facts = tournament("doudizhu", "doudizhu.s001", [], first + second, tables, rounds)
    standings = Standings(facts)
    assert [t["advancing"] for t in standings.tables] == [["甲"], ["丁"]]
    penalty = {"player_id": "甲", "points": -9, "round": 1, "kind": "penalty", "reason": "appeal",
               "version": 9, "recorded_by": None, "time": None}
    ruled = Standings(facts, extra_adjustments=[penalty])
    assert ruled.tables[0]["advancing"] in (["乙"], ["丙"])  # 16 − 9 = 7 chips: the farmers' 8 go on
    final = (2, ["甲", "丁", "乙"], [ddz(1, True, [-1, 3, -1])], True)
    later = tournament("doudizhu", "doudizhu.s001", [], first + second, [*tables, final], rounds, [penalty])
    rows = {row["player_id"]: row for row in Standings(later).rows}
    assert rows["甲"]["total"] == 9 and rows["甲"]["adjustments"] == 0  # the round-1 penalty is history
    assert rows["丁"]["status"] == "champion" and rows["丁"]["rank"] == 1


def test_sandayi_dealer_count_then_difficulty_digest_vector_14():
    players = ["A", "B", "C", "D"]

    def deal(scores: list[int], dealer: int, bid: int) -> dict[str, Any]:
        return {"scores": scores, "seat_facts": {"dealer": [int(s == dealer) for s in range(4)],
                                                 "dealer_bid": [bid if s == dealer else 0 for s in range(4)]}}

    level = [0, 0, 0, 0]
    a_thrice = [deal([10, 0, -5, -5], 0, 1), deal(level, 0, 2), deal(level, 0, 3), deal([0, 10, -5, -5], 1, 3),
                deal(level, 1, 3)]
    facts = tournament("sandayi", "sandayi.s002", [], players, [(1, players, a_thrice, False)])
    assert ranking(facts)[:2] == ["A", "B"]
    both_thrice = [deal([10, 0, -5, -5], 0, 1), deal(level, 0, 2), deal(level, 0, 3), deal([0, 10, -5, -5], 1, 1),
                   deal(level, 1, 2), deal(level, 1, 2)]
    facts = tournament("sandayi", "sandayi.s002", [], players, [(1, players, both_thrice, False)])
    rows = Standings(facts).rows
    assert [r["player_id"] for r in rows[:2]] == ["A", "B"] and rows[1]["decided_by"] == "dealer_difficulty"
    assert [r["tiebreak_values"][:2] for r in rows[:2]] == [[3, 6], [3, 5]]


def test_sandayi_the_digests_other_tiebreak_readings_are_declarable_codes():
    """docs/rules/sandayi.md §1.9's switches `sdy.tiebreak.dealerCount = fewer` and `sdy.tiebreak.difficulty = maxBid |
    sumBidOfWonDeals` are tiebreak codes a tournament declares, like every other game's."""
    players = ["A", "B", "C", "D"]

    def deal(scores: list[int], dealer: int, bid: int, won: bool) -> dict[str, Any]:
        return {"scores": scores, "seat_facts": {
            "dealer": [int(s == dealer) for s in range(4)], "dealer_bid": [bid if s == dealer else 0 for s in range(4)],
            "dealer_won_bid": [bid if s == dealer and won else 0 for s in range(4)]}}

    level = [0, 0, 0, 0]
    # A dealt three times (bids 1, 1, 1; won one), B twice (bids 3 and 1; lost both), tied on 0 with the others.
    deals = [deal(level, 0, 1, True), deal(level, 0, 1, False), deal(level, 0, 1, False), deal(level, 1, 3, False),
             deal(level, 1, 1, False)]
    table = [(1, players, deals, False)]
    assert ranking(tournament("sandayi", "sandayi.s002", [], players, table))[:2] == ["A", "B"]  # more dealing
    fewer = ranking(tournament("sandayi", "sandayi.s002", ["dealer_count_fewer", "lots"], players, table))
    assert fewer.index("B") < fewer.index("A") and set(fewer[:2]) == {"C", "D"}  # never dealt: fewest
    highest = ranking(tournament("sandayi", "sandayi.s002", ["dealer_difficulty_max", "lots"], players, table))
    assert highest[0] == "B" and highest[1] == "A"
    won = ranking(tournament("sandayi", "sandayi.s002", ["dealer_difficulty_won", "lots"], players, table))
    assert won[0] == "A"


def test_wakeng_duplicate_rates_digest_vector_w19():
    players = [f"p{i}" for i in range(12)]
    tables = []
    for index, score in enumerate([4, 4, -2, -6]):
        seats = players[3 * index: 3 * index + 3]
        result = {"scores": [score, 0, 0], "board": "b1", "seat_facts": {"won": [int(score > 0), 0, 0]}}
        tables.append((1, seats, [result], True))
    facts = tournament("wakeng", "wakeng.s003", [], players, tables)
    rows = {row["player_id"]: row for row in Standings(facts).rows}
    assert [rows[p]["total"] for p in ("p0", "p3", "p6", "p9")] == [0.8333, 0.8333, 0.3333, 0]
    assert [rows[p]["tiebreak_values"][0] for p in ("p0", "p3", "p6", "p9")] == [5, 5, 2, 0]
    assert rows["p1"]["total"] == 0.5  # equal results share the comparison evenly
    leaders = [r["player_id"] for r in Standings(facts).rows[:2]]
    assert leaders == [p for p in lot_order(players) if p in ("p0", "p3")]


def test_daguai_team_points_then_first_finishes_then_the_play_off():
    players = ["a1", "b1", "a2", "b2", "a3", "b3"]
    teams = {"team": [0, 1, 0, 1, 0, 1]}

    def deal(points: int, team: int, first_team: int) -> dict[str, Any]:
        return {"scores": [points if s % 2 == team else 0 for s in range(6)],
                "seat_facts": {**teams, "first_finisher": [int(s % 2 == first_team) for s in range(6)]}}

    even = [deal(5, 0, 0), deal(5, 1, 1)]
    facts = tournament("daguai", "daguai.s000", [], players, [(1, players, [*even, deal(0, 0, 0)], True)])
    standings = Standings(facts)
    assert standings.tables[0]["advancing"] == ["a1", "a2", "a3"]  # 跑头家 twice against once
    assert len({standings.lots[p] for p in ("a1", "a2", "a3")}) == 1  # partners draw one lot
    level = tournament("daguai", "daguai.s000", [], players,
                       [(1, players, even, True), (2, players, [deal(3, 1, 1)], False)],
                       rounds=[(1, "tables"), (2, "playoff")])
    assert Standings(level).tables[0]["advancing"] == ["b1", "b2", "b3"]  # the play-off deal's first finisher


def test_shengji_partners_share_the_real_engines_figures():
    rng = random.Random(4)
    results = []
    while len(results) < 3:
        setup, actions, _ = parse_record(shengji_record(rng))
        engine, state = fold(setup, actions)
        result = engine.result(state)
        if not result.get("redeal"):
            results.append(result)
    players = ["北", "东", "南", "西"]
    rows = {row["player_id"]: row for row in
            Standings(tournament("shengji", "shengji.s004", [], players, [(1, players, results, False)])).rows}
    big = [sum(r["big_points"][team] for r in results) for team in (0, 1)]
    assert [rows[p]["total"] for p in players] == [big[0], big[1], big[0], big[1]]
    assert rows["北"]["tiebreak_values"] == rows["南"]["tiebreak_values"]  # small points and the shared lot


def test_every_format_is_consistent_data():
    for code, found in FORMATS.items():
        facts = set(found.facts) | ({"mp", "mp_rate"} if found.duplicate else set())
        criteria = [found.total, *found.tiebreaks]
        assert {c.fact for c in criteria if c.measure != "lots"} <= facts, code
        assert len({c.code for c in criteria}) == len(criteria), code
        assert resolve(found.game, code, [])[0] is found


def test_declaring_writes_out_the_defaults_and_refuses_unknown_codes():
    assert declare("doudizhu") == ("doudizhu.s001", ["playoff", "deals_won", "landlord_wins", "lots"])
    assert declare("doudizhu", "", ["lots"]) == ("doudizhu.s001", ["lots"])
    for game, code, tiebreaks in (("doudizhu", "shengji.s004", []), ("doudizhu", "nope", []),
                                  ("doudizhu", "", ["coin"]), ("doudizhu", "", ["lots", "lots"])):
        with pytest.raises(IllegalAction):
            declare(game, code, tiebreaks)
