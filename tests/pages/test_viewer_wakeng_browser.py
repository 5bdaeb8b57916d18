"""The 竞技挖坑 viewer in real headless Chromium (Debian's /usr/bin/chromium, Playwright): a recorded table
(tests/pages/test_viewer_wakeng_pages.py's WakengSite) stepped board by board — three seats with the viewpoint's own at
the bottom, the digger's and defenders' roles, 明牌 and 加倍 badges, a seat's own hand and only the others' counts,
a hand shown by 明牌 face up for everyone from that step, the kitty face down until the digger is known and face
up after, the board, bid and 烂挖, the decision history, each defender's stake, the round with its pattern names,
fouls and the result — and the match's running raw totals chart. Every page runs with the network cut off
(test_viewer_browser.Offline); screenshots go to artifacts/.
"""

from __future__ import annotations

from typing import Any

import pytest
import viewer_support
from test_viewer_browser import CHROMIUM, Offline
from test_viewer_wakeng_pages import PLAYERS, WakengSite, start_wakeng_site
from viewer_support import dom_cards, go_to, open_viewer, quoted_cards, shot, step_of

KITTY_SIZE = 4

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")

site = viewer_support.site_fixture(start_wakeng_site, "viewer-wakeng")


def hidden_from(view: dict[str, Any], seat: int) -> set[str]:
    """Cards `seat` cannot see at this point (from the referee's view of it): those in the other seats' closed
    hands and, until the digger is known, the kitty; once it is, the kitty is public even in the digger's closed
    hand (B4.5). One deck: every code is one card."""
    hidden = {c for s in view["seats"] if s["seat"] != seat and not s["exposed"] for c in s["hand"]}
    if view["phase"] in ("reveal", "bidding"):
        return hidden | set(view["kitty"])
    return hidden - set(view["kitty"])


def test_stepping_a_deal_from_a_seat_never_shows_another_seats_hidden_cards(site: WakengSite,
                                                                           offline: Offline) -> None:
    def never_seen(deal: dict[str, Any], seat: int) -> set[str]:
        """Cards left in the other hands at the end of a deal nobody showed, not from the public kitty: never
        played, never seen by `seat`."""
        final = site.frames(deal["id"], "referee")[-1]["view"]
        return {c for s in final["seats"] if s["seat"] != seat for c in s["hand"]} - set(final["kitty"])

    # The deal without 明牌 and the defender with the most cards never seen.
    choices = [(deal, seat) for deal in site.deals if not deal["result"]["revealed"] for seat in range(3)
               if seat != deal["result"]["digger"]]
    deal, seat = max(choices, key=lambda choice: len(never_seen(*choice)))
    result = deal["result"]
    referee = site.frames(deal["id"], "referee")
    kitty = referee[0]["view"]["kitty"]
    never = never_seen(deal, seat)
    assert len(never) >= 2
    page, responses = viewer_support.watched_seat(offline, site.demo, deal["id"], seat)
    frames = site.frames(deal["id"], f"seat:{seat}")
    for step, frame in viewer_support.step_through(page, frames):
        assert not set(dom_cards(page)) & hidden_from(referee[step]["view"], seat), step
        assert page.locator("#table .wk .seat").count() == 3
        viewer_support.assert_hand_drawn(page, frame["view"], seat)
        for other in frame["view"]["seats"]:
            if other["seat"] != seat:
                assert viewer_support.assert_counted_only(page, other, step) == "exact"
        if frame["view"]["phase"] in ("reveal", "bidding"):
            assert page.locator(".wk-kitty.hidden-kitty .card.back").count() == KITTY_SIZE
        else:
            assert sorted(dom_cards(page, ".wk-kitty")) == sorted(kitty)
    assert page.locator(".seat.pos-bottom").get_attribute("data-seat") == str(seat)
    assert page.locator(".seat.pos-right").get_attribute("data-seat") == str((seat + 1) % 3)  # 下家
    assert page.locator(".seat.pos-left").get_attribute("data-seat") == str((seat + 2) % 3)  # 上家
    assert page.locator(f".seat[data-seat='{result['digger']}'] .role.digger").inner_text() == "庄家"
    assert page.locator(".seat .role.defender").count() == 2
    assert page.locator(f".seat[data-seat='{deal['first']}'] .first-bidder").count() == 1
    assert ("庄家胜" if result["digger_won"] else "闲家胜") in page.inner_text("#game-info .result")
    assert not quoted_cards(page.content()) & never
    viewer_support.assert_no_data_names(responses, never)
    # The seat's frame to look at: a round on the table with two plays or more, the seat still holding 6 or more.
    late = next((f["step"] for f in reversed(frames) if len(f["view"]["round"]["plays"]) >= 2
                 and f["view"]["seats"][seat]["count"] >= 6), frames[-1]["step"])
    open_viewer(page, site.demo, f"?step={late}&view=seat:{seat}", deal=deal["id"])
    assert page.locator(".wk-slots .played").count() >= 1
    assert any(p in page.inner_text(".wk-slots") for p in ("单张", "对子", "三条", "四条", "连牌", "对子连牌"))
    assert f"赌注 {result['stakes'][seat]}" in page.inner_text(f".seat[data-seat='{seat}'] .wk-stake")
    shot(page, f"viewer-wakeng-seat{seat}")
    assert offline.errors == []


def test_the_referee_sees_every_hand_the_kitty_shows_doubles_and_stakes(site: WakengSite, offline: Offline) -> None:
    deal = site.board("after")  # bid 3, the digger shows after the kitty, the digger and one defender double
    result = deal["result"]
    digger = result["digger"]
    frames = site.frames(deal["id"], "referee")
    lead = next(f["step"] for f in frames if f["view"]["phase"] == "play")
    page = offline.page()
    open_viewer(page, site.demo, "?step=0&view=referee", deal=deal["id"])
    assert sorted(dom_cards(page, ".wk-kitty")) == sorted(frames[0]["view"]["kitty"])  # the referee's, from the deal
    go_to(page, lead + 2)
    view = frames[lead + 2]["view"]
    for seat in view["seats"]:
        viewer_support.assert_hand_drawn(page, view, seat["seat"])
    assert page.locator(f".seat[data-seat='{digger}'] .wk-shown").inner_text() == "明牌"
    assert page.locator(".seat .wk-doubled").count() == 2
    assert page.locator(f".seat[data-seat='{digger}'] .wk-doubled").count() == 1
    badges = "".join(page.inner_text(".wk-badges").split())
    assert "第4副" in badges and "叫分3分" in badges and "明牌×2" in badges
    stakes = page.inner_text("#game-info .stakes")
    for seat in range(3):
        if seat != digger:
            assert str(result["stakes"][seat]) in stakes
    assert "36" in stakes and "叫分 3 × 明牌 ×2" in stakes  # the digger's total 24 + 12
    decisions = page.inner_text("#game-info .decisions")
    assert "叫分前明牌" in decisions and "庄家收底后明牌" in decisions
    assert "加倍" in decisions and "叫 3 分" in decisions
    assert page.locator("#game-info .decisions li.wk-double").count() == 2
    shot(page, "viewer-wakeng-referee")
    page.keyboard.press("End")
    totals = page.inner_text("#game-info .result")
    for seat, score in enumerate(result["scores"]):
        assert f"{'+' if score > 0 else ''}{score}" in totals, (PLAYERS[seat], score)
    # A defender sees the digger's hand from the step it is shown, not before; the kitty from the digger's bid.
    defender = (digger + 1) % 3
    page.click(f'[data-view="seat:{defender}"]')
    page.wait_for_selector(f'body[data-ready="1"][data-viewpoint="seat:{defender}"]')
    seat_frames = site.frames(deal["id"], f"seat:{defender}")
    shows = next(f["step"] for f in seat_frames if f["action"] and f["action"]["type"] == "reveal")
    go_to(page, shows - 2)
    assert page.locator(".wk-kitty.hidden-kitty").count() == 1
    go_to(page, shows - 1)
    assert dom_cards(page, f".seat[data-seat='{digger}']") == []
    assert sorted(dom_cards(page, ".wk-kitty")) == sorted(frames[0]["view"]["kitty"])
    go_to(page, shows)
    viewer_support.assert_hand_drawn(page, seat_frames[shows]["view"], digger)
    assert "收底后明牌" in page.inner_text("#step-text")
    with viewer_support.in_english(page):
        assert "after the kitty" in page.inner_text("#step-text") and "Digger" in page.inner_text("#table")
        assert "Defender" in page.inner_text("#table") and "Board 4" in page.inner_text("#table .wk-badges")
    assert offline.errors == []


def test_the_timeline_marks_lanwa_shows_doubles_fouls_and_the_end(site: WakengSite, offline: Offline) -> None:
    page = offline.page()
    tags = ("lanwa", "reveal", "double", "digger", "foul", "end")
    seen = viewer_support.first_marks(page, site.demo, site.deals, tags)
    assert set(seen) == set(tags)
    lanwa = site.board("lanwa")
    deal, step = seen["lanwa"]
    assert deal == lanwa["id"]
    open_viewer(page, site.demo, f"?step={step}&view=public", deal=deal)
    assert "烂挖" in page.inner_text("#step-text") and "烂挖" in page.inner_text(".wk-badges")
    assert "烂挖" in page.inner_text("#game-info .decisions")
    assert page.locator(f".seat[data-seat='{lanwa['first']}'] .role.digger").count() == 1
    foul = site.board("foul")
    offender = PLAYERS[(foul["first"] + 1) % 3]
    open_viewer(page, site.demo, f"?step={foul['actions']}&view=public", deal=foul["id"])
    assert page.locator("#game-info .fouls li").count() == 1
    assert offender in page.inner_text("#game-info .fouls") and "积分调整" in page.inner_text("#game-info .fouls")
    timeline = page.inner_text("#timeline")
    assert "超时，视为不叫" in timeline and "超时，视为不加倍" in timeline and "超时，自动出" in timeline
    top = site.board("top")  # two players showed before bidding, the first bidder bid 3 at once
    open_viewer(page, site.demo, f"?step={top['actions']}&view=public", deal=top["id"])
    assert page.locator("#table .seat .wk-shown").count() == 2
    assert "明牌×4" in page.inner_text(".wk-badges").replace(" ", "")
    assert offline.errors == []


def test_a_deal_in_play_shows_the_public_only_the_shown_hand(site: WakengSite, offline: Offline) -> None:
    page = offline.page()
    open_viewer(page, site.demo, "?view=public", deal=site.live_deal)
    total = int(page.get_attribute("body", "data-total") or "0")
    assert step_of(page) == 0
    assert dom_cards(page, "#table .seat") == []
    page.keyboard.press("End")
    assert step_of(page) == total
    shown = site.live_shown
    final = site.frames(site.live_deal, "public")[-1]["view"]  # the seat and referee views need a token
    viewer_support.assert_hand_drawn(page, final, shown)
    for seat in range(3):
        if seat != shown:
            assert dom_cards(page, f".seat[data-seat='{seat}']") == []
            assert page.locator(f".seat[data-seat='{seat}'] .card.back").count() == final["seats"][seat]["count"]
    assert sorted(dom_cards(page, ".wk-kitty")) == sorted(final["kitty"])  # public once the digger is known
    assert not set(dom_cards(page)) & site.live_hidden and not quoted_cards(page.content()) & site.live_hidden
    viewer_support.assert_seat_view_refused(page, offline.errors)


def test_the_match_page_charts_everyones_running_raw_total(site: WakengSite, offline: Offline) -> None:
    page = offline.page()
    table = viewer_support.open_match_page(page, site.url, site.match["id"], PLAYERS, "wk-deals", len(site.deals))
    assert "烂挖" in table and ("庄家胜" in table or "闲家胜" in table)
    assert "坐庄" in page.inner_text("#wk-standing")
    assert "本轮牌局已打完 · 按复式得分率排名" in page.inner_text("#match-clock")
    assert "平局" not in page.inner_text(".title-row")
    shot(page, "match-wakeng-totals", full_page=True)
    page.click("#lang-toggle")
    english = page.inner_text("table.wk-deals")
    assert "Board" in english and "Raw running total" in english and "Lanwa" in english
    assert "ranked by duplicate score rate" in page.inner_text("#match-clock")
    assert offline.errors == []
