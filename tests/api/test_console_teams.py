"""Teams as entrants of a team event, and entries as people type them (issue 23, defects 8 and 9), over real HTTP:
the draw, the progress and the standings name each team and its department, a team on a bye is ranked as one
team, departments can be kept apart in round 1; entry lines typed with spaces are read with their department,
every error of a batch is reported at once with its line, an entry can be taken off before round 1, and a
withdrawn player is marked in the standings."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer
from game_support import record_random_play

from domain.model.entries import read_entries
from fixtures.random_play.daguai import ENGINE as DAGUAI
from fixtures.random_play.daguai import play_out as daguai_play_out

# Seed 000's event in small: 7 teams of 3, at most 2 teams a department (每个部门最多报2个队)
SEVEN = [("后勤队", "后勤处"), ("机械一队", "机械学院"), ("机械二队", "机械学院"), ("外语队", "外语学院"),
         ("理学一队", "理学院"), ("理学二队", "理学院"), ("管理队", "管理学院")]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("teams") / "teams.sqlite").start()
    yield server
    server.stop()


def created(live: LiveServer, **body: Any) -> str:
    response = live.post("/api/tournaments", body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def seven_teams(live: LiveServer, name: str, seed: str) -> str:
    tournament = created(live, name=name, game="daguai", department_limit=2, lots_seed=seed)
    text = "\n".join(f"{team}，{department}，{team}甲，{team}乙，{team}丙" for team, department in SEVEN)
    assert live.post(f"/api/tournaments/{tournament}/entries", {"text": text}).status_code == 201
    return tournament


def visible(html: str) -> str:
    """A page's text as a person reads it: no scripts (the strings table every page embeds), no tags."""
    return re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S))


def draw(live: LiveServer, tournament: str, query: str = "") -> dict[str, Any]:
    plan = live.get(f"/api/tournaments/{tournament}/draw{query}")
    assert plan.status_code == 200, plan.text
    return plan.json()


def open_plan(live: LiveServer, tournament: str, plan: dict[str, Any]) -> None:
    body = {"label": plan["label"], "kind": plan["kind"], "byes": plan["byes"],
            "tables": [{k: t[k] for k in ("table", "seats", "first", "options")} for t in plan["tables"]]}
    opened = live.post(f"/api/tournaments/{tournament}/round-tables", body)
    assert opened.status_code == 201, opened.text


def test_the_draw_progress_and_standings_name_the_teams_and_a_bye_team_is_ranked_as_one(live):
    tournament = seven_teams(live, "教工大怪路子", "000")
    plan = draw(live, tournament, "?method=lot")
    assert plan["departments_apart"] is False  # off by default: the seeds draw by lot
    departments = dict(SEVEN)
    for table in plan["tables"]:  # each side is a team named with its department, in its seats
        assert [(e["name"], e["department"]) for e in table["entries"]] == [
            (e["name"], departments[e["name"]]) for e in table["entries"]]
        assert [e["seats"] for e in table["entries"]] == [[0, 2, 4], [1, 3, 5]]
        assert [table["names"][s][:-1] for e in table["entries"] for s in e["seats"]] == [
            e["name"] for e in table["entries"] for _ in range(3)]
    bye_team = plan["bye_entries"][0]["name"]
    assert [e["name"] for e in plan["bye_entries"]] == [bye_team] and bye_team in departments
    open_plan(live, tournament, plan)
    progress = live.get(f"/api/tournaments/{tournament}/progress").json()
    assert [[e["name"] for e in t["entries"]] for t in progress["tables"]] == [
        [e["name"] for e in t["entries"]] for t in plan["tables"]]
    assert progress["bye_entries"][0]["name"] == bye_team
    # the public pages and the seating sheet name each side's team (and department) and each seat by its player
    public = visible(live.get(f"/tournaments/{tournament}").text)
    sheet = visible(live.get(f"/console/tournaments/{tournament}/rounds/1/seating").text)
    assert bye_team in sheet and departments[bye_team] in sheet and "号位" not in sheet
    service = live.service
    assert service is not None
    deal, _ = service.deals.start(match=progress["tables"][0]["match_id"])  # one deal: the table's deals list
    record_random_play(service, deal["id"], DAGUAI, daguai_play_out, random.Random(8))
    for table in progress["tables"]:
        html = live.get(f"/matches/{table['match_id']}").text
        page = visible(html)
        for entry in table["entries"]:
            for where, text in (("tournament page", public), ("match page", page), ("seating sheet", sheet)):
                assert entry["name"] in text and entry["department"] in text, (where, entry)
        if table is progress["tables"][0]:  # its table of deals heads each side with its team, not 甲队 / 乙队
            head = visible(html.split('id="dg-standing"', 1)[1].split("</thead>", 1)[0])
            assert "甲队" not in head and all(entry["name"] in head for entry in table["entries"])
            # each deal's outcome names the head's team, and the chart's lines are the teams
            rows = visible(html.split('id="dg-standing"', 1)[1])
            assert "甲队" not in rows and "乙队" not in rows
            chart = json.loads(html.split('id="match-chart-data">', 1)[1].split("</script>", 1)[0])
            assert chart["names"] == [entry["name"] for entry in table["entries"]]
            # the deal viewer knows the teams: its panels, the analysis and the steps name each side by them
            viewer = live.get(f"/deals/{deal['id']}").text
            boot = json.loads(viewer.split('id="deal-boot">', 1)[1].split("</script>", 1)[0])
            assert [e["name"] for e in boot["entries"]] == [e["name"] for e in table["entries"]]
        assert all(name in sheet for name in table["names"])
    for table in progress["tables"]:  # closed before any deal: the table's ranking is the lots'
        assert live.post(f"/api/matches/{table['match_id']}/close", {"reason": "测试"}).status_code == 201
    standings = live.get(f"/api/tournaments/{tournament}/standings").json()
    teams = standings["teams"]
    assert len(teams) == 7 and {t["entry"] for t in teams} == set(departments)
    assert all(t["department"] == departments[t["entry"]] and len(t["names"]) == 3 for t in teams)
    bye = next(t for t in teams if t["entry"] == bye_team)
    ranks = {row["rank"] for row in standings["rows"] if row["entry"] == bye_team}
    assert len(ranks) == 1  # one rank for the bye team's three members, not 7th, 8th and 9th
    assert bye["rank"] <= 4 and bye["status"] == "advanced"  # it goes on with the three tables' winners
    assert [t["rank"] for t in teams] == sorted(t["rank"] for t in teams)
    assert all(row["department"] == departments[row["entry"]] for row in standings["rows"])
    assert [t["entry"] for t in standings["progression"][-1]["teams"]] == [t["entry"] for t in teams]


def test_keeping_departments_apart_in_round_1_is_an_option_of_the_draw(live):
    clashing = 0
    for seed in ("000", "001", "002", "003", "004", "005"):
        tournament = seven_teams(live, f"部门分开 {seed}", seed)
        by_lot = draw(live, tournament, "?method=lot")
        apart = draw(live, tournament, "?method=lot&apart=1")
        assert apart["departments_apart"] is True
        clashing += any(len({e["department"] for e in t["entries"]}) == 1 for t in by_lot["tables"])
        assert all(len({e["department"] for e in t["entries"]}) == 2 for t in apart["tables"])
        # the same teams play, the bye is still one team
        assert len(apart["bye_entries"]) == 1
        assert sorted(p for t in apart["tables"] for p in t["seats"]) + sorted(apart["byes"]) == sorted(
            p for t in by_lot["tables"] for p in t["seats"]) + sorted(by_lot["byes"]) or len(apart["byes"]) == 3
    assert clashing  # the lot alone does seat two of one department together, for some seed


def test_entries_typed_with_spaces_and_every_error_at_once_with_its_line(live):
    tournament = created(live, name="三打一报名", game="sandayi", department_limit=2)
    typed = "张伟 计算机学院\n李娜\u3000外语学院\n  王芳 ,  光电学院  \n"
    answer = live.post(f"/api/tournaments/{tournament}/entries", {"text": typed})
    assert answer.status_code == 201, answer.text
    assert [(e["name"], e["department"]) for e in answer.json()["entries"]] == [
        ("张伟", "计算机学院"), ("李娜", "外语学院"), ("王芳", "光电学院")]
    wrong = "赵一，计算机学院\n张伟，计算机学院\n\n钱二，计算机学院\n孙三 外语学院 多余\n赵一，物理学院\n"
    before = live.get(f"/api/tournaments/{tournament}").json()["version"]
    refused = live.post(f"/api/tournaments/{tournament}/entries", {"text": wrong})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert [(e["line"], e["code"]) for e in error["details"]["errors"]] == [
        (2, "duplicate_entry"), (4, "department_limit"), (5, "bad_entry_line"), (6, "duplicate_entry")]
    lines = error["message_zh"].split("\n")
    assert [line.split("：")[0] for line in lines] == ["第 2 行", "第 4 行", "第 5 行", "第 6 行"]
    assert lines[0] == "第 2 行：重复报名：张伟。" and "计算机学院" in lines[1]
    assert error["message"].split("\n")[0] == "Line 2: already entered, or twice: 张伟."
    for text in (error["message"], error["message_zh"]):
        assert "['" not in text and "'" not in text and "None" not in text
    assert live.get(f"/api/tournaments/{tournament}").json()["version"] == before  # nothing stored


def test_an_entry_is_removed_before_round_1_and_withdraws_after(live):
    removed_then_withdrawn(live, "报名更正")


def test_removals_and_withdrawals_reach_the_read_model_on_each_store(store):
    """The same on SQLite and PostgreSQL: the read model's departures, its upsert of a player entered again, and
    `verify` (a rebuild equals the followed tables)."""
    server = LiveServer(store).start()
    try:
        removed_then_withdrawn(server, "报名更正·各库")
    finally:
        server.stop()


def removed_then_withdrawn(live: LiveServer, name: str) -> None:
    tournament = created(live, name=name, game="wakeng", options={"wk.tableDeals": 1}, lots_seed="r")
    text = "\n".join(f"选手{i}，挖坑协会" for i in range(1, 8)) + "\n选手8计算机学院\n"  # a typo: no separator
    assert live.post(f"/api/tournaments/{tournament}/entries", {"text": text}).status_code == 201
    removed = live.post(f"/api/tournaments/{tournament}/entries/removals", {"name": "选手8计算机学院",
                                                                          "reason": "打错了"})
    assert removed.status_code == 201, removed.text
    assert [e["name"] for e in removed.json()["entries"]][-1] == "选手7"
    again = live.post(f"/api/tournaments/{tournament}/entries", {"text": "选手8，计算机学院\n选手9，计算机学院"})
    assert again.status_code == 201, again.text
    standings = live.get(f"/api/tournaments/{tournament}/standings").json()
    assert {row["name"] for row in standings["rows"]} == {f"选手{i}" for i in range(1, 10)}
    unknown = live.post(f"/api/tournaments/{tournament}/entries/removals", {"name": "无此人"})
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown_entry"
    open_plan(live, tournament, draw(live, tournament))
    late = live.post(f"/api/tournaments/{tournament}/entries/removals", {"name": "选手9"})
    assert late.status_code == 422 and late.json()["error"]["code"] == "entries_closed"
    assert "退赛" in late.json()["error"]["message_zh"]
    assert live.post(f"/api/tournaments/{tournament}/withdrawals", {"player_id": "选手2", "reason": "生病"}
                     ).status_code == 201
    rows = live.get(f"/api/tournaments/{tournament}/standings").json()["rows"]
    gone = next(row for row in rows if row["player_id"] == "选手2")
    assert gone["withdrawn"] == {"round": 1, "reason": "生病"}
    assert all("withdrawn" not in row for row in rows if row["player_id"] != "选手2")
    explained = visible(live.get(f"/tournaments/{tournament}/standings/选手2").text)  # the page people read
    assert "退赛" in explained
    assert live.get("/api/admin/verify", token=live.organiser).json()["ok"]


def test_a_line_without_a_name_says_the_name_is_missing():
    """"，挖坑协会" has two fields, the most a player's line may have: the message names what is wrong (no name),
    not its count of fields ("at most two; found 2")."""
    entries, errors = read_entries("张伟，挖坑协会\n，挖坑协会\n", 1)
    assert [e["name"] for e in entries] == ["张伟"]
    assert [(e["line"], e["code"]) for e in errors] == [(2, "bad_entry_line")]
    assert "姓名" in errors[0]["message_zh"] and "2 项" not in errors[0]["message_zh"]
    assert "name" in errors[0]["message"] and "found 2" not in errors[0]["message"]
    _, errors = read_entries("后勤队，后勤处，甲，乙，丙\n，后勤处，丁，戊，己\n", 3)
    assert "队名" in errors[0]["message_zh"] and "没有" in errors[0]["message_zh"]
