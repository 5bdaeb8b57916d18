"""The board of variations' routes over real HTTP (docs/analysis.md "The board of variations"): a node of a
deal's tree (`POST /api/deals/<id>/variation`: every hand, the plays as the analysis lists them, the passes nobody
can avoid played by themselves) and its analysis (`POST /api/deals/<id>/analysis`, the same answer as `fupan
analyse` on the record cut there and continued by the variation); an appeal's (`POST /api/appeals/<id>/analysis`,
naming no deal; the sandbox's `forced` and `plays`). A live deal's nodes only for those who may see every hand."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store
from test_analysis_api import table_with_deal, verdicts
from test_api_http import assert_error
from test_appeals import Event

from domain.kernel.engine import DealSetup
from domain.records.format import fold
from domain.services.analysis import analyse_actions, plays
from domain.solver.search import Budget
from fixtures.positions import real_endgame


def key(action: dict[str, Any]) -> tuple:
    return action["seat"], action["type"], tuple(action.get("cards", ()))


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[dict[str, Any]]:
    server = LiveServer(Store.sqlite(tmp_path_factory.mktemp("board-api") / "fupan.sqlite")).start()
    found = real_endgame("doudizhu", random.Random(21), 7)
    assert found is not None
    setup, actions, _ = found
    match, deal = table_with_deal(server, "变化杯", setup, actions)  # live: played up to the endgame
    assert server.service is not None
    _, referee = server.service.tokens.create("referee", [match], "table 1")
    other_match, _ = table_with_deal(server, "另一杯", setup, actions[:1])
    _, stranger = server.service.tokens.create("referee", [other_match], "another table")
    yield {"server": server, "setup": setup, "actions": actions, "deal": deal, "referee": referee,
           "stranger": stranger, "event": Event(server, "变化申诉杯")}
    server.stop()


def a_forcing_play(setup: DealSetup, actions: list) -> tuple[dict, int]:
    """A play of the seat to act after which the next seat can only pass: the play and how many passes follow
    that nobody can avoid."""
    engine, state = fold(setup, actions)
    for action in plays(engine, state) or []:
        if action["type"] != "play":
            continue
        engine, after = fold(setup, [*actions, action])
        forced = 0
        while (offered := plays(engine, after)) is not None and [a["type"] for a in offered] == ["pass"]:
            engine.apply(after, offered[0])
            forced += 1
        if forced:
            return action, forced
    raise AssertionError("no play forces a pass in this endgame")


def test_a_node_shows_every_hand_and_the_plays_the_analysis_lists(world):
    server, deal, step = world["server"], world["deal"], len(world["actions"])
    path = f"/api/deals/{deal}/variation"
    assert_error(server.post(path, {"step": step, "actions": []}, anonymous=True), 401, "analysis_hidden")
    assert_error(server.post(path, {"step": step, "actions": []}, token=world["stranger"]), 403, "analysis_hidden")
    answer = server.post(path, {"step": step, "actions": []}, token=world["referee"])
    assert answer.status_code == 200, answer.text
    node = answer.json()
    assert node["deal_id"] == deal and node["step"] == step and node["actions"] == [] and node["forced"] == 0
    assert all(seat.get("hand") for seat in node["view"]["seats"])  # every hand, as the referee sees them
    analysed = analyse_actions(world["setup"], world["actions"], Budget(limit_ms=20_000))
    listed = [move["action"] for move in analysed["moves"]] + analysed.get("unproven", [])
    assert sorted(map(key, node["plays"])) == sorted(map(key, listed))


def test_the_passes_nobody_can_avoid_are_played_by_themselves(world):
    server, deal, step = world["server"], world["deal"], len(world["actions"])
    path = f"/api/deals/{deal}/variation"
    # At the endgame the seats after the last play cannot answer it: asked with `forced`, their passes are played.
    start = server.post(path, {"step": step, "actions": [], "forced": True}, token=world["referee"]).json()
    lead = start["actions"]
    assert start["forced"] == len(lead) >= 1 and {a["type"] for a in lead} == {"pass"}
    action, forced = a_forcing_play(world["setup"], [*world["actions"], *lead])
    node = server.post(path, {"step": step, "actions": [*lead, action], "forced": True}, token=world["referee"]).json()
    assert node["forced"] == forced and len(node["actions"]) == len(lead) + 1 + forced
    assert [a["type"] for a in node["actions"][len(lead) + 1:]] == ["pass"] * forced
    asked = server.post(path, {"step": step, "actions": [*lead, action]}, token=world["referee"]).json()
    assert asked["forced"] == 0 and len(asked["actions"]) == len(lead) + 1
    # A refused action is named, counted from 1 as a person counts; nothing else changes.
    refused = server.post(path, {"step": step, "actions": [*lead, action, action]}, token=world["referee"])
    assert_error(refused, 422, "illegal_line")
    assert refused.json()["error"]["details"]["index"] == len(lead) + 1


def test_a_nodes_analysis_is_the_analysis_of_the_record_cut_there_and_continued(world):
    server, deal, step = world["server"], world["deal"], len(world["actions"])
    engine, state = fold(world["setup"], world["actions"])
    line = [plays(engine, state)[0]]  # the first play listed (here a pass nobody can avoid), then the next's first
    line.append(plays(*fold(world["setup"], [*world["actions"], *line]))[0])
    path = f"/api/deals/{deal}/analysis"
    assert_error(server.post(path, {"step": step, "actions": line}, anonymous=True), 401, "analysis_hidden")
    answer = server.post(path, {"step": step, "actions": line, "limit_ms": 10_000}, token=world["referee"])
    assert answer.status_code == 200, answer.text
    expected = analyse_actions(world["setup"], [*world["actions"], *line], Budget(limit_ms=20_000))
    assert answer.json()["step"] == step and verdicts(answer.json()) == verdicts(expected)
    assert answer.json()["side_wins"] == expected["side_wins"]


def test_an_appeals_board_asks_the_appeal_and_names_no_deal(world):
    server, event = world["server"], world["event"]
    appeal = event.file(step=26).json()["appeal_id"]
    body = {"from_step": 26, "actions": []}
    roomy = {**body, "limit_ms": 10_000}  # the most the API allows: whole on a loaded machine too
    assert server.post(f"/api/appeals/{appeal}/analysis", roomy, anonymous=True).status_code == 401
    answer = server.post(f"/api/appeals/{appeal}/analysis", roomy, token=event.committee)
    assert answer.status_code == 200, answer.text
    setup = DealSetup("doudizhu", {}, EXAMPLE_RECORD["seats"], EXAMPLE_RECORD["first"], EXAMPLE_RECORD["hands"],
                      EXAMPLE_RECORD["kitty"], {})
    expected = analyse_actions(setup, EXAMPLE_RECORD["actions"][:26], Budget(limit_ms=20_000))
    assert verdicts(answer.json()) == verdicts(expected) and answer.json()["appeal_id"] == appeal
    assert "deal_id" not in answer.json() and "step" not in answer.json()
    # The sandbox: the plays as the analysis lists them when asked (seconds for a large hand: the sandbox's own form
    # does not ask), and the passes nobody can avoid when asked.
    assert server.post(f"/api/appeals/{appeal}/sandbox", body, token=event.committee).json()["plays"] is None
    sandbox = server.post(f"/api/appeals/{appeal}/sandbox", {**body, "list_plays": True}, token=event.committee).json()
    assert sorted(map(key, sandbox["plays"])) == sorted(key(m["action"]) for m in expected["moves"])
    ace = {"seat": 1, "type": "play", "cards": ["D2"]}
    after = server.post(f"/api/appeals/{appeal}/sandbox", {"from_step": 26, "actions": [ace], "forced": True},
                        token=event.committee).json()
    assert after["forced"] == len(after["actions"]) - 1 >= 1  # nobody beats the 2 but the rocket, played already
