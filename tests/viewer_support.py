"""Shared by the viewer tests: the demo tournament served over real HTTP, and facts about it.

The server is tests/conftest.py's LiveServer (werkzeug in a thread, the real app, a real SQLite file) loaded
with `fixtures.load_demo`, the way `fupan serve --demo` does it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conftest import EXAMPLE_RECORD, LiveServer

from fixtures import load_demo

ROOT = Path(__file__).resolve().parents[1]
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


def start_demo_site(db_path: Path) -> DemoSite:
    live = LiveServer(db_path).start()
    assert live.service is not None
    tournament = load_demo(live.service)
    match = live.service.list_matches(tournament["id"])[0]
    return DemoSite(live, tournament, match, list(match["deals"]))


def unseen_cards(site: DemoSite, deal_id: str, viewer_seat: int) -> set[str]:
    """Cards `viewer_seat` can never know in this deal: other seats' cards that are never played, never in the
    shown kitty and never in an open (明牌) hand. Taken from the referee's fold, server-side."""
    assert site.live.service is not None
    frames = site.live.service.replay_all(deal_id, "referee")["frames"]
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
    deal, _ = site.live.service.start_deal(game="doudizhu", seats=record["seats"], first=record["first"],
                                           hands=record["hands"], kitty=record["kitty"], key=key)
    for action in record["actions"][:actions]:
        site.live.service.record_action(deal["id"], action)
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
