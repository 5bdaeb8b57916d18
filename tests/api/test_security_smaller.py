"""The smaller findings of issue 27 (item 8), over real HTTP on a SQLite file and on PostgreSQL: a player whose name
holds `/` has working explain pages; a referee card is issued for a tournament whose name is as long as names may
be; the appeal, report, review and slip pages have a plain-text `<title>`; a published site holds no API answer
saved as a page."""

from __future__ import annotations

import re

from test_appeals import Event

from replay_ui.publishing.publish import publish
from web.app import create_app

TITLE = re.compile(r'<title data-en="([^"<]*)">(.*?)</title>', re.S)  # English in data-en (base.html), Chinese inside


def test_a_name_with_a_slash_has_working_explain_pages(server):
    tournament = server.post("/api/tournaments", {"name": "斜杠杯", "game": "doudizhu"}).json()["id"]
    assert server.post(f"/api/tournaments/{tournament}/players", {"name": "甲/乙"}).status_code == 201
    for path in (f"/api/tournaments/{tournament}/standings/甲%2F乙/explain",
                 f"/tournaments/{tournament}/standings/甲%2F乙"):
        answer = server.get(path)
        assert answer.status_code == 200, (path, answer.text[:200])
        assert "甲/乙" in answer.text


def test_a_referee_card_for_the_longest_tournament_name(server):
    tournament = server.post("/api/tournaments", {"name": "长" * 200, "game": "doudizhu"}).json()["id"]
    for name in ("张三", "李四", "王五"):
        server.post(f"/api/tournaments/{tournament}/players", {"name": name})
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1" * 50, "seats": ["张三", "李四", "王五"],
                                                                   "first": 0}).json()["id"]
    card = server.post(f"/api/matches/{match}/referee-card", {})
    assert card.status_code == 201, card.text
    label = next(t["label"] for t in server.get("/api/tokens", token=server.organiser).json()
                 if t["id"] == card.json()["token_id"])
    assert len(label) <= 200 and label.endswith("桌 裁判")


def test_page_titles_are_plain_text(server):
    event = Event(server, "标题杯")
    appeal = event.file(step=3).json()["appeal_id"]
    slip_table = server.post(f"/api/tournaments/{event.tournament}/matches",
                             {"table": "3", "seats": ["张三", "李四", "王五"], "first": 0}).json()["id"]
    slip = server.post(f"/api/matches/{slip_table}/slips", {"facts": {"landlord": 0, "winner": "landlord"}})
    assert slip.status_code == 201, slip.text
    for path in (f"/appeals/{appeal}", f"/appeals/{appeal}/report", f"/appeals/{appeal}/review",
                 f"/tournaments/{event.tournament}/appeals", f"/deals/{slip.json()['id']}"):
        page = server.get(path)
        assert page.status_code == 200, path
        title = TITLE.search(page.text)
        assert title, path
        for text in title.groups():
            assert "<" not in text and "&lt;" not in text, (path, text)


def test_the_published_site_holds_no_api_answer_saved_as_a_page(server, tmp_path):
    event = Event(server, "发布杯")
    # Published as `fupan publish` does: an app of its own on the same store.
    publish(create_app({"FUPAN_APPLICATION": server.service, "FUPAN_PROJECTION_POLL": 0}), event.tournament,
            tmp_path / "site")
    saved_answers = [str(p.relative_to(tmp_path / "site")) for p in (tmp_path / "site").rglob("*.html")
                     if p.read_bytes().lstrip().startswith((b"{", b"["))]
    assert saved_answers == []
