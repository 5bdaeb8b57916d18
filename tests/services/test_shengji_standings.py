"""升级 in the projections: S004 大分 with the 小分 tiebreak and per-direction (E-W / N-S) pair standings, S001
levels with the table's 加赛, tables ended by the time cap — recorded through the service on both stores, read
over HTTP and through the projections."""

from __future__ import annotations

import random
from typing import Any

from conftest import LiveServer
from test_shengji_matches import play_next

from domain.services.fupan import Fupan
from projections import Projections

PLAYERS = ["赵一", "钱二", "孙三", "李四", "周五", "吴六", "郑七", "王八"]


def tournament_with_tables(service: Fupan, preset: str, tables: list[list[str]]) -> tuple[str, list[str]]:
    tournament, _ = service.tournaments.create(f"升级 {preset} 排名", "shengji", {"sj.preset": preset},
                                               format=f"shengji.{preset}")
    for name in sorted({p for seats in tables for p in seats}):
        service.tournaments.register_player(tournament["id"], name)
    matches = [service.tables.open(tournament["id"], str(n), seats)[0]["id"] for n, seats in enumerate(tables, 1)]
    return tournament["id"], matches


def team_totals(service: Fupan, match: str) -> dict[str, list[int]]:
    results = [d["result"] for d in service.deals.of_match(match) if not d["result"].get("redeal")]
    return {key: [sum(r[key][team] for r in results) for team in (0, 1)] for key in ("big_points", "small_points")}


def test_s004_ranks_by_big_points_then_small_points_and_each_direction_apart(server: LiveServer):
    service = server.service
    assert service is not None
    tables = [PLAYERS[:4], PLAYERS[4:]]
    tournament, matches = tournament_with_tables(service, "s004", tables)
    rng = random.Random(17)
    for match in matches:  # three deals at each table, then the chief referee calls time
        for _ in range(3):
            play_next(service, match, rng)
        service.tables.record_clock(match, 180, "时间到")
    standings = server.get(f"/api/tournaments/{tournament}/standings").json()
    assert [t["code"] for t in standings["tiebreaks"]] == ["small_points", "lots"]
    rows = {row["player_id"]: row for row in standings["rows"]}
    for match, seats in zip(matches, tables, strict=True):
        summed = team_totals(service, match)
        for seat, player in enumerate(seats):
            assert rows[player]["total"] == summed["big_points"][seat % 2]
            assert rows[player]["tiebreak_values"][0] == summed["small_points"][seat % 2]
    assert all(t["over"] and t["ended"]["time_up"] for t in standings["tables"])
    directions = {d["code"]: d for d in standings["directions"]}
    assert {code: d["seats"] for code, d in directions.items()} == {"ew": [0, 2], "ns": [1, 3]}
    for code, d in directions.items():
        pairs = d["rows"]
        assert sorted(p for pair in pairs for p in pair["player_ids"]) == sorted(
            seats[s] for seats in tables for s in d["seats"])
        keys = [(pair["total"], pair["tiebreak_values"][0]) for pair in pairs]
        assert keys == sorted(keys, reverse=True), code  # 大分, then 小分 (lots split what is left)
        assert [pair["rank"] for pair in pairs] == [1, 2] or keys[0] == keys[1]
        for pair in pairs:
            seats = tables[int(pair["table"]) - 1]
            assert sorted(pair["player_ids"]) == sorted(seats[s] for s in d["seats"])


def test_s001_a_table_tied_at_the_cap_is_ranked_by_its_extra_deal(service: Fupan):
    tournament, (match,) = tournament_with_tables(service, "s001", [PLAYERS[:4]])
    service.tables.record_clock(match, 60, "一小时到，两队同级")
    rng = random.Random(4)
    for _ in range(10):
        _, _, last = play_next(service, match, rng)
        if not last["result"].get("redeal"):
            break
    winner = last["result"]["winner_team"]
    standings = Projections(service).standings(tournament)
    assert [t["code"] for t in standings["tiebreaks"]] == ["extra_deal", "playoff", "lots"]
    (table,) = standings["tables"]
    winners = [PLAYERS[seat] for seat in (winner, winner + 2)]
    assert table["over"] and table["ended"]["by"] == "extra_deal" and sorted(table["advancing"]) == sorted(winners)
    rows = standings["rows"]
    assert {row["total"] for row in rows} == {2}  # the 加赛 moves no level of the match
    assert sorted(row["player_id"] for row in rows[:2]) == sorted(winners)
    assert [(row["status"], row["tiebreak_values"][0]) for row in rows] == [("advanced", 1)] * 2 + [
        ("eliminated", 0)] * 2
    explained = Projections(service).explain(tournament, winners[0])
    (deal,) = [d for d in explained["matches"][0]["deals"] if not d["result"].get("redeal")]
    assert deal["facts"]["extra_deal"] == 1 and deal["facts"]["level"] == 2


def test_a_drawn_table_is_over_and_the_format_still_ranks_it(service: Fupan):
    tournament, (match,) = tournament_with_tables(service, "s004", [PLAYERS[:4]])
    service.tables.record_clock(match, 181, "开赛即到时")
    projections = Projections(service)
    standings = projections.standings(tournament)
    (table,) = standings["tables"]
    assert table["over"] and table["ended"] == {**table["ended"], "winner": None, "winners": [], "by": "tie"}
    assert len(table["advancing"]) == 2 and {row["status"] for row in standings["rows"]} == {"advanced",
                                                                                           "eliminated"}
    assert projections.verify()["ok"]


def _directions_of(document: dict[str, Any]) -> list[str]:
    return [d["code"] for d in document.get("directions", [])]


def test_only_formats_with_directions_have_direction_standings(service: Fupan):
    s001, _ = tournament_with_tables(service, "s001", [PLAYERS[:4]])
    s004, _ = tournament_with_tables(service, "s004", [PLAYERS[4:]])
    projections = Projections(service)
    assert _directions_of(projections.standings(s001)) == []
    assert _directions_of(projections.standings(s004)) == ["ew", "ns"]
