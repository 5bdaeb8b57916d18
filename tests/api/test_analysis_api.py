"""GET /api/deals/<id>/analysis over real HTTP on a real SQLite store: the same answer as `fupan analyse`, a live
deal's only for its referee and the organiser (the public 401, a referee of another table 403), a finished one
for anyone; a bad step, a step with no card play and a step beyond the budget each in their documented shape."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from conftest import LiveServer, Store
from game_support import open_http_table
from test_api_http import assert_error

from domain.kernel.engine import Action, DealSetup
from domain.services.analysis import analyse_actions
from domain.solver.search import Budget
from fixtures.positions import real_endgame

# The most time the API allows a query: the answers compared below with a roomy direct analysis are then whole
# on a loaded machine too (the default 2,000 ms is wall time).
ROOMY = {"limit_ms": 10_000}

def verdicts(answer: dict) -> list:
    return [(move["action"], move.get("wins", move.get("points"))) for move in answer["moves"]]


def table_with_deal(server: LiveServer, name: str, setup: DealSetup, actions: list[Action]) -> tuple[str, str]:
    """A 斗地主 tournament `name` opened over HTTP, its table dealt `setup` and `actions` recorded: the match id and
    the deal id."""
    _, match = open_http_table(server, name, "doudizhu", setup.seats, setup.first)
    created = server.post(f"/api/matches/{match}/deals", {"hands": setup.hands, "kitty": setup.kitty,
                                                           "first": setup.first})
    assert created.status_code == 201, created.text
    deal = created.json()["id"]
    for action in actions:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    return match, deal


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Iterator[tuple[LiveServer, dict]]:
    """The module's server, the endgame its tests play, and a referee of another table."""
    server = LiveServer(Store.sqlite(tmp_path_factory.mktemp("analysis") / "fupan.sqlite")).start()
    found = real_endgame("doudizhu", random.Random(21), 7)
    assert found is not None
    setup, actions, _ = found
    _, other = open_http_table(server, "另一杯", "doudizhu", setup.seats, setup.first)
    assert server.service is not None
    _, stranger = server.service.tokens.create("referee", [other], "another table")
    yield server, {"setup": setup, "actions": actions, "stranger": stranger}
    server.stop()


@pytest.fixture
def live(shared, request) -> tuple[LiveServer, dict]:
    """A live deal of this test's own (its own tournament: one test finishing its deal changes no other's), played
    up to the endgame, and its table's referee."""
    server, world = shared
    setup = world["setup"]
    _, match = open_http_table(server, f"分析杯 {request.node.name[5:40]}", "doudizhu", setup.seats, setup.first)
    created = server.post(f"/api/matches/{match}/deals", {"hands": setup.hands, "kitty": setup.kitty,
                                                            "first": setup.first})
    assert created.status_code == 201, created.text
    deal = created.json()["id"]
    for action in world["actions"]:
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    assert server.service is not None
    _, referee = server.service.tokens.create("referee", [match], "table 1")
    return server, {**world, "deal": deal, "referee": referee}


def test_a_live_deal_is_analysed_for_its_referee_and_the_organiser_only(live):
    server, world = live
    path = f"/api/deals/{world['deal']}/analysis"
    assert_error(server.get(path), 401, "analysis_hidden")
    assert_error(server.get(path, token=world["stranger"]), 403, "analysis_hidden")
    mine = server.get(path, params=ROOMY, token=world["referee"])
    assert mine.status_code == 200, mine.text
    answer = mine.json()
    expected = analyse_actions(world["setup"], world["actions"], Budget(limit_ms=20_000))
    assert answer["deal_id"] == world["deal"] and answer["step"] == len(world["actions"])
    assert verdicts(answer) == verdicts(expected)
    assert (answer["to_act"], answer["side"], answer["side_wins"]) == \
        (expected["to_act"], expected["side"], expected["side_wins"])
    assert answer["line"] == expected["line"]
    organiser = server.get(path, token=server.organiser).json()
    assert verdicts(organiser) == verdicts(expected)


def test_bad_steps_steps_without_play_and_steps_beyond_the_budget(live):
    server, world = live
    path = f"/api/deals/{world['deal']}/analysis"
    total = len(world["actions"])
    assert_error(server.get(path, params={"step": total + 1}, token=server.organiser), 400, "bad_step")
    assert_error(server.get(path, params={"step": -1}, token=server.organiser), 400, "invalid_query")
    assert_error(server.get(path, params={"limit_ms": 0}, token=server.organiser), 400, "invalid_query")
    bidding = server.get(path, params={"step": 0}, token=server.organiser)
    assert bidding.status_code == 200 and bidding.json()["not_in_play"] is True
    assert bidding.json()["phase"] == "bidding"
    first_lead = next(i for i, a in enumerate(world["actions"]) if a["type"] == "play")
    large = server.get(path, params={"step": first_lead, "limit_ms": 5}, token=server.organiser)
    assert large.status_code == 200
    assert large.json()["too_large"] is True and large.json()["ms"] < 2000
    assert_error(server.get("/api/deals/no-such-deal/analysis", token=server.organiser), 404,
                 server.get("/api/deals/no-such-deal", token=server.organiser).json()["error"]["code"])


def test_a_finished_deal_is_analysed_for_anyone(live):
    server, world = live
    deal = world["deal"]
    rest = server.get(f"/api/deals/{deal}/analysis", params=ROOMY, token=server.organiser).json()["line"]
    for action in rest:  # play the deal out along the solver's own line
        assert server.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    assert server.get(f"/api/deals/{deal}").json()["status"]["finished"] is True
    public = server.get(f"/api/deals/{deal}/analysis", params={"step": len(world["actions"]), **ROOMY})
    assert public.status_code == 200
    assert verdicts(public.json()) == verdicts(analyse_actions(world["setup"], world["actions"], Budget()))
    end = server.get(f"/api/deals/{deal}/analysis").json()
    assert end["not_in_play"] is True and end["phase"] == "finished"


def test_steps_count_retractions_as_the_viewer_does(live):
    """A retracted action is taken back: the analysis after it is the one before it, at the step the viewer
    shows (its frames count actions and retractions)."""
    server, world = live
    setup, actions = world["setup"], world["actions"]
    _, deal = table_with_deal(server, "撤回杯", setup, actions)
    mistaken = analyse_actions(setup, actions, Budget(limit_ms=20_000))["line"][0]
    assert server.post(f"/api/deals/{deal}/actions", {"action": mistaken}).status_code == 201
    taken = server.post(f"/api/deals/{deal}/retractions", {"at": len(actions), "reason": "记错 recorded wrongly"})
    assert taken.status_code == 201, taken.text
    answer = server.get(f"/api/deals/{deal}/analysis", params=ROOMY, token=server.organiser).json()
    frames = server.get(f"/ui-api/deals/{deal}/frames", params={"viewpoint": "referee"}, token=server.organiser)
    assert answer["step"] == len(actions) + 2 == frames.json()["total"]
    assert verdicts(answer) == verdicts(analyse_actions(setup, actions, Budget(limit_ms=20_000)))
