"""A 13-player 挖坑 Swiss of three rounds (a bye every round) through HTTP, with the mishaps of a real event
(issue 23: 4–6): a table closed early, so the tables of a round played different numbers of boards; the table
reopened by the organiser; the bye's pages (travellers, `fupan explain`); the organiser overriding the proposed
pairing, checked against `fupan pair`'s rules and recorded with its reason.

Boards are entered as score slips (成绩单): the pairing reads scores only, and a slip is quick."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from conftest import LiveServer
from file_site import files_only
from flask import request
from game_support import record_random_play

from cli.main import main
from fixtures.random_play.wakeng import ENGINE as WAKENG
from fixtures.random_play.wakeng import play_out as wakeng_play_out

PLAYERS = ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨光", "赵磊", "黄磊", "周婷", "吴昊", "徐丽", "孙涛", "林峰"]
BOARDS = 2


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("swiss") / "swiss.sqlite").start()
    yield server
    server.stop()


def swiss(live: LiveServer, name: str) -> str:
    response = live.post("/api/tournaments", {"name": name, "game": "wakeng", "lots_seed": name,
                                              "options": {"wk.tableDeals": BOARDS}})
    assert response.status_code == 201, response.text
    tournament = response.json()["id"]
    text = "\n".join(f"{p}，挖坑协会" for p in PLAYERS)
    assert live.post(f"/api/tournaments/{tournament}/entries", {"text": text}).status_code == 201
    return tournament


def draw(live: LiveServer, tournament: str) -> dict[str, Any]:
    plan = live.get(f"/api/tournaments/{tournament}/draw")
    assert plan.status_code == 200, plan.text
    return plan.json()


def open_round(live: LiveServer, tournament: str, plan: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body = {"label": plan["label"], "kind": plan["kind"], "byes": plan["byes"],
            "tables": [{k: t[k] for k in ("table", "seats", "first", "options")} for t in plan["tables"]], **extra}
    opened = live.post(f"/api/tournaments/{tournament}/round-tables", body)
    assert opened.status_code == 201, opened.text
    return opened.json()


def slip(live: LiveServer, match: str, board: int) -> Any:
    """A board entered as a slip: seat `board % 3` digs at 2 and goes out first (the digger wins)."""
    seat = board % 3
    return live.post(f"/api/matches/{match}/slips", {"facts": {"digger": seat, "bid": 2, "winner": seat}})


def round_tables(live: LiveServer, tournament: str) -> list[dict[str, Any]]:
    info = live.get(f"/api/tournaments/{tournament}").json()
    return [m for m in info["matches"] if m["round"] == info["current_round"]]


def exported(tmp_path: Path, capsys: pytest.CaptureFixture[str], live: LiveServer, tournament: str) -> Path:
    assert main(["pair", "--export", tournament, "--db", str(live.store.env["SQLITE_DBNAME"])]) == 0
    path = tmp_path / f"{tournament}.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return path


def cli_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str], live: LiveServer, tournament: str,
             number: int) -> dict[str, Any]:
    path = exported(tmp_path, capsys, live, tournament)
    assert main(["pair", "--history", str(path), "--round", str(number), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "", err
    return json.loads(out)


def test_a_table_closed_early_does_not_block_the_next_round(live, tmp_path, capsys):
    tournament = swiss(live, "瑞士赛·提前结束")
    plan = draw(live, tournament)
    open_round(live, tournament, plan)
    tables = round_tables(live, tournament)
    for number, table in enumerate(tables):
        played = 1 if number == 0 else BOARDS  # the first table ends after one board of two
        for board in range(1, played + 1):
            entered = slip(live, table["id"], board)
            assert entered.status_code == 201, entered.text
    closed = live.post(f"/api/matches/{tables[0]['id']}/close", {"reason": "选手身体不适，提前结束"})
    assert closed.status_code == 201, closed.text
    # The next round is paired: the rate is the mean over the boards each player played (B7, B11.8)
    expected = cli_pair(tmp_path, capsys, live, tournament, 2)
    plan = draw(live, tournament)
    assert plan["pairing"] == expected
    standings = live.get(f"/api/tournaments/{tournament}/standings").json()
    early = {live.get(f"/api/matches/{tables[0]['id']}").json()["seat_names"][s] for s in range(3)}
    rows = {row["name"]: row for row in standings["rows"]}
    assert all(len(rows[name]["matches"]) >= 1 for name in early)
    # The bye of round 1 is credited for every board the round played, each compared with the tables that played it
    bye = next(row for row in rows.values() if row["status"] == "bye")
    explained = live.get(f"/api/tournaments/{tournament}/standings/{bye['player_id']}/explain").json()
    credits = [d["facts"] for m in explained["matches"] if m.get("bye") for d in m["deals"]]
    assert [(c["mp"], c["mp_max"], c["mp_rate"]) for c in credits] == [(3, 6, 0.5), (2, 4, 0.5)]
    open_round(live, tournament, plan)
    # Round 2 was paired from the closed table's result: it is not reopened any more
    late = live.post(f"/api/matches/{tables[0]['id']}/reopen", {"reason": "还有一副"})
    assert late.status_code == 422 and late.json()["error"]["code"] == "round_moved_on"


def test_a_closed_table_is_reopened_with_a_reason_and_takes_its_remaining_boards(live):
    tournament = swiss(live, "瑞士赛·重开")
    open_round(live, tournament, draw(live, tournament))
    table = round_tables(live, tournament)[0]["id"]
    assert slip(live, table, 1).status_code == 201
    assert live.post(f"/api/matches/{table}/close", {"reason": "误点结束此桌"}).status_code == 201
    refused = slip(live, table, 2)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "match_over"
    no_reason = live.post(f"/api/matches/{table}/reopen", {"reason": "  "})
    assert no_reason.status_code == 422 and no_reason.json()["error"]["code"] == "bad_reason"
    anonymous = live.post(f"/api/matches/{table}/reopen", {"reason": "误点"}, anonymous=True)
    assert anonymous.status_code == 401
    reopened = live.post(f"/api/matches/{table}/reopen", {"reason": "误点结束此桌，裁判确认还有一副"})
    assert reopened.status_code == 201, reopened.text
    assert reopened.json()["status"] == "live"

    def over() -> bool:  # as the projections (standings, the console's progress) see the table
        tables = live.get(f"/api/tournaments/{tournament}/standings").json()["tables"]
        return next(t["over"] for t in tables if t["match_id"] == table)

    assert not over()
    assert slip(live, table, 2).status_code == 201
    assert over()
    match = live.get(f"/api/matches/{table}").json()
    assert match["status"] == "over" and match["ended_by"] != "closed"  # its own end rule: all its boards played
    names = set(match["seat_names"])
    standings = live.get(f"/api/tournaments/{tournament}/standings").json()
    assert all(m["deals"] == BOARDS for row in standings["rows"] if row["name"] in names for m in row["matches"])
    again = live.post(f"/api/matches/{table}/reopen", {"reason": "再开"})
    assert again.status_code == 422 and again.json()["error"]["code"] == "not_closed"
    assert live.get("/api/admin/verify", token=live.organiser).json()["ok"]


def played_event(live: LiveServer, name: str) -> dict[str, Any]:
    """Three rounds, a bye each; round 1's first table closed after one board of two; round 3's first board
    recorded in full at every table (random legal play), the rest entered as slips."""
    service = live.service
    assert service is not None
    rng = random.Random(23)
    tournament = swiss(live, name)
    byes: list[str] = []
    for number in (1, 2, 3):
        plan = draw(live, tournament)
        byes += plan["bye_names"]
        open_round(live, tournament, plan)
        for index, table in enumerate(round_tables(live, tournament)):
            boards = 1 if number == 1 and index == 0 else BOARDS
            for board in range(1, boards + 1):
                if number == 3 and board == 1:
                    deal, _ = service.deals.start(match=table["id"], seed=f"{tournament}-r3-b1")
                    record_random_play(service, deal["id"], WAKENG, wakeng_play_out, rng)
                else:
                    assert slip(live, table["id"], board).status_code == 201
            if boards < BOARDS:
                assert live.post(f"/api/matches/{table['id']}/close", {"reason": "提前结束"}).status_code == 201
    info = live.get(f"/api/tournaments/{tournament}").json()
    return {"id": tournament, "byes": byes, "matches": info["matches"]}


@pytest.fixture(scope="module")
def event(live: LiveServer) -> dict[str, Any]:
    return played_event(live, "瑞士赛·三轮")


def test_every_table_of_every_round_has_its_travellers_with_a_bye_in_the_event(live, event):
    assert len(event["byes"]) == 3 and len(set(event["byes"])) == 3
    for match in event["matches"]:
        page = live.get(f"/matches/{match['id']}/travellers")
        assert page.status_code == 200, (match["table"], page.text[-500:])
        assert "KeyError" not in page.text


def test_fupan_explain_a_player_who_had_a_bye(live, event, capsys):
    db = str(live.store.env["SQLITE_DBNAME"])
    for name in event["byes"]:
        assert main(["explain", event["id"], name, "--db", db]) == 0, capsys.readouterr().err
        out, err = capsys.readouterr()
        assert err == "" and "bye" in out, out


def test_the_pages_of_a_bye_player_and_of_rounds_with_a_bye_answer(live, event):
    tournament = event["id"]
    players = {p["name"]: p["id"] for p in live.get(f"/api/tournaments/{tournament}").json()["players"]}
    pages = [f"/tournaments/{tournament}", f"/tournaments/{tournament}/standings",
             f"/console/tournaments/{tournament}", *(f"/tournaments/{tournament}/rounds/{n}" for n in (1, 2, 3)),
             *(f"/console/tournaments/{tournament}/rounds/{n}/seating" for n in (1, 2, 3)),
             *(f"/tournaments/{tournament}/standings/{players[name]}" for name in event["byes"]),
             *(f"/matches/{m['id']}" for m in event["matches"])]
    for page in pages:
        answer = live.get(page)
        assert answer.status_code == 200, (page, answer.text[-300:])
    for name in event["byes"]:
        explained = live.get(f"/api/tournaments/{tournament}/standings/{players[name]}/explain").json()
        assert sum(1 for m in explained["matches"] if m.get("bye")) == 1


class Links(HTMLParser):
    """Every address a page points to: href, src and a data script's."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


def dead_links(site: Path) -> list[tuple[str, str]]:
    """(page, link) for every relative link of every written page that names no written file — what a reader
    opening the site from file:// would follow into nothing."""
    dead = []
    for page in sorted(site.rglob("*.html")):
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.found:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("#", "javascript:", "data:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file():
                dead.append((str(page.relative_to(site)), link))
    return dead


def test_the_published_event_has_no_dead_link_and_names_what_it_left_out(live, event, tmp_path, capsys):
    db, site = str(live.store.env["SQLITE_DBNAME"]), tmp_path / "site"
    status = main(["publish", event["id"], "--out", str(site), "--db", db, "--json"])
    out, err = capsys.readouterr()
    assert status == 0 and err == "", err
    report = json.loads(out)
    assert report["errors"] == 0 and report["pages"] > 40
    assert dead_links(site) == []
    # A table of slips only has no PDF to print, so its page offers none; a table with a recorded deal does
    slips_only = next(m for m in event["matches"] if m["round"] == 1)
    assert "records.pdf" not in (site / "matches" / f"{slips_only['id']}.html").read_text(encoding="utf-8")
    recorded = next(m for m in event["matches"] if m["round"] == 3)
    assert (site / "matches" / recorded["id"] / "records.pdf").is_file()


def test_a_page_the_app_fails_to_make_is_named_unlinked_and_the_exit_status_says_so(live, event, tmp_path):
    from replay_ui.publishing.publish import publish
    from web.app import create_app

    app = create_app({"FUPAN_APPLICATION": live.service, "FUPAN_PROJECTION_POLL": 0})
    broken = f"/matches/{event['matches'][0]['id']}/travellers"

    @app.before_request
    def fail_one_page() -> None:  # a fault in one page of the app, as defect 5's KeyError was
        if request.path == broken:
            raise KeyError("seat")

    done = publish(app, event["id"], tmp_path / "site")
    assert [(item.url, item.status, item.error) for item in done.errors] == [(broken, 500, True)]
    assert "KeyError: 'seat'" in done.errors[0].why and done.errors[0].linked_from
    assert dead_links(tmp_path / "site") == []
    page = (tmp_path / "site" / done.errors[0].linked_from[0]).read_text(encoding="utf-8")
    assert "data-left-out" in page and "travellers.html" not in page


def test_the_organiser_overrides_a_proposed_pairing_checked_and_recorded_with_its_reason(live, tmp_path, capsys):
    tournament = swiss(live, "瑞士赛·调整编排")
    open_round(live, tournament, draw(live, tournament))
    for table in round_tables(live, tournament):
        for board in range(1, BOARDS + 1):
            assert slip(live, table["id"], board).status_code == 201
    plan = draw(live, tournament)
    ids = {p["name"]: p["id"] for p in live.get(f"/api/tournaments/{tournament}").json()["players"]}
    tables = [list(t["seats"]) for t in plan["tables"]]
    (bye,) = plan["byes"]
    round_1 = live.get(f"/api/tournaments/{tournament}/standings").json()["tables"]
    # Round 1's bye player takes the bye again, and the top table's first player sits out in round 2 instead
    had_bye = next(p for p in ids.values() if p not in {s for t in round_1 for s in t["seats"]})
    # the fewest byes first: round 1's bye player plays in round 2
    i, j = next((i, j) for i, t in enumerate(tables) for j, p in enumerate(t) if p == had_bye)
    tables[i][j] = bye
    edited = {"tables": tables, "byes": [had_bye]}
    check = live.post(f"/api/tournaments/{tournament}/draw/check", edited)
    assert check.status_code == 200, check.text
    answer = check.json()
    assert not answer["same_as_proposal"] and not answer["refused"]
    codes = {p["code"] for p in answer["problems"]}
    assert "bye_twice" in codes, answer
    twice = next(p for p in answer["problems"] if p["code"] == "bye_twice")
    name = next(n for n, pid in ids.items() if pid == had_bye)
    assert twice["players"] == [name] and name in twice["zh"] and "轮空" in twice["zh"] and "bye" in twice["en"]
    assert "[" not in twice["zh"] and "'" not in twice["en"]  # names, never a Python list
    # `fupan pair --check` on the exported history says the same, in names
    named = {pid: n for n, pid in ids.items()}
    chosen = tmp_path / "override.json"
    chosen.write_text(json.dumps({"tables": [[named[p] for p in t] for t in tables], "byes": [name]},
                                 ensure_ascii=False), encoding="utf-8")
    history_file = exported(tmp_path, capsys, live, tournament)
    assert main(["pair", "--history", str(history_file), "--round", "2", "--check", str(chosen), "--json"]) == 0
    by_cli = json.loads(capsys.readouterr().out)["problems"]
    assert [p["code"] for p in by_cli] == [p["code"] for p in answer["problems"]]
    chosen.write_text(json.dumps({"tables": [[named[p] for p in t] for t in tables], "byes": []}), encoding="utf-8")
    assert main(["pair", "--history", str(history_file), "--round", "2", "--check", str(chosen)]) == 1
    assert "既未入座也未轮空" in capsys.readouterr().out
    # A player missing is refused outright
    missing = live.post(f"/api/tournaments/{tournament}/draw/check", {"tables": tables, "byes": []}).json()
    assert missing["refused"] and missing["problems"][0]["code"] == "missing"
    body = {"label": plan["label"], "kind": plan["kind"], "byes": [had_bye],
            "tables": [{"table": t["table"], "seats": seats, "first": 0, "options": {}}
                       for t, seats in zip(plan["tables"], tables, strict=True)]}
    without = live.post(f"/api/tournaments/{tournament}/round-tables", body)
    assert without.status_code == 422 and without.json()["error"]["code"] == "override_needs_reason"
    refused = live.post(f"/api/tournaments/{tournament}/round-tables",
                        {**body, "byes": [], "override": {"reason": "少一人"}})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_override"
    opened = live.post(f"/api/tournaments/{tournament}/round-tables",
                       {**body, "override": {"reason": "张伟须提前离场，由他轮空"}})
    assert opened.status_code == 201, opened.text
    info = live.get(f"/api/tournaments/{tournament}").json()
    assert info["rounds"][-1]["override"] == {"reason": "张伟须提前离场，由他轮空",
                                              "broken": [p["code"] for p in answer["problems"]]}
    assert info["rounds"][-1]["byes"] == [had_bye]
    # The export carries the round as played, so `fupan pair` and the console agree on the next round
    for table in round_tables(live, tournament):
        for board in range(1, BOARDS + 1):
            assert slip(live, table["id"], board).status_code == 201
    expected = cli_pair(tmp_path, capsys, live, tournament, 3)
    assert draw(live, tournament)["pairing"] == expected
    history = json.loads(exported(tmp_path, capsys, live, tournament).read_text(encoding="utf-8"))
    assert history["rounds"][1]["byes"] == [name]
    assert live.get("/api/admin/verify", token=live.organiser).json()["ok"]


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
def test_the_published_swiss_opens_from_file_with_its_bye_rounds(live, event, tmp_path, capsys, browser):
    """Chromium, network blocked, from file://: the standings (whose rows hold a bye), every table page and its
    travellers load with no script error and no request for a file that is not there."""
    site = tmp_path / "site"
    assert main(["publish", event["id"], "--out", str(site), "--db", str(live.store.env["SQLITE_DBNAME"])]) == 0
    assert capsys.readouterr().err == ""
    with files_only(browser) as opened:
        page = opened.page
        page.goto((site / "tournaments" / event["id"] / "standings.html").as_uri())
        page.locator("#standings-chart .main-svg").first.wait_for(timeout=15_000)
        assert page.locator("#standings-table tbody tr").count() == len(PLAYERS)
        for match in event["matches"]:
            page.goto((site / "matches" / f"{match['id']}.html").as_uri())
            page.goto((site / "matches" / match["id"] / "travellers.html").as_uri())
            assert page.locator("section.traveller").count() >= 1
    assert opened.blocked == [] and opened.errors == [], (opened.blocked, opened.errors)
