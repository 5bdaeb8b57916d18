"""The rehearsal (issue 23's acceptance): a small event run end to end through its pages only, in one real headless
Chromium over one real server, the way a venue would run it —

- a 13-player 挖坑 Swiss of three rounds from the console: a pasted list with mistakes, every one reported with
  its line, then corrected; a bye in each round of 13 (rounds 1 and 2); a table closed early after one board of
  two; a mistyped slip corrected (更正) from the table page's link; round 2's pairing overridden in the console's
  editor with a reason; a withdrawal before round 3; the event published with `fupan publish` and opened from file://;
- a 大怪路子 team knockout to its final, each table's board entered as a slip (the finish order picked player by
  player) and the table closed from the console;
- a referee signing in on a phone (390×844) by the referee card's QR address (the address the console encoded in
  the card's QR, as the console received it) and recording a live 升级 deal, the network dropped across a trick's
  end; an appeal against it filed by the table's referee and ruled by the chief referee (the result stands), then
  taken to the committee, reviewed result-blind and decided with an assigned score, shown the same on every page.

Boards are entered as score slips on the pad's form (a phone), not card by card, except the 升级 deal. At each
step the test reads what a person sees: on the phone the acting seat and the trick in view; the same score on
the table page, the tournament page, the standings page and the console; names, never seat numbers. Every page
visited goes through `looked_at`, the one place that scans its visible text in Chinese and in English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from playwright.sync_api import Browser, Page
from test_console_browser import (
    draw_and_open,
    figure,
    no_error,
    paste,
    refresh,
    settle,
    sign_in_and_create,
    standings_agree,
    states,
)
from test_pad_browser import PHONE, Pad, PadSite, setup_of
from test_pad_table_browser import HIDDEN, shengji_script
from test_viewer_browser import CHROMIUM, Offline
from text_scan import describe, page_text, scan_page
from viewer_support import frames_as_the_page_reads_them

from cli.main import main
from domain.games import get_engine

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")

DESK = {"width": 1366, "height": 900}
PLAYERS = ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨光", "赵磊", "黄磊", "周婷", "吴昊", "徐丽", "孙涛", "林峰"]
TEAMS = [("后勤队", "后勤处"), ("机械队", "机械学院"), ("外语队", "外语学院"), ("理学队", "理学院")]
# Words people typed (names, teams, departments, titles, reasons, statements): not the page's own words, so the
# scan of the other language leaves them out (tests/support/text_scan.py).
TYPED = [*PLAYERS, *(word for team in TEAMS for word in team),
         *(f"{team}{member}" for team, _ in TEAMS for member in "甲乙丙"),
         "挖坑协会", "升级协会", "红队", "蓝队",
         "彩排杯·挖坑瑞士赛", "彩排杯·大怪路子团体赛", "彩排杯·升级", "彩排杯·编排语言",
         "选手身体不适，提前结束", "组委会决定：该选手自愿再次轮空", "临时出差", "彩排：一副定胜负",
         "裁判判定正确，维持原结果", "认为第10步的出牌被误判",
         "不服裁决", "第10步误判，按对方得分", "甲", "乙", "丙", *(f"笔误：{name}先出完" for name in PLAYERS),
         # What the pages quote on purpose: the side event form's example key (a code the organiser makes up),
         # the separators people type (the English entry help names 、), the Chinese word for a play-off on the
         # English status, a command the organiser may run, and the rules' clauses an override breaks.
         "wzq", "Commas, 、, semicolons", "(加赛)", "fupan pair", *(f"B11.{n}" for n in range(9, 13))]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("rehearsal") / "rehearsal.sqlite").start()
    yield server
    server.stop()


# --- what a person sees --------------------------------------------------------------------------------------


def scan(page: Page, lang: str) -> None:
    """The text scan of one page as it shows in `lang`; and no seat called by its number ("2 号位")."""
    findings = scan_page(page, lang, allowed=TYPED)
    assert not findings, (page.url, lang, describe(findings))
    text, _ = page_text(page)
    assert not re.search(r"\d[ \t]*号位", text), (page.url, text)


def looked_at(page: Page, settled: Callable[[Page], None] | None = None) -> None:
    """Every page the rehearsal visits: scanned in Chinese, then in English (the language switch, as a person
    uses it), then set back (the choice is kept in the browser). `settled` waits for a page that redraws itself."""
    scan(page, "zh")
    if page.locator("#lang-toggle").count() == 0:
        return
    page.click("#lang-toggle")
    if settled:
        settled(page)
    scan(page, "en")
    page.click("#lang-toggle")
    if settled:
        settled(page)


def wait(page: Page, condition: Callable[[], bool], timeout_ms: int = 10_000) -> None:
    for _ in range(timeout_ms // 20):
        if condition():
            return
        page.wait_for_timeout(20)
    preview = page.locator("[data-slip-preview]")
    said = preview.first.inner_text() if preview.count() else page.locator("body").inner_text()[:500]
    raise AssertionError(f"condition not met on {page.url}: {said}")


# --- the pad's slip form, on a phone -------------------------------------------------------------------------


def pad_of(page: Page, live: LiveServer, match: str) -> None:
    """The table's pad, signed in once for the tab (the token is kept in the tab, not typed again). A pad that
    has just stored this table's slip stays open for its next one, as the referee's would."""
    if page.url == f"{live.url}/matches/{match}/pad" and page.locator('[data-command="slip"]').count() == 1:
        return
    page.goto(f"{live.url}/matches/{match}/pad")
    if page.locator('input[data-field="token"]').count():
        page.fill('input[data-field="token"]', live.organiser)
        page.click("[data-confirm]")
    wait(page, lambda: page.locator('[data-command="slip"]').count() == 1)


def boards_of(live: LiveServer, match: str) -> int:
    assert live.service is not None
    return len(live.service.tables.get(match)["deals"])


def wakeng_slip(page: Page, live: LiveServer, match: str, digger: str, winner: str, bid: int = 2) -> None:
    pad_of(page, live, match)
    before = boards_of(live, match)
    page.click('[data-command="slip"]')
    form = page.locator('#pad-form form[data-form="slip"]')
    form.locator('[data-slip="digger"]').select_option(label=digger)
    form.locator('[data-slip="bid"]').fill(str(bid))
    form.locator('[data-slip="winner"]').select_option(label=winner)
    wait(page, lambda: form.locator("[data-slip-preview]").get_attribute("data-slip-state") == "ok"
         and form.locator("[data-confirm]").is_enabled())
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    form.locator("[data-confirm]").click()
    slip_stored(page, live, match, before)


def slip_stored(page: Page, live: LiveServer, match: str, before: int) -> None:
    """The slip is stored, and the pad shows it counted (it is ready for the table's next board)."""
    wait(page, lambda: boards_of(live, match) == before + 1)
    info = page.locator(".pad-info")
    wait(page, lambda: info.count() == 1 and f"已完成 {before + 1} 局" in info.inner_text())


def current_tables(live: LiveServer, tournament: str) -> list[dict[str, Any]]:
    info = live.get(f"/api/tournaments/{tournament}").json()
    return [m for m in info["matches"] if m["round"] == info["current_round"]]


def names_of(live: LiveServer, table: dict[str, Any]) -> list[str]:
    """The table's players in seat order (to choose them by name on the forms)."""
    assert live.service is not None
    return list(live.service.tables.get(table["id"])["seat_names"])


# --- the same score on every page ----------------------------------------------------------------------------


def table_totals(page: Page, live: LiveServer, match: str) -> dict[str, str]:
    """The table page: each player's total, read from its standing's header and total row."""
    page.goto(f"{live.url}/matches/{match}")
    looked_at(page)
    table = page.locator("table[id$='-standing']")
    heads = table.locator("thead th").all_inner_texts()[1:]
    totals = table.locator("tr[data-row='total'] td").all_inner_texts()
    return {name.strip(): total.strip() for name, total in zip(heads, totals, strict=True)}


def same_score_everywhere(page: Page, console: Page, live: LiveServer, tournament: str, match: str) -> None:
    """One table's totals on its page and in the tournament page's row; the standings in the console and on the
    public standings page, both the API's."""
    on_table = table_totals(page, live, match)
    assert set(on_table) <= set(PLAYERS), on_table  # names, never seats
    page.goto(f"{live.url}/tournaments/{tournament}")
    looked_at(page)
    row = page.locator(f"#tables tr:has(a[href='/matches/{match}'])").inner_text()
    for name, total in on_table.items():
        assert name in row and total.lstrip("+") in row, (row, on_table)
    answer = standings_agree(console, live, tournament)
    page.goto(f"{live.url}/tournaments/{tournament}/standings")
    page.wait_for_selector("#standings-table tbody tr")
    looked_at(page)
    expected = ([(team["entry"], figure(team["total"])) for team in answer["teams"]] if answer.get("teams")
                else [(r["player_id"], figure(r["total"])) for r in answer["rows"]])  # a pairs format: its teams
    assert shown_totals(page) == shown_totals(console) == expected


def shown_totals(page: Page) -> list[tuple[str, str]]:
    """A standings table as a person reads it: each row's player (or team) and the total in its third column
    (read in one go: a round trip per cell made this the rehearsal's slowest step)."""
    rows = page.eval_on_selector_all("#standings-table tbody tr", """rows => rows.map(row =>
        [row.dataset.player || row.dataset.team || "", row.querySelectorAll("td")[2].innerText.trim()])""")
    return [(who, total) for who, total in rows]


# --- the Swiss -----------------------------------------------------------------------------------------------


def test_a_wakeng_swiss_from_entries_to_the_published_site(browser: Browser, live: LiveServer, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    context = Offline(browser, live, DESK)  # type: ignore[arg-type]
    console = context.page()
    tournament = sign_in_and_create(console, live, name="彩排杯·挖坑瑞士赛", game="wakeng", format="wakeng.s003",
                                    options='{"wk.tableDeals": 2}', lots_seed="彩排")
    # Entries with mistakes: every one reported at once with its line, nothing stored; then the list corrected.
    lines = [f"{p}，挖坑协会" for p in PLAYERS]
    paste(console, "\n".join([*lines[:5], "王芳，挖坑协会", *lines[5:], "，挖坑协会"]))
    errors = console.locator("#error [data-error-line]").all_inner_texts()
    assert [e.split("：")[0] for e in errors] == ["第 6 行", "第 15 行"], errors
    assert "王芳" in errors[0] and "没有姓名" in errors[1]
    assert console.get_attribute("#console", "data-entries") == "0"
    looked_at(console, settle)
    paste(console, "\n".join(lines))
    no_error(console)
    assert console.get_attribute("#console", "data-entries") == "13"

    pad = context.page()
    pad.set_viewport_size(PHONE)
    # Round 1: a bye; table 1 closed early after one board of two; table 2's first slip mistyped, then corrected.
    plan = draw_and_open(console, live, tournament)
    assert len(plan["bye_names"]) == 1 and plan["bye_names"][0] in console.locator("#progress-byes").inner_text()
    first_bye = plan["bye_names"][0]
    looked_at(console, settle)
    tables = current_tables(live, tournament)
    for index, table in enumerate(tables):
        names = names_of(live, table)
        for board in range(1 if index == 0 else 2):
            wakeng_slip(pad, live, table["id"], names[board], names[board])
        looked_at(pad)
    refresh(console)
    console.fill(f"form.close-form[data-match='{tables[0]['id']}'] input[name=reason]", "选手身体不适，提前结束")
    console.click(f"form.close-form[data-match='{tables[0]['id']}'] button[type=submit]")
    settle(console)
    no_error(console)
    assert states(console) == ["finished"] * 4
    # Table 2's first board: 孙涛… whoever sat second went out first, not the digger: corrected from the table page.
    mistyped = tables[1]
    names = names_of(live, mistyped)
    pad.goto(f"{live.url}/matches/{mistyped['id']}")
    pad.click('a[data-correct="1"]')
    form = pad.locator('#pad-form form[data-form="correction"]')
    wait(pad, lambda: form.count() == 1)
    form.locator('[data-slip="winner"]').select_option(label=names[1])
    form.locator('[data-field="reason"]').fill(f"笔误：{names[1]}先出完")
    wait(pad, lambda: form.locator("[data-slip-preview]").get_attribute("data-slip-state") == "ok"
         and form.locator("[data-confirm]").is_enabled())
    form.locator("[data-confirm]").click()
    assert live.service is not None
    wait(pad, lambda: "corrected" in live.service.tables.get(mistyped["id"])["deals"][0])  # type: ignore[union-attr]
    pad.goto(f"{live.url}/matches/{mistyped['id']}")
    assert pad.locator('tr[data-deal="1"][data-corrected="1"]').count() == 1
    assert f"{names[1]}先出完" in pad.locator(".deal-marks").last.inner_text()
    refresh(console)
    same_score_everywhere(pad, console, live, tournament, mistyped["id"])
    same_score_everywhere(pad, console, live, tournament, tables[0]["id"])  # the table closed early

    # Round 2: the organiser overrides the proposed pairing (round 1's bye player on the bye again), with a reason.
    console.click("#draw-button")
    settle(console)
    no_error(console)
    console.click("#edit-pairing")
    settle(console)
    bye_id = next(p["id"] for p in live.get(f"/api/tournaments/{tournament}").json()["players"]
                  if p["name"] == first_bye)
    console.select_option("#override-editor select[data-place='b0']", bye_id)
    settle(console)
    problem = console.locator("#override-check li[data-code='bye_twice']")
    assert problem.is_visible() and first_bye in problem.inner_text()
    scan(console, "zh")  # in English: test_the_proposed_pairing_and_its_editor_follow_the_language_switch
    console.fill("#override-reason", "组委会决定：该选手自愿再次轮空")
    console.click("#open-override")
    settle(console)
    no_error(console)
    info = live.get(f"/api/tournaments/{tournament}").json()
    assert info["rounds"][-1]["byes"] == [bye_id] and info["rounds"][-1]["override"]["reason"]
    assert first_bye in console.locator("#progress-byes").inner_text()
    for table in current_tables(live, tournament):
        names = names_of(live, table)
        for board in range(2):
            wakeng_slip(pad, live, table["id"], names[board + 1], names[board + 1], bid=1)

    # A withdrawal before round 3: 12 left, no bye; the withdrawn player marked, seated nowhere.
    refresh(console)
    leaving = PLAYERS[3]
    console.select_option("#withdraw-player", label=leaving)
    console.fill("#withdraw-form input[name=reason]", "临时出差")
    console.click("#withdraw-form button[type=submit]")
    settle(console)
    no_error(console)
    assert console.get_attribute(f"tr[data-entry='{leaving}']", "data-withdrawn") == "true"
    plan = draw_and_open(console, live, tournament)
    assert plan["byes"] == [] and leaving not in {n for t in plan["tables"] for n in t["names"]}
    third = current_tables(live, tournament)
    for table in third:
        names = names_of(live, table)
        for board in range(2):
            wakeng_slip(pad, live, table["id"], names[2 - board], names[0], bid=3)
    refresh(console)
    assert states(console) == ["finished"] * 4
    looked_at(console, settle)
    same_score_everywhere(pad, console, live, tournament, third[0]["id"])
    pad.goto(f"{live.url}/tournaments/{tournament}/standings")
    pad.wait_for_selector("#standings-table tbody tr")
    assert pad.locator("#standings-table [data-withdrawn-mark]").count() == 1

    # Published, and opened from file:// with the network blocked: the same standings.
    out = tmp_path / "site"
    db = str(live.store.env["SQLITE_DBNAME"])
    assert main(["publish", tournament, "--out", str(out), "--db", db]) == 0, capsys.readouterr().err
    capsys.readouterr()
    published_standings(browser, out, live.get(f"/api/tournaments/{tournament}/standings").json())
    assert context.left == []
    context.context.close()


def published_standings(browser: Browser, out: Path, answer: dict[str, Any]) -> None:
    context = browser.new_context(viewport=DESK, locale="zh-CN")
    blocked: list[str] = []
    errors: list[str] = []

    def only_files(route: Any, request: Any) -> None:
        if request.url.startswith("file://"):
            route.continue_()
        else:
            blocked.append(request.url)
            route.abort("internetdisconnected")

    context.route("**/*", only_files)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto((out / "index.html").as_uri())
        looked_at(page)
        page.click("#standings-link")
        page.wait_for_selector("#standings-table tbody tr")
        looked_at(page)
        assert shown_totals(page) == [(r["player_id"], figure(r["total"])) for r in answer["rows"]]
        page.go_back()
        page.click("table.data a")
        page.wait_for_selector("table[id$='-standing']")
        looked_at(page)
    finally:
        context.close()
    assert blocked == [] and errors == [], (blocked, errors)


def test_the_proposed_pairing_and_its_editor_follow_the_language_switch(browser: Browser, live: LiveServer) -> None:
    context = Offline(browser, live, DESK)  # type: ignore[arg-type]
    console = context.page()
    sign_in_and_create(console, live, name="彩排杯·编排语言", game="wakeng", format="wakeng.s003", lots_seed="语言")
    paste(console, "\n".join(f"{p}，挖坑协会" for p in PLAYERS[:7]))
    console.click("#draw-button")
    settle(console)
    console.click("#edit-pairing")
    settle(console)
    console.click("#lang-toggle")
    settle(console)
    try:
        scan(console, "en")
    finally:
        console.click("#lang-toggle")
        settle(console)
        context.context.close()


# --- the team knockout ---------------------------------------------------------------------------------------


def daguai_slip(page: Page, live: LiveServer, match: str, order: list[str]) -> None:
    pad_of(page, live, match)
    before = boards_of(live, match)
    page.click('[data-command="slip"]')
    form = page.locator('#pad-form form[data-form="slip"]')
    picks = form.locator('[data-slip="finish_order"]')
    for name in order:
        picks.locator("[data-pick]", has_text=name).click()
    wait(page, lambda: form.locator("[data-slip-preview]").get_attribute("data-slip-state") == "ok"
         and form.locator("[data-confirm]").is_enabled())
    form.locator("[data-confirm]").click()
    slip_stored(page, live, match, before)


def test_a_daguai_team_knockout_to_its_final(browser: Browser, live: LiveServer) -> None:
    context = Offline(browser, live, DESK)  # type: ignore[arg-type]
    console = context.page()
    tournament = sign_in_and_create(console, live, name="彩排杯·大怪路子团体赛", game="daguai",
                                    format="daguai.s000", lots_seed="000")
    paste(console, "\n".join(f"{team}，{department}，{team}甲，{team}乙，{team}丙" for team, department in TEAMS))
    no_error(console)
    looked_at(console, settle)
    pad = context.page()
    pad.set_viewport_size(PHONE)
    for number in range(1, 5):
        proposal = live.get(f"/api/tournaments/{tournament}/draw" + ("?method=lot" if number == 1 else ""))
        if proposal.status_code == 422:
            break
        plan = draw_and_open(console, live, tournament, "lot" if number == 1 else None)
        for table in current_tables(live, tournament):
            names = names_of(live, table)
            daguai_slip(pad, live, table["id"], [names[0], names[1], names[2], names[4]])  # seats 0·2·4 win
            looked_at(pad)
        refresh(console)
        while console.locator("form.close-form").count():  # one board decides; each close redraws the list
            form = console.locator("form.close-form").first
            form.locator("input[name=reason]").fill("彩排：一副定胜负")
            form.locator("button").click()
            settle(console)
            no_error(console)
        assert set(states(console)) == {"finished"}
        looked_at(console, settle)
        standings_agree(console, live, tournament)
        if plan["kind"] == "final":
            break
    else:
        raise AssertionError("no final in four rounds")
    assert plan["kind"] == "final"
    answer = standings_agree(console, live, tournament)
    assert [row["status"] for row in answer["rows"][:3]] == ["champion"] * 3
    champion = answer["teams"][0]["entry"]
    console.goto(f"{live.url}/tournaments/{tournament}/standings")
    console.wait_for_selector("#standings-table tbody tr")
    looked_at(console)
    assert console.locator("#standings-table tbody tr").first.get_attribute("data-team") == champion
    assert context.left == []
    context.context.close()


# --- the referee at the table, and an appeal -----------------------------------------------------------------


def test_a_referee_signs_in_by_the_card_and_records_a_shengji_deal_offline_across_a_trick(
        browser: Browser, live: LiveServer) -> None:
    assert live.service is not None
    context = Offline(browser, live, DESK)  # type: ignore[arg-type]
    console = context.page()
    tournament = sign_in_and_create(console, live, name="彩排杯·升级", game="shengji", format="shengji.s001",
                                    lots_seed="升级")
    paste(console, "红队，升级协会，张伟，王芳\n蓝队，升级协会，李娜，刘洋")  # 升级 is played in pairs
    no_error(console)
    draw_and_open(console, live, tournament)
    match = current_tables(live, tournament)[0]
    names = names_of(live, match)
    # The referee card, printed from the console: its QR is the pad's address signed in (the token after #).
    with console.expect_response(lambda r: r.url.endswith(f"/api/matches/{match['id']}/referee-card")) as answered:
        console.click("#cards-button")
    settle(console)
    card = answered.value.json()
    shown = console.locator(f".referee-card[data-card='{card['table']}']")
    assert shown.locator(".pad-url").inner_text() in card["signin_url"]
    assert card["signin_url"].endswith("#token=" + card["token"])
    looked_at(console, settle)
    phone = context.page()
    phone.set_viewport_size(PHONE)
    phone.goto(card["signin_url"])  # what the phone's camera opens
    pad = Pad(phone)
    pad.wait(lambda: phone.locator('[data-command="deal-server"]').count() == 1)
    assert phone.evaluate("location.hash") == "" and card["token"] not in phone.url
    phone.click('[data-command="deal-server"]')
    pad.wait(lambda: pad.version() >= 1)
    deal = live.service.tables.get(match["id"])["current_deal"]
    engine = get_engine("shengji")
    setup = setup_of(PadSite(live), deal)
    state = engine.new_deal(setup)
    actions = shengji_script(live, deal)
    offline_done = False
    for index, action in enumerate(actions):
        closing = state.phase == "playing" and len(state.trick) == 3 and action["type"] == "play"
        engine.apply(state, action)
        if closing and not offline_done and state.to_act not in (None, (action["seat"] + 1) % 4):
            # The trick's last card, offline: the pad cannot know who leads, so it offers nobody a play and asks
            # who won the trick, each player by name; the referee answers, that player is offered the lead, and
            # once the network is back the tap is stored and the trick's winner leads.
            offline_done = True
            context.context.set_offline(True)
            pad.tap(action)
            pad.wait(lambda: pad.state() == "offline" and phone.locator("[data-pad-ask]").count() == 1)
            assert phone.locator(".pad-seat.acting").count() == 0
            question = phone.locator("[data-pad-ask]")
            assert "这一墩谁大" in question.inner_text() and all(name in question.inner_text() for name in names)
            question.locator(f'button[data-leader="{state.to_act}"]').click()
            pad.wait(lambda: phone.locator(f'.pad-seat.acting[data-seat="{state.to_act}"]').count() == 1)
            context.context.set_offline(False)
            pad.wait(lambda: pad.state() == "ready" and phone.locator(".pad-seat.acting").count() == 1)
        else:
            pad.record(action)
        if state.phase == "finished":
            break
        seen = phone.evaluate(HIDDEN)
        assert seen["seat"] == state.to_act and seen["hidden"] == [], (index, seen)
        if state.to_act is None:  # while the cards are dealt, any seat may declare: nobody is the one to act
            continue
        acting = phone.locator(".pad-seat.acting").inner_text()
        assert names[state.to_act] in acting, (index, acting)
        if state.phase == "playing" and state.trick:
            assert seen["toBeat"], (index, "the trick so far is beside the acting seat")
    assert offline_done, "no trick in the deal was won by a seat other than the next one"
    pad.wait(lambda: phone.locator("[data-result]").count() == 1)
    looked_at(phone)
    result = engine.result(state)
    assert result is not None
    page = context.page()
    on_table = table_totals(page, live, match["id"])
    # An appeal against the deal: filed by the table's referee, decided by the chief referee (the result stands).
    page.goto(f"{live.url}/tournaments/{tournament}")
    page.click("#appeals-link")
    page.fill("#appeal-token-input", card["token"])
    page.click("#appeal-token-form button[type=submit]")
    page.wait_for_selector("#appeal-token-held:not([hidden])")
    page.wait_for_selector("#file-form")  # shown to a role that may file
    page.select_option("#file-form [name=match]", match["id"])
    page.select_option("#file-form [name=kind]", "deal")
    page.select_option("#file-form [name=deal]", deal)
    page.wait_for_selector("#file-form [name=step] option[value='10']", state="attached")  # the steps in words
    page.select_option("#file-form [name=step]", "10")
    page.select_option("#file-form [name=category]", "rules_misapplied")
    page.fill("#file-form [name=statement]", f"{names[1]} 认为第10步的出牌被误判")
    page.check(f"#file-form [name=on_behalf_of][value='{names[1]}']")
    page.click("#file-form button[type=submit]")
    page.wait_for_url("**/appeals/*")
    page.wait_for_selector("[data-timeline]")
    looked_at(page)
    page.fill("#appeal-token-input", live.organiser)
    page.click("#appeal-token-form button[type=submit]")
    page.wait_for_selector("#appeal-token-held:not([hidden])")
    page.select_option("#ruling-kind", "stands")
    page.fill("#ruling-form [name=reason]", "裁判判定正确，维持原结果")
    page.click("#ruling-form button[type=submit]")
    page.wait_for_selector("article[data-status='ruled']")
    looked_at(page)
    appeal = page.url.rsplit("/", 1)[-1]
    assert table_totals(page, live, match["id"]) == on_table  # the result stands on the table page
    decided_by_the_committee(page, console, live, tournament, match["id"], deal, appeal, card["token"], names)
    assert context.left == []
    context.context.close()


def decided_by_the_committee(page: Page, console: Page, live: LiveServer, tournament: str, match: str, deal: str,
                             appeal: str, referee: str, names: list[str]) -> None:
    """The filing side goes to the committee; the committee reviews the deal result-blind from the appellant's
    seat, then assigns the deal a score two points better for 张伟·王芳; that score is the same on every page."""
    assert live.service is not None
    _, committee = live.service.tokens.create("appeals", label="仲裁委员会")
    played = list(live.service.deals.get(deal)["result"]["scores"])
    assigned = [score + (2 if seat % 2 == 0 else -2) for seat, score in enumerate(played)]
    page.goto(f"{live.url}/appeals/{appeal}")
    page.fill("#appeal-token-input", referee)
    page.click("#appeal-token-form button[type=submit]")
    page.wait_for_selector("#appeal-token-held:not([hidden])")
    page.fill("#committee-form [name=reason]", f"{names[1]} 不服裁决")
    page.click("#committee-form button[type=submit]")
    page.wait_for_selector("article[data-status='appealed']")
    looked_at(page)
    # Result-blind: the review stops at the judged step, shows no result and no scores.
    with page.expect_response(lambda r: f"/ui-api/appeals/{appeal}/frames" in r.url) as answered:
        page.click("a[data-review='seat:1']")
    page.wait_for_selector('body[data-ready="1"]')
    blind = frames_as_the_page_reads_them(page, answered.value.url)
    assert '"result"' not in blind and '"scores"' not in blind
    assert page.get_attribute("body", "data-total") == "10"
    assert page.locator("#game-info .panel.result").count() == 0
    looked_at(page, lambda p: p.wait_for_selector('body[data-ready="1"]'))
    page.goto(f"{live.url}/appeals/{appeal}")
    page.fill("#appeal-token-input", committee)
    page.click("#appeal-token-form button[type=submit]")
    page.wait_for_selector("#appeal-token-held:not([hidden])")
    page.wait_for_selector("#decision-token", state="hidden")  # the tab holds the committee's token: not asked again
    page.select_option("#decision-kind", "assigned")
    page.fill("#decision-scores", " / ".join(str(score) for score in assigned))
    page.fill("#decision-members", "甲\n乙\n丙")
    page.fill("#vote-for", "3")
    page.fill("#decision-reason", "第10步误判，按对方得分")
    page.click("#decision-preview")
    page.wait_for_selector("#decision-changes li")
    page.click("#decision-submit")
    page.wait_for_selector("[data-step-kind=decision] [data-outcome=assigned]")
    looked_at(page)
    # The table page: the deal marked 申诉 with the scores as played beside it.
    table_totals(page, live, match)
    assert page.locator("tr[data-appealed]").count() == 1
    marked = page.locator("tr[data-appealed] + tr.deal-marks [data-mark='appeal']")
    said = marked.locator(".zh").inner_text()
    assert "申诉" in said and all(name in said for name in names), said
    # Every page the same: the table's row on the tournament page, the console's and the public standings.
    refresh(console)
    same_score_everywhere(page, console, live, tournament, match)
    # The console's explanation of the appellant: the total as a sum that adds up, the appeal named in it.
    console.click(f"#standings-table [data-explain='{names[1]}']")
    console.wait_for_selector(f"[data-explained='{names[1]}']")
    answer = live.get(f"/api/tournaments/{tournament}/standings/{names[1]}/explain").json()
    parts = answer["total_explained"]["parts"]
    # 升级's total is the level reached, which an adjusted score leaves as played: the appeal's change is named
    # as included in its deal (not added again), the other parts add up to the total.
    assert sum(part["points"] for part in parts if not part.get("included")) == answer["total"], parts
    assert [(part["number"], part["points"]) for part in parts if part["kind"] == "appeal"] == [(1, -2)], parts
    said = console.inner_text("[data-total-explained]")
    assert console.get_attribute("[data-explained]", "data-explained-total") == figure(answer["total"])
    assert "申诉（第 1 局）" in said, said
    looked_at(console, settle)

