"""大怪路子 knockout tables through the store and over HTTP (docs/rules/daguai.md A8, A10.9–10): a `daguai` tournament,
six players at one table (seats 0, 2, 4 against 1, 3, 5), `dg.tableDeals` deals with the dealer moving one seat a
deal, then the end by points, by 跑头家 count or after a play-off deal. The standings (format daguai.s000) give
each player the team's total and its 跑头家 count. A refused action over HTTP is a 422 in both languages and
stores nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from game_support import HttpDeal, open_http_table, open_tournament, record_random_play, verified_standings

from domain.games.daguai.engine import DaguaiEngine
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.model.token import LOCAL
from domain.records.format import check_record, parse_record
from domain.services.fupan import Fupan
from fixtures.random_play.daguai import play_out

ENGINE = DaguaiEngine()
PLAYERS = ["甲一", "乙一", "甲二", "乙二", "甲三", "乙三"]


def record_deal(service: Fupan, deal_id: str, rng: random.Random) -> dict[str, Any]:
    """Random legal actions from `play_out` recorded through the service; the finished deal."""
    deal, state = record_random_play(service, deal_id, ENGINE, play_out, rng, foul_rate=0.01, timeout_rate=0.01)
    assert deal["result"]["team_points"] == ENGINE.result(state)["team_points"]
    return deal


def open_event(service: Fupan, deals: int = 4) -> str:
    tournament = open_tournament(service, "大怪路子团体赛", "daguai", PLAYERS, {"dg.tableDeals": deals})
    assert tournament["format"] in ("", "daguai.s000")
    return tournament["id"]


def test_a_four_deal_table_through_the_service_and_its_standings(service: Fupan):
    tournament = open_event(service)
    assert service.tournaments.get(tournament)["options"]["dg.tableDeals"] == 4
    table, _ = service.tables.open(tournament, "1", PLAYERS, first=2)
    points, heads = [0, 0], [0, 0]
    for number in range(1, 5):
        deal, created = service.deals.start(match=table["id"], seed=f"dg-{number}")
        assert created and deal["number"] == number
        assert deal["first"] == (2 + number - 1) % 6  # the dealer moves one seat a deal (A10.10)
        hands, kitty = deal_from_seed(f"dg-{number}", ENGINE, deal["first"])
        setup, _, _ = parse_record(service.records.export_record(deal["id"], LOCAL))
        assert setup.hands == hands and setup.kitty == kitty == [] and setup.first == deal["first"]
        finished = record_deal(service, deal["id"], random.Random(number))
        result = finished["result"]
        assert result["scores"] == [result["team_points"][s % 2] for s in range(6)]
        points = [p + t for p, t in zip(points, result["team_points"], strict=True)]
        heads[result["head_team"]] += 1
        exported = service.records.export_record(deal["id"])
        assert check_record(exported) == {"ok": True, "result": {"scores": result["scores"]}}
        match = service.tables.get(table["id"])
        assert match["standing"]["points"] == points and match["standing"]["first_finishes"] == heads
        assert match["standing"]["deals"] == number
    match = service.tables.get(table["id"])
    if points[0] != points[1]:
        winner, by = (0 if points[0] > points[1] else 1), "points"
    elif heads[0] != heads[1]:
        winner, by = (0 if heads[0] > heads[1] else 1), "first_finishes"
    else:
        winner, by = None, None
    if winner is None:
        assert match["status"] == "live" and match["standing"]["playoff"]
    else:
        assert (match["status"], match["ended_by"], match["winner"]) == ("over", by, winner)
        assert match["winners"] == [s for s in range(6) if s % 2 == winner]
        with pytest.raises(IllegalAction):
            service.deals.start(match=table["id"], seed="dg-5")  # the table is over after its deals
    document = verified_standings(service, tournament)
    assert document["format"] == "daguai.s000"
    rows = {row["player_id"]: row for row in document["rows"]}
    assert set(rows) == set(PLAYERS)
    for seat, player in enumerate(PLAYERS):
        assert rows[player]["total"] == points[seat % 2], rows[player]
        assert rows[player]["tiebreak_values"][0] == heads[seat % 2], rows[player]


def played_until(setup: DealSetup, wanted: str) -> list[dict[str, Any]]:
    """The actions of a random play of `setup` that ends as `wanted` ("team0" / "team1": that team's first
    finisher, no side fouling twice)."""
    for attempt in range(200):
        state = ENGINE.new_deal(setup)
        actions: list[dict[str, Any]] = []
        play_out(state, random.Random(attempt), actions)
        result = ENGINE.result(state)
        team = int(wanted[-1])
        if result["head_team"] == team and result["team_points"] == [3 if t == team else 0 for t in (0, 1)]:
            return actions
    raise AssertionError("no play found")


def test_a_tied_table_goes_to_a_play_off_won_by_its_first_finisher(service: Fupan):
    """D28 through the service: 3 + 1 against 1 + 3 points with two 头家 each → an extra deal; its first
    finisher's team advances."""
    tournament = open_event(service)
    table, _ = service.tables.open(tournament, "1", PLAYERS, first=0)
    wanted = ["team0", "team1", "team0", "team1", "team1"]
    for number, team in enumerate(wanted, start=1):
        deal, _ = service.deals.start(match=table["id"], seed=f"tie-{number}")
        setup, _, _ = parse_record(service.records.export_record(deal["id"], LOCAL))
        for action in played_until(setup, team):  # 抓1: 3 points to the 头家's team
            service.deals.record(deal["id"], action)
        match = service.tables.get(table["id"])
        if number < 4:
            assert match["status"] == "live"
    assert match["standing"]["points"] == [6, 9] and match["standing"]["first_finishes"] == [2, 3]
    assert (match["status"], match["ended_by"], match["winner"]) == ("over", "playoff", 1)
    rows = {row["player_id"]: row for row in verified_standings(service, tournament)["rows"]}
    for seat, player in enumerate(PLAYERS):  # the play-off deal counts in the totals, as the table counts it
        assert rows[player]["total"] == [6, 9][seat % 2] and rows[player]["tiebreak_values"][0] == [2, 3][seat % 2]
        assert rows[player]["status"] == ("advanced" if seat % 2 else "eliminated")


def test_a_refused_action_over_http_is_a_422_and_stores_nothing(server):
    tournament, match_id = open_http_table(server, "大怪HTTP", "daguai", PLAYERS, 3, {"dg.tableDeals": 6})
    assert tournament["options"]["dg.tableDeals"] == 6
    started = server.post(f"/api/matches/{match_id}/deals", {"seed": "http-1"})
    assert started.status_code == 201, started.text
    deal, first = started.json()["id"], started.json()["first"]
    assert first == 3
    hands, kitty = deal_from_seed("http-1", ENGINE, first)
    http = HttpDeal(server, deal)
    refused, accepted = http.refused, http.accepted
    refused({"seat": 3, "type": "pass"}, "must_lead")
    refused({"seat": 4, "type": "play", "cards": [hands[4][0]]}, "not_your_turn")
    absent = sorted(set(c for hand in hands for c in hand) - set(hands[3]))[0]
    refused({"seat": 3, "type": "play", "cards": [absent]}, "card_not_in_hand")
    refused({"seat": 3, "type": "play", "cards": hands[3][:4]}, "not_a_pattern")  # no 4-card plays
    refused({"seat": 3, "type": "foul", "code": "talking", "note": "说话", "penalty": 1}, "bad_action")
    state = ENGINE.new_deal(DealSetup("daguai", ENGINE.resolve_options({"dg.tableDeals": 6}), list(PLAYERS), first,
                                      hands, kitty, {}))
    rest: list[dict[str, Any]] = []
    play_out(state, random.Random(5), rest)
    assert rest[0]["seat"] == 3 and rest[0]["type"] == "play"
    accepted(rest[0])
    if len(rest[0]["cards"]) != 1:
        refused({"seat": 4, "type": "play", "cards": [hands[4][0]]}, "does_not_beat")  # another size
    refused({"seat": 4, "type": "bid", "value": 1}, "unknown_action")
    for action in rest[1:]:
        accepted(action)
    refused({"seat": 0, "type": "pass"}, "deal_finished")
    finished = server.get(f"/api/deals/{deal}").json()
    assert finished["result"]["scores"] == ENGINE.result(state)["scores"]
    standing = server.get(f"/api/matches/{match_id}").json()["standing"]
    assert standing["deals"] == 1 and standing["end"] is None
    assert standing["points"] == ENGINE.result(state)["team_points"]
