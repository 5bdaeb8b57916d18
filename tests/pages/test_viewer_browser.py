"""The viewer in real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright for Python).

Every page here runs with the network cut off: the browser context aborts any request that is not for the
test server, and each test ends by checking that none was even attempted. Screenshots go to artifacts/.
"""

from __future__ import annotations

import json
import os
import platform
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import requests
import viewer_support
from conftest import EXAMPLE_RECORD
from playwright.sync_api import Browser, BrowserContext, Page, Request, Route
from viewer_support import (
    ARTIFACTS,
    DemoSite,
    open_viewer,
    quoted_cards,
    shot,
    start_demo_site,
    start_live_deal,
    step_of,
)

from domain.model.token import parse_token
from fixtures.random_play.shengji import random_record

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP = {"width": 1280, "height": 800}
TABLET = {"width": 820, "height": 1180}

# CI (.ci/run) installs chromium and sets FUPAN_REQUIRE_CHROMIUM, so there a missing browser fails the tests.
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("FUPAN_REQUIRE_CHROMIUM"),
    reason="Debian chromium is not installed at /usr/bin/chromium (.ci/run installs it with apt-get)",
)


site = viewer_support.site_fixture(start_demo_site, "viewer-browser")


class Offline:
    """A browser context in which only the test server answers: anything else is aborted and remembered."""

    def __init__(self, browser: Browser, site: DemoSite, viewport: dict[str, int]):
        self.host = urlparse(site.url).netloc
        self.context: BrowserContext = browser.new_context(viewport=viewport, locale="zh-CN")
        self.left: list[str] = []  # requests that tried to leave the test server
        self.requested: list[str] = []
        self.context.route("**/*", self._guard)
        self.errors: list[str] = []

    def _guard(self, route: Route, request: Request) -> None:
        url = urlparse(request.url)
        self.requested.append(request.url)
        if url.scheme in ("http", "https") and url.netloc == self.host:
            route.continue_()
        else:
            self.left.append(request.url)
            route.abort("internetdisconnected")

    def page(self) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        return page


def query_of(page: Page) -> str:
    """The address's query as the page has it now (`page.url` learns of a history.replaceState only later)."""
    return page.evaluate("location.search.slice(1)")


def frames_of(site: DemoSite, viewpoint: str, deal: str | None = None) -> dict[str, Any]:
    assert site.live.service is not None
    return site.live.service.deals.replay_all(deal or site.demo_deal, viewpoint)


# --- stepping --------------------------------------------------------------------------------------------


def test_step_forward_and_back_with_buttons_keys_and_the_slider(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    open_viewer(page, site, "?view=referee")
    total = frames_of(site, "referee")["total"]
    assert step_of(page) == 0 and page.inner_text("#step-label") == f"第 0 / {total} 步"
    assert page.locator("#table .seat").count() == 3

    for expected in (1, 2, 3):
        page.click("#btn-next")
        assert step_of(page) == expected
    page.click("#btn-prev")
    assert step_of(page) == 2 and query_of(page) == "step=2&view=referee"
    page.click("#btn-last")
    assert step_of(page) == total
    page.click("#btn-first")
    assert step_of(page) == 0

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 2
    page.keyboard.press("ArrowLeft")
    assert step_of(page) == 1
    page.keyboard.press("End")
    assert step_of(page) == total and query_of(page) == f"step={total}&view=referee"
    page.keyboard.press("Home")
    assert step_of(page) == 0
    page.keyboard.press("ArrowLeft")  # nothing before the deal
    assert step_of(page) == 0

    page.locator("#slider").fill("30")
    assert step_of(page) == 30
    page.locator("#slider").focus()  # keys on the focused slider move one step, not two
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 31
    assert page.inner_text("#timeline li.current .no") == "31"
    assert "炸弹" in page.inner_text("#step-text")  # step 31 is the bomb, with its note beside it
    assert page.locator("#step-notes .annotation").count() == 1
    page.click("#timeline li[data-step='5']")
    assert step_of(page) == 5
    shot(page, "viewer-laptop-referee")
    assert offline.errors == []


def test_autoplay_runs_and_pauses(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    page.clock.install()  # the page's timers run when the test says: autoplay's steps come exactly on time
    open_viewer(page, site, "?step=0&view=public")
    page.select_option("#speed", "200")
    page.click("#btn-play")
    page.clock.run_for(600)
    assert step_of(page) == 3  # one step each 200 ms
    page.click("#btn-play")
    page.clock.run_for(1000)
    assert step_of(page) == 3  # paused: five more steps' time, no step
    page.keyboard.press(" ")  # space plays again
    page.clock.run_for(200)
    assert step_of(page) == 4
    page.keyboard.press(" ")


def test_a_deep_link_opens_the_step_and_viewpoint_it_names(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    open_viewer(page, site, "?step=23&view=seat:2")
    assert step_of(page) == 23
    assert page.get_attribute('[data-view="seat:2"]', "aria-checked") == "true"
    expected = frames_of(site, "seat:2")["frames"][23]
    assert page.locator(".seat.pos-bottom").get_attribute("data-seat") == "2"  # the viewpoint's seat at the bottom
    assert f"{site.match['seat_names'][expected['action']['seat']]} 出" in page.inner_text("#step-text")
    assert page.inner_text("#timeline li.current .no") == "23"
    shot(page, "viewer-deep-link-step23-seat2")
    page.keyboard.press("ArrowRight")  # the link follows the viewer
    assert query_of(page) == "step=24&view=seat:2"


# --- viewpoints and hidden cards --------------------------------------------------------------------------


def dom_cards(page: Page) -> set[str]:
    return set(viewer_support.dom_cards(page))


@pytest.mark.parametrize("seat", [0, 2])
def test_a_seat_viewpoint_never_receives_another_seats_hidden_cards(site: DemoSite, offline: Offline,
                                                                    seat: int) -> None:
    hidden = viewer_support.unseen_cards(site, site.demo_deal, seat)
    assert hidden
    responses = viewer_support.answers(offline.context)
    page = offline.page()
    open_viewer(page, site, f"?step=0&view=seat:{seat}")
    total = frames_of(site, "referee")["total"]
    # Every step of the deal, drawn by the viewer's own stepping in one evaluate: the cards on the page at each.
    drawn = page.evaluate("""(total) => Array.from({length: total + 1}, (_, step) => {
        window.fupanViewer.go(step);
        return [...document.querySelectorAll("[data-card]")].map((card) => card.dataset.card);
    })""", total)
    assert len(drawn) == total + 1
    for step, cards in enumerate(drawn):
        assert not set(cards) & hidden, step
    page.keyboard.press("End")  # and by the keyboard, once
    assert step_of(page) == total
    html = page.content()
    assert not quoted_cards(html) & hidden
    assert page.locator(f".seat[data-seat='{seat}'] .hand [data-card]").count() > 0  # its own hand is drawn
    bodies = [(response.url, response.body()) for response in responses]
    assert any("/ui-api/deals/" in url for url, _ in bodies)
    for url, body in bodies:
        assert not quoted_cards(body.decode("utf-8", "replace")) & hidden, url
    shot(page, f"viewer-seat{seat}-last-step")


def test_switching_viewpoint_drops_the_hidden_cards_from_the_page(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    open_viewer(page, site, "?step=20&view=referee")
    hidden = viewer_support.unseen_cards(site, site.demo_deal, 0)
    assert hidden <= dom_cards(page) | set(frames_of(site, "referee")["frames"][0]["view"]["kitty"])
    responses = viewer_support.answers(offline.context)
    page.click('[data-view="seat:0"]')
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="seat:0"]')
    assert step_of(page) == 20 and query_of(page) == "step=20&view=seat:0"
    assert not dom_cards(page) & hidden
    assert not quoted_cards(page.content()) & hidden
    assert page.locator(".seat[data-seat='2'] .hidden-hand .card.back").count() == 9  # only the count shows
    assert responses and all(not quoted_cards(r.body().decode()) & hidden for r in responses)
    page.click('[data-view="public"]')  # a closed deal is published: the public sees every hand
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="public"]')
    assert page.is_visible("#view-note")
    assert hidden <= dom_cards(page) | set(frames_of(site, "referee")["frames"][0]["view"]["kitty"])


def test_a_game_without_its_own_renderer_steps_through_the_generic_one(site: DemoSite, offline: Offline) -> None:
    """A game whose renderer script is missing (here 升级's, answered empty) falls back to the generic renderer:
    its deals still open, step and hide hands."""
    assert site.live.service is not None
    deal, _ = site.live.service.records.import_record(random_record(random.Random(7)))
    middle = deal["actions"] // 2
    page = offline.page()
    page.route("**/ui/static/games/shengji.js", lambda route: route.fulfill(content_type="text/javascript", body=""))
    open_viewer(page, site, f"?step={middle}&view=seat:1", deal=deal["id"])
    assert page.locator("#table .generic .seat").count() == 4
    view = frames_of(site, "seat:1", deal["id"])["frames"][middle]["view"]
    for seat in view["seats"]:
        faces = page.locator(f".seat[data-seat='{seat['seat']}'] [data-card]").count()
        backs = page.locator(f".seat[data-seat='{seat['seat']}'] .card.back").count()
        assert (faces, backs) == ((seat["count"], 0) if seat["seat"] == 1 else (0, seat["count"]))
    page.keyboard.press("ArrowRight")
    assert step_of(page) == middle + 1
    shot(page, "viewer-shengji-generic")
    assert offline.errors == []


def test_a_live_deal_offers_the_public_view_only_to_an_anonymous_browser(site: DemoSite, offline: Offline) -> None:
    deal, in_hands = start_live_deal(site, "browser-live")
    page = offline.page()
    page.goto(f"{site.url}/deals/{deal}?step=3&view=seat:0")
    page.wait_for_selector('body[data-ready="error"]')
    assert "无法以这个视角查看" in page.inner_text("#table")
    with viewer_support.in_english(page):  # the refusal is said again in the language chosen
        assert "not available" in page.inner_text("#table") and "无法" not in page.inner_text("#table")
    page.click('[data-view="public"]')
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="public"]')
    assert step_of(page) == 3
    assert page.locator("#table .hand [data-card]").count() == 0  # no hand of a deal in play
    assert not dom_cards(page) & in_hands and not quoted_cards(page.content()) & in_hands
    assert page.locator("#table .card.back").count() > 0
    shot(page, "viewer-live-public")


def test_a_token_opens_the_hidden_views_of_a_deal_in_play_in_this_tab_only(site: DemoSite,
                                                                           offline: Offline) -> None:
    deal, _ = start_live_deal(site, "browser-token", actions=3)
    service = site.live.service
    assert service is not None
    _, bearer = service.tokens.create("appeals", label="仲裁委员会 · 浏览器")
    mine, theirs = set(EXAMPLE_RECORD["hands"][0]), set(EXAMPLE_RECORD["hands"][1])
    page = offline.page()
    page.goto(f"{site.url}/deals/{deal}?step=3&view=seat:0")
    page.wait_for_selector('body[data-ready="error"]')
    page.click("#error-token")  # the refusal offers the token form
    page.fill("#token-input", bearer)
    page.click('#token-form button[type="submit"]')
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="seat:0"]')
    assert dom_cards(page) >= mine and not dom_cards(page) & theirs  # seat 0's hand, nobody else's
    assert page.is_visible("#token-held") and bearer not in page.url
    page.click('[data-view="referee"]')
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="referee"]')
    assert dom_cards(page) >= mine | theirs
    shot(page, "viewer-live-with-token")

    other_tab = offline.page()  # sessionStorage belongs to the tab: another tab has no token
    other_tab.goto(f"{site.url}/deals/{deal}?step=3&view=seat:0")
    other_tab.wait_for_selector('body[data-ready="error"]')

    page.click("#token summary")
    page.click("#token-forget")
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="public"]')
    assert not dom_cards(page) & (mine | theirs) and page.is_visible("#token-none")

    page.click("#token summary")
    page.fill("#token-input", bearer)
    page.click('#token-form button[type="submit"]')
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="public"]')
    page.click('[data-view="referee"]')
    page.wait_for_selector('body[data-ready="1"][data-viewpoint="referee"]')
    service.tokens.revoke(str(parse_token(bearer)[0]))  # type: ignore[index]
    # The page is following the deal: its next poll is refused, and it says why and drops the token.
    page.wait_for_selector('body[data-ready="error"]', timeout=15_000)
    assert "已被吊销" in page.inner_text("#table") and page.is_visible("#token-none")
    assert not dom_cards(page) & (mine | theirs)


def total_of(page: Page) -> int:
    return int(page.get_attribute("body", "data-total") or "-1")


FOLLOW_MS = 2000  # static/viewer.js: a reader following a deal in play asks for news this often


def wait_until(check: Callable[[], bool], page: Page, what: str, timeout_ms: int = 15_000) -> None:
    for _ in range(timeout_ms // 100):
        if check():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_live_deal_follows_the_play_until_it_ends(site: DemoSite, offline: Offline) -> None:
    deal, in_hands = start_live_deal(site, "browser-follow", actions=5)
    service = site.live.service
    assert service is not None
    following, looking_back = offline.page(), offline.page()
    following.clock.install()  # its polls come when the test runs its clock (looking_back's: on the real one)
    following.goto(f"{site.url}/deals/{deal}?step=5&view=public")
    looking_back.goto(f"{site.url}/deals/{deal}?step=2&view=public")
    for page in (following, looking_back):
        page.wait_for_selector('body[data-ready="1"]')
        assert page.is_visible("#following") and "进行中" in page.inner_text("#deal-status")

    service.deals.record(deal, EXAMPLE_RECORD["actions"][5])  # recorded at the table, elsewhere
    following.clock.run_for(FOLLOW_MS)  # its next poll
    wait_until(lambda: step_of(following) == 6, following, "the reader at the last step to move on")
    wait_until(lambda: total_of(looking_back) == 6, looking_back, "the other reader's timeline to grow")
    assert step_of(looking_back) == 2  # looking back: left where they were
    assert "6." in following.inner_text("#step-no") and following.locator("#timeline li").count() == 7
    shot(following, "viewer-live-following")

    for action in EXAMPLE_RECORD["actions"][6:]:
        service.deals.record(deal, action)
    following.clock.run_for(FOLLOW_MS)
    total = len(EXAMPLE_RECORD["actions"])
    wait_until(lambda: step_of(following) == total, following, "the last action")
    wait_until(lambda: "已结束" in following.inner_text("#deal-status"), following, "the deal to show as over")
    assert not following.is_visible("#following")
    # Published: the public view now shows every hand (docs/SECURITY.md §4), which it never did while in play.
    wait_until(lambda: following.is_visible("#view-note"), following, "the published note")
    following.click("#btn-first")
    assert dom_cards(following) >= in_hands
    shot(following, "viewer-live-followed-to-the-end")
    # The other reader polls on its own 2 s clock, up to a poll behind: count once it too has seen the end.
    wait_until(lambda: "已结束" in looking_back.inner_text("#deal-status"), looking_back,
               "the other reader to see the end")
    requests = len(offline.requested)
    following.clock.run_for(5 * FOLLOW_MS)  # five polls' time: a poll still scheduled would now be sent …
    # … and be seen before a request the page sends after it.
    assert following.evaluate("fetch('/api/tournaments').then((answer) => answer.status)") == 200
    assert offline.requested[requests:] == [f"{site.url}/api/tournaments"]  # over: no more asking
    assert offline.errors == []


# --- charts, standings, record, language, layout -----------------------------------------------------------


def test_match_page_draws_the_chips_chart_with_plotly(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    viewer_support.open_match_page(page, site.url, site.match["id"], site.match["seat_names"], "deals", len(site.deals))
    assert any("/ui/vendor/plotly.min.js" in url for url in offline.requested)
    shot(page, "match-chips-chart", full_page=True)
    page.click(f"a[href='/deals/{site.deals[1]['deal_id']}']")  # on to a deal from its row
    page.wait_for_selector('body[data-ready="1"]')
    assert offline.errors == []


def test_standings_page_shows_the_standings_or_says_they_are_not_ready(site: DemoSite, offline: Offline) -> None:
    api = requests.get(f"{site.url}/api/tournaments/{site.tournament['id']}/standings", timeout=30)
    page = offline.page()
    page.goto(f"{site.url}/tournaments/{site.tournament['id']}/standings")
    if api.status_code == 404:  # the projections do not serve standings yet: a message, never made-up rows
        page.wait_for_selector('#standings-status[data-state="unavailable"]')
        assert "积分榜暂不可用" in page.inner_text("#standings-status")
        assert page.locator("#standings-table tr").count() == 0
    else:
        standings = api.json()
        page.wait_for_selector("#standings-table tbody tr")
        assert page.locator("#standings-table tbody tr").count() == len(standings["rows"])
        if standings.get("progression"):
            page.wait_for_selector("#standings-chart svg.main-svg")
    shot(page, "standings")


def test_the_record_page_prints_the_deal_in_chinese_notation(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    page.goto(f"{site.url}/deals/{site.demo_deal}/record")
    moves = page.locator("ol.moves > li")
    assert moves.count() == frames_of(site, "public")["total"]
    assert "王芳 成为地主" in page.inner_text("ol.moves")
    assert page.locator("ol.moves .annotation").count() == 2
    page.emulate_media(media="print")
    assert not page.is_visible(".topbar")
    shot(page, "record-print", full_page=True)


def test_language_toggle_switches_every_label_and_is_remembered(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    open_viewer(page, site, "?step=4&view=referee")
    assert page.inner_text("#step-label") == f"第 4 / {frames_of(site, 'referee')['total']} 步"
    page.click("#lang-toggle")
    assert page.get_attribute("html", "data-lang") == "en"
    assert page.inner_text("#step-label").startswith("Step 4 of")
    assert "becomes landlord" in page.inner_text("#step-text")
    assert page.get_attribute("#btn-next", "title") == "Next step"
    assert "Landlord" in page.inner_text("#table") and "Multiplier" in page.inner_text("#game-info")
    page.reload()
    page.wait_for_selector('body[data-ready="1"]')
    assert page.get_attribute("html", "data-lang") == "en"
    assert page.is_visible("text=Replay of deal 4")
    assert page.inner_text("#lang-toggle") == "中文"
    shot(page, "viewer-english")
    page.click("#lang-toggle")
    assert page.inner_text("#step-label").startswith("第 4 /")


@pytest.mark.parametrize("name,viewport", [("laptop", LAPTOP), ("tablet", TABLET)])
def test_the_viewer_fits_a_laptop_and_a_tablet(site: DemoSite, browser: Browser, name: str,
                                               viewport: dict[str, int]) -> None:
    context = Offline(browser, site, viewport)
    try:
        page = context.page()
        open_viewer(page, site, "?step=31&view=seat:1")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"horizontal scrolling at {viewport}"
        # The table, the step in words and the controls are all on the first screen.
        for selector in ("#table", "#step-text", "#btn-next", "#slider"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["y"] + box["height"] <= viewport["height"], selector
        bottom_hand = page.locator(".seat.pos-bottom .hand").bounding_box()
        assert bottom_hand is not None and bottom_hand["x"] >= 0
        shot(page, f"viewer-{name}")
    finally:
        context.context.close()
    assert context.left == []


# --- offline ------------------------------------------------------------------------------------------------


def test_every_page_renders_fully_with_the_network_cut_off(site: DemoSite, offline: Offline) -> None:
    page = offline.page()
    page.goto(f"{site.url}/")
    page.click(f"a[href='/tournaments/{site.tournament['id']}']")
    page.click(f"a[href='/matches/{site.match['id']}']")
    page.wait_for_selector("#match-chart svg.main-svg")
    page.click(f"a[href='/deals/{site.demo_deal}']")
    page.wait_for_selector('body[data-ready="1"]')
    assert page.locator("#table [data-card]").count() > 0 and page.locator("#timeline li").count() > 0
    page.goto(f"{site.url}/deals/{site.demo_deal}/record")
    assert page.locator("ol.moves > li").count() > 0
    page.goto(f"{site.url}/tournaments/{site.tournament['id']}/standings")
    page.wait_for_selector("#standings-status[data-state], #standings-table tbody tr")
    # Fonts, styles and images all came from the page's own server (or nowhere): nothing was even tried elsewhere.
    assert offline.left == []
    assert all(urlparse(url).netloc == offline.host for url in offline.requested)
    assert offline.errors == [] or all("standings" in error or "404" in error for error in offline.errors)


# --- timing -------------------------------------------------------------------------------------------------


def test_measure_step_render_time(site: DemoSite, offline: Offline, capsys: pytest.CaptureFixture[str]) -> None:
    """Render time of every step of every demo deal (referee view: the most cards), from the frame being in
    hand to the DOM laid out; printed and saved to artifacts/viewer-render-timing.json, not asserted.

    The first draw after each page load is reported apart: it also pays for the page's first style and layout
    pass, which stepping does not."""
    page = offline.page()
    steps: list[float] = []
    first: list[float] = []
    for entry in site.deals:
        open_viewer(page, site, "?step=0&view=referee", deal=entry["deal_id"])
        total = frames_of(site, "referee", entry["deal_id"])["total"]
        # Every step in turn, stepped by the viewer's own code in one evaluate (a key press per step cost more in
        # round trips than the rendering measured).
        page.evaluate("(total) => { for (let step = 1; step <= total; step += 1) window.fupanViewer.go(step); }", total)
        assert step_of(page) == total
        samples = [sample["ms"] for sample in page.evaluate("window.fupanViewer.renderTimes")]
        assert len(samples) == total + 1
        first.append(samples[0])
        steps.extend(samples[1:])
    steps.sort()

    def percentile(share: float) -> float:
        return round(steps[min(len(steps) - 1, round(share * (len(steps) - 1)))], 2)

    browser = page.context.browser
    report = {
        "steps": len(steps), "p50_ms": percentile(0.5), "p95_ms": percentile(0.95), "max_ms": round(steps[-1], 2),
        "first_draw_max_ms": round(max(first), 2), "chromium": browser.version if browser else "",
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "viewer-render-timing.json").write_text(json.dumps(report, indent=2))
    with capsys.disabled():
        print(f"\nviewer step render: {report['steps']} steps, p50 {report['p50_ms']} ms, p95 {report['p95_ms']} ms, "
              f"max {report['max_ms']} ms; first draw after load ≤ {report['first_draw_max_ms']} ms")


def test_a_live_deal_is_followed_by_push_with_polling_off(site: DemoSite, offline: Offline) -> None:
    """The deal's stream (docs/streams.md) tells the page of each action: with polling off (`?poll=0`) and the page's
    clock stopped, a reader at the last step still moves on with the play."""
    deal, _ = start_live_deal(site, "browser-push", actions=5)
    service = site.live.service
    assert service is not None
    page = offline.page()
    page.clock.install()  # no timer of the page runs: only a push can bring the next action
    page.goto(f"{site.url}/deals/{deal}?step=5&view=public&poll=0")
    page.wait_for_selector('body[data-ready="1"][data-stream="live"]')
    for step in (6, 7):
        service.deals.record(deal, EXAMPLE_RECORD["actions"][step - 1])
        page.wait_for_function(f"() => document.body.dataset.total === '{step}'", timeout=5_000)
        wait_until(lambda s=step: step_of(page) == s, page, f"the reader to move on to step {step}")
    assert offline.errors == []


def test_the_table_tournament_and_standings_pages_follow_by_push_with_polling_off(site: DemoSite,
                                                                                  offline: Offline) -> None:
    """Each page follows its stream (docs/streams.md, static/live.js): with polling off, a deal recorded to its end
    elsewhere shows on the table's page, the tournament's and the standings as a fresh load would show them."""
    service = site.live.service
    assert service is not None
    record = EXAMPLE_RECORD
    tournament, _ = service.tournaments.create("推送杯", "doudizhu")
    for name in record["seats"]:
        service.tournaments.register_player(tournament["id"], name)
    match, _ = service.tables.open(tournament["id"], "1", record["seats"], record["first"])
    deal, _ = service.deals.start(match=match["id"], hands=record["hands"], kitty=record["kitty"])
    paths = {"table": f"/matches/{match['id']}", "tournament": f"/tournaments/{tournament['id']}",
             "standings": f"/tournaments/{tournament['id']}/standings"}
    watched = {"table": "main", "tournament": "#tables", "standings": "#standings-table"}
    pages = {}
    for name, path in paths.items():
        page = offline.page()
        page.goto(f"{site.url}{path}?poll=0")
        page.wait_for_selector('body[data-stream="live"]')
        pages[name] = page
    before = {name: page.inner_text(watched[name]) for name, page in pages.items()}
    for action in record["actions"]:
        service.deals.record(deal["id"], action)
    fresh = offline.page()
    for name, path in paths.items():
        fresh.goto(f"{site.url}{path}")
        if name == "standings":
            fresh.wait_for_selector("#standings-table tr")
        now = fresh.inner_text(watched[name])
        assert now != before[name], name  # the deal's end shows on each page …
        page = pages[name]
        wait_until(lambda p=page, n=name, w=now: p.inner_text(watched[n]) == w, page, f"the {name} page")  # … pushed
    assert offline.errors == []


def test_a_seat_down_to_one_card_reads_1_card_in_english(site: DemoSite, offline: Offline) -> None:
    """A count's words agree with the count (`cards.n.one`): 报单 — a seat down to one card — reads "1 card",
    two or more "N cards"; Chinese says 张 either way."""
    frames = frames_of(site, "referee")["frames"]
    found = next(((step, seat["seat"]) for step, frame in enumerate(frames) for seat in frame["view"]["seats"]
                  if seat.get("count") == 1), None)
    assert found is not None, "no seat of the demo deal came down to one card"
    step, seat = found
    page = offline.page()
    open_viewer(page, site, f"?step={step}&view=referee")
    assert page.inner_text(f".seat[data-seat='{seat}'] .count") == "1 张"
    page.click("#lang-toggle")
    assert page.inner_text(f".seat[data-seat='{seat}'] .count") == "1 card"
    others = [s for s in frames[step]["view"]["seats"] if s["seat"] != seat and s.get("count", 0) > 1]
    assert others and page.inner_text(f".seat[data-seat='{others[0]['seat']}'] .count") == f"{others[0]['count']} cards"
    page.click("#lang-toggle")
