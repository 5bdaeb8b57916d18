"""大怪路子 records and the demo table: the example of docs/record-format.md checks as documented, and the demo
team table (fixtures/daguai_table.py → daguai_s000.json) is recorded action by action through the store to its
end and ranked by team points, then 跑头家 deals (seed 000, docs/rules/daguai.md A6–A8)."""

from __future__ import annotations

from typing import Any

from game_support import checked, documented_example, final_result, verified_standings

from domain.records.format import check_record
from domain.services.fupan import Fupan
from fixtures import demo_tables, load_demo
from fixtures.daguai_table import WANTED, features


def test_the_documented_example_record_checks_with_its_stated_result():
    example = documented_example("大怪路子")
    assert check_record(example) == {"ok": True, "result": {"scores": [8, 0, 8, 0, 8, 0]}}
    result = final_result(example)
    assert result["finish_order"] == [2, 4, 0]
    assert (result["outcome"], result["k"], result["team_points"]) == ("catch", 3, [8, 0])  # A6 row 1


def demo_table() -> dict[str, Any]:
    (table,) = demo_tables("daguai_s000.json")
    return table


def test_every_deal_of_the_demo_table_passes_check_and_shows_what_it_should():
    deals = demo_table()["deals"]
    assert len(deals) == 4  # S000: 4 deals a round
    assert [record["first"] for record in deals] == [0, 1, 2, 3]  # 依次坐庄
    found: set[str] = set()
    for record in deals:
        state, _ = checked(record)
        found |= features(state, record)
    assert found >= WANTED


def test_load_demo_records_the_table_to_its_end_and_ranks_the_teams(service: Fupan):
    load_demo(service)
    (tournament,) = [t for t in service.tournaments.all() if t["game"] == "daguai"]
    (match,) = service.tables.of_tournament(tournament["id"])
    deals = demo_table()["deals"]
    points = [sum(record["result"]["scores"][team] for record in deals) for team in (0, 1)]
    assert match["status"] == "over" and match["standing"]["points"] == points
    winner = 0 if points[0] > points[1] else 1
    assert match["ended_by"] == "points" and match["winner"] == winner and match["winners"] == [winner, winner + 2,
                                                                                                  winner + 4]
    (table,) = verified_standings(service, tournament["id"])["tables"]
    seats = demo_table()["seats"]
    assert set(table["advancing"]) == {seats[s] for s in match["winners"]}  # the team advances together
