"""Annotations (docs/record-format.md "Annotations"): a commentator's comment at a step with a glyph, in Chinese and
optionally English; over real HTTP on a real SQLite file, exported and imported into another store."""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store

from domain.records.format import check_record
from domain.services.fupan import Fupan


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(Store.sqlite(tmp_path_factory.mktemp("notes") / "fupan.sqlite")).start()
    yield server
    server.stop()


def finished_deal(live: LiveServer, key: str) -> str:
    body = {"game": "doudizhu", "seats": EXAMPLE_RECORD["seats"], "first": EXAMPLE_RECORD["first"], "key": key,
            "hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"]}
    deal = live.post("/api/deals", body).json()["id"]
    for action in EXAMPLE_RECORD["actions"]:
        assert live.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    return deal


def test_a_commentator_annotates_any_step_and_bad_notes_are_refused_writing_nothing(live):
    deal = finished_deal(live, "commentary")
    assert live.service is not None
    _, commentator = live.service.tokens.create("commentator", label="解说 王老师")
    total = len(EXAMPLE_RECORD["actions"])
    notes = [
        {"step": 0, "glyph": "", "text": "地主牌型很好", "text_en": "", "author": "王老师"},  # the deal as dealt
        {"step": 5, "glyph": "?!", "text": "拆炸弹跟牌，值得商榷", "text_en": "Breaking the bomb is dubious",
         "author": "王老师"},
        {"step": total, "glyph": "irregular", "text": "最后一手之前有人催牌", "text_en": "", "author": "王老师"},
    ]
    for note in notes:
        answer = live.post(f"/api/deals/{deal}/annotations", note, token=commentator)
        assert answer.status_code == 201, answer.text
        assert answer.json()["annotation"] == note
    version = live.get(f"/api/deals/{deal}").json()["version"]
    # A body the API's schema refuses is 400 invalid_body; one the deal refuses, 422 bad_annotation (the error's
    # kind: api/errors.py, docs/record-format.md "Annotations").
    for bad, status, code in [({**notes[1], "glyph": "!!!"}, 422, "bad_annotation"),
                              ({**notes[1], "step": total + 1}, 422, "bad_annotation"),
                              ({**notes[1], "text": ""}, 400, "invalid_body"),
                              ({"at": 4, "text": "旧写法"}, 400, "invalid_body")]:
        refused = live.post(f"/api/deals/{deal}/annotations", bad, token=commentator)
        assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), refused.text
        assert set(refused.json()["error"]) == {"code", "message", "message_zh", "details"}
    assert live.get(f"/api/deals/{deal}").json()["version"] == version  # nothing was written
    # Commentator tokens are the CLI's, as organiser and appeals tokens (docs/SECURITY.md §2).
    over_http = live.post("/api/tokens", {"role": "commentator"})
    assert over_http.status_code == 403 and over_http.json()["error"]["code"] == "cli_only"
    # A commentator writes notes only: no actions, and no hidden views of a live deal.
    assert live.post(f"/api/deals/{deal}/actions", {"action": EXAMPLE_RECORD["actions"][0]},
                     token=commentator).status_code == 403
    # Each note is shown at the step its number says, as the viewer counts.
    frames = live.get(f"/ui-api/deals/{deal}/frames").json()["frames"]
    assert {frame["step"]: frame["annotations"] for frame in frames if frame["annotations"]} == {
        note["step"]: [note] for note in notes}
    events = live.get(f"/api/deals/{deal}/events").json()
    assert [e["recorded_by"]["role"] for e in events if e["type"] == "Deal.Commented"] == ["commentator"] * 3


def test_annotations_survive_export_and_import_into_another_store(live, tmp_path: Path):
    deal = finished_deal(live, "round trip")
    notes = [{"step": 3, "glyph": "!!", "text": "王炸", "text_en": "The rocket", "author": "解说"},
             {"step": 0, "glyph": "disputed", "text": "发牌有争议", "text_en": "", "author": ""}]
    for note in notes:
        assert live.post(f"/api/deals/{deal}/annotations", note).status_code == 201
    record = live.get(f"/api/deals/{deal}/record").json()
    assert record["annotations"] == [{**notes[0], "at": 2}, notes[1]]
    assert check_record(copy.deepcopy(record))["ok"]

    other = Fupan.for_sqlite(str(tmp_path / "other.sqlite"))
    try:
        imported, created = other.records.import_record(copy.deepcopy(record))
        assert created and imported["annotations"] == notes
        again = other.records.export_record(imported["id"])
        assert again["annotations"] == record["annotations"]
        # A record in the older spelling (`at`, the action index) is read as the step after that action.
        older = copy.deepcopy(record)
        older["annotations"] = [{"at": 2, "text": "旧记录", "author": "裁判"}]
        older["meta"] = {}
        older["seats"] = ["甲", "乙", "丙"]  # other players: another deal, not the one already stored
        stored, _ = other.records.import_record(older)
        assert stored["annotations"] == [{"step": 3, "glyph": "", "text": "旧记录", "text_en": "", "author": "裁判"}]
        for bad in ({"at": 2, "step": 5, "text": "不一致"}, {"step": 1, "glyph": "??!", "text": "x"}, "文字"):
            wrong = {**copy.deepcopy(older), "seats": ["丁", "戊", "己"], "annotations": [bad]}
            report = check_record(wrong)
            assert not report["ok"] and report["code"] == "bad_record", report
    finally:
        other.close()


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists() and not os.environ.get("FUPAN_REQUIRE_CHROMIUM"),
                    reason="Debian chromium is not installed at /usr/bin/chromium")
def test_a_commentator_annotates_the_step_on_show_from_the_viewer(live, browser):
    deal = finished_deal(live, "from the viewer")
    assert live.service is not None
    _, commentator = live.service.tokens.create("commentator", label="解说 李老师")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")  # a phone
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{live.url}/deals/{deal}?step=4")
        page.wait_for_selector("body[data-ready='1']")
        page.click("#annotate summary")
        assert page.inner_text("#annotate-step") == "注释将加在第 4 步。"
        page.select_option("#annotate-glyph", "!!")
        page.fill("#annotate-text", "漂亮的顺子")
        page.fill("#annotate-text-en", "A fine straight")
        page.fill("#annotate-author", "李老师")
        page.fill("#annotate-token", "fupan_" + "0" * 32 + "_" + "x" * 43)  # a wrong token first: refused, said
        page.click("#annotate-form button[type=submit]")
        page.wait_for_selector("#annotate-said.error")
        assert "令牌" in page.inner_text("#annotate-said")
        page.fill("#annotate-token", commentator)
        page.click("#annotate-form button[type=submit]")
        page.wait_for_selector("#step-notes .glyph")
        assert page.inner_text("#step-notes .glyph") == "!!" and "漂亮的顺子" in page.inner_text("#step-notes")
        assert page.evaluate("document.body.dataset.step") == "4"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll on a phone
    finally:
        context.close()
    assert errors == []
    notes = live.get(f"/api/deals/{deal}").json()["annotations"]
    assert notes == [{"step": 4, "glyph": "!!", "text": "漂亮的顺子", "text_en": "A fine straight", "author": "李老师"}]
