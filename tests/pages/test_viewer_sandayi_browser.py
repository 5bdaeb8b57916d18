"""The 快乐三打一 viewer in real headless Chromium (Debian's /usr/bin/chromium, Playwright): a recorded table
(tests/pages/test_viewer_sandayi_pages.py's SandayiSite) stepped deal by deal — four seats each for themselves, the
dealer's role, bid and bomb allowances, a seat's own hand and only the others' counts (exact at ≤10, ">10"
above), the kitty only for the referee and the dealer, 头撂 and 摊打 (the dealer's hand face up for everyone),
the round with its pattern names, multipliers, fouls and the result — and the match's running totals chart.
Every page runs with the network cut off (test_viewer_browser.Offline); screenshots go to artifacts/.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import viewer_support
from test_viewer_browser import CHROMIUM, Offline
from test_viewer_sandayi_pages import PLAYERS, SandayiSite, start_sandayi_site
from viewer_support import MANY_BACKS, dom_cards, go_to, open_viewer, quoted_cards, shot, step_of

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")

site = viewer_support.site_fixture(start_sandayi_site, "viewer-sandayi")


def closed_to(view: dict[str, Any], seat: int) -> Counter[str]:
    """Copies of each card code `seat` cannot see at this point (from the referee's view of it): those in other
    seats' closed hands and, while bidding, in the kitty nobody has taken. Two decks hold two of each code, so
    the page may show a code at most 2 − this many times."""
    pool = Counter(c for s in view["seats"] if s["seat"] != seat and not s["exposed"] for c in s["hand"])
    if view["phase"] == "bidding":
        pool.update(view["kitty"])
    return pool


def hidden_from(view: dict[str, Any], seat: int) -> set[str]:
    """Codes of which `seat` can see no copy at all at this point."""
    return {code for code, copies in closed_to(view, seat).items() if copies == 2}


def assert_nothing_hidden_shown(shown: list[str], view: dict[str, Any], seat: int, step: int) -> None:
    closed = closed_to(view, seat)
    for code, copies in Counter(shown).items():
        assert copies <= 2 - closed[code], (step, code, copies)


def test_stepping_a_deal_from_a_seat_never_shows_another_seats_hidden_cards(site: SandayiSite,
                                                                           offline: Offline) -> None:
    # The deal and defender with the most codes never shown to that seat (both copies in closed hands to the end).
    choices = [(deal, seat) for deal in site.deals if deal["result"].get("ending") == "out"
               and not deal["result"]["declared"] for seat in range(4) if seat != deal["result"]["dealer"]]
    deal, seat = max(choices, key=lambda c: len(hidden_from(site.frames(c[0]["id"], "referee")[-1]["view"], c[1])))
    dealer = deal["result"]["dealer"]
    referee = site.frames(deal["id"], "referee")
    never = hidden_from(referee[-1]["view"], seat)  # never shown to the seat in the whole deal
    assert len(never) >= 2
    page, responses = viewer_support.watched_seat(offline, site.demo, deal["id"], seat)
    frames = site.frames(deal["id"], f"seat:{seat}")
    counts_seen: set[str] = set()
    for step, frame in viewer_support.step_through(page, frames):
        assert_nothing_hidden_shown(dom_cards(page), referee[step]["view"], seat, step)
        assert page.locator("#table .sdy .seat").count() == 4
        viewer_support.assert_hand_drawn(page, frame["view"], seat)
        for other in frame["view"]["seats"]:
            if other["seat"] == seat:
                continue
            count = other["count"]
            assert count == ">10" or (isinstance(count, int) and count <= 10), count
            counts_seen.add(viewer_support.assert_counted_only(page, other, step))
        assert page.locator(".sdy-kitty.hidden-kitty .card.back").count() == 8
    assert counts_seen == {"many", "exact"}
    assert page.locator(".seat.pos-bottom").get_attribute("data-seat") == str(seat)
    assert page.locator(".seat.pos-right").get_attribute("data-seat") == str((seat + 1) % 4)  # 下家
    assert page.locator(".seat.pos-top").get_attribute("data-seat") == str((seat + 2) % 4)
    assert page.locator(f".seat[data-seat='{dealer}'] .role.dealer").count() == 1
    assert page.locator(".seat .role.defender").count() == 3
    assert "闲家胜" in page.inner_text("#game-info .result") or "庄家胜" in page.inner_text("#game-info .result")
    assert not quoted_cards(page.content()) & never
    viewer_support.assert_no_data_names(responses, never)
    # The seat's frame to look at: a round on the table, another seat down to 10 cards or fewer, one above.
    def telling(frame: dict[str, Any]) -> bool:
        counts = [type(s["count"]) for s in frame["view"]["seats"] if s["seat"] != seat]
        return len(frame["view"]["round"]["plays"]) >= 2 and int in counts and str in counts

    late = next((f["step"] for f in reversed(frames) if telling(f)), frames[-1]["step"])
    open_viewer(page, site.demo, f"?step={late}&view=seat:{seat}", deal=deal["id"])
    shot(page, f"viewer-sandayi-seat{seat}")
    assert offline.errors == []


def test_the_referee_sees_every_hand_the_kitty_and_the_tanda_deal_face_up(site: SandayiSite,
                                                                         offline: Offline) -> None:
    deal = site.deals[0]
    result = deal["result"]
    dealer = result["dealer"]
    frames = site.frames(deal["id"], "referee")
    tanda = next(f["step"] for f in frames if f["action"] and f["action"]["type"] == "declare")
    page = offline.page()
    open_viewer(page, site.demo, f"?step={tanda + 2}&view=referee", deal=deal["id"])
    view = frames[tanda + 2]["view"]
    for seat in view["seats"]:
        viewer_support.assert_hand_drawn(page, view, seat["seat"])
    assert sorted(dom_cards(page, ".sdy-kitty")) == sorted(view["kitty"])
    assert page.locator(f".seat[data-seat='{dealer}'] .tanda").inner_text() == "摊打"
    assert page.locator(f".seat[data-seat='{dealer}'] .bombs").inner_text().endswith("/不限")
    assert page.locator(f".seat[data-seat='{dealer}'] .first-bidder").count() == 1  # 头撂: the first bidder deals
    badges = page.inner_text(".sdy-badges")
    assert "3 分" in badges and "头撂" in badges and "摊打" in badges and "×2" in badges
    assert page.locator(".slots, .sdy-slots .played").count() >= 1
    assert any(p in page.inner_text(".sdy-slots") for p in ("单牌", "对牌", "三张", "三带二", "单顺", "双顺", "三顺",
                                                             "飞机带翅膀", "炸弹", "天王炸弹"))
    info = page.inner_text("#game-info")
    assert "叫 3 分" in info and "头撂" in info and "庄家亮出手牌打" in info
    assert page.locator("#game-info .factor.on").count() >= 1
    shot(page, "viewer-sandayi-referee")
    page.keyboard.press("End")
    totals = page.inner_text("#game-info .result")
    for seat, score in enumerate(result["scores"]):
        assert f"{'+' if score > 0 else ''}{score}" in totals, (PLAYERS[seat], score)
    assert f"底分 {result['stake']} × 倍数 {result['multipliers']['total']}" in totals
    # A defender sees the 摊打 hand once it is declared, and not before.
    defender = (dealer + 1) % 4
    page.click(f'[data-view="seat:{defender}"]')
    page.wait_for_selector(f'body[data-ready="1"][data-viewpoint="seat:{defender}"]')
    seat_frames = site.frames(deal["id"], f"seat:{defender}")
    go_to(page, tanda - 1)
    assert dom_cards(page, f".seat[data-seat='{dealer}']") == []
    assert page.locator(".sdy-kitty.hidden-kitty").count() == 1
    go_to(page, tanda)
    viewer_support.assert_hand_drawn(page, seat_frames[tanda]["view"], dealer)
    assert page.locator(".sdy-kitty.hidden-kitty").count() == 1  # the kitty stays the dealer's
    assert "摊打" in page.inner_text("#step-text")
    with viewer_support.in_english(page):
        assert "tanda" in page.inner_text("#step-text") and "Dealer" in page.inner_text("#table")
        assert "Defender" in page.inner_text("#table") and "Toulu" in page.inner_text("#table .sdy-badges")
    assert offline.errors == []


def test_the_timeline_marks_toulu_tanda_baodao_fouls_bombs_and_the_end(site: SandayiSite, offline: Offline) -> None:
    page = offline.page()
    tags = ("toulu", "tanda", "baodao", "dealer", "foul", "bomb", "king_bomb", "end")
    seen = viewer_support.first_marks(page, site.demo, site.deals, tags)
    assert set(seen) == set(tags)
    deal, step = seen["baodao"]
    open_viewer(page, site.demo, f"?step={step}&view=public", deal=deal)
    assert "报到" in page.inner_text("#step-text")
    assert "报到" in page.inner_text("#game-info .declarations") and "报到" in page.inner_text(".sdy-badges")
    foul = site.deals[3]
    offender = PLAYERS[foul["result"]["offender"]]
    open_viewer(page, site.demo, f"?step={foul['actions']}&view=public", deal=foul["id"])
    assert f"{offender} 第二次犯规" in page.inner_text("#step-text")
    assert page.locator("#game-info .fouls li").count() == 2
    assert page.locator("#game-info .fouls li.decides").count() == 1
    assert "庄家胜" in page.inner_text("#game-info .result")
    void = site.deals[1]
    open_viewer(page, site.demo, f"?step={void['actions']}&view=public", deal=void["id"])
    assert "本局作废" in page.inner_text("#game-info .result") and page.locator("#table .seat").count() == 4
    spent = site.deals[4]
    open_viewer(page, site.demo, f"?step={spent['actions']}&view=public", deal=spent["id"])
    assert page.locator("#table .seat .bombs.spent").count() >= 1
    assert offline.errors == []


def test_a_deal_in_play_shows_the_public_only_counts_and_the_kitty_hidden(site: SandayiSite, offline: Offline) -> None:
    page = offline.page()
    open_viewer(page, site.demo, "?view=public", deal=site.live_deal)
    total = int(page.get_attribute("body", "data-total") or "0")
    assert step_of(page) == 0
    page.keyboard.press("End")
    assert step_of(page) == total
    assert dom_cards(page, "#table .seat") == []
    assert page.locator("#table .seat .card.back").count() == 4 * MANY_BACKS  # everyone still above 10
    assert page.locator(".sdy-kitty.hidden-kitty").count() == 1
    assert not set(dom_cards(page)) & site.live_hidden and not quoted_cards(page.content()) & site.live_hidden
    viewer_support.assert_seat_view_refused(page, offline.errors)


def test_the_match_page_charts_everyones_running_total(site: SandayiSite, offline: Offline) -> None:
    page = offline.page()
    table = viewer_support.open_match_page(page, site.url, site.match["id"], PLAYERS, "sdy-deals", len(site.deals))
    assert "头撂" in table and "摊打" in table and "报到" in table and "作废重发" in table and "二次犯规" in table
    assert "庄家数量" in page.inner_text("#sdy-standing")
    shot(page, "match-sandayi-totals", full_page=True)
    page.click("#lang-toggle")
    english = page.inner_text("table.sdy-deals")
    assert "How it ended" in english and "Running total" in english and "Toulu" in english
    assert offline.errors == []
