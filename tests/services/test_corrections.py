"""Corrections (更正, docs/corrections.md): a mistyped slip put right by the organiser or the table's referee, with
the reason — not an appeal. The corrected score is the one on every page, in the standings and their
explanation, and in the pairing history (`fupan pair --export`), from which the next round is paired in the
ranking shown on screen. Over real HTTP on SQLite and PostgreSQL (the `server` fixture).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import LiveServer
from game_support import open_tournament

from cli.main import main as fupan
from projections import Projections
from projections.pairing import ranking, read_history

PLAYERS = ["张伟", "王芳", "李娜", "刘洋", "陈静", "黄磊"]
# Board 1 at table 1 as the slip was typed: 张伟 digs at 3 and wins (+6/−3/−3); it was 王芳 who went out first.
TYPED = {"digger": 0, "bid": 3, "winner": 0}
RIGHT = {"digger": 0, "bid": 3, "winner": 1}


def swiss(server: LiveServer) -> tuple[dict[str, Any], str, str]:
    service = server.service
    assert service is not None
    tournament = open_tournament(service, "更正杯", "wakeng", PLAYERS)
    one, _ = service.tables.open(tournament["id"], "1", PLAYERS[:3], 0)
    two, _ = service.tables.open(tournament["id"], "2", PLAYERS[3:], 0)
    for match, slips in ((one, [TYPED, {"digger": 1, "bid": 1, "winner": 1}]),
                         (two, [{"digger": 0, "bid": 1, "winner": 2}, {"digger": 1, "bid": 2, "winner": 1}])):
        for facts in slips:
            assert server.post(f"/api/matches/{match['id']}/slips", {"facts": facts}).status_code == 201
    return tournament, one["id"], two["id"]


def standing_keys(server: LiveServer, tournament: str) -> dict[str, tuple[float, ...]]:
    """Each player's figures in the standings on screen: the rate and the tiebreaks before lots (pairing breaks
    a tie left after them by the previous position, never by lots: docs/pairing.md)."""
    rows = server.get(f"/api/tournaments/{tournament}/standings").json()["rows"]
    return {row["name"]: (row["total"], *row["tiebreak_values"][:-1]) for row in rows}


def test_a_mistyped_slip_is_corrected_with_a_reason_and_every_reader_takes_the_corrected_score(server: LiveServer):
    service = server.service
    assert service is not None
    tournament, one, two = swiss(server)
    path = f"/api/matches/{one}/corrections"
    table = server.get(f"/api/matches/{one}").json()
    before = table["deals"][0]["scores"]
    assert before[0] > 0  # as typed: 张伟 won his 3

    # Refused: no reason; the referee of another table; facts the rules rule out. Each in zh and en.
    _, other_referee = service.tokens.create("referee", [two])
    _, referee = service.tokens.create("referee", [one])
    no_reason = server.post(path, {"number": 1, "facts": RIGHT})
    assert no_reason.status_code == 422 and no_reason.json()["error"]["code"] == "bad_reason"
    assert no_reason.json()["error"]["message_zh"] and no_reason.json()["error"]["message"]
    assert server.post(path, {"number": 1, "facts": RIGHT, "reason": "笔误"}, token=other_referee).status_code == 403
    impossible = server.post(path, {"number": 1, "facts": {**RIGHT, "bid": 4}, "reason": "笔误"})
    assert impossible.status_code == 422 and impossible.json()["error"]["code"] == "bad_slip"
    missing = server.post(path, {"number": 9, "facts": RIGHT, "reason": "笔误"})
    assert missing.status_code == 422 and missing.json()["error"]["code"] == "bad_deal_number"

    # The preview stores nothing and says what the correction scores.
    head = service.store.recorder.max_notification_id()
    preview = server.post(path + "/preview", {"number": 1, "facts": RIGHT})
    assert preview.status_code == 200, preview.text
    assert preview.json()["was"] == before and preview.json()["result"]["scores"][0] < 0
    assert service.store.recorder.max_notification_id() == head

    corrected = server.post(path, {"number": 1, "facts": RIGHT, "reason": "笔误：王芳先出完"}, token=referee,
                            headers={"Idempotency-Key": "correct-1"})
    assert corrected.status_code == 201, corrected.text
    again = server.post(path, {"number": 1, "facts": RIGHT, "reason": "笔误：王芳先出完"}, token=referee,
                        headers={"Idempotency-Key": "correct-1"})
    assert again.status_code == 201 and again.json()["version"] == corrected.json()["version"]
    entry = corrected.json()["deals"][0]
    assert entry["scores"] == preview.json()["result"]["scores"] and entry["corrected"]["was"] == before
    assert entry["corrected"]["reason"] == "笔误：王芳先出完"
    totals = corrected.json()["standing"]["scores"]
    assert totals == [a + b for a, b in zip(entry["scores"], corrected.json()["deals"][1]["scores"], strict=True)]

    # The table page: the corrected score, marked 更正 (never 申诉), with the reason.
    page = server.get(f"/matches/{one}").text
    assert 'data-corrected="1"' in page and "王芳先出完" in page
    assert "申诉" not in re.sub(r"<script.*?</script>", "", page, flags=re.S)
    # The deal page: the corrected facts and scores.
    deal = server.get(f"/deals/{entry['deal_id']}").text
    assert "更正" in deal and "王芳先出完" in deal

    # The standings and their explanation: the corrected scores, the correction named; it adds up.
    explained = server.get(f"/api/tournaments/{tournament['id']}/standings/张伟/explain").json()
    listed = [d for t in explained["matches"] for d in t["deals"]]
    assert listed[0]["corrected"]["reason"] == "笔误：王芳先出完" and listed[0]["result"]["scores"] == entry["scores"]
    parts = explained["total_explained"]["parts"]
    summed = [part for part in parts if not part.get("included")]
    assert abs(sum(part["points"] for part in summed) - explained["total_explained"]["total"]) < 1e-9
    assert any(part["kind"] == "correction" for part in parts)
    assert explained["adjustments"] == []  # a correction is no adjustment, and no appeal

    # Pairing: the exported history has the corrected raw scores and no adjustment; it ranks as the standings do.
    projections = Projections(service)
    history = projections.pairing_history(tournament["id"])
    assert history["rounds"][0]["tables"][0]["results"][0] == entry["scores"] and history["adjustments"] == []
    on_screen = standing_keys(server, tournament["id"])
    paired = [on_screen[name] for name in ranking(read_history(history))]
    assert paired == sorted(paired, reverse=True) and len(set(paired)) > 2  # the same order (ties aside)
    assert projections.verify()["ok"]


def test_a_correction_that_is_the_committees_is_refused(server: LiveServer):
    service = server.service
    assert service is not None
    tournament = open_tournament(service, "结束杯", "wakeng", PLAYERS[:3], options={"wk.tableDeals": 2})
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS[:3], 0)
    for facts in (TYPED, TYPED):
        assert server.post(f"/api/matches/{match['id']}/slips", {"facts": facts}).status_code == 201
    # Over by its boards: a correction keeps it over (the end is the boards'), and the standing follows.
    fixed = server.post(f"/api/matches/{match['id']}/corrections", {"number": 1, "facts": RIGHT, "reason": "笔误"})
    assert fixed.status_code == 201, fixed.text
    deals = fixed.json()["deals"]
    assert fixed.json()["status"] == "over" and deals[0]["corrected"]["was"] == deals[1]["scores"]
    assert fixed.json()["standing"]["scores"] == [a + b for a, b in zip(deals[0]["scores"], deals[1]["scores"],
                                                                         strict=True)]
    assert re.search(r"更正", server.get(f"/tournaments/{tournament['id']}").text)


def test_an_appeals_adjusted_score_is_the_one_on_the_table_page_and_in_pairing(server: LiveServer):
    service = server.service
    assert service is not None
    tournament, one, two = swiss(server)
    deal = service.tables.get(two)["deals"][0]
    assert deal["scores"] == [1, 1, -2] or deal["scores"][2] > 0  # as played (李娜… 黄磊 won it)
    appeal = service.appeals.file(two, {"kind": "deal", "deal_id": deal["deal_id"], "step": 0}, "irregularity",
                                  "黄磊出完前说话")
    assigned = [2, 2, -4]
    service.rulings.rule(appeal["appeal_id"], {"kind": "assigned", "scores": assigned}, "判定庄家负")

    # The table page shows the score the ruling assigned, marked 申诉, and the scores as played.
    page = server.get(f"/matches/{two}").text
    row = re.search(r'<tr data-deal="1"[^>]*data-appealed="1"[^>]*>(.*?)</tr>', page, re.S)
    assert row is not None, page
    cells = re.findall(r'<td class="num score[^"]*">([^<]*)</td>', row.group(1))
    assert cells == ["+2", "+2", "-4"]
    # The table's standing on the page and on the tournament page moves with it.
    played = service.tables.get(two)["standing"]["scores"]
    ruled = [s + a - b for s, a, b in zip(played, assigned, deal["scores"], strict=True)]
    chart = json.loads(re.search(r'id="match-chart-data">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    assert [line[-1] for line in chart["series"]] == ruled != played
    listed = server.get(f"/tournaments/{tournament['id']}").text
    assert " / ".join(f"{s:+d}" if s else "0" for s in ruled) in listed

    # Pairing reads the deal as the ruling scored it, and no matchpoint adjustment besides.
    projections = Projections(service)
    history = projections.pairing_history(tournament["id"])
    assert history["rounds"][0]["tables"][1]["results"][0] == assigned and history["adjustments"] == []
    on_screen = standing_keys(server, tournament["id"])
    paired = [on_screen[name] for name in ranking(read_history(history))]
    assert paired == sorted(paired, reverse=True)

    # The explanation names the appeal's change; its parts add up to the total.
    explained = server.get(f"/api/tournaments/{tournament['id']}/standings/刘洋/explain").json()
    parts = explained["total_explained"]["parts"]
    assert [p["kind"] for p in parts if p.get("included")] == ["appeal"]
    summed = [part for part in parts if not part.get("included")]
    assert abs(sum(part["points"] for part in summed) - explained["total_explained"]["total"]) < 1e-9


def test_a_corrected_slip_exports_as_corrected_and_checks(server: LiveServer, tmp_path: Path, capsys: Any):
    _, one, _ = swiss(server)
    fixed = server.post(f"/api/matches/{one}/corrections", {"number": 1, "facts": RIGHT, "reason": "笔误"})
    assert fixed.status_code == 201
    deal = server.get(f"/api/matches/{one}").json()["deals"][0]
    record = server.get(f"/api/deals/{deal['deal_id']}/record").json()
    assert record["slip"]["winner"] == 1 and record["result"]["scores"] == deal["scores"]
    corrected = record["meta"]["corrected"]
    assert corrected["reason"] == "笔误" and corrected["entered"]["slip"]["winner"] == 0
    path = tmp_path / "corrected.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert fupan(["check", str(path)]) == 0
    capsys.readouterr()
    table = server.get(f"/api/matches/{one}/records").text
    assert "笔误" in table
