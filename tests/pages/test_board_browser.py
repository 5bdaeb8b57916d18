"""The board of variations inside an appeal's result-blind review (issue 24, docs/analysis.md "The board of
variations"), in Chromium at 1366×900 and 1024×768 (a phone's and a tablet's size, 390×844 and 768×1024, below):
the committee opens the board from the appeal at the judged step, sees the verdict of every play (as the appeal's
analysis route proves them), branches two variations, replays one step by step, deletes the other, renames the
first and attaches it with the solver's line shown first; and every text and attribute the page ever rendered (a
MutationObserver from the first byte) holds nothing of the deal after the judged step: not its length, not its
end, not its result, no link to the viewer.

One server and one browser for the module (test_appeals.Event: the finished 斗地主 deal of 33 actions, scores
[2, 2, −6]); the appeal judges step 27, where the solver answers in milliseconds."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store
from test_appeals import Event
from test_viewer_browser import CHROMIUM
from text_scan import describe, scan_page, set_language

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")

JUDGED = 27  # 王五 (the landlord) answers 李四's ♠6: six plays, each settled in milliseconds, even on a loaded machine
LENGTH = len(EXAMPLE_RECORD["actions"])  # 33: what the board must never tell

# Every text node and attribute the page ever holds, from before its first script runs.
WATCH = """
window.__seen = [];
const note = (text) => { if (text) window.__seen.push(String(text)); };
const walk = (node) => {
  if (node.nodeType === Node.TEXT_NODE) { note(node.data); return; }
  if (node.nodeType !== Node.ELEMENT_NODE || node.tagName === "SCRIPT" || node.tagName === "STYLE") return;
  for (const attr of node.attributes) note(`${attr.name}=${attr.value}`);
  node.childNodes.forEach(walk);
};
new MutationObserver((records) => {
  for (const record of records) {
    const inside = record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement;
    if (inside && inside.closest("script, style")) continue;  // the strings table and the boot data: not shown
    if (record.type === "characterData") note(record.target.data);
    else if (record.type === "attributes") {
      note(`${record.attributeName}=${record.target.getAttribute(record.attributeName)}`);
    }
    else record.addedNodes.forEach(walk);
  }
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


class Appealed:
    def __init__(self, server: LiveServer):
        self.server = server
        self.event = Event(server, "变化推演杯")
        self.appeal = self.event.file(step=JUDGED).json()["appeal_id"]


@pytest.fixture(scope="module")
def appealed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Appealed]:
    server = LiveServer(Store.sqlite(Path(tmp_path_factory.mktemp("board")) / "fupan.sqlite")).start()
    yield Appealed(server)
    server.stop()


def ready(page: Any, length: int) -> None:
    page.wait_for_selector(f'#board[data-state="ready"][data-path-length="{length}"]')


def settled(page: Any) -> None:
    """The node on show has its analysis: a verdict, or an end."""
    page.wait_for_selector('#board-verdict[data-state="answer"], #board-verdict[data-state="none"]', state="attached")


def plays(page: Any) -> list[dict[str, str]]:
    return page.eval_on_selector_all("li[data-play]", "items => items.map(li => ({cards: li.dataset.cards, "
                                     "type: li.dataset.type, verdict: li.dataset.verdict}))")


def play(page: Any, index: int, length: int) -> None:
    """Pick the `index`-th play at the node on show; the board adds it (and any forced pass) and shows the node."""
    page.locator("li[data-play] button").nth(index).click()
    page.wait_for_selector(f'#board[data-state="ready"]:not([data-path-length="{length}"])')


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 1024, "height": 768}],
                         ids=["1366x900", "1024x768"])
def test_the_committee_plays_variations_on_the_board_and_attaches_one(browser, appealed, viewport):
    server, event = appealed.server, appealed.event
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"sessionStorage.setItem('fupan.token', {json.dumps(event.committee)});")
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(f"{server.url}/appeals/{appealed.appeal}")
    page.click("a[data-board]")
    ready(page, 0)
    settled(page)

    # Every hand is shown, by name, and the play to beat: 李四's ♠6, 王五 to act.
    assert page.locator(".board-seat").count() == 3
    assert "李四" in page.inner_text("#board-round") and "王五" in page.inner_text("#board-round")
    assert page.locator("#board-round [data-card]").count() == 1
    # The verdict of every play, as the appeal's analysis route proves it (no play left unproven or pending).
    proven = server.post(f"/api/appeals/{appealed.appeal}/analysis", {"from_step": JUDGED, "actions": []},
                         token=event.committee).json()
    expected = {" ".join(m["action"].get("cards", [])): "win" if m["wins"] else "lose" for m in proven["moves"]}
    shown = plays(page)
    assert len(shown) == len(expected) >= 3 and not proven.get("unproven")
    assert {p["cards"]: p["verdict"] for p in shown} == expected
    assert page.get_attribute("#board-verdict", "data-side-wins") == str(proven["side_wins"]).lower()
    for control in ("#board-first", "#board-prev", "#board-next", "#board-last", "#board-solve", "#board-attach",
                    "li[data-play] button >> nth=-1"):
        box = page.locator(control).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], control
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], control  # on screen, unscrolled
        assert box["height"] >= 36, control  # usable by touch

    # Variation 1: two plays from the start (the landlord's answer between them).
    play(page, 2, 0)
    first = int(page.get_attribute("#board", "data-node"))
    settled(page)
    length = int(page.get_attribute("#board", "data-path-length"))
    play(page, 0, length)
    settled(page)
    deep = int(page.get_attribute("#board", "data-path-length"))
    # Variation 2, branching at the start.
    page.click("#board-first")
    ready(page, 0)
    play(page, 0, 0)
    assert page.locator(".board-line").count() == 2
    second_head = page.locator(".board-line").nth(1).get_attribute("data-head")

    # Replay variation 1 step by step: back to the start, its first move, then ▶ to its end.
    page.click("#board-first")
    ready(page, 0)
    page.click(f"[data-node='{first}']")
    ready(page, length)
    lengths = [length]
    while int(page.get_attribute("#board", "data-path-length")) < deep:
        page.click("#board-next")
        page.wait_for_selector(f'#board[data-state="ready"]:not([data-path-length="{lengths[-1]}"])')
        lengths.append(int(page.get_attribute("#board", "data-path-length")))
    assert lengths == sorted(lengths) and lengths[-1] == deep
    page.click("#board-prev")
    ready(page, deep - 1)

    # Delete variation 2.
    page.click(f"[data-node='{second_head}']")
    ready(page, 1)
    page.click("#board-delete")
    ready(page, 0)
    assert page.locator(".board-line").count() == 1

    # Rename variation 1, show the solver's line from its end (before anything is kept), then attach it.
    page.click("#board-last")
    ready(page, deep)
    settled(page)
    page.fill("#board-label", "王五改出")
    page.click("#board-rename")
    assert page.get_attribute(".board-line", "data-label") == "王五改出"
    page.click("#board-solve")
    page.wait_for_selector("button[data-solver]")
    solver_moves = page.locator("button[data-solver]").count()
    page.wait_for_selector('#board[data-state="ready"]')
    # Kept in the browser: a reload (or a dropped network) loses no variation.
    page.reload()
    ready(page, deep + solver_moves)
    assert page.get_attribute(".board-line", "data-label") == "王五改出"
    assert page.locator("button[data-solver]").count() == solver_moves
    page.click("#board-attach")
    page.wait_for_selector("#board[data-attached]")
    kept = server.get(f"/api/appeals/{appealed.appeal}", token=event.committee).json()["lines"][-1]
    assert kept["label"] == "王五改出" and kept["from_step"] == JUDGED
    assert kept["solver_from"] == deep and len(kept["actions"]) == deep + solver_moves
    said = page.inner_text("#board-said")
    assert f"推演 {kept['index'] + 1}" in said and "不同" not in said  # the kept line is the one shown

    # Nothing past the judged step was ever on the page.
    seen = page.evaluate("window.__seen") + [page.inner_text("body")]
    everything = "\n".join(seen) + page.content()
    assert event.deal not in everything and "/deals/" not in everything, "the deal's address"
    texts = [text for text in seen if "=" not in text[:30]]
    for text in texts:
        assert not re.search(rf"(?<![0-9a-f]){LENGTH}(?![0-9a-f])", text), f"the deal's length: {text[:200]}"
        for word in ("实战", "本局结束", "地主胜", "农民胜", "Played", "finished"):
            assert word not in text, f"{word}: {text[:200]}"
    context.close()


def test_a_deals_board_never_shows_an_unproven_play_as_won_or_lost_and_reads_as_words(browser, appealed):
    """Any deal's board, for anyone once the deal is over, opened from the viewer's 分析 panel at the step on show:
    at the landlord's first lead (20 cards, some 170 plays) the 2 s answer proves no verdict, and no play is shown
    as won; a play shown lost is one the page's answer proved lost. The page reads as words in both languages."""
    server, event = appealed.server, appealed.event
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.goto(f"{server.url}/deals/{event.deal}?step=3")
    page.wait_for_selector('body[data-ready="1"]')
    page.click("#analysis summary")
    assert page.get_attribute("#board-link", "href") == f"/deals/{event.deal}/board?step=3"
    # The page's own answer: a budget in time proves more or fewer plays from one asking to the next.
    with page.expect_response(lambda r: r.url.endswith(f"/api/deals/{event.deal}/analysis")
                              and r.request.method == "POST" and (r.request.post_data_json or {}).get("step") == 3
                              and not (r.request.post_data_json or {}).get("actions"), timeout=60_000) as asked:
        page.click("#board-link")
    answer = asked.value.json()
    ready(page, 0)
    page.wait_for_selector('#board-verdict[data-state="too-large"]', timeout=60_000)
    assert answer["too_large"]
    lost = {" ".join(m["action"].get("cards", [])) for m in answer.get("moves", [])}
    shown = plays(page)
    assert len(shown) > 100 and {p["verdict"] for p in shown} <= {"unproven", "lose"}
    assert {p["cards"] for p in shown if p["verdict"] == "lose"} <= lost
    assert page.is_visible("#board-unproven-note") and page.is_visible("#board-longer")
    # Tapping cards of the hand to act narrows the list to the plays that hold them (by rank: suits never matter).
    page.locator(".board-pick [data-card]").last.click()
    tapped = page.locator(".board-pick [data-card].selected").get_attribute("data-card")
    narrowed = plays(page)
    assert 0 < len(narrowed) < len(shown)
    assert all(any(card[1:] == tapped[1:] for card in p["cards"].split()) for p in narrowed)
    found = {}
    for lang in ("zh", "en"):
        set_language(page, lang)
        findings = scan_page(page, lang, ["张三", "李四", "王五", "变化推演杯"])
        if findings:
            found[lang] = describe(findings)
    assert not found, found
    page.context.close()


# Every card of every hand shows its corner (the next card of its row starts at least a strip to its right) and lies
# inside the screen's width; the page itself never scrolls sideways.
CARDS_SHOWN = """() => {
  const width = document.documentElement.clientWidth;
  const hidden = [];
  for (const hand of document.querySelectorAll('.board-seat .hand')) {
    const cards = [...hand.querySelectorAll('[data-card]')].map((card) => card.getBoundingClientRect());
    cards.forEach((box, i) => {
      if (box.left < 0 || box.right > width) hidden.push(`off screen: ${box.left}-${box.right}`);
      const next = cards[i + 1];
      if (next && Math.abs(next.top - box.top) < 2 && next.left - box.left < 15) hidden.push(`covered at ${box.left}`);
    });
  }
  return {hidden, sideways: document.scrollingElement.scrollWidth - window.innerWidth};
}"""

PHONE, TABLET = {"width": 390, "height": 844}, {"width": 768, "height": 1024}


def on_screen(page: Any, selector: str, viewport: dict[str, int]) -> bool:
    box = page.locator(selector).first.bounding_box()
    return bool(box) and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] \
        and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone-390x844", "tablet-768x1024"])
def test_the_board_on_a_phone_and_a_tablet_shows_every_card_by_name_with_the_next_control_on_screen(
        browser, appealed, viewport):
    """A committee member on a tablet, or a phone: every hand by its player's name with every card's corner showing,
    nothing wider than the screen in either language, the plays to pick (and on a tablet the replay buttons,
    the solver and attaching) in the first screen, and picking a play never scrolls the page away from the hands
    and the plays (the tree's box scrolls to its current move, the page does not)."""
    server, event = appealed.server, appealed.event
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"sessionStorage.setItem('fupan.token', {json.dumps(event.committee)});")
    page = context.new_page()
    page.goto(f"{server.url}/appeals/{appealed.appeal}/board")
    ready(page, 0)
    settled(page)
    names = page.eval_on_selector_all(".board-seat-name", "items => items.map(item => item.textContent)")
    assert [name.split(" ")[0] for name in names] == event_players()
    needed = ["li[data-play] button"]  # a phone: the plays in the first screen, the replay buttons just below
    if viewport is TABLET:
        needed += ["#board-first", "#board-next", "#board-solve", "#board-attach"]
    for lang in ("zh", "en"):
        set_language(page, lang)
        assert page.evaluate(CARDS_SHOWN) == {"hidden": [], "sideways": 0}, lang
        assert page.evaluate("window.scrollY") == 0, lang
        for control in needed:
            assert on_screen(page, control, viewport), (lang, control)
        assert not scan_page(page, lang, ["张三", "李四", "王五", "变化推演杯"]), lang
    # In English a side's verdict reads as a sentence whatever the side ("a loss for the landlord", not "the landlord
    # lose").
    wins = page.get_attribute("#board-verdict", "data-side-wins") == "true"
    assert ("a win for the landlord" if wins else "a loss for the landlord") in page.inner_text("#board-verdict")
    page.locator("li[data-play] button").nth(0).click()
    page.wait_for_selector('#board[data-state="ready"]:not([data-path-length="0"])')
    settled(page)
    assert page.evaluate("window.scrollY") == 0  # the hands and the plays stay where the finger was
    assert on_screen(page, "li[data-play] button", viewport) and page.evaluate(CARDS_SHOWN)["hidden"] == []
    context.close()


def event_players() -> list[str]:
    return list(EXAMPLE_RECORD["seats"])
