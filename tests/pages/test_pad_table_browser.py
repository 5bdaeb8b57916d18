"""The referee at the table (issue 23): the recording pad in real headless Chromium on a phone (390×844) and a
portrait tablet (768×1024).

- After every tap the acting seat's buttons and the trick it must answer are on screen, not under the fixed
  status bar (checked with `elementFromPoint`), through a whole 大怪路子 and 斗地主 deal at both sizes.
- The referee card's QR address opens the pad signed in: the token read from the address's fragment, kept in
  the tab, gone from the address bar, never in a request's URL; the table page links its pad.
- Offline, a queued tap the rules refuse on reconnect is named with its reason, and so is every tap after it.
- A dry run that reaches the server after its own tap was stored (a slow or busy venue network) never turns the
  stored tap into a refusal.
- 升级: the trump declared while the cards are dealt, the attackers' points with their penalties, the cards of a
  declaration as ♠A; a retraction without a reason keeps its form open; after a score slip the pad shows the
  table, not the previous deal's result.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer
from playwright.sync_api import Browser
from test_pad_browser import PHONE, TABLET, Pad, PadSite, card_short, scripted, setup_of
from test_viewer_browser import CHROMIUM, Offline

from domain.games import get_engine
from fixtures.random_play import doudizhu as doudizhu_play
from fixtures.random_play import shengji as shengji_play
from fixtures.random_play.common import played

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")

SEATS = {"doudizhu": 3, "shengji": 4, "daguai": 6}
TOURNAMENTS = itertools.count(1)  # one tournament a table, each named apart


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("pad-table") / "pad.sqlite").start()
    yield server
    server.stop()


def new_table(live: LiveServer, game: str) -> str:
    """A fresh table of `game` (its own tournament): its players named as people are."""
    assert live.service is not None
    names = ["赵四", "钱五", "孙六", "李七", "周八", "吴九"][:SEATS[game]]
    tournament, _ = live.service.tournaments.create(f"到场 {game} {next(TOURNAMENTS)}", game)
    for name in names:
        live.service.tournaments.register_player(tournament["id"], name)
    live.service.tournaments.start_round(tournament["id"], "第1轮")
    match, _ = live.service.tables.open(tournament["id"], "1", names, 0)
    return match["id"]


@pytest.fixture
def context(browser: Browser, live: LiveServer) -> Iterator[Offline]:
    made = Offline(browser, live, TABLET)  # type: ignore[arg-type]  # a site with a url is all it needs
    yield made
    made.context.close()
    assert made.left == [], f"requests left the test server: {made.left}"


def signed_in(context: Offline, live: LiveServer, path: str, viewport: dict[str, int]) -> Pad:
    page = context.page()
    page.set_viewport_size(viewport)
    return Pad(page).open(PadSite(live), path, live.organiser)


# --- what is needed next, in view --------------------------------------------------------------------------

# Each of the acting seat's buttons and the trick it must answer: inside the viewport, and the element the
# screen shows at its top, middle and bottom (nothing fixed over it).
HIDDEN = """() => {
  const seat = document.querySelector('.pad-seat.acting');
  if (!seat) return {seat: null, hidden: [], toBeat: false};
  const wanted = [...seat.querySelectorAll('.pad-actions button'), ...seat.querySelectorAll('[data-to-beat]')];
  const hidden = [];
  for (const el of wanted) {
    const box = el.getBoundingClientRect();
    const what = (el.dataset.action || el.className) + ' ' + el.textContent.slice(0, 30);
    if (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth) {
      hidden.push('outside: ' + what + ' ' + JSON.stringify([box.top, box.bottom, innerHeight]));
      continue;
    }
    const x = box.left + box.width / 2;
    for (const y of [box.top + 2, box.top + box.height / 2, box.bottom - 2]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit))) hidden.push('covered: ' + what + ' by ' + (hit && hit.className));
    }
  }
  return {seat: Number(seat.dataset.seat), hidden, toBeat: Boolean(seat.querySelector('[data-to-beat]'))};
}"""


@pytest.mark.parametrize(("game", "viewport"), [
    ("daguai", PHONE), ("daguai", TABLET), ("doudizhu", PHONE), ("doudizhu", TABLET), ("shengji", PHONE)],
    ids=["daguai-phone", "daguai-tablet", "doudizhu-phone", "doudizhu-tablet", "shengji-phone"])
def test_after_every_tap_the_acting_seat_and_the_trick_to_beat_are_in_view(live: LiveServer, context: Offline,
                                                                          game: str, viewport: dict[str, int]) -> None:
    assert live.service is not None
    engine = get_engine(game)
    match = new_table(live, game)
    deal, _ = live.service.deals.start(match=match, seed=f"in-view-{game}-{viewport['width']}")
    pad = signed_in(context, live, f"/matches/{match}/pad", viewport)
    setup = setup_of(PadSite(live), deal["id"])
    state = engine.new_deal(setup)
    actions = scripted(engine, setup)
    for index, action in enumerate(actions):
        pad.record(action)
        engine.apply(state, action)
        if state.phase == "finished":
            break
        seen = pad.page.evaluate(HIDDEN)
        assert seen["seat"] == state.to_act, (index, seen)
        assert seen["hidden"] == [], (index, viewport, seen["hidden"])
        if game == "shengji":  # a trick game: the trick so far, once someone has led
            following = state.phase == "playing" and bool(state.trick)
        else:
            following = state.phase == "play" and state.last_seat not in (None, state.to_act)
        assert seen["toBeat"] == following, (index, "the play to beat is shown beside the acting seat")
    pad.wait(lambda: pad.page.locator("[data-result]").count() == 1)


# --- getting in: the referee card ----------------------------------------------------------------------------


def test_the_referee_card_qr_opens_the_pad_signed_in_and_the_table_page_links_it(live: LiveServer,
                                                                                context: Offline) -> None:
    match = new_table(live, "doudizhu")
    table_page = context.page()
    table_page.goto(f"{live.url}/matches/{match}")
    link = table_page.locator("[data-pad-link]")
    assert link.count() == 1 and link.get_attribute("href") == f"/matches/{match}/pad"
    card = live.post(f"/api/matches/{match}/referee-card", {}).json()
    token = card["token"]
    page = context.page()
    page.set_viewport_size(PHONE)
    page.goto(card["signin_url"])  # what the phone's camera opens
    pad = Pad(page)
    pad.wait(lambda: page.locator('[data-command="deal-server"]').count() == 1)
    assert page.locator('input[data-field="token"]').count() == 0
    assert page.evaluate("location.hash") == "" and token not in page.evaluate("location.href")
    assert page.evaluate("sessionStorage.getItem('fupan.token')") == token
    assert not [url for url in context.requested if token in url]  # never sent in a URL
    page.click('[data-command="signout"]')
    assert page.evaluate("sessionStorage.getItem('fupan.token')") is None


# --- offline: a dropped tap is named ----------------------------------------------------------------------


def test_queued_taps_refused_on_reconnect_are_named_with_the_reason(live: LiveServer, context: Offline) -> None:
    assert live.service is not None
    engine = get_engine("doudizhu")
    match = new_table(live, "doudizhu")
    deal, _ = live.service.deals.start(match=match, seed="dropped")
    state = engine.new_deal(setup_of(PadSite(live), deal["id"]))
    for action in ({"seat": 0, "type": "call"}, {"seat": 1, "type": "pass"}, {"seat": 2, "type": "pass"}):
        engine.apply(state, action)
        assert live.post(f"/api/deals/{deal['id']}/actions", {"action": action}).status_code == 201
    hand = state.hands[0]
    # Two cards that make no pattern: a 3 and a card at least two ranks up (no pair, no rocket).
    low = next(code for code in hand if code[1:] == "3" or code[1:] == "4")
    high = next(code for code in hand if code not in ("BJ", "LJ") and code[1:] in ("7", "8", "9", "10", "J", "Q", "K"))
    pad = signed_in(context, live, f"/matches/{match}/pad", PHONE)
    context.context.set_offline(True)
    pad.tap({"seat": 0, "type": "play", "cards": [low, high]})
    pad.tap({"seat": 1, "type": "pass"})  # the pad guesses the next seat in a shedding round
    pad.wait(lambda: pad.state() == "offline")
    context.context.set_offline(False)
    pad.wait(lambda: pad.state() == "refused")
    reason = pad.reason()
    assert "不是合法牌型" in reason and "未保存" in reason
    assert f"赵四 出牌 {card_short(low)} {card_short(high)}" in reason and "钱五 不出" in reason
    assert low not in reason.replace(card_short(low), "")  # cards as ♠3, never their codes
    # The refusal makes the status bar taller: it still covers none of the acting seat's buttons.
    seen = pad.page.evaluate(HIDDEN)
    assert seen["seat"] == 0 and seen["hidden"] == [], seen


# --- a dry run answered after its tap -------------------------------------------------------------------------

# The venue's network holds each dry run back a little before it leaves the tablet, so it reaches the server
# after the tap it was made for has been stored; `window.padChecks` counts those still on their way.
LATE_CHECKS = """(() => {
  const fetched = window.fetch.bind(window);
  window.padChecks = 0;
  window.fetch = (url, init) => {
    if (!/\\/pad\\/check$/.test(String(url))) return fetched(url, init);
    window.padChecks += 1;
    return new Promise((resolve) => setTimeout(resolve, 120)).then(() => fetched(url, init))
      .finally(() => setTimeout(() => { window.padChecks -= 1; }, 0));
  };
})();"""


def test_a_dry_run_answered_after_its_tap_was_stored_changes_nothing(live: LiveServer, context: Offline) -> None:
    assert live.service is not None
    engine = get_engine("daguai")
    match = new_table(live, "daguai")
    deal, _ = live.service.deals.start(match=match, seed="late-checks")
    context.context.add_init_script(LATE_CHECKS)
    pad = signed_in(context, live, f"/matches/{match}/pad", TABLET)
    actions = scripted(engine, setup_of(PadSite(live), deal["id"]))
    plays = 0
    for action in actions:
        pad.record(action)
        pad.wait(lambda: pad.page.evaluate("window.padChecks") == 0)
        assert pad.state() == "ready", (action, pad.reason())
        plays += action["type"] == "play"
        if plays == 8:
            break
    assert plays == 8


# --- 升级: points, trump, declarations, retractions; a slip after a deal ---------------------------------------


def shengji_script(live: LiveServer, deal_id: str) -> list[dict[str, Any]]:
    """A legal whole 升级 deal with a declaration while the cards are dealt (the first of the random player's)."""
    setup = setup_of(PadSite(live), deal_id)
    for seed in range(200):
        _, actions = shengji_play.play_deal(setup, random.Random(seed), declare_rate=0.3, foul_rate=0,
                                            timeout_rate=0, irregularity_rate=0)
        if actions and actions[0]["type"] == "declare" and "received" in actions[0]:
            return actions
    raise AssertionError("no 升级 deal with a declaration while dealing")


def test_shengji_pad_shows_the_declared_trump_the_points_breakdown_and_keeps_a_retraction_form(
        live: LiveServer, context: Offline) -> None:
    assert live.service is not None
    engine = get_engine("shengji")
    match = new_table(live, "shengji")
    deal, _ = live.service.deals.start(match=match, seed="points")
    actions = shengji_script(live, deal["id"])
    declaration = actions[0]
    post = lambda action: live.post(f"/api/deals/{deal['id']}/actions", {"action": action})  # noqa: E731
    assert post(declaration).status_code == 201
    pad = signed_in(context, live, f"/deals/{deal['id']}/pad", TABLET)
    suit = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块", "NT": "无主"}
    setup = setup_of(PadSite(live), deal["id"])
    state = engine.new_deal(setup)
    engine.apply(state, declaration)
    summary = pad.page.locator(".pad-summary").inner_text()
    assert state.phase == "dealing" and f"主 {suit[state.declarations[-1].suit]}" in summary, summary
    assert " ".join(card_short(c) for c in declaration["cards"]) in summary
    assert not any(code in summary.split() for code in declaration["cards"])
    # A retraction needs its reason: confirmed empty, the form stays open and says so.
    pad.page.click('[data-command="retract"]')
    pad.page.click("#pad-form [data-confirm]")
    form = pad.page.locator('#pad-form form[data-form="retract"]')
    assert form.count() == 1 and "理由" in form.locator("[data-form-error]").inner_text()
    pad.page.click("#pad-form [data-cancel]")
    # Play the deal out over the API with an attacker's 30-point penalty; the pad shows how the points add up.
    rest = actions[1:]
    dealer_known = next(i for i, a in enumerate(rest) if a["type"] == "bury")
    for action in rest[:dealer_known + 1]:
        engine.apply(state, action)
        assert post(action).status_code == 201
    attacker = next(s for s in range(4) if s % 2 != state.dealer % 2)
    foul = {"seat": attacker, "type": "foul", "code": "talking", "note": "说话", "penalty": 30}
    engine.apply(state, foul)
    assert post(foul).status_code == 201
    for action in rest[dealer_known + 1:]:
        engine.apply(state, action)
        assert post(action).status_code == 201
    result = engine.result(state)
    assert result is not None
    pad.wait(lambda: pad.page.locator("[data-result]").count() == 1)
    shown = pad.page.locator("[data-result] [data-points]").inner_text()
    counted = result["points"]
    assert f"闲家得分 {counted['total']}" in shown and f"牌分 {counted['cards']}" in shown and "− 罚分 30" in shown


def test_after_a_score_slip_the_pad_shows_the_table_not_the_previous_deal(live: LiveServer,
                                                                         context: Offline) -> None:
    assert live.service is not None
    engine = get_engine("doudizhu")
    match = new_table(live, "doudizhu")
    deal, _ = live.service.deals.start(match=match, seed="before-slip")
    setup = setup_of(PadSite(live), deal["id"])
    for seed in range(100):  # a deal that leaves the table going (nobody reaches 20 chips)
        end, actions = played(engine, setup, doudizhu_play.play_out, random.Random(seed), foul_rate=0,
                              timeout_rate=0)
        if max(engine.result(end)["scores"]) < 10:
            break
    pad = signed_in(context, live, f"/matches/{match}/pad", TABLET)  # the table's pad, on the deal in play
    for action in actions:
        assert live.post(f"/api/deals/{deal['id']}/actions", {"action": action}).status_code == 201
    pad.wait(lambda: pad.page.locator("[data-result]").count() == 1)
    pad.page.click('[data-command="slip"]')
    form = pad.page.locator('#pad-form form[data-form="slip"]')
    form.locator('[data-slip="landlord"]').select_option(label="赵四")  # nobody is chosen for the referee
    pad.wait(lambda: form.locator("[data-slip-preview]").get_attribute("data-slip-state") == "ok")
    form.locator("[data-confirm]").click()
    pad.wait(lambda: len(live.service.tables.get(match)["deals"]) == 2)  # type: ignore[union-attr]
    pad.wait(lambda: pad.page.locator("[data-result]").count() == 0
             and pad.page.locator('[data-command="slip"]').count() == 1)
    assert "成绩单已录入" in pad.page.locator("[data-pad-hint]").inner_text()

