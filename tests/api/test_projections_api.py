"""The projections over real HTTP and through the `fupan` command: the standings contract the viewer builds
on, explain, preview (stores nothing), rounds and adjustments, rebuild and verify, one error shape."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from conftest import LiveServer, Store
from postgres_cluster import application_env, create_schema, drop_schema
from test_projections import deal_where

from cli.main import main as fupan
from domain.services.fupan import Fupan
from fixtures import DEMOS, HERE, load_demo

ERROR_KEYS = {"code", "message", "message_zh", "details"}


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == ERROR_KEYS, body
    return body["error"]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def demo_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server with the demo per store kind, shared by the module's tests that read the demo: loading it
    (5,645 events) is the slow part. Those tests only read it, or take back what they write."""
    if request.param == "sqlite":
        live = LiveServer(Store.sqlite(tmp_path_factory.mktemp("demo") / "demo.sqlite")).start()
        yield live
        live.stop()
        return
    params = request.getfixturevalue("postgres_params")
    schema = f"t_{uuid4().hex[:16]}"
    create_schema(params, schema)
    live = LiveServer(Store("postgres", application_env(params, schema))).start()
    yield live
    live.stop()
    drop_schema(params, schema)


@pytest.fixture(scope="module")
def demo(demo_server: LiveServer) -> str:
    assert demo_server.service is not None
    return load_demo(demo_server.service)["id"]


def test_standings_keep_the_contract_the_viewer_builds_on(demo_server, demo):
    response = demo_server.get(f"/api/tournaments/{demo}/standings")
    assert response.status_code == 200
    body = response.json()
    assert {"tournament_id", "as_of", "format", "tiebreaks", "rows", "progression"} <= set(body)
    assert body["tournament_id"] == demo and isinstance(body["as_of"], int) and isinstance(body["format"], str)
    assert all(set(t) >= {"code", "zh", "en"} for t in body["tiebreaks"])
    for row in body["rows"]:
        assert {"rank", "player_id", "name", "total", "tiebreak_values", "matches"} <= set(row)
        assert len(row["tiebreak_values"]) == len(body["tiebreaks"])
    for stage in body["progression"]:
        assert {"round", "label", "rows"} <= set(stage)
        assert all(set(row) >= {"player_id", "name", "total", "rank"} for row in stage["rows"])
    assert demo_server.service.store.recorder.max_notification_id() == body["as_of"]  # type: ignore[union-attr]
    first_round = demo_server.get(f"/api/tournaments/{demo}/standings", params={"round": 1}).json()
    assert first_round["round"] == 1 and first_round["rows"] != body["rows"]
    earlier = demo_server.get(f"/api/tournaments/{demo}/standings", params={"as_of": body["as_of"] // 2}).json()
    assert earlier["as_of"] == body["as_of"] // 2


def test_explain_reaches_single_events_with_their_recorders(demo_server, demo):
    rows = demo_server.get(f"/api/tournaments/{demo}/standings").json()["rows"]
    body = demo_server.get(f"/api/tournaments/{demo}/standings/{rows[2]['player_id']}/explain").json()
    assert body["decided_by"] == "playoff" and body["total"] == rows[2]["total"]
    # What the explain page and `fupan explain` print of the event is in the HTTP answer too (its schema kept it out).
    standings = demo_server.get(f"/api/tournaments/{demo}/standings").json()
    header = ("game", "format_name", "total_measure", "lots_seed")
    assert {k: body[k] for k in header} == {k: standings[k] for k in header}
    assert body["number"] == rows[2]["number"]
    events = [event for table in body["matches"] for deal in table["deals"] for event in deal["events"]]
    assert events and all({"aggregate", "id", "version", "type", "recorded_by"} <= set(e) for e in events)
    assert {e["type"] for e in events} >= {"Deal.Created", "Deal.ActionRecorded", "Deal.Finished", "Match.DealScored"}


def test_preview_answers_before_and_after_and_stores_nothing(demo_server, demo):
    before = demo_server.service.store.recorder.max_notification_id()  # type: ignore[union-attr]
    ruling = {"adjustments": [{"player_id": "王芳", "points": -15, "kind": "penalty", "reason": "仲裁：取消一局",
                               "round": 2}]}
    response = demo_server.post(f"/api/tournaments/{demo}/standings/preview", ruling, anonymous=True)
    assert response.status_code == 200, response.text
    body = response.json()
    assert demo_server.service.store.recorder.max_notification_id() == before  # type: ignore[union-attr]
    assert body["before"]["rows"][0]["player_id"] == "王芳" and body["after"]["rows"][0]["player_id"] != "王芳"
    assert any(change["player_id"] == "王芳" and change["rank"][0] == 1 for change in body["changes"])
    bad = demo_server.post(f"/api/tournaments/{demo}/standings/preview",
                      {"adjustments": [{"player_id": "nobody", "points": 1, "reason": "x"}]})
    assert bad.status_code == 422 and error_of(bad)["code"] == "bad_adjustment"


def test_rounds_and_adjustments_are_recorded_by_the_organiser_and_counted(server):
    tournament = server.post("/api/tournaments", {"name": "复盘杯", "game": "doudizhu",
                                                  "tiebreaks": ["deals_won", "lots"]}).json()
    assert tournament["format"] == "doudizhu.s001" and tournament["tiebreaks"] == ["deals_won", "lots"]
    for name in ("甲", "乙", "丙"):
        server.post(f"/api/tournaments/{tournament['id']}/players", {"name": name})
    started = server.post(f"/api/tournaments/{tournament['id']}/rounds", {"label": "预赛", "kind": "tables"})
    assert started.status_code == 201 and started.json() == {"round": 1, "label": "预赛", "kind": "tables"}
    table = server.post(f"/api/tournaments/{tournament['id']}/matches", {"table": "1", "seats": ["甲", "乙", "丙"]})
    assert table.status_code == 201
    record = deal_where(random.Random(2), lambda r: not r.get("redeal"))
    deal = server.post(f"/api/matches/{table.json()['id']}/deals",
                       {"hands": record["hands"], "kitty": record["kitty"], "first": record["first"]}).json()
    for action in record["actions"]:
        assert server.post(f"/api/deals/{deal['id']}/actions", {"action": action}).status_code == 201
    penalty = {"player_id": "甲", "points": -2, "kind": "penalty", "reason": "迟到 / late",
               "refers_to": {"deal_id": deal["id"], "version": 1}}
    assert server.post(f"/api/tournaments/{tournament['id']}/adjustments", penalty, anonymous=True).status_code == 401
    recorded = server.post(f"/api/tournaments/{tournament['id']}/adjustments", penalty)
    assert recorded.status_code == 201 and recorded.json()["round"] == 1
    standings = server.get(f"/api/tournaments/{tournament['id']}/standings").json()
    rows = {row["player_id"]: row for row in standings["rows"]}
    chips = dict(zip(["甲", "乙", "丙"], server.get(f"/api/matches/{table.json()['id']}").json()["chips"], strict=True))
    assert rows["甲"]["total"] == chips["甲"] - 2 and rows["乙"]["total"] == chips["乙"]
    explained = server.get(f"/api/tournaments/{tournament['id']}/standings/甲/explain").json()
    (adjustment,) = explained["adjustments"]
    assert adjustment["recorded_by"]["role"] == "organiser" and adjustment["reason"] == "迟到 / late"


def test_declarations_and_queries_are_checked_with_the_one_error_shape(demo_server, demo):
    unknown = demo_server.post("/api/tournaments", {"name": "x", "game": "doudizhu", "tiebreaks": ["coin"]})
    assert unknown.status_code == 422 and error_of(unknown)["code"] == "unknown_tiebreak"
    wrong_game = demo_server.post("/api/tournaments", {"name": "x", "game": "doudizhu", "format": "shengji.s004"})
    assert wrong_game.status_code == 422 and error_of(wrong_game)["code"] == "unknown_format"
    by_round = demo_server.get(f"/api/tournaments/{demo}/standings", params={"round": 0})
    assert error_of(by_round)["code"] == "invalid_query"
    assert demo_server.get("/api/tournaments/nope/standings").status_code == 404
    missing = demo_server.get(f"/api/tournaments/{demo}/standings/nobody/explain")
    assert missing.status_code == 404 and error_of(missing)["code"] == "not_found"
    formats = demo_server.get("/api/formats").json()["formats"]
    assert {f["code"] for f in formats} >= {"doudizhu.s001", "shengji.s004", "sandayi.s002", "daguai.s000",
                                           "wakeng.s003"}


def test_rebuild_and_verify_over_http_are_the_organisers(demo_server, demo):
    assert demo_server.get("/api/admin/verify").status_code == 401
    assert demo_server.post("/api/admin/rebuild", anonymous=True).status_code == 401
    verified = demo_server.get("/api/admin/verify", token=demo_server.organiser).json()
    demos = [json.loads((HERE / name).read_text(encoding="utf-8")) for name in DEMOS]
    deals = sum(len(table["deals"]) for demo in demos for stage in demo["rounds"] for table in stage["tables"])
    assert verified["ok"] and verified["deals"] == deals
    rebuilt = demo_server.post("/api/admin/rebuild")
    assert rebuilt.status_code == 200 and rebuilt.json()["tournaments"] == len(demos)


def test_the_fupan_command_standings_explain_verify_rebuild(tmp_path: Path, capsys):
    db = str(tmp_path / "cli.sqlite")
    service = Fupan.for_sqlite(db)
    tournament = load_demo(service)
    service.close()
    assert fupan(["standings", tournament["key"], "--db", db]) == 0
    table = capsys.readouterr().out
    assert "tie decided by playoff" in table and "champion" in table
    assert fupan(["standings", tournament["id"], "--db", db, "--json", "--round", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["round"] == 1
    assert fupan(["explain", tournament["id"], "周杰", "--db", db]) == 0
    assert "penalty -1 in round 1" in capsys.readouterr().out
    assert fupan(["verify", "--db", db]) == 0
    service = Fupan.for_sqlite(db)
    with service.store.factory.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
        c.execute("UPDATE proj_deals SET scored = replace(scored, '\"winner\":null', '\"winner\":1') "
                  "WHERE number = 1")
    service.close()
    capsys.readouterr()
    assert fupan(["verify", "--db", db]) == 1
    assert '"table": "deals"' in capsys.readouterr().err
    assert fupan(["rebuild", "--db", db]) == 0
    assert fupan(["verify", "--db", db]) == 0
    assert "hash chains ok" in capsys.readouterr().out

    # Someone edits a stored action in the file: the chain names the deal and the first event that changed.
    with sqlite3.connect(db) as raw:
        rowid, state = raw.execute("SELECT rowid, state FROM stored_events WHERE topic = 'fupan:Deal.ActionRecorded' "
                                   "AND CAST(state AS TEXT) LIKE '%\"play\"%' ORDER BY rowid LIMIT 1").fetchone()
        raw.execute("UPDATE stored_events SET state = ? WHERE rowid = ?",
                    (state.replace(b'"type":"play"', b'"type":"pass"'), rowid))
        deal_id, version = raw.execute("SELECT originator_id, originator_version FROM stored_events WHERE rowid = ?",
                                       (rowid,)).fetchone()
    assert fupan(["verify", "--db", db, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["chains"]["broken"] == [{"deal_id": str(UUID(deal_id)), "first_bad_version": version}]
    assert fupan(["standings", "no such tournament", "--db", db]) == 1


def test_a_penalty_or_adjustment_beyond_the_limit_is_refused_and_stores_nothing(demo_server, demo):
    """10³⁰ points is a typing slip, not a ruling: refused when recorded, previewed or given with a foul (a number
    that long is refused as the body is read, before anything parses it: docs/SECURITY.md §6)."""
    before = demo_server.service.store.recorder.max_notification_id()  # type: ignore[union-attr]
    for points in (10**30, -1001, 1001):
        adjustment = {"player_id": "王芳", "points": points, "kind": "penalty", "reason": "迟到"}
        recorded = demo_server.post(f"/api/tournaments/{demo}/adjustments", adjustment)
        # 10³⁰ is refused as the body is read, before anything parses it (docs/SECURITY.md §6); ±1001 by the check.
        expected = (400, "malformed_json") if points == 10**30 else (422, "bad_adjustment")
        assert (recorded.status_code, error_of(recorded)["code"]) == expected, recorded.text
        previewed = demo_server.post(f"/api/tournaments/{demo}/standings/preview", {"adjustments": [adjustment]})
        assert (previewed.status_code, error_of(previewed)["code"]) == expected, previewed.text
    assert demo_server.service.store.recorder.max_notification_id() == before  # type: ignore[union-attr]
    kept = demo_server.post(f"/api/tournaments/{demo}/adjustments",
                            {"player_id": "王芳", "points": -1000, "kind": "penalty", "reason": "严重违纪"})
    assert kept.status_code == 201, kept.text
    # The demo is the module's: taken back by a compensating adjustment, as a committee would.
    taken_back = demo_server.post(f"/api/tournaments/{demo}/adjustments",
                                  {"player_id": "王芳", "points": 1000, "kind": "adjustment", "reason": "撤销处罚"})
    assert taken_back.status_code == 201, taken_back.text
