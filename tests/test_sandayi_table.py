"""快乐三打一 at a table, through the store and over HTTP: the demo table (fixtures/sandayi_table.py →
sandayi_s002.json) is recorded action by action to its end and ranked by the seed-002 format; a referee records a
deal over the real HTTP API, refusals carry the rule in Chinese and English and store nothing; a voided deal
(a second foul before the dealer is known, §1.10a.8) is redealt with the same first bidder."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from test_api_http import assert_error, event_count

from domain.application import FupanApplication
from domain.games.sandayi.engine import SandayiEngine
from domain.games.sandayi.random_play import random_record
from domain.record import check_record, fold, parse_record
from fixtures import HERE, load_demo
from fixtures.sandayi_table import WANTED, features
from projections import Projections

PLAYERS = ["周立新", "钱美玲", "孙浩", "李雪梅"]
ENGINE = SandayiEngine()
DOCS = Path(__file__).resolve().parent.parent / "docs" / "record-format.md"


def test_the_documented_example_record_checks_with_its_stated_result():
    section = DOCS.read_text(encoding="utf-8").split("## 快乐三打一")[1]
    block = re.search(r"```json\n(\{.*?\})\n```", section, re.S)
    assert block, "docs/record-format.md has a complete 三打一 example"
    example = json.loads(block.group(1))
    assert check_record(example) == {"ok": True, "result": {"scores": [24, -8, -8, -8]}}
    setup, actions, _ = parse_record(example)
    result = ENGINE.result(fold(setup, actions)[1])
    assert result is not None and result["toulu"] and result["declared"] == ["tanda"]
    assert (result["stake"], result["multipliers"]["total"]) == (4, 2)  # §1.7 worked example 2


def demo_table() -> dict[str, Any]:
    document = json.loads((HERE / "sandayi_s002.json").read_text(encoding="utf-8"))
    (stage,) = document["rounds"]
    (table,) = stage["tables"]
    return table


def test_every_deal_of_the_demo_table_passes_check_and_shows_what_it_should():
    deals = demo_table()["deals"]
    assert len(deals) == 8  # sdy.earlyRoundDeals = 8 [S002]
    found: set[str] = set()
    for record in deals:
        checked = check_record(record)
        assert checked["ok"] and checked["result"]["scores"] == record["result"]["scores"]
        setup, actions, _ = parse_record(record)
        found |= features(fold(setup, actions)[1])
    assert set(WANTED) <= found
    assert [record["first"] for record in deals] == [0, 1, 2, 3, 0, 1, 2, 3]  # the first bidder moves on (§1.1)
    assert sum(a["type"] == "foul" for record in deals for a in record["actions"]) == 1


def test_load_demo_records_the_table_to_its_end_and_ranks_it(service: FupanApplication):
    load_demo(service)
    (tournament,) = [t for t in service.list_tournaments() if t["game"] == "sandayi"]
    (match,) = service.list_matches(tournament["id"])
    table = demo_table()
    assert match["status"] == "over" and match["ended_by"] == "deals"
    totals = [sum(record["result"]["scores"][seat] for record in table["deals"]) for seat in range(4)]
    assert match["standing"]["scores"] == totals and match["standing"]["deals"] == 8
    for entry, record in zip(match["deals"], table["deals"], strict=True):
        assert service.get_deal(entry["deal_id"])["result"]["scores"] == record["result"]["scores"]
    projections = Projections(service)
    try:
        standings = projections.standings(tournament["id"])
        assert projections.verify()["ok"]
    finally:
        projections.close()
    (ranked,) = standings["tables"]
    order = sorted(range(4), key=lambda seat: totals[seat], reverse=True)
    assert ranked["totals"] == totals
    assert ranked["advancing"] == [PLAYERS[seat] for seat in order[:2]]  # the top 2 advance [S000/S002]
    assert match["winner"] == order[0]


def open_sandayi_table(server: Any) -> str:
    created = server.post("/api/tournaments", {"name": "教工快乐三打一", "game": "sandayi"})
    assert created.status_code == 201, created.text
    tournament = created.json()["id"]
    assert created.json()["format"] == "sandayi.s002"
    for name in PLAYERS:
        assert server.post(f"/api/tournaments/{tournament}/players", {"name": name}).status_code == 201
    match = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS, "first": 0})
    assert match.status_code == 201, match.text
    return match.json()["id"]


def test_a_referee_records_a_deal_over_http_and_refusals_store_nothing(server):
    match = open_sandayi_table(server)
    record = random_record(random.Random(7), first=0, foul_rate=0, timeout_rate=0)
    started = server.post(f"/api/matches/{match}/deals", {"hands": record["hands"], "kitty": record["kitty"],
                                                           "first": 0})
    assert started.status_code == 201, started.text
    deal = started.json()["id"]
    refusals = [
        ({"seat": 0, "type": "pass"}, "must_bid"),  # 最少叫1分
        ({"seat": 1, "type": "bid", "value": 1}, "not_your_turn"),
        ({"seat": 0, "type": "bid", "value": 4}, "bad_bid"),
        ({"seat": 0, "type": "declare", "kind": "tanda"}, "declare_not_allowed"),
        ({"seat": 0, "type": "foul", "code": "talking", "note": "说话", "penalty": 2}, "bad_action"),
    ]
    for action, code in refusals:
        count = event_count(server, deal)
        error = assert_error(server.post(f"/api/deals/{deal}/actions", {"action": action}), 422, code)
        assert event_count(server, deal) == count
        assert any("\u4e00" <= ch <= "\u9fff" for ch in error["message_zh"])
    for action in record["actions"]:
        response = server.post(f"/api/deals/{deal}/actions", {"action": action})
        assert response.status_code == 201, (action, response.text)
    finished = server.get(f"/api/deals/{deal}").json()
    assert finished["result"]["scores"] == record["result"]["scores"]
    state = server.get(f"/api/matches/{match}").json()
    assert state["standing"]["scores"] == record["result"]["scores"] and state["standing"]["deals"] == 1
    exported = server.get(f"/api/deals/{deal}/record").json()
    assert check_record(exported)["ok"] and exported["game"] == "sandayi"
    # Deal 2's first bidder is the next seat (§1.1).
    second = server.post(f"/api/matches/{match}/deals", {"seed": "第二局"}).json()
    assert second["first"] == 1


def test_a_second_foul_before_the_dealer_is_known_voids_the_deal_and_keeps_the_first_bidder(
        service: FupanApplication):
    tournament, _ = service.create_tournament("作废局", "sandayi")
    for name in PLAYERS:
        service.register_player(tournament["id"], name)
    match, _ = service.create_match(tournament["id"], "1", PLAYERS, first=2)
    deal, _ = service.start_deal(match=match["id"], seed="void-1")
    assert deal["first"] == 2
    service.record_action(deal["id"], {"seat": 2, "type": "bid", "value": 1})
    for _ in range(2):
        service.record_action(deal["id"], {"seat": 3, "type": "foul", "code": "gesture", "note": "手势暗示"})
    voided = service.get_deal(deal["id"])
    assert voided["finished"] and voided["result"]["redeal"] and voided["result"]["scores"] == [0, 0, 0, 0]
    table = service.get_match(match["id"])
    assert table["standing"]["deals"] == 0 and table["standing"]["scores"] == [0, 0, 0, 0]
    again, _ = service.start_deal(match=match["id"], seed="void-2")
    assert again["first"] == 2  # redealt with the same first bidder
