"""The organiser console in a real headless Chromium over the real app (docs/console.md): a 12-player 挖坑 Swiss event
of three rounds run from the console at laptop size, a 13-player one with byes on a phone, and a 9-team 大怪路子
knockout to its final on a tablet. Deals are recorded through the service (the pad is another page); entries,
draws, opening, closing, penalties, referee cards and standings are the console's. What the console shows is
compared with the API's answers, and nothing is fetched from anywhere but the test server."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer
from game_support import record_random_play
from playwright.sync_api import Page
from test_viewer_browser import CHROMIUM, LAPTOP, Offline

from fixtures.random_play.daguai import ENGINE as DAGUAI
from fixtures.random_play.daguai import play_out as daguai_play_out
from fixtures.random_play.wakeng import ENGINE as WAKENG
from fixtures.random_play.wakeng import play_out as wakeng_play_out

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("console-browser") / "console.sqlite").start()
    yield server
    server.stop()


def settle(page: Page, timeout_ms: int = 15_000) -> None:
    """Wait until the console's last action is done (polled from Python: the pages' CSP forbids eval)."""
    for _ in range(timeout_ms // 50):
        if page.get_attribute("#console", "data-console-state") == "ready":
            return
        page.wait_for_timeout(50)
    raise AssertionError("the console stayed busy")


def no_error(page: Page) -> None:
    error = page.locator("#error")
    assert error.is_hidden(), error.inner_text()


def fits(page: Page) -> None:
    """No sideways scroll, and every button of the page can be reached."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def sign_in_and_create(page: Page, live: LiveServer, **form: str) -> str:
    page.goto(f"{live.url}/console")
    settle(page)
    page.fill("#signin-token", live.organiser)
    page.click("#signin-form button[type=submit]")
    assert page.locator("#signed-in").is_visible()
    page.fill("#create-form input[name=name]", form["name"])
    page.select_option("#create-game", form["game"])
    page.select_option("#create-format", form["format"])
    for field in ("options", "lots_seed", "department_limit"):
        if field in form:
            selector = "textarea" if field == "options" else "input"
            page.fill(f"#create-form {selector}[name={field}]", form[field])
    with page.expect_navigation():
        page.click("#create-form button[type=submit]")
    settle(page)
    no_error(page)
    return page.url.rsplit("/", 1)[-1]


def paste(page: Page, text: str) -> None:
    if page.get_attribute("#entries-panel details", "open") is None:
        page.click("#entries-panel details summary")
    page.fill("#bulk-text", text)
    page.click("#bulk-form button[type=submit]")
    settle(page)


def draw_and_open(page: Page, live: LiveServer, tournament: str, method: str | None = None) -> dict[str, Any]:
    """Draw the next round in the console, check it is the API's proposal, open it; the API's proposal."""
    expected = live.get(f"/api/tournaments/{tournament}/draw" + (f"?method={method}" if method else "")).json()
    if method:
        page.select_option("#draw-method", method)
    page.click("#draw-button")
    settle(page)
    no_error(page)
    shown = [page.get_attribute(f"[data-proposed-table='{t['table']}']", "data-seats") for t in expected["tables"]]
    assert shown == [_json(t["names"]) for t in expected["tables"]]
    if expected["bye_names"]:
        assert page.get_attribute("[data-proposed-byes]", "data-proposed-byes") == _json(expected["bye_names"])
    page.click("#open-round")
    settle(page)
    no_error(page)
    assert page.get_attribute("#console", "data-round") == str(expected["round"])
    return expected


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))  # as JSON.stringify writes it


def states(page: Page) -> list[str]:
    return (page.get_attribute("#console", "data-progress") or "").split(",")


def refresh(page: Page) -> None:
    page.click("#refresh")
    settle(page)


def standings_agree(page: Page, live: LiveServer, tournament: str) -> dict[str, Any]:
    """The console's standings table is the API's: every row's player (a team format: every team), rank and total,
    in order."""
    answer = live.get(f"/api/tournaments/{tournament}/standings").json()
    key = "team" if answer.get("teams") else "player"
    # every row's three facts in one read (a round trip per attribute was most of a standings check)
    shown = [tuple(row) for row in page.eval_on_selector_all(
        "#standings-table tbody tr", "(rows, key) => rows.map(r => [r.dataset[key], r.dataset.rank, r.dataset.total])",
        key)]
    if answer.get("teams"):
        assert shown == [(team["entry"], str(team["rank"]), figure(team["total"])) for team in answer["teams"]]
        return answer
    expected = [(row["player_id"], str(row["rank"]), figure(row["total"])) for row in answer["rows"]]
    assert shown == expected
    return answer


def figure(value: Any) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4f}".rstrip("0")
    return str(int(value)) if isinstance(value, float) else str(value)


def play_wakeng_round(live: LiveServer, tournament: str, rng: random.Random) -> None:
    service = live.service
    assert service is not None
    info = service.tournaments.get(tournament)
    for match in [m for m in info["matches"] if m["round"] == info["current_round"]]:
        deal, _ = service.deals.start(match=match["id"], seed=f"{tournament}-{info['current_round']}")
        record_random_play(service, deal["id"], WAKENG, wakeng_play_out, rng)


def test_a_twelve_player_swiss_event_of_three_rounds_from_the_console(browser, live):
    context = Offline(browser, live, LAPTOP)
    page = context.page()
    tournament = sign_in_and_create(page, live, name="挖坑瑞士移位赛", game="wakeng", format="wakeng.s003",
                                    options='{"wk.tableDeals": 1}', lots_seed="附录三")
    players = [f"选手{i:02d}" for i in range(1, 13)]
    paste(page, "\n".join(f"{p}，挖坑协会" for p in players))
    no_error(page)
    assert page.get_attribute("#console", "data-entries") == "12"
    rng = random.Random(12)
    for number in (1, 2, 3):
        assert draw_and_open(page, live, tournament)["round"] == number
        assert states(page) == ["not_started"] * 4
        play_wakeng_round(live, tournament, rng)
        refresh(page)
        assert states(page) == ["finished"] * 4
        standings_agree(page, live, tournament)
    # A penalty from the console: 2 MP off the leader, with the reason; the explanation agrees with the API's
    leader = page.get_attribute("#standings-table tbody tr:first-child", "data-player")
    page.select_option("#penalty-player", leader)
    page.fill("#penalty-form input[name=points]", "-2")
    page.fill("#penalty-form input[name=reason]", "离座未请假 / left the seat")
    page.click("#penalty-form button[type=submit]")
    settle(page)
    no_error(page)
    answer = standings_agree(page, live, tournament)
    row = next(r for r in answer["rows"] if r["player_id"] == leader)
    assert row["adjustments"] == -2
    page.click(f"button[data-explain='{leader}']")
    settle(page)
    explained = live.get(f"/api/tournaments/{tournament}/standings/{leader}/explain").json()
    assert page.get_attribute("[data-explained]", "data-explained-total") == figure(explained["total"])
    # Referee cards: a fresh token scoped to each table, as text and as a QR code made on the server
    page.click("#cards-button")
    settle(page)
    cards = page.locator(".referee-card")
    assert cards.count() == 4
    token = cards.first.locator(".token-text").inner_text()
    assert token.startswith("fupan_") and cards.first.locator("img").count() == 2
    assert "/pad" in cards.first.locator(".pad-url").inner_text()
    assert token not in page.url and token not in cards.first.locator(".pad-url").inner_text()
    # The test server listens on 127.0.0.1: no phone could open the card's address, and the card says so.
    assert "127.0.0.1" in cards.first.locator("[data-card-warning]").inner_text()
    # Seed 001's board games live in the same tournament: a results-only 五子棋 knockout from the console
    page.click("#side-panel details summary")
    page.fill("#side-form input[name=key]", "wzq")
    page.fill("#side-form input[name=name]", "五子棋")
    page.fill("#side-form textarea[name=text]", "甲\n乙\n丙")
    page.click("#side-form button[type=submit]")
    settle(page)
    no_error(page)
    page.click("button[data-side-result='wzq|1|1']:has-text('乙')")  # 乙 beats 甲; 丙 had the bye
    settle(page)
    page.click("button[data-side-result='wzq|2|1']:has-text('丙')")  # the final
    settle(page)
    places = page.locator("[data-side-event='wzq'] .side-places li").all_inner_texts()
    assert places == ["1. 丙", "2. 乙", "3. 甲"]
    side = live.get(f"/api/tournaments/{tournament}/side-events").json()["side_events"][0]
    assert [p["player"] for p in side["places"]] == ["丙", "乙", "甲"]
    assert context.left == [] and context.errors == []
    context.context.close()


def test_thirteen_players_get_byes_on_a_phone(browser, live):
    context = Offline(browser, live, PHONE)
    page = context.page()
    tournament = sign_in_and_create(page, live, name="十三人挖坑", game="wakeng", format="wakeng.s003",
                                    options='{"wk.tableDeals": 1}', lots_seed="13")
    fits(page)
    paste(page, "\n".join(f"牌手{i}" for i in range(1, 14)))
    rng = random.Random(13)
    byes = []
    for _ in (1, 2):
        plan = draw_and_open(page, live, tournament)
        assert len(plan["bye_names"]) == 1 and plan["bye_names"][0] not in byes
        byes += plan["bye_names"]
        assert byes[-1] in page.locator("#progress-byes").inner_text()
        play_wakeng_round(live, tournament, rng)
        refresh(page)
        answer = standings_agree(page, live, tournament)
        bye = next(r for r in answer["rows"] if r["name"] == byes[-1])
        assert bye["status"] == "bye"
        assert page.locator(f"#standings-table tr[data-player='{bye['player_id']}']").inner_text().count("轮空") == 1
        fits(page)
    assert byes[0] == "牌手13"  # round 1: the last registered (the ranking before round 1 is the entry order)
    page.select_option("#withdraw-player", "牌手2")  # a withdrawal from the console: 12 left, no bye in round 3
    page.fill("#withdraw-form input[name=reason]", "临时出差")
    page.click("#withdraw-form button[type=submit]")
    settle(page)
    no_error(page)
    assert page.get_attribute("tr[data-entry='牌手2']", "data-withdrawn") == "true"
    third = live.get(f"/api/tournaments/{tournament}/draw").json()
    assert third["byes"] == [] and "牌手2" not in {p for t in third["tables"] for p in t["names"]}
    page.click("#lang-toggle")  # English: the script-drawn tables and the form's options follow
    settle(page)
    assert page.locator(f"#standings-table tr[data-player='{bye['player_id']}']").inner_text().count("Bye") == 1
    assert page.locator("#penalty-form option[value=penalty]").inner_text() == "Penalty"
    fits(page)
    assert context.left == [] and context.errors == []
    context.context.close()


def test_a_nine_team_daguai_knockout_to_its_final_on_a_tablet(browser, live):
    context = Offline(browser, live, TABLET)
    page = context.page()
    tournament = sign_in_and_create(page, live, name="教工大怪路子团体赛", game="daguai", format="daguai.s000",
                                    lots_seed="000", department_limit="2")
    # Seed 000: 每个部门最多报2个队 — a third team of one department refuses the whole batch
    teams = [f"{i}队，部门{(i + 1) // 2}，{i}甲，{i}乙，{i}丙" for i in range(1, 10)]
    paste(page, "\n".join([*teams[:2], "多余队，部门1，x甲，x乙，x丙"]))
    assert page.get_attribute("#error", "data-code") == "department_limit"
    assert "部门1" in page.locator("#error").inner_text()
    assert page.get_attribute("#console", "data-entries") == "0"
    paste(page, "\n".join(teams))
    no_error(page)
    assert page.get_attribute("#console", "data-entries") == "9"
    fits(page)
    service = live.service
    assert service is not None
    rng = random.Random(9)
    kinds = []
    for number in range(1, 6):
        method = "lot" if number == 1 else None
        proposal = live.get(f"/api/tournaments/{tournament}/draw" + (f"?method={method}" if method else ""))
        if number == 5:  # the final is played: the API draws nothing more, and the console says so
            assert proposal.status_code == 422 and proposal.json()["error"]["code"] == "tournament_over"
            page.click("#draw-button")
            settle(page)
            assert page.get_attribute("#error", "data-code") == "tournament_over"
            break
        plan = draw_and_open(page, live, tournament, method)
        kinds.append((len(plan["tables"]), len(plan["byes"]) // 3, plan["kind"],
                      plan["tables"][0]["options"].get("dg.tableDeals", 4)))
        for table in page.locator("#progress-list li[data-match]").all():
            match = table.get_attribute("data-match")
            # One real deal at each table, then the organiser closes it from the console (a 大怪路子 deal is about
            # 200 actions); the table's ranking — team points, then the declared tiebreaks — decides who goes on.
            deal, _ = service.deals.start(match=match)
            record_random_play(service, deal["id"], DAGUAI, daguai_play_out, rng)
        refresh(page)
        while page.locator("form.close-form").count():  # each close redraws the list
            form = page.locator("form.close-form").first
            form.locator("input[name=reason]").fill("测试：一局定胜负")
            form.locator("button").click()
            settle(page)
            no_error(page)
        assert set(states(page)) == {"finished"}
        standings_agree(page, live, tournament)
        fits(page)
    # 9 teams: 4 tables and a bye, 2 and a bye, the semi-final of 6 deals and a bye, the final of 6 deals
    assert kinds == [(4, 1, "tables", 4), (2, 1, "tables", 4), (1, 1, "tables", 6), (1, 0, "final", 6)]
    answer = standings_agree(page, live, tournament)
    assert [row["status"] for row in answer["rows"][:3]] == ["champion"] * 3
    refusals = [e for e in context.errors if "status of 422" in e]  # the two refusals above, logged by the browser
    assert context.left == [] and len(refusals) == 2 and len(context.errors) == 2
    context.context.close()


def test_tiebreaks_are_chosen_by_name_in_order_and_the_title_speaks_one_language(browser, live):
    """The create form lists the format's tiebreaks by name (never a code to type): the defaults ticked in their
    order, the others offered; ticking one and moving it up is what the tournament declares. The page's title is
    in one language."""
    context = Offline(browser, live, PHONE)
    page = context.page()
    page.goto(f"{live.url}/console")
    settle(page)
    title = page.title()
    assert "Organiser" not in title and "组织者控制台" in title, title
    page.fill("#signin-token", live.organiser)
    page.click("#signin-form button[type=submit]")
    page.fill("#create-form input[name=name]", "破同分选择杯")
    page.select_option("#create-game", "doudizhu")
    page.select_option("#create-format", "doudizhu.s001")
    chooser = page.locator("#tiebreak-list li")
    codes = [chooser.nth(i).get_attribute("data-tiebreak") for i in range(chooser.count())]
    assert codes == ["playoff", "deals_won", "landlord_wins", "lots", "penalties"]
    ticked = [chooser.nth(i).locator("input").is_checked() for i in range(chooser.count())]
    assert ticked == [True, True, True, True, False]
    shown = page.inner_text("#create-tiebreaks")
    assert "胜局数" in shown and "地主胜局" in shown, shown
    assert not any(code in shown for code in codes), shown  # names, never codes
    assert page.locator("#create-tiebreaks input[type=text], #create-tiebreaks input:not([type])").count() == 0
    penalties = page.locator("#tiebreak-list li[data-tiebreak=penalties]")
    penalties.locator("input").check()
    penalties.locator("button[data-move='-1']").click()
    page.click("#lang-toggle")  # the names follow the language; what was chosen stays
    assert page.locator("#tiebreak-list li").nth(3).get_attribute("data-tiebreak") == "penalties"
    assert page.locator("#tiebreak-list li[data-tiebreak=penalties] input").is_checked()
    assert "Organiser" not in page.title() or "组织者" not in page.title()
    with page.expect_navigation():
        page.click("#create-form button[type=submit]")
    settle(page)
    no_error(page)
    tournament = page.url.rsplit("/", 1)[-1]
    declared = live.get(f"/api/tournaments/{tournament}").json()["tiebreaks"]
    assert declared == ["playoff", "deals_won", "landlord_wins", "penalties", "lots"], declared
    # An individual event's entries list names each player once: no 队员 column saying the name again (issue 23).
    entry = {"name": "张三", "department": "机械学院", "members": [{"name": "张三"}]}
    assert live.post(f"/api/tournaments/{tournament}/entries", {"entries": [entry]}).status_code == 201
    refresh(page)
    row = page.locator("#entries-table tr[data-entry='张三']")
    assert page.inner_text("#entry-count").startswith("1 entry"), page.inner_text("#entry-count")  # not "1 entries"
    assert row.locator("td").count() == 4 and row.inner_text().count("张三") == 1, row.inner_text()
    headings = page.eval_on_selector_all("#entries-table th",
                                         "ths => ths.filter(th => !th.hidden).map(th => th.innerText)")
    assert len(headings) == 4 and not any("Members" in h or "队员" in h for h in headings), headings
    assert context.left == [] and context.errors == []
    context.context.close()
