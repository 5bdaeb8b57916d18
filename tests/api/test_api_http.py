"""The HTTP API over a real socket (requests → werkzeug → Flask → eventsourcing → SQLite file / PostgreSQL).

Writes carry the test server's organiser token (LiveServer.post); reads are anonymous unless they pass
`token=` — access control itself is tested in test_security_*.py.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from conftest import EXAMPLE_SCORES, LiveServer, Store, token_id

from domain.games import get_engine
from domain.kernel.dealing import deal_from_seed
from domain.records.format import check_record

PLAYERS = ["张三", "李四", "王五"]
VIEWPOINTS = ["referee", "public", "seat:0", "seat:1", "seat:2"]


def assert_error(response: Any, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "message_zh", "details"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"] and body["error"]["message_zh"]
    assert "Traceback" not in response.text
    return body["error"]


def open_table(server: LiveServer) -> tuple[str, str]:
    created = server.post("/api/tournaments", {"name": "校园杯", "game": "doudizhu"})
    assert created.status_code == 201
    tournament = created.json()["id"]
    for name in PLAYERS:
        assert server.post(f"/api/tournaments/{tournament}/players", {"name": name}).status_code == 201
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS, "first": 2})
    assert match.status_code == 201, match.text
    return tournament, match.json()["id"]


def start_example(server: LiveServer, record: dict, match: str | None = None) -> str:
    body = {"hands": record["hands"], "kitty": record["kitty"], "first": 2}
    if match is None:
        response = server.post("/api/deals", {**body, "game": "doudizhu", "seats": PLAYERS})
    else:
        response = server.post(f"/api/matches/{match}/deals", body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def event_count(server: LiveServer, deal: str) -> int:
    """How many events the deal has stored, as the organiser reads them (the public's may be held back by the
    broadcast delay, docs/SECURITY.md §4b)."""
    response = server.get(f"/api/deals/{deal}/events", token=server.organiser)
    assert response.status_code == 200
    return len(response.json())


def all_replays(server: LiveServer, deal: str, total: int) -> dict[tuple[str, int], Any]:
    frames = {}
    for viewpoint in VIEWPOINTS:
        for step in range(total + 1):
            response = server.get(f"/api/deals/{deal}/replay", params={"step": step, "viewpoint": viewpoint})
            assert response.status_code == 200, response.text
            frames[viewpoint, step] = response.json()
    return frames


def test_record_a_deal_end_to_end_and_replay_it_identically_after_a_restart(server, example_record):
    tournament, match = open_table(server)
    deal = start_example(server, example_record, match)
    last: dict = {}
    for number, action in enumerate(example_record["actions"]):
        response = server.post(f"/api/deals/{deal}/actions", {"action": action, "expected_version": number + 1})
        assert response.status_code == 201, response.text
        last = response.json()
        assert last["step"] == number + 1
    assert last["finished"] and last["result"]["scores"] == EXAMPLE_SCORES
    assert last["match"]["chips"] == [12, 12, 4]

    state = server.get(f"/api/matches/{match}").json()
    assert state["status"] == "live" and state["chips"] == [12, 12, 4]
    assert state["deals"] == [{"number": 1, "deal_id": deal, "first": 2, "status": "finished",
                               "scores": EXAMPLE_SCORES, "chips": [12, 12, 4],
                               "standing": {"chips": [12, 12, 4], "end": None}}]
    assert state["seat_names"] == PLAYERS

    total = len(example_record["actions"])
    before = all_replays(server, deal, total)
    whole = {vp: server.get(f"/api/deals/{deal}/replay/all", params={"viewpoint": vp}).json() for vp in VIEWPOINTS}
    events = server.get(f"/api/deals/{deal}/events").json()
    record = server.get(f"/api/deals/{deal}/record").json()

    server.restart()  # a new process in all but name: new server, new application object, same file

    assert all_replays(server, deal, total) == before
    for vp in VIEWPOINTS:
        again = server.get(f"/api/deals/{deal}/replay/all", params={"viewpoint": vp}).json()
        assert again == whole[vp]
        assert [frame["view"] for frame in again["frames"]] == [before[vp, k]["view"] for k in range(total + 1)]
    assert server.get(f"/api/deals/{deal}/events").json() == events
    assert server.get(f"/api/deals/{deal}/record").json() == record
    assert server.get(f"/api/matches/{match}").json() == state
    assert server.get(f"/api/deals/{deal}/verify").json()["ok"]
    assert [t["id"] for t in server.get("/api/tournaments").json()] == [tournament]
    assert server.get(f"/api/tournaments/{tournament}/matches").json() == [state]


def test_events_carry_version_time_recorder_and_digest(server, example_record):
    deal = start_example(server, example_record)
    server.post(f"/api/deals/{deal}/actions", {"action": example_record["actions"][0]})
    events = server.get(f"/api/deals/{deal}/events", token=server.organiser).json()  # live: digests need rights
    assert [e["version"] for e in events] == [1, 2]
    assert [e["type"] for e in events] == ["Deal.Created", "Deal.ActionRecorded"]
    organiser = {"role": "organiser", "token_id": token_id(server.organiser)}
    assert all(e["recorded_by"] == organiser and e["time"] for e in events)
    assert events[1]["payload"] == {"action": {"seat": 2, "type": "call"}}
    assert len({e["digest"] for e in events}) == 2
    assert server.get(f"/api/deals/{deal}", token=server.organiser).json()["digest"] == events[-1]["digest"]


# Each bad input: (description, how to send it, status, code). The deal has had 4 actions: seat 2 called,
# both others passed, seat 2 led the straight S3…H9; seat 0 is to act.
BAD_ACTIONS: list[tuple[str, dict[str, Any], int, str]] = [
    ("malformed JSON", {"data": '{"action": {"seat": 0,', "headers": {"Content-Type": "application/json"}},
     400, "malformed_json"),
    ("wrong content type", {"data": "seat=0", "headers": {"Content-Type": "text/plain"}}, 400, "bad_content_type"),
    ("seat not a number", {"json": {"action": {"seat": "zero", "type": "pass"}}}, 422, "bad_seat"),
    ("schema: no action", {"json": {"seat": 0, "type": "pass"}}, 400, "invalid_body"),
    ("unknown card code", {"json": {"action": {"seat": 0, "type": "play", "cards": ["X9"]}}}, 422, "unknown_card"),
    ("card not in hand", {"json": {"action": {"seat": 0, "type": "play", "cards": ["H3"]}}}, 422,
     "card_not_in_hand"),
    ("wrong seat's turn", {"json": {"action": {"seat": 1, "type": "pass"}}}, 422, "not_your_turn"),
    ("does not beat", {"json": {"action": {"seat": 0, "type": "play", "cards": ["S7"]}}}, 422, "does_not_beat"),
    ("stale expected_version", {"json": {"action": {"seat": 0, "type": "pass"}, "expected_version": 3}}, 409,
     "conflict"),
]


@pytest.mark.parametrize(("what", "request_kwargs", "status", "code"), BAD_ACTIONS, ids=[b[0] for b in BAD_ACTIONS])
def test_bad_actions_are_refused_and_store_nothing(server, example_record, what, request_kwargs, status, code):
    deal = start_example(server, example_record)
    for action in example_record["actions"][:4]:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    count = event_count(server, deal)
    headers = {**request_kwargs.get("headers", {}), **server.auth()}
    response = server.http.post(f"{server.url}/api/deals/{deal}/actions", timeout=30,
                                **{**request_kwargs, "headers": headers})
    assert_error(response, status, code)
    assert event_count(server, deal) == count == 5
    assert server.get(f"/api/deals/{deal}").json()["version"] == count
    # The deal still takes the right action afterwards.
    assert server.post(f"/api/deals/{deal}/actions", {"action": example_record["actions"][4]}).status_code == 201


def test_an_action_after_the_deal_ended_is_refused(server, example_record):
    deal = start_example(server, example_record)
    for action in example_record["actions"]:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    count = event_count(server, deal)
    error = assert_error(server.post(f"/api/deals/{deal}/actions", {"action": {"seat": 2, "type": "pass"}}), 422,
                         "deal_finished")
    assert "已结束" in error["message_zh"]
    assert event_count(server, deal) == count


def test_a_foul_after_the_last_card_is_recorded_and_scores_nothing_twice(server, example_record):
    _, match = open_table(server)
    deal = start_example(server, example_record, match)
    for action in example_record["actions"]:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    scored = server.get(f"/api/matches/{match}").json()
    foul = {"seat": 0, "type": "foul", "code": "conduct", "note": "终局后摔牌"}
    late = server.post(f"/api/deals/{deal}/actions", {"action": foul})
    assert late.status_code == 201, late.text
    assert late.json()["result"]["scores"] == EXAMPLE_SCORES and "match" not in late.json()
    after = server.get(f"/api/matches/{match}").json()
    assert (after["chips"], after["version"]) == (scored["chips"], scored["version"])  # the match moved not
    count = event_count(server, deal)
    assert_error(server.post(f"/api/deals/{deal}/actions", {"action": {**foul, "penalty": 1}}), 422,
                 "penalty_after_end")
    assert event_count(server, deal) == count
    exported = server.get(f"/api/deals/{deal}/record").json()
    assert exported["actions"][-1] == foul and check_record(exported)["ok"]
    assert server.get(f"/api/deals/{deal}/verify").json()["ok"]


def test_the_organiser_closes_a_table_over_http_and_the_viewer_says_why(server, example_record):
    _, match = open_table(server)
    deal = start_example(server, example_record, match)
    stored = server.get(f"/api/matches/{match}").json()["version"]
    for body, status, code in (({"reason": "加赛已分出名次"}, 422, "deal_in_progress"),
                               ({}, 400, "invalid_body"), ({"reason": ""}, 400, "invalid_body")):
        assert_error(server.post(f"/api/matches/{match}/close", body), status, code)
    assert server.get(f"/api/matches/{match}").json()["version"] == stored
    for action in example_record["actions"]:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    closed = server.post(f"/api/matches/{match}/close", {"reason": "加赛已分出名次"})
    assert closed.status_code == 201, closed.text
    assert (closed.json()["status"], closed.json()["ended_by"], closed.json()["closed_because"]) == (
        "over", "closed", "加赛已分出名次")
    assert_error(server.post(f"/api/matches/{match}/deals", {"seed": "more"}), 422, "match_over")
    page = server.get(f"/matches/{match}")
    assert page.status_code == 200 and "组织者结束本桌" in page.text and "加赛已分出名次" in page.text
    assert 'class="badge winner"' not in page.text  # closed names no winner, and is not a draw either


def test_unknown_deals_routes_and_methods(server):
    missing = "00000000-0000-0000-0000-000000000000"
    assert_error(server.post(f"/api/deals/{missing}/actions", {"action": {"seat": 0, "type": "pass"}}), 404,
                 "not_found")
    for path in (f"/api/deals/{missing}", f"/api/deals/{missing}/events", f"/api/deals/{missing}/replay",
                 "/api/deals/not-a-uuid/record", f"/api/matches/{missing}", f"/api/tournaments/{missing}"):
        assert_error(server.get(path), 404, "not_found")
    assert_error(server.get("/api/nothing-here"), 404, "not_found")
    assert_error(server.http.delete(f"{server.url}/api/tournaments", timeout=30), 405, "method_not_allowed")
    assert server.get("/api/deals").json() == []


def test_bad_replay_queries(server, example_record):
    deal = start_example(server, example_record)
    assert_error(server.get(f"/api/deals/{deal}/replay", params={"viewpoint": "everyone"}), 400, "invalid_query")
    assert_error(server.get(f"/api/deals/{deal}/replay", params={"step": "-1"}), 400, "invalid_query")
    assert_error(server.get(f"/api/deals/{deal}/replay", params={"step": 1}, token=server.organiser), 400, "bad_step")
    assert_error(server.get(f"/api/deals/{deal}/replay", params={"viewpoint": "seat:7"}), 400, "bad_viewpoint")
    live = server.get(f"/api/deals/{deal}/replay", params={"viewpoint": "public"}).json()
    assert live["step"] == 0 and live["total"] == 0 and not live["closed"]
    assert not any("hand" in seat for seat in live["view"]["seats"])


def test_rules_refusals_on_creates(server):
    assert_error(server.post("/api/tournaments", {"name": "x", "game": "mahjong"}), 422, "unknown_game")
    assert_error(server.post("/api/tournaments", {"name": "x", "game": "doudizhu", "options": {"ddz.payout": 7}}),
                 422, "bad_options")
    _, match = open_table(server)
    hands = [["S3"] * 17] * 3
    assert_error(server.post(f"/api/matches/{match}/deals", {"hands": hands, "kitty": ["S3"] * 3}), 422, "bad_deck")
    assert server.get(f"/api/matches/{match}").json()["deals"] == []


def test_idempotent_creates_over_http(server, example_record):
    tournament, match = open_table(server)
    again = server.post("/api/tournaments", {"name": "校园杯", "game": "doudizhu"})
    assert again.status_code == 200 and again.json()["id"] == tournament
    assert server.post(f"/api/tournaments/{tournament}/players", {"name": "张三"}).status_code == 200
    table = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS, "first": 2})
    assert table.status_code == 200 and table.json()["id"] == match
    assert_error(server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS[::-1]}), 409,
                 "already_exists")
    deal = start_example(server, example_record, match)
    body = {"hands": example_record["hands"], "kitty": example_record["kitty"], "first": 2}
    resubmitted = server.post(f"/api/matches/{match}/deals", body)
    assert resubmitted.status_code == 200 and resubmitted.json()["id"] == deal
    assert len(server.get(f"/api/matches/{match}/deals").json()) == 1
    players = server.get(f"/api/tournaments/{tournament}/players").json()
    assert [p["name"] for p in players] == PLAYERS


def test_seeded_deal_publishes_the_commitment_and_reveals_the_seed_at_the_end(server):
    _, match = open_table(server)
    created = server.post(f"/api/matches/{match}/deals", {"seed": "赛前公布的承诺"})
    assert created.status_code == 201
    deal = created.json()
    commitment = hashlib.sha256("赛前公布的承诺".encode()).hexdigest()
    assert deal["seed_commitment"] == commitment and deal["seed"] is None and deal["first"] == 2
    for path in (f"/api/deals/{deal['id']}", f"/api/deals/{deal['id']}/events", f"/api/deals/{deal['id']}/record",
                 f"/api/deals/{deal['id']}/replay"):
        answer = server.get(path, token=server.organiser)  # even those who may see the hands
        assert answer.status_code == 200 and "赛前公布的承诺" not in answer.text
    hands, kitty = deal_from_seed("赛前公布的承诺", get_engine("doudizhu"), 2)
    referee = server.get(f"/api/deals/{deal['id']}/replay", params={"viewpoint": "referee"},
                         token=server.organiser).json()["view"]
    assert [sorted(seat["hand"]) for seat in referee["seats"]] == [sorted(hand) for hand in hands]
    for seat in (2, 0, 1):
        last = server.post(f"/api/deals/{deal['id']}/actions", {"action": {"seat": seat, "type": "pass"}}).json()
    assert last["finished"] and last["seed"] == "赛前公布的承诺"
    closed = server.get(f"/api/deals/{deal['id']}").json()
    assert hashlib.sha256(closed["seed"].encode()).hexdigest() == closed["seed_commitment"]
    record = server.get(f"/api/deals/{deal['id']}/record").json()
    assert record["meta"]["seed"] == "赛前公布的承诺" and record["kitty"] == kitty
    assert record["result"] == {"redeal": True, "scores": [0, 0, 0]}

    generated = server.post(f"/api/matches/{match}/deals", {}).json()
    assert generated["number"] == 2 and generated["first"] == 0 and len(generated["seed_commitment"]) == 64


def test_import_export_round_trip_over_http(server, example_record):
    example_record["options"] = get_engine("doudizhu").resolve_options({})
    imported = server.post("/api/records", example_record)
    assert imported.status_code == 201, imported.text
    deal = imported.json()["id"]
    assert server.post("/api/records", example_record).status_code == 200
    note = {"step": 5, "glyph": "!!", "text": "王炸压顺子", "text_en": "Rocket over the straight", "author": "裁判长"}
    answer = server.post(f"/api/deals/{deal}/annotations", note)
    assert answer.status_code == 201
    exported = server.get(f"/api/deals/{deal}/record").json()
    assert exported.pop("result") == {"scores": EXAMPLE_SCORES}
    assert exported.pop("digest") == answer.json()["digest"]
    assert exported.pop("meta")["deal_id"] == deal
    assert exported.pop("annotations") == [{**note, "at": 4}]  # `at`: the older spelling, for older readers
    assert exported == example_record
    step5 = server.get(f"/api/deals/{deal}/replay", params={"step": 5}).json()
    assert step5["annotations"] == [note]


def test_import_a_list_reports_each_record_all_or_nothing(server, example_record):
    bad = copy.deepcopy(example_record)
    bad["actions"][3]["cards"] = ["S3", "C4", "H5", "D6", "D7", "H8", "HA"]
    reports = server.post("/api/records", [example_record, bad, {"format": "fupan.deal/1"}])
    assert reports.status_code == 200
    body = reports.json()
    assert not body["ok"]
    assert [r["ok"] for r in body["records"]] == [True, False, False]
    assert body["records"][1]["error"]["details"]["action"] == 3
    assert body["records"][2]["error"]["code"] == "invalid_body"
    assert len(server.get("/api/deals").json()) == 1  # the refused records stored nothing
    lines = "\n".join(json.dumps(r, ensure_ascii=False) for r in (example_record, example_record))
    ndjson = server.http.post(f"{server.url}/api/records", data=lines.encode(), timeout=30,
                              headers={"Content-Type": "application/x-ndjson", **server.auth()})
    assert [r["created"] for r in ndjson.json()["records"]] == [False, False]
    assert_error(server.post("/api/records", {"format": "fupan.deal/1", "game": "doudizhu", "seats": [], "first": 0,
                                              "hands": [], "actions": []}), 422, "bad_setup")


def test_match_records_are_json_lines(server, example_record):
    _, match = open_table(server)
    deal = start_example(server, example_record, match)
    for action in example_record["actions"]:
        server.post(f"/api/deals/{deal}/actions", {"action": action})
    response = server.get(f"/api/matches/{match}/records")
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("application/x-ndjson")
    records = [json.loads(line) for line in response.text.splitlines()]
    assert len(records) == 1 and records[0]["meta"]["match_id"] == match
    assert records[0]["actions"] == example_record["actions"]


def test_openapi_document_and_local_docs_page(server):
    spec = server.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    paths = spec["paths"]
    for path, method in [("/api/deals/{deal_id}/actions", "post"), ("/api/deals/{deal_id}/replay", "get"),
                         ("/api/records", "post"), ("/api/tournaments/{tournament_id}/matches", "post"),
                         ("/api/matches/{match_id}/records", "get"), ("/api/deals/{deal_id}/replay/all", "get")]:
        assert method in paths[path], path
    action = paths["/api/deals/{deal_id}/actions"]["post"]
    assert set(action["responses"]) >= {"201", "400", "404", "409", "422", "500"}
    assert action["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/RecordAction")
    assert {"Error", "Deal", "Match", "Tournament", "Replay"} <= set(spec["components"]["schemas"])
    page = server.get("/api/docs")
    assert page.status_code == 200 and "/api/deals/{deal_id}/replay" in page.text
    assert "<script" not in page.text and "http://" not in page.text and "https://" not in page.text


def test_an_unexpected_failure_is_a_500_without_a_traceback(server, example_record):
    deal = start_example(server, example_record)
    break_the_store(server.store)  # the store breaks underneath the running server
    response = server.post(f"/api/deals/{deal}/actions", {"action": example_record["actions"][0]})
    error = assert_error(response, 500, "internal_error")
    assert error["details"] == {}
    assert "sqlite" not in response.text.lower() and "psycopg" not in response.text.lower()


def break_the_store(store: Store) -> None:
    if store.backend == "sqlite":
        with sqlite3.connect(store.env["SQLITE_DBNAME"]) as conn:
            conn.execute("ALTER TABLE stored_events RENAME TO gone")
        return
    import psycopg

    env = store.env
    with psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                         password=env["POSTGRES_PASSWORD"], dbname=env["POSTGRES_DBNAME"], autocommit=True) as conn:
        conn.execute(f'ALTER TABLE "{env["POSTGRES_SCHEMA"]}".fupan_events RENAME TO gone')


def test_racing_clients_store_an_action_once(server, example_record):
    """Eight scorers send the same first action at once: one is stored, the others are refused."""
    deal = start_example(server, example_record)
    url = f"{server.url}/api/deals/{deal}/actions"
    body = {"action": example_record["actions"][0], "expected_version": 1}
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(lambda _: requests.post(url, json=body, headers=server.auth(), timeout=30)
                                   .status_code, range(8)))
    assert statuses == [201] + [409] * 7
    assert event_count(server, deal) == 2


# Input no store can keep, or that used to crash the server: refused at the door with the one error shape (the
# PostgreSQL store cannot hold a NUL character at all; a lone surrogate is no character), nothing stored.
UNKEEPABLE = [
    ("a NUL in a player's name", "players", {"name": "x\u0000"}, 400, "bad_text"),
    ("a lone surrogate in a player's name", "players", {"name": "\ud800x"}, 400, "bad_text"),
    ("a NUL in a key", "players", {"name\u0000": "x"}, 400, "bad_text"),
    ("JSON nested 50,000 deep", "players", "[" * 50_000 + "]" * 50_000, 400, "malformed_json"),
]


@pytest.mark.parametrize(("what", "route", "body", "status", "code"), UNKEEPABLE, ids=[u[0] for u in UNKEEPABLE])
def test_input_no_store_can_keep_is_refused_at_the_door(server, store, what, route, body, status, code):
    tournament, _ = open_table(server)
    before = store.stored_events()
    data = body if isinstance(body, str) else json.dumps(body)  # json.dumps escapes NUL and surrogates
    response = server.post(f"/api/tournaments/{tournament}/{route}", data=data,
                           headers={"Content-Type": "application/json"})
    assert_error(response, status, code)
    assert store.stored_events() == before
    assert server.get(f"/api/tournaments/{tournament}/standings").status_code == 200


def test_a_hand_holding_a_non_card_is_refused_and_an_import_list_reports_each_record(server, store, example_record):
    hands = [[{}], [], []]
    refused = server.post("/api/deals", {"game": "doudizhu", "seats": PLAYERS, "first": 0, "hands": hands,
                                         "kitty": []})
    assert_error(refused, 400, "invalid_body")  # the deal schema reads hands as card codes
    before = store.stored_events()
    bad = {**copy.deepcopy(example_record), "hands": hands}
    answer = server.post("/api/records", [example_record, bad])
    assert answer.status_code == 200, answer.text
    reports = answer.json()["records"]
    assert reports[0]["ok"] and not reports[1]["ok"] and reports[1]["error"]["code"] == "unknown_card"
    deal = reports[0]["deal_id"]
    assert {event[0] for event in store.stored_events()} - {event[0] for event in before} == {deal}


def test_a_viewpoint_of_a_digit_that_is_no_number_is_refused(server, example_record):
    deal = start_example(server, example_record)
    assert_error(server.get(f"/ui-api/deals/{deal}/frames?viewpoint=seat:²"), 400, "bad_viewpoint")
    assert_error(server.get(f"/api/deals/{deal}/replay?viewpoint=seat:²"), 400, "invalid_query")  # its pattern


def test_a_referees_action_is_one_unit_with_one_look_at_the_log(server, example_record):
    """Authenticating the referee, checking the token's match scope and recording the action are one unit of
    the service: one lock, one look at the notification log (domain/store/event_store.py), whatever the request
    calls."""
    _, match = open_table(server)
    deal = start_example(server, example_record, match)
    _, referee = server.service.tokens.create("referee", matches=[match])
    looks: list[int] = []
    synchronise = server.service.store._synchronise
    server.service.store._synchronise = lambda *probe: looks.append(1) or synchronise(*probe)  # type: ignore[method-assign]
    recorded = server.post(f"/api/deals/{deal}/actions", {"action": example_record["actions"][0]}, token=referee)
    assert recorded.status_code == 201, recorded.text
    assert len(looks) == 1
    looks.clear()
    refused = server.post(f"/api/deals/{deal}/actions", {"action": example_record["actions"][5]}, token=referee)
    assert refused.status_code == 422 and len(looks) == 1


def test_a_server_dealt_deal_with_the_wrong_seats_is_told_about_its_seats(server, store):
    before = store.stored_events()
    error = assert_error(server.post("/api/deals", {"game": "doudizhu", "seats": ["甲", "乙"], "first": 0}), 422,
                         "bad_setup")
    assert "3 seats, not 2" in error["message"] and "hand" not in error["message"] and "座位" in error["message_zh"]
    assert store.stored_events() == before


def test_a_slow_upload_holds_no_lock_over_other_writes(server):
    """On slow venue wifi a pad's body may arrive slowly: the request's unit of work (its lock) begins only once
    the body is in, so another table's write goes on meanwhile."""
    import socket
    import threading
    from urllib.parse import urlparse

    tournament, _ = open_table(server)
    body = json.dumps({"name": "慢"}).encode()
    # Know when the slow request has reached the app (its headers read, its body still on the way).
    arrived = threading.Event()
    app = server.app
    assert app is not None
    inner = app.wsgi_app

    def noting_the_slow_one(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("HTTP_X_SLOW"):
            arrived.set()
        return inner(environ, start_response)

    app.wsgi_app = noting_the_slow_one  # type: ignore[method-assign]
    address = urlparse(server.url)
    slow = socket.create_connection((address.hostname, address.port), timeout=30)
    slow.sendall((f"POST /api/tournaments/{tournament}/players HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n"
                  f"Authorization: Bearer {server.organiser}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body[:3])
    answered: list[int] = []
    other = threading.Thread(target=lambda: answered.append(
        server.post(f"/api/tournaments/{tournament}/players", {"name": "快"}).status_code))
    try:
        assert arrived.wait(timeout=15)  # the slow request is in the server, its body unfinished
        other.start()
        other.join(timeout=15)
        assert answered == [201]  # done while the first body is still on its way
    finally:
        slow.sendall(body[3:])
        reply = slow.recv(65536).decode("utf-8", "replace")
        slow.close()
        other.join(timeout=30)
    assert reply.startswith("HTTP/1.1 201")
