"""Appeals over real HTTP (api/appeals.py, domain/model/appeal.py, docs/appeals.md): each outcome kind moves the
standings and `explain` as it should and cites the appeal; a late filing is refused with its reason and stores
nothing unless the chief referee accepts it; result-blind frames show nothing of the end; `fupan verify`
recomputes appeals' hash chains (and names an edited one); a rebuild equals the live read models.

One SQLite server for the module, a tournament of its own for each test (so no test sees what another filed, in
whatever order they run), and the weighted walk once more on PostgreSQL.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from conftest import EXAMPLE_RECORD, EXAMPLE_SCORES, LiveServer, Store, token_id
from hypothesis import given, settings
from hypothesis import strategies as st
from postgres_cluster import application_env, create_schema, drop_schema

from cli.main import main as fupan
from domain.kernel.engine import DealSetup
from domain.model.appeal_rules import compensation, normalize_outcome, round_half_away, target_points
from fixtures.random_play import doudizhu as doudizhu_play

PLAYERS = EXAMPLE_RECORD["seats"]


class Event:
    """A tournament with one finished 斗地主 deal at table 1 (scores [2, 2, −6]), a live one at table 2, and
    tokens: the referee of table 1, a referee of table 2, the appeals committee."""

    def __init__(self, server: LiveServer, name: str = "申诉杯"):
        self.server = server
        self.tournament = server.post("/api/tournaments", {"name": name, "game": "doudizhu"}).json()["id"]
        for player in PLAYERS:
            server.post(f"/api/tournaments/{self.tournament}/players", {"name": player})
        self.match, self.live_match = (
            server.post(f"/api/tournaments/{self.tournament}/matches",
                        {"table": table, "seats": PLAYERS, "first": 2}).json()["id"] for table in ("1", "2"))
        body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
        self.deal = server.post(f"/api/matches/{self.match}/deals", body).json()["id"]
        for action in EXAMPLE_RECORD["actions"]:
            assert server.post(f"/api/deals/{self.deal}/actions", {"action": action}).status_code == 201
        self.live_deal = server.post(f"/api/matches/{self.live_match}/deals", body).json()["id"]
        assert server.post(f"/api/deals/{self.live_deal}/actions",
                           {"action": EXAMPLE_RECORD["actions"][0]}).status_code == 201
        service = server.service
        assert service is not None
        _, self.referee = service.tokens.create("referee", [self.match], "table 1")
        _, self.other_referee = service.tokens.create("referee", [self.live_match], "table 2")
        _, self.committee = service.tokens.create("appeals", label="仲裁委员会")

    def totals(self) -> dict[str, int]:
        rows = self.server.get(f"/api/tournaments/{self.tournament}/standings").json()["rows"]
        return {row["player_id"]: row["total"] for row in rows}

    def file(self, step: int = 3, token: str | None = None, **extra: Any) -> Any:
        body = {"against": {"kind": "deal", "deal_id": self.deal, "step": step}, "category": "rules_misapplied",
                "statement": "王五 认为第4步的顺子应判无效", "on_behalf_of": ["王五"], **extra}
        return self.server.post(f"/api/matches/{self.match}/appeals", body, token=token or self.referee)

    def head(self) -> int:
        assert self.server.service is not None
        return self.server.service.store.recorder.max_notification_id()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(Store.sqlite(tmp_path_factory.mktemp("appeals") / "fupan.sqlite")).start()
    yield server
    server.stop()


@pytest.fixture
def event(live: LiveServer, request: pytest.FixtureRequest) -> Event:
    """This test's own tournament on the module's server: the appeal rules, rounds and appeals it sets are its own
    (a tournament's id is its name's: each test names its own)."""
    return Event(live, f"申诉杯 {request.node.name[5:40]}")


def moved(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {p: after[p] - before[p] for p in before if after[p] != before[p]}


def walk_weighted(event: Event) -> str:
    """Filed by the table's referee → evidence → the chief referee assigns a score → appealed → the impact
    preview of a 60/40 weighted score → the committee decides it → closed. Returns the appeal's id."""
    server = event.server
    before = event.totals()
    filed = event.file()
    assert filed.status_code == 201, filed.text
    appeal = filed.json()
    assert appeal["status"] == "filed" and appeal["deadline"]["late"] is False and appeal["deadline"]["minutes"] == 30
    path = f"/api/appeals/{appeal['appeal_id']}"
    evidence = server.post(f"{path}/evidence", {"reference": {"deal_id": event.deal, "step": 3, "viewpoint": "seat:2"},
                                                "note": "王五 手上还有 10"}, token=event.referee)
    assert evidence.status_code == 201, evidence.text
    assert evidence.json()["evidence"][0]["reference"] == {"deal_id": event.deal, "step": 3, "viewpoint": "seat:2"}
    viewer = evidence.json()["evidence"][0]["viewer"]
    assert viewer == f"/deals/{event.deal}?step=3&view=seat:2" and server.get(viewer).status_code == 200

    # The table's referee is not the chief referee; the organiser is.
    assigned = {"kind": "assigned", "scores": [-2, -2, 4]}
    refused = server.post(f"{path}/ruling", {"outcome": assigned, "reason": "地主顺子合法"}, token=event.referee)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_chief_referee"
    ruled = server.post(f"{path}/ruling", {"outcome": assigned, "reason": "顺子无效，判地主胜"})
    assert ruled.status_code == 201, ruled.text
    after_ruling = event.totals()
    assert moved(before, after_ruling) == {p: s - r for p, s, r in zip(PLAYERS, [-2, -2, 4], EXAMPLE_SCORES,
                                                                      strict=True)}
    assert server.post(f"{path}/committee", {"reason": "农民方不服"}, token=event.referee).status_code == 201

    weighted = {"kind": "weighted", "parts": [
        {"weight": "60%", "scores": [-2, -2, 4], "label": "顺子无效"},
        {"weight": "2/5", "scores": [2, 2, -6], "label": "原结果"}]}
    # Exact: 0.6·(−2) + 0.4·2 = −2/5 → 0; 0.6·4 + 0.4·(−6) = 0 → the whole points the standings get.
    exact = [Fraction(3, 5) * a + Fraction(2, 5) * b for a, b in zip([-2, -2, 4], [2, 2, -6], strict=True)]
    head = event.head()
    preview = server.post(f"{path}/preview", {"outcome": weighted}, anonymous=True)
    assert preview.status_code == 200, preview.text
    assert event.head() == head  # the preview stored nothing
    assert preview.json()["outcome"]["exact"] == [str(x) for x in exact]
    predicted = {row["player_id"]: row["total"] for row in preview.json()["after"]["rows"]}

    bad = server.post(f"{path}/decision", {"outcome": {"kind": "weighted", "parts": [
        {"weight": 0.6, "scores": [-2, -2, 4]}, {"weight": 0.3, "scores": [2, 2, -6]}]}, "reason": "x",
        "members": ["甲", "乙", "丙"], "vote": {"for": 2, "against": 1, "abstain": 0}}, token=event.committee)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "weights_not_one"
    assert event.head() == head
    decision = {"outcome": weighted, "reason": "两种结果均有可能，按 60/40 加权",
                "members": ["甲", "乙", "丙"], "vote": {"for": 2, "against": 1, "abstain": 0}}
    assert server.post(f"{path}/decision", decision).status_code == 403  # the organiser does not decide
    decided = server.post(f"{path}/decision", decision, token=event.committee)
    assert decided.status_code == 201, decided.text
    assert server.post(f"{path}/decision", decision, token=event.committee).status_code == 200  # sent again
    after = event.totals()
    assert after == predicted
    rounded = [round(x) for x in exact]  # no halves here, so Python's rounding agrees with half-away
    assert moved(before, after) == {p: s - r for p, s, r in zip(PLAYERS, rounded, EXAMPLE_SCORES, strict=True)
                                    if s != r}
    assert server.post(f"{path}/closing", {"note": "结案"}).status_code == 201
    shown = server.get(path).json()
    assert shown["status"] == "closed"
    assert [e["type"] for e in shown["timeline"]] == ["Appeal.Created", "Appeal.EvidenceAdded", "Appeal.Ruled",
                                                      "Appeal.Appealed", "Appeal.Decided", "Appeal.Closed"]
    assert all(e["time"] and e["recorded_by"]["role"] for e in shown["timeline"])
    assert shown["decision"]["vote"] == {"for": 2, "against": 1, "abstain": 0}
    # explain cites the appeal on every adjustment it caused
    explained = server.get(f"/api/tournaments/{event.tournament}/standings/王五/explain").json()
    cited = [a for a in explained["adjustments"] if (a.get("refers_to") or {}).get("appeal_id") == appeal["appeal_id"]]
    assert cited and all(a["appeal"]["href"] == path for a in cited)
    row = next(r for r in server.get(f"/api/tournaments/{event.tournament}/standings").json()["rows"]
               if r["player_id"] == "王五")
    assert appeal["appeal_id"] in row["appeals"]
    assert sum(a["points"] for a in cited) == after["王五"] - before["王五"]
    return appeal["appeal_id"]


def test_a_weighted_adjusted_score_decided_by_the_committee_moves_the_standings_and_explain_cites_it(event):
    walk_weighted(event)


def test_void_then_the_result_stands_and_a_penalty_and_a_withdrawal(event):
    # A tournament of its own: one appeal at a time replaces a deal's score, and the weighted walk's does here.
    event = Event(event.server, "申诉杯 作废")
    server = event.server
    before = event.totals()
    appeal = event.file(category="irregularity").json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    void = {"outcome": {"kind": "void"}, "reason": "发牌有误，本副作废"}
    assert server.post(f"{path}/ruling", void).status_code == 201
    voided = event.totals()
    assert moved(before, voided) == {p: -s for p, s in zip(PLAYERS, EXAMPLE_SCORES, strict=True)}
    assert server.post(f"{path}/committee", {"reason": "不服"}, token=event.referee).status_code == 201
    decided = server.post(f"{path}/decision", {"outcome": {"kind": "stands"}, "reason": "结果成立",
                                               "members": ["甲", "乙", "丙"], "vote": {"for": 3, "against": 0,
                                                                                     "abstain": 0}},
                          token=event.committee)
    assert decided.status_code == 201 and decided.json()["applied"] == {p: 0 for p in PLAYERS}
    assert event.totals() == before  # compensated back: nothing recorded was edited, two events cancel

    penalty = event.file(category="conduct").json()["appeal_id"]
    ruled = server.post(f"/api/appeals/{penalty}/ruling", {"outcome": {"kind": "penalty", "player_ids": ["张三"],
                                                                       "points": -3}, "reason": "说话"})
    assert ruled.status_code == 201
    assert moved(before, event.totals()) == {"张三": -3}
    explained = server.get(f"/api/tournaments/{event.tournament}/standings/张三/explain").json()
    assert any(a["kind"] == "penalty" and a["refers_to"]["appeal_id"] == penalty for a in explained["adjustments"])
    undo = server.post(f"/api/appeals/{penalty}/committee", {"reason": "不服"}, token=event.referee)
    assert undo.status_code == 201

    withdrawn = event.file(category="scoring_error").json()["appeal_id"]
    withdrawal = server.post(f"/api/appeals/{withdrawn}/withdrawal", {"reason": "撤回"}, token=event.referee)
    assert withdrawal.status_code == 201
    late_ruling = server.post(f"/api/appeals/{withdrawn}/ruling", {"outcome": {"kind": "stands"}, "reason": "x"})
    assert late_ruling.status_code == 422 and late_ruling.json()["error"]["code"] == "appeal_state"
    listed = server.get(f"/api/tournaments/{event.tournament}/appeals").json()["appeals"]
    assert {a["appeal_id"]: a["status"] for a in listed}[withdrawn] == "withdrawn"


def test_a_late_filing_is_refused_with_its_reason_and_stores_nothing_unless_the_chief_referee_accepts_it(event):
    server = event.server
    rules = f"/api/tournaments/{event.tournament}/appeal-rules"
    assert server.post(rules, {"deadline_minutes": 0}).status_code == 200
    head = event.head()
    late = event.file()
    assert late.status_code == 422, late.text
    error = late.json()["error"]
    assert error["code"] == "late_appeal" and "申诉期限" in error["message_zh"] and "0 minutes" in error["message"]
    refused = event.file(accept_late="裁判记录显示已按时口头提出")  # the table's referee is not chief
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_chief_referee"
    assert event.head() == head  # nothing stored by either
    # The organiser names the table's referee chief referee: now it may accept a late filing, and rule.
    assert server.post(rules, {"deadline_minutes": 0, "chief_referees": [token_id(event.referee)]}).status_code == 200
    accepted = event.file(accept_late="裁判记录显示已按时口头提出")
    assert accepted.status_code == 201, accepted.text
    assert accepted.json()["late_acceptance"] == {"reason": "裁判记录显示已按时口头提出"}
    assert accepted.json()["deadline"]["late"] is True
    ruled = server.post(f"/api/appeals/{accepted.json()['appeal_id']}/ruling",
                        {"outcome": {"kind": "stands"}, "reason": "维持原判"}, token=event.referee)
    assert ruled.status_code == 201, ruled.text
    assert server.post(rules, {"deadline_minutes": 30, "chief_referees": []}).status_code == 200


def test_result_blind_frames_end_at_the_judged_step_and_live_deals_stay_secret(event):
    server = event.server
    service = server.service
    assert service is not None
    appeal = service.appeals.file(event.match, {"kind": "deal", "deal_id": event.deal,
                                               "step": len(EXAMPLE_RECORD["actions"])},
                                 "scoring_error", "计分有误")["appeal_id"]
    blind = server.get(f"/api/appeals/{appeal}/frames?viewpoint=seat:0").json()
    steps = len(EXAMPLE_RECORD["actions"])
    assert blind["blind"] and blind["judged_step"] == steps and len(blind["frames"]) == steps + 1
    text = json.dumps(blind, ensure_ascii=False)
    assert '"result"' not in text and '"scores"' not in text and "total" not in blind and "closed" not in blind
    assert blind["frames"][-1]["status"] == {"phase": "judged"}  # the last play ended the deal: not said
    revealed = server.get(f"/api/appeals/{appeal}/frames?viewpoint=seat:0&reveal=true").json()
    assert revealed["frames"][-1]["view"]["result"]["scores"] == EXAMPLE_SCORES
    early = service.appeals.file(event.match, {"kind": "deal", "deal_id": event.deal, "step": 4}, "irregularity",
                                 "第4步")["appeal_id"]
    assert len(server.get(f"/api/appeals/{early}/frames").json()["frames"]) == 5

    # A live deal's appeal: its words and seat views only for those with rights over its table.
    filed = server.post(f"/api/matches/{event.live_match}/appeals",
                        {"against": {"kind": "deal", "deal_id": event.live_deal, "step": 1},
                         "category": "conduct", "statement": "张三 亮出了 BJ"}, token=event.other_referee)
    assert filed.status_code == 201, filed.text
    live_path = f"/api/appeals/{filed.json()['appeal_id']}"
    public = server.get(live_path).json()
    assert public["statement"] is None and "BJ" not in json.dumps(public, ensure_ascii=False)
    assert server.get(live_path, token=event.other_referee).json()["statement"] == "张三 亮出了 BJ"
    assert server.get(f"{live_path}/frames?viewpoint=seat:0").status_code == 401
    assert server.get(f"{live_path}/frames?viewpoint=seat:0", token=event.referee).status_code == 403
    assert server.get(f"{live_path}/frames?viewpoint=seat:0", token=event.other_referee).status_code == 200
    listed = server.get(f"/api/tournaments/{event.tournament}/appeals").json()["appeals"]
    assert "BJ" not in json.dumps(listed, ensure_ascii=False)


def test_verify_recomputes_appeal_chains_and_a_rebuild_equals_live(tmp_path, capsys):
    # A store of its own: the test edits a stored event, which would break `verify` for any test after it.
    server = LiveServer(Store.sqlite(tmp_path / "fupan.sqlite")).start()
    try:
        verify_an_edited_appeal(Event(server), capsys)
    finally:
        server.stop()


def verify_an_edited_appeal(event: Event, capsys: pytest.CaptureFixture[str]) -> None:
    server = event.server
    walk_weighted(event)
    for category in ("conduct", "irregularity"):
        assert event.file(category=category).status_code == 201
    assert server.get("/api/admin/verify", token=server.organiser).json()["ok"]
    assert server.post("/api/admin/rebuild").status_code == 200
    assert server.get("/api/admin/verify", token=server.organiser).json()["ok"]
    service = server.service
    assert service is not None
    chains = service.audit.verify_chains()
    assert chains["ok"] and chains["appeals"] == 3
    # Someone with the database but not the chain's key rewrites an appeal's statement: its chain breaks.
    appeal = service.appeals.of_tournament(event.tournament)[0]["appeal_id"]
    db = server.store.env["SQLITE_DBNAME"]
    with sqlite3.connect(db) as conn:
        (state,) = conn.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 1",
                                (UUID(appeal).hex,)).fetchone()
        edited = json.loads(bytes(state))
        edited["statement"] = "改过的申诉"
        conn.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 1",
                     (json.dumps(edited, ensure_ascii=False).encode(), UUID(appeal).hex))
    conn.close()
    fresh = server.store.open()
    try:
        broken = fresh.audit.verify_chains()["broken"]
    finally:
        fresh.close()
    assert broken == [{"appeal_id": appeal, "first_bad_version": 1}]
    assert fupan(["verify", "--db", db]) == 1
    assert f"hash chain BROKEN in appeal {appeal}" in capsys.readouterr().err


def test_the_weighted_walk_on_postgresql(postgres_params: dict[str, str], tmp_path: Path):
    schema = f"t_{UUID(int=0).hex[:4]}{tmp_path.name[-8:]}".replace("-", "_").lower()
    create_schema(postgres_params, schema)
    server = LiveServer(Store("postgres", application_env(postgres_params, schema))).start()
    try:
        event = Event(server, "申诉杯 PG")
        walk_weighted(event)
        assert server.get("/api/admin/verify", token=server.organiser).json()["ok"]
        assert server.service is not None and server.service.audit.verify_chains()["ok"]
    finally:
        server.stop()
        drop_schema(postgres_params, schema)


def test_weights_are_exact_and_weighted_scores_round_half_away_from_zero():
    # 0.1 + 0.2 + 0.7 is not 1 in floating point; read as their decimal text they sum to exactly 1.
    outcome = normalize_outcome({"kind": "weighted", "parts": [{"weight": 0.1, "scores": [5, 5, -10]},
                                                               {"weight": "0.2", "scores": [0, 0, 0]},
                                                               {"weight": "70%", "scores": [-5, 5, 0]}]},
                                PLAYERS, set(PLAYERS))
    assert outcome["exact"] == ["-3", "4", "-1"] and outcome["scores"] == [-3, 4, -1]
    halves = normalize_outcome({"kind": "weighted", "parts": [{"weight": "1/2", "scores": [5, -5, 0]},
                                                              {"weight": "1/2", "scores": [0, 0, 0]}]},
                               PLAYERS, set(PLAYERS))
    assert halves["exact"] == ["5/2", "-5/2", "0"] and halves["scores"] == [3, -3, 0]
    assert [round_half_away(Fraction(n, 10)) for n in (14, 15, 16, -14, -15, -16)] == [1, 2, 2, -1, -2, -2]


def test_two_sandbox_lines_feed_a_weighted_score_and_an_illegal_or_unfinished_line_is_refused(event):
    event = Event(event.server, "申诉杯 推演")  # its deal's score not replaced by another appeal (as the walk's)
    server = event.server
    appeal = event.file(step=3).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    # Line 0: the deal as played from step 3; line 1: random legal play from the same table (the rules engine's).
    played = EXAMPLE_RECORD["actions"][3:]
    setup = DealSetup("doudizhu", {}, PLAYERS, 2, EXAMPLE_RECORD["hands"], EXAMPLE_RECORD["kitty"], {})
    state = doudizhu_play.ENGINE.new_deal(setup)
    for action in EXAMPLE_RECORD["actions"][:3]:
        doudizhu_play.ENGINE.apply(state, action)
    other: list[dict[str, Any]] = []
    doudizhu_play.play_out(state, random.Random(7), other)
    other_scores = doudizhu_play.ENGINE.result(state)["scores"]
    head = event.head()
    illegal = server.post(f"{path}/lines", {"from_step": 3, "actions": [played[1], played[0]]}, token=event.referee)
    assert illegal.status_code == 422 and illegal.json()["error"]["code"] == "illegal_line"
    assert illegal.json()["error"]["details"]["index"] == 0
    refusal = illegal.json()["error"]  # the line's refused action names the players, as a deal's would
    assert f"现在轮到{PLAYERS[played[0]['seat']]}，不是{PLAYERS[played[1]['seat']]}" in refusal["message_zh"]
    assert "座位" not in refusal["message_zh"] and "seat" not in refusal["message"]
    unfinished = server.post(f"{path}/lines", {"from_step": 3, "actions": played[:2]}, token=event.referee)
    assert unfinished.status_code == 422 and unfinished.json()["error"]["code"] == "line_unfinished"
    assert event.head() == head  # refused lines store nothing
    assert server.post(f"{path}/lines", {"from_step": 3, "actions": played, "label": "实际打法"},
                       token=event.referee).status_code == 201
    second = server.post(f"{path}/lines", {"from_step": 3, "actions": other, "label": "另一种打法"},
                         token=event.committee)
    assert second.status_code == 201, second.text
    lines = second.json()["lines"]
    assert [line["scores"] for line in lines] == [EXAMPLE_SCORES, other_scores]
    assert server.get(f"/api/deals/{event.deal}").json()["version"] == len(EXAMPLE_RECORD["actions"]) + 2  # untouched

    weighted = {"kind": "weighted", "parts": [{"weight": "60%", "line": 1}, {"weight": "40%", "line": 0}]}
    preview = server.post(f"{path}/preview", {"outcome": weighted}, anonymous=True).json()
    exact = [Fraction(3, 5) * b + Fraction(2, 5) * a for a, b in zip(EXAMPLE_SCORES, other_scores, strict=True)]
    assert preview["outcome"]["exact"] == [str(x) for x in exact]
    assert preview["outcome"]["scores"] == [round_half_away(x) for x in exact]


def test_an_appeal_of_a_penalty_names_its_adjustment_and_a_bad_reference_is_refused(event):
    server = event.server
    adjusted = server.post(f"/api/tournaments/{event.tournament}/adjustments",
                           {"player_id": "李四", "points": -2, "kind": "penalty", "reason": "说话"}).json()
    head = event.head()
    wrong = server.post(f"/api/matches/{event.match}/appeals",
                        {"against": {"kind": "penalty", "adjustment_version": 1}, "category": "conduct",
                         "statement": "罚分不当"}, token=event.referee)  # version 1 is Tournament.Created
    assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "bad_appeal"
    other_table = server.post(f"/api/matches/{event.match}/appeals",
                              {"against": {"kind": "deal", "deal_id": event.live_deal, "step": 0},
                               "category": "conduct", "statement": "别桌的牌"}, token=event.referee)
    assert other_table.status_code == 422 and other_table.json()["error"]["code"] == "bad_appeal"
    assert event.head() == head
    filed = server.post(f"/api/matches/{event.match}/appeals",
                        {"against": {"kind": "penalty", "adjustment_version": adjusted["version"]},
                         "category": "conduct", "statement": "罚分不当", "on_behalf_of": ["李四"]}, token=event.referee)
    assert filed.status_code == 201, filed.text
    assert filed.json()["against"] == {"kind": "penalty", "adjustment_version": adjusted["version"]}
    # No deal is named, so only a penalty or "stands" is possible: a score outcome is refused, nothing stored.
    path = f"/api/appeals/{filed.json()['appeal_id']}"
    head = event.head()
    refused = server.post(f"{path}/ruling", {"outcome": {"kind": "void"}, "reason": "作废"})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "no_result_to_adjust"
    assert event.head() == head
    before = event.totals()
    lifted = server.post(f"{path}/ruling", {"outcome": {"kind": "penalty", "player_ids": ["李四"], "points": 2},
                                            "reason": "撤销罚分"})
    assert lifted.status_code == 201 and moved(before, event.totals()) == {"李四": 2}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(
    st.just({"kind": "stands"}), st.just({"kind": "void"}),
    st.builds(lambda s: {"kind": "assigned", "scores": s}, st.lists(st.integers(-50, 50), min_size=3, max_size=3)),
    st.builds(lambda p, n: {"kind": "penalty", "player_ids": [p], "points": n}, st.sampled_from(PLAYERS),
              st.integers(-9, 9).filter(bool))), min_size=1, max_size=5),
    st.lists(st.integers(-20, 20), min_size=3, max_size=3))
def test_an_appeals_total_effect_is_always_its_latest_outcome(outcomes: list[dict[str, Any]], recorded: list[int]):
    applied: dict[str, int] = {}
    for outcome in outcomes:
        normal = normalize_outcome(outcome, PLAYERS, set(PLAYERS))
        target = target_points(normal, PLAYERS, recorded)
        for player, points in compensation(target, applied):
            assert points != 0
            applied[player] = applied.get(player, 0) + points
        assert {p: n for p, n in applied.items() if n} == {p: n for p, n in target.items() if n}

def test_once_the_next_round_is_paired_an_appeal_is_late_whatever_the_minutes(event):
    """Last in the module: it starts round 2 of the shared tournament."""
    server = event.server
    rules = f"/api/tournaments/{event.tournament}/appeal-rules"
    assert server.post(rules, {"deadline_minutes": 1440}).status_code == 200
    assert server.post(f"/api/tournaments/{event.tournament}/rounds", {"label": "第2轮"}).status_code == 201
    head = event.head()
    paired = event.file()
    assert paired.status_code == 422 and paired.json()["error"]["details"]["deadline"]["why"] == "next_round_paired"
    assert "下一轮已经编排" in paired.json()["error"]["message_zh"]
    assert event.head() == head



def test_the_other_sides_statement_is_recorded_as_its_own_event_and_printed_beside_the_appellants(event):
    """Defect 19 of issue 23: the report carries both sides' statements. The other side's is a new event
    (`Appeal.ResponseRecorded`), recorded by the committee or the table's referee — never by the filing's own
    players, never an edit of the filing — shown on the appeal's page and in its printed report, withheld as the
    statement is while the deal is live."""
    server = event.server
    appeal = event.file().json()
    path = f"/api/appeals/{appeal['appeal_id']}"
    said = {"statement": "张三：我们没有说话，顺子是合法的", "on_behalf_of": ["张三"]}
    # Who may: the committee and the table's referee; not a referee of another table, not the public.
    assert server.post(f"{path}/responses", said, token=event.other_referee).status_code == 403
    assert server.post(f"{path}/responses", said, anonymous=True).status_code == 401
    head = event.head()
    mine = server.post(f"{path}/responses", {**said, "on_behalf_of": ["王五"]}, token=event.committee)
    assert mine.status_code == 422 and mine.json()["error"]["code"] == "bad_response"  # 王五 filed it
    empty = server.post(f"{path}/responses", {"statement": "  "}, token=event.committee)
    assert empty.status_code == 422 and empty.json()["error"]["code"] == "bad_response"
    stranger = server.post(f"{path}/responses", {**said, "on_behalf_of": ["无名氏"]}, token=event.committee)
    assert stranger.status_code == 422 and stranger.json()["error"]["code"] == "unknown_player"
    assert event.head() == head  # refusals store nothing
    recorded = server.post(f"{path}/responses", said, token=event.committee)
    assert recorded.status_code == 201, recorded.text
    by_referee = server.post(f"{path}/responses", {"statement": "李四同意张三的说法"}, token=event.referee)
    assert by_referee.status_code == 201, by_referee.text
    shown = server.get(path).json()
    assert [r["statement"] for r in shown["responses"]] == [said["statement"], "李四同意张三的说法"]
    assert [r["on_behalf_of"] for r in shown["responses"]] == [["张三"], []]
    assert shown["responses"][0]["by"]["role"] == "appeals" and shown["responses"][1]["by"]["role"] == "referee"
    assert shown["statement"] == appeal["statement"]  # the filing is untouched
    assert [e["type"] for e in shown["timeline"]] == ["Appeal.Created", "Appeal.ResponseRecorded",
                                                      "Appeal.ResponseRecorded"]

    # The appeal's page and its printed report: both sides, each statement with who says it.
    page = server.get(f"/appeals/{appeal['appeal_id']}").text
    assert 'data-responses="2"' in page and said["statement"] in page and 'id="response-form"' in page
    report = server.get(f"/appeals/{appeal['appeal_id']}/report").text
    appellant = report.split('data-side="appellant"', 1)[1].split('data-side="other"', 1)[0]
    other = report.split('data-side="other"', 1)[1].split("</div>", 1)[0]
    assert appeal["statement"] in appellant and said["statement"] not in appellant
    assert said["statement"] in other and "李四同意张三的说法" in other and other.count("data-response") == 2
    assert "write-in" not in other

    # Once the appeal is closed, no statement is taken.
    assert server.post(f"{path}/ruling", {"outcome": {"kind": "stands"}, "reason": "维持"}).status_code == 201
    assert server.post(f"{path}/closing", {"note": "结案"}).status_code == 201
    late = server.post(f"{path}/responses", said, token=event.committee)
    assert late.status_code == 422 and late.json()["error"]["code"] == "appeal_state"

    # A live deal: the other side's words are withheld from the public, as the statement is.
    live = server.post(f"/api/matches/{event.live_match}/appeals", {
        "against": {"kind": "deal", "deal_id": event.live_deal, "step": 1}, "category": "conduct",
        "statement": "说话"}, token=event.other_referee).json()
    assert server.post(f"/api/appeals/{live['appeal_id']}/responses", said,
                       token=event.other_referee).status_code == 201
    public = server.get(f"/api/appeals/{live['appeal_id']}").json()  # anonymous
    assert public["responses"][0]["statement"] is None and "responses.statement" in public["withheld"]


def test_the_printed_reports_sequence_names_each_steps_cards_once(event):
    """The report's sequence says each step in words, its cards in them (王五 出 ♠3 ♣4 …（单顺）); the same cards are
    not printed a second time beside the words (issue 23's walk). A hand as dealt is still printed as cards."""
    appeal = event.file(step=6).json()
    report = event.server.get(f"/appeals/{appeal['appeal_id']}/report").text
    sequence = report.split('data-report-part="sequence"', 1)[1].split("</section>", 1)[0]
    steps = dict(re.findall(r'<li data-step="(\d+)">(.*?)</li>', sequence, re.S))
    assert sorted(steps, key=int) == [str(step) for step in range(1, 7)]
    straight = steps["4"]  # 王五's straight, in both languages
    assert "♠3 ♣4 ♥5 ♦6 ♦7 ♥8 ♥9（单顺）" in straight and "♠3 ♣4 ♥5 ♦6 ♦7 ♥8 ♥9 (straight)" in straight
    for step, said in steps.items():
        assert "data-card" not in said, f"step {step} prints its cards again: {said}"
    hand = sequence.split('class="report-hand"', 1)[1].split("</p>", 1)[0]
    assert hand.count("data-card") == 17  # the appellant's hand as dealt
