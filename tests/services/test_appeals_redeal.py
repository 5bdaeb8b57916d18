"""The backend of appeals that changes what counts (docs/appeals.md "A voided deal — who redeals", "Tiebreaks,
matchpoints and the redeal", "The what-if sandbox"), over real HTTP on a real SQLite file:

- a voided deal is dealt again through `POST /api/appeals/<id>/redeal` (the chief referee; `not_void` otherwise;
  a resend is the same deal), recorded as any deal, and its score counts instead of the voided one's at a table
  already over — in the totals, the tiebreaks, the table's total and `explain`, which links the appeal;
- an assigned score moves the tiebreak facts that follow the score (deals won, 地主胜局), a voided deal counts in
  none;
- a 挖坑 duplicate board's adjusted score (assigned, weighted) is matchpointed against the other table, a voided
  board is replayed with the same cards at a table still playing, and the travellers show both;
- a sandbox line completed by the solver is the analysis' best line; one too large is refused, nothing stored;
- rebuilds equal live, and `fupan verify` checks the appeals' chains with the redeal in them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, EXAMPLE_SCORES, LiveServer, Store
from postgres_cluster import application_env, create_schema, drop_schema
from test_deal_databases import connect, deal_database

from cli.main import main as fupan
from domain.games import get_engine
from domain.model.token import LOCAL
from domain.records.format import fold, parse_record
from fixtures.random_play import doudizhu as doudizhu_play
from fixtures.random_play import shengji as shengji_play
from fixtures.random_play import wakeng as wakeng_play

PLAYERS = EXAMPLE_RECORD["seats"]
COMMITTEE = {"members": ["甲", "乙", "丙"], "vote": {"for": 3, "against": 0, "abstain": 0}}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(Store.sqlite(tmp_path_factory.mktemp("redeal") / "fupan.sqlite")).start()
    yield server
    server.stop()


def head(server: LiveServer) -> int:
    assert server.service is not None
    return server.service.store.recorder.max_notification_id()


def standings(server: LiveServer, tournament: str) -> dict[str, dict[str, Any]]:
    rows = server.get(f"/api/tournaments/{tournament}/standings").json()["rows"]
    return {row["player_id"]: row for row in rows}


def play_over_http(server: LiveServer, deal: str, play_out: Callable[..., None], seed: int) -> list[int]:
    """Random legal play of a (server-dealt) deal, every action recorded over HTTP; the deal's scores. The deal is
    played to its end, never redealt (nobody calling in 斗地主, nobody declaring in 升级): the cards are the
    server's random deal, so the random player's seed is moved on until the deal is played."""
    assert server.service is not None
    record = server.service.records.export_record(deal, LOCAL)  # a live deal's hands: local code only
    setup, _, _ = parse_record(record)
    engine = get_engine(setup.game)
    for attempt in range(seed, seed + 200):
        state, actions = engine.new_deal(setup), []
        play_out(state, random.Random(attempt), actions)
        if not engine.result(state).get("redeal"):
            break
    else:
        raise AssertionError(f"no random play of {deal} without a redeal")
    for action in actions:
        answer = server.post(f"/api/deals/{deal}/actions", {"action": action})
        assert answer.status_code == 201, answer.text
    return list(engine.result(state)["scores"])


def rebuild_equals_live(server: LiveServer, tournament: str) -> None:
    before = server.get(f"/api/tournaments/{tournament}/standings").json()
    assert server.get("/api/admin/verify", token=server.organiser).json()["ok"]
    assert server.post("/api/admin/rebuild").status_code == 200
    after = server.get(f"/api/tournaments/{tournament}/standings").json()
    assert {k: v for k, v in after.items() if k != "as_of"} == {k: v for k, v in before.items() if k != "as_of"}
    assert server.service is not None and server.service.audit.verify_chains()["ok"]


def walk_void_and_redeal(server: LiveServer, name: str) -> None:
    """斗地主: assigned (tiebreaks follow it) → void by the committee (counts in nothing) → the table closed → the
    redeal (refusals first), played over HTTP → counted instead, in standings, the table and explain."""
    tournament = server.post("/api/tournaments", {"name": name, "game": "doudizhu"}).json()["id"]
    for player in PLAYERS:
        server.post(f"/api/tournaments/{tournament}/players", {"name": player})
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS, "first": 2}
                        ).json()["id"]
    body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
    deal = server.post(f"/api/matches/{match}/deals", body).json()["id"]
    for action in EXAMPLE_RECORD["actions"]:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    assert server.service is not None
    _, referee = server.service.tokens.create("referee", [match], "table 1")
    _, committee = server.service.tokens.create("appeals", label="仲裁委员会")
    codes = [c["code"] for c in server.get(f"/api/tournaments/{tournament}/standings").json()["tiebreaks"]]
    deals_won, landlord_wins = codes.index("deals_won"), codes.index("landlord_wins")
    played = standings(server, tournament)
    # As played: the farmers (seats 0, 1) won; the landlord (seat 2) lost.
    assert [played[p]["total"] for p in PLAYERS] == [10 + s for s in EXAMPLE_SCORES]
    assert [played[p]["tiebreak_values"][deals_won] for p in PLAYERS] == [1, 1, 0]

    appeal = server.post(f"/api/matches/{match}/appeals", {
        "against": {"kind": "deal", "deal_id": deal, "step": 3}, "category": "irregularity",
        "statement": "发牌时一张牌翻开", "on_behalf_of": ["王五"]}, token=referee).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    before = head(server)
    refused = server.post(f"{path}/redeal", {})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_void"
    assert "作废" in refused.json()["error"]["message_zh"] and head(server) == before

    # The chief referee assigns the landlord the win: the tiebreak facts follow the adjusted score's sign.
    assert server.post(f"{path}/ruling", {"outcome": {"kind": "assigned", "scores": [-2, -2, 4]},
                                          "reason": "顺子无效，判地主胜"}).status_code == 201
    assigned = standings(server, tournament)
    assert [assigned[p]["total"] for p in PLAYERS] == [8, 8, 14]
    assert [assigned[p]["tiebreak_values"][deals_won] for p in PLAYERS] == [0, 0, 1]
    assert [assigned[p]["tiebreak_values"][landlord_wins] for p in PLAYERS] == [0, 0, 1]
    assert server.post(f"{path}/redeal", {}).json()["error"]["code"] == "not_void"

    # The committee voids the deal: it counts in nothing, not even a tiebreak.
    assert server.post(f"{path}/committee", {"reason": "不服"}, token=referee).status_code == 201
    assert server.post(f"{path}/decision", {"outcome": {"kind": "void"}, "reason": "发牌违规，本副作废", **COMMITTEE},
                       token=committee).status_code == 201
    voided = standings(server, tournament)
    assert [voided[p]["total"] for p in PLAYERS] == [10, 10, 10]
    assert all(voided[p]["tiebreak_values"][deals_won] == 0 == voided[p]["tiebreak_values"][landlord_wins]
               for p in PLAYERS)
    # One appeal at a time replaces a deal's score: another appeal's score outcome is refused, nothing stored.
    second = server.post(f"/api/matches/{match}/appeals", {
        "against": {"kind": "result", "deal_id": deal}, "category": "scoring_error", "statement": "计分"}
                         ).json()["appeal_id"]
    before = head(server)
    clash = server.post(f"/api/appeals/{second}/ruling", {"outcome": {"kind": "assigned", "scores": [1, 1, -2]},
                                                          "reason": "改判"})
    assert clash.status_code == 409 and clash.json()["error"]["code"] == "deal_adjusted_by_another_appeal"
    assert clash.json()["error"]["details"]["appeal_id"] == appeal and head(server) == before
    # The table is over now (the organiser closes it): the replacement is dealt beside its deals all the same.
    assert server.post(f"/api/matches/{match}/close", {"reason": "本桌结束"}).status_code == 201

    assert server.post(f"{path}/redeal", {}, token=referee).status_code == 403  # not the chief referee
    redealt = server.post(f"{path}/redeal", {}, headers={"Idempotency-Key": "redeal-1"})
    assert redealt.status_code == 201, redealt.text
    before = head(server)
    new = redealt.json()
    assert new["replaces"] == deal and new["appeal_id"] == appeal and new["id"] != deal
    assert new["match_id"] == match and new["seats"] == PLAYERS and new["first"] == 2 and not new["finished"]
    assert new["seed_commitment"]  # dealt afresh by the server, committed before play (docs/SECURITY.md)
    again = server.post(f"{path}/redeal", {})
    assert again.status_code == 200 and again.json()["id"] == new["id"]
    documented = server.get("/api/openapi.json").json()["paths"]["/api/appeals/{appeal_id}/redeal"]["post"]
    assert {"200", "201", "403", "422"} <= set(documented["responses"])  # dealt now; the same deal again
    resent = server.post(f"{path}/redeal", {}, headers={"Idempotency-Key": "redeal-1"})
    assert resent.status_code == 201 and resent.json()["id"] == new["id"]
    assert head(server) == before  # resends store nothing: the same deal (by the appeal; by the key)
    assert len(server.get(f"/api/matches/{match}").json()["deals"]) == 1  # not one of the table's own deals
    assert server.get(path).json()["redeal"]["deal_id"] == new["id"]

    # Recorded as any deal: its pad and its viewer page open as any deal's.
    assert server.get(f"/deals/{new['id']}/pad").status_code == 200
    scores = play_over_http(server, new["id"], doudizhu_play.play_out, seed=3)
    assert server.get(f"/deals/{new['id']}").status_code == 200
    counted = standings(server, tournament)
    assert [counted[p]["total"] for p in PLAYERS] == [10 + s for s in scores]
    assert [counted[p]["tiebreak_values"][deals_won] for p in PLAYERS] == [int(s > 0) for s in scores]
    assert all(appeal in counted[p]["appeals"] for p in PLAYERS)
    table = server.get(f"/api/tournaments/{tournament}/standings").json()["tables"][0]
    assert table["totals"] == [10 + s for s in scores] and table["deals"] == 1 and table["over"]

    explained = server.get(f"/api/tournaments/{tournament}/standings/{PLAYERS[0]}/explain").json()
    assert explained["total"] == counted[PLAYERS[0]]["total"]
    shown = {d["deal_id"]: d for d in explained["matches"][0]["deals"]}
    assert shown[deal]["voided"] and not shown[deal]["counted"] and shown[deal]["replaced_by"] == new["id"]
    assert shown[deal]["appeal"] == {"id": appeal, "href": path, "page": f"/appeals/{appeal}", "outcome": "void"}
    assert shown[new["id"]]["counted"] and shown[new["id"]]["replaces"] == deal
    assert shown[new["id"]]["appeal"]["href"] == path and shown[new["id"]]["score"] == scores[0]
    assert shown[new["id"]]["events"][-1]["type"] == "Appeal.Redealt"
    exported = server.service.records.export_match(match, LOCAL)
    assert [r["meta"]["deal_id"] for r in exported] == [deal, new["id"]] and exported[1]["meta"]["replaces"] == deal
    rebuild_equals_live(server, tournament)
    timeline = [e["type"] for e in server.get(path).json()["timeline"]]
    assert timeline[-2:] == ["Appeal.Redealt", "Appeal.RedealScored"]


def test_a_voided_deal_is_dealt_again_and_its_replacement_counts_instead_at_a_table_already_over(live, capsys):
    walk_void_and_redeal(live, "重发杯")
    assert fupan(["verify", "--db", live.store.env["SQLITE_DBNAME"]]) == 0  # the chains with the redeal in them
    assert "appeals" in capsys.readouterr().out


@pytest.mark.parametrize("deal_databases", [1, 2])
def test_the_void_and_redeal_walk_on_postgresql(postgres_params: dict[str, str], tmp_path: Path, deal_databases: int):
    """One database, and deals kept in two (docs/OPERATIONS.md): the replacement lives in its deal database, its
    appeal and the projections' inputs on the main one."""
    schema = f"t_redeal{deal_databases}_{tmp_path.name[-8:]}".replace("-", "_").lower()
    create_schema(postgres_params, schema)
    env = {**application_env(postgres_params, schema),
           **({"FUPAN_DEAL_DATABASES": str(deal_databases)} if deal_databases > 1 else {})}
    server = LiveServer(Store("postgres", env)).start()
    try:
        walk_void_and_redeal(server, "重发杯 PG")
    finally:
        server.stop()
        drop_schema(postgres_params, schema)
        for index in range(deal_databases if deal_databases > 1 else 0):
            with connect(postgres_params, deal_database(postgres_params, index)) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_a_voided_shengji_deal_counts_no_big_points_and_its_redeal_keeps_the_levels_and_dealer(live):
    """升级 S004 ranks by 大分, not by the deal's `scores`: voiding a deal takes its 大分 away too (the deals count as
    the appeal says), and the redeal is dealt with the voided deal's levels, dealer and deal number."""
    server = live
    seats = ["东一", "南一", "西一", "北一"]
    tournament = server.post("/api/tournaments", {"name": "升级申诉杯", "game": "shengji"}).json()["id"]
    for player in seats:
        server.post(f"/api/tournaments/{tournament}/players", {"name": player})
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": seats, "first": 0}
                        ).json()["id"]
    deals = []
    for seed in (1, 2):
        deals.append(server.post(f"/api/matches/{match}/deals", {}).json()["id"])
        play_over_http(server, deals[-1], shengji_play.play_out, seed=seed)
    codes = [c["code"] for c in server.get(f"/api/tournaments/{tournament}/standings").json()["tiebreaks"]]
    second = server.get(f"/api/deals/{deals[1]}").json()
    appeal = server.post(f"/api/matches/{match}/appeals", {
        "against": {"kind": "result", "deal_id": deals[1]}, "category": "irregularity",
        "statement": "扣底有误"}).json()["appeal_id"]
    assert server.post(f"/api/appeals/{appeal}/ruling", {"outcome": {"kind": "void"}, "reason": "作废"}
                       ).status_code == 201
    first = server.get(f"/api/deals/{deals[0]}").json()["result"]
    rows = standings(server, tournament)
    for seat, player in enumerate(seats):  # only the first deal's 大分 and 小分 count
        assert rows[player]["total"] == first["big_points"][seat % 2]
        assert rows[player]["tiebreak_values"][codes.index("small_points")] == first["small_points"][seat % 2]
    new = server.post(f"/api/appeals/{appeal}/redeal", {}).json()
    assert new["context"] == second["context"] and new["first"] == second["first"] and new["number"] == 2
    play_over_http(server, new["id"], shengji_play.play_out, seed=9)
    again = server.get(f"/api/deals/{new['id']}").json()["result"]
    rows = standings(server, tournament)
    for seat, player in enumerate(seats):
        assert rows[player]["total"] == first["big_points"][seat % 2] + again["big_points"][seat % 2]
    rebuild_equals_live(server, tournament)


def wakeng_round(server: LiveServer, name: str) -> tuple[str, list[str], list[str]]:
    """A 挖坑 duplicate round of two tables (A, B) that played board 1; (tournament, table ids, deal ids)."""
    players = ["甲一", "乙一", "丙一", "甲二", "乙二", "丙二"]
    tournament = server.post("/api/tournaments", {"name": name, "game": "wakeng"}).json()["id"]
    for player in players:
        server.post(f"/api/tournaments/{tournament}/players", {"name": player})
    assert server.post(f"/api/tournaments/{tournament}/rounds", {"label": "第1轮"}).status_code == 201
    tables, deals = [], []
    for index, table in enumerate(("A", "B")):
        tables.append(server.post(f"/api/tournaments/{tournament}/matches",
                                  {"table": table, "seats": players[3 * index:3 * index + 3], "first": 0}
                                  ).json()["id"])
        deals.append(server.post(f"/api/matches/{tables[-1]}/deals", {}).json()["id"])
        play_over_http(server, deals[-1], wakeng_play.play_out, seed=11 + index)
    return tournament, tables, deals


def facts(server: LiveServer, tournament: str, player: str, deal: str) -> dict[str, Any]:
    explained = server.get(f"/api/tournaments/{tournament}/standings/{player}/explain").json()
    return next(d for t in explained["matches"] for d in t["deals"] if d["deal_id"] == deal)


def test_a_wakeng_boards_adjusted_score_is_matchpointed_against_the_other_table_and_the_travellers_show_it(live):
    server = live
    tournament, (table_a, table_b), (deal_a, deal_b) = wakeng_round(server, "复式申诉杯")
    other = server.get(f"/api/deals/{deal_b}").json()["result"]["scores"]
    seated_a = server.get(f"/api/matches/{table_a}").json()["seats"]
    seated_b = server.get(f"/api/matches/{table_b}").json()["seats"]
    appeal = server.post(f"/api/matches/{table_a}/appeals", {
        "against": {"kind": "result", "deal_id": deal_a}, "category": "scoring_error",
        "statement": "计分有误"}).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"

    # Assigned exactly table B's scores: every seat ties on the board, 1 MP of 2, whatever was played — as the
    # impact preview says first (the raw-point compensation is matchpointed there too, not added as MP).
    preview = server.post(f"{path}/preview", {"outcome": {"kind": "assigned", "scores": other}}, anonymous=True)
    assert {row["player_id"]: row["total"] for row in preview.json()["after"]["rows"]} == {
        p: 0.5 for p in seated_a + seated_b}
    assert server.post(f"{path}/ruling", {"outcome": {"kind": "assigned", "scores": other},
                                          "reason": "按正确计分"}).status_code == 201
    rows = standings(server, tournament)
    for player in seated_a + seated_b:
        assert rows[player]["total"] == 0.5  # 平均得分率 ½: compared, not moved by raw points
    mine = facts(server, tournament, seated_a[0], deal_a)
    assert mine["facts"]["score"] == other[0] and mine["facts"]["mp"] == 1 and mine["appeal"]["outcome"] == "assigned"
    assert facts(server, tournament, seated_b[0], deal_b)["facts"]["mp"] == 1
    explained = server.get(f"/api/tournaments/{tournament}/standings/{seated_a[0]}/explain").json()
    compensations = [a for a in explained["adjustments"] if (a.get("refers_to") or {}).get("appeal_id") == appeal]
    assert all(a["counted_in_deal"] == deal_a and not a["counted"] for a in compensations)

    # Weighted ½ a point above table B and ½ a point below (Law 12C1c): matchpointed part by part, ½·2 + ½·0 = 1.
    assert server.post(f"{path}/committee", {"reason": "不服"}).status_code == 201
    weighted = {"kind": "weighted", "parts": [{"weight": "1/2", "scores": [s + 1 for s in other]},
                                              {"weight": "1/2", "scores": [s - 1 for s in other]}]}
    preview = server.post(f"{path}/preview", {"outcome": weighted}, anonymous=True).json()
    assert {row["player_id"]: row["total"] for row in preview["after"]["rows"]}[seated_a[0]] == 0.5
    assert server.post(f"{path}/decision", {"outcome": weighted, "reason": "两种结果各半", **COMMITTEE}
                       ).status_code == 403  # the organiser is not the committee
    _, committee = server.service.tokens.create("appeals", label="委员会")  # type: ignore[union-attr]
    assert server.post(f"{path}/decision", {"outcome": weighted, "reason": "两种结果各半", **COMMITTEE},
                       token=committee).status_code == 201
    assert facts(server, tournament, seated_a[1], deal_a)["facts"]["mp"] == 1
    assert facts(server, tournament, seated_b[1], deal_b)["facts"]["mp"] == 1
    assert standings(server, tournament)[seated_a[1]]["total"] == 0.5
    page = server.get(f"/matches/{table_b}/travellers").text
    assert f'data-deal-id="{deal_a}"' in page and 'data-adjusted="weighted"' in page
    rebuild_equals_live(server, tournament)


def test_a_voided_wakeng_board_is_replayed_with_the_same_cards_at_a_table_still_playing(live):
    server = live
    tournament, (table_a, table_b), (deal_a, deal_b) = wakeng_round(server, "复式重赛杯")
    seated_a = server.get(f"/api/matches/{table_a}").json()["seats"]
    seated_b = server.get(f"/api/matches/{table_b}").json()["seats"]
    appeal = server.post(f"/api/matches/{table_a}/appeals", {
        "against": {"kind": "deal", "deal_id": deal_a, "step": 0}, "category": "irregularity",
        "statement": "洗牌有误"}).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    assert server.post(f"{path}/ruling", {"outcome": {"kind": "void"}, "reason": "本副重赛"}).status_code == 201
    rows = standings(server, tournament)
    assert all(rows[p]["total"] == 0.5 for p in seated_b)  # nothing to compare with: N = 1 → ½ (B7)
    assert all(rows[p]["total"] == 0 and rows[p]["tiebreak_values"] == [0, 0, 0, rows[p]["tiebreak_values"][3]]
               for p in seated_a)  # the voided board counts in nothing

    # Table A is still playing (six boards): board 2 in play, so the replay waits for it.
    board_two = server.post(f"/api/matches/{table_a}/deals", {}).json()["id"]
    waiting = server.post(f"{path}/redeal", {})
    assert waiting.status_code == 422 and waiting.json()["error"]["code"] == "deal_in_progress"
    play_over_http(server, board_two, wakeng_play.play_out, seed=5)
    replay = server.post(f"{path}/redeal", {})
    assert replay.status_code == 201, replay.text
    new = replay.json()
    assert new["context"] == server.get(f"/api/deals/{deal_a}").json()["context"]  # the same board
    assert server.service is not None
    same = [server.service.records.export_record(d, LOCAL) for d in (deal_a, new["id"])]
    assert same[0]["hands"] == same[1]["hands"] and same[0]["kitty"] == same[1]["kitty"]  # the board's cards
    assert new["first"] == server.get(f"/api/deals/{deal_a}").json()["first"]
    scores = play_over_http(server, new["id"], wakeng_play.play_out, seed=21)
    other = server.get(f"/api/deals/{deal_b}").json()["result"]["scores"]
    for seat, player in enumerate(seated_b):
        expected = 2 if other[seat] > scores[seat] else 1 if other[seat] == scores[seat] else 0
        assert facts(server, tournament, player, deal_b)["facts"]["mp"] == expected
    shown = facts(server, tournament, seated_a[0], new["id"])
    assert shown["counted"] and shown["replaces"] == deal_a
    page = server.get(f"/matches/{table_a}/travellers").text
    assert f'data-deal-id="{new["id"]}"' in page and 'data-voided' in page

    # The committee lets the result stand: the board as first played counts again, the replay stays recorded
    # and counts no more.
    _, committee = server.service.tokens.create("appeals", label="委员会")
    assert server.post(f"{path}/committee", {"reason": "不服"}).status_code == 201
    assert server.post(f"{path}/decision", {"outcome": {"kind": "stands"}, "reason": "结果成立", **COMMITTEE},
                       token=committee).status_code == 201
    played = server.get(f"/api/deals/{deal_a}").json()["result"]["scores"]
    for seat, player in enumerate(seated_b):
        expected = 2 if other[seat] > played[seat] else 1 if other[seat] == played[seat] else 0
        assert facts(server, tournament, player, deal_b)["facts"]["mp"] == expected
    assert not facts(server, tournament, seated_a[0], new["id"])["counted"]
    assert facts(server, tournament, seated_a[0], deal_a)["counted"]
    rebuild_equals_live(server, tournament)


def test_a_sandbox_line_completed_by_the_solver_is_its_best_line_and_one_too_large_is_refused(live):
    server = live
    tournament = server.post("/api/tournaments", {"name": "求解杯", "game": "doudizhu"}).json()["id"]
    for player in PLAYERS:
        server.post(f"/api/tournaments/{tournament}/players", {"name": player})
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS, "first": 2}
                        ).json()["id"]
    deal = server.post(f"/api/matches/{match}/deals", {"hands": EXAMPLE_RECORD["hands"],
                                                       "kitty": EXAMPLE_RECORD["kitty"], "first": 2}).json()["id"]
    for action in EXAMPLE_RECORD["actions"]:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    appeal = server.post(f"/api/matches/{match}/appeals", {
        "against": {"kind": "deal", "deal_id": deal, "step": 28}, "category": "rules_misapplied",
        "statement": "第29步"}).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    analysis = server.get(f"/api/deals/{deal}/analysis?step=29").json()  # a few cards left: solved at once
    given = [EXAMPLE_RECORD["actions"][28]]
    line = server.post(f"{path}/lines", {"from_step": 28, "actions": given, "complete": True, "label": "求解"})
    assert line.status_code == 201, line.text
    kept = line.json()["lines"][-1]
    assert kept["solver_from"] == 1 and kept["actions"] == given + analysis["line"]
    engine, state = fold(parse_record(EXAMPLE_RECORD)[0], EXAMPLE_RECORD["actions"][:28] + kept["actions"])
    assert kept["scores"] == engine.result(state)["scores"]  # the line ends the deal, scored by the engine
    timeline = server.get(path).json()["timeline"]
    assert timeline[-1]["type"] == "Appeal.SolvedLineAdded"

    before = head(server)
    bidding = server.post(f"{path}/lines", {"from_step": 0, "actions": [], "complete": True})
    assert bidding.status_code == 422 and bidding.json()["error"]["code"] == "not_analysable"
    too_large = server.post(f"{path}/lines", {"from_step": 3, "actions": [], "complete": True})  # 54 cards
    assert too_large.status_code == 422 and too_large.json()["error"]["code"] == "line_too_large"
    assert "求解器" in too_large.json()["error"]["message_zh"] and head(server) == before
