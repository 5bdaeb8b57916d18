"""The appeals pages in Chromium (replay_ui/appeals/views.py): the tournament's appeals and one appeal's page, in
Chinese first, on a phone and a laptop without sideways scroll; the evidence link opens the deal viewer at the
step and viewpoint it names; a live deal's appeal shows no statement to the public."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, EXAMPLE_SCORES, LiveServer, Store
from test_appeals import PLAYERS, Event
from test_viewer_browser import CHROMIUM, LAPTOP
from viewer_support import step_of

from domain.kernel.engine import DealSetup
from domain.model.appeal_rules import round_half_away
from fixtures.random_play import doudizhu as doudizhu_play

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")

PHONE = {"width": 390, "height": 844}


def preview_weighted_decision(page: Any, committee: str | None, reason: str, head: Callable[[], int]) -> None:
    """The committee's form filled for a 60/40 weighted score (three members, two for, one against) and previewed;
    the preview stores nothing (`head`: the store's log head). `committee`: the token typed into the form, or None
    when the tab holds it already (the form then does not ask)."""
    if committee is not None:
        page.fill("#decision-token", committee)
    page.select_option("#decision-kind", "weighted")
    page.fill("#decision-members", "甲\n乙\n丙")
    page.fill("#vote-for", "2")
    page.fill("#vote-against", "1")
    page.fill("#decision-reason", reason)
    before = head()
    page.click("#decision-preview")
    page.wait_for_selector("#decision-changes li")
    assert head() == before  # the preview stored nothing


def weighted_totals(before: dict[str, int], other_scores: list[int]) -> dict[str, int]:
    """The players' totals once the example deal's score is the 60/40 weighted one: part 1, the other line
    (`other_scores`) at 60%; part 2, the deal as played."""
    weighted = [round_half_away(Fraction(3, 5) * b + Fraction(2, 5) * a)
                for a, b in zip(EXAMPLE_SCORES, other_scores, strict=True)]
    return {p: before[p] + w - s for p, w, s in zip(PLAYERS, weighted, EXAMPLE_SCORES, strict=True)}


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Event, str, str]]:
    server = LiveServer(Store.sqlite(Path(tmp_path_factory.mktemp("appeal_pages")) / "fupan.sqlite")).start()
    event = Event(server, "申诉页面杯")
    appeal = event.file().json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    server.post(f"{path}/evidence", {"reference": {"deal_id": event.deal, "step": 4, "viewpoint": "seat:2"},
                                     "note": "第4步王五的牌"}, token=event.referee)
    server.post(f"{path}/lines", {"from_step": 3, "actions": EXAMPLE_RECORD["actions"][3:], "label": "实际打法"},
                token=event.referee)
    server.post(f"{path}/ruling", {"outcome": {"kind": "assigned", "scores": [-2, -2, 4]}, "reason": "顺子无效"})
    server.post(f"{path}/committee", {"reason": "不服"}, token=event.referee)
    server.post(f"{path}/decision", {"outcome": {"kind": "weighted", "parts": [
        {"weight": "60%", "scores": [-2, -2, 4]}, {"weight": "40%", "scores": [2, 2, -6]}]},
        "reason": "加权", "members": ["甲", "乙", "丙"], "vote": {"for": 2, "against": 1, "abstain": 0}},
        token=event.committee)
    live = server.post(f"/api/matches/{event.live_match}/appeals",
                       {"against": {"kind": "deal", "deal_id": event.live_deal, "step": 1}, "category": "conduct",
                        "statement": "张三 亮出了 BJ"}, token=event.other_referee).json()["appeal_id"]
    yield server, event, appeal, live
    server.stop()


def test_the_appeals_pages_on_a_phone_and_a_laptop(browser, walked):
    server, event, appeal, live = walked
    for size in (PHONE, {"width": 768, "height": 1024}, LAPTOP):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.goto(f"{server.url}/tournaments/{event.tournament}")
        page.click("#appeals-link")
        page.wait_for_selector("[data-appeals]")
        assert page.locator("tr[data-appeal]").count() == 2
        assert page.locator(f"tr[data-appeal='{appeal}']").get_attribute("data-status") == "decided"
        assert "已仲裁" in page.inner_text(f"tr[data-appeal='{appeal}']")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.click(f"tr[data-appeal='{appeal}'] a")
        page.wait_for_selector("[data-timeline]")
        assert page.locator("[data-timeline] tr[data-event]").count() == 6
        assert page.inner_text("[data-line='0'] [data-line-scores]") == " · ".join(  # names with scores
            f"{name} {score:+d}" for name, score in zip(PLAYERS, EXAMPLE_SCORES, strict=True))
        assert page.inner_text("[data-step-kind=decision] [data-vote]").strip() == "2 / 1 / 0"
        assert page.locator("[data-step-kind=decision] [data-outcome=weighted]").count() == 1
        assert "加权调整分" in page.inner_text("[data-step-kind=decision]")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), size
        if size is LAPTOP:
            page.click("#lang-toggle")  # English on request: the same page's strings
            assert "Weighted adjusted score" in page.inner_text("[data-step-kind=decision]")
            page.click("#lang-toggle")
        page.click("a[data-evidence]")
        page.wait_for_url(f"**/deals/{event.deal}?step=4&view=seat:2")
        page.wait_for_selector('body[data-ready="1"]')
        assert step_of(page) == 4
        page.goto(f"{server.url}/appeals/{live}")
        assert page.locator("[data-withheld]").count() == 1
        assert "BJ" not in page.content()
        context.close()


def test_the_committee_previews_and_decides_a_60_40_weighted_score_of_two_lines_on_a_tablet(browser, walked):
    server = walked[0]
    event = Event(server, "申诉决定杯")  # a deal of its own: one appeal at a time replaces a deal's score
    before = event.totals()
    appeal = event.file(step=3).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    played = EXAMPLE_RECORD["actions"][3:]
    server.post(f"{path}/lines", {"from_step": 3, "actions": played, "label": "实际打法"}, token=event.referee)
    state = doudizhu_play.ENGINE.new_deal(DealSetup("doudizhu", {}, PLAYERS, 2, EXAMPLE_RECORD["hands"],
                                                    EXAMPLE_RECORD["kitty"], {}))
    for action in EXAMPLE_RECORD["actions"][:3]:
        doudizhu_play.ENGINE.apply(state, action)
    other: list[dict] = []
    doudizhu_play.play_out(state, random.Random(11), other)  # another legal way the deal could have gone
    other_scores = doudizhu_play.ENGINE.result(state)["scores"]
    server.post(f"{path}/lines", {"from_step": 3, "actions": other, "label": "另一种打法"}, token=event.referee)
    server.post(f"{path}/ruling", {"outcome": {"kind": "assigned", "scores": [-2, -2, 4]}, "reason": "顺子无效"})
    server.post(f"{path}/committee", {"reason": "不服"}, token=event.referee)
    ruled = event.totals()
    phone = browser.new_context(viewport=PHONE)
    small = phone.new_page()
    small.goto(f"{server.url}/appeals/{appeal}")
    assert small.locator("#decision-form").is_visible()
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.close()
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(f"{server.url}/appeals/{appeal}")
    preview_weighted_decision(page, event.committee, "两条推演 60/40 加权", event.head)
    expected = weighted_totals(before, other_scores)
    changed = [p for p in PLAYERS if expected[p] != ruled[p]]
    assert page.locator("#decision-changes li[data-player]").count() == len(changed)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert "token" not in page.url and event.committee not in page.url
    page.click("#decision-submit")
    page.wait_for_selector("[data-step-kind=decision] [data-outcome=weighted]")
    assert event.totals() == expected
    explained = server.get(f"/api/tournaments/{event.tournament}/standings/王五/explain").json()
    assert {a["appeal"]["id"] for a in explained["adjustments"] if "appeal" in a} >= {appeal}
    context.close()
