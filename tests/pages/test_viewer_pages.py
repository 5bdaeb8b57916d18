"""The viewer's pages and JSON over real HTTP, without a browser: routes, notation, hidden cards, offline assets.

Browser behaviour (stepping, keys, deep links, charts, screenshots) is in test_viewer_browser.py.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlparse

import plotly
import pytest
import viewer_support
from conftest import EXAMPLE_RECORD
from markupsafe import escape
from paths import ROOT
from viewer_support import DemoSite, quoted_cards, start_demo_site, start_live_deal

from replay_ui.shared import i18n
from replay_ui.viewer.views import PLOTLY_JS

UI = ROOT / "replay_ui"
LOCAL_URL = re.compile(r"https?://(?:127\.0\.0\.1|localhost)(?::\d+)?(?:/|$)")
ANY_URL = re.compile(r"https?://[^\s\"'<>)]+")


site = viewer_support.site_fixture(start_demo_site, "viewer-pages")


def get(site: DemoSite, path: str, status: int = 200) -> Any:
    response = site.live.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:300])
    return response


# --- pages -------------------------------------------------------------------------------------------


def test_every_page_renders_from_the_tournament_list_down_to_the_record(site: DemoSite) -> None:
    tournament, match = site.tournament, site.match
    index = get(site, "/")
    assert index.headers["Content-Type"].startswith("text/html")
    assert tournament["name"] in index.text and f"/tournaments/{tournament['id']}" in index.text

    page = get(site, f"/tournaments/{tournament['id']}").text
    assert f"/matches/{match['id']}" in page and f"/tournaments/{tournament['id']}/standings" in page
    # The play-off table was closed by the organiser: it names why, and calls it neither a win nor a draw.
    tables = page.split("<tbody")[1].split("</tbody>")[0]
    assert tables.count("组织者结束本桌") == 1 and "加赛已分出名次" in tables and "平局" not in tables

    page = get(site, f"/matches/{match['id']}").text
    for entry in site.deals:  # every deal has a replay and a record link, with its chips after the deal
        assert f"/deals/{entry['deal_id']}" in page and f"/deals/{entry['deal_id']}/record" in page
    assert 'id="match-chart"' in page and "/ui/vendor/plotly.min.js" in page

    page = get(site, f"/deals/{site.demo_deal}").text
    assert 'id="deal-boot"' in page and 'data-view="seat:2"' in page and 'data-view="public"' in page

    page = get(site, f"/tournaments/{tournament['id']}/standings").text
    assert f"/api/tournaments/{tournament['id']}/standings" in page


def test_unknown_ids_get_a_404_page_in_both_languages(site: DemoSite) -> None:
    for path, kind in (("/deals/00000000-0000-0000-0000-000000000000", "deal"), ("/matches/nope", "match"),
                       ("/tournaments/nope", "tournament"), ("/deals/nope/record", "deal")):
        response = get(site, path, 404)
        assert response.headers["Content-Type"].startswith("text/html")
        assert i18n.text(f"error.notfound.{kind}", "zh", id="x").split("x")[0] in response.text
        assert "There is no" in response.text


def test_match_page_lists_each_deal_with_scores_chips_and_the_chart_data(site: DemoSite) -> None:
    page = get(site, f"/matches/{site.match['id']}").text
    data = re.search(r'<script type="application/json" id="match-chart-data">(.*?)</script>', page, re.S)
    assert data is not None
    chart = json.loads(data.group(1))
    assert chart["names"] == site.match["seat_names"]
    assert chart["numbers"] == [0, *range(1, len(site.deals) + 1)]
    for seat, series in enumerate(chart["series"]):
        assert series == [site.match["start_chips"], *(entry["chips"][seat] for entry in site.deals)]
    assert chart["target"] == 20  # hold20: the table ends when someone holds 20 chips


# --- notation and the printable record ---------------------------------------------------------------


@pytest.fixture(scope="module")
def example_deal(site: DemoSite) -> str:
    """The complete 斗地主 example record (a 7-card 单顺, a rocket), imported as a stand-alone deal."""
    assert site.live.service is not None
    deal, _ = site.live.service.records.import_record(EXAMPLE_RECORD)
    return deal["id"]


def test_record_page_writes_each_action_in_chinese_notation(site: DemoSite, example_deal: str) -> None:
    page = get(site, f"/deals/{example_deal}/record").text
    assert "王五 叫地主" in page and "张三 不抢" in page and "李四 不抢；王五 成为地主，底牌 ♠8 ♥9 ♣2" in page
    assert "王五 出 ♠3 ♣4 ♥5 ♦6 ♦7 ♥8 ♥9（单顺）" in page
    assert "张三 出 小王 大王（火箭）" in page
    assert "李四 出 ♦5 ♠J ♦J ♣J ♠Q ♥Q ♦Q ♠K（飞机带单翅膀）" in page
    assert "李四 出 ♥3（单牌）；李四 出完，农民胜" in page
    # English sits beside it for the language toggle.
    assert "王五 plays ♠3 ♣4 ♥5 ♦6 ♦7 ♥8 ♥9 (straight)" in page
    assert "Little Joker Big Joker (rocket)" in page


def test_record_page_has_hands_annotations_result_and_the_closing_digest(site: DemoSite) -> None:
    assert site.live.service is not None
    deal = site.live.service.deals.get(site.demo_deal)
    page = get(site, f"/deals/{site.demo_deal}/record").text
    assert deal["digest"] in page
    for note in site.live.service.deals.replay_all(site.demo_deal, "referee")["frames"]:
        for annotation in note["annotations"]:
            assert str(escape(annotation["text"])) in page
    assert "倍数 ×4（抢地主 ×1，明牌 ×2，炸弹 ×2，春天 ×1）" in page
    assert "王芳 发牌明牌（收到 15 张时，×2）" in page
    assert "张伟 不抢；王芳 成为地主，底牌 ♠K ♦10 小王" in page
    dealt = site.live.service.deals.replay_all(site.demo_deal, "referee")["frames"][0]["view"]
    for seat in dealt["seats"]:  # a closed deal is published: every hand as dealt
        assert set(seat["hand"]) <= quoted_cards(page)


def test_demo_notation_marks_the_events_the_timeline_shows(site: DemoSite) -> None:
    tags: set[str] = set()
    texts: list[str] = []
    for entry in site.deals:
        answer = get(site, f"/ui-api/deals/{entry['deal_id']}/frames?viewpoint=referee").json()
        for frame in answer["frames"]:
            tags.update(frame["notation"]["tags"])
            texts.append(frame["notation"]["zh"])
    assert {"bid", "play", "pass", "bomb", "foul", "reveal", "landlord", "end", "spring", "note"} <= tags
    assert any("犯规（暗号或示意）" in text and "罚 1 筹码" in text for text in texts)  # the foul by its name
    assert any("春天" in text for text in texts)


# --- hidden cards ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 2])
def test_seat_frames_carry_no_card_the_seat_cannot_know(site: DemoSite, seat: int) -> None:
    hidden = viewer_support.unseen_cards(site, site.demo_deal, seat)
    assert hidden  # the deal leaves cards unseen by this seat, or the test would prove nothing
    response = get(site, f"/ui-api/deals/{site.demo_deal}/frames?viewpoint=seat:{seat}")
    assert not quoted_cards(response.text) & hidden
    for frame in response.json()["frames"]:
        for other in frame["view"]["seats"]:
            if other["seat"] != seat and not other["exposed"]:
                assert "hand" not in other


def test_a_live_deal_shows_no_hands_in_its_record_or_public_frames(site: DemoSite) -> None:
    deal, in_hands = start_live_deal(site, "viewer-live-record")
    page = get(site, f"/deals/{deal}/record").text
    assert i18n.text("record.handsHidden", "zh") in page
    assert not quoted_cards(page) & in_hands
    frames = get(site, f"/ui-api/deals/{deal}/frames?viewpoint=public").text
    assert not quoted_cards(frames) & in_hands


def test_seat_views_of_a_live_deal_need_a_token_with_rights_over_it(site: DemoSite) -> None:
    """The viewer asks as the caller: anonymous readers get the public view only (api/auth.py, docs/SECURITY.md §4)."""
    deal, in_hands = start_live_deal(site, "viewer-live-seat")
    refused = get(site, f"/ui-api/deals/{deal}/frames?viewpoint=seat:0", 401).json()
    assert refused["error"]["code"] == "hidden_view"
    allowed = site.live.get(f"/ui-api/deals/{deal}/frames?viewpoint=seat:0", token=site.live.organiser)
    assert allowed.status_code == 200
    final = allowed.json()["frames"][-1]["view"]["seats"]
    assert "hand" in final[0] and "hand" not in final[1] and "hand" not in final[2]
    assert quoted_cards(allowed.text) & in_hands == set(final[0]["hand"]) & in_hands


def test_a_bad_viewpoint_is_refused(site: DemoSite) -> None:
    answer = get(site, f"/ui-api/deals/{site.demo_deal}/frames?viewpoint=seat:7", 400).json()
    assert answer["error"]["code"] == "bad_viewpoint"


# --- offline: every asset from this server -----------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value and not value.startswith(("data:", "#", "javascript:")):
                self.links.append(value)


def test_no_served_page_script_or_style_names_another_host(site: DemoSite) -> None:
    """Crawl from / (plus the deal pages): every link, script and stylesheet is on this server and no HTML, JS or
    CSS served holds an http(s) URL to anywhere else. plotly.min.js is the package's own file, checked below."""
    start = ["/", f"/deals/{site.demo_deal}", f"/deals/{site.demo_deal}/record"]
    seen: set[str] = set()
    queue = list(start)
    checked = 0
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        response = get(site, path)
        kind = response.headers["Content-Type"].split(";")[0]
        if path.startswith("/ui/vendor/plotly.min.js"):
            continue
        assert kind in ("text/html", "text/css", "text/javascript", "application/javascript", "application/json")
        foreign = [url for url in ANY_URL.findall(response.text) if not LOCAL_URL.match(url)]
        assert not foreign, (path, foreign)
        checked += 1
        if kind == "text/html":
            parser = _Links()
            parser.feed(response.text)
            for link in parser.links:
                absolute = urljoin(site.url + path, link)
                assert urlparse(absolute).netloc == urlparse(site.url).netloc, (path, link)
                target = urlparse(absolute)
                local = target.path + (f"?{target.query}" if target.query else "")
                # The API's own pages are not the viewer's; a record's PDF (publishing/pdf.py) links to nothing.
                if not local.startswith("/api/") and not target.path.endswith(".pdf"):
                    queue.append(local)
    assert checked >= 10  # pages of every kind plus the static files


def test_plotly_js_is_the_installed_package_file_with_long_cache_headers(site: DemoSite) -> None:
    response = get(site, f"/ui/vendor/plotly.min.js?v={plotly.__version__}")
    assert response.content == PLOTLY_JS.read_bytes()
    cache = response.headers["Cache-Control"]
    assert "max-age=31536000" in cache and "immutable" in cache
    assert response.headers["Content-Type"].startswith("text/javascript")


# --- strings -----------------------------------------------------------------------------------------


def test_every_ui_string_exists_in_chinese_and_english_with_the_same_placeholders() -> None:
    for key, (zh, en) in i18n.catalog().items():
        assert zh.strip() and en.strip(), key
        assert set(re.findall(r"\{(\w+)\}", zh)) == set(re.findall(r"\{(\w+)\}", en)), key
        assert not re.search(r"[\u4e00-\u9fff]", en) or key in ("lang.switch",), key


def test_a_count_s_words_take_their_one_form_for_one_only() -> None:
    assert [i18n.counted("find.count", "en", n, n=n) for n in (0, 1, 2)] == ["0 deals", "1 deal", "2 deals"]
    assert i18n.counted("cards.n", "zh", 1, n=1) == "1 张" and i18n.counted("cards.n", "en", 1, n=1) == "1 card"
    assert i18n.counted_key("hand.hidden", 1) == "hand.hidden"  # no one form: the key itself


def test_each_page_file_has_one_home_among_the_families_static_folders() -> None:
    """/ui/static/<file> is served from whichever family's folder holds it (replay_ui/shared/assets.py): a name in
    two folders would make one of the two files unreachable."""
    homes: dict[str, list[str]] = {}
    for folder in UI.glob("*/static"):
        for path in folder.rglob("*"):
            if path.is_file():
                homes.setdefault(path.relative_to(folder).as_posix(), []).append(folder.parent.name)
    assert {"fupan.js", "viewer.js", "pad.js", "console.js", "appeal.js", "games/generic.js"} <= homes.keys()
    assert {name: families for name, families in homes.items() if len(families) > 1} == {}


def test_every_string_key_used_by_templates_and_scripts_is_defined() -> None:
    used: set[str] = set()
    prefixes: set[str] = set()
    for path in (path for path in UI.rglob("*.html") if "templates" in path.parts):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\btc?\('([\w.]+)'\s*[,)]", text))  # tc: a count's words
        prefixes |= set(re.findall(r"\bt\('([\w.]+\.)'\s*\+", text))
        used |= set(re.findall(r'data-i18n-(?:title|aria)="([\w.]+)"', text))
    for path in (path for path in UI.rglob("*.js") if "static" in path.parts):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\b(?:t|counted)\(\s*["']([\w.]+)["']\s*[,)]""", text))
        prefixes |= set(re.findall(r"""\bt\(\s*["']([\w.]+\.)["']\s*\+""", text))
        used |= set(re.findall(r"""i18nTitle = ["']([\w.]+)["']""", text))
    for path in (UI / "games").glob("*.py"):
        used |= set(re.findall(r"""say\(\s*["']([\w.]+)["']""", path.read_text(encoding="utf-8")))
    assert used, "the scan found nothing: the patterns are out of date"
    assert used - set(i18n.catalog()) == set()
    for prefix in prefixes:  # t("phase." + view.phase): the family exists
        assert any(key.startswith(prefix) for key in i18n.catalog()), prefix
