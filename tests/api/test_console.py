"""The organiser console's API over real HTTP on a real SQLite file (docs/console.md): entries refused with reasons
and nothing stored, all-or-nothing batches, a Swiss event's rounds paired by the console exactly as `fupan pair`
re-derives them from the exported history, byes credited in the stored standings, and a knockout advanced from
the standings."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from game_support import record_random_play

from cli.main import main
from fixtures.random_play.daguai import ENGINE as DAGUAI
from fixtures.random_play.daguai import play_out as daguai_play_out
from fixtures.random_play.doudizhu import ENGINE as DOUDIZHU
from fixtures.random_play.doudizhu import play_out as doudizhu_play_out
from fixtures.random_play.wakeng import ENGINE as WAKENG
from fixtures.random_play.wakeng import play_out as wakeng_play_out


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("console") / "console.sqlite").start()
    yield server
    server.stop()


def created(live: LiveServer, **body: Any) -> str:
    response = live.post("/api/tournaments", body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def entries_of(live: LiveServer, tournament: str) -> list[dict[str, Any]]:
    return live.get(f"/api/tournaments/{tournament}/entries").json()["entries"]


def refused(live: LiveServer, tournament: str, body: dict[str, Any], code: str, zh: str, status: int = 422
            ) -> dict[str, Any]:
    """The entry request is refused with `status` and `code` and a Chinese reason, and the tournament is unchanged:
    422 for entries the tournament refuses, 400 for text that cannot be read as entries."""
    before = live.get(f"/api/tournaments/{tournament}").json()["version"]
    response = live.post(f"/api/tournaments/{tournament}/entries", body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code and zh in error["message_zh"], error
    assert live.get(f"/api/tournaments/{tournament}").json()["version"] == before  # nothing stored
    return error


def team(name: str, department: str, *members: str) -> dict[str, Any]:
    return {"name": name, "department": department, "members": [{"name": m} for m in members]}


def test_team_entries_refused_with_reasons_store_nothing(live):
    # Seed 000: 大怪路子 teams of three, 每个部门最多报2个队
    tournament = created(live, name="教工大怪路子", game="daguai", department_limit=2, lots_seed="000")
    ok = live.post(f"/api/tournaments/{tournament}/entries",
                   {"entries": [team("机械一队", "机械学院", "甲", "乙", "丙"),
                                team("机械二队", "机械学院", "丁", "戊", "己")]})
    assert ok.status_code == 201, ok.text
    assert [e["department"] for e in ok.json()["entries"]] == ["机械学院", "机械学院"]
    assert ok.json()["entry_rules"] == {"department_limit": 2}
    error = refused(live, tournament, {"entries": [team("机械三队", "机械学院", "庚", "辛", "壬")]}, "department_limit",
                    "每个部门最多报 2 个")
    assert error["details"]["department"] == "机械学院"
    refused(live, tournament, {"entries": [team("二人组", "外语学院", "庚", "辛")]}, "wrong_team_size", "须为 3 人")
    refused(live, tournament, {"entries": [team("外语队", "外语学院", "甲", "辛", "壬")]}, "duplicate_entry",
            "重复报名")  # 甲 is in 机械一队
    refused(live, tournament, {"entries": [team("机械一队", "外语学院", "庚", "辛", "壬")]}, "duplicate_entry",
            "机械一队")
    # A batch is all-or-nothing: its third line is a team of two, so its first two are not stored either
    text = "外语队,外语学院,庚,辛,壬\n理学队,理学院,癸,子,丑\n管理队，管理学院，寅，卯\n"
    error = refused(live, tournament, {"text": text}, "wrong_team_size", "管理队")
    assert error["details"]["entry"] == 2
    assert [e["name"] for e in entries_of(live, tournament)] == ["机械一队", "机械二队"]
    refused(live, tournament, {"text": "外语队，外语学院，庚，庚，壬"}, "duplicate_entry", "庚")  # twice in one team
    done = live.post(f"/api/tournaments/{tournament}/entries", {"text": "队名,部门,队员1,队员2,队员3\n" + text[:28]})
    assert done.status_code == 201 and [e["name"] for e in done.json()["registered"]] == ["外语队", "理学队"]
    loose = created(live, name="散客大怪路子", game="daguai")  # players registered one by one, not as teams
    for name in "甲乙丙丁戊己":
        assert live.post(f"/api/tournaments/{loose}/players", {"name": name}).status_code == 201
    draw = live.get(f"/api/tournaments/{loose}/draw")
    assert draw.status_code == 422 and draw.json()["error"]["code"] == "not_teams"


def test_individual_entries_and_the_department_limit_of_seed_002(live):
    # Seed 002: 每个部门工会最多报3名参赛选手 (快乐三打一, individual)
    tournament = created(live, name="教职工三打一", game="sandayi", department_limit=3)
    csv_text = "姓名,部门\n张一,计算机学院\n张二,计算机学院\n张三,计算机学院\n李一,光电学院\n"
    assert live.post(f"/api/tournaments/{tournament}/entries", {"text": csv_text}).status_code == 201
    refused(live, tournament, {"text": "张四,计算机学院"}, "department_limit", "计算机学院")
    refused(live, tournament, {"text": "李一,光电学院"}, "duplicate_entry", "李一")
    refused(live, tournament, {"text": "张五,光电学院,多余的一列"}, "bad_entry_line", "第 1 行", 400)
    one = live.post(f"/api/tournaments/{tournament}/entries", {"entries": [team("王一", "", "王一")]})
    assert one.status_code == 201
    assert [(e["name"], e["department"]) for e in entries_of(live, tournament)][-2:] == [("李一", "光电学院"),
                                                                                        ("王一", "")]
    anonymous = live.post(f"/api/tournaments/{tournament}/entries", {"text": "赵一,光电学院"}, anonymous=True)
    assert anonymous.status_code == 401


def play_round(live: LiveServer, tournament: str, boards: int, rng: random.Random) -> None:
    """Every table of the current round plays its boards (random legal 挖坑 deals through the service)."""
    service = live.service
    assert service is not None
    info = service.tournaments.get(tournament)
    for match in [m for m in info["matches"] if m["round"] == info["current_round"]]:
        for board in range(1, boards + 1):
            deal, _ = service.deals.start(match=match["id"], seed=f"{tournament}-r{info['current_round']}-b{board}")
            record_random_play(service, deal["id"], WAKENG, wakeng_play_out, rng)


def open_drawn(live: LiveServer, tournament: str, method: str = "") -> dict[str, Any]:
    plan = live.get(f"/api/tournaments/{tournament}/draw" + (f"?method={method}" if method else ""))
    assert plan.status_code == 200, plan.text
    plan = plan.json()
    body = {"label": plan["label"], "kind": plan["kind"], "byes": plan["byes"],
            "tables": [{k: t[k] for k in ("table", "seats", "first", "options")} for t in plan["tables"]]}
    opened = live.post(f"/api/tournaments/{tournament}/round-tables", body)
    assert opened.status_code == 201, opened.text
    assert opened.json()["round"] == plan["round"] and len(opened.json()["tables"]) == len(plan["tables"])
    return plan


def cli_pairing(tmp_path: Path, capsys: pytest.CaptureFixture[str], live: LiveServer, tournament: str,
                number: int) -> dict[str, Any]:
    """`fupan pair --export` on the server's store, then `fupan pair --history … --round R --json`."""
    assert main(["pair", "--export", tournament, "--db", str(live.store.env["SQLITE_DBNAME"])]) == 0
    history = capsys.readouterr().out
    path = tmp_path / "history.json"
    path.write_text(history, encoding="utf-8")
    assert main(["pair", "--history", str(path), "--round", str(number), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def test_console_and_fupan_pair_give_the_same_pairing_and_byes_count_half(live, tmp_path, capsys):
    players = [f"棋手{i:02d}" for i in range(1, 14)]  # 13: one bye a round
    tournament = created(live, name="挖坑瑞士赛", game="wakeng", options={"wk.tableDeals": 1}, lots_seed="s003")
    text = "\n".join(f"{p}，挖坑协会" for p in players)
    assert live.post(f"/api/tournaments/{tournament}/entries", {"text": text}).status_code == 201
    rng = random.Random(3)
    byes: list[str] = []
    for number in (1, 2, 3):
        if number == 3:  # 棋手01 leaves: twelve players, no bye; the exported history names the withdrawal
            withdrawn = live.post(f"/api/tournaments/{tournament}/withdrawals", {"player_id": "棋手01",
                                                                                "reason": "家中有事"})
            assert withdrawn.status_code == 201 and withdrawn.json()["round"] == 2
        expected = cli_pairing(tmp_path, capsys, live, tournament, number)
        plan = open_drawn(live, tournament)
        assert plan["method"] == "swiss" and plan["pairing"] == expected
        assert [t["names"] for t in plan["tables"]] == expected["tables"]  # the tables and their seat order
        if number == 3:
            assert expected["byes"] == [] and "棋手01" not in {p for t in expected["tables"] for p in t}
            play_round(live, tournament, 1, rng)
            break
        assert len(plan["bye_names"]) == 1 and plan["bye_names"][0] not in byes  # the fewest byes first
        byes += plan["bye_names"]
        again = live.get(f"/api/tournaments/{tournament}/draw")
        assert again.status_code == 422 and again.json()["error"]["code"] == "round_not_finished"
        play_round(live, tournament, 1, rng)
        standings = live.get(f"/api/tournaments/{tournament}/standings").json()
        bye = next(row for row in standings["rows"] if row["name"] == plan["bye_names"][0])
        assert bye["status"] == "bye"
        explained = live.get(f"/api/tournaments/{tournament}/standings/{bye['player_id']}/explain").json()
        bye_deals = [m for m in explained["matches"] if m.get("bye")]
        assert [d["facts"]["mp_rate"] for m in bye_deals for d in m["deals"]] == [0.5] * len(bye_deals)
        assert all(d["facts"]["mp"] == 3 and d["score"] == 0 for m in bye_deals for d in m["deals"])  # 4 tables − 1
    assert live.get("/api/admin/verify", token=live.organiser).json()["ok"]


def test_a_team_knockout_advances_from_the_standings(live):
    tournament = created(live, name="大怪路子淘汰赛", game="daguai", lots_seed="淘汰")
    teams = [team(f"{i}队", f"部门{i}", f"{i}甲", f"{i}乙", f"{i}丙") for i in range(1, 4)]
    assert live.post(f"/api/tournaments/{tournament}/entries", {"entries": teams}).status_code == 201
    first = open_drawn(live, tournament, "order")  # three teams: one table (the semi-final) and a bye
    assert [t["names"] for t in first["tables"]] == [["1甲", "2甲", "1乙", "2乙", "1丙", "2丙"]]
    assert first["bye_names"] == ["3甲", "3乙", "3丙"] and first["tables"][0]["options"] == {"dg.tableDeals": 6}
    service = live.service
    assert service is not None
    rng = random.Random(7)
    for number in (1, 2):
        info = service.tournaments.get(tournament)
        for match in [m for m in info["matches"] if m["round"] == info["current_round"]]:
            # One real deal, then the organiser closes the table (a 大怪路子 deal is ~200 actions: the test's time);
            # the closed table's ranking — team points, then the declared tiebreaks — decides who goes on.
            deal, _ = service.deals.start(match=match["id"])
            record_random_play(service, deal["id"], DAGUAI, daguai_play_out, rng)
            closed = live.post(f"/api/matches/{match['id']}/close", {"reason": "测试：一局定胜负"})
            assert closed.status_code == 201, closed.text
        standings = live.get(f"/api/tournaments/{tournament}/standings").json()
        if number == 2:
            break
        plan = open_drawn(live, tournament)
        going = {p for t in standings["tables"] if t["round"] == number for p in t["advancing"]}
        going |= set(next(r for r in info["rounds"] if r["round"] == number).get("byes", []))
        assert {p for t in plan["tables"] for p in t["seats"]} | set(plan["byes"]) == going
    champion = [row["name"] for row in standings["rows"] if row["status"] == "champion"]
    assert len(champion) == 3 and plan["kind"] == "final"
    over = live.get(f"/api/tournaments/{tournament}/draw")
    assert over.status_code == 422 and over.json()["error"]["code"] == "tournament_over"


def test_a_tie_at_the_advancing_line_opens_a_play_off_round_first(live):
    # Seed 001 (斗地主 chip tables of 3, the winner goes on): equal chips → extra deals [REC: a play-off round]
    tournament = created(live, name="斗地主淘汰赛", game="doudizhu", lots_seed="001")
    assert live.post(f"/api/tournaments/{tournament}/entries",
                     {"text": "\n".join(f"{n}号" for n in range(1, 10))}).status_code == 201
    first = open_drawn(live, tournament, "order")  # 现场分组: 1-2-3, 4-5-6, 7-8-9
    assert [t["names"] for t in first["tables"]] == [["1号", "2号", "3号"], ["4号", "5号", "6号"],
                                                     ["7号", "8号", "9号"]]
    service = live.service
    assert service is not None
    for table in first["tables"][:2]:  # closed before any deal: all three on 10 chips
        match = service.tournaments.get(tournament)["matches"][first["tables"].index(table)]["id"]
        assert live.post(f"/api/matches/{match}/close", {"reason": "停电"}).status_code == 201
    rng = random.Random(1)
    third = service.tournaments.get(tournament)["matches"][2]["id"]
    while service.tables.get(third)["status"] == "live":
        deal, _ = service.deals.start(match=third)
        record_random_play(service, deal["id"], DOUDIZHU, doudizhu_play_out, rng)
    plan = open_drawn(live, tournament)
    assert plan["kind"] == "playoff"
    assert [t["names"] for t in plan["tables"]] == [t["names"] for t in first["tables"][:2]]
    while plan["kind"] == "playoff":  # until the play-off deals separate the tied (two farmers may tie again)
        for match in [m for m in service.tournaments.get(tournament)["matches"] if m["round"] == plan["round"]]:
            deal, _ = service.deals.start(match=match["id"])
            record_random_play(service, deal["id"], DOUDIZHU, doudizhu_play_out, rng)
            if service.tables.get(match["id"])["status"] == "live":  # a chip table may have ended by itself
                closed = live.post(f"/api/matches/{match['id']}/close", {"reason": "加赛一局"})
                assert closed.status_code == 201, closed.text
        plan = open_drawn(live, tournament)
    assert plan["kind"] == "final" and len(plan["tables"]) == 1
    standings = live.get(f"/api/tournaments/{tournament}/standings").json()
    winners = {p for t in standings["tables"] if t["round"] == 1 for p in t["advancing"]}
    assert set(plan["tables"][0]["seats"]) == winners and len(winners) == 3


def test_progress_and_referee_cards(live):
    tournament = created(live, name="进度", game="wakeng", options={"wk.tableDeals": 1}, lots_seed="p")
    assert live.post(f"/api/tournaments/{tournament}/entries",
                     {"text": "\n".join(f"p{i}" for i in range(9))}).status_code == 201
    open_drawn(live, tournament)
    progress = live.get(f"/api/tournaments/{tournament}/progress").json()
    assert [t["state"] for t in progress["tables"]] == ["not_started"] * 3
    sheet = live.get(f"/console/tournaments/{tournament}/rounds/1/seating")  # the printable seating sheet
    assert sheet.status_code == 200 and "text/html" in sheet.headers["Content-Type"]
    for table in progress["tables"]:
        assert f'data-table="{table["table"]}"' in sheet.text and all(name in sheet.text for name in table["names"])
    service = live.service
    assert service is not None
    match = progress["tables"][0]["match_id"]
    deal, _ = service.deals.start(match=match, seed="b1")
    progress = live.get(f"/api/tournaments/{tournament}/progress").json()
    assert progress["tables"][0]["state"] == "live" and progress["tables"][0]["deal_url"] == f"/deals/{deal['id']}"
    card = live.post(f"/api/matches/{match}/referee-card", {})
    assert card.status_code == 201
    card = card.json()
    assert card["pad_url"].endswith(f"/matches/{match}/pad") and card["token_qr"].startswith("data:image/svg+xml")
    tokens = {t["id"]: t for t in live.get("/api/tokens", token=live.organiser).json()}
    assert tokens[card["token_id"]]["role"] == "referee" and tokens[card["token_id"]]["matches"] == [match]
    other = progress["tables"][1]["match_id"]
    refused = live.post(f"/api/matches/{other}/close", {"reason": "try"}, token=card["token"])
    assert refused.status_code == 403  # a table's referee token is scoped to that table and is no organiser
    assert "<svg" not in card["token"] and "fupan_" in card["token"]
    assert live.post(f"/api/matches/{match}/referee-card", {}, anonymous=True).status_code == 401


def test_seed_001_side_events_are_results_only_knockouts_in_the_same_tournament(live):
    tournament = created(live, name="学生智力运动会", game="doudizhu", lots_seed="001")
    path = f"/api/tournaments/{tournament}/side-events"
    opened = live.post(path, {"key": "wzq", "game": "gomoku", "name": "五子棋",
                              "text": "\n".join(f"{n}号" for n in range(1, 6))})
    assert opened.status_code == 201, opened.text
    state = opened.json()
    # 现场分组: 1-2 and 3-4 play, 5 has a bye; the loser is out, the winner goes on
    assert [t["seats"] for t in state["rounds"][0]["tables"]] == [["1号", "2号"], ["3号", "4号"]]
    assert state["rounds"][0]["byes"] == ["5号"] and state["current"] == 1
    bad = live.post(f"{path}/wzq/results", {"round": 1, "table": 1, "placing": ["1号", "3号"]})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_placing"
    while state["current"] is not None:
        current = state["rounds"][-1]
        for table in [t for t in current["tables"] if t["placing"] is None]:
            winner_last = list(reversed(table["seats"]))  # the second-numbered wins every match
            answer = live.post(f"{path}/wzq/results", {"round": current["round"], "table": table["table"],
                                                       "placing": winner_last})
            assert answer.status_code == 201, answer.text
            state = answer.json()
        again = live.post(f"{path}/wzq/results", {"round": current["round"], "table": 1, "placing": winner_last})
        assert again.status_code == 422
    # Round 1: 2 and 4 win. Round 2: the bye heads the numbering (5 v 2: 2 wins), 4 sits out. The final 4 v 2:
    # 2 wins. Then 5 (out in round 2), then 1 and 3 (out in round 1) share 4th.
    assert [r["byes"] for r in state["rounds"]] == [["5号"], ["4号"], []]
    assert [(p["place"], p["player"]) for p in state["places"]] == [
        (1, "2号"), (2, "4号"), (3, "5号"), (4, "1号"), (4, "3号")]
    tiaoqi = live.post(path, {"key": "tq", "game": "tiaoqi", "name": "跳棋", "table_size": 3, "advance": 1,
                              "entrants": [f"棋友{n}" for n in range(1, 8)]})
    assert [t["seats"] for t in tiaoqi.json()["rounds"][0]["tables"]] == [["棋友1", "棋友2", "棋友3"],
                                                                          ["棋友4", "棋友5", "棋友6"]]
    wrong = live.post(path, {"key": "tq2", "game": "tiaoqi", "name": "跳棋", "table_size": 5, "entrants": ["a", "b"]})
    assert wrong.status_code == 422 and "2, 3, 4, 6" in wrong.json()["error"]["message"]
    listed = live.get(path).json()["side_events"]
    assert [e["key"] for e in listed] == ["wzq", "tq"] and listed[0]["places"][0]["player"] == "2号"


def test_a_referee_card_signs_the_pad_in_at_the_venue_address(live):
    """The card's QR opens the table's pad signed in: the venue address the organiser set (`FUPAN_VENUE_URL`,
    `fupan serve --venue-url`), the token in the address's fragment (never sent to a server); a loopback
    address, which no other device can reach, is warned about."""
    from web.app import create_app

    tournament = created(live, name="场地地址", game="wakeng", options={"wk.tableDeals": 1}, lots_seed="v")
    assert live.post(f"/api/tournaments/{tournament}/entries", {"text": "\n".join(f"v{i}" for i in range(3))}
                     ).status_code == 201
    open_drawn(live, tournament)
    match = live.get(f"/api/tournaments/{tournament}/progress").json()["tables"][0]["match_id"]
    card = live.post(f"/api/matches/{match}/referee-card", {}).json()
    assert card["signin_url"] == f"{card['pad_url']}#token={card['token']}"
    assert "?" not in card["signin_url"] and card["pad_url"].startswith("http://127.0.0.1:")
    assert card["warning"] and "127.0.0.1" in card["warning"]["zh"] and "loopback" in card["warning"]["en"]
    assert card["pad_qr"].startswith("data:image/svg+xml")
    headers = {"Authorization": f"Bearer {live.organiser}", "Content-Type": "application/json"}
    venue = create_app({"FUPAN_APPLICATION": live.service, "FUPAN_VENUE_URL": "http://192.168.1.20:8000/"})
    card = venue.test_client().post(f"/api/matches/{match}/referee-card", data="{}", headers=headers).get_json()
    assert card["pad_url"] == f"http://192.168.1.20:8000/matches/{match}/pad" and card["warning"] is None
    assert card["signin_url"] == f"{card['pad_url']}#token={card['token']}"
