"""Score slips (domain/records/slips.py, api/slips.py): a table's deals entered as the facts that decide their score.

The same deals recorded in full at one tournament's table and entered as slips at another's give the same
standings (a 斗地主 chip table, a 大怪路子 team table); a slip the rules rule out is refused with its reason and
stores nothing; a preview stores nothing; the stored deal is 成绩单 everywhere — deal, match page, standings
explanation, viewer (no replay) — and exports as a result-only record that `fupan check` validates. Over real
HTTP on SQLite and PostgreSQL; who may enter slips is tests/api/test_security_matrix.py's.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from conftest import LiveServer
from game_support import open_tournament, record_random_play
from paths import ROOT

from cli.main import main as fupan
from domain.records.format import check_record
from fixtures.random_play import daguai as daguai_play
from fixtures.random_play import doudizhu as doudizhu_play

CHIP_PLAYERS = ["赵一", "钱二", "孙三"]
TEAM_PLAYERS = ["周一", "吴二", "郑三", "王四", "冯五", "陈六"]


def slip_facts_doudizhu(state: Any, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """What the table's slip says of a recorded 斗地主 deal: who was landlord, the 抢, the 明牌 with the largest
    factor, bombs and rocket, spring, who won, the fouls."""
    fouls = [{k: f[k] for k in ("seat", "code", "note", "penalty") if k in f} for f in state.fouls]
    if state.redeal:
        return {"redeal": True, "fouls": fouls}
    rocket = any(a["type"] == "play" and sorted(a["cards"]) == ["BJ", "LJ"] for a in actions)
    reveal = max(state.reveals, key=lambda r: r["factor"], default=None)
    result = doudizhu_play.ENGINE.result(state)
    return {"landlord": state.landlord, "robs": state.robs, "bombs": state.bombs - int(rocket), "rocket": rocket,
            "reveal": None if reveal is None else {k: v for k, v in reveal.items() if k != "factor"},
            "spring": "spring" if result["spring"] else "anti_spring" if result["anti_spring"] else "none",
            "winner": "landlord" if result["landlord_won"] else "farmers", "out": state.winner, "fouls": fouls}


def slip_facts_daguai(state: Any, actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"finish_order": list(state.decided),
            "fouls": [{k: f[k] for k in ("seat", "code", "note")} for f in state.fouls]}


def same_lots(service: Any, name: str, game: str, players: list[str]) -> dict[str, Any]:
    """A tournament of `players`, its lots drawn from one seed (so two of them rank ties alike)."""
    tournament, _ = service.tournaments.create(name, game, lots_seed="slips")
    for player in players:
        service.tournaments.register_player(tournament["id"], player)
    return tournament


def recorded_and_slipped(server: LiveServer, game: str, players: list[str], play_out: Any, facts_of: Any,
                         deals: int, seed: int, prefixes: dict[int, list[dict[str, Any]]]) -> tuple[str, str, Any]:
    """(tournament recorded in full, tournament entered by slips, the slips' table id): the same deals."""
    service = server.service
    assert service is not None
    engine = {"doudizhu": doudizhu_play.ENGINE, "daguai": daguai_play.ENGINE}[game]
    full, by_slip = (same_lots(service, f"{kind}-{game}", game, players) for kind in ("全程", "成绩单"))
    full_table, _ = service.tables.open(full["id"], "1", players, 0)
    slip_table, _ = service.tables.open(by_slip["id"], "1", players, 0)
    rng = random.Random(seed)
    for number in range(1, deals + 1):
        if service.tables.get(full_table["id"])["status"] != "live":
            break
        deal, _ = service.deals.start(match=full_table["id"], seed=f"{game}-{seed}-{number}")
        recorded, state = record_random_play(service, deal["id"], engine, play_out, rng,
                                             prefix=prefixes.get(number, ()), foul_rate=0.04)
        actions = service.records.export_record(deal["id"])["actions"]
        facts = facts_of(state, actions)
        preview = server.post(f"/api/matches/{slip_table['id']}/slips/preview", {"facts": facts, "number": number})
        assert preview.status_code == 200, preview.text
        assert preview.json()["result"]["scores"] == recorded["result"]["scores"]
        entered = server.post(f"/api/matches/{slip_table['id']}/slips", {"facts": facts, "number": number})
        assert entered.status_code == 201, entered.text
        assert entered.json()["result"] == recorded["result"] and entered.json()["result_only"] is True
    return full["id"], by_slip["id"], slip_table["id"]


def standings_rows(server: LiveServer, tournament: str) -> list[tuple[Any, ...]]:
    document = server.get(f"/api/tournaments/{tournament}/standings").json()
    return [(r["rank"], r["player_id"], r["total"], json.dumps(r["tiebreak_values"], sort_keys=True), r["status"])
            for r in document["rows"]]


def test_a_chip_table_entered_by_slips_stands_as_the_same_deals_recorded_in_full(server: LiveServer, tmp_path: Path,
                                                                                 capsys):
    # Seed 9: six deals until a player holds 20 chips — an all-pass redeal, bombs, chip penalties, and deal 4
    # opened with a 明牌开始 (×5) before the bids.
    reveal_first = {4: [{"seat": 1, "type": "reveal", "stage": "start"}]}
    full, by_slip, table = recorded_and_slipped(server, "doudizhu", CHIP_PLAYERS, doudizhu_play.play_out,
                                                slip_facts_doudizhu, 8, 9, reveal_first)
    rows = standings_rows(server, by_slip)
    assert rows == standings_rows(server, full) and {r[2] for r in rows} != {10}
    assert server.get(f"/api/matches/{table}").json()["deals"] != []

    # 成绩单 wherever the deal appears: the deal, the explanation, the match page; no replay in the viewer.
    deals = server.get(f"/api/matches/{table}/deals").json()
    assert len(deals) >= 4 and server.get(f"/api/matches/{table}").json()["status"] == "over"
    assert all(d["result_only"] and d["actions"] == 0 and d["slip"]["fouls"] is not None for d in deals)
    explained = server.get(f"/api/tournaments/{by_slip}/standings/{CHIP_PLAYERS[0]}/explain").json()
    listed = [d for t in explained["matches"] for d in t["deals"]]
    assert listed and all(d["result_only"] for d in listed)
    page = server.get(f"/matches/{table}").text
    assert page.count('data-result-only="1"') == len(deals) and "成绩单" in page
    viewer = server.get(f"/deals/{deals[0]['id']}")
    assert viewer.status_code == 200 and "成绩单" in viewer.text and "data-no-replay" in viewer.text
    assert server.get(f"/api/deals/{deals[0]['id']}/replay/all").json()["error"]["code"] == "no_replay"
    pad = server.get(f"/api/deals/{deals[0]['id']}/pad", token=server.organiser)  # no cards to record
    assert (pad.status_code, pad.json()["error"]["code"]) == (422, "result_only")

    # Its export is a result-only record, which `fupan check` validates (and refuses with a wrong result).
    record = server.get(f"/api/deals/{deals[0]['id']}/record").json()
    assert record["result_only"] is True and "hands" not in record and "actions" not in record
    path = tmp_path / "slip.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert fupan(["check", str(path)]) == 0
    capsys.readouterr()
    wrong = {**record, "result": {"scores": [s + 1 for s in record["result"]["scores"]]}}
    path.write_text(json.dumps(wrong, ensure_ascii=False), encoding="utf-8")
    assert fupan(["check", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out.splitlines()[0])["code"] == "result_mismatch"
    assert server.get(f"/api/deals/{deals[0]['id']}/verify").json()["ok"]
    # ... and imports as a result-only deal of its own (once), refused with a result its slip does not score.
    imported = server.post("/api/records", record)
    assert imported.status_code == 201 and imported.json()["result_only"] and imported.json()["slip"] == record["slip"]
    assert imported.json()["result"]["scores"] == record["result"]["scores"]
    assert server.post("/api/records", record).status_code == 200
    assert server.post("/api/records", wrong).json()["error"]["code"] == "result_mismatch"


def test_a_team_table_entered_by_slips_stands_as_the_same_deals_recorded_in_full(tmp_path: Path):
    # On SQLite only: six hands of 27 cards played out are the slow part, and the store is the chip table's.
    server = LiveServer(tmp_path / "fupan.sqlite").start()
    try:
        full, by_slip, table = recorded_and_slipped(server, "daguai", TEAM_PLAYERS, daguai_play.play_out,
                                                    slip_facts_daguai, 4, 5, {})
        assert standings_rows(server, by_slip) == standings_rows(server, full)
        assert len(server.get(f"/api/matches/{table}/deals").json()) == 4  # the table's dg.tableDeals
    finally:
        server.stop()


def test_an_impossible_slip_is_refused_with_its_reason_and_stores_nothing(server: LiveServer):
    service = server.service
    assert service is not None
    tournament = open_tournament(service, "不可能杯", "doudizhu", CHIP_PLAYERS)
    match, _ = service.tables.open(tournament["id"], "1", CHIP_PLAYERS, 0)
    path = f"/api/matches/{match['id']}/slips"
    head = service.store.recorder.max_notification_id()
    refusals = {
        "impossible_slip": [{"landlord": 0, "winner": "farmers", "spring": "spring"},  # 春天 needs the landlord's win
                            {"landlord": 0, "winner": "landlord", "spring": "spring", "bombs": 5, "rocket": True},
                            {"landlord": 0, "winner": "landlord", "reveal": {"seat": 1, "stage": "after_kitty"}},
                            {"redeal": True, "landlord": 1}],
        "bad_slip": [{"landlord": 3, "winner": "landlord"}, {"landlord": 0, "winner": "landlord", "robs": 4},
                     {"landlord": 0, "winner": "both"}, {"landlord": 0, "winner": "landlord", "tricks": 3}],
    }
    for code, slips in refusals.items():
        for facts in slips:
            for route in (path, path + "/preview"):
                answer = server.post(route, {"facts": facts})
                assert answer.status_code == 422, (facts, answer.text)
                error = answer.json()["error"]
                assert error["code"] == code and error["message_zh"] and error["message"], facts
    assert server.post(path, {"facts": {"landlord": 0, "winner": "landlord"}, "number": 2}).status_code == 409
    preview = server.post(path + "/preview", {"facts": {"landlord": 0, "winner": "landlord", "robs": 2}})
    assert preview.status_code == 200 and preview.json()["result"]["scores"] == [12, -4, -4]
    assert service.store.recorder.max_notification_id() == head  # nothing stored by any of them
    entered = server.post(path, {"facts": {"landlord": 0, "winner": "landlord", "robs": 2}})
    assert entered.status_code == 201 and entered.json()["match"]["chips"] == [22, 6, 6]
    assert server.get(f"/api/matches/{match['id']}").json()["status"] == "over"  # 22 chips: the table is won


def test_the_documented_result_only_record_checks():
    text = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = text[text.index("### Result-only records (score slips)"):]
    block = re.search(r"```json\n(.*?)\n```", section, re.S)
    assert block is not None
    assert check_record(json.loads(block.group(1))) == {"ok": True, "result": {"scores": [12, -4, -4]}}
