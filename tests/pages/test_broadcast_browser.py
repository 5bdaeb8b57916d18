"""The public broadcast (直播) in a real headless Chromium over the real app (issue 25 scope 2; docs/console.md), at a
laptop's size and at a phone's and a tablet's (390×844, 768×1024): with
the default one-deal delay the page never draws a card of the deal being played — checked on every frame it draws,
by a MutationObserver that keeps every card element ever added to the page with the deal it belongs to — and draws
a deal once it is over, while the next one is played. The recording goes through the API; the page is driven by
its one refresh function (what the table's stream calls), never by waiting for its poll; once, by the stream alone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer
from playwright.sync_api import Page
from test_viewer_browser import CHROMIUM, LAPTOP

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")

PLAYERS = EXAMPLE_RECORD["seats"]
ACTIONS = EXAMPLE_RECORD["actions"]

# Installed before any script of the page: every card element ever added, with the deal its container names.
WATCH_CARDS = """
window.__cardsSeen = [];
new MutationObserver((mutations) => {
  for (const mutation of mutations) {
    for (const node of mutation.addedNodes) {
      if (node.nodeType !== 1) continue;
      const cards = node.matches("[data-card]") ? [node] : [...node.querySelectorAll("[data-card]")];
      for (const card of cards) {
        const owner = card.closest("[data-deal]");
        window.__cardsSeen.push([owner ? owner.dataset.deal : "", card.dataset.card]);
      }
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("broadcast-browser") / "broadcast.sqlite").start()
    yield server
    server.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script(WATCH_CARDS)
    yield context.new_page()
    context.close()


def start_deal(live: LiveServer, match: str) -> str:
    body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
    answer = live.post(f"/api/matches/{match}/deals", body)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def record(live: LiveServer, deal: str, action: dict[str, Any]) -> None:
    answer = live.post(f"/api/deals/{deal}/actions", {"action": action})
    assert answer.status_code == 201, answer.text


def refresh(page: Page) -> None:
    page.evaluate("Fupan.broadcast.refresh()")  # awaits the redraw


def seen(page: Page) -> list[tuple[str, str]]:
    return [tuple(pair) for pair in page.evaluate("window.__cardsSeen")]


def test_a_one_deal_delay_never_draws_the_live_deals_cards_and_draws_it_once_the_next_starts(live: LiveServer,
                                                                                              page: Page):
    tournament = live.post("/api/tournaments", {"name": "直播杯", "game": "doudizhu"}).json()["id"]
    for player in PLAYERS:
        live.post(f"/api/tournaments/{tournament}/players", {"name": player})
    match = live.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS,
                                                                 "first": 2}).json()["id"]
    other = live.post(f"/api/tournaments/{tournament}/matches", {"table": "2", "seats": PLAYERS,
                                                                 "first": 0}).json()["id"]
    first = start_deal(live, match)
    page.goto(f"{live.url}/tournaments/{tournament}/broadcast?follow={match}&poll=0")  # push, no polling
    assert "延迟一局" in page.inner_text("#broadcast-delay")
    # one deal in English is "1 deal", never "1 deal(s)"
    assert page.text_content("#broadcast-delay [lang=en]").startswith("Broadcast delay: 1 deal (")
    assert page.locator(f"#broadcast-tables tr[data-match='{other}'] a").count() == 1  # any table can be followed
    refresh(page)
    assert page.locator(f"[data-held='{first}']").count() == 1
    for action in ACTIONS[:-1]:  # deal 1 recorded step by step, the page redrawn after each
        record(live, first, action)
        refresh(page)
        assert page.locator(f"[data-held='{first}']").count() == 1
    assert seen(page) == [], "a card of the deal in play was drawn"
    record(live, first, ACTIONS[-1])
    second = start_deal(live, match)
    # the table's stream tells the page (docs/streams.md): deal 1 appears with no refresh asked and no poll
    page.wait_for_selector(f"#broadcast-deal[data-deal='{first}']", timeout=15_000)
    shown = {card for deal, card in seen(page) if deal == first}
    played = {card for action in ACTIONS for card in action.get("cards", [])}
    assert played <= shown  # deal 1 is drawn whole now that deal 2 is played
    assert page.locator(f"[data-held='{second}']").count() == 1
    for action in ACTIONS[:8]:  # deal 2 recorded: the page keeps showing deal 1 and nothing of deal 2
        record(live, second, action)
        refresh(page)
    assert not [card for deal, card in seen(page) if deal != first], "a card of deal 2 was drawn"
    assert page.get_attribute("#broadcast-deal", "data-deal") == first
    assert "第2局进行中" in page.inner_text("#broadcast-held")


def wait_for_state(page: Page, selector: str, attribute: str, wanted: str, timeout_ms: int = 15_000) -> None:
    """Polled from Python until the page says it is done (the pages' CSP forbids eval)."""
    for _ in range(timeout_ms // 50):
        if page.get_attribute(selector, attribute) == wanted:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} never became {attribute}={wanted}")


def test_the_console_sets_the_delay_and_says_what_is_wrong_in_the_readers_language(live: LiveServer, page: Page):
    tournament = live.post("/api/tournaments", {"name": "延迟设置杯", "game": "doudizhu"}).json()["id"]
    page.goto(f"{live.url}/console")
    page.fill("#signin-token", live.organiser)
    page.click("#signin-form button[type=submit]")
    page.goto(f"{live.url}/console/tournaments/{tournament}")
    wait_for_state(page, "#delay-now", "data-state", "set")
    assert "1 局" in page.inner_text("#delay-now")
    page.fill("#delay-amount", "0")  # no delay is 0 deals; 0 minutes is refused by the server
    page.select_option("#delay-kind", "minutes")
    page.click("#delay-form button[type=submit]")
    wait_for_state(page, "#delay-now", "data-state", "error")
    assert "分钟计的直播延迟必须是 1 到 180 之间的整数" in page.inner_text("#delay-now")
    page.click("#lang-toggle")
    assert "A delay in minutes is a whole number from 1 to 180." in page.inner_text("#delay-now")
    page.fill("#delay-amount", "15")
    page.click("#delay-form button[type=submit]")
    wait_for_state(page, "#delay-now", "data-state", "set")
    assert "15 minutes" in page.inner_text("#delay-now")
    assert live.get(f"/api/tournaments/{tournament}/delay").json()["delay"] == {"kind": "minutes", "amount": 15}
    page.fill("#delay-amount", "1")  # one minute in English is "1 minute"
    page.click("#delay-form button[type=submit]")
    page.wait_for_selector("#delay-now:text-is('Now: 1 minute')")


# What a spectator's phone or tablet shows of the deal on the broadcast: each hand's name and whether every card's
# corner shows inside the screen; whether a play's cards sit on a line of their own under its words; how far the
# page scrolls sideways.
LAID_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const hands = [...document.querySelectorAll('#broadcast-deal .broadcast-hands li')].map((row) => {
    const cards = [...row.querySelectorAll('[data-card]')].map((card) => card.getBoundingClientRect());
    cards.forEach((box, i) => {
      if (box.left < 0 || box.right > width) problems.push(`hand card off screen at ${box.left}`);
      const next = cards[i + 1];
      if (next && Math.abs(next.top - box.top) < 2 && next.left - box.left < 15) problems.push('hand card covered');
    });
    return {name: row.querySelector('.seat-name').textContent, cards: cards.length};
  });
  for (const move of document.querySelectorAll('#broadcast-deal .broadcast-moves li')) {
    const words = move.querySelector('.move-text').getBoundingClientRect();
    for (const card of move.querySelectorAll('[data-card]')) {
      const box = card.getBoundingClientRect();
      if (box.top < words.bottom - 1) problems.push(`step ${move.dataset.step}: a card beside its words`);
      if (box.left < 0 || box.right > width) problems.push(`step ${move.dataset.step}: a card off screen`);
    }
  }
  return {hands, problems, sideways: document.scrollingElement.scrollWidth - window.innerWidth};
}"""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 768, "height": 1024}],
                         ids=["phone-390x844", "tablet-768x1024"])
def test_a_spectator_on_a_phone_or_a_tablet_sees_every_card_by_name_without_scrolling_sideways(live: LiveServer,
                                                                                                browser: Any,
                                                                                                viewport):
    """The broadcast at 390×844 and 768×1024, in Chinese and English, once a deal is over and the next is played:
    each hand under its player's name with every card's corner inside the screen, each play's cards on a line of
    their own under its words (never one card hanging at the start of the next line), the replay link on screen
    once the deal is reached, and nothing wider than the screen."""
    tournament = live.post("/api/tournaments", {"name": f"手机直播杯 {viewport['width']}",
                                                "game": "doudizhu"}).json()["id"]
    for player in PLAYERS:
        live.post(f"/api/tournaments/{tournament}/players", {"name": player})
    match = live.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS,
                                                                 "first": 2}).json()["id"]
    first = start_deal(live, match)
    for action in ACTIONS:
        record(live, first, action)
    start_deal(live, match)  # under the default one-deal delay, deal 1 is shown now
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{live.url}/tournaments/{tournament}/broadcast?follow={match}&poll=0")
    page.wait_for_selector(f"#broadcast-deal[data-deal='{first}'] .broadcast-moves li")
    for lang in ("zh", "en"):
        page.evaluate("(lang) => window.Fupan.setLang(lang)", lang)
        laid_out = page.evaluate(LAID_OUT)
        assert laid_out["problems"] == [] and laid_out["sideways"] == 0, (lang, laid_out)
        assert [hand["name"] for hand in laid_out["hands"]] == PLAYERS
        assert sum(hand["cards"] for hand in laid_out["hands"]) == 51  # the kitty is shown by the play that takes it
        replay = page.locator("#broadcast-deal a.button")
        replay.scroll_into_view_if_needed()
        box = replay.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    context.close()
