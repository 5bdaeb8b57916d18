"""The 升级 viewer in real headless Chromium (Debian's /usr/bin/chromium, Playwright): the demo s004 final
stepped deal by deal — four seats, the trick, trump and level, the attackers' points, the kitty only when the
viewpoint may see it, the failed throw, the revoke and the kitty dig on the timeline — and the match's chart
of levels. Every page runs with the network cut off (test_viewer_browser.Offline); screenshots go to artifacts/.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import viewer_support
from test_viewer_browser import CHROMIUM, Offline, dom_cards
from viewer_support import DemoSite, open_viewer, quoted_cards, shot, start_demo_site

from replay_ui.shared.cards import cards_text

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")


class ShengjiSite:
    """The demo site and its s004 final: the match and, for each wanted feature, the deal that shows it."""

    def __init__(self, site: DemoSite):
        self.site = site
        service = site.live.service
        assert service is not None
        self.service = service
        tournament = next(t for t in service.tournaments.all() if t["format"] == "shengji.s004")
        self.tournament = tournament
        self.match = service.tables.of_tournament(tournament["id"])[0]
        self.deals = [service.deals.get(entry["deal_id"]) for entry in self.match["deals"]]

    def deal_where(self, test: Any) -> dict[str, Any]:
        return next(deal for deal in self.deals if deal["result"] and test(deal["result"]))

    def frames(self, deal: str, viewpoint: str) -> list[dict[str, Any]]:
        return self.service.deals.replay_all(deal, viewpoint)["frames"]


site = viewer_support.site_fixture(start_demo_site, "viewer-shengji")


@pytest.fixture(scope="module")
def shengji(site: DemoSite) -> ShengjiSite:
    return ShengjiSite(site)


def hidden_from(view: dict[str, Any], seat: int) -> set[str]:
    """Card codes `seat` cannot see at this point of the deal (from the referee's view of it): two decks, so a
    code is hidden when both copies sit in the other seats' hands and neither was shown — in a declaration,
    in a failed throw (put down, then taken back), by turning up the kitty, or in the kitty everyone sees once
    the deal is over."""
    others = Counter(c for s in view["seats"] if s["seat"] != seat for c in s["hand"])
    plays = [play for trick in view["tricks"] for play in trick["plays"]] + view["trick"]["plays"]
    shown = set(view["kitty_shown"]) | {c for d in view["declarations"] for c in d["cards"]}
    shown |= {c for play in plays for c in play.get("attempted", [])}
    if view["phase"] == "finished":
        shown |= set(view["kitty"])
    return {code for code, copies in others.items() if copies == 2} - shown


def test_stepping_a_deal_from_a_seat_never_shows_another_seats_hidden_cards(shengji: ShengjiSite,
                                                                           offline: Offline) -> None:
    deal = shengji.deal_where(lambda r: r.get("ended_by") == "revoke")  # ends early: many cards never played
    dealer = deal["result"]["dealer"]
    seat = next(s for s in range(4) if s != dealer and s % 2 == dealer % 2)  # the dealer's partner
    referee = shengji.frames(deal["id"], "referee")
    hidden = hidden_from(referee[-1]["view"], seat)  # never shown to the seat in the whole deal
    assert len(hidden) >= 5
    page, responses = viewer_support.watched_seat(offline, shengji.site, deal["id"], seat)
    frames = shengji.frames(deal["id"], f"seat:{seat}")
    for step, frame in viewer_support.step_through(page, frames):
        assert not dom_cards(page) & hidden_from(referee[step]["view"], seat), step
        assert page.locator("#table .sj .seat").count() == 4
        own = page.locator(f".seat[data-seat='{seat}'] .hand [data-card]").count()
        assert own == len(frame["view"]["seats"][seat]["hand"])
        for other in frame["view"]["seats"]:  # the others: only as many backs as they hold
            if other["seat"] != seat:
                assert page.locator(f".seat[data-seat='{other['seat']}'] [data-card]").count() == 0
                assert page.locator(f".seat[data-seat='{other['seat']}'] .card.back").count() == other["count"]
        kitty_hidden = frame["view"]["kitty"] is None
        assert page.locator(".sj-kitty.hidden-kitty").count() == (1 if kitty_hidden else 0), step
    assert page.locator(".seat.pos-bottom").get_attribute("data-seat") == str(seat)
    assert page.locator(".seat.pos-top").get_attribute("data-seat") == str(dealer)  # partners sit opposite
    assert "花色错误" in page.inner_text("#table") and "违规" in page.inner_text("#game-info")
    assert not quoted_cards(page.content()) & hidden
    viewer_support.assert_no_data_names(responses, hidden)
    shot(page, f"viewer-shengji-revoke-seat{seat}")
    assert offline.errors == []


def test_the_dealer_sees_the_kitty_it_buries_and_the_others_only_its_size(shengji: ShengjiSite,
                                                                          offline: Offline) -> None:
    deal = shengji.deal_where(lambda r: r.get("ended_by") == "play" and r["dealer"] is not None)
    dealer = deal["result"]["dealer"]
    frames = shengji.frames(deal["id"], "referee")
    bury = next(f["step"] for f in frames if f["action"] and f["action"]["type"] == "bury")
    buried = frames[bury]["action"]["cards"]
    page = offline.page()
    open_viewer(page, shengji.site, f"?step={bury}&view=seat:{dealer}", deal=deal["id"])
    assert page.locator(".sj-kitty-panel [data-card]").count() == 16  # the kitty taken and the 8 buried
    assert f"扣底 {cards_text(buried, 'zh')}" in page.inner_text("#step-text")
    attacker = (dealer + 1) % 4
    page.click(f'[data-view="seat:{attacker}"]')
    page.wait_for_selector(f'body[data-ready="1"][data-viewpoint="seat:{attacker}"]')
    assert page.locator(".sj-kitty-panel [data-card]").count() == 0
    assert page.locator(".sj-kitty.hidden-kitty .card.back").count() == 8
    assert "扣底（8 张）" in page.inner_text("#step-text")  # the public form of the action: its size only


def test_the_timeline_marks_the_failed_throw_the_revoke_and_the_kitty_dig(shengji: ShengjiSite,
                                                                         offline: Offline) -> None:
    page = offline.page()
    tags = ("throw", "penalty", "irregularity", "dig", "declare", "dealer", "end")
    seen = viewer_support.first_marks(page, shengji.site, shengji.deals, tags)
    assert set(seen) == set(tags)
    dig = shengji.deal_where(lambda r: r.get("points", {}).get("kitty_multiplier", 0) >= 8)
    open_viewer(page, shengji.site, f"?step={dig['actions']}&view=public", deal=dig["id"])
    assert page.locator("#marks .mk.dig").count() == 1
    words = page.inner_text("#step-text")
    assert "闲家抠底" in words and "×8" in words  # a tractor wins the last trick: ×2·2² (doubling)
    assert page.locator("#game-info .result").count() == 1 and "抠底" in page.inner_text("#game-info .result")
    assert "拖拉机" in page.inner_text("#timeline li:nth-last-child(4)")  # the tractor led to the last trick
    shot(page, "viewer-shengji-dig")
    deal, step = seen["throw"]
    open_viewer(page, shengji.site, f"?step={step}&view=public", deal=deal)
    assert "甩牌" in page.inner_text("#step-text") and "失败" in page.inner_text("#step-text")
    assert page.locator("#table .sj-note.throw").count() == 1 and page.locator("#table .sj-note.penalty").count() == 1
    assert page.locator("#game-info .penalties li").count() >= 1
    shot(page, "viewer-shengji-failed-throw")
    with viewer_support.in_english(page):
        assert "throws" in page.inner_text("#step-text") and "Trump" in page.inner_text("#table")
    assert offline.errors == []


def test_the_match_page_charts_both_teams_levels_per_deal(shengji: ShengjiSite, offline: Offline) -> None:
    page = offline.page()
    names = shengji.match["seat_names"]
    table = viewer_support.open_match_page(page, shengji.site.url, shengji.match["id"],
                                           [f"{names[0]}·{names[2]}", f"{names[1]}·{names[3]}"], "sj-deals",
                                           len(shengji.deals))
    assert "目标 J" in page.inner_text("#match-chart")  # S004: the goal is passing 10
    assert "违规判负" in table
    shot(page, "match-shengji-levels-chart", full_page=True)
    assert offline.errors == []


def test_the_standings_page_ranks_each_directions_pairs(shengji: ShengjiSite, offline: Offline) -> None:
    page = offline.page()
    page.goto(f"{shengji.site.url}/tournaments/{shengji.tournament['id']}/standings")
    page.wait_for_selector("#standings-table tbody tr")
    assert page.locator("#standings-table tbody tr").count() == 4
    for code, seats in (("ew", (0, 2)), ("ns", (1, 3))):
        pairs = page.locator(f"#standings-directions table[data-direction='{code}'] tbody tr")
        assert pairs.count() == 1
        names = shengji.match["seat_names"]
        assert "·".join(names[seat] for seat in seats) in pairs.first.inner_text()
    assert "东西方向排名" in page.inner_text("#standings-directions")
    shot(page, "standings-shengji-directions", full_page=True)
    assert offline.errors == []
