"""竞技挖坑 records and the demo round: the example of docs/record-format.md checks as documented
(docs/rules/wakeng.md B10, vector W18), and the demo duplicate round (fixtures/wakeng_round.py → wakeng_s003.json)
is recorded action by action through the store, both tables playing the same boards, and ranked by matchpoints per
board and seat (B7, B11.8)."""

from __future__ import annotations

from fractions import Fraction

from game_support import checked, documented_example, final_result, verified_standings

from domain.records.format import check_record
from domain.services.fupan import Fupan
from fixtures import demo_tables, load_demo
from fixtures.wakeng_round import WANTED, features


def test_the_documented_example_record_checks_with_its_stated_result():
    example = documented_example("竞技挖坑")
    assert check_record(example) == {"ok": True, "result": {"scores": [12, -36, 24]}}
    result = final_result(example)
    assert result["stakes"] == [12, 0, 24] and not result["digger_won"]
    wrong_first = {**example, "first": 1}
    assert check_record(wrong_first)["code"] == "bad_setup"  # the lowest heart names the first bidder (B11.1)


def test_the_demo_round_plays_the_same_boards_at_both_tables():
    tables = demo_tables("wakeng_s003.json")
    assert len(tables) == 2
    found: set[str] = set()
    for one, other in zip(tables[0]["deals"], tables[1]["deals"], strict=True):
        assert one["context"] == other["context"] and (one["hands"], one["kitty"]) == (other["hands"], other["kitty"])
        for record in (one, other):
            found |= features(checked(record)[0])
    assert [d["context"]["board"] for d in tables[0]["deals"]] == [1, 2, 3, 4]
    assert found >= WANTED


def rate(mine: int, others: list[int]) -> Fraction:
    """B7: 2 per result beaten, 1 per tie, over 2 per comparison."""
    points = sum(2 if mine > other else 1 if mine == other else 0 for other in others)
    return Fraction(points, 2 * len(others))


def test_load_demo_records_the_round_and_ranks_it_by_duplicate_score_rate(service: Fupan):
    load_demo(service)
    (tournament,) = [t for t in service.tournaments.all() if t["game"] == "wakeng"]
    matches = service.tables.of_tournament(tournament["id"])
    tables = demo_tables("wakeng_s003.json")
    assert [m["status"] for m in matches] == ["over", "over"] and {m["ended_by"] for m in matches} == {"boards"}
    rates: dict[str, list[Fraction]] = {}
    for table, other in ((tables[0], tables[1]), (tables[1], tables[0])):
        for one, two in zip(table["deals"], other["deals"], strict=True):
            for seat, player in enumerate(table["seats"]):
                mine, theirs = one["result"]["scores"][seat], two["result"]["scores"][seat]
                rates.setdefault(player, []).append(rate(mine, [theirs]))
    rows = verified_standings(service, tournament["id"])["rows"]
    for row in rows:
        expected = sum(rates[row["player_id"]], Fraction(0)) / len(rates[row["player_id"]])
        assert row["total"] == round(float(expected), 4)
    totals = [row["total"] for row in rows]
    assert totals == sorted(totals, reverse=True)
