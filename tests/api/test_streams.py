"""The live streams over real HTTP (docs/streams.md): what each event says, resuming with `Last-Event-ID`, a table
stream moving on to the table's next deal, a tournament's standings, and the rights of a viewpoint. That no
stream carries a hidden card is tests/api/test_security_leaks.py's."""

from __future__ import annotations

from conftest import EXAMPLE_RECORD, LiveServer
from streams import Events, parse

PLAYERS = ["张三", "李四", "王五"]
HANDS = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}


def table(server: LiveServer, delay: dict | None = None) -> tuple[str, str]:
    """A table of a tournament whose public sees each play at once (no broadcast delay), unless `delay` is given."""
    tournament = server.post("/api/tournaments", {"name": "直播杯", "game": "doudizhu"}).json()["id"]
    set_delay = server.post(f"/api/tournaments/{tournament}/delay", delay or {"kind": "deals", "amount": 0})
    assert set_delay.status_code == 200, set_delay.text
    for name in PLAYERS:
        server.post(f"/api/tournaments/{tournament}/players", {"name": name})
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS, "first": 2}).json()
    return tournament, match["id"]


def record(server: LiveServer, deal: str, actions: list[dict]) -> int:
    version = 0
    for action in actions:
        response = server.post(f"/api/deals/{deal}/actions", {"action": action})
        assert response.status_code == 201, response.text
        version = response.json()["version"]
    return version


def test_a_deal_stream_tells_each_change_with_its_version_and_the_callers_step(server):
    _, match = table(server)
    deal = server.post(f"/api/matches/{match}/deals", HANDS).json()["id"]
    events = Events(f"{server.url}/api/deals/{deal}/stream")
    try:
        assert events.status == 200 and events.response.headers["Content-Type"].startswith("text/event-stream")
        first = events.next()
        assert first["event"] == "deal" and first["data"] == {"deal_id": deal, "version": 1, "step": 0, "total": 0,
                                                              "closed": False, "action": None}
        for step, action in enumerate(EXAMPLE_RECORD["actions"][:3], start=1):
            version = record(server, deal, [action])
            told = events.until(lambda e, v=version: e["data"]["version"] == v)
            assert told["data"]["step"] == told["data"]["total"] == step
            assert told["data"]["action"] == {**action, **({"cards": action["cards"]} if "cards" in action else {})}
            assert int(told["id"]) > int(first["id"])
    finally:
        events.close()


def test_last_event_id_resumes_with_what_was_missed_and_a_plain_read_ends(server):
    _, match = table(server)
    deal = server.post(f"/api/matches/{match}/deals", HANDS).json()["id"]
    now = parse(server.get(f"/api/deals/{deal}/stream").text)  # no event-stream Accept: the state now, then the end
    assert [e["data"]["version"] for e in now] == [1]
    version = record(server, deal, EXAMPLE_RECORD["actions"][:4])
    missed = parse(server.get(f"/api/deals/{deal}/stream", headers={"Last-Event-ID": now[0]["id"]}).text)
    assert [(e["data"]["version"], e["data"]["step"]) for e in missed] == [(version, 4)]
    again = parse(server.get(f"/api/deals/{deal}/stream", headers={"Last-Event-ID": missed[0]["id"]}).text)
    assert again == []  # nothing since
    # An id not of ours (another server's, garbage) starts the stream now, as without one.
    fresh = parse(server.get(f"/api/deals/{deal}/stream", headers={"Last-Event-ID": "x.y"}).text)
    assert [e["data"]["version"] for e in fresh] == [version]


def test_a_table_stream_moves_on_to_the_next_deal_and_a_tournament_stream_to_the_standings(server):
    tournament, match = table(server)
    tables = Events(f"{server.url}/api/matches/{match}/stream")
    events = Events(f"{server.url}/api/tournaments/{tournament}/stream")
    try:
        assert tables.next()["data"]["current_deal"] is None
        assert events.next()["data"]["tables"] == [match]
        deal = server.post(f"/api/matches/{match}/deals", HANDS).json()["id"]
        started = tables.until(lambda e: e["event"] == "table")
        assert started["data"]["current_deal"] == deal and started["data"]["deals"] == 1
        version = record(server, deal, EXAMPLE_RECORD["actions"][:2])
        assert tables.until(lambda e: e["event"] == "deal" and e["data"]["version"] == version)["data"]["step"] == 2
        record(server, deal, EXAMPLE_RECORD["actions"][2:])  # to its end: scored by the table
        closed = tables.until(lambda e: e["event"] == "deal" and e["data"]["closed"])
        assert closed["data"]["deal_id"] == deal
        assert events.until(lambda e: e["event"] == "standings")["data"] == {"tournament_id": tournament}
        standings = server.get(f"/api/tournaments/{tournament}/standings").json()
        assert standings["rows"] and standings["as_of"] >= int(closed["id"].split(".")[0])
    finally:
        tables.close()
        events.close()


def test_a_viewpoint_the_caller_may_not_take_is_refused_before_any_event(server):
    _, match = table(server)
    deal = server.post(f"/api/matches/{match}/deals", HANDS).json()["id"]
    refused = Events(f"{server.url}/api/deals/{deal}/stream", params={"viewpoint": "seat:0"})
    assert refused.status == 401 and refused.response.json()["error"]["code"] == "hidden_view"
    refused.close()
    _, referee = server.service.tokens.create("referee", [match], "table 1")
    allowed = Events(f"{server.url}/api/deals/{deal}/stream", params={"viewpoint": "seat:0"}, token=referee)
    assert allowed.status == 200 and allowed.next()["data"]["step"] == 0
    allowed.close()
    assert server.get("/api/deals/not-a-deal/stream").status_code == 404


def test_a_revoked_token_ends_its_stream_at_once(server):
    _, match = table(server)
    deal = server.post(f"/api/matches/{match}/deals", HANDS).json()["id"]
    token_id, referee = server.service.tokens.create("referee", [match], "table 1")
    events = Events(f"{server.url}/api/deals/{deal}/stream", params={"viewpoint": "referee"}, token=referee)
    try:
        assert events.next()["data"]["step"] == 0
        server.service.tokens.revoke(str(token_id["id"] if isinstance(token_id, dict) else token_id))
        try:
            told = events.next()
        except EOFError:
            told = None
        assert told is None, told
    finally:
        events.close()
    again = Events(f"{server.url}/api/deals/{deal}/stream", params={"viewpoint": "referee"}, token=referee)
    assert again.status == 401
    again.close()


def test_a_score_slip_is_told_as_a_deal_without_steps_and_the_stream_goes_on(server):
    _, match = table(server)
    tables = Events(f"{server.url}/api/matches/{match}/stream")
    try:
        tables.next()
        slip = server.post(f"/api/matches/{match}/slips", {"facts": {"landlord": 2, "winner": "farmers"}})
        assert slip.status_code == 201, slip.text
        told = tables.until(lambda e: e["event"] == "deal")
        assert told["data"]["closed"] and told["data"]["step"] == told["data"]["total"] == 0
        deal = server.post(f"/api/matches/{match}/deals", HANDS).json()["id"]  # and the next deal, live
        version = record(server, deal, EXAMPLE_RECORD["actions"][:1])
        assert tables.until(lambda e: e["event"] == "deal" and e["data"]["version"] == version)["data"]["step"] == 1
    finally:
        tables.close()


def test_streams_past_the_servers_places_are_refused_and_a_plain_read_still_answers(store):
    capped = LiveServer(store, {"FUPAN_STREAMS_MAX": 1}).start()
    try:
        _, match = table(capped)
        first = Events(f"{capped.url}/api/matches/{match}/stream")
        assert first.status == 200 and first.next()["event"] == "table"
        second = Events(f"{capped.url}/api/matches/{match}/stream")
        assert second.status == 429 and second.response.json()["error"]["code"] == "too_many_streams"
        assert second.response.headers["Retry-After"]
        second.close()
        assert [e["event"] for e in parse(capped.get(f"/api/matches/{match}/stream").text)] == ["table"]
        first.close()
    finally:
        capped.stop()


def test_under_the_default_one_deal_delay_a_public_stream_tells_changes_but_no_step_of_the_live_deal(server):
    """The stream reads through the replay's view for its caller, so the broadcast delay (docs/SECURITY.md §4b)
    holds on it as on the pages: the public learns that the deal moved on, never a play of it."""
    _, match = table(server, {"kind": "deals", "amount": 1})
    deal = server.post(f"/api/matches/{match}/deals", HANDS).json()["id"]
    version = record(server, deal, EXAMPLE_RECORD["actions"][:4])
    told = parse(server.get(f"/api/deals/{deal}/stream").text)
    assert [(e["data"]["version"], e["data"]["step"], e["data"]["action"]) for e in told] == [(version, 0, None)]
