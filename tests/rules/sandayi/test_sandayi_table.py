"""快乐三打一 at a table, through the store and over HTTP: the demo table (fixtures/sandayi_table.py →
sandayi_s002.json) is recorded action by action to its end and ranked by the seed-002 format; a referee records a
deal over the real HTTP API, refusals carry the rule in Chinese and English and store nothing; a voided deal
(a second foul before the dealer is known, §1.10a.8) is redealt with the same first bidder."""

from __future__ import annotations

import random
from typing import Any

from game_support import HttpDeal, checked, documented_example, final_result, open_http_table, verified_standings

from domain.records.format import check_record
from domain.services.fupan import Fupan
from fixtures import demo_tables, load_demo
from fixtures.random_play.sandayi import random_record
from fixtures.sandayi_table import WANTED, features

PLAYERS = ["周立新", "钱美玲", "孙浩", "李雪梅"]


def test_the_documented_example_record_checks_with_its_stated_result():
    example = documented_example("快乐三打一")
    assert check_record(example) == {"ok": True, "result": {"scores": [24, -8, -8, -8]}}
    result = final_result(example)
    assert result["toulu"] and result["declared"] == ["tanda"]
    assert (result["stake"], result["multipliers"]["total"]) == (4, 2)  # §1.7 worked example 2


def demo_table() -> dict[str, Any]:
    (table,) = demo_tables("sandayi_s002.json")
    return table


def test_every_deal_of_the_demo_table_passes_check_and_shows_what_it_should():
    deals = demo_table()["deals"]
    assert len(deals) == 8  # sdy.earlyRoundDeals = 8 [S002]
    found: set[str] = set()
    for record in deals:
        found |= features(checked(record)[0])
    assert set(WANTED) <= found
    assert [record["first"] for record in deals] == [0, 1, 2, 3, 0, 1, 2, 3]  # the first bidder moves on (§1.1)
    assert sum(a["type"] == "foul" for record in deals for a in record["actions"]) == 1


def test_load_demo_records_the_table_to_its_end_and_ranks_it(service: Fupan):
    load_demo(service)
    (tournament,) = [t for t in service.tournaments.all() if t["game"] == "sandayi"]
    (match,) = service.tables.of_tournament(tournament["id"])
    table = demo_table()
    assert match["status"] == "over" and match["ended_by"] == "deals"
    totals = [sum(record["result"]["scores"][seat] for record in table["deals"]) for seat in range(4)]
    assert match["standing"]["scores"] == totals and match["standing"]["deals"] == 8
    for entry, record in zip(match["deals"], table["deals"], strict=True):
        assert service.deals.get(entry["deal_id"])["result"]["scores"] == record["result"]["scores"]
    (ranked,) = verified_standings(service, tournament["id"])["tables"]
    order = sorted(range(4), key=lambda seat: totals[seat], reverse=True)
    assert ranked["totals"] == totals
    assert ranked["advancing"] == [PLAYERS[seat] for seat in order[:2]]  # the top 2 advance [S000/S002]
    assert match["winner"] == order[0]


def test_a_referee_records_a_deal_over_http_and_refusals_store_nothing(server):
    tournament, match = open_http_table(server, "教工快乐三打一", "sandayi", PLAYERS, 0)
    assert tournament["format"] == "sandayi.s002"
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
    http = HttpDeal(server, deal)
    for action, code in refusals:
        http.refused(action, code)
    for action in record["actions"]:
        http.accepted(action)
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
        service: Fupan):
    tournament, _ = service.tournaments.create("作废局", "sandayi")
    for name in PLAYERS:
        service.tournaments.register_player(tournament["id"], name)
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS, first=2)
    deal, _ = service.deals.start(match=match["id"], seed="void-1")
    assert deal["first"] == 2
    service.deals.record(deal["id"], {"seat": 2, "type": "bid", "value": 1})
    for _ in range(2):
        service.deals.record(deal["id"], {"seat": 3, "type": "foul", "code": "gesture", "note": "手势暗示"})
    voided = service.deals.get(deal["id"])
    assert voided["finished"] and voided["result"]["redeal"] and voided["result"]["scores"] == [0, 0, 0, 0]
    table = service.tables.get(match["id"])
    assert table["standing"]["deals"] == 0 and table["standing"]["scores"] == [0, 0, 0, 0]
    again, _ = service.deals.start(match=match["id"], seed="void-2")
    assert again["first"] == 2  # redealt with the same first bidder
