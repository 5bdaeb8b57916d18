"""The 升级 pages and notation over real HTTP, without a browser: the match page's levels chart data and deal
table, the tournament page's standing, the printable record in Chinese and English notation."""

from __future__ import annotations

from typing import Any

import pytest
import viewer_support
from viewer_support import DemoSite, chart_of, page_of, start_demo_site

site = viewer_support.site_fixture(start_demo_site, "viewer-shengji-pages")


@pytest.fixture(scope="module")
def final(site: DemoSite) -> dict[str, Any]:
    service = site.live.service
    assert service is not None
    tournament = next(t for t in service.tournaments.all() if t["format"] == "shengji.s004")
    return service.tables.of_tournament(tournament["id"])[0]


def test_the_match_page_charts_levels_per_deal_up_to_the_goal(site: DemoSite, final: dict[str, Any]) -> None:
    html = page_of(site, f"/matches/{final['id']}")
    chart = chart_of(html)
    names = final["seat_names"]
    assert chart["names"] == [f"{names[0]}·{names[2]}", f"{names[1]}·{names[3]}"] and chart["target"] == 11
    scored = [entry for entry in final["deals"] if entry["standing"]]
    assert chart["numbers"] == [0, *(entry["number"] for entry in scored)]
    for team in (0, 1):
        assert chart["series"][team] == [2, *(entry["standing"]["levels"][team] for entry in scored)]
    assert html.count('class="links"') == len(final["deals"]) and "违规判负" in html and "计时" in html


def test_the_tournament_page_shows_each_tables_levels_and_winners(site: DemoSite, final: dict[str, Any]) -> None:
    html = page_of(site, f"/tournaments/{final['tournament_id']}")
    names = final["seat_names"]
    ranks = {11: "J", 12: "Q", 13: "K", 14: "A"}
    levels = [ranks.get(level, str(level)) for level in final["standing"]["levels"]]
    assert f"{names[0]}·{names[2]} {levels[0]} : {levels[1]} {names[1]}·{names[3]}" in html
    assert "·".join(names[seat] for seat in final["winners"]) in html


def test_the_record_page_writes_a_deal_in_both_languages(site: DemoSite, final: dict[str, Any]) -> None:
    service = site.live.service
    assert service is not None
    dig = next(d for d in (service.deals.get(e["deal_id"]) for e in final["deals"])
               if d["result"].get("points", {}).get("kitty_multiplier", 0) >= 8)
    html = page_of(site, f"/deals/{dig['id']}/record")
    assert "（拖拉机）" in html and "闲家抠底：底牌" in html and "×8" in html
    assert "庄家：" in html and "闲家得分" in html and "局后级数" in html
    assert "the attackers dig the kitty" in html and "(tractor)" in html
    assert dig["digest"] in html
