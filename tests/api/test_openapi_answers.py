"""Answers the OpenAPI document got wrong (issue 16, defect 5), each checked against /api/openapi.json itself
by schemathesis's validator (status documented, body valid for that status), over real HTTP on a SQLite store.
tests/api/test_openapi_fuzz.py looks for more of them at random; these are the ones found, kept."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from conftest import EXAMPLE_RECORD, LiveServer, Store
from test_api_http import assert_error

PLAYERS = ["张三", "李四", "王五"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Any, str]]:
    live = LiveServer(Store.sqlite(tmp_path_factory.mktemp("openapi") / "fupan.sqlite")).start()
    tournament = live.post("/api/tournaments", {"name": "文档", "game": "doudizhu"}).json()["id"]
    for name in PLAYERS:
        live.post(f"/api/tournaments/{tournament}/players", {"name": name})
    yield live, schemathesis.openapi.from_url(live.url + "/api/openapi.json"), tournament
    live.stop()


def documented(document: Any, path: str, method: str, response: requests.Response) -> requests.Response:
    """`response` is what the document says `method path` answers: its status is documented, and its body is
    valid for that status (else schemathesis raises, naming why)."""
    assert str(response.status_code) in document.raw_schema["paths"][path][method.lower()]["responses"], (
        f"{method} {path} answered {response.status_code}, which its document does not list")
    document[path][method].validate_response(response)
    return response


def test_an_adjustment_without_a_ruling_answers_refers_to_null_as_documented(site):
    live, document, tournament = site
    answer = live.post(f"/api/tournaments/{tournament}/adjustments",
                       {"player_id": "张三", "points": -1, "reason": "迟到"})
    assert answer.status_code == 201 and answer.json()["refers_to"] is None
    documented(document, "/api/tournaments/{tournament_id}/adjustments", "POST", answer)


def test_a_preview_answers_its_standings_before_and_after_as_of_a_notification(site):
    live, document, tournament = site
    answer = live.post(f"/api/tournaments/{tournament}/standings/preview",
                       {"adjustments": [{"player_id": "李四", "points": 2, "reason": "奖励"}]})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["before"]["as_of"] == body["after"]["as_of"] == body["as_of"] > 0
    documented(document, "/api/tournaments/{tournament_id}/standings/preview", "POST", answer)


def test_a_create_sent_again_answers_200_with_what_exists_as_documented(site):
    live, document, tournament = site
    first = live.post("/api/tournaments", {"name": "再来一次", "game": "doudizhu"})
    again = live.post("/api/tournaments", {"name": "再来一次", "game": "doudizhu"})
    assert (first.status_code, again.status_code) == (201, 200) and first.json()["id"] == again.json()["id"]
    for answer in (first, again):
        documented(document, "/api/tournaments", "POST", answer)
    player = live.post(f"/api/tournaments/{tournament}/players", {"name": "张三"})
    assert player.status_code == 200
    documented(document, "/api/tournaments/{tournament_id}/players", "POST", player)
    imported = [live.post("/api/records", EXAMPLE_RECORD) for _ in range(2)]
    assert [answer.status_code for answer in imported] == [201, 200]
    for answer in imported:
        documented(document, "/api/records", "POST", answer)


def test_an_import_of_no_records_is_refused_record_by_record_or_whole(site):
    live, document, _ = site
    nulls = live.post("/api/records", [None, None])
    assert nulls.status_code == 200 and nulls.json()["ok"] is False
    assert [(r["index"], r["ok"], r["error"]["code"]) for r in nulls.json()["records"]] == [
        (0, False, "not_a_record"), (1, False, "not_a_record")]
    documented(document, "/api/records", "POST", nulls)
    for nothing in ([], 7):
        documented(document, "/api/records", "POST", assert_response(live.post("/api/records", nothing), 400))


def assert_response(response: requests.Response, status: int) -> requests.Response:
    assert_error(response, status, "invalid_body")
    return response


def test_a_write_refused_for_its_idempotency_key_is_a_documented_400(site):
    live, document, _ = site
    refused = live.post("/api/admin/rebuild", headers={"Idempotency-Key": ""})
    assert_error(refused, 400, "bad_idempotency_key")
    documented(document, "/api/admin/rebuild", "POST", refused)
