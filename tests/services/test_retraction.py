"""Retractions (domain/records/retraction.py): the recorder takes back the last action still standing of a live deal.

Over real HTTP on SQLite and PostgreSQL: only the last standing action, again the one before, never once the
deal is over; the deal then stands on the actions still standing and ends as if the mistakes never happened;
the public sees that something was retracted but not the reason while the deal is live; the export carries
the retractions and re-checks (`fupan check`), an illegal retraction in a record is refused; the hash chain
covers them (`fupan verify`); and the viewer strikes the retracted entry through with the reason and who.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, EXAMPLE_SCORES, LiveServer, Store

from cli.main import main as fupan

PLAYERS = EXAMPLE_RECORD["seats"]
ACTIONS = EXAMPLE_RECORD["actions"]


def live_table(server: LiveServer) -> tuple[str, str, str]:
    """(match, deal, referee token): the example deal started at table 1, its referee's token."""
    tournament = server.post("/api/tournaments", {"name": "撤回杯", "game": "doudizhu"}).json()["id"]
    for name in PLAYERS:
        server.post(f"/api/tournaments/{tournament}/players", {"name": name})
    server.post(f"/api/tournaments/{tournament}/delay", {"kind": "deals", "amount": 0})  # each step public at once
    match = server.post(f"/api/tournaments/{tournament}/matches",
                        {"table": "1", "seats": PLAYERS, "first": 2}).json()["id"]
    body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
    deal = server.post(f"/api/matches/{match}/deals", body).json()["id"]
    _, referee = server.service.tokens.create("referee", [match], "table 1")  # type: ignore[union-attr]
    return match, deal, referee


def record(server: LiveServer, deal: str, token: str, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        answer = server.post(f"/api/deals/{deal}/actions", {"action": action}, token=token)
        assert answer.status_code == 201, answer.text


def retract(server: LiveServer, deal: str, token: str, at: int, reason: str = "误点") -> Any:
    return server.post(f"/api/deals/{deal}/retractions", {"at": at, "reason": reason}, token=token)


def test_the_last_standing_action_is_retracted_and_the_deal_goes_on_without_it(server: LiveServer, store: Store,
                                                                              tmp_path: Path, capsys):
    match, deal, referee = live_table(server)
    wrong_play = {"seat": 2, "type": "play", "cards": ["S3"]}  # the landlord meant to lead a straight
    record(server, deal, referee, [*ACTIONS[:3], wrong_play])
    head = server.service.store.recorder.max_notification_id()  # type: ignore[union-attr]

    # Only the last action still standing: the bid before it is refused, nothing stored.
    refused = retract(server, deal, referee, 2)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_last_action"
    assert refused.json()["error"]["details"]["last"] == 3 and refused.json()["error"]["message_zh"]
    blank = server.post(f"/api/deals/{deal}/retractions", {"at": 3, "reason": "  "}, token=referee)
    assert (blank.status_code, blank.json()["error"]["code"]) == (422, "bad_reason"), blank.text
    assert server.service.store.recorder.max_notification_id() == head  # type: ignore[union-attr]

    taken = retract(server, deal, referee, 3, "误点：应出顺子")
    assert taken.status_code == 201, taken.text
    answer = taken.json()
    assert answer["retracted"] == wrong_play and answer["action"] == {"type": "retract", "at": 3,
                                                                      "reason": "误点：应出顺子"}
    assert answer["step"] == 5 and answer["status"]["phase"] == "play" and answer["status"]["to_act"] == 2
    # Again: the one before it (the last pass), then the pass is recorded once more.
    again = retract(server, deal, referee, 2, "顺序记错")
    assert again.status_code == 201 and again.json()["status"]["phase"] == "bidding"
    assert retract(server, deal, referee, 3).json()["error"]["code"] == "not_last_action"  # already taken back
    record(server, deal, referee, ACTIONS[2:])
    finished = server.get(f"/api/deals/{deal}", token=referee).json()
    assert finished["finished"] and finished["result"]["scores"] == EXAMPLE_SCORES
    assert server.get(f"/api/matches/{match}").json()["deals"][0]["scores"] == EXAMPLE_SCORES
    # Never once the deal is over.
    over = retract(server, deal, referee, finished["actions"] - 1)
    assert over.status_code == 422 and over.json()["error"]["code"] == "deal_over"

    # The export carries the retractions where they happened and re-checks; the import folds it the same.
    exported = server.get(f"/api/deals/{deal}/record").json()
    entries = exported["actions"]
    assert entries[4] == {"type": "retract", "at": 3, "reason": "误点：应出顺子"}
    assert entries[5] == {"type": "retract", "at": 2, "reason": "顺序记错"}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    assert fupan(["check", str(path)]) == 0
    capsys.readouterr()
    # An illegal retraction: one that takes back an action that is not the last standing.
    illegal = {**exported, "actions": [*entries[:4], {"type": "retract", "at": 1, "reason": "x"}, *entries[4:]]}
    path.write_text(json.dumps(illegal, ensure_ascii=False), encoding="utf-8")
    assert fupan(["check", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (report["ok"], report["action"], report["code"]) == (False, 4, "not_last_action")
    # ... and one after the end of the deal.
    ended = {**exported, "actions": [*entries, {"type": "retract", "at": len(entries) - 1, "reason": "晚了"}]}
    path.write_text(json.dumps(ended, ensure_ascii=False), encoding="utf-8")
    assert fupan(["check", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out.splitlines()[0])["code"] == "deal_over"
    imported = server.post("/api/records", {**exported, "meta": {}})
    assert imported.status_code == 201 and imported.json()["result"]["scores"] == EXAMPLE_SCORES

    # The hash chain covers the retractions.
    assert server.get(f"/api/deals/{deal}/verify").json()["ok"]
    if store.backend == "sqlite":
        assert fupan(["verify", "--db", store.env["SQLITE_DBNAME"]]) == 0
    else:
        assert server.service.audit.verify_chains()["ok"]  # type: ignore[union-attr]


def test_a_live_deals_retraction_reason_is_the_recorders_until_the_deal_is_published(server: LiveServer):
    _, deal, referee = live_table(server)
    record(server, deal, referee, ACTIONS[:4])
    assert retract(server, deal, referee, 3, "误点 S3 C4 H5").status_code == 201
    public = server.get(f"/api/deals/{deal}/events").json()
    retraction = next(e for e in public if e["type"] == "Deal.Retracted")
    assert "reason" not in retraction["payload"] and retraction["payload"]["withheld"] == ["reason"]
    assert retraction["recorded_by"]["role"] == "referee"
    frames = server.get(f"/api/deals/{deal}/replay/all?viewpoint=public").json()["frames"]
    assert frames[4]["retracted"] == {"step": 5, "reason": None, "by": retraction["recorded_by"]}
    assert frames[5]["action"]["type"] == "retract" and frames[5]["action"]["reason"] is None
    assert "S3 C4" not in json.dumps(frames, ensure_ascii=False)
    full = server.get(f"/api/deals/{deal}/replay/all?viewpoint=referee", token=referee).json()["frames"]
    assert full[4]["retracted"]["reason"] == "误点 S3 C4 H5" and full[5]["action"]["reason"] == "误点 S3 C4 H5"
    # The table after the retraction is the table before the retracted play.
    assert full[5]["view"] == full[3]["view"] and full[5]["status"] == full[3]["status"]


@pytest.fixture(scope="module")
def retracted_site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    live = LiveServer(tmp_path_factory.mktemp("retraction") / "fupan.sqlite").start()
    match, deal, referee = live_table(live)
    record(live, deal, referee, [*ACTIONS[:3], {"seat": 2, "type": "play", "cards": ["S3"]}])
    assert retract(live, deal, referee, 3, "误点：应出顺子").status_code == 201
    record(live, deal, referee, ACTIONS[3:])
    yield live, deal
    live.stop()


def test_the_viewer_strikes_the_retracted_entry_through_with_the_reason_and_who(browser: Any, retracted_site: Any):
    live, deal = retracted_site
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(f"{live.url}/deals/{deal}")
        page.wait_for_selector('body[data-ready="1"]')
        struck = page.locator('#timeline li[data-step="4"] s.txt')
        assert struck.count() == 1 and ("S3" in struck.inner_text() or "♠3" in struck.inner_text())
        why = page.locator('#timeline li[data-step="4"] .why').inner_text()
        assert "误点：应出顺子" in why and "裁判" in why
        step5 = page.locator('#timeline li[data-step="5"]')
        assert "撤回第 4 步" in step5.inner_text() and "retract" in (step5.get_attribute("data-tags") or "")
        # The printable record says the same.
        page.goto(f"{live.url}/deals/{deal}/record")
        assert "已被裁判撤回" in page.locator('li[value="4"]').inner_text()
    finally:
        page.close()
