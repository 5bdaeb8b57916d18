"""The 大怪路子 viewer in real headless Chromium (Debian's /usr/bin/chromium, Playwright): the recorded tables of
tests/pages/test_viewer_daguai_pages.py's DaguaiSite stepped through — six seats counter-clockwise from the
viewpoint's own at the bottom, two alternating teams, a seat's own hand and only the others' counts (exact at
≤10, a stack marked ">10" above), finishing places and the 头家, the round with its pattern names, fouls per
team, the result — and the match page's chart of both teams' running totals. Every page runs with the network
cut off (test_viewer_browser.Offline); screenshots go to artifacts/.
"""

from __future__ import annotations

from typing import Any

import pytest
import viewer_support
from test_viewer_browser import CHROMIUM, Offline
from test_viewer_daguai_pages import PLAYERS, TEAM_A, TEAM_B, DaguaiSite, start_daguai_site
from viewer_support import MANY_BACKS, dom_cards, open_viewer, quoted_cards, shot, step_of

WHERE = ["bottom", "right-low", "right-high", "top", "left-high", "left-low"]  # counter-clockwise from the bottom
FIVES = ("五同", "同花顺", "四带一", "三带二（俘虏）", "同花", "杂顺")

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")


site = viewer_support.site_fixture(start_daguai_site, "viewer-daguai")


def played_by_then(view: dict[str, Any]) -> set[str]:
    return {c for seat in view["seats"] for c in seat["played"]}


def test_stepping_a_deal_from_a_seat_never_shows_another_seats_hidden_cards(site: DaguaiSite,
                                                                           offline: Offline) -> None:
    deal = site.deals[1]
    seat = 3
    referee = site.frames(deal["id"], "referee")
    frames = site.frames(deal["id"], f"seat:{seat}")
    own = set(referee[0]["view"]["seats"][seat]["hand"])
    never = {c for s in referee[-1]["view"]["seats"] if s["seat"] != seat for c in s["hand"]} - own - \
        played_by_then(referee[-1]["view"])
    page, responses = viewer_support.watched_seat(offline, site.demo, deal["id"], seat)
    for step in range(6):
        assert page.locator(f".seat.pos-{WHERE[step]}").get_attribute("data-seat") == str((seat + step) % 6)
    counts_seen: set[str] = set()
    for step, frame in viewer_support.step_through(page, frames):
        # Only the seat's own cards and cards played by then are on the page.
        assert set(dom_cards(page)) <= own | played_by_then(referee[step]["view"]), step
        assert page.locator("#table .dg .seat").count() == 6
        viewer_support.assert_hand_drawn(page, frame["view"], seat)
        for other in frame["view"]["seats"]:
            if other["seat"] == seat:
                continue
            counts_seen.add(viewer_support.assert_counted_only(page, other, step))
            if other["count"] == ">10":
                assert page.locator(f".seat[data-seat='{other['seat']}'] .many").inner_text() == ">10"
    assert counts_seen == {"many", "exact"}
    result = deal["result"]
    head = result["first_finisher"]
    assert page.locator(f".seat[data-seat='{head}'] .dg-place.head").inner_text() == "头家"
    for place, who in enumerate(result["finish_order"], start=1):
        assert page.locator(f".seat[data-seat='{who}']").get_attribute("data-place") == str(place)
    assert f"被关 {result['k']} 家" in page.inner_text("#game-info .result")
    assert not quoted_cards(page.content()) & never
    viewer_support.assert_no_data_names(responses, never)

    def telling(frame: dict[str, Any]) -> bool:
        counts = [type(s["count"]) for s in frame["view"]["seats"] if s["seat"] != seat]
        return len(frame["view"]["round"]["plays"]) >= 3 and int in counts and str in counts

    late = next((f["step"] for f in frames if telling(f)), frames[-1]["step"])
    open_viewer(page, site.demo, f"?step={late}&view=seat:{seat}", deal=deal["id"])
    shot(page, f"viewer-daguai-seat{seat}")
    assert offline.errors == []


def test_the_referee_sees_every_hand_the_teams_patterns_and_the_result(site: DaguaiSite, offline: Offline) -> None:
    deal = site.deals[0]
    result = deal["result"]
    frames = site.frames(deal["id"], "referee")
    strong = next(f["step"] for f in frames if f["view"]["round"]["plays"] and f["action"]["type"] == "play"
                  and f["view"]["round"]["plays"][-1]["pattern"]["kind"] in ("five", "straight_flush"))
    page = offline.page()
    open_viewer(page, site.demo, f"?step={strong}&view=referee", deal=deal["id"])
    view = frames[strong]["view"]
    for seat in view["seats"]:
        viewer_support.assert_hand_drawn(page, view, seat["seat"])
        assert page.locator(f".seat[data-seat='{seat['seat']}']").get_attribute("data-team") == str(seat["seat"] % 2)
        assert page.locator(f".seat[data-seat='{seat['seat']}'] .dg-team").inner_text() == "甲乙"[seat["seat"] % 2]
    assert page.locator(".seat.pos-bottom").get_attribute("data-seat") == "0"  # the referee sits at seat 0's place
    pattern = view["round"]["plays"][-1]["pattern"]["zh"]
    newest = page.locator(".dg-slots .slot.newest")
    assert newest.locator(".pattern").inner_text() == pattern and pattern in ("五同", "同花顺")
    assert sorted(dom_cards(page, ".dg-slots .slot.newest")) == sorted(view["round"]["plays"][-1]["cards"])
    assert page.locator(f".seat[data-seat='{view['first']}'] .dg-dealer").count() == 1
    assert page.locator(f".seat[data-seat='{view['to_act']}'] .turn").count() == 1 if view["to_act"] is not None \
        else True
    teams = page.inner_text("#game-info .teams")
    # each side by its players, never 甲队 / 乙队
    assert all(name in teams for name in PLAYERS) and "甲队" not in teams and "乙队" not in teams
    sides = ["·".join(PLAYERS[seat] for seat in range(team, 6, 2)) for team in (0, 1)]
    assert all(side in teams for side in sides)
    shot(page, "viewer-daguai-referee")
    page.keyboard.press("End")
    info = page.inner_text("#game-info .result")
    team = sides[result["head_team"]]
    assert f"{team}抓 {result['k']} 家" in info and f"头家 {PLAYERS[result['first_finisher']]}" in info
    for team_no in (0, 1):
        row = page.locator(f"#game-info .dg-result tr[data-team='{team_no}']").inner_text()
        assert row.split()[-1] == str(result["team_points"][team_no])
    order = page.locator("#game-info .dg-order li")
    assert order.count() == len(result["finish_order"])
    assert "头家" in order.first.inner_text() and PLAYERS[result["first_finisher"]] in order.first.inner_text()
    assert page.locator(".dg-badges .dg-head-badge").count() == 1
    shot(page, "viewer-daguai-referee-end")
    with viewer_support.in_english(page):
        english = page.inner_text("#game-info")
        assert "Team A" not in english and sides[0] in english and f"catch {result['k']}" in english
        assert "Head" in page.inner_text("#table")
    assert offline.errors == []


def test_fouls_per_team_and_a_deal_decided_by_them(site: DaguaiSite, offline: Offline) -> None:
    deal = site.deals[2]
    page = offline.page()
    open_viewer(page, site.demo, "?view=public", deal=deal["id"])
    page.keyboard.press("End")
    fouls = page.locator("#game-info .fouls li")
    assert fouls.count() == 2 and page.locator("#game-info .fouls li.decides").count() == 1
    sides = ["·".join(PLAYERS[seat] for seat in range(team, 6, 2)) for team in (0, 1)]
    assert f"{sides[1]}第 2 次" in fouls.nth(1).inner_text()
    assert f"{sides[1]}本局犯规两次以上" in page.inner_text("#game-info .result")
    assert page.locator(".dg-badges .dg-fouls.lost[data-team='1']").count() == 1
    assert page.locator(".dg-badges .dg-fouls[data-team='0']").inner_text() == f"{sides[0]}犯规 0"
    assert "按被抓三家计分" in page.inner_text("#step-text")
    one = site.deals[3]
    open_viewer(page, site.demo, "?view=public", deal=one["id"])
    page.keyboard.press("End")
    assert page.locator("#game-info .fouls li").count() == 1
    assert page.locator("#game-info .fouls li.decides").count() == 0
    assert page.locator(".dg-badges .dg-fouls.on[data-team='0']").count() == 1
    assert offline.errors == []


def test_the_timeline_marks_the_head_players_out_strong_fives_fouls_and_the_end(site: DaguaiSite,
                                                                               offline: Offline) -> None:
    page = offline.page()
    seen: set[str] = set()
    for deal in site.deals:
        open_viewer(page, site.demo, "?step=0&view=public", deal=deal["id"])
        for tag in ("head", "out", "end", "foul", "five", "straight_flush"):
            if page.locator(f"#marks .mk.{tag}").count():
                seen.add(tag)
        assert page.locator("#marks .mk.head").count() == 1 and page.locator("#marks .mk.end").count() == 1
    assert {"head", "out", "end", "foul"} <= seen and seen & {"five", "straight_flush"}
    open_viewer(page, site.demo, "?step=0&view=public", deal=site.deals[1]["id"])
    text = page.inner_text("#timeline")
    assert "敲桌不出" in text and "得牌权" in text and "接风首出" in text
    assert any(name in text for name in FIVES) or "对子" in text
    assert offline.errors == []


def test_a_deal_in_play_shows_the_public_only_stacks_marked_over_ten(site: DaguaiSite, offline: Offline) -> None:
    page = offline.page()
    open_viewer(page, site.demo, "?view=public", deal=site.live_deal)
    page.keyboard.press("End")
    assert step_of(page) == int(page.get_attribute("body", "data-total") or "0")
    assert dom_cards(page, "#table .seat") == []
    assert page.locator("#table .seat .card.back").count() == 6 * MANY_BACKS
    assert page.locator("#table .seat .many").count() == 6
    assert not set(dom_cards(page)) & site.live_hidden and not quoted_cards(page.content()) & site.live_hidden
    assert page.locator("#game-info .result").count() == 0
    viewer_support.assert_seat_view_refused(page, offline.errors)


def test_the_match_page_charts_both_teams_running_totals(site: DaguaiSite, offline: Offline) -> None:
    page = offline.page()
    table = viewer_support.open_match_page(page, site.url, site.match["id"], [TEAM_A, TEAM_B], "dg-deals",
                                           len(site.deals))
    assert "头家" in table and "出完顺序" in table and "犯规判定" in table and "跑头家" in table
    assert "积分多者胜" in page.inner_text("#match-clock")
    shot(page, "match-daguai-totals", full_page=True)
    page.click("#lang-toggle")
    english = page.inner_text("table.dg-deals")
    assert "Finishing order" in english and "Points total" in english and "by fouls" in english
    page.goto(f"{site.url}/matches/{site.playoff_match['id']}")
    page.wait_for_selector("#match-chart svg.main-svg")
    assert "play-off" in page.inner_text("table.dg-deals")
    assert offline.errors == []


def test_the_analysis_panel_names_a_side_by_its_players(site: DaguaiSite, offline: Offline) -> None:
    """The 分析 panel's verdict names the side to act as people know it (its players), never 甲队 / 乙队."""
    deal = site.deals[0]
    frames = site.frames(deal["id"], "public")
    step = max(s for s, frame in enumerate(frames[:-1]) if frame["view"]["phase"] == "play"
               and frame["view"]["to_act"] is not None)
    page = offline.page()
    open_viewer(page, site.demo, "?view=public", deal=deal["id"])
    viewer_support.go_to(page, step)
    page.click("#analysis > summary")
    for _ in range(1200):  # polled from Python (the CSP forbids eval); the answer is quick this late in the deal
        if page.get_attribute("#analysis", "data-step") == str(step) and page.get_attribute(
                "#analysis", "data-state") not in (None, "loading"):
            break
        page.wait_for_timeout(50)
    assert page.get_attribute("#analysis", "data-state") == "answer"
    verdict = page.inner_text("#analysis .analysis-verdict")
    team = frames[step]["view"]["to_act"] % 2
    assert (TEAM_A, TEAM_B)[team] in verdict and "甲队" not in verdict and "乙队" not in verdict, verdict
    assert offline.errors == []
