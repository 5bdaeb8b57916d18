"""The committee's pages as issue 23 found them (defects 16–19, 21), in Chromium: the result-blind review holds
nothing past the judged step until the committee reveals it; steps counted as a person counts them; names with
scores; the impact preview lists every affected player and warns when a table's end is undone; the printed
report; and the text scan (tests/support/text_scan.py) over the appeal pages in Chinese and English.

A tournament of its own per test module (test_appeals.Event: one finished 斗地主 deal of 33 actions at table 1,
scores [2, 2, −6]; a live deal at table 2)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store
from test_appeals import PLAYERS, Event
from test_viewer_browser import CHROMIUM, LAPTOP
from text_scan import describe, scan_page, set_language

from fixtures import _record_tournament, demo_document

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")

PHONE = {"width": 390, "height": 844}
JUDGED = 9
RESPONSE = "顺子合法，没有人说话"  # the other side's statement, written in on the appeal page (defect 19)
LENGTH = len(EXAMPLE_RECORD["actions"])  # 33: what a result-blind page must not tell


class Filed:
    """An appeal at step 9 of the finished deal, with evidence at step 4 and a line from step 9 (as played), and one
    at the deal's last step (the review there must not say the deal is over)."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.event = Event(server, "仲裁委员会杯")
        self.appeal = self.event.file(step=JUDGED).json()["appeal_id"]
        path = f"/api/appeals/{self.appeal}"
        assert server.post(f"{path}/evidence", {"reference": {"deal_id": self.event.deal, "step": 4,
                                                              "viewpoint": "seat:2"}, "note": "第4步"},
                           token=self.event.referee).status_code == 201
        assert server.post(f"{path}/lines", {"from_step": JUDGED, "actions": EXAMPLE_RECORD["actions"][JUDGED:],
                                             "label": "实际打法"}, token=self.event.referee).status_code == 201
        self.at_end = self.event.file(step=LENGTH).json()["appeal_id"]


@pytest.fixture(scope="module")
def filed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Filed]:
    server = LiveServer(Store.sqlite(Path(tmp_path_factory.mktemp("committee")) / "fupan.sqlite")).start()
    yield Filed(server)
    server.stop()


def boot_of(page: Any) -> dict[str, Any]:
    return json.loads(page.inner_text("#deal-boot") if page.locator("#deal-boot").count() else "{}")


def test_16_nothing_on_the_appeal_page_leads_past_the_judged_step(browser, filed):
    """Defect 16: the header's step link, each line's and each evidence's link open the result-blind review, never
    the full viewer; the sandbox's step box stops at the judged step; the deal's length is nowhere in the page."""
    server = filed.server
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{server.url}/appeals/{filed.appeal}")
    html = page.content()
    assert not page.locator(f"a[href*='/deals/{filed.event.deal}']").count(), "a link to the full viewer"
    assert page.locator("a[data-against]").get_attribute("href").startswith(f"/appeals/{filed.appeal}/review")
    for link in page.locator("[data-line] a, a[data-evidence]").all():
        assert link.get_attribute("href").startswith(f"/appeals/{filed.appeal}/review"), link.get_attribute("href")
    assert page.get_attribute("#sandbox-from", "max") == str(JUDGED)
    assert f'"{LENGTH}"' not in html and f"={LENGTH}" not in html
    # The review the header opens: the judged step and nothing of the deal's end in its data.
    page.click("a[data-against]")
    page.wait_for_selector('body[data-ready="1"]')
    assert page.evaluate("document.body.dataset.total") == str(JUDGED)
    boot = boot_of(page)
    assert "deal_url" not in boot and "version" not in boot
    # The report, printed before the decision: no recorded score (the result) in its score change.
    page.goto(f"{server.url}/appeals/{filed.appeal}/report")
    assert page.locator("[data-recorded], [data-now]").count() == 0
    page.context.close()


def test_16_the_review_at_the_deals_last_step_does_not_say_the_deal_is_over(browser, filed):
    server = filed.server
    for view in ("referee", "seat:0"):
        frames = server.get(f"/ui-api/appeals/{filed.at_end}/frames?viewpoint={view}").json()
        assert frames["frames"][-1]["view"]["phase"] != "finished"
        assert "finished" not in json.dumps(frames)
        api = server.get(f"/api/appeals/{filed.at_end}/frames?viewpoint={view}", token=filed.event.referee).json()
        assert "finished" not in json.dumps(api)
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/appeals/{filed.at_end}/review?step={LENGTH}&view=seat:0")
    page.wait_for_selector('body[data-ready="1"]')
    text = page.inner_text("body")
    assert "本局结束" not in text and "出完" not in text and "农民胜" not in text and "地主胜" not in text
    page.context.close()


def scan_allowed(filed: Filed) -> list[str]:
    """Words people typed on these pages: the players, the tournament, the statement, the notes and labels."""
    return [*PLAYERS, "仲裁委员会杯", "王五 认为第4步的顺子应判无效", "第4步", "实际打法", RESPONSE]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_appeal_pages_read_as_words_in_both_languages(browser, filed, lang):
    """The text scan (defects 17, 21): the appeals list, the appeal, its review and its report hold no card code,
    seat index, backticked field, repr, `None`, raw HTML or word of the other language."""
    server = filed.server
    page = browser.new_context(viewport=LAPTOP).new_page()
    paths = [f"/tournaments/{filed.event.tournament}/appeals", f"/appeals/{filed.appeal}",
             f"/appeals/{filed.appeal}/review?step={JUDGED}&view=seat:1", f"/appeals/{filed.appeal}/report"]
    found = {}
    for path in paths:
        page.goto(server.url + path)
        page.wait_for_load_state("load")
        set_language(page, lang)
        if "review" in path:
            page.wait_for_selector('body[data-ready="1"]')
        findings = scan_page(page, lang, scan_allowed(filed))
        if findings:
            found[path] = describe(findings)
    page.context.close()
    assert not found, "\n".join(f"{path}:\n{text}" for path, text in found.items())


def test_17_steps_are_counted_from_one_and_the_deal_is_named(browser, filed):
    """Defect 17: the line from step 9 played the 10th action on; the deal is named by its number on the appeal
    page and in the list; a line's scores are each player's."""
    server = filed.server
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{server.url}/appeals/{filed.appeal}")
    head = page.inner_text(".record-where")
    assert re.search(r"第 ?1 ?局", head), head
    line = page.inner_text("[data-line='0']")
    assert f"第 {JUDGED + 1} 个动作" in line, line
    scores = page.inner_text("[data-line='0'] [data-line-scores]")
    assert all(name in scores for name in PLAYERS), scores
    page.goto(f"{server.url}/tournaments/{filed.event.tournament}/appeals")
    assert re.search(r"第 ?1 ?局", page.inner_text(f"tr[data-appeal='{filed.appeal}']"))
    # The pages' paths name the appeal by its table and category, never by a piece of its id
    for path in ("", f"/review?step={JUDGED}&view=seat:1", "/report"):
        page.goto(f"{server.url}/appeals/{filed.appeal}{path}")
        crumbs = page.inner_text("nav.crumbs")
        assert filed.appeal[:8] not in crumbs and re.search(r"第 ?1 ?桌", crumbs), crumbs
    page.context.close()


def test_18_the_preview_lists_every_affected_player_and_warns_when_the_tables_end_is_undone(browser, filed):
    """Defect 18, on the demo's 斗地主 table 1 (王芳 reached 20 chips with +3 in its 11th deal): an assigned
    score of −1 / +1 / −1 for that deal leaves 张伟's and 李强's totals as they were — they are listed all the
    same — and takes 王芳 to 18 chips, short of the target: the preview says the table's end is undone."""
    server = filed.server
    service = server.service
    assert service is not None
    tournament = _record_tournament(service, demo_document("doudizhu_tournament.json"))
    table = next(m for m in service.tables.of_tournament(tournament["id"]) if m["table"] == "1")
    deal = service.tables.get(table["id"])["deals"][10]["deal_id"]
    path = f"/api/matches/{table['id']}/appeals"
    filed_late = server.post(path, {"against": {"kind": "result", "deal_id": deal}, "category": "scoring_error",
                                    "statement": "第 11 局计分有误", "accept_late": "赛后发现"})
    assert filed_late.status_code == 201, filed_late.text
    appeal = filed_late.json()["appeal_id"]
    assert server.post(f"/api/appeals/{appeal}/ruling", {"outcome": {"kind": "stands"}, "reason": "维持"}).ok
    assert server.post(f"/api/appeals/{appeal}/committee", {"reason": "不服"}).ok
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/appeals/{appeal}")
    page.fill("#decision-token", filed.event.committee)
    page.select_option("#decision-kind", "assigned")
    page.fill("#decision-scores", "-1 / 1 / -1")
    page.click("#decision-preview")
    page.wait_for_selector("#decision-changes li")
    listed = {item.get_attribute("data-player") for item in page.locator("#decision-changes li[data-player]").all()}
    assert listed >= {"张伟", "王芳", "李强"}, listed
    assert page.is_visible("#decision-end")
    warning = page.inner_text("#decision-end")
    assert "王芳" in warning and "18" in warning and "20" in warning, warning
    # The committee's token is kept in the tab now: the form asks for it no more (an empty field said "type it")
    page.reload()
    page.wait_for_selector("#decision-form", state="visible")
    assert page.is_hidden("#decision-token")
    page.context.close()


def test_17_only_the_forms_of_the_callers_role_and_a_disabled_button_looks_disabled(browser, filed):
    """Defect 17: without a token the appeal page offers no step's form; a table's referee gets evidence, the
    sandbox, withdrawal (the filing side's) but not the ruling (the chief referee's) nor the decision; the
    committee gets the decision. 加入申诉 before the line ends looks as disabled as it is."""
    server, event = filed.server, filed.event
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{server.url}/appeals/{filed.appeal}")
    page.wait_for_selector("body[data-may-take]", state="attached")
    for form in ("#evidence-form", "#ruling-form", "#withdrawal-form", "#sandbox"):
        assert not page.is_visible(form), form
    page.fill("#appeal-token-input", event.referee)
    page.click("#appeal-token-form button[type=submit]")
    page.wait_for_selector("#evidence-form", state="visible")
    assert page.is_visible("#withdrawal-form") and page.is_visible("#sandbox")
    assert not page.is_visible("#ruling-form")
    page.click("#sandbox-start")
    page.wait_for_selector("#sandbox[data-busy='0']")
    assert page.is_disabled("#sandbox-keep")
    opacity = float(page.eval_on_selector("#sandbox-keep", "b => getComputedStyle(b).opacity"))
    assert opacity < 0.7, opacity
    page.goto(f"{server.url}/tournaments/{event.tournament}/appeals")
    page.wait_for_selector("#file-form", state="visible")  # the referee of table 1 may file
    page.click("#appeal-token-forget")
    page.wait_for_selector("#file-form", state="hidden")
    page.context.close()


PAGE_MARGIN = """() => [...document.styleSheets].flatMap((sheet) => { try { return [...sheet.cssRules]; } catch (e) {
  return []; } }).filter((rule) => rule.type === CSSRule.PAGE_RULE).map((rule) => rule.style.margin).join(" ")"""


def test_19_the_printed_report_has_what_a_committee_signs(browser, filed):
    """Defect 19: every hand as dealt (the deal is over), each line's moves, both sides' statements, the rule
    applied, a signature block, and page margins for print."""
    server = filed.server
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{server.url}/appeals/{filed.appeal}/report")
    page.wait_for_selector("[data-report]")
    hands = page.locator("[data-report-part=hands] [data-hand]")
    assert hands.count() == len(PLAYERS)
    for seat in range(len(PLAYERS)):
        shown = page.eval_on_selector_all(f"[data-report-part=hands] [data-hand='{seat}'] [data-card]",
                                          "e => e.map(c => c.dataset.card)")
        assert sorted(shown) == sorted(EXAMPLE_RECORD["hands"][seat])
    moves = page.locator("[data-report-part=lines] [data-line='0'] [data-line-move]")
    assert moves.count() == LENGTH - JUDGED
    statements = page.inner_text("[data-report-part=statements]")
    assert "王五 认为第4步的顺子应判无效" in statements and page.locator("[data-side=other]").count() == 1
    assert page.locator("[data-report-part=rule] a[href='/rules/doudizhu']").count() == 1
    assert page.locator("[data-report-part=signatures] [data-signature]").count() >= 3
    page.emulate_media(media="print")
    assert page.is_visible("[data-report-part=signatures]")
    assert "mm" in page.evaluate(PAGE_MARGIN)
    page.context.close()


def test_19_the_committee_writes_down_the_other_sides_statement_and_the_report_prints_it(browser, filed):
    """Defect 19: the other side's statement has its own form (the committee's or the table's referee's): who
    says it among the table's players who did not file, and what; the page lists it, the report prints it on
    the other side's half, beside the appellant's."""
    server, event = filed.server, filed.event
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/appeals/{filed.appeal}")
    page.wait_for_selector("body[data-may-take]", state="attached")
    assert not page.is_visible("#response-form")  # no token: no form
    page.fill("#appeal-token-input", event.committee)
    page.click("#appeal-token-form button[type=submit]")
    page.wait_for_selector("#response-form", state="visible")
    choices = page.eval_on_selector_all("#response-form [name=on_behalf_of]", "e => e.map(b => b.value)")
    assert "王五" not in choices and set(choices) == set(PLAYERS) - {"王五"}  # 王五 filed it
    page.check("#response-form [name=on_behalf_of][value='张三']")
    page.fill("#response-form textarea[name=statement]", RESPONSE)
    with page.expect_navigation():
        page.click("#response-form button[type=submit]")
    page.wait_for_selector("#responses li[data-response]")
    listed = page.inner_text("#responses")
    assert RESPONSE in listed and "张三" in listed
    page.goto(f"{server.url}/appeals/{filed.appeal}/report")
    page.wait_for_selector("[data-report]")
    other = page.inner_text("[data-side=other]")
    assert RESPONSE in other and "张三" in other
    assert RESPONSE not in page.inner_text("[data-side=appellant]")
    assert page.locator("[data-side=other] .write-in").count() == 0
    page.context.close()


def refused_in_the_browser(page: Any, requests: str) -> list[dict[str, Any]]:
    """Answer the page's requests to `requests` in the browser with a refusal (code `test`), so nothing is stored;
    the bodies the page sent, in order."""
    sent: list[dict[str, Any]] = []

    def answer(route: Any) -> None:
        sent.append(route.request.post_data_json)
        route.fulfill(status=422, json={"error": {"code": "test", "message": "not stored", "message_zh": "未保存"}})

    page.route(requests, answer)
    return sent


def test_the_filing_form_picks_the_step_by_what_happened_there(browser, filed):
    """Issue 23's walk: the filing form asked for the step as a bare number box. Once a deal is chosen, its steps
    are listed by what happened there — the player and the cards, in the page's language — and the step picked is
    sent by its number (the API's contract); the browser's check of an empty statement says so in the page's
    language. The request is answered in the browser: nothing is filed."""
    server, event = filed.server, filed.event
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(f"sessionStorage.setItem('fupan.token', {json.dumps(event.referee)});")
    page = context.new_page()
    sent = refused_in_the_browser(page, "**/api/matches/*/appeals")
    page.goto(f"{server.url}/tournaments/{event.tournament}/appeals")
    page.wait_for_selector("#file-form", state="visible")
    page.select_option("#file-form [name=match]", event.match)
    page.select_option("#file-form [name=kind]", "deal")
    page.select_option("#file-form [name=deal]", event.deal)
    page.wait_for_selector(f"#file-form[data-steps-count='{LENGTH + 1}']")
    assert page.is_visible("#file-step") and not page.is_visible("#file-form [name=step_number]")
    # the steps' long names never widen the form past a phone's screen
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    set_language(page, "zh")
    assert page.inner_text("#file-step option[value='4']") == "第 4 步：王五 出 ♠3 ♣4 ♥5 ♦6 ♦7 ♥8 ♥9（单顺）"
    set_language(page, "en")
    assert page.inner_text("#file-step option[value='4']") == "Step 4: 王五 plays ♠3 ♣4 ♥5 ♦6 ♦7 ♥8 ♥9 (straight)"
    page.select_option("#file-step", "4")
    # The browser's own check of an empty statement speaks the page's language, not the browser's (issue 23's walk).
    statement = "#file-form [name=statement]"
    for lang, said in (("en", "Please fill in this field."), ("zh", "请填写此项。")):
        set_language(page, lang)
        page.click("#file-form button[type=submit]")
        assert page.eval_on_selector(statement, "field => field.validationMessage") == said, lang
    assert not sent  # nothing sent while the form is invalid
    page.fill(statement, "王五 认为第4步的顺子应判无效")
    assert page.eval_on_selector(statement, "field => field.validationMessage") == ""
    page.click("#file-form button[type=submit]")
    page.wait_for_selector("#file-form .appeal-said[data-refused='test']")
    assert sent[0]["against"] == {"kind": "deal", "deal_id": event.deal, "step": 4}
    context.close()


def test_an_outcome_form_without_lines_does_not_start_on_a_weighted_score(browser, filed):
    """Issue 23's walk: the ruling's (and the decision's) outcome started on a weighted score even when no line was
    attached, its parts' line lists empty. With no line the weighted score is offered disabled, saying why, and the
    form starts on "the result stands"; with a line it still starts on the weighted score."""
    server = filed.server
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script(f"sessionStorage.setItem('fupan.token', {json.dumps(server.organiser)});")
    page = context.new_page()
    page.goto(f"{server.url}/appeals/{filed.at_end}")  # no line attached
    page.wait_for_selector("#ruling-form", state="visible")
    assert page.input_value("#ruling-kind") == "stands"
    assert page.is_disabled("#ruling-kind option[value=weighted]")
    assert "需先附上推演" in page.inner_text("#ruling-kind option[value=weighted]")
    assert not page.locator(".ruling-part").first.is_visible()
    page.goto(f"{server.url}/appeals/{filed.appeal}")  # one line attached
    page.wait_for_selector("#ruling-form", state="visible")
    assert page.input_value("#ruling-kind") == "weighted" and page.locator(".ruling-part").first.is_visible()
    context.close()


def test_the_evidence_the_sandbox_and_the_board_pick_their_step_by_what_happened_there(browser, filed):
    """Issue 23's walk, continued: the evidence's step, the sandbox's first step and the board's start step were bare
    number boxes. Each lists the deal's steps in words (the filing form's chooser, fupan.js), as the reader may see
    them: an undecided appeal's page and board stop at the judged step, a finished deal's board lists every step;
    the step picked is the number sent."""
    server, event = filed.server, filed.event
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(f"sessionStorage.setItem('fupan.token', {json.dumps(event.referee)});")
    page = context.new_page()
    sent = refused_in_the_browser(page, "**/api/appeals/*/evidence")
    page.goto(f"{server.url}/appeals/{filed.appeal}")
    for box in ("#evidence-step", "#sandbox-from"):
        page.wait_for_selector(f"{box}[data-steps-count='{JUDGED + 1}']", state="attached")
        assert page.is_visible(f"{box}-pick") and not page.is_visible(box), box
        assert page.input_value(f"{box}-pick") == str(JUDGED)  # starts on the judged step
        set_language(page, "zh")
        assert page.inner_text(f"{box}-pick option[value='4']") == "第 4 步：王五 出 ♠3 ♣4 ♥5 ♦6 ♦7 ♥8 ♥9（单顺）"
        set_language(page, "en")
        assert page.inner_text(f"{box}-pick option[value='4']").startswith("Step 4: 王五 plays ♠3"), box
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    page.select_option("#evidence-step-pick", "4")
    page.click("#evidence-form button[type=submit]")
    page.wait_for_selector("#evidence-form .appeal-said[data-refused='test']")
    assert sent[0]["reference"]["step"] == 4
    # the appeal's board, result-blind: up to the judged step; picking a step starts the board there
    page.goto(f"{server.url}/appeals/{filed.appeal}/board?step=2")
    page.wait_for_selector(f"#board-step[data-steps-count='{JUDGED + 1}']", state="attached")
    assert page.input_value("#board-step-pick") == "2" and not page.is_visible("#board-step")
    page.select_option("#board-step-pick", "5")
    page.click("#board-start button[type=submit]")
    page.wait_for_url(re.compile(r"[?&]step=5$"))
    # a finished deal's own board: every step
    page.goto(f"{server.url}/deals/{event.deal}/board")
    page.wait_for_selector(f"#board-step[data-steps-count='{LENGTH + 1}']", state="attached")
    context.close()
