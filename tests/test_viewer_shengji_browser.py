"""The 升级 viewer in real headless Chromium (Debian's /usr/bin/chromium, Playwright): the demo s004 final
stepped deal by deal — four seats, the trick, trump and level, the attackers' points, the kitty only when the
viewpoint may see it, the failed throw, the revoke and the kitty dig on the timeline — and the match's chart
of levels. Every page runs with the network cut off (test_viewer_browser.Offline); screenshots go to artifacts/.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Response
from test_viewer_browser import CHROMIUM, Offline, dom_cards, open_viewer, shot, step_of
from viewer_support import DemoSite, quoted_cards, start_demo_site

from replay_ui.cards import cards_text

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed at /usr/bin/chromium")


class ShengjiSite:
    """The demo site and its s004 final: the match and, for each wanted feature, the deal that shows it."""

    def __init__(self, site: DemoSite):
        self.site = site
        service = site.live.service
        assert service is not None
        self.service = service
        tournament = next(t for t in service.list_tournaments() if t["format"] == "shengji.s004")
        self.tournament = tournament
        self.match = service.list_matches(tournament["id"])[0]
        self.deals = [service.get_deal(entry["deal_id"]) for entry in self.match["deals"]]

    def deal_where(self, test: Any) -> dict[str, Any]:
        return next(deal for deal in self.deals if deal["result"] and test(deal["result"]))

    def frames(self, deal: str, viewpoint: str) -> list[dict[str, Any]]:
        return self.service.replay_all(deal, viewpoint)["frames"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoSite]:
    demo = start_demo_site(tmp_path_factory.mktemp("viewer-shengji") / "demo.sqlite")
    yield demo
    demo.live.stop()


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
    responses: list[Response] = []
    offline.context.on("response", lambda response: responses.append(response))
    page = offline.page()
    open_viewer(page, shengji.site, f"?step=0&view=seat:{seat}", deal=deal["id"])
    frames = shengji.frames(deal["id"], f"seat:{seat}")
    for step, frame in enumerate(frames):
        if step:
            page.keyboard.press("ArrowRight")
        assert step_of(page) == step
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
    # Every answer with data (the page, the frames): the static scripts name jokers in their code, not as data.
    bodies = [(r.url, r.body()) for r in responses if "/ui/static/" not in r.url and "/ui/vendor/" not in r.url]
    assert any("/ui-api/deals/" in url for url, _ in bodies)
    for url, body in bodies:
        assert not quoted_cards(body.decode("utf-8", "replace")) & hidden, url
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
    seen: dict[str, tuple[str, int]] = {}
    for deal in shengji.deals:
        open_viewer(page, shengji.site, "?step=0&view=referee", deal=deal["id"])
        for tag in ("throw", "penalty", "irregularity", "dig", "declare", "dealer", "end"):
            marks = page.locator(f"#marks .mk.{tag}")
            if marks.count() and tag not in seen:
                seen[tag] = (deal["id"], int(marks.first.locator("xpath=..").get_attribute("data-step") or -1))
    assert set(seen) == {"throw", "penalty", "irregularity", "dig", "declare", "dealer", "end"}
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
    page.click("#lang-toggle")
    assert "throws" in page.inner_text("#step-text") and "Trump" in page.inner_text("#table")
    page.click("#lang-toggle")
    assert offline.errors == []


def test_the_match_page_charts_both_teams_levels_per_deal(shengji: ShengjiSite, offline: Offline) -> None:
    page = offline.page()
    page.goto(f"{shengji.site.url}/matches/{shengji.match['id']}")
    page.wait_for_selector("#match-chart svg.main-svg")
    assert page.locator("#match-chart .scatterlayer .trace").count() == 2
    legend = " ".join(page.locator("#match-chart .legend .legendtext").all_text_contents())
    names = shengji.match["seat_names"]
    assert f"{names[0]}·{names[2]}" in legend and f"{names[1]}·{names[3]}" in legend
    assert "目标 J" in page.inner_text("#match-chart")  # S004: the goal is passing 10
    assert page.locator("table.sj-deals tbody tr").count() == len(shengji.deals)
    assert "违规判负" in page.inner_text("table.sj-deals")
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
