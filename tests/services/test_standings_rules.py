"""The standings' rules for every format (projections/standings.py's docstring, domain/kernel/formats.py,
docs/pairing.md, docs/console.md), each checked on a small tournament's facts as the store loads them: a knockout
ranks by the round reached and then that round's table, a table is over only once it ended, equal keys share a
rank, a lower figure wins where the criterion says so, a bye board is B11.9's credit, an adjustment counts from
its round on. Pure functions over `TournamentFacts`: no store, no service."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Any

from api.schemas.standings import ExplainSchema, StandingsSchema
from domain.kernel.engine import DealSetup
from domain.records.slips import score
from projections.draws import playoffs
from projections.standings import Standings
from projections.standings_values import TournamentFacts, plain

SEED = "rules-seed"


def ddz(landlord: int, won: bool, scores: list[int], penalties: tuple[int, int, int] = (0, 0, 0)) -> dict[str, Any]:
    """One scored 斗地主 deal's result (the facts the format reads: score, won, landlord_won, penalty)."""
    return {"scores": scores, "landlord": landlord, "landlord_won": won, "penalties": list(penalties)}


def facts(players: list[str], tables: list[tuple[int, list[str], list[dict[str, Any]], bool]], *,
          rounds: list[tuple[int, str]] = (), adjustments: list[dict[str, Any]] = (), game: str = "doudizhu",
          format_code: str = "doudizhu.s001", tiebreaks: list[str] = (), seed: str | None = SEED,
          byes: dict[int, list[str]] | None = None) -> TournamentFacts:
    """A tournament's facts: tables are (round, seats, the results of its scored deals, ended)."""
    matches, deals = [], []
    for index, (number, seats, results, ended) in enumerate(tables):
        match_id = f"m{index}"
        matches.append({"match_id": match_id, "round": number, "table": str(index + 1), "seats": seats,
                        "start_chips": 10, "ended": {"by": "target"} if ended else None})
        for deal_number, result in enumerate(results, start=1):
            deals.append({"deal_id": f"{match_id}-{deal_number}", "match_id": match_id, "number": deal_number,
                          "result": result, "winner": None, "finished": {}, "scored": {}})
    return TournamentFacts(
        tournament={"tournament_id": "t-id", "name": "t", "game": game, "format": format_code,
                    "tiebreaks": list(tiebreaks), "lots_seed": seed},
        players=[{"player_id": p, "name": p} for p in players],
        rounds=[{"round": r, "label": f"R{r}", "kind": kind, **({"byes": (byes or {})[r]} if r in (byes or {}) else {})}
                for r, kind in rounds],
        matches=matches, deals=deals, adjustments=list(adjustments))


def adjustment(player: str, points: int, round_number: int) -> dict[str, Any]:
    return {"player_id": player, "points": points, "round": round_number, "kind": "penalty", "reason": "迟到 / late",
            "version": 1, "recorded_by": None, "time": None}


def rows(standings: Standings) -> dict[str, dict[str, Any]]:
    return {row["player_id"]: row for row in standings.rows}


# Three tables of round 1, each won by its landlord (seat 0: 10 + 4 chips; the farmers 10 − 2), then the final.
NINE = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬"]
FIRST_ROUND = [(1, NINE[0:3], [ddz(0, True, [4, -2, -2])], True),
               (1, NINE[3:6], [ddz(0, True, [4, -2, -2])], True),
               (1, NINE[6:9], [ddz(1, False, [1, -2, 1])], True)]  # 壬 and 庚 on 11 chips, 辛 on 8
KNOCKOUT_ROUNDS = [(1, "tables"), (2, "final")]


def test_a_knockout_ranks_by_the_round_reached_then_by_that_rounds_table_alone():
    """The final's players rank above everyone out in round 1, whatever the chips; each is ranked by the chips of
    the table of the round that ranks them (the final's start from 10 again), and the table's own order says who
    goes on (advance 1; a tie at the table goes to the registration number's lower one only after the key)."""
    assert [t["advancing"] for t in Standings(facts(NINE, FIRST_ROUND, rounds=KNOCKOUT_ROUNDS)).tables] == [
        ["甲"], ["丁"], ["庚"]]  # 庚 and 壬 tie on 11 chips and every tiebreak but the lot
    final = (2, ["甲", "丁", "庚"], [ddz(1, True, [-3, 6, -3]), ddz(0, False, [-4, 2, 2])], True)
    standings = Standings(facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS))
    by_player = rows(standings)
    order = [row["player_id"] for row in standings.rows]
    assert order[:3] == ["丁", "庚", "甲"]  # 18, 9 and 3 chips in the final
    assert set(order[3:]) == {"乙", "丙", "戊", "己", "辛", "壬"}
    assert by_player["壬"]["total"] == 11 > by_player["甲"]["total"] == 3  # out in round 1, ranked below 甲
    assert [by_player[p]["status"] for p in order[:3]] == ["champion", "placed", "placed"]
    assert {by_player[p]["status"] for p in order[3:]} == {"eliminated"}
    assert [by_player[p]["reached"]["round"] for p in order] == [2, 2, 2, 1, 1, 1, 1, 1, 1]
    assert [by_player[p]["rank"] for p in order[:3]] == [1, 2, 3]
    assert order[3] == "壬" and by_player["壬"]["rank"] == 4  # 11 chips, then the 10 − 2 = 8s
    final_table = standings.tables[-1]
    assert final_table["totals"] == [3, 18, 9] and final_table["ranking"] == ["丁", "庚", "甲"]
    assert final_table["advancing"] == ["丁"] and final_table["deals"] == 2
    # each row lists its tables, with the place the player took there
    assert by_player["甲"]["matches"] == [
        {"match_id": "m0", "round": 1, "label": "R1", "table": "1", "seat": 0, "deals": 1, "total": 14, "place": 1,
         "over": True, "advanced": True},
        {"match_id": "m3", "round": 2, "label": "R2", "table": "4", "seat": 0, "deals": 2, "total": 3, "place": 3,
         "over": True, "advanced": False}]


def test_a_table_goes_on_only_once_over_and_a_player_without_one_is_waiting():
    """A table that has not ended advances nobody and its players are playing; an entrant at no table waits. A
    table scored before `Match.Ended` existed is over once its last deal named a winner."""
    playing = facts([*NINE[:3], "癸"], [(1, NINE[:3], [ddz(0, True, [4, -2, -2])], False)], rounds=KNOCKOUT_ROUNDS)
    standings = Standings(playing)
    assert standings.tables[0]["over"] is False and standings.tables[0]["advancing"] == []
    assert {p: r["status"] for p, r in rows(standings).items()} == {
        "甲": "playing", "乙": "playing", "丙": "playing", "癸": "waiting"}
    assert rows(standings)["癸"]["reached"] is None and rows(standings)["癸"]["matches"] == []
    legacy = facts(NINE[:3], [(1, NINE[:3], [ddz(0, True, [4, -2, -2])], False)], rounds=KNOCKOUT_ROUNDS)
    legacy.deals[-1]["winner"] = 0
    assert Standings(legacy).tables[0]["over"] is True
    assert Standings(legacy).tables[0]["advancing"] == ["甲"]
    assert rows(Standings(legacy))["甲"]["status"] == "advanced"


def test_equal_on_every_declared_criterion_is_an_equal_rank_and_lots_make_it_impossible():
    """1, 1, 3: the two farmers hold the same chips and won the same deals; `tied_with` names the players level
    on the total, `decided_by` the first criterion that parted a row from the one above it."""
    table = [(1, NINE[:3], [ddz(0, False, [-4, 2, 2])], False)]  # not over: nobody has gone on yet
    without_lots = Standings(facts(NINE[:3], table, rounds=KNOCKOUT_ROUNDS, tiebreaks=["deals_won"]))
    assert [(r["player_id"], r["rank"]) for r in without_lots.rows] == [("乙", 1), ("丙", 1), ("甲", 3)]
    assert rows(without_lots)["乙"]["tied_with"] == ["丙"] and rows(without_lots)["甲"]["tied_with"] == []
    assert [r["decided_by"] for r in without_lots.rows] == [None, None, None]
    with_lots = Standings(facts(NINE[:3], table, rounds=KNOCKOUT_ROUNDS, tiebreaks=["deals_won", "lots"]))
    draw = sorted(["乙", "丙"], key=lambda p: hashlib.sha256(f"{SEED}:{p}".encode()).hexdigest())
    assert [(r["player_id"], r["rank"]) for r in with_lots.rows] == [(draw[0], 1), (draw[1], 2), ("甲", 3)]
    assert [r["decided_by"] for r in with_lots.rows] == [None, "lots", None]


def test_a_criterion_where_lower_wins_ranks_the_fewer_chips_lost_to_fouls_first():
    """`penalties` (chips lost to fouls, higher_wins false): level on chips and deals won, the farmer fined less
    ranks first; its value is the chips lost, shown as a positive number."""
    fouled = [ddz(0, True, [6, -4, -2], penalties=(0, -2, 0)), ddz(0, False, [-4, 4, 0], penalties=(0, 0, -2))]
    standings = Standings(facts(NINE[:3], [(1, NINE[:3], fouled, True)], rounds=KNOCKOUT_ROUNDS,
                                tiebreaks=["penalties", "deals_won", "lots"]))
    assert [r["total"] for r in standings.rows] == [12, 10, 8]
    level = Standings(facts(NINE[:3], [(1, NINE[:3], [ddz(0, False, [-4, 2, 2], penalties=(0, -2, 0))], False)],
                            rounds=KNOCKOUT_ROUNDS, tiebreaks=["penalties", "lots"]))
    assert [(r["player_id"], r["decided_by"]) for r in level.rows[:2]] == [("丙", None), ("乙", "penalties")]


def test_lots_are_numbered_from_the_recorded_seed_or_else_the_tournaments_id():
    """Lot 1 is the smallest SHA-256 of `seed:player`, lot n the largest; lots rank lot 1 first. A tournament
    without a recorded seed draws from its id."""
    players = NINE[:3]
    for seed, drawn_from in ((SEED, SEED), (None, "t-id")):
        standings = Standings(facts(players, [], rounds=KNOCKOUT_ROUNDS, tiebreaks=["lots"], seed=seed))
        draw = sorted(players, key=lambda p: hashlib.sha256(f"{drawn_from}:{p}".encode()).hexdigest())
        assert standings.lots == {p: draw.index(p) + 1 for p in players}
        assert [r["player_id"] for r in standings.rows] == draw
        assert [r["tiebreak_values"] for r in standings.rows] == [[1], [2], [3]]


def test_a_play_off_round_breaks_the_ties_of_the_round_before_it_and_only_its_playoff_tiebreak():
    """S001 §2.6: equal chips at a table are settled by extra deals, a play-off round that belongs to the round
    before it: its deals feed the `playoff` tiebreak of that round's table, never the chips."""
    level = [(1, NINE[:3], [ddz(0, False, [-4, 2, 2])], True)]
    extra = (2, ["乙", "丙", "甲"], [ddz(0, True, [2, -1, -1])], True)  # 乙 wins the extra deal
    standings = Standings(facts(NINE[:3], [*level, extra], rounds=[(1, "tables"), (2, "playoff"), (3, "final")],
                                tiebreaks=["playoff", "lots"]))
    by_player = rows(standings)
    assert standings.tables[0]["advancing"] == ["乙"]
    assert (by_player["乙"]["total"], by_player["丙"]["total"]) == (12, 12)  # the chips of round 1 only
    assert by_player["乙"]["tiebreak_values"][0] == 2 and by_player["丙"]["tiebreak_values"][0] == -1
    assert [r["player_id"] for r in standings.rows][:2] == ["乙", "丙"]
    assert standings.tables[0]["ranking"] == ["乙", "丙", "甲"]
    assert standings.tables[1]["advancing"] == []  # a play-off table sends nobody on by itself


def test_an_adjustment_counts_from_its_round_on_and_toward_the_round_that_ranks_the_player():
    """A penalty recorded in round 2 against a player out in round 1 counts on their total (the round that ranks
    them), at that table's figure too; the standings as of round 1 do not have it yet."""
    final = (2, ["甲", "丁", "庚"], [ddz(1, True, [-3, 6, -3])], True)
    penalised = facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS, adjustments=[adjustment("乙", -5, 2)])
    standings = Standings(penalised)
    row = rows(standings)["乙"]
    assert row["total"] == 3 and row["adjustments"] == -5
    assert row["matches"][0]["total"] == 3  # the table that ranks 乙, as ranked now
    as_of_round_1 = Standings(penalised, round_limit=1)
    assert rows(as_of_round_1)["乙"]["total"] == 8 and rows(as_of_round_1)["乙"]["adjustments"] == 0
    finalist = facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS, adjustments=[adjustment("甲", -5, 1)])
    assert rows(Standings(finalist))["甲"]["total"] == 7  # round 1's penalty decided round 1 only


# --- 挖坑 duplicate (B7, B11.9): a bye board, matchpoint adjustments ----------------------------------------------


def wakeng_board(*scores: int, board: int = 1) -> dict[str, Any]:
    return {"scores": list(scores), "board": board, "seat_facts": {"won": [int(s > 0) for s in scores]}}


SEVEN = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]


def wakeng_round(adjustments: list[dict[str, Any]] = ()) -> TournamentFacts:
    """Round 1 of seven players: two tables of the same two boards, p7 on a bye."""
    tables = [(1, SEVEN[0:3], [wakeng_board(4, -2, -2), wakeng_board(-6, 3, 3, board=2)], True),
              (1, SEVEN[3:6], [wakeng_board(2, -1, -1), wakeng_board(-6, 3, 3, board=2)], True)]
    return facts(SEVEN, tables, rounds=[(1, "tables")], game="wakeng", format_code="wakeng.s003",
                 byes={1: ["p7"]}, adjustments=adjustments)


def test_a_bye_board_is_rate_one_half_the_groups_middle_in_matchpoints_raw_zero_not_won():
    """B11.9: each board the round played counts for the bye player at rate ½, MP = tables − 1, raw 0, not won;
    `explain` lists those boards (docs/console.md)."""
    standings = Standings(wakeng_round())
    bye = rows(standings)["p7"]
    assert bye["total"] == 0.5 and bye["tiebreak_values"][:3] == [2, 0, 0]  # rate, total MP, raw, deals won
    assert bye["status"] == "bye"
    explained = standings.explain("p7")
    assert [m["bye"] for m in explained["matches"]] == [True]
    assert [d["facts"] for d in explained["matches"][0]["deals"]] == [
        {"score": 0, "won": 0, "bye": 1, "mp": 1, "mp_rate": 0.5, "mp_max": 2}] * 2
    assert [r["player_id"] for r in standings.rows].index("p7") in range(1, 6)  # rate ½ among the others


def test_a_matchpoint_penalty_moves_the_rate_by_its_share_of_the_most_the_boards_could_give():
    """docs/pairing.md 6: an adjustment is matchpoints: it moves total MP, and the rate by MP ÷ the most MP the
    player's boards could have given; a bye's two boards could give 2 × 2(tables − 1) = 4 MP."""
    bye = rows(Standings(wakeng_round([adjustment("p7", -2, 1)])))["p7"]
    assert bye["total"] == 0.0 and bye["tiebreak_values"][:3] == [0, 0, 0]  # ½ − 2/4; 2 − 2 MP; raw, won as before
    player = rows(Standings(wakeng_round([adjustment("p1", -1, 1)])))["p1"]
    # p1: board 1 beat p4 (4 > 2: 2 MP of 2), board 2 tied (−6 = −6: 1 of 2): rate ¾, 3 MP; −1 MP of the 4
    assert player["total"] == plain(Fraction(3, 4) - Fraction(1, 4)) and player["tiebreak_values"][:3] == [2, -2, 1]


def test_with_nothing_compared_a_matchpoint_adjustment_counts_on_the_rate_itself():
    """A lone table compares nothing (each result rates ½, MP 0 of 0): the points count on the rate as they are."""
    lone = facts(SEVEN[:3], [(1, SEVEN[:3], [wakeng_board(4, -2, -2)], True)], rounds=[(1, "tables")],
                 game="wakeng", format_code="wakeng.s003", adjustments=[adjustment("p1", -1, 1)])
    assert rows(Standings(lone))["p1"]["total"] == -0.5


# --- teams, byes in a knockout, a cumulative format's statuses ------------------------------------------------


def daguai(points: int, team: int, first_team: int) -> dict[str, Any]:
    """A 大怪路子 deal: `points` to each seat of `team` (seats 0, 2, 4 are team 0), the first finisher's team."""
    return {"scores": [points if s % 2 == team else 0 for s in range(6)],
            "seat_facts": {"team": [s % 2 for s in range(6)], "first_finisher": [int(s % 2 == first_team)
                                                                                 for s in range(6)]}}


SIX = ["a1", "b1", "a2", "b2", "a3", "b3"]  # seated so: the a's are team 0, the b's team 1


def team_tournament(entered: bool, seed: str = SEED) -> TournamentFacts:
    tournament = facts(SIX, [(1, SIX, [daguai(5, 0, 0), daguai(2, 1, 1)], True)], rounds=KNOCKOUT_ROUNDS,
                       game="daguai", format_code="daguai.s000", seed=seed)
    if entered:
        for player in tournament.players:
            red = player["player_id"].startswith("a")
            player["entry"] = "机械一队" if red else "化工队"
            player["department"] = "机械学院" if red else "化工学院"
        tournament.players[-1]["withdrawn"] = {"round": 1, "reason": "伤病 / injured"}
    return tournament


def test_a_team_format_ranks_entries_as_one_line_with_their_department_and_withdrawal():
    """docs/console.md "Teams in the standings": rows carry `entry` and `department`, a withdrawn player's row
    says so (`withdrawn: {round, reason}`), and `teams` ranks each entry as one line (partners share figures)."""
    standings = Standings(team_tournament(entered=True))
    by_player = rows(standings)
    assert {p: (r["entry"], r["department"]) for p, r in by_player.items()} == {
        p: ("机械一队", "机械学院") if p.startswith("a") else ("化工队", "化工学院") for p in SIX}
    assert by_player["b3"]["withdrawn"] == {"round": 1, "reason": "伤病 / injured"}
    assert [p for p, r in by_player.items() if "withdrawn" in r] == ["b3"]
    assert [(t["rank"], t["entry"], t["department"], sorted(t["player_ids"]), t["total"], t["withdrawn"])
            for t in standings.teams()] == [(1, "机械一队", "机械学院", ["a1", "a2", "a3"], 5, False),
                                            (2, "化工队", "化工学院", ["b1", "b2", "b3"], 2, True)]
    assert [team["entry"] for team in standings.document()["teams"]] == ["机械一队", "化工队"]
    plain_rows = rows(Standings(team_tournament(entered=False)))
    assert not any({"entry", "department", "withdrawn"} & set(row) for row in plain_rows.values())


def test_partners_draw_one_lot_per_team_whether_entered_as_one_or_seated_together():
    """docs/ARCHITECTURE.md: lots number 1…n by SHA-256 of `seed:key`, a team format one lot per team, its key
    its members' ids sorted and joined by `+` — the entry's members, or else the partners of the latest table
    (its deals' `team` fact)."""
    key = {team: "+".join(sorted(p for p in SIX if p[0] == team)) for team in "ab"}
    for seed in (SEED, "lots-3"):
        first = min("ab", key=lambda team: hashlib.sha256(f"{seed}:{key[team]}".encode()).hexdigest())
        expected = {p: 1 if p[0] == first else 2 for p in SIX}
        assert Standings(team_tournament(entered=True, seed=seed)).lots == expected
        assert Standings(team_tournament(entered=False, seed=seed)).lots == expected
    waiting = Standings(facts(SIX, [], rounds=KNOCKOUT_ROUNDS, game="daguai", format_code="daguai.s000"))
    assert sorted(waiting.lots.values()) == [1, 2, 3, 4, 5, 6]  # no entry, no table yet: a lot each


def test_a_knockout_bye_goes_on_to_the_next_round():
    """docs/console.md: a last table of one is a bye, and that player goes on: advanced from round 1, above
    everyone a table of round 1 put out, whatever their chips."""
    tournament = facts([*NINE[:3], "癸"], [(1, NINE[:3], [ddz(0, True, [4, -2, -2])], True)],
                       rounds=KNOCKOUT_ROUNDS, byes={1: ["癸"]})
    standings = Standings(tournament)
    by_player = rows(standings)
    assert by_player["癸"]["status"] == "advanced" and by_player["甲"]["status"] == "advanced"
    assert by_player["乙"]["status"] == "eliminated"
    order = [r["player_id"] for r in standings.rows]
    assert set(order[:2]) == {"甲", "癸"} and set(order[2:]) == {"乙", "丙"}
    assert by_player["癸"]["stage"] == by_player["甲"]["stage"] == by_player["乙"]["stage"] + 1
    assert by_player["癸"]["total"] == 0  # a bye has no table, so no chips yet


def test_a_cumulative_formats_players_have_played_or_sat_out_and_an_entrant_without_boards_rates_nothing():
    """挖坑 (every round counts): once the round's tables are over a player has `played`, the bye player `bye`;
    an entrant who has played no board yet has no rate: 0, below every rated player."""
    standings = Standings(wakeng_round())
    assert {p: r["status"] for p, r in rows(standings).items()} == {**{p: "played" for p in SEVEN[:6]}, "p7": "bye"}
    late = wakeng_round()
    late.players.append({"player_id": "p8", "name": "p8"})
    assert rows(Standings(late))["p8"]["total"] == 0 and Standings(late).rows[-1]["player_id"] == "p8"


def test_tables_opened_before_any_round_was_started_are_round_1():
    """A table opened before the first `RoundStarted` belongs to round 1, a round of tables (第1轮)."""
    standings = Standings(facts(NINE[:3], [(1, NINE[:3], [ddz(0, True, [4, -2, -2])], True)]))
    assert list(standings.rounds.values()) == [{"round": 1, "label": "第1轮", "kind": "tables"}]
    assert rows(standings)["甲"]["reached"] == {"round": 1, "label": "第1轮", "kind": "tables"}
    table = standings.tables[0]
    assert (table["kind"], table["label"], table["names"], table["start_chips"], table["ended"]) == (
        "tables", "第1轮", NINE[:3], 10, {"by": "target"})


def test_registration_numbers_count_from_1_and_break_a_tables_complete_tie():
    """Entrants are numbered 1, 2, … in entry order; at a table level on every key the lower number goes on."""
    level = [(1, NINE[:3], [ddz(0, False, [-4, 2, 2])], True)]
    standings = Standings(facts(NINE[:3], level, rounds=KNOCKOUT_ROUNDS, tiebreaks=["deals_won"]))
    assert {p: r["number"] for p, r in rows(standings).items()} == {"甲": 1, "乙": 2, "丙": 3}
    assert standings.tables[0]["ranking"] == ["乙", "丙", "甲"] and standings.tables[0]["advancing"] == ["乙"]


def test_the_standings_as_of_a_round_say_so_and_a_previewed_adjustment_shows_in_every_round_after_it():
    """`round` in the header is the round the standings are computed to; a previewed adjustment (not stored)
    counts in the progression from its round on, as a stored one would."""
    final = (2, ["甲", "丁", "庚"], [ddz(1, True, [-3, 6, -3])], True)
    tournament = facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS)
    assert Standings(tournament, round_limit=1).header()["round"] == 1
    assert Standings(tournament).header()["round"] is None
    previewed = Standings(tournament, extra_adjustments=[adjustment("乙", -5, 1)]).document()
    after_round_1 = {row["player_id"]: row["total"] for row in previewed["progression"][0]["rows"]}
    assert after_round_1["乙"] == 3


# --- appeals' outcomes in effect (docs/appeals.md "Tiebreaks, matchpoints and the redeal") -----------------------


def appealed(first_outcome: dict[str, Any]) -> TournamentFacts:
    """Round 1's table: deal 1 under appeal A (with A's redeal scored), deal 2 given an assigned score by appeal B,
    whose compensating adjustment of 甲 is recorded too."""
    tournament = facts(NINE[:3], [(1, NINE[:3], [ddz(0, True, [4, -2, -2]), ddz(2, False, [1, 1, -2])], True)],
                       rounds=KNOCKOUT_ROUNDS, tiebreaks=["deals_won", "landlord_wins", "lots"],
                       adjustments=[{**adjustment("甲", 3, 1), "kind": "appeal",
                                     "refers_to": {"appeal_id": "B", "deal_id": "m0-2"}},
                                    {**adjustment("乙", -1, 1), "refers_to": {"appeal_id": "C"}}])
    # the redeal comes after deal 2 in the log, and sorts right after the deal it replaces
    tournament.deals.append({"deal_id": "m0-r", "match_id": "m0", "number": 1, "result": ddz(1, True, [-2, 4, -2]),
                             "winner": None, "finished": {}, "scored": {"replaces": "m0-1", "appeal_id": "A"}})
    tournament.appeals = [{"appeal_id": "A", "deal_id": "m0-1", "outcome": first_outcome},
                          {"appeal_id": "B", "deal_id": "m0-2", "outcome": {"kind": "assigned", "scores": [2, -1, -1]}},
                          {"appeal_id": "C", "deal_id": None, "outcome": {"kind": "penalty"}}]  # 乙 fined 1
    return tournament


def test_a_voided_deal_counts_in_nothing_and_its_redeal_counts_in_its_place():
    """void: deal 1 counts in no total and no tiebreak, the redeal counts instead; assigned: deal 2 counts the
    assigned score and `won` follows it, `landlord_won` too (the landlord's score is not positive: 0); B's
    compensation is counted in the deal, not added again."""
    standings = Standings(appealed({"kind": "void"}))
    by_player = rows(standings)
    assert {p: r["total"] for p, r in by_player.items()} == {"甲": 10, "乙": 12, "丙": 7}
    assert {p: r["tiebreak_values"][:2] for p, r in by_player.items()} == {"甲": [1, 0], "乙": [1, 1], "丙": [0, 0]}
    assert by_player["甲"]["adjustments"] == 0 and set(by_player["甲"]["appeals"]) == {"A", "B"}
    assert by_player["乙"]["adjustments"] == -1 and set(by_player["乙"]["appeals"]) == {"A", "B", "C"}  # the fine
    assert standings.tables[0]["deals"] == 2  # the redeal and deal 2
    deals = standings.explain("甲")["matches"][0]["deals"]
    assert [(d["deal_id"], d["counted"], d.get("voided"), d.get("replaces"), d.get("replaced_by")) for d in deals] == [
        ("m0-1", False, True, None, "m0-r"), ("m0-r", True, None, "m0-1", None), ("m0-2", True, None, None, None)]
    assert [a["counted"] for a in standings.explain("甲")["adjustments"]] == [False]
    for player in ("乙", "丙"):  # every seat's explanation lists the voided deal, not counted
        assert [(d["deal_id"], d["counted"]) for d in standings.explain(player)["matches"][0]["deals"]] == [
            ("m0-1", False), ("m0-r", True), ("m0-2", True)]


def test_a_redeal_whose_appeal_no_longer_voids_its_deal_is_set_aside():
    """A's outcome now assigns deal 1 a score: deal 1 counts so, and the redeal is listed as not counted."""
    standings = Standings(appealed({"kind": "assigned", "scores": [1, 1, -2]}))
    assert {p: r["total"] for p, r in rows(standings).items()} == {"甲": 13, "乙": 9, "丙": 7}
    deals = standings.explain("乙")["matches"][0]["deals"]
    assert [(d["deal_id"], d["counted"], d["score"]) for d in deals] == [
        ("m0-1", True, 1), ("m0-2", True, -1), ("m0-r", False, None)]


def test_byes_of_a_later_round_and_a_round_started_before_its_tables():
    """Round 1 without a bye, round 2 with one: the bye is credited each board round 2's tables played (B11.9);
    while round 2's tables are not open yet, its bye player has no board credited."""
    boards = [wakeng_board(4, -2, -2), wakeng_board(2, -1, -1, board=2)]
    first = [(1, SEVEN[0:3], boards, True), (1, SEVEN[3:6], boards, True)]
    started = facts(SEVEN[:6], first, rounds=[(1, "tables"), (2, "tables")], game="wakeng",
                    format_code="wakeng.s003", byes={2: ["p6"]})
    waiting = rows(Standings(started))["p6"]
    assert waiting["tiebreak_values"][0] == 2 and len(Standings(started).explain("p6")["matches"][1]["deals"]) == 0
    second = [(2, ["p1", "p4", "p2"], [wakeng_board(4, -2, -2)], True),
              (2, ["p3", "p5", "p7"], [wakeng_board(2, -1, -1)], True)]
    played = facts(SEVEN, first + second, rounds=[(1, "tables"), (2, "tables")], game="wakeng",
                   format_code="wakeng.s003", byes={1: ["p7"], 2: ["p6"]})
    bye = Standings(played).explain("p6")["matches"][1]
    assert bye["bye"] is True and [d["facts"]["mp"] for d in bye["deals"]] == [1]  # one board, two tables


def test_a_table_opened_without_a_deal_yet_is_playing():
    standings = Standings(facts(NINE[:3], [(1, NINE[:3], [], False)], rounds=KNOCKOUT_ROUNDS))
    assert standings.tables[0]["deals"] == 0 and standings.tables[0]["totals"] == [10, 10, 10]
    assert {r["status"] for r in standings.rows} == {"playing"}


def test_a_player_id_stored_with_a_lone_surrogate_still_draws_a_lot():
    """An id stored before the API refused lone surrogates is drawn as its UTF-8 bytes with the surrogate kept."""
    odd = "\ud800"
    standings = Standings(facts(["甲", odd], [], rounds=KNOCKOUT_ROUNDS, tiebreaks=["lots"]))
    draw = sorted(["甲", odd], key=lambda p: hashlib.sha256(f"{SEED}:{p}".encode("utf-8", "surrogatepass")).hexdigest())
    assert standings.lots == {p: draw.index(p) + 1 for p in draw}


def test_a_finished_table_level_at_its_advancing_line_needs_a_play_off():
    """S001 §2.6 (docs/console.md: the next round is first a play-off where a table's advancing line falls between
    players equal on the total and the tiebreaks before the play-off): 乙 and 丙 end level on chips."""
    level = facts(NINE[:3], [(1, NINE[:3], [ddz(0, False, [-4, 2, 2])], True)], rounds=KNOCKOUT_ROUNDS,
                  tiebreaks=["playoff", "lots"])
    standings = Standings(level)
    assert [m["match_id"] for m in playoffs(standings, standings.format, 1)] == ["m0"]
    assert standings.table_keys(standings.matches[0]) == {"甲": (6, 0, -standings.lots["甲"]),
                                                          "乙": (12, 0, -standings.lots["乙"]),
                                                          "丙": (12, 0, -standings.lots["丙"])}
    decided = facts(NINE[:3], [(1, NINE[:3], [ddz(0, False, [-4, 3, 1])], True)], rounds=KNOCKOUT_ROUNDS,
                    tiebreaks=["playoff", "lots"])
    assert playoffs(Standings(decided), standings.format, 1) == []
    fined = facts(NINE[:3], [(1, NINE[:3], [ddz(0, False, [-4, 2, 2])], True)], rounds=KNOCKOUT_ROUNDS,
                  tiebreaks=["playoff", "lots"], adjustments=[adjustment("乙", -1, 1)])
    assert playoffs(Standings(fined), standings.format, 1) == []  # 11 chips against 12: no tie left


# --- the document as the API gives it (api/schemas/standings.py), progression, teams, directions, explain ---------


def answer(standings: Standings) -> dict[str, Any]:
    """The document as `GET …/standings` answers it, checked against the API's documented schema."""
    document = {**standings.document(), "as_of": 0}
    assert StandingsSchema().validate(document) == {}
    return document


def test_the_document_is_what_the_api_documents_and_its_progression_is_each_rounds_standings():
    """docs/ARCHITECTURE.md: `?round=R` ranks with the tables and adjustments of rounds ≤ R; `progression` is that
    for every round, with its label; its last round is the document's rows."""
    final = (2, ["甲", "丁", "庚"], [ddz(1, True, [-3, 6, -3])], True)
    tournament = facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS, adjustments=[adjustment("乙", -5, 1)])
    document = answer(Standings(tournament))
    assert [(p["round"], p["label"]) for p in document["progression"]] == [(1, "R1"), (2, "R2")]
    assert [r["round"] for r in document["rounds"]] == [1, 2] and len(document["tables"]) == 4
    for progress in document["progression"]:
        at_round = Standings(tournament, round_limit=progress["round"])
        assert progress["rows"] == [{k: row[k] for k in ("player_id", "name", "total", "rank")}
                                    for row in at_round.rows]
    after_round_1 = {row["player_id"]: row for row in document["progression"][0]["rows"]}
    assert after_round_1["乙"]["total"] == 8 - 5 and after_round_1["甲"]["total"] == 14  # before the final
    assert {row["player_id"]: row["total"] for row in document["progression"][1]["rows"]} == {
        row["player_id"]: row["total"] for row in document["rows"]}
    assert "teams" not in document and "directions" not in document
    assert all("teams" not in p for p in document["progression"])  # no team format: no team lines
    assert document["format_name"] == {"zh": "斗地主筹码淘汰赛", "en": "Dou Dizhu chip-table knockout"}
    assert document["total_measure"] == {"code": "chips", "zh": "筹码", "en": "chips held"}


def test_a_team_formats_progression_ranks_its_teams_each_round():
    """docs/console.md "Teams in the standings": each round of `progression` has its `teams`."""
    document = answer(Standings(team_tournament(entered=True)))
    assert [[(t["entry"], t["total"], t["rank"]) for t in p["teams"]] for p in document["progression"]] == [
        [("机械一队", 5, 1), ("化工队", 2, 2)], [("机械一队", 5, 1), ("化工队", 2, 2)]]
    assert [t["names"] for t in document["teams"]] == [["a1", "a2", "a3"], ["b1", "b2", "b3"]]
    members = {row["player_id"]: row for row in document["rows"]}
    assert [(t["stage"], t["status"]) for t in document["teams"]] == [
        (members["a1"]["stage"], "advanced"), (members["b1"]["stage"], "eliminated")]
    assert members["a1"]["stage"] == members["b1"]["stage"] + 1
    withdrawn = explained(Standings(team_tournament(entered=True)), "b3")
    assert (withdrawn["entry"], withdrawn["department"], withdrawn["withdrawn"]) == (
        "化工队", "化工学院", {"round": 1, "reason": "伤病 / injured"})


def test_entries_rank_only_in_a_team_format():
    """`teams` ranks the entries of a team format; a 斗地主 entrant's entry is a label, not a team."""
    tournament = facts(NINE, FIRST_ROUND, rounds=KNOCKOUT_ROUNDS)
    for player in tournament.players:
        player["entry"] = "一队"
    assert Standings(tournament).teams() == [] and answer(Standings(tournament))["teams"] == []


def test_teams_equal_on_every_key_share_a_rank_and_a_player_without_an_entry_is_no_team():
    """Equal keys, equal rank (1, 1, 3); a player of a team format who entered alone is on no team's line,
    wherever the row ranks. Two 大怪路子 tables, each won 5 : 2 with one 跑头家 each, no lots declared."""
    twelve = [f"{team}{n}" for team in "abcd" for n in (1, 2, 3)]
    seated = [[twelve[0], twelve[3], twelve[1], twelve[4], twelve[2], twelve[5]],
              [twelve[6], twelve[9], twelve[7], twelve[10], twelve[8], twelve[11]]]
    tables = [(1, seats, [daguai(5, 0, 0), daguai(2, 1, 1)], True) for seats in seated]
    tournament = facts(twelve, tables, rounds=KNOCKOUT_ROUNDS, game="daguai", format_code="daguai.s000",
                       tiebreaks=["first_finishes"])
    for player in tournament.players:
        if player["player_id"] != "a1":
            player["entry"] = player["player_id"][0].upper()
    standings = Standings(tournament)
    assert standings.rows[0]["player_id"] == "a1"  # tied with a2, a3 on every key: first by number
    assert [(t["entry"], t["rank"], t["player_ids"]) for t in standings.teams()] == [
        ("A", 1, ["a2", "a3"]), ("C", 1, ["c1", "c2", "c3"]), ("B", 3, ["b1", "b2", "b3"]),
        ("D", 3, ["d1", "d2", "d3"])]


EAST_NORTH = ["东", "南", "西", "北"]


def shengji(dealer: int, points: int) -> dict[str, Any]:
    """A scored 升级 deal at levels 2 : 2, as its score slip gives it (the engine's own result)."""
    return score(DealSetup("shengji", {}, EAST_NORTH, dealer, [], [], {"levels": [2, 2], "dealer": dealer}),
                 {"dealer": dealer, "points": points})[1]


def test_s004_ranks_each_directions_pairs_among_themselves():
    """docs/rules/shengji.md: S004's awards rank E-W and N-S pairs separately, so the standings rank each
    direction (seats 0 and 2 sit E-W, 1 and 3 N-S), each pair where it sat at the table that ranks it, with the
    fields the API documents. Table 1: the attackers (N-S) take 120 → 大分 0 : 4; table 2: they take 40, the
    dealer's E-W hold → 2 : 0."""
    eight = ["e1", "n1", "w1", "s1", "e2", "n2", "w2", "s2"]
    tables = [(1, eight[0:4], [shengji(0, 120)], True), (1, eight[4:8], [shengji(0, 40)], True)]
    document = answer(Standings(facts([*eight, "late"], tables, rounds=KNOCKOUT_ROUNDS, game="shengji",
                                      format_code="shengji.s004")))  # "late" sat at no table: in no direction
    directions = {d["code"]: d for d in document["directions"]}
    assert {code: (d["seats"], d["zh"]) for code, d in directions.items()} == {"ew": ([0, 2], "东西"),
                                                                             "ns": ([1, 3], "南北")}
    documented = {"rank", "player_ids", "names", "match_id", "table", "total", "tiebreak_values", "status"}
    assert all(set(row) == documented for d in directions.values() for row in d["rows"])
    assert [(r["rank"], r["player_ids"], r["table"], r["total"]) for r in directions["ew"]["rows"]] == [
        (1, ["e2", "w2"], "2", 2), (2, ["e1", "w1"], "1", 0)]
    assert [(r["rank"], r["names"], r["match_id"], r["total"]) for r in directions["ns"]["rows"]] == [
        (1, ["n1", "s1"], "m0", 4), (2, ["n2", "s2"], "m1", 0)]
    assert directions["ns"]["rows"][0]["tiebreak_values"][0] == 120  # 小分, then the lot (the default tiebreaks)
    # the same deal at both tables and no lots declared: each direction's two pairs tie, one rank
    level = [(1, eight[0:4], [shengji(0, 120)], True), (1, eight[4:8], [shengji(0, 120)], True)]
    tied = Standings(facts(eight, level, rounds=KNOCKOUT_ROUNDS, game="shengji", format_code="shengji.s004",
                           tiebreaks=["small_points"])).document()
    assert [[r["rank"] for r in d["rows"]] for d in tied["directions"]] == [[1, 1], [1, 1]]


def test_explain_lists_a_voided_deal_its_replacement_and_an_assigned_score_with_their_appeals():
    """docs/appeals.md: `explain` lists the voided deal (`voided`, `counted: false`, `replaced_by`, `appeal`) as
    played, and the replacement (`replaces`, `appeal`) counted; an assigned score counts as assigned. Each appeal
    is linked by its API address and its page."""
    explained = Standings(appealed({"kind": "void"})).explain("甲")
    deals = {d["deal_id"]: d for m in explained["matches"] for d in m["deals"]}
    voided, redeal, assigned = deals["m0-1"], deals["m0-r"], deals["m0-2"]
    assert (voided["voided"], voided["counted"], voided["replaced_by"], voided["score"]) == (True, False, "m0-r", 4)
    assert voided["facts"]["score"] == 4 and voided["result"]["scores"] == [4, -2, -2]
    assert voided["appeal"] == {"id": "A", "href": "/api/appeals/A", "page": "/appeals/A", "outcome": "void"}
    assert (redeal["replaces"], redeal["counted"], redeal["score"], redeal["appeal"]["id"]) == ("m0-1", True, -2, "A")
    assert (redeal["scored"], redeal["finished"]) == ({"replaces": "m0-1", "appeal_id": "A"}, {})
    assert (assigned["score"], assigned["facts"]["score"], assigned["facts"]["won"]) == (2, 2, 1)
    assert assigned["appeal"]["outcome"] == "assigned" and "voided" not in assigned


def test_explain_shows_a_corrected_deal_as_corrected():
    """docs/corrections.md: a corrected deal's facts count as corrected, and `explain` says why and what it was."""
    tournament = facts(NINE[:3], [(1, NINE[:3], [ddz(0, True, [4, -2, -2])], True)], rounds=KNOCKOUT_ROUNDS)
    corrected = {"was": [2, -1, -1], "reason": "抄错 / mistyped", "by": "organiser"}
    tournament.deals[0]["corrected"] = corrected
    deal = Standings(tournament).explain("甲")["matches"][0]["deals"][0]
    assert deal["corrected"] == corrected and deal["score"] == 4


def explained(standings: Standings, player: str) -> dict[str, Any]:
    """`GET …/standings/<player>/explain` as answered (the API sends what its schema declares), with every field
    the schema requires; its total as a sum that adds up (docs/console.md: the start, the deals as recorded, each
    change, each adjustment counted)."""
    answer = {**standings.explain(player), "as_of": 0}  # the pages and `fupan standings` read it whole
    assert ExplainSchema().validate(ExplainSchema().dump(answer)) == {}
    row = rows(standings)[player]
    assert answer["total"] == row["total"] and answer["rank"] == row["rank"]
    parts = answer["total_explained"]["parts"]
    assert sum(Fraction(str(p["points"])) for p in parts if not p.get("included")) == Fraction(str(row["total"]))
    return answer


def test_explain_adds_an_appeals_change_and_a_penalty_to_the_recorded_deals():
    """docs/appeals.md: 甲's deals as recorded (the redeal −2 in the voided deal's place, deal 2 recorded 1) and
    appeal B's assigned 2 (+1 in its deal); B's compensation counted in the deal, not again; 乙's penalty C an
    adjustment of its own. Every player's parts add up to the row's total."""
    standings = Standings(appealed({"kind": "void"}))
    first = explained(standings, "甲")
    assert first["total_explained"]["parts"] == [
        {"kind": "start", "points": 10}, {"kind": "recorded", "points": -1},
        {"kind": "appeal", "points": 1, "appeal_id": "B", "number": 2, "deal_id": "m0-2"}]
    assert {k: first["total_explained"][k] for k in ("start_chips", "deals", "adjustments", "total")} == {
        "start_chips": 10, "deals": 0, "adjustments": 0, "total": 10}
    assert [(a["counted"], a["counted_in_deal"]) for a in first["adjustments"]] == [(False, "m0-2")]
    second = explained(standings, "乙")
    assert second["total_explained"]["parts"][-1] == {"kind": "penalty", "points": -1, "reason": "迟到 / late",
                                                       "version": 1}
    assert [(a["counted"], "counted_in_deal" in a) for a in second["adjustments"]] == [(True, False)]
    assert second["total_explained"]["adjustments"] == -1
    third = explained(standings, "丙")
    assert third["total_explained"]["parts"] == [  # the redeal −2 and deal 2 as recorded −2; assigned −1
        {"kind": "start", "points": 10}, {"kind": "recorded", "points": -4},
        {"kind": "appeal", "points": 1, "appeal_id": "B", "number": 2, "deal_id": "m0-2"}]
    table = first["matches"][0]
    assert (table["table"], table["seat"], table["names"], table["counts_for"], table["over"]) == (
        "1", 0, ["甲", "乙", "丙"], "ranking", True)
    assert (table["table_total"], table["place"], table["advanced"], table["start_chips"]) == (10, 2, False, 10)
    assert (table["match_id"], table["label"], table["kind"], table["seats"]) == ("m0", "R1", "tables",
                                                                                  ["甲", "乙", "丙"])
    assert [(v["code"], v["value"]) for v in first["tiebreak_values"]] == [
        ("deals_won", 1), ("landlord_wins", 0), ("lots", standings.lots["甲"])]
    assert first["total_explained"]["measure"]["code"] == "chips"
    # a voided deal counts for nothing, so a correction of it is no part of the total
    voided_and_corrected = appealed({"kind": "void"})
    voided_and_corrected.deals[0]["corrected"] = {"was": [2, -1, -1], "reason": "抄错 / mistyped"}
    assert explained(Standings(voided_and_corrected), "甲")["total_explained"]["parts"] == \
        first["total_explained"]["parts"]


def test_explain_names_a_correction_in_its_deal():
    """docs/corrections.md: a corrected deal counts as corrected; `explain`'s parts name the change (the deal
    as corrected less as it was) with its reason."""
    tournament = facts(NINE[:3], [(1, NINE[:3], [ddz(0, True, [4, -2, -2]), ddz(1, False, [1, -2, 1])], True)],
                       rounds=KNOCKOUT_ROUNDS)
    tournament.deals[0]["corrected"] = {"was": [2, -1, -1], "reason": "抄错 / mistyped"}
    parts = explained(Standings(tournament), "甲")["total_explained"]["parts"]
    assert parts == [{"kind": "start", "points": 10}, {"kind": "recorded", "points": 3},
                     {"kind": "correction", "points": 2, "reason": "抄错 / mistyped", "number": 1, "deal_id": "m0-1"}]


def test_explain_ranks_a_finalist_by_the_final_and_lists_round_1_as_an_earlier_round():
    final = (2, ["甲", "丁", "庚"], [ddz(1, True, [-3, 6, -3])], True)
    standings = Standings(facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS,
                                adjustments=[adjustment("甲", -2, 1), adjustment("甲", 1, 2)]))
    answer = explained(standings, "甲")
    assert [(m["round"], m["counts_for"], m["advanced"]) for m in answer["matches"]] == [
        (1, "earlier round", True), (2, "ranking", False)]
    assert [(a["round"], a["counted"]) for a in answer["adjustments"]] == [(1, False), (2, True)]
    assert answer["total_explained"]["parts"] == [{"kind": "start", "points": 10}, {"kind": "deals", "points": -3},
                                                  {"kind": "penalty", "points": 1, "reason": "迟到 / late",
                                                   "version": 1}]
    assert [v["code"] for v in answer["tiebreak_values"]] == [c["code"] for c in answer["tiebreaks"]]


def test_explain_of_a_bye_and_of_a_matchpoint_rate():
    """B11.9: a bye's boards are listed by number with their facts, no deal or table; a rate of matchpoints
    names a change as `included` (docs/appeals.md), and its parts still add up."""
    standings = Standings(wakeng_round([{**adjustment("p1", -1, 1), "kind": "adjustment"}]))
    bye = explained(standings, "p7")["matches"][0]
    assert (bye["match_id"], bye["bye"], bye["round"], bye["label"], bye["kind"], bye["counts_for"]) == (
        None, True, 1, "R1", "tables", "ranking")
    assert [(d["deal_id"], d["number"], d["score"], d["result"]) for d in bye["deals"]] == [
        (None, 1, 0, None), (None, 2, 0, None)]
    for player in SEVEN:
        explained(standings, player)
    assert [p["kind"] for p in explained(standings, "p1")["total_explained"]["parts"]] == ["deals", "adjustment"]
    appealed_board = wakeng_round()
    appealed_board.appeals = [{"appeal_id": "W", "deal_id": "m0-1", "outcome": {"kind": "assigned",
                                                                                "scores": [2, -1, -1]}}]
    parts = explained(Standings(appealed_board), "p1")["total_explained"]["parts"]
    assert [(p["kind"], p["points"], p.get("included")) for p in parts] == [("deals", parts[0]["points"], None),
                                                                              ("appeal", -2, True)]


def test_explain_shares_what_the_adjustments_count_for_among_them():
    """Each adjustment counted is a part of its own: a penalty of 3 chips is −3; two that cancel are 0 each."""
    final = (2, ["甲", "丁", "庚"], [ddz(1, True, [-3, 6, -3])], True)
    standings = Standings(facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS,
                                adjustments=[adjustment("丁", -3, 2), adjustment("庚", 2, 2),
                                             {**adjustment("庚", -2, 2), "kind": "adjustment"}]))
    assert [(p["kind"], p["points"]) for p in explained(standings, "丁")["total_explained"]["parts"]] == [
        ("start", 10), ("deals", 6), ("penalty", -3)]
    assert [(p["kind"], p["points"]) for p in explained(standings, "庚")["total_explained"]["parts"]] == [
        ("start", 10), ("deals", -3), ("penalty", 0), ("adjustment", 0)]


def test_a_s004_appeal_changes_the_deal_not_the_big_points_so_its_part_is_included():
    """docs/appeals.md: S004 ranks by 大分, which an outcome's `scores` do not name: an assigned score's change is
    named `included` (not added to the 大分 total), and the parts still add up."""
    eight = ["e1", "n1", "w1", "s1", "e2", "n2", "w2", "s2"]
    tables = [(1, eight[0:4], [shengji(0, 120)], True), (1, eight[4:8], [shengji(0, 40)], True)]
    tournament = facts(eight, tables, rounds=KNOCKOUT_ROUNDS, game="shengji", format_code="shengji.s004")
    tournament.appeals = [{"appeal_id": "S", "deal_id": "m0-1", "outcome": {"kind": "assigned",
                                                                            "scores": [3, -3, 3, -3]}}]
    parts = explained(Standings(tournament), "e1")["total_explained"]["parts"]
    (change,) = [p for p in parts if p["kind"] == "appeal"]
    assert change["included"] is True and change["appeal_id"] == "S"


def test_explain_lists_a_knockout_bye_as_the_round_it_was_and_the_final_after_it():
    """A bye of round 1 counts for an earlier round once its player plays the final that ranks them."""
    final = (2, ["甲", "癸", "乙"], [ddz(1, True, [-2, 4, -2])], True)
    tournament = facts([*NINE[:3], "癸"], [(1, NINE[:3], [ddz(0, True, [4, -2, -2])], True), final],
                       rounds=KNOCKOUT_ROUNDS, byes={1: ["癸"]})
    answer = explained(Standings(tournament), "癸")
    assert [(m["round"], m.get("bye", False), m["counts_for"]) for m in answer["matches"]] == [
        (1, True, "earlier round"), (2, False, "ranking")]


def test_explain_counts_a_later_rounds_adjustment_toward_the_round_that_ranks_the_player():
    """An adjustment counts toward the round that ranks the player: 乙, out in round 1, fined in round 2."""
    final = (2, ["甲", "丁", "庚"], [ddz(1, True, [-3, 6, -3])], True)
    standings = Standings(facts(NINE, [*FIRST_ROUND, final], rounds=KNOCKOUT_ROUNDS,
                                adjustments=[adjustment("乙", -1, 2)]))
    answer = explained(standings, "乙")  # its parts add up to the row's total, the fine included
    assert answer["total"] == 8 - 1 and [(a["round"], a["counted"]) for a in answer["adjustments"]] == [(2, True)]
