"""The text scan (tests/support/text_scan.py; issue 23's acceptance) over the demo's main pages in Chinese and in
English, as `fupan serve --demo` records them: the list of tournaments, the 斗地主 knockout (its page, table 1, a deal
in the viewer, the standings, a player's standing explained), the event in play (its page, its table, the deal
being played) and an appeal about its first deal (the tournament's appeals, the appeal, its result-blind review,
its report). No card code outside a card image, no seat index, no backticked field name, no Python repr, no
`None`, no raw HTML, no word of the other language.

What people typed (names of players, tables and tournaments, notes, the statement) is theirs, not the page's: it is
taken out before the scan.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from test_viewer_browser import CHROMIUM, LAPTOP
from text_scan import describe, scan_page, set_language
from viewer_support import DemoSite, start_demo_site

from fixtures import LIVE_DEMO, record_live_table

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")

STATEMENT = "张伟 认为第 5 步的叫牌有误"


@dataclass
class Walk:
    site: DemoSite
    paths: dict[str, str]
    typed: list[str]  # what people typed: names, tables, tournaments, notes


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Walk]:
    site = start_demo_site(Path(tmp_path_factory.mktemp("demo_scan")) / "fupan.sqlite")
    service = site.live.service
    assert service is not None
    record_live_table(service)  # as `fupan serve --demo` adds it after the demo tournaments
    tournaments = service.tournaments.all()
    knockout = tournaments[0]
    live = next(t for t in tournaments if t["name"] == LIVE_DEMO)
    table = service.tables.get(knockout["matches"][0]["id"])
    playing = service.tables.get(live["matches"][0]["id"])
    first, in_play = (entry["deal_id"] for entry in playing["deals"])
    appeal = service.appeals.file(playing["id"], {"kind": "deal", "deal_id": first, "step": 5}, "conduct",
                                  STATEMENT, ["张伟"])["appeal_id"]
    typed = [STATEMENT]
    for tournament in tournaments:
        typed.append(tournament["name"])
        typed += [p["name"] for p in service.tournaments.players(tournament["id"])]
        typed += [m["table"] for m in tournament["matches"]]
    paths = {
        "index": "/",
        "tournament": f"/tournaments/{knockout['id']}",
        "table": f"/matches/{table['id']}",
        "deal": f"/deals/{table['deals'][0]['deal_id']}",
        "standings": f"/tournaments/{knockout['id']}/standings",
        "explain": f"/tournaments/{knockout['id']}/standings/周杰",
        "live_tournament": f"/tournaments/{live['id']}",
        "live_table": f"/matches/{playing['id']}",
        "live_deal": f"/deals/{in_play}",
        "appeals": f"/tournaments/{live['id']}/appeals",
        "appeal": f"/appeals/{appeal}",
        "review": f"/appeals/{appeal}/review?step=5&view=seat:0",
        "report": f"/appeals/{appeal}/report",
        "pad": f"/matches/{playing['id']}/pad",
        "travellers": f"/matches/{table['id']}/travellers",
        "console": "/console",
    }
    yield Walk(site, paths, typed)
    site.live.stop()


CJK = re.compile("[\u3400-\u9fff]")

PAGES = ("index", "tournament", "table", "deal", "standings", "explain", "live_tournament", "live_table", "live_deal",
         "appeals", "appeal", "review", "report", "pad", "travellers", "console")


@pytest.fixture(scope="module")
def tab(browser: Browser) -> Iterator[Page]:
    """One browser tab for the module: each test opens its page in it."""
    context = browser.new_context(viewport=LAPTOP)
    # A live page holds its stream open (docs/streams.md), so the network is never idle: streams are refused here
    # (the page falls back to reading itself, docs/streams.md) and the scan reads the page once its loads settle.
    context.route(re.compile(r"/stream(\?.*)?$"), lambda route: route.abort())
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("page_name", PAGES)
def test_the_demos_main_pages_read_as_words(tab: Page, walk: Walk, page_name: str) -> None:
    """Each page loaded once and read in Chinese, then in English (the language switch redraws it in place)."""
    path = walk.paths[page_name]
    tab.goto(walk.site.url + path)
    tab.wait_for_load_state("networkidle")
    found = {}
    for lang in ("zh", "en"):
        set_language(tab, lang)
        if page_name in ("deal", "live_deal", "review"):
            tab.wait_for_selector('body[data-ready="1"]')
        findings = scan_page(tab, lang, walk.typed)
        if findings:
            found[lang] = describe(findings)
        # the tab's title in the reader's language too; a Chinese part of an English title is a name the English
        # page shows as well (a tournament's, a player's), never a word
        title, shown = tab.title(), tab.inner_text("body")
        parts = title.split(" · ")
        assert parts[-1] == ("复盘" if lang == "zh" else "Fupan"), (path, lang, title)
        if lang == "en":
            words = [part for part in parts if CJK.search(part) and part not in shown]
            assert not words, (path, title, words)
    assert not found, f"{path}:\n" + "\n".join(f"({lang})\n{text}" for lang, text in found.items())
