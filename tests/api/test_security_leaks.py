"""Live-deal leak tests over real HTTP (docs/SECURITY.md §4 "Hidden cards").

While a deal is live, no response a caller may get shows a card that caller could not see at the table:
for the public every card still in a hand (and the kitty before it is shown), for seat N the other seats'
cards. The check is on the raw response text: every card code (`"S10"`, `"BJ"`) and, on pages, every card
glyph (`♠10`). Played cards and the shown kitty are public, so the hidden set is computed from the referee's
view at the same step, never from the response under test.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store

from cli.main import main as fupan
from domain.kernel.cards import JOKERS
from domain.model.token import LOCAL
from fixtures.random_play.shengji import random_record
from replay_ui.shared.cards import card_text

PLAYERS = ["张三", "李四", "王五"]
LIVE_STEPS = 4  # seat 2 called, both others passed (the kitty is shown), seat 2 led a straight
CARD = re.compile(r'"((?:[SHCD](?:10|[2-9JQKA]))|LJ|BJ)"')


def quoted_cards(text: str) -> set[str]:
    return set(CARD.findall(text))


def glyphs_in(text: str, cards: set[str]) -> set[str]:
    """Hidden cards whose printed form (♠10; not jokers, whose names are also labels) is on a page."""
    return {code for code in cards if code not in JOKERS and card_text(code, "zh") in text}


class LiveTable:
    """Table 1: deal 1 played to its end (published), deal 2 live after LIVE_STEPS actions."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.tournament = tournament = server.post("/api/tournaments", {"name": "保密杯", "game": "doudizhu"}).json()[
            "id"]
        for name in PLAYERS:
            server.post(f"/api/tournaments/{tournament}/players", {"name": name})
        # No public delay: these tests hold the public form of a live deal's every step (test_broadcast_delay.py
        # holds the delay).
        server.post(f"/api/tournaments/{tournament}/delay", {"kind": "deals", "amount": 0})
        self.match = server.post(f"/api/tournaments/{tournament}/matches",
                                 {"table": "1", "seats": PLAYERS, "first": 2}).json()["id"]
        other = server.post(f"/api/tournaments/{tournament}/matches",
                            {"table": "2", "seats": PLAYERS, "first": 0}).json()["id"]
        body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
        self.closed = server.post(f"/api/matches/{self.match}/deals", body).json()["id"]
        for action in EXAMPLE_RECORD["actions"]:
            server.post(f"/api/deals/{self.closed}/actions", {"action": action})
        self.live = server.post(f"/api/matches/{self.match}/deals", body).json()["id"]
        for action in EXAMPLE_RECORD["actions"][:LIVE_STEPS]:
            assert server.post(f"/api/deals/{self.live}/actions", {"action": action}).status_code == 201
        assert server.service is not None
        _, self.referee = server.service.tokens.create("referee", [self.match], "table 1")
        _, self.other_referee = server.service.tokens.create("referee", [other], "table 2")
        _, self.appeals = server.service.tokens.create("appeals")

    def referee_view(self, step: int) -> dict[str, Any]:
        response = self.server.get(f"/api/deals/{self.live}/replay", params={"step": step, "viewpoint": "referee"},
                                   token=self.referee)
        assert response.status_code == 200
        return response.json()["view"]

    def hidden(self, step: int, seat: int | None = None) -> set[str]:
        """Cards seat `seat` (None: the public) cannot see at `step`: other hands, the kitty until shown."""
        view = self.referee_view(step)
        kitty = set(view["kitty"])
        cards: set[str] = set()
        for entry in view["seats"]:
            if entry["seat"] != seat and not entry["exposed"]:
                cards |= set(entry["hand"])
        return cards | kitty if view["landlord"] is None else cards - kitty


@pytest.fixture
def table(server: LiveServer) -> LiveTable:
    return LiveTable(server)


def assert_hidden_absent(text: str, hidden: set[str], what: str, *, page: bool = False) -> None:
    assert hidden, "a test of nothing"
    leaked = quoted_cards(text) & hidden
    if page:
        leaked |= glyphs_in(text, hidden)
    assert not leaked, f"{what} shows hidden cards {sorted(leaked)}"


def test_public_endpoints_show_no_hidden_card_of_a_live_deal(server, table):
    hidden = table.hidden(LIVE_STEPS)
    live = table.live
    for path, params in [
        (f"/api/deals/{live}", None),
        (f"/api/deals/{live}/events", None),
        (f"/api/deals/{live}/replay", {"viewpoint": "public"}),
        (f"/api/deals/{live}/replay/all", {"viewpoint": "public"}),
        (f"/api/deals/{live}/verify", None),
        (f"/ui-api/deals/{live}/frames", None),
        (f"/ui-api/deals/{live}/frames", {"viewpoint": "public"}),
    ]:
        response = server.get(path, params=params)
        assert response.status_code == 200, (path, response.text)
        assert_hidden_absent(response.text, hidden, path)
    # The board of variations opened without a token: the page itself, any step asked for (its hands come from an
    # API that refuses the public; test_security_matrix.py holds that refusal).
    for path in (f"/deals/{live}", f"/deals/{live}/record", f"/deals/{live}/board",
                 f"/deals/{live}/board?step={LIVE_STEPS}", f"/deals/{live}/board?step=99"):
        response = server.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        assert_hidden_absent(response.text, hidden, path, page=True)
    standings = server.get(f"/api/tournaments/{table.tournament}/standings")
    assert standings.status_code == 200 and not quoted_cards(standings.text)
    # A player's explanation goes down to single events, of finished deals only: the live one is not in it.
    explained = server.get(f"/api/tournaments/{table.tournament}/standings/{PLAYERS[1]}/explain")
    assert explained.status_code == 200 and table.closed in explained.text and live not in explained.text
    for path in ("/api/deals", f"/api/matches/{table.match}/deals"):  # lists: the live deal's entry
        entry = next(d for d in server.get(path).json() if d["id"] == live)
        assert_hidden_absent(json.dumps(entry), hidden, path)
    for step in range(LIVE_STEPS + 1):  # each step against what was hidden at that step (the kitty at first)
        response = server.get(f"/api/deals/{live}/replay", params={"step": step, "viewpoint": "public"})
        assert_hidden_absent(response.text, table.hidden(step), f"public replay step {step}")


def test_the_kitty_is_hidden_until_it_is_shown_and_played_cards_are_public(server, table):
    before = server.get(f"/api/deals/{table.live}/replay", params={"step": 0, "viewpoint": "public"}).json()
    assert before["view"]["kitty"] is None
    after = server.get(f"/api/deals/{table.live}/replay", params={"viewpoint": "public"}).json()
    assert sorted(after["view"]["kitty"]) == sorted(EXAMPLE_RECORD["kitty"])
    straight = EXAMPLE_RECORD["actions"][3]["cards"]
    assert set(straight) <= quoted_cards(json.dumps(after)) and after["action"]["cards"] == straight


def test_seat_views_show_no_other_seats_hidden_cards(server, table):
    for token in (table.referee, table.appeals, server.organiser):
        for seat in range(3):
            viewpoint = f"seat:{seat}"
            for step in range(LIVE_STEPS + 1):
                response = server.get(f"/api/deals/{table.live}/replay", params={"step": step, "viewpoint": viewpoint},
                                      token=token)
                assert response.status_code == 200, response.text
                assert_hidden_absent(response.text, table.hidden(step, seat), f"{viewpoint} step {step}")
                own = set(response.json()["view"]["seats"][seat]["hand"])
                assert own and own <= quoted_cards(response.text)  # the seat does see its own hand
            every = server.get(f"/api/deals/{table.live}/replay/all", params={"viewpoint": viewpoint}, token=token)
            assert_hidden_absent(every.text, table.hidden(LIVE_STEPS, seat), f"{viewpoint} all steps")


def test_refused_views_and_exports_of_a_live_deal_carry_no_cards(server, table):
    live = table.live
    requests = [(f"/api/deals/{live}/replay", {"viewpoint": vp}) for vp in ("referee", "seat:0", "seat:1", "seat:2")]
    requests += [(f"/api/deals/{live}/replay/all", {"viewpoint": "seat:1"}), (f"/api/deals/{live}/record", None),
                 (f"/ui-api/deals/{live}/frames", {"viewpoint": "seat:0"})]
    for path, params in requests:
        for token, status in ((None, 401), (table.other_referee, 403)):
            response = server.get(path, params=params, token=token)
            assert response.status_code == status, (path, params, response.text)
            assert response.json()["error"]["code"] in ("hidden_view", "deal_not_published")
            assert not quoted_cards(response.text), (path, params)
    # The match's records: the closed deal's for everyone, the live one's only for those who may see it.
    for token, deals in ((None, [table.closed]), (table.other_referee, [table.closed]),
                         (table.referee, [table.closed, live]), (table.appeals, [table.closed, live])):
        response = server.get(f"/api/matches/{table.match}/records", token=token)
        assert response.status_code == 200
        assert [json.loads(line)["meta"]["deal_id"] for line in response.text.splitlines()] == deals
    record = server.get(f"/api/deals/{live}/record", token=table.referee).json()
    assert record["hands"] == EXAMPLE_RECORD["hands"] and len(record["actions"]) == LIVE_STEPS


def test_events_of_a_live_deal_withhold_the_hands_until_it_is_closed(server, table):
    public = server.get(f"/api/deals/{table.live}/events").json()
    created = public[0]
    assert created["type"] == "Deal.Created" and created["payload"]["withheld"] == ["hands", "kitty"]
    assert "hands" not in created["payload"] and "kitty" not in created["payload"]
    full = server.get(f"/api/deals/{table.live}/events", token=table.referee).json()
    assert full[0]["payload"]["hands"] == EXAMPLE_RECORD["hands"]
    # The same chain, fewer fields, and no digest: one would confirm a guess of the hands (§4a).
    assert [e["version"] for e in public] == [e["version"] for e in full] and all(e["digest"] for e in full)
    assert {e["digest"] for e in public} == {None}
    closed = server.get(f"/api/deals/{table.closed}/events").json()
    assert closed[0]["payload"]["hands"] == EXAMPLE_RECORD["hands"]  # published: the whole record is public


def test_annotations_of_a_live_deal_are_withheld_from_the_public_until_it_is_closed(server):
    deal = server.post("/api/deals", {"game": "doudizhu", "seats": PLAYERS, "first": 2, "key": "note",
                                      "hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"]}).json()["id"]
    server.post(f"/api/deals/{deal}/actions", {"action": EXAMPLE_RECORD["actions"][0]})
    note = "李四手里有 \"S2\" 和 \"H2\""  # a referee's note naming hidden cards
    assert server.post(f"/api/deals/{deal}/annotations", {"step": 1, "text": note, "author": "裁判"}).status_code == 201
    for path, params in [(f"/api/deals/{deal}", None), (f"/api/deals/{deal}/events", None),
                         (f"/api/deals/{deal}/replay", {"viewpoint": "public", "step": 1}),
                         (f"/api/deals/{deal}/replay/all", {"viewpoint": "public"})]:
        text = server.get(path, params=params).text
        assert "李四手里有" not in text and not {"S2", "H2"} & quoted_cards(text), path
    organiser = server.get(f"/api/deals/{deal}", token=server.organiser).json()
    assert organiser["annotations"] == [{"step": 1, "glyph": "", "text": note, "text_en": "", "author": "裁判"}]
    for action in EXAMPLE_RECORD["actions"][1:]:
        server.post(f"/api/deals/{deal}/actions", {"action": action})
    assert server.get(f"/api/deals/{deal}").json()["annotations"] == organiser["annotations"]


def test_a_live_shengji_deal_never_shows_the_buried_kitty(server):
    record = random_record(random.Random(5), foul_rate=0, timeout_rate=0, irregularity_rate=0)
    bury = next(i for i, a in enumerate(record["actions"]) if a["type"] == "bury")
    deal = server.post("/api/deals", {key: record[key] for key in ("game", "seats", "first", "hands", "kitty",
                                                                   "context", "options")}).json()["id"]
    for action in record["actions"][: bury + 1]:
        response = server.post(f"/api/deals/{deal}/actions", {"action": action})
        assert response.status_code == 201, response.text
    buried = record["actions"][bury]["cards"]
    referee = server.get(f"/api/deals/{deal}/replay", params={"viewpoint": "referee"}, token=server.organiser).json()
    public_cards = {c for a in record["actions"][:bury] for c in a.get("cards", [])} | set(
        referee["view"]["kitty_shown"])
    for path, params in [(f"/api/deals/{deal}/events", None), (f"/api/deals/{deal}/replay", {"viewpoint": "public"}),
                         (f"/api/deals/{deal}/replay/all", {"viewpoint": "public"}), (f"/api/deals/{deal}", None)]:
        response = server.get(path, params=params)
        assert response.status_code == 200
        shown = quoted_cards(response.text)
        assert shown <= public_cards, (path, sorted(shown - public_cards))
    events = server.get(f"/api/deals/{deal}/events").json()
    assert events[-1]["type"] == "Deal.ActionRecorded" and events[-1]["payload"]["withheld"] == ["action"]
    assert "cards" not in events[-1]["payload"]["action"]
    full = server.get(f"/api/deals/{deal}/events", token=server.organiser).json()
    assert full[-1]["payload"]["action"]["cards"] == buried


def test_the_cli_is_trusted_and_exports_a_live_deal(server, table, store: Store, monkeypatch, capsys):
    """Whoever runs the CLI has the store itself: `fupan export` gives the live record (documented)."""
    if store.backend == "sqlite":
        args = ["--db", store.env["SQLITE_DBNAME"]]
    else:
        for key, value in store.env.items():
            monkeypatch.setenv(key, value)
        args = []
    assert fupan(["export", table.live, *args]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["hands"] == EXAMPLE_RECORD["hands"]
    assert server.service is not None
    assert server.service.records.export_record(table.live, LOCAL)["hands"] == record["hands"]


def test_appeal_pages_of_a_live_deal_show_no_hidden_card(server, table):
    """An appeal about the live deal (its statement and a sandbox line name hidden cards): its page, its printable
    report, the result-blind review and its frames, and the tournament's appeals show the public no hidden card
    (docs/appeals.md "Pages"); the review's seat frames are refused without rights, as the viewer's are."""
    hidden = table.hidden(LIVE_STEPS)
    named = sorted(hidden)[:2]
    filed = server.post(f"/api/matches/{table.match}/appeals",
                        {"against": {"kind": "deal", "deal_id": table.live, "step": 2}, "category": "conduct",
                         "statement": f"张三 亮出了 {named[0]} 和 {named[1]}", "on_behalf_of": [PLAYERS[1]]},
                        token=table.referee)
    assert filed.status_code == 201, filed.text
    appeal = filed.json()["appeal_id"]
    assert server.post(f"/api/appeals/{appeal}/evidence", {"reference": {"deal_id": table.live, "step": 2,
                                                                          "viewpoint": "seat:1"},
                                                           "note": f"{named[0]} 在李四手里"},
                       token=table.referee).status_code == 201
    for path in (f"/appeals/{appeal}", f"/appeals/{appeal}/report", f"/appeals/{appeal}/review?view=seat:1",
                 f"/appeals/{appeal}/board", f"/tournaments/{table.tournament}/appeals"):
        response = server.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        assert_hidden_absent(response.text, hidden, path, page=True)
    assert "data-withheld" in server.get(f"/appeals/{appeal}/report").text  # the sequence and statement withheld
    frames = server.get(f"/ui-api/appeals/{appeal}/frames", params={"viewpoint": "public"})
    assert frames.status_code == 200
    assert_hidden_absent(frames.text, table.hidden(2), "the review's public frames")
    for token, status in ((None, 401), (table.other_referee, 403)):
        refused = server.get(f"/ui-api/appeals/{appeal}/frames", params={"viewpoint": "seat:1"}, token=token)
        assert refused.status_code == status and not quoted_cards(refused.text)
    # The table's referee may review the seat: that seat's own cards, no other seat's.
    seat = server.get(f"/ui-api/appeals/{appeal}/frames", params={"viewpoint": "seat:1"}, token=table.referee)
    assert seat.status_code == 200
    assert_hidden_absent(seat.text, table.hidden(2, 1), "the review's seat frames")


def test_every_word_about_a_live_deal_stays_hidden_until_it_is_over(server, table):
    """Issue 27 item 4. An appeal about the live deal (its ruling's, committee's and decision's reasons, the
    decision's members, a line's label), an appeal against the finished deal's result whose evidence points at the
    live deal (its statement and note), and a foul's note in the live deal: none of their words reaches the public
    — API answers, events, frames, pages — until the deal is over; the table's referee reads them all along."""
    hidden = table.hidden(LIVE_STEPS)
    said = sorted(hidden)[:2]
    words = f"秘密 {said[0]} {said[1]}"  # each text below names hidden cards, and a marker
    live, path = table.live, "/api/appeals/{}"
    about_live = server.post(f"/api/matches/{table.match}/appeals",
                             {"against": {"kind": "deal", "deal_id": live, "step": 2}, "category": "conduct",
                              "statement": words, "on_behalf_of": [PLAYERS[1]]}, token=table.referee).json()
    first = about_live["appeal_id"]
    line = server.post(f"{path.format(first)}/lines", {"from_step": LIVE_STEPS, "actions":
                                                       EXAMPLE_RECORD["actions"][LIVE_STEPS:], "label": words},
                       token=table.referee)
    assert line.status_code == 201, line.text
    penalty = {"kind": "penalty", "player_ids": [PLAYERS[0]], "points": -1}
    assert server.post(f"{path.format(first)}/ruling", {"outcome": penalty, "reason": words}).status_code == 201
    assert server.post(f"{path.format(first)}/committee", {"reason": words}, token=table.referee).status_code == 201
    decided = server.post(f"{path.format(first)}/decision", {"outcome": penalty, "reason": words,
                                                             "members": [words, "乙", "丙"],
                                                             "vote": {"for": 2, "against": 1, "abstain": 0}},
                          token=table.appeals)
    assert decided.status_code == 201, decided.text
    against_result = server.post(f"/api/matches/{table.match}/appeals",
                                 {"against": {"kind": "result", "deal_id": table.closed}, "category": "conduct",
                                  "statement": words, "on_behalf_of": [PLAYERS[1]]}, token=table.referee).json()
    second = against_result["appeal_id"]
    evidence = server.post(f"{path.format(second)}/evidence", {"reference": {"deal_id": live, "step": 2,
                                                                             "viewpoint": "seat:1"}, "note": words},
                           token=table.referee)
    assert evidence.status_code == 201, evidence.text
    foul = {"seat": 0, "type": "foul", "code": "other", "note": words}
    assert server.post(f"/api/deals/{live}/actions", {"action": foul}, token=table.referee).status_code == 201

    readable = [*(path.format(a) for a in (first, second)), *(f"/appeals/{a}" for a in (first, second)),
                *(f"/appeals/{a}/report" for a in (first, second)), f"/api/tournaments/{table.tournament}/appeals",
                f"/tournaments/{table.tournament}/appeals", f"/api/deals/{live}/events",
                f"/api/deals/{live}/replay/all?viewpoint=public", f"/ui-api/deals/{live}/frames", f"/deals/{live}",
                f"/deals/{live}/record"]
    for where in readable:
        public = server.get(where)
        assert public.status_code == 200, (where, public.text[:300])
        assert "秘密" not in public.text, where
        if second not in where and "appeals" not in where.rpartition("/")[2]:  # the finished deal has the same hands
            assert_hidden_absent(public.text, hidden, where, page=not where.startswith(("/api", "/ui-api")))
    for where in (path.format(first), path.format(second), f"/api/deals/{live}/events"):
        assert "秘密" in server.get(where, token=table.referee).text, where  # the table's referee reads them
    shown = server.get(path.format(first)).json()
    assert shown["ruling"]["reason"] is None and shown["decision"]["members"] is None
    assert {"ruling.reason", "decision.reason", "lines.label", "statement"} <= set(shown["withheld"])
    assert server.get(path.format(second)).json()["statement"] is None

    # The deal over, every word is the public's.
    for action in EXAMPLE_RECORD["actions"][LIVE_STEPS:]:
        assert server.post(f"/api/deals/{live}/actions", {"action": action}).status_code == 201
    for where in (path.format(first), path.format(second), f"/appeals/{first}", f"/api/deals/{live}/events"):
        assert "秘密" in server.get(where).text, where


def test_no_public_hash_of_a_live_deal_confirms_a_guess(server, table):
    """Issue 27 item 5. A deal's chain digests hash its hidden fields (hands, kitty, a buried kitty, notes,
    reasons) with nothing secret: from the public part of the events and one right guess, anyone would recompute
    a digest and see it match. So while the deal is live no public answer or page carries any digest of its
    chain, nor of an appeal's chain about it (a prefix of one neither); its referee reads them, and once the
    deal is over they are public, as every field they cover is."""
    live = table.live
    appeal = server.post(f"/api/matches/{table.match}/appeals",
                         {"against": {"kind": "deal", "deal_id": live, "step": 2}, "category": "conduct",
                          "statement": "看到了底牌", "on_behalf_of": [PLAYERS[1]]}, token=table.referee).json()
    assert server.post(f"/api/deals/{live}/annotations", {"step": 1, "text": "好"},
                       token=table.referee).status_code == 201
    events = server.get(f"/api/deals/{live}/events", token=table.referee).json()
    secret_digests = {e["digest"] for e in events}
    secret_digests |= {e["digest"] for e in server.get(f"/api/appeals/{appeal['appeal_id']}",
                                                        token=table.referee).json()["timeline"]}
    assert len(secret_digests) == len(events) + 1 and None not in secret_digests
    public = [f"/api/deals/{live}", f"/api/deals/{live}/events", f"/api/deals/{live}/verify", "/api/deals",
              f"/api/matches/{table.match}/deals", f"/api/deals/{live}/replay/all?viewpoint=public",
              f"/ui-api/deals/{live}/frames", f"/deals/{live}", f"/deals/{live}/record",
              f"/api/appeals/{appeal['appeal_id']}", f"/appeals/{appeal['appeal_id']}",
              f"/appeals/{appeal['appeal_id']}/report", f"/api/tournaments/{table.tournament}/appeals",
              f"/matches/{table.match}", f"/tournaments/{table.tournament}"]
    for where in public:
        answer = server.get(where)
        assert answer.status_code == 200, (where, answer.text[:200])
        shown = {digest for digest in secret_digests if digest[:16] in answer.text}
        assert not shown, f"{where} shows {len(shown)} digests of the live deal's chains"
    for event in server.get(f"/api/deals/{live}/events").json():
        assert event["digest"] is None
    # Over, every digest is public, and the chain verifies.
    for action in EXAMPLE_RECORD["actions"][LIVE_STEPS:]:
        assert server.post(f"/api/deals/{live}/actions", {"action": action}).status_code == 201
    published = [e["digest"] for e in server.get(f"/api/deals/{live}/events").json()]
    assert published[:len(events)] == [e["digest"] for e in events]
    assert server.get(f"/api/deals/{live}/verify").json()["digest"] == published[-1]


def test_no_stream_of_a_live_deal_carries_a_hidden_card_for_any_caller(server, table):
    """Every caller's streams (docs/streams.md) — the deal's and its table's, in every viewpoint the caller may
    take — while the live deal is played on: each event against what that viewpoint could not see at its step."""
    from streams import Events, parse

    rights = ["public", "referee", "seat:0", "seat:1", "seat:2"]
    callers = [(None, ["public"]), (table.other_referee, ["public"]), (table.referee, rights),
               (table.appeals, rights), (server.organiser, rights)]
    opened: list[tuple[str, Events]] = []
    try:
        for token, viewpoints in callers:
            for viewpoint in viewpoints:
                for path in (f"/api/deals/{table.live}/stream", f"/api/matches/{table.match}/stream"):
                    events = Events(server.url + path, token=token, params={"viewpoint": viewpoint})
                    assert events.status == 200, (path, viewpoint, events.response.text[:200])
                    opened.append((viewpoint, events))
        remaining = EXAMPLE_RECORD["actions"][LIVE_STEPS:-1]  # the deal stays live: its last action is not sent
        assert remaining
        for step, action in enumerate([None, *remaining], start=LIVE_STEPS):
            if action is not None:
                assert server.post(f"/api/deals/{table.live}/actions", {"action": action}).status_code == 201
            for viewpoint, events in opened:
                told = events.until(lambda e, s=step: e["event"] == "deal" and e["data"]["step"] == s)
                if viewpoint != "referee":
                    seat = int(viewpoint.split(":")[1]) if viewpoint.startswith("seat:") else None
                    assert_hidden_absent(told["raw"], table.hidden(step, seat), f"{viewpoint} stream, step {step}")
        for viewpoint, events in opened:  # and every line each stream sent, table events too
            hidden = table.hidden(LIVE_STEPS + len(remaining)) if viewpoint == "public" else None
            if hidden is not None:
                assert_hidden_absent("\n".join(events.texts), hidden, f"{viewpoint} stream")
    finally:
        for _, events in opened:
            events.close()
    # Refused viewpoints carry nothing; a plain read of a public stream (resumed from the start) neither.
    for token, status in ((None, 401), (table.other_referee, 403)):
        for viewpoint in rights[1:]:
            response = server.get(f"/api/deals/{table.live}/stream", params={"viewpoint": viewpoint}, token=token)
            assert response.status_code == status and not quoted_cards(response.text)
    cursor = ".".join("0" for _ in parse(server.get(f"/api/deals/{table.live}/stream").text)[0]["id"].split("."))
    for path in (f"/api/deals/{table.live}/stream", f"/api/matches/{table.match}/stream",
                 f"/api/tournaments/{table.tournament}/stream"):
        told = parse(server.get(path, headers={"Last-Event-ID": cursor}).text)
        assert told
        # The table's first deal is closed, so public: only what is not about it is checked.
        text = "\n".join(e["raw"] for e in told if e["data"].get("deal_id") != table.closed)
        assert_hidden_absent(text, table.hidden(LIVE_STEPS + len(remaining)), path)
