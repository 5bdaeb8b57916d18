"""Teams and entries as people type them, in a real headless Chromium (issue 23, defects 8, 9 and 10), on a laptop
(1366×900) and a phone (390×844): a 7-team 大怪路子 event whose pasted list has mistakes — every one reported at once
with its line — and a typo'd entry taken off before round 1; the draw, with departments kept apart, names each
team and its department and each seat by its player (never "1 号位"); the console's standings and the public
standings page rank the teams as teams (the bye team is one line), draw a line per team, and mark a withdrawn
player 退赛."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from conftest import LiveServer
from test_console_browser import fits, no_error, paste, settle, sign_in_and_create
from test_viewer_browser import CHROMIUM, Offline

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SEVEN = [("后勤队", "后勤处"), ("机械一队", "机械学院"), ("机械二队", "机械学院"), ("外语队", "外语学院"),
         ("理学一队", "理学院"), ("理学二队", "理学院"), ("管理队", "管理学院")]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("teams-browser") / "teams.sqlite").start()
    yield server
    server.stop()


def no_seat_numbers(text: str) -> None:
    """What a person reads names seats by their players: no "N 号位", "座位 N", "Seat N" or "N 队"."""
    assert not re.search(r"\d\s*号位|座位\s*\d|[Ss]eat\s*\d|\d\s*队", text), text


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_team_event_from_entries_with_mistakes_to_the_standings(browser, live, size):
    context = Offline(browser, live, size)
    page = context.page()
    page.on("dialog", lambda dialog: dialog.accept())  # "remove this entry?"
    name = f"教工大怪路子 {size['width']}"
    tournament = sign_in_and_create(page, live, name=name, game="daguai", format="daguai.s000",
                                    lots_seed="000", department_limit="2")
    lines = [f"{team}，{department}，{team}甲，{team}乙，{team}丙" for team, department in SEVEN]
    # Line 2 is typed with spaces (read as fields), line 4 has a member too few, line 5 enters 后勤队甲 twice,
    # line 6 is a third team of 机械学院: all three refusals at once, each with its line, in plain words.
    wrong = [lines[0], "机械一队 机械学院 机械一队甲 机械一队乙 机械一队丙", lines[2],
             "外语队，外语学院，外语队甲，外语队乙", "理学一队，理学院，后勤队甲，理学一队乙，理学一队丙",
             "机械三队，机械学院，丙1，丙2，丙3"]
    paste(page, "\n".join(wrong))
    items = page.locator("#error [data-error-line]")
    assert items.count() == 3
    shown = [items.nth(i).inner_text() for i in range(3)]
    assert [text.split("：")[0] for text in shown] == ["第 4 行", "第 5 行", "第 6 行"]
    assert "后勤队甲" in shown[1] and "机械学院" in shown[2]
    assert all("[" not in text and "'" not in text for text in shown)
    assert page.get_attribute("#console", "data-entries") == "0"  # nothing stored
    fits(page)
    # The list corrected, with one typo'd entry (no separator: one field too few) … refused again, then fixed
    paste(page, "\n".join([*lines, "多余的队 无部门"]))
    assert page.locator("#error [data-error-line]").count() == 0 and "第 8 行" in page.locator("#error").inner_text()
    paste(page, "\n".join([*lines, "多余的队，无部门，甲1，甲2，甲3"]))
    no_error(page)
    assert page.get_attribute("#console", "data-entries") == "8"
    row = page.locator("#entries-table tr[data-entry='机械二队']")
    assert row.get_attribute("data-department") == "机械学院"
    assert page.is_visible("#entries-table th[data-members-col]") and row.locator("td").count() == 5  # its members
    page.click("button[data-remove='多余的队']")  # taken off before round 1
    settle(page)
    no_error(page)
    assert page.get_attribute("#console", "data-entries") == "7"
    fits(page)
    # Round 1 by lot, departments kept apart (an option of the draw, off by default)
    assert page.locator("#apart-label").is_visible() and not page.is_checked("#draw-apart")
    page.select_option("#draw-method", "lot")
    page.check("#draw-apart")
    page.click("#draw-button")
    settle(page)
    no_error(page)
    departments = dict(SEVEN)
    cards = page.locator("#proposal [data-proposed-table]")
    assert cards.count() == 3
    for i in range(3):
        teams = cards.nth(i).locator(".team-name")
        named = [teams.nth(j).inner_text() for j in range(teams.count())]
        assert len(named) == 2 and all(any(n.startswith(team) for team in departments) for n in named)
        facing = [next(team for team in departments if n.startswith(team)) for n in named]
        assert departments[facing[0]] != departments[facing[1]]  # kept apart
        assert all(departments[team] in n for team, n in zip(facing, named, strict=True))
    byes = page.locator("[data-proposed-byes]").inner_text()
    assert any(team in byes and departments[team] in byes for team in departments)
    no_seat_numbers(page.locator("#proposal").inner_text())
    fits(page)
    page.click("#open-round")
    settle(page)
    no_error(page)
    no_seat_numbers(page.locator("#progress-panel").inner_text())
    assert page.locator("#progress-list .team-name").count() == 6
    while page.locator("form.close-form").count():  # closed before any deal: the tables' lots decide
        form = page.locator("form.close-form").first
        form.locator("input[name=reason]").fill("测试")
        form.locator("button").click()
        settle(page)
        no_error(page)
    assert page.locator("#entries-table button.remove-entry").count() == 0  # round 1 started: withdraw instead
    page.select_option("#withdraw-player", "管理队乙")
    page.fill("#withdraw-form input[name=reason]", "生病")
    page.click("#withdraw-form button[type=submit]")
    settle(page)
    no_error(page)
    answer = live.get(f"/api/tournaments/{tournament}/standings").json()
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == 7  # a line per team, not 21 player lines
    assert [rows.nth(i).get_attribute("data-team") for i in range(7)] == [t["entry"] for t in answer["teams"]]
    managed = page.locator("#standings-table tr[data-team='管理队']")
    assert managed.locator("[data-withdrawn-mark]").count() == 2  # the member and the team's status
    assert page.locator("#entries-table tr[data-entry='管理队'] [data-withdrawn-mark]").count() >= 1
    fits(page)
    # The public standings page: the teams with their departments, a chart line (or bar) per team, 退赛 marked
    page.goto(f"{live.url}/tournaments/{tournament}/standings")
    page.wait_for_selector("#standings-table tbody tr")
    public = page.locator("#standings-table tbody tr")
    assert public.count() == 7
    assert [public.nth(i).get_attribute("data-team") for i in range(7)] == [t["entry"] for t in answer["teams"]]
    assert all(departments[t] in public.nth(i).inner_text() for i, t in enumerate(
        [t["entry"] for t in answer["teams"]]))
    assert page.locator("#standings-table [data-withdrawn-mark]").count() == 1
    page.wait_for_selector("#standings-chart .main-svg")
    drawn = page.evaluate("document.querySelectorAll('#standings-chart .trace, #standings-chart .point').length")
    bars = page.evaluate("document.querySelectorAll('#standings-chart .bars .point').length")
    assert bars == 7 or drawn >= 7, (bars, drawn)
    no_seat_numbers(page.locator("#standings").inner_text())
    fits(page)
    assert context.left == []
    context.context.close()
