"""Shared by the viewer tests: the demo tournament served over real HTTP, and facts about it.

The server is tests/conftest.py's LiveServer (werkzeug in a thread, the real app, a real SQLite file) loaded
with `fixtures.load_demo`, the way `fupan serve --demo` does it.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, Store
from paths import ROOT
from playwright.sync_api import Page

from fixtures import load_demo

ARTIFACTS = ROOT / "artifacts"

# The demo deal the tests open: deal 4 of table 1 — a 发牌明牌 (seat 1's hand open to all), a bomb, two notes.
DEMO_DEAL_NUMBER = 4


@dataclass
class DemoSite:
    live: LiveServer
    tournament: dict[str, Any]
    match: dict[str, Any]
    deals: list[dict[str, Any]] = field(default_factory=list)  # the match's deal entries, in order

    @property
    def url(self) -> str:
        return self.live.url

    @property
    def demo_deal(self) -> str:
        return self.deals[DEMO_DEAL_NUMBER - 1]["deal_id"]


# The demo store, recorded once per test session (fixtures.load_demo takes ~10 s) and copied for each module that
# serves it: {session's base folder: (the recorded SQLite file, the 斗地主 tournament's id)}.
_DEMO_RECORDED: dict[Path, tuple[Path, str]] = {}


def _recorded_demo(base: Path) -> tuple[Path, str]:
    if base not in _DEMO_RECORDED:
        recorded = base / "demo-recorded.sqlite"
        app = Store.sqlite(recorded).open()
        try:
            tournament = load_demo(app)
        finally:
            app.close()
        _DEMO_RECORDED[base] = (recorded, tournament["id"])
    return _DEMO_RECORDED[base]


def start_demo_site(db_path: Path) -> DemoSite:
    """The demo, as `load_demo` records it, served from `db_path`: a copy of the session's one recording (a module
    changes its copy freely). `db_path` is in a folder of the session's base temporary folder (tmp_path_factory)."""
    recorded, tournament_id = _recorded_demo(db_path.parent.parent)
    shutil.copyfile(recorded, db_path)
    live = LiveServer(db_path).start()
    assert live.service is not None
    tournament = live.service.tournaments.get(tournament_id)
    match = live.service.tables.of_tournament(tournament["id"])[0]
    return DemoSite(live, tournament, match, list(match["deals"]))


def unseen_cards(site: DemoSite, deal_id: str, viewer_seat: int) -> set[str]:
    """Cards `viewer_seat` can never know in this deal: other seats' cards that are never played, never in the
    shown kitty and never in an open (明牌) hand. Taken from the referee's fold, server-side."""
    assert site.live.service is not None
    frames = site.live.service.deals.replay_all(deal_id, "referee")["frames"]
    final = frames[-1]["view"]
    known = set(final["kitty"] or [])
    unseen: set[str] = set()
    for seat in frames[0]["view"]["seats"]:
        number = seat["seat"]
        if number == viewer_seat or final["seats"][number]["exposed"]:
            continue
        played = set(final["seats"][number]["played"])
        unseen |= set(seat["hand"]) - played - known
    return unseen


def start_live_deal(site: DemoSite, key: str, actions: int = 5) -> tuple[str, set[str]]:
    """The complete 斗地主 example record, stand-alone and left in play after `actions` actions; returns its id and
    the cards still hidden in hands (neither played nor the kitty, which is shown once 王五 is landlord)."""
    assert site.live.service is not None
    record = EXAMPLE_RECORD
    deal, _ = site.live.service.deals.start(game="doudizhu", seats=record["seats"], first=record["first"],
                                            hands=record["hands"], kitty=record["kitty"], key=key)
    for action in record["actions"][:actions]:
        site.live.service.deals.record(deal["id"], action)
    played = {card for action in record["actions"][:actions] for card in action.get("cards", [])}
    in_hands = {card for hand in record["hands"] for card in hand} - played - set(record["kitty"])
    return deal["id"], in_hands


CARD_TOKEN = re.compile(r'"((?:[SHCD](?:10|[2-9JQKA]))|LJ|BJ)"')


def quoted_cards(text: str) -> set[str]:
    """Card codes that appear as JSON/HTML string values ("S10", "BJ") in a response body or a page."""
    return set(CARD_TOKEN.findall(text))


def dom_cards(page: Any, selector: str = "") -> list[str]:
    """The card codes drawn on `page` (inside `selector`), one per card drawn: a multiset, as decks repeat."""
    return page.eval_on_selector_all(f"{selector} [data-card]".strip(), "cards => cards.map(card => card.dataset.card)")


def page_of(site: Any, path: str) -> str:
    """The HTML of `path` on the site's live server; it must answer 200."""
    response = site.live.get(path)
    assert response.status_code == 200, (path, response.text[:300])
    return response.text


def chart_of(html: str) -> dict[str, Any]:
    """The match chart's data embedded in a match page."""
    data = re.search(r'<script type="application/json" id="match-chart-data">(.*?)</script>', html, re.S)
    assert data is not None
    return json.loads(data.group(1))


# --- what the game sites (tests/test_viewer_<game>_pages.py) share --------------------------------------------


def site_fixture(start: Callable[[Path], Any], name: str) -> Any:
    """A test module's `site` fixture: `start(db)` on a fresh SQLite file, stopped after the module's tests."""
    @pytest.fixture(scope="module")
    def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
        built = start(tmp_path_factory.mktemp(name) / f"{name}.sqlite")
        yield built
        built.live.stop()

    return site


def open_game_tournament(db_path: Path, name: str, game: str, players: list[str], **declared: Any
                         ) -> tuple[LiveServer, Any, dict[str, Any]]:
    """A live server on a fresh store with a tournament of `game` (format, tiebreaks, lots seed: `declared`), its
    players registered and round 1 started; the server, its application and the tournament."""
    live = LiveServer(db_path).start()
    service = live.service
    assert service is not None
    tournament, _ = service.tournaments.create(name, game, {}, **declared)
    for player in players:
        service.tournaments.register_player(tournament["id"], player)
    # No public delay: the game pages' tests hold each engine's public form of every step of a deal in play
    # (the delay is held by test_broadcast_delay.py and test_broadcast_browser.py).
    service.tournaments.set_delay(tournament["id"], "deals", 0)
    service.tournaments.start_round(tournament["id"], "第1轮", "tables")
    return live, service, tournament


@dataclass
class GameSite:
    """A live server with one game's tournament recorded by its pages test: a played-out table (`match`, its
    `deals`) and a table with a deal in play, of which `live_hidden` are the cards nobody at it has seen."""

    live: LiveServer
    tournament: dict[str, Any]
    match: dict[str, Any]
    live_match: dict[str, Any]
    live_deal: str
    live_hidden: set[str]
    deals: list[dict[str, Any]] = field(default_factory=list)  # the played-out table's deals, in order

    @property
    def url(self) -> str:
        return self.live.url

    @property
    def demo(self) -> DemoSite:
        """The same server in the shape the shared viewer helpers take (open_viewer, Offline)."""
        return DemoSite(self.live, self.tournament, self.match, list(self.match["deals"]))

    @property
    def service(self) -> Any:
        assert self.live.service is not None
        return self.live.service

    def frames(self, deal: str, viewpoint: str) -> list[dict[str, Any]]:
        return self.service.deals.replay_all(deal, viewpoint)["frames"]

    def viewer_frames(self, deal: str, viewpoint: str) -> tuple[list[dict[str, Any]], str]:
        """The viewer's frames of `deal` for `viewpoint` over HTTP (anonymously), and the answer's text."""
        response = self.live.get(f"/ui-api/deals/{deal}/frames?viewpoint={viewpoint}")
        assert response.status_code == 200, (viewpoint, response.text[:300])
        return response.json()["frames"], response.text


def public_frames_in_play(site: GameSite, game: str) -> list[dict[str, Any]]:
    """The deal in play for the public: neither its frames nor its viewer page (which runs the game's script)
    names a card nobody has seen, and the seat and referee views are refused to an anonymous reader, naming
    none either. Returns the public frames."""
    frames, text = site.viewer_frames(site.live_deal, "public")
    assert not quoted_cards(text) & site.live_hidden
    viewer = page_of(site, f"/deals/{site.live_deal}")
    assert not quoted_cards(viewer) & site.live_hidden
    assert f"games/{game}.js" in viewer
    for viewpoint in ("seat:0", "referee"):
        refused = site.live.get(f"/ui-api/deals/{site.live_deal}/frames?viewpoint={viewpoint}")
        assert refused.status_code == 401, viewpoint  # anonymous: no token, not a token without the right
        assert not quoted_cards(refused.text) & site.live_hidden
    return frames


def organisers_seat_view(site: GameSite) -> dict[str, Any]:
    """Seat 0's last view of the deal in play, with the organiser's token."""
    allowed = site.live.get(f"/ui-api/deals/{site.live_deal}/frames?viewpoint=seat:0", token=site.live.organiser)
    assert allowed.status_code == 200
    return allowed.json()["frames"][-1]["view"]["seats"][0]


def assert_running_totals(chart: dict[str, Any], match: dict[str, Any], players: list[str]) -> None:
    """The match chart of a table summed seat by seat: each seat's total from 0 after every scored deal."""
    assert chart["names"] == players and chart["target"] is None and chart["title"] == "match.chart.scores"
    scored = [entry for entry in match["deals"] if entry["standing"]]
    assert chart["numbers"] == [0, *(entry["number"] for entry in scored)]
    for seat in range(len(players)):
        assert chart["series"][seat] == [0, *(entry["standing"]["scores"][seat] for entry in scored)]
        assert chart["series"][seat][-1] == match["standing"]["scores"][seat]


def signed_totals(scores: list[int]) -> str:
    """A table's totals as the tournament page writes them: '+12 / -3 / 0'."""
    return " / ".join(f"{s:+d}" if s else "0" for s in scores)


def row_figures(html: str, table: str, row: str) -> list[int]:
    """The whole numbers of one row (`data-row`) of the table of class `table` on a match page."""
    found = re.search(rf'<table class="data compact {table}".*?</table>', html, re.S)
    assert found is not None, table
    cells = re.search(rf'<tr data-row="{row}">(.*?)</tr>', found.group(0), re.S)
    assert cells is not None, row
    return [int(v) for v in re.findall(r">(-?\d+)</td>", cells.group(1))]


def last_totals(row: str, seats: int) -> list[int]:
    """The running totals at the end of a deal's row: its last `seats` plain number cells."""
    return [int(v) for v in re.findall(r'<td class="num">(-?\d+)</td>', row)[-seats:]]


# --- in the browser (tests/test_viewer_*browser.py) -----------------------------------------------------------


MANY_BACKS = 4  # static/fupan.js: a hand of ">10" cards is drawn as this many backs


def open_viewer(page: Any, site: DemoSite, query: str = "", deal: str | None = None) -> None:
    page.goto(f"{site.url}/deals/{deal or site.demo_deal}{query}")
    page.wait_for_selector('body[data-ready="1"]')


def step_of(page: Any) -> int:
    return int(page.get_attribute("body", "data-step") or "-1")


def go_to(page: Any, step: int) -> None:
    page.fill("#slider", str(step))  # fires `input`: the viewer goes to that step
    assert step_of(page) == step


def step_through(page: Any, frames: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each frame in turn as the viewer shows it, from the first (ArrowRight between them)."""
    for step, frame in enumerate(frames):
        if step:
            page.keyboard.press("ArrowRight")
        assert step_of(page) == step
        yield step, frame


def shot(page: Any, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def watched_seat(offline: Any, site: DemoSite, deal: str, seat: int) -> tuple[Any, list[Any]]:
    """A page on `deal`'s first step from `seat`, and every response the browser receives from the start."""
    received = answers(offline.context)
    page = offline.page()
    open_viewer(page, site, f"?step=0&view=seat:{seat}", deal=deal)
    return page, received


def assert_hand_drawn(page: Any, view: dict[str, Any], seat: int) -> None:
    """The page draws `seat`'s hand as `view` has it, card for card."""
    assert sorted(dom_cards(page, f".seat[data-seat='{seat}']")) == sorted(view["seats"][seat]["hand"])


@contextmanager
def in_english(page: Any) -> Iterator[None]:
    """The page switched to English, and back to Chinese afterwards."""
    page.click("#lang-toggle")
    yield
    page.click("#lang-toggle")


def answers(context: Any) -> list[Any]:
    """Every response the browser context receives from now on."""
    received: list[Any] = []
    context.on("response", lambda response: received.append(response))
    return received


def assert_no_data_names(received: list[Any], cards: set[str]) -> None:
    """No answer with data (the pages, the frames) names any of `cards`; the static scripts name jokers in
    their code, not as data."""
    bodies = [(r.url, r.body()) for r in received if "/ui/static/" not in r.url and "/ui/vendor/" not in r.url]
    assert any("/ui-api/deals/" in url for url, _ in bodies)
    for url, body in bodies:
        assert not quoted_cards(body.decode("utf-8", "replace")) & cards, url


def assert_counted_only(page: Any, other: dict[str, Any], step: int) -> str:
    """Another seat's hand drawn from its count alone: no card, as many backs (a stack for ">10"), the count in
    words. Which kind of count it was: "many" or "exact"."""
    count = other["count"]
    box = page.locator(f".seat[data-seat='{other['seat']}']")
    assert box.get_attribute("data-count") == str(count)
    assert box.locator("[data-card]").count() == 0
    assert box.locator(".card.back").count() == (MANY_BACKS if count == ">10" else count)
    text = box.locator(".seat-head .count").inner_text()
    assert text == ("10 张以上" if count == ">10" else f"{count} 张"), (step, text)
    return "many" if count == ">10" else "exact"


def first_marks(page: Any, site: DemoSite, deals: list[dict[str, Any]], tags: tuple[str, ...],
                viewpoint: str = "referee") -> dict[str, tuple[str, int]]:
    """For each timeline tag, the first deal (and step) marked with it."""
    seen: dict[str, tuple[str, int]] = {}
    for deal in deals:
        open_viewer(page, site, f"?step=0&view={viewpoint}", deal=deal["id"])
        for tag in tags:
            marks = page.locator(f"#marks .mk.{tag}")
            if marks.count() and tag not in seen:
                seen[tag] = (deal["id"], int(marks.first.locator("xpath=..").get_attribute("data-step") or -1))
    return seen


def assert_seat_view_refused(page: Any, errors: list[str]) -> None:
    """Asking for seat 0's view of a deal in play without a token: the page says it is not available."""
    page.click('[data-view="seat:0"]')
    page.wait_for_selector('body[data-ready="error"]')
    assert "无法以这个视角查看" in page.inner_text("#table")
    assert errors == [] or all("403" in e or "401" in e for e in errors)


def open_match_page(page: Any, url: str, match: str, lines: list[str], table: str, deals: int) -> str:
    """A match page: its chart drawn by plotly, a trace for each of `lines` named in the legend, and its table
    of deals (class `table`) a row for each of its `deals`. The table's text."""
    page.goto(f"{url}/matches/{match}")
    page.wait_for_selector("#match-chart svg.main-svg")
    assert page.locator("#match-chart .scatterlayer .trace").count() == len(lines)
    legend = " ".join(page.locator("#match-chart .legend .legendtext").all_text_contents())
    assert all(line in legend for line in lines), legend
    assert page.locator(f"table.{table} tbody tr:not(.deal-marks)").count() == deals
    return page.inner_text(f"table.{table}")


def frames_as_the_page_reads_them(page: Page, url: str) -> str:
    """The frames at `url` as the page's own request function reads them (its token, if any), as text. A
    response caught on the network may be gone from the browser's buffer by the time the test reads it (the
    viewer asks again when its stream reconnects); frames are a pure function of the log, so asking again gives
    the answer the page drew."""
    return str(page.evaluate("url => window.Fupan.getJSON(url).then(JSON.stringify)", url))
