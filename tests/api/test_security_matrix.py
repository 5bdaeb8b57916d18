"""The access matrix over real HTTP: every route × every kind of caller gets the documented status, and a
refusal writes nothing (docs/SECURITY.md, "Who may do what").

The routes come from the app's URL map, so a route added without a declared policy, or without a line in
KINDS below, fails here. Callers: no token, a well-formed token with a wrong secret, a revoked token, each
role, and a referee of another match. Requests run against a live deal, so the reads that could show hands
(`hidden`) answer the anonymous public 401 and a referee of another match 403.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store

from api.auth import (
    ANNOTATOR,
    ANYONE,
    APPEAL_FILER,
    APPEAL_PARTY,
    CHIEF_REFEREE,
    COMMITTEE,
    DEAL_RECORDER,
    MATCH_RECORDER,
    ORGANISER_ONLY,
    policy_of,
)
from domain.records.retraction import last_standing

PLAYERS = ["张三", "李四", "王五"]
CALLERS = ("none", "wrong", "revoked", "appeals", "other_referee", "referee", "organiser")
OK = "ok"  # 200 or 201: allowed (and, for these sample requests, done)

STATUS: dict[str, dict[str, int | str]] = {
    "public": {"none": 200, "wrong": 401, "revoked": 401, "appeals": 200, "other_referee": 200, "referee": 200,
               "organiser": 200},
    "hidden": {"none": 401, "wrong": 401, "revoked": 401, "appeals": 200, "other_referee": 403, "referee": 200,
               "organiser": 200},
    "recorder": {"none": 401, "wrong": 401, "revoked": 401, "appeals": 403, "other_referee": 403, "referee": OK,
                 "organiser": OK},
    "organiser": {"none": 401, "wrong": 401, "revoked": 401, "appeals": 403, "other_referee": 403, "referee": 403,
                  "organiser": OK},
    "annotator": {"none": 401, "wrong": 401, "revoked": 401, "appeals": 403, "other_referee": 403, "referee": OK,
                  "organiser": OK},
    # Appeals (docs/appeals.md): evidence from the table's referee, the organiser and the committee; the chief
    # referee (here the organiser: the referee is not named chief) rules and closes; the committee decides.
    "appeal_party": {"none": 401, "wrong": 401, "revoked": 401, "appeals": OK, "other_referee": 403, "referee": OK,
                     "organiser": OK},
    "chief": {"none": 401, "wrong": 401, "revoked": 401, "appeals": 403, "other_referee": 403, "referee": 403,
              "organiser": OK},
    "committee": {"none": 401, "wrong": 401, "revoked": 401, "appeals": OK, "other_referee": 403, "referee": 403,
                  "organiser": 403},
}

# Every /api endpoint: its kind in STATUS (the documented row), checked against its declared rule too.
REMOVABLE = itertools.count(1)  # names of the entries console.remove_entry takes off

KINDS: dict[str, str] = {
    "tournaments.create_tournament": "organiser",
    "tournaments.list_tournaments": "public",
    "tournaments.get_tournament": "public",
    "tournaments.register_player": "organiser",
    "tournaments.list_players": "public",
    "tournaments.create_match": "organiser",
    "tournaments.list_matches": "public",
    "matches.get_match": "public",
    "matches.start_match_deal": "recorder",
    "matches.record_clock": "recorder",
    "matches.close_match": "organiser",
    "matches.record_misdeal": "recorder",
    "matches.list_match_deals": "public",
    "matches.export_match": "public",
    "tournaments.export_tournament": "public",
    "deals.start_deal": "organiser",
    "deals.list_deals": "public",
    "deals.get_deal": "public",
    "deals.record_action": "recorder",
    "deals.annotate": "annotator",
    "deals.deal_events": "public",
    "deals.replay": "hidden",  # default viewpoint: referee
    "deals.replay_all": "hidden",
    "deals.export_record": "hidden",
    "deals.verify": "public",
    "analysis.analyse_deal": "hidden",  # every hand, at a step of a live deal (docs/analysis.md)
    "analysis.variation": "hidden",  # the board of variations: every hand after a step and a line, stores nothing
    "analysis.analyse_variation": "hidden",  # the analysis of a node of the board
    "records.import_records": "organiser",
    "retractions.retract_action": "recorder",
    "slips.preview_slip": "recorder",  # computes, stores nothing
    "slips.enter_slip": "recorder",
    "corrections.preview_correction": "recorder",  # computes, stores nothing
    "corrections.correct_deal": "recorder",
    "tokens.create_token": "organiser",
    "tokens.list_tokens": "organiser",
    "tokens.revoke_token": "organiser",
    "apidocs.openapi_json": "public",
    "standings.get_standings": "public",
    "standings.explain": "public",
    "standings.preview": "public",  # computes, stores nothing
    "standings.start_round": "organiser",
    "standings.adjust": "organiser",
    "standings.list_formats": "public",
    "standings.rebuild": "organiser",
    "standings.verify": "organiser",
    "apidocs.docs_page": "public",
    "pad.pad_state": "recorder",  # the recording pad (docs/pad.md): every hand of a live deal, its choices
    "pad.pad_check": "recorder",  # a dry run: stores nothing
    "pad.table_pad": "recorder",  # a table as its pad reads it
    "console.register_entries": "organiser",
    "console.list_entries": "public",
    "console.draw": "public",  # a proposal, stores nothing; a pairing is public and re-derivable (fupan pair)
    "console.open_round": "organiser",
    "console.check_pairing": "public",  # a pairing chosen by hand, checked against the rules: stores nothing
    "matches.reopen_match": "organiser",  # a table the organiser closed takes deals again
    "console.progress": "public",
    "console_matches.referee_card": "organiser",  # issues a referee token
    "console.withdraw": "organiser",
    "console.remove_entry": "organiser",
    "appeals.get_appeal_rules": "public",
    "appeals.set_appeal_rules": "organiser",
    "appeals.file_appeal": "recorder",  # the organiser or the table's referee
    "appeals.list_appeals": "public",  # a live deal's statement withheld (test_appeals.py)
    "appeals.get_appeal": "public",
    "appeals.add_evidence": "appeal_party",
    "appeals.record_response": "appeal_party",  # the other side's statement
    "appeals.add_line": "appeal_party",  # a what-if line of the disputed (live) deal: every hand is used
    "appeals.sandbox": "appeal_party",  # a line being built: the referee's view of the (live) deal, stores nothing
    "appeals.analyse_line": "appeal_party",  # the analysis of a node of the appeal's board (every hand)
    "appeals.rule": "chief",
    "appeals.redeal": "chief",  # the voided deal dealt again at its table
    "appeals.appeal_ruling": "recorder",  # the filing side, for the appeal's table
    "appeals.decide": "committee",
    "appeals.withdraw": "recorder",
    "appeals.close": "chief",
    "broadcast.get_delay": "public",  # the public delay of live deals (docs/SECURITY.md "Broadcast delay")
    "broadcast.set_delay": "organiser",
    "broadcast.tournament_broadcast": "public",
    "broadcast.followed_table": "public",  # a table as the public sees it under the delay
    "appeals.preview": "public",  # computes, stores nothing
    "appeals.frames": "hidden",  # the disputed deal, default viewpoint referee
    "console.list_side_events": "public",
    "console.open_side_event": "organiser",
    "console.record_side_result": "organiser",  # after open_side_event: the routes run in name order
    # The live streams (docs/streams.md): read without Accept: text/event-stream, they answer the state now and end.
    "streams.deal_stream": "public",
    "streams.table_stream": "public",
    "streams.tournament_stream": "public",
}
RULE_OF_KIND = {"public": {ANYONE}, "hidden": {ANYONE}, "organiser": {ORGANISER_ONLY},
                "recorder": {MATCH_RECORDER, DEAL_RECORDER, APPEAL_FILER}, "annotator": {ANNOTATOR},
                "appeal_party": {APPEAL_PARTY}, "chief": {CHIEF_REFEREE}, "committee": {COMMITTEE}}


class Table:
    """A tournament with three tables; table 1 has a live deal two actions in, table 3 none (for what may only
    be recorded between deals); the referee's token covers tables 1 and 3; tokens for every caller."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.tournament = server.post("/api/tournaments", {"name": "权限杯", "game": "doudizhu"}).json()["id"]
        for name in PLAYERS:
            server.post(f"/api/tournaments/{self.tournament}/players", {"name": name})
        self.match, self.other_match, self.quiet_match = (
            server.post(f"/api/tournaments/{self.tournament}/matches",
                        {"table": table, "seats": PLAYERS, "first": 2}).json()["id"]
            for table in ("1", "2", "3"))
        self.undrawn = server.post("/api/tournaments", {"name": "抽签杯", "game": "doudizhu"}).json()["id"]
        for name in PLAYERS:
            server.post(f"/api/tournaments/{self.undrawn}/players", {"name": name})
        self.swiss = server.post("/api/tournaments", {"name": "瑞士杯", "game": "wakeng"}).json()["id"]
        self.swiss_players = [server.post(f"/api/tournaments/{self.swiss}/players", {"name": name}).json()["id"]
                              for name in PLAYERS]
        reopened = server.post("/api/tournaments", {"name": "重开杯", "game": "doudizhu"}).json()["id"]
        for name in PLAYERS:
            server.post(f"/api/tournaments/{reopened}/players", {"name": name})
        self.closed_match = server.post(f"/api/tournaments/{reopened}/matches",
                                        {"table": "1", "seats": PLAYERS, "first": 0}).json()["id"]
        assert server.post(f"/api/matches/{self.closed_match}/close", {"reason": "误点"}).status_code == 201
        body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
        self.deal = server.post(f"/api/matches/{self.match}/deals", body).json()["id"]
        for action in EXAMPLE_RECORD["actions"][:2]:
            assert server.post(f"/api/deals/{self.deal}/actions", {"action": action}).status_code == 201
        # Table 3's first deal came on a slip: a scored deal to correct (更正).
        assert server.post(f"/api/matches/{self.quiet_match}/slips",
                           {"facts": {"landlord": 2, "winner": "farmers"}}).status_code == 201
        service = server.service
        assert service is not None
        _, referee = service.tokens.create("referee", [self.match, self.quiet_match], "tables 1 and 3")
        _, other = service.tokens.create("referee", [self.other_match], "table 2")
        _, appeals = service.tokens.create("appeals", label="仲裁委员会")
        revoked_token, revoked = service.tokens.create("referee", [self.match], "lost phone")
        service.tokens.revoke(revoked_token["id"])
        self.victim, _ = service.tokens.create("referee", [self.match], "to be revoked over the API")
        wrong = f"fupan_{server.organiser.split('_')[1]}_{'x' * 43}"  # a real token id, a wrong secret
        self.appeals = self._appeals_in_every_state()
        self.tokens: dict[str, str | None] = {"none": None, "wrong": wrong, "revoked": revoked, "appeals": appeals,
                                              "other_referee": other, "referee": referee,
                                              "organiser": server.organiser}

    def _appeals_in_every_state(self) -> dict[str, str]:
        """One appeal about the live deal per appeal route, in the state that route needs (the routes run in
        name order, each once per caller)."""
        service = self.server.service
        assert service is not None
        against = {"kind": "deal", "deal_id": self.deal, "step": 1}
        penalty = {"kind": "penalty", "player_ids": [PLAYERS[0]], "points": -1}

        def filed(then: tuple[str, ...] = ()) -> str:
            appeal = service.appeals.file(self.match, against, "conduct", "权限测试")["appeal_id"]
            if "rule" in then:
                service.rulings.rule(appeal, penalty, "说话")
            if "appeal" in then:
                service.appeals.appeal_ruling(appeal, "不服")
            return appeal

        # A voided finished deal at table 4 (no deal in play there): what the redeal needs.
        voided_table = self.server.post(f"/api/tournaments/{self.tournament}/matches",
                                        {"table": "4", "seats": PLAYERS, "first": 2}).json()["id"]
        voided = service.deals.start(match=voided_table, hands=EXAMPLE_RECORD["hands"], kitty=EXAMPLE_RECORD["kitty"],
                                     first=2)[0]["id"]
        for action in EXAMPLE_RECORD["actions"]:
            service.deals.record(voided, action)
        void = service.appeals.file(voided_table, {"kind": "deal", "deal_id": voided, "step": 1}, "irregularity",
                                    "作废")
        service.rulings.rule(void["appeal_id"], {"kind": "void"}, "作废重发")
        return {"appeals.redeal": void["appeal_id"],
                "appeals.appeal_ruling": filed(("rule",)), "appeals.close": filed(("rule",)),
                "appeals.decide": filed(("rule", "appeal")), "appeals.rule": filed(), "appeals.withdraw": filed(),
                "": filed()}

    def path_value(self, name: str, endpoint: str = "") -> str:
        # Table 1 has a live deal, so what may only happen between deals goes to another table.
        between_deals = {"matches.close_match": self.other_match, "matches.reopen_match": self.closed_match,
                         "matches.record_misdeal": self.quiet_match,
                         "slips.preview_slip": self.quiet_match, "slips.enter_slip": self.quiet_match,
                         "corrections.preview_correction": self.quiet_match,
                         "corrections.correct_deal": self.quiet_match}
        if name == "match_id" and endpoint in between_deals:
            return between_deals[endpoint]
        if name == "appeal_id":
            return self.appeals.get(endpoint, self.appeals[""])
        if name == "tournament_id" and endpoint == "console.check_pairing":
            return self.swiss  # a Swiss round's pairing is what is checked
        if name == "tournament_id" and endpoint == "console.draw":
            return self.undrawn  # a draw needs a round that can be drawn: here, the first one
        if name == "tournament_id" and endpoint == "console.remove_entry":
            return self.undrawn  # an entry is taken off before round 1 only

        values = {"tournament_id": self.tournament, "match_id": self.match, "deal_id": self.deal,
                  "token_id": self.victim["id"], "filename": "fupan.css", "game": "doudizhu", "player_id": PLAYERS[0],
                  "number": "1", "key": "wzq", "plugin": "doudizhu"}
        assert name in values, f"no sample value for the path parameter <{name}>: add one to Table.path_value"
        return values[name]

    def removable(self) -> dict[str, Any]:
        """An entry to take off the undrawn tournament, registered just for that (each allowed caller removes one)."""
        name = f"报错{next(REMOVABLE)}"
        assert self.server.post(f"/api/tournaments/{self.undrawn}/players", {"name": name}).status_code == 201
        return {"name": name, "reason": "打错了"}

    def next_action(self) -> dict[str, Any]:
        done = self.server.get(f"/api/deals/{self.deal}", token=self.server.organiser).json()["actions"]
        return {"action": EXAMPLE_RECORD["actions"][done]}


# A request body that would succeed, for every write endpoint (written again by the next allowed caller:
# creates are idempotent, the deal start re-submits the live deal, actions follow the record).
BODIES: dict[str, Callable[[Table], Any]] = {
    "tournaments.create_tournament": lambda t: {"name": "权限杯", "game": "doudizhu"},
    "tournaments.register_player": lambda t: {"name": "张三"},
    "tournaments.create_match": lambda t: {"table": "1", "seats": PLAYERS, "first": 2},
    "matches.start_match_deal": lambda t: {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"],
                                           "first": 2},
    "matches.record_clock": lambda t: {"minutes": 25, "note": "第一局进行中"},
    "matches.close_match": lambda t: {"reason": "加赛已分出名次"},
    "matches.reopen_match": lambda t: {"reason": "误点结束此桌"},  # a table closed in Table's setup
    "console.check_pairing": lambda t: {"tables": [t.swiss_players], "byes": []},
    "matches.record_misdeal": lambda t: {"seat": 0, "note": "发牌数目错误"},
    "deals.start_deal": lambda t: {"game": "doudizhu", "seats": PLAYERS, "hands": EXAMPLE_RECORD["hands"],
                                   "kitty": EXAMPLE_RECORD["kitty"], "key": "matrix"},
    "deals.record_action": Table.next_action,
    "deals.annotate": lambda t: {"step": 1, "glyph": "!", "text": "叫地主", "text_en": "Bids", "author": "解说"},
    "records.import_records": lambda t: EXAMPLE_RECORD,
    "slips.preview_slip": lambda t: {"facts": {"landlord": 0, "winner": "farmers"}},
    "slips.enter_slip": lambda t: {"facts": {"landlord": 0, "winner": "farmers"}},
    "corrections.preview_correction": lambda t: {"number": 1, "facts": {"landlord": 1, "winner": "farmers"}},
    "corrections.correct_deal": lambda t: {"number": 1, "facts": {"landlord": 1, "winner": "farmers"},
                                           "reason": "笔误"},
    "retractions.retract_action": lambda t: {"at": last_standing(t.server.get(
        f"/api/deals/{t.deal}/record", token=t.server.organiser).json()["actions"]), "reason": "误点"},
    "tokens.create_token": lambda t: {"role": "referee", "matches": [t.match], "label": "table 1 deputy"},
    "tokens.revoke_token": lambda t: None,
    "broadcast.set_delay": lambda t: {"kind": "deals", "amount": 2},
    "standings.preview": lambda t: {"adjustments": [{"player_id": "张三", "points": -1, "reason": "what if"}]},
    "standings.start_round": lambda t: {"label": "决赛", "kind": "final"},
    "standings.adjust": lambda t: {"player_id": "张三", "points": -1, "kind": "penalty", "reason": "matrix"},
    "standings.rebuild": lambda t: None,
    "pad.pad_check": lambda t: {"action": {"seat": 0, "type": "play", "cards": ["LJ", "BJ"]}},
    "console.register_entries": lambda t: {"text": "赵六，信息学院"},
    "console.open_round": lambda t: {"label": "第2轮", "tables": [{"table": "2-1", "seats": PLAYERS}]},
    "console_matches.referee_card": lambda t: {},
    "console.withdraw": lambda t: {"player_id": "王五", "reason": "身体不适"},
    "console.remove_entry": lambda t: t.removable(),
    "appeals.set_appeal_rules": lambda t: {"deadline_minutes": 30},
    "appeals.file_appeal": lambda t: {"against": {"kind": "deal", "deal_id": t.deal, "step": 1},
                                      "category": "conduct", "statement": "权限测试"},
    "appeals.add_evidence": lambda t: {"reference": {"deal_id": t.deal, "step": 1, "viewpoint": "referee"},
                                       "note": "录像"},
    "appeals.record_response": lambda t: {"statement": "对方陈述：没有说话"},
    "appeals.rule": lambda t: {"outcome": {"kind": "penalty", "player_ids": [PLAYERS[0]], "points": -1},
                               "reason": "说话"},
    "appeals.add_line": lambda t: {"from_step": 2, "actions": EXAMPLE_RECORD["actions"][2:], "label": "推演"},
    "appeals.sandbox": lambda t: {"from_step": 1, "actions": EXAMPLE_RECORD["actions"][1:2]},
    "appeals.analyse_line": lambda t: {"from_step": 1, "actions": EXAMPLE_RECORD["actions"][1:2]},
    "analysis.variation": lambda t: {"step": 1, "actions": EXAMPLE_RECORD["actions"][1:2]},
    "analysis.analyse_variation": lambda t: {"step": 1, "actions": EXAMPLE_RECORD["actions"][1:2]},
    "appeals.appeal_ruling": lambda t: {"reason": "不服"},
    "appeals.redeal": lambda t: {},
    "appeals.decide": lambda t: {"outcome": {"kind": "stands"}, "reason": "维持", "members": ["甲", "乙", "丙"],
                                 "vote": {"for": 3, "against": 0, "abstain": 0}},
    "appeals.withdraw": lambda t: {"reason": "撤回"},
    "appeals.close": lambda t: {"note": "结案"},
    "appeals.preview": lambda t: {"outcome": {"kind": "penalty", "player_ids": [PLAYERS[0]], "points": -2}},
    "console.open_side_event": lambda t: {"key": "wzq", "game": "gomoku", "name": "五子棋", "entrants": PLAYERS},
    "console.record_side_result": lambda t: {"round": 1, "table": 1, "placing": PLAYERS[:2]},
}


@pytest.fixture
def matrix_server(store: Store) -> Iterator[LiveServer]:
    # Wrong and revoked tokens are sent on purpose many times here: no rate limit in this test.
    live = LiveServer(store, {"FUPAN_AUTH_FAILURES": 10**6, "FUPAN_AUTH_ADDRESS_FAILURES": 10**6}).start()
    yield live
    live.stop()


def routes(server: LiveServer) -> list[tuple[str, str, str]]:
    """(endpoint, method, path template) of every route of the running app."""
    assert server.app is not None
    found = []
    for rule in server.app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((rule.endpoint, method, rule.rule))
    return sorted(found)


def test_every_api_route_declares_its_policy_and_is_in_the_matrix(matrix_server):
    app = matrix_server.app
    assert app is not None
    problems = []
    for endpoint, method, path in routes(matrix_server):
        policy = policy_of(app, endpoint)
        if path.startswith("/api") or method != "GET":
            if policy is None:
                problems.append(f"{method} {path} ({endpoint}) declares no policy: add @requires(...)")
            elif endpoint not in KINDS:
                problems.append(f"{method} {path} ({endpoint}) is not in KINDS of this test (and SECURITY.md)")
            elif policy.rule not in RULE_OF_KIND[KINDS[endpoint]]:
                problems.append(f"{endpoint}: declared {policy.rule.name!r}, documented {KINDS[endpoint]!r}")
    assert not problems, "\n".join(problems)


def test_every_route_and_caller_gets_the_documented_status_and_refusals_write_nothing(matrix_server):
    server = matrix_server
    table = Table(server)
    recorder = server.service.store.recorder  # type: ignore[union-attr]
    start = recorder.max_notification_id()
    failures = []
    checked = 0
    for endpoint, method, template in routes(server):
        kind = KINDS.get(endpoint, "public" if method == "GET" and not template.startswith("/api") else None)
        if kind is None:
            failures.append(f"{method} {template}: no documented kind")
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m, e=endpoint: table.path_value(m.group(1), e), template)
        for caller in CALLERS:
            expected = STATUS[kind][caller]
            kwargs: dict[str, Any] = {}
            token = table.tokens[caller]
            if token is not None:
                kwargs["headers"] = {"Authorization": f"Bearer {token}"}
            if method == "POST":
                assert endpoint in BODIES, f"no sample body for {endpoint}: add one to BODIES"
                body = BODIES[endpoint](table)
                if body is not None:
                    kwargs["json"] = body
            before = recorder.max_notification_id()
            response = server.http.request(method, server.url + path, timeout=30, **kwargs)
            after = recorder.max_notification_id()
            checked += 1
            status = response.status_code
            allowed = status in (200, 201) if expected == OK else status == expected
            if not allowed:
                failures.append(f"{method} {path} as {caller}: {status}, documented {expected}: {response.text[:200]}")
            if status >= 400:
                error = response.json().get("error", {})
                if set(error) != {"code", "message", "message_zh", "details"}:
                    failures.append(f"{method} {path} as {caller}: not the error shape: {response.text[:200]}")
                if before != after:
                    failures.append(f"{method} {path} as {caller}: refused with {status} but wrote events")
            if method == "GET" and before != after:
                failures.append(f"{method} {path} as {caller}: a read wrote events")
    assert not failures, f"{len(failures)} of {checked} requests:\n" + "\n".join(failures)
    assert checked >= len(KINDS) * len(CALLERS)
    # Every event the allowed requests stored names the token that wrote it (no route forgot to pass it on).
    written = recorder.select_notifications(start + 1, 10**9)
    assert written
    for notification in written:
        recorded_by = json.loads(notification.state)["recorded_by"]
        assert recorded_by["role"] in ("organiser", "referee", "appeals") and recorded_by["token_id"], \
            notification.topic
