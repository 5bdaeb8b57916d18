"""The public delay of a live deal (issue 25 scope 2; docs/SECURITY.md "Broadcast delay"), over real HTTP on a
SQLite file and on PostgreSQL: the organiser's setting and its refusals, and what the public reads under each kind
of delay — deals, tricks (升级), minutes — while the table's referee reads every step as before.

The minutes delay is read on a clock the test moves (`Fupan.use_clock`), never the wall clock.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from conftest import EXAMPLE_RECORD, LiveServer
from streams import Events

from domain.services.fupan import Fupan

PLAYERS = EXAMPLE_RECORD["seats"]
ACTIONS = EXAMPLE_RECORD["actions"]
SHENGJI = json.loads((Path(__file__).parents[2] / "fixtures" / "shengji_s001.json").read_text(encoding="utf-8"))
CJK = re.compile(r"[\u4e00-\u9fff]")


def open_table(server: LiveServer, name: str, delay: dict[str, Any] | None = None) -> tuple[str, str, str]:
    """(tournament, match, referee token): a 斗地主 tournament with the example's players at table 1."""
    tournament = server.post("/api/tournaments", {"name": name, "game": "doudizhu"}).json()["id"]
    for player in PLAYERS:
        server.post(f"/api/tournaments/{tournament}/players", {"name": player})
    if delay is not None:
        assert server.post(f"/api/tournaments/{tournament}/delay", delay).status_code == 200
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS,
                                                                   "first": 2}).json()["id"]
    assert server.service is not None
    _, referee = server.service.tokens.create("referee", [match], "table 1")
    return tournament, match, referee


def start_deal(server: LiveServer, match: str, actions: list[dict[str, Any]]) -> str:
    body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
    answer = server.post(f"/api/matches/{match}/deals", body)
    assert answer.status_code == 201, answer.text
    deal = answer.json()["id"]
    play(server, deal, actions)
    return deal


def play(server: LiveServer, deal: str, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        answer = server.post(f"/api/deals/{deal}/actions", {"action": action})
        assert answer.status_code == 201, answer.text


def public_total(server: LiveServer, deal: str) -> int:
    answer = server.get(f"/api/deals/{deal}/replay/all", params={"viewpoint": "public"})
    assert answer.status_code == 200, answer.text
    return answer.json()["total"]


def test_the_delay_is_one_deal_until_the_organiser_sets_another_and_refusals_say_why_in_both_languages(server):
    tournament, match, referee = open_table(server, "延迟设置杯")
    path = f"/api/tournaments/{tournament}/delay"
    assert server.get(path).json()["delay"] == {"kind": "deals", "amount": 1}
    set_once = server.post(path, {"kind": "minutes", "amount": 5})
    assert set_once.status_code == 200 and set_once.json()["delay"] == {"kind": "minutes", "amount": 5}
    again = server.post(path, {"kind": "minutes", "amount": 5})  # the same delay again stores nothing
    assert again.json()["version"] == set_once.json()["version"]
    for body, status, code in [
        ({"kind": "hours", "amount": 1}, 400, "invalid_body"),
        ({"kind": "deals", "amount": "1"}, 400, "invalid_body"),
        ({"kind": "deals"}, 400, "invalid_body"),
        ({"kind": "deals", "amount": 11}, 422, "bad_delay"),
        ({"kind": "minutes", "amount": 0}, 422, "bad_delay"),
        ({"kind": "tricks", "amount": 2}, 422, "bad_delay"),  # tricks are 升级's; this is 斗地主
    ]:
        answer = server.post(path, body)
        assert answer.status_code == status, (body, answer.text)
        error = answer.json()["error"]
        assert set(error) == {"code", "message", "message_zh", "details"} and error["code"] == code, error
        assert CJK.search(error["message_zh"]) and not CJK.search(error["message"]), error
    assert server.post(path, {"kind": "deals", "amount": 2}, anonymous=True).status_code == 401
    assert server.post(path, {"kind": "deals", "amount": 2}, token=referee).status_code == 403
    assert server.get(path).json()["delay"] == {"kind": "minutes", "amount": 5}
    # The setting is an event of the tournament's log: it survives a restart.
    server.restart()
    assert server.get(path).json()["delay"] == {"kind": "minutes", "amount": 5}


def test_a_one_deal_delay_shows_nothing_of_the_live_deal_to_the_public_and_all_of_it_once_it_is_over(server):
    tournament, match, referee = open_table(server, "延迟一局杯")
    deal = start_deal(server, match, ACTIONS[:6])
    played = {card for action in ACTIONS[:6] for card in action.get("cards", [])}
    for path, params in [(f"/api/deals/{deal}/replay/all", {"viewpoint": "public"}),
                         (f"/api/deals/{deal}/replay", {"viewpoint": "public"}),
                         (f"/api/deals/{deal}/events", None), (f"/api/deals/{deal}", None),
                         (f"/ui-api/deals/{deal}/frames", None), (f"/api/matches/{match}/broadcast", None),
                         (f"/ui-api/matches/{match}/broadcast", None), (f"/deals/{deal}", None),
                         (f"/deals/{deal}/record", None), (f"/matches/{match}", None),
                         (f"/api/deals/{deal}/verify", None)]:
        answer = server.get(path, params=params)
        assert answer.status_code == 200, (path, answer.text)
        assert not {card for card in played if f'"{card}"' in answer.text}, path
    public = server.get(f"/api/deals/{deal}/replay/all", params={"viewpoint": "public"}).json()
    assert (public["total"], public["delayed"], public["closed"]) == (0, 6, False)
    assert [e["type"] for e in server.get(f"/api/deals/{deal}/events").json()] == ["Deal.Created"]
    refused = server.get(f"/api/deals/{deal}/replay", params={"viewpoint": "public", "step": 3})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_step"
    # The table's referee sees every step, as without a delay.
    full = server.get(f"/api/deals/{deal}/replay/all", params={"viewpoint": "referee"}, token=referee).json()
    assert full["total"] == 6 and "delayed" not in full
    followed = server.get(f"/api/matches/{match}/broadcast").json()
    assert followed["following"] is None and followed["held"] == [{"deal_id": deal, "number": 1, "delayed": 6}]
    listing = server.get(f"/api/tournaments/{tournament}/broadcast").json()
    assert listing["delay"] == {"kind": "deals", "amount": 1}
    assert [(t["match_id"], t["names"], t["status"]) for t in listing["tables"]] == [(match, PLAYERS, "live")]
    play(server, deal, ACTIONS[6:])
    shown = server.get(f"/api/deals/{deal}/replay/all", params={"viewpoint": "public"}).json()
    assert shown["closed"] and shown["total"] == len(ACTIONS)
    assert server.get(f"/api/deals/{deal}/record").status_code == 200
    followed = server.get(f"/api/matches/{match}/broadcast").json()
    assert followed["following"]["deal_id"] == deal and followed["following"]["number"] == 1


def test_a_two_deal_delay_holds_a_finished_deal_and_its_record_until_the_next_is_over(server):
    tournament, match, _ = open_table(server, "延迟两局杯", {"kind": "deals", "amount": 2})
    first = start_deal(server, match, ACTIONS)
    assert server.get(f"/api/deals/{first}/record").status_code == 401
    explained = server.get(f"/api/tournaments/{tournament}/standings/{PLAYERS[0]}/explain")
    assert explained.status_code == 200, explained.text
    events = [e for table in explained.json()["matches"] for d in table["deals"] for e in d["events"]]
    assert events and not [e for e in events if "action" in e or "result" in e], "a held deal's plays explained"
    assert any(e.get("withheld") for e in events)
    held = server.get(f"/api/deals/{first}").json()
    assert not held["finished"] and held["seed"] is None and held["result"] is None and held["digest"] is None
    assert public_total(server, first) == 0
    assert server.get(f"/api/matches/{match}/records").text.strip() == ""
    # the board of variations shows every hand: a held deal's is no more public than its analysis
    assert server.get(f"/api/deals/{first}/analysis?step=3").status_code == 401
    assert server.post(f"/api/deals/{first}/variation", {"step": 3}, anonymous=True).status_code == 401
    assert server.post(f"/api/deals/{first}/analysis", {"step": 3}, anonymous=True).status_code == 401
    assert server.post(f"/api/deals/{first}/variation", {"step": 3}).status_code == 200  # the organiser's
    second = start_deal(server, match, ACTIONS[:5])
    assert public_total(server, first) == 0 and public_total(server, second) == 0
    play(server, second, ACTIONS[5:])
    assert server.get(f"/api/deals/{first}/record").status_code == 200
    assert public_total(server, first) == len(ACTIONS)
    assert server.get(f"/api/deals/{second}/record").status_code == 401
    followed = server.get(f"/api/matches/{match}/broadcast").json()
    assert followed["following"]["deal_id"] == first and [d["number"] for d in followed["held"]] == [2]


class MovedClock:
    """'Now' as the test sets it."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def test_a_minutes_delay_shows_the_steps_recorded_that_long_ago_and_commentators_notes_with_them(server):
    _, match, referee = open_table(server, "延迟分钟杯", {"kind": "minutes", "amount": 10})
    deal = start_deal(server, match, ACTIONS[:4])
    assert server.service is not None
    _, commentator = server.service.tokens.create("commentator", label="解说")
    note = {"step": 2, "glyph": "!", "text": "好牌", "text_en": "Good", "author": "解说"}
    assert server.post(f"/api/deals/{deal}/annotations", note, token=commentator).status_code == 201
    referee_note = {"step": 1, "text": "他手里有红桃A"}  # a referee's words may name hidden cards
    assert server.post(f"/api/deals/{deal}/annotations", referee_note, token=referee).status_code == 201
    times = [datetime.fromisoformat(e["time"]) for e in server.get(f"/api/deals/{deal}/events", token=referee).json()
             if e["type"] == "Deal.ActionRecorded"]
    assert len(times) == 4
    clock = MovedClock(times[0] - timedelta(seconds=1))
    service: Fupan = server.service
    service.use_clock(clock)
    assert public_total(server, deal) == 0
    clock.now = times[1] + timedelta(minutes=10)  # the first two steps are ten minutes old
    public = server.get(f"/api/deals/{deal}/replay/all", params={"viewpoint": "public"}).json()
    assert (public["total"], public["delayed"]) == (2, 2)
    assert public["frames"][2]["annotations"] == [note] and public["frames"][1]["annotations"] == []
    events = server.get(f"/api/deals/{deal}/events").json()
    assert sum(e["type"] == "Deal.ActionRecorded" for e in events) == 2
    clock.now = times[3] + timedelta(minutes=10)
    assert public_total(server, deal) == 4
    play(server, deal, ACTIONS[4:])  # over, but its end is not ten minutes old: the record waits
    assert server.get(f"/api/deals/{deal}/record").status_code == 401
    ended = next(datetime.fromisoformat(e["time"]) for e in server.get(f"/api/deals/{deal}/events",
                                                                        token=referee).json()
                 if e["type"] == "Deal.Finished")
    clock.now = ended + timedelta(minutes=9)
    assert server.get(f"/api/deals/{deal}/record").status_code == 401
    clock.now = ended + timedelta(minutes=10)
    assert server.get(f"/api/deals/{deal}/record").status_code == 200
    assert public_total(server, deal) == len(ACTIONS)


def test_a_minutes_delay_moves_a_public_stream_on_as_plays_age_with_nothing_new_recorded(server):
    """The last plays of a deal age past the delay when nobody records any more: the public's stream tells each
    release at its next heartbeat, without a change to wake it (docs/streams.md)."""
    _, match, referee = open_table(server, "延迟推送杯", {"kind": "minutes", "amount": 10})
    deal = start_deal(server, match, ACTIONS[:4])
    times = [datetime.fromisoformat(e["time"]) for e in server.get(f"/api/deals/{deal}/events", token=referee).json()
             if e["type"] == "Deal.ActionRecorded"]
    clock = MovedClock(times[0] - timedelta(seconds=1))
    assert server.service is not None and server.app is not None
    server.service.use_clock(clock)
    server.app.config["FUPAN_STREAM_HEARTBEAT"] = 0.05
    events = Events(f"{server.url}/api/deals/{deal}/stream")
    seat = Events(f"{server.url}/api/deals/{deal}/stream", token=referee, params={"viewpoint": "referee"})
    try:
        first = events.next()["data"]
        assert (first["step"], first["total"], first["action"]) == (0, 0, None)
        assert seat.next()["data"]["step"] == 4  # the referee's view is not delayed
        clock.now = times[1] + timedelta(minutes=10)  # the first two plays are ten minutes old
        told = events.next()["data"]
        assert (told["version"], told["step"], told["total"]) == (first["version"], 2, 2)
        assert told["action"] == ACTIONS[1]
        clock.now = times[3] + timedelta(minutes=10)
        assert (events.next()["data"]["step"]) == 4
    finally:
        events.close()
        seat.close()


def test_a_tricks_delay_keeps_the_public_whole_tricks_behind_a_shengji_table(server):
    table = SHENGJI["rounds"][0]["tables"][0]
    record = table["deals"][0]
    tournament = server.post("/api/tournaments", {"name": "升级延迟杯", "game": "shengji",
                                                  "options": SHENGJI["tournament"]["options"]}).json()["id"]
    for player in table["seats"]:
        server.post(f"/api/tournaments/{tournament}/players", {"name": player})
    assert server.post(f"/api/tournaments/{tournament}/delay", {"kind": "tricks", "amount": 2}).status_code == 200
    match = server.post(f"/api/tournaments/{tournament}/matches",
                        {"table": "1", "seats": table["seats"], "first": table["first"]}).json()["id"]
    body = {"hands": record["hands"], "kitty": record["kitty"], "first": record["first"]}
    deal = server.post(f"/api/matches/{match}/deals", body)
    assert deal.status_code == 201, deal.text
    deal_id = deal.json()["id"]
    recorded = record["actions"][:40]
    play(server, deal_id, recorded)
    full = server.get(f"/api/deals/{deal_id}/replay/all", params={"viewpoint": "referee"},
                      token=server.organiser).json()
    tricks = [frame["view"]["tricks_played"] for frame in full["frames"]]
    assert tricks[-1] >= 3, "a test of nothing"
    expected = tricks.index(tricks[-1] - 2)  # the step at which the trick two before the last closed
    public = server.get(f"/api/deals/{deal_id}/replay/all", params={"viewpoint": "public"}).json()
    assert (public["total"], public["delayed"]) == (expected, 40 - expected)
    assert [f["action"] for f in public["frames"]] == [
        f["action"] for f in server.get(f"/api/deals/{deal_id}/replay/all", params={"viewpoint": "public"},
                                        token=server.organiser).json()["frames"][:expected + 1]]
    play(server, deal_id, record["actions"][40:])
    assert public_total(server, deal_id) == len(record["actions"])


def test_an_appeals_review_of_a_held_deal_shows_the_public_no_step_the_delay_holds(server):
    _, match, referee = open_table(server, "延迟申诉杯")
    deal = start_deal(server, match, ACTIONS[:6])
    filed = server.post(f"/api/matches/{match}/appeals", {"against": {"kind": "deal", "deal_id": deal, "step": 5},
                                                          "category": "conduct", "statement": "出牌过慢"},
                        token=referee)
    assert filed.status_code == 201, filed.text
    appeal = filed.json()["appeal_id"]
    public = server.get(f"/api/appeals/{appeal}/frames", params={"viewpoint": "public"})
    assert public.status_code == 200, public.text
    assert [frame["step"] for frame in public.json()["frames"]] == [0]
    played = {card for action in ACTIONS[:6] for card in action.get("cards", [])}
    assert not {card for card in played if f'"{card}"' in public.text}
    judged = server.get(f"/api/appeals/{appeal}/frames", params={"viewpoint": "public"}, token=referee).json()
    assert [frame["step"] for frame in judged["frames"]] == list(range(6))
