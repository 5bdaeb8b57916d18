"""Score slips as a venue enters them (issue 23): who bid first is a fact the referee enters, not one the table
page makes up; a slip's badge carries its explanation as plain text. Over real HTTP (the `server` fixture)."""

from __future__ import annotations

import re

from conftest import LiveServer
from game_support import open_tournament
from paths import ROOT

from domain.records.format import check_record

WAKENG_PLAYERS = ["张伟", "王芳", "李娜"]


def wakeng_table(server: LiveServer, name: str) -> str:
    service = server.service
    assert service is not None
    tournament = open_tournament(service, name, "wakeng", WAKENG_PLAYERS)
    match, _ = service.tables.open(tournament["id"], "1", WAKENG_PLAYERS, 0)
    return match["id"]


def first_bidders(page: str) -> list[str]:
    """The 首叫 cell of each board on the table page."""
    rows = re.findall(r'<tr data-deal="\d+"[^>]*>\s*<td class="num">[^<]*</td>\s*<td class="nowrap">([^<]*)</td>', page)
    return [cell.strip() for cell in rows]


def test_a_lanwa_slip_names_who_bid_first_and_the_table_page_shows_only_what_was_entered(server: LiveServer):
    match = wakeng_table(server, "烂挖杯")
    path = f"/api/matches/{match}/slips"
    # 李娜 (seat 2) bid first on board 1, everyone passed: 烂挖, she digs at 1.
    lanwa = {"first": 2, "digger": 2, "bid": 1, "lanwa": True, "winner": 2}
    entered = server.post(path, {"facts": lanwa})
    assert entered.status_code == 201, entered.text
    assert entered.json()["slip"]["first"] == 2 and entered.json()["first"] == 2
    record = server.get(f"/api/deals/{entered.json()['id']}/record").json()
    assert record["first"] == 2 and check_record(record)["ok"]  # the record says who bid first, and checks
    # A 烂挖 whose digger is not who bid first cannot be.
    refused = server.post(path + "/preview", {"facts": {**lanwa, "first": 1}})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "impossible_slip"
    # Board 2's slip says nothing of who bid first: the page shows no 首叫 for it.
    assert server.post(path, {"facts": {"digger": 0, "bid": 2, "winner": 0}}).status_code == 201
    assert first_bidders(server.get(f"/matches/{match}").text) == ["李娜", "—"]


def test_no_template_puts_the_language_spans_of_a_string_in_an_attribute(server: LiveServer):
    # Every string in an attribute is plain text in one language, set again by fupan.js in the chosen one.
    in_attribute = re.compile(r'\b[\w-]+="[^"]*\{\{\s*t\(')
    templates = list((ROOT / "replay_ui").rglob("*.html"))
    offending = [f"{p.relative_to(ROOT)}:{n}" for p in templates
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if in_attribute.search(line)]
    assert offending == []
    match = wakeng_table(server, "徽章杯")
    entered = server.post(f"/api/matches/{match}/slips", {"facts": {"digger": 0, "bid": 1, "winner": 0}})
    assert entered.status_code == 201
    page = server.get(f"/matches/{match}").text
    badge = re.search(r'<a class="tag slip"[^>]*>', page)
    assert badge is not None and "<span" not in badge.group(0) and 'data-i18n-title="slip.noReplay"' in badge.group(0)
    assert '">成绩单' not in re.sub(r"<[^>]+>", "", page)


def test_the_slip_page_names_every_seat_and_foul(server: LiveServer):
    match = wakeng_table(server, "名字杯")
    facts = {"first": 1, "digger": 0, "bid": 2, "doubles": [2], "shows": [1], "winner": 0,
             "fouls": [{"seat": 1, "code": "talking", "note": ""}]}
    entered = server.post(f"/api/matches/{match}/slips", {"facts": facts})
    assert entered.status_code == 201, entered.text
    page = server.get(f"/deals/{entered.json()['id']}").text
    facts_shown = re.search(r'<dl class="slip-facts">(.*?)</dl>', page, re.S)
    assert facts_shown is not None
    text = re.sub(r"<[^>]+>", " ", facts_shown.group(1))
    for said in ("首叫", "王芳", "挖坑者", "张伟", "加倍的选手", "李娜", "王芳：说话"):
        assert said in text, said
    assert "[" not in text and "talking" not in re.sub(r'lang="en">[^<]*', "", facts_shown.group(1))


def test_a_doudizhu_slip_shows_no_first_bidder_nobody_entered(server: LiveServer):
    service = server.service
    assert service is not None
    tournament = open_tournament(service, "首叫杯", "doudizhu", WAKENG_PLAYERS)
    match, _ = service.tables.open(tournament["id"], "1", WAKENG_PLAYERS, 1)
    assert server.post(f"/api/matches/{match['id']}/slips", {"facts": {"landlord": 2, "winner": "landlord"}}).ok
    page = server.get(f"/matches/{match['id']}").text
    cells = re.findall(r'<tr data-result-only="1">\s*<td class="num">1</td>\s*<td>([^<]*)</td>', page)
    assert cells == ["—"]  # not 王芳, whom the table's rotation names
