"""升级 matches end to end: levels and dealers carried from deal to deal, the first deal's 抢庄, the end by
level, the time cap from recorded clock readings and its tie rules — on SQLite and PostgreSQL, and over HTTP.

The deals are random legal deals (fixtures.random_play.shengji) played from the setup the match gave them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import LiveServer, Store

from domain.games import get_table
from domain.games.shengji.engine import ShengjiEngine
from domain.games.shengji.table import first_context, time_cap_outcome, totals
from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.model.token import LOCAL
from domain.services.fupan import Fupan
from fixtures.random_play.shengji import play_deal
from projections import Projections

ENGINE = ShengjiEngine()
RULES = get_table("shengji")
PLAYERS = ["东", "南", "西", "北"]
QUIET = {"foul_rate": 0.0, "timeout_rate": 0.0, "irregularity_rate": 0.0}


def open_match(service: Fupan, options: dict[str, Any], first: int = 0) -> dict[str, Any]:
    tournament, _ = service.tournaments.create(f"升级 {options}", "shengji", options)
    for name in PLAYERS:
        service.tournaments.register_player(tournament["id"], name)
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS, first=first)
    return match


def setup_of(record: dict[str, Any]) -> DealSetup:
    return DealSetup(record["game"], record["options"], record["seats"], record["first"], record["hands"],
                     record["kitty"], record["context"])


def play_next(service: Fupan, match_id: str, rng: random.Random,
              until: int | None = None) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Start the match's next deal (server-dealt) and record random legal actions for it: all, or the first
    `until`; the deal, its actions and the answer to the last one recorded."""
    deal, _ = service.deals.start(match=match_id, seed=f"{rng.getrandbits(64):x}")
    _, actions = play_deal(setup_of(service.records.export_record(deal["id"], LOCAL)), rng, **QUIET)
    last: dict[str, Any] = {}
    for action in actions[:until]:
        last = service.deals.record(deal["id"], action)
    return deal, actions, last


# --- the match rules, pure --------------------------------------------------------------------------------


def test_at_the_cap_equal_levels_go_to_big_then_small_points_then_a_draw_under_s004():
    s004 = ENGINE.resolve_options({"sj.preset": "s004"})
    start = RULES.start(s004, 4)

    def capped(levels: list[int], big: list[int], small: list[int]) -> dict[str, Any] | None:
        return RULES.time_up({**start, "levels": levels, "big_points": big, "small_points": small}, s004)["end"]

    assert capped([6, 5], [0, 8], [0, 90]) == {"winner": 0, "by": "level"}
    assert capped([5, 5], [4, 2], [0, 200]) == {"winner": 0, "by": "big_points"}
    assert capped([5, 5], [4, 4], [40, 85]) == {"winner": 1, "by": "small_points"}
    assert capped([5, 5], [4, 4], [85, 85]) == {"winner": None, "by": "tie"}


def test_s001_equal_levels_at_the_cap_play_the_extra_deal_which_alone_decides():
    s001 = ENGINE.resolve_options({"sj.preset": "s001"})
    standing = {**RULES.start(s001, 4), "levels": [4, 4], "next": {"levels": [4, 4], "dealer": 3, "deal_number": 6}}
    extra = RULES.time_up(standing, s001)
    assert extra["end"] is None and extra["extra_deal"] and RULES.context(extra) == first_context()
    assert RULES.time_up(extra, s001) == extra  # calling time again changes nothing
    assert RULES.after_deal(extra, s001, {"redeal": True, "scores": [0] * 4}) == extra  # dealt again
    decided = RULES.after_deal(extra, s001, {"winner_team": 1, "new_levels": [2, 5], "match_winner": None})
    assert decided["end"] == {"winner": 1, "by": "extra_deal"} and decided["levels"] == [4, 4]


def test_a_deal_that_wins_the_match_says_whether_by_the_goal_or_by_a_revoke():
    deal = {"levels": [4, 4], "next_dealer": 1, "big_points": [0, 2], "small_points": [0, 35]}
    s001 = ENGINE.resolve_options({"sj.preset": "s001", "sj.revokeEndsMatch": True})
    standing = {**RULES.start(s001, 4), "levels": [4, 4], "next": {"levels": [4, 4], "dealer": 0, "deal_number": 3}}
    goal = {**deal, "new_levels": [4, 5], "level_change": {"team": 1, "steps": 1}, "match_winner": 1}
    after = RULES.after_deal(standing, s001, goal)
    assert after["end"] == {"winner": 1, "by": "goal"} and after["next"] == {"levels": [4, 5], "dealer": 1,
                                                                             "deal_number": 4}
    # S004: a dealer-team revoke hands the deal to the attackers at +0; with sj.revokeEndsMatch it ends the match.
    s004 = ENGINE.resolve_options({"sj.preset": "s004", "sj.revokeEndsMatch": True})
    revoke = {**deal, "new_levels": [4, 4], "level_change": {"team": 1, "steps": 0}, "match_winner": 1}
    assert RULES.after_deal(standing, s004, revoke)["end"] == {"winner": 1, "by": "revoke"}


# --- recorded through the service, on both stores -----------------------------------------------------------


def test_an_s001_match_carries_levels_and_dealers_until_a_team_reaches_five(service: Fupan,
                                                                            store: Store):
    match = open_match(service, {"sj.preset": "s001"}, first=2)
    rng = random.Random(8)
    previous: dict[str, Any] | None = None
    context = first_context()
    for _ in range(30):
        deal, _, last = play_next(service, match["id"], rng)
        assert last["finished"]
        assert deal["context"] == context  # the match set it: the previous deal's levels and next dealer
        assert deal["first"] == (2 if context["dealer"] is None else context["dealer"])
        result = last["result"]
        if not result.get("redeal"):
            assert result["levels"] == context["levels"]
            context = {"levels": result["new_levels"], "dealer": result["next_dealer"],
                       "deal_number": context["deal_number"] + 1}
            previous = result
        if last["match"]["status"] == "over":
            break
    assert previous is not None
    m = service.tables.get(match["id"])
    winner = previous["match_winner"]
    assert (m["status"], m["winner"], m["ended_by"]) == ("over", winner, "goal")
    assert m["winners"] == [winner, winner + 2] and m["standing"]["levels"] == previous["new_levels"]
    assert m["standing"]["levels"][winner] >= 5 and m["next_context"] is None
    assert [d["standing"]["levels"] for d in m["deals"]][-1] == previous["new_levels"]
    assert m["start_chips"] is None and m["chips"] is None
    for refused in (lambda: service.deals.start(match=match["id"], seed="one more"),
                    lambda: service.tables.record_clock(match["id"], 59)):
        with pytest.raises(IllegalAction) as over:
            refused()
        assert over.value.code == "match_over"
    ended = [topic for _, _, topic in store.stored_events() if topic == "fupan:Match.Ended"]
    assert ended == ["fupan:Match.Ended"]


def test_time_called_between_deals_ends_an_s004_match_at_the_cap(service: Fupan):
    match = open_match(service, {"sj.preset": "s004"})
    rng = random.Random(21)
    for _ in range(2):
        play_next(service, match["id"], rng)
    m = service.tables.record_clock(match["id"], 95, "第二局结束")
    assert (m["status"], m["time_up"], m["time_limit"]) == ("live", False, 180)
    with pytest.raises(IllegalAction) as backwards:
        service.tables.record_clock(match["id"], 90)
    assert backwards.value.code == "clock_backwards"
    standing = m["standing"]
    m = service.tables.record_clock(match["id"], 180, "时间到")
    expected = time_cap_outcome(standing["levels"], standing, m["options"])
    assert m["status"] == "over" and m["time_up"] and m["ended_by"] == expected["by"]
    assert m["winner"] == expected["winner"]
    assert [(r["minutes"], r["time_up"], r["after_deal"]) for r in m["clock"]] == [(95, False, 2), (180, True, 2)]
    with pytest.raises(IllegalAction) as over:
        service.deals.start(match=match["id"], seed="after the cap")
    assert over.value.code == "match_over"


def test_time_called_during_a_deal_ends_the_match_after_that_deal(service: Fupan):
    match = open_match(service, {"sj.preset": "s004"})
    rng = random.Random(5)
    deal, actions, _ = play_next(service, match["id"], rng, until=30)
    m = service.tables.record_clock(match["id"], 181)
    assert m["status"] == "live" and m["time_up"] and m["current_deal"] == deal["id"]
    for action in actions[30:]:
        last = service.deals.record(deal["id"], action)
    result = last["result"]
    m = service.tables.get(match["id"])
    if result.get("redeal"):  # nothing was counted: the cap compares the start, equal on everything
        assert (m["status"], m["winner"], m["ended_by"]) == ("over", None, "tie")
    else:
        expected = time_cap_outcome(result["new_levels"], m["standing"], m["options"])
        assert (m["status"], m["winner"], m["ended_by"]) == ("over", expected["winner"], expected["by"])


def test_s004_time_called_before_anything_counted_is_a_drawn_match(service: Fupan):
    match = open_match(service, {"sj.preset": "s004"})
    m = service.tables.record_clock(match["id"], 200, "开赛延误，裁判宣布时间到")
    assert (m["status"], m["winner"], m["winners"], m["ended_by"]) == ("over", None, [], "tie")


def test_s001_equal_levels_at_the_cap_are_decided_by_one_extra_deal_from_scratch(service: Fupan):
    match = open_match(service, {"sj.preset": "s001"}, first=1)
    m = service.tables.record_clock(match["id"], 60)
    assert m["status"] == "live" and m["standing"]["extra_deal"] and m["next_context"] == first_context()
    rng = random.Random(3)
    for _ in range(10):  # a 加赛 nobody declares in is dealt again
        deal, _, last = play_next(service, match["id"], rng)
        assert deal["context"] == first_context() and deal["first"] == 1
        if not last["result"].get("redeal"):
            break
    m = service.tables.get(match["id"])
    assert (m["status"], m["ended_by"], m["winner"]) == ("over", "extra_deal", last["result"]["winner_team"])
    assert m["standing"]["levels"] == [2, 2]  # the 加赛 only decides; it moves no level


def test_a_match_deal_takes_its_context_from_the_match(service: Fupan):
    match = open_match(service, {"sj.preset": "s004"})
    with pytest.raises(IllegalAction) as wrong:
        service.deals.start(match=match["id"], seed="x", context={"levels": [5, 5], "dealer": 0, "deal_number": 4})
    assert wrong.value.code == "context_from_match"
    deal, _ = service.deals.start(match=match["id"], seed="x", context=first_context())
    assert deal["context"] == first_context()


def test_a_closed_shengji_match_keeps_its_levels_and_names_no_winner(service: Fupan):
    match = open_match(service, {"sj.preset": "s001"})
    play_next(service, match["id"], random.Random(5))
    levels = service.tables.get(match["id"])["standing"]["levels"]
    closed = service.tables.close(match["id"], "场地到时，组委会决定结束本桌")
    assert (closed["status"], closed["ended_by"], closed["winners"]) == ("over", "closed", [])
    assert closed["standing"]["levels"] == levels and closed["next_context"] is None
    with pytest.raises(IllegalAction) as over:
        service.tables.record_clock(match["id"], 10)
    assert over.value.code == "match_over"
    standings = Projections(service).standings(match["tournament_id"])
    (table,) = standings["tables"]
    assert table["over"] and table["ended"]["by"] == "closed" and table["ended"]["winners"] == []


def test_a_chip_table_records_clock_readings_and_has_no_time_cap(service: Fupan):
    tournament, _ = service.tournaments.create("斗地主", "doudizhu")
    for name in PLAYERS[:3]:
        service.tournaments.register_player(tournament["id"], name)
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS[:3])
    m = service.tables.record_clock(match["id"], 600, "四小时")
    assert (m["status"], m["time_limit"], m["time_up"], m["standing"]) == (
        "live", None, False, {"chips": [10, 10, 10], "end": None})


# --- over HTTP ----------------------------------------------------------------------------------------------


def http_match(server: LiveServer, options: dict[str, Any]) -> str:
    tournament = server.post("/api/tournaments", {"name": f"升级杯 {options}", "game": "shengji",
                                                  "options": options}).json()["id"]
    for name in PLAYERS:
        assert server.post(f"/api/tournaments/{tournament}/players", {"name": name}).status_code == 201
    response = server.post(f"/api/tournaments/{tournament}/matches", {"table": "1", "seats": PLAYERS})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def http_deal(server: LiveServer, match: str, rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    started = server.post(f"/api/matches/{match}/deals", {"seed": f"{rng.getrandbits(64):x}"})
    assert started.status_code == 201, started.text
    deal = started.json()
    record = server.get(f"/api/deals/{deal['id']}/record", token=server.organiser).json()
    return deal, play_deal(setup_of(record), rng, **QUIET)[1]


def test_a_whole_s004_match_recorded_over_http_to_its_winner(server: LiveServer):
    match = http_match(server, {"sj.preset": "s004"})
    rng = random.Random(6)  # a seed whose match is decided in 8 deals (672 actions)
    levels = [2, 2]
    for number in range(1, 40):
        deal, actions = http_deal(server, match, rng)
        assert deal["number"] == number and deal["context"]["levels"] == levels
        for action in actions:
            response = server.post(f"/api/deals/{deal['id']}/actions", {"action": action})
            assert response.status_code == 201, response.text
        answer = response.json()
        levels = answer["match"]["standing"]["levels"]
        if not answer["result"].get("redeal"):
            assert levels == answer["result"]["new_levels"]
        if answer["match"]["status"] == "over":
            break
    m = server.get(f"/api/matches/{match}").json()
    winner = m["winner"]
    assert m["status"] == "over" and m["ended_by"] == "goal" and m["winners"] == [winner, winner + 2]
    assert m["standing"]["levels"][winner] >= 11  # passed 10 (S004 "通过10")
    results = [deal["result"] for deal in server.get(f"/api/matches/{match}/deals").json()]
    assert {key: m["standing"][key] for key in ("big_points", "small_points")} == totals(results)
    refused = server.post(f"/api/matches/{match}/deals", {"seed": "one more"})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "match_over"


def test_the_clock_over_http_ends_a_match_at_the_cap(server: LiveServer):
    match = http_match(server, {"sj.preset": "s004", "sj.timeLimitMinutes": 120})
    assert server.post(f"/api/matches/{match}/clock", {"minutes": -1}).status_code == 400
    assert server.post(f"/api/matches/{match}/clock", {"minutes": 30}, anonymous=True).status_code == 401
    deal, actions = http_deal(server, match, random.Random(11))
    for action in actions:
        assert server.post(f"/api/deals/{deal['id']}/actions", {"action": action}).status_code == 201
    response = server.post(f"/api/matches/{match}/clock", {"minutes": 45, "note": "第一局结束"})
    assert response.status_code == 201 and response.json()["status"] == "live"
    backwards = server.post(f"/api/matches/{match}/clock", {"minutes": 40})
    assert backwards.status_code == 422 and backwards.json()["error"]["code"] == "clock_backwards"
    ended = server.post(f"/api/matches/{match}/clock", {"minutes": 120, "note": "时间到"}).json()
    assert ended["status"] == "over" and ended["time_up"] and ended["ended_by"] in ("level", "big_points",
                                                                                    "small_points", "tie")
    assert server.get(f"/api/matches/{match}").json()["clock"][-1] == {"minutes": 120, "note": "时间到",
                                                                      "time_up": True, "after_deal": 1}


def test_a_side_that_misdeals_more_than_three_times_is_disqualified(service: Fupan):
    """S004 13 / docs/rules/shengji.md §3.13: a wrong number of cards found while dealing is dealt again with the
    same context; a side with more than three such errors is disqualified (the other side wins the match)."""
    match = open_match(service, {"sj.preset": "s004"})
    rng = random.Random(11)
    play_next(service, match["id"], rng)
    before = service.tables.get(match["id"])
    for n in (1, 2, 3):
        m = service.tables.record_misdeal(match["id"], 1, f"第 {n} 次少发一张")
        assert (m["status"], m["standing"]["misdeals"]) == ("live", [0, n])
        assert m["next_context"] == before["next_context"] and m["standing"]["levels"] == before["standing"]["levels"]
    assert service.tables.record_misdeal(match["id"], 2)["standing"]["misdeals"] == [1, 3]  # each side counts its own
    listed = service.tables.get(match["id"])["misdeals"]
    assert [(x["seat"], x["before_deal"]) for x in listed] == [(1, 2)] * 3 + [(2, 2)]
    for seat in (4, -1, True):
        with pytest.raises(IllegalAction) as bad:
            service.tables.record_misdeal(match["id"], seat)  # type: ignore[arg-type]
        assert bad.value.code == "bad_seat"

    deal, actions, _ = play_next(service, match["id"], rng, until=2)
    with pytest.raises(IllegalAction) as live:
        service.tables.record_misdeal(match["id"], 3)
    assert live.value.code == "deal_in_progress"  # a misdeal is found while dealing, before the deal is recorded
    for action in actions[2:]:
        service.deals.record(deal["id"], action)
    assert service.tables.get(match["id"])["status"] == "live"

    out = service.tables.record_misdeal(match["id"], 3, "第四次发牌错误")  # seat 3: team 1 again, its fourth
    assert (out["status"], out["winner"], out["winners"], out["ended_by"]) == ("over", 0, [0, 2], "misdeals")
    for attempt in (lambda: service.tables.record_misdeal(match["id"], 0),
                    lambda: service.deals.start(match=match["id"])):
        with pytest.raises(IllegalAction) as over:
            attempt()
        assert over.value.code == "match_over"
    standings = Projections(service).standings(match["tournament_id"])
    (table,) = standings["tables"]
    assert table["over"] and table["ended"]["by"] == "misdeals" and table["ended"]["winners"] == [0, 2]


def test_misdeals_over_http_and_on_the_match_page(server: LiveServer):
    match = http_match(server, {"sj.preset": "s004"})
    for body, status in (({"seat": "1"}, 400), ({}, 400), ({"seat": 7}, 422)):
        assert server.post(f"/api/matches/{match}/misdeals", body).status_code == status
    recorded = server.post(f"/api/matches/{match}/misdeals", {"seat": 1, "note": "少发一张"})
    assert recorded.status_code == 201 and recorded.json()["misdeals"] == [{"seat": 1, "note": "少发一张",
                                                                          "before_deal": 1}]
    page = server.get(f"/matches/{match}").text
    assert "第 1 局发牌数目错误（南 发牌），重新发牌" in page and "少发一张" in page


def test_a_seats_replay_shows_another_seats_bury_by_its_size_even_once_published(service: Fupan):
    match = open_match(service, {"sj.preset": "s004"})
    deal, _, last = play_next(service, match["id"], random.Random(2))
    assert last["finished"] and not last["result"].get("redeal")
    dealer = last["result"]["dealer"]

    def bury_action(viewpoint: str) -> dict[str, Any]:
        frames = service.deals.replay_all(deal["id"], viewpoint)["frames"]
        return next(f["action"] for f in frames if f["action"] and f["action"]["type"] == "bury")

    assert len(bury_action(f"seat:{dealer}")["cards"]) == 8 == len(bury_action("referee")["cards"])
    assert bury_action(f"seat:{(dealer + 1) % 4}") == {"seat": dealer, "type": "bury", "count": 8}
    assert len(bury_action("public")["cards"]) == 8  # the public view of a published deal is the whole record
