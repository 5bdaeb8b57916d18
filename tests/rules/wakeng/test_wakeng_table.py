"""竞技挖坑 duplicate tables through the store and over HTTP (docs/rules/wakeng.md B7, B11.8): two tables of a round
deal the same boards from the same seeds, the first bidder follows from the cards (the lowest heart), each table
ends by "boards" after `wk.tableDeals` deals, and the standings rank by 平均得分率 — matchpoints per (round, board,
seat), recomputed here from the recorded scores. W19 (+4, +4, −2, −6 in one seat) is played out at four tables.
A refused action over HTTP is a 422 in both languages and stores nothing."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from game_support import HttpDeal, open_http_table, open_tournament, record_random_play, verified_standings

from domain.games.wakeng.engine import WakengEngine
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.model.token import LOCAL
from domain.records.format import check_record, parse_record
from domain.services.fupan import Fupan
from fixtures.random_play.wakeng import play_out

ENGINE = WakengEngine()
PLAYERS = ["赵一", "钱二", "孙三", "李四", "周五", "吴六"]
ORDER = {r: n for n, r in enumerate(["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3"])}


def lowest_heart_seat(hands: list[list[str]]) -> int:
    return min((ORDER[c[1:]], seat) for seat, hand in enumerate(hands) for c in hand if c[0] == "H")[1]


def setup_of(service: Fupan, deal_id: str) -> tuple[DealSetup, dict[str, Any]]:
    record = service.records.export_record(deal_id, LOCAL)  # a live deal's hands: local (trusted) code only
    setup, _, _ = parse_record(record)
    return setup, record


def record_deal(service: Fupan, deal_id: str, rng: random.Random,
                prefix: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """`prefix`, then random legal actions from `play_out`, recorded through the service; the finished deal."""
    return record_random_play(service, deal_id, ENGINE, play_out, rng, prefix)[0]


def expected_rows(results: list[tuple[int, int, int, str, int, bool]]) -> dict[str, dict[str, Any]]:
    """(round, board, seat, player, raw score, won) → per player: rate (mean of MP / 2(N−1)), MP, raw, won (B7)."""
    groups: dict[tuple[int, int, int], list[int]] = {}
    for rnd, board, seat, _, score, _ in results:
        groups.setdefault((rnd, board, seat), []).append(score)
    out: dict[str, dict[str, Any]] = {}
    for rnd, board, seat, player, score, won in results:
        others = list(groups[rnd, board, seat])
        others.remove(score)
        mp = sum(2 if score > o else 1 if score == o else 0 for o in others)
        rate = Fraction(mp, 2 * len(others)) if others else Fraction(1, 2)
        row = out.setdefault(player, {"rates": [], "mp": 0, "raw": 0, "won": 0})
        row["rates"].append(rate)
        row["mp"] += mp
        row["raw"] += score
        row["won"] += int(won)
    for row in out.values():
        row["rate"] = sum(row["rates"], Fraction(0)) / len(row["rates"])
        row["key"] = (row["rate"], row["mp"], row["raw"], row["won"])
    return out


def plain(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def assert_ranked(document: dict[str, Any], expected: dict[str, dict[str, Any]]) -> None:
    rows = document["rows"]
    assert {row["player_id"] for row in rows} == set(expected)
    for row in rows:
        mine = expected[row["player_id"]]
        assert row["total"] == plain(mine["rate"]), row
        assert row["tiebreak_values"][:3] == [mine["mp"], mine["raw"], mine["won"]], row
    keys = [expected[row["player_id"]]["key"] for row in rows]
    assert keys == sorted(keys, reverse=True)  # 平均得分率, then MP, raw score, deals won (lots last)
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))  # lots part every tie
    for index in range(1, len(rows)):
        if keys[index] == keys[index - 1]:
            assert rows[index]["decided_by"] == "lots"


def open_event(service: Fupan, name: str, players: list[str], deals: int) -> str:
    tournament = open_tournament(service, name, "wakeng", players, {"wk.tableDeals": deals})
    assert tournament["format"] in ("", "wakeng.s003")
    return tournament["id"]


def test_two_tables_play_the_same_boards_and_rank_by_matchpoint_rates(service: Fupan):
    tournament = open_event(service, "挖坑复式赛", PLAYERS, 2)
    assert service.tournaments.get(tournament)["options"]["wk.tableDeals"] == 2
    tables = [service.tables.open(tournament, str(n + 1), PLAYERS[3 * n: 3 * n + 3], first=0)[0] for n in range(2)]
    results: list[tuple[int, int, int, str, int, bool]] = []
    for board in (1, 2):
        hands_at = []
        for number, table in enumerate(tables):
            deal, created = service.deals.start(match=table["id"], seed=f"r1-b{board}")
            assert created and deal["context"] == {"board": board} and deal["number"] == board
            setup, record = setup_of(service, deal["id"])
            hands_at.append((setup.hands, setup.kitty))
            assert deal["first"] == record["first"] == lowest_heart_seat(setup.hands)  # B4.1 / B11.1
            assert (setup.hands, setup.kitty) == tuple(deal_from_seed(f"r1-b{board}", ENGINE, 0))
            finished = record_deal(service, deal["id"], random.Random(f"{board}-{number}"))
            result = finished["result"]
            assert result["board"] == board
            exported = service.records.export_record(deal["id"])
            assert check_record(exported) == {"ok": True, "result": {"scores": result["scores"]}}
            for seat, player in enumerate(table["seats"]):
                won = bool(result["seat_facts"]["won"][seat])
                results.append((1, board, seat, player, result["scores"][seat], won))
        assert hands_at[0] == hands_at[1]  # the same board at both tables
    for table in tables:
        match = service.tables.get(table["id"])
        mine = [r for r in results if r[3] in table["seats"]]
        totals = [sum(r[4] for r in mine if r[2] == seat) for seat in range(3)]
        assert match["standing"]["scores"] == totals and match["standing"]["deals"] == 2
        assert (match["status"], match["ended_by"], match["winner"]) == ("over", "boards", None)
        assert [d["number"] for d in match["deals"]] == [1, 2]
        with pytest.raises(IllegalAction):
            service.deals.start(match=table["id"], seed="r1-b3")  # the table is over after its boards
    document = verified_standings(service, tournament)
    assert document["format"] == "wakeng.s003"
    assert_ranked(document, expected_rows(results))


def play_to(service: Fupan, deal_id: str, digger_bid: int, digger_wins: bool) -> dict[str, Any]:
    """Record the deal with seat 0 digging at `digger_bid` (the others pass, nobody shows or doubles) and winning
    or losing as asked: the play is random, from the first seed of play that ends as asked."""
    setup, _ = setup_of(service, deal_id)
    first = setup.first
    prefix = [{"seat": (first + n) % 3, "type": "pass"} for n in range(3)]
    for n in range(3):
        seat = (first + n) % 3
        prefix.append({"seat": seat, "type": "bid", "value": digger_bid} if seat == 0 else
                      {"seat": seat, "type": "pass"})
        if seat == 0 and digger_bid == 3:
            break
    prefix += [{"seat": 0, "type": "pass"}] + [{"seat": s, "type": "pass"} for s in (0, 1, 2)]
    for attempt in range(200):
        state = ENGINE.new_deal(setup)
        actions: list[dict[str, Any]] = []
        for action in prefix:
            ENGINE.apply(state, action)
        play_out(state, random.Random(attempt), actions)
        if (state.winner == 0) == digger_wins:
            return record_deal(service, deal_id, random.Random(attempt), prefix)
    raise AssertionError("no play found")


def test_w19_four_results_in_one_seat_rate_5_6_5_6_2_6_and_0(service: Fupan):
    players = [f"选手{n:02d}" for n in range(12)]
    tournament = open_event(service, "W19", players, 1)
    results = []
    # Seat 0 at four tables on board 1: digs at 2 and wins (+4) twice, digs at 1 and loses (−2), at 3 and loses (−6).
    for n, (bid, wins, score) in enumerate([(2, True, 4), (2, True, 4), (1, False, -2), (3, False, -6)]):
        table, _ = service.tables.open(tournament, str(n + 1), players[3 * n: 3 * n + 3], first=0)
        deal, _ = service.deals.start(match=table["id"], seed="w19")
        finished = play_to(service, deal["id"], bid, wins)
        assert finished["result"]["scores"][0] == score
        for seat, player in enumerate(table["seats"]):
            results.append((1, 1, seat, player, finished["result"]["scores"][seat],
                            bool(finished["result"]["seat_facts"]["won"][seat])))
        assert service.tables.get(table["id"])["ended_by"] == "boards"
    document = verified_standings(service, tournament)
    rows = {row["player_id"]: row for row in document["rows"]}
    assert [rows[players[3 * n]]["total"] for n in range(4)] == [0.8333, 0.8333, 0.3333, 0]  # 83.33 % … 0 %
    assert [rows[players[3 * n]]["tiebreak_values"][0] for n in range(4)] == [5, 5, 2, 0]
    assert_ranked(document, expected_rows(results))


def test_a_seed_deals_each_seat_the_same_cards_whatever_first_the_table_was_opened_with(service: Fupan):
    """B1 / B11.8: each seat gets the same cards at every table of the round. `first` means nothing to a 挖坑
    table (the cards name the first bidder), so a table opened with another `first` must not deal a seed's
    cards to other seats."""
    tournament = open_event(service, "同牌", PLAYERS, 1)
    dealt = []
    for number, first in enumerate((0, 2)):
        table, _ = service.tables.open(tournament, str(number + 1), PLAYERS[3 * number: 3 * number + 3], first=first)
        deal, _ = service.deals.start(match=table["id"], seed="r1-b1")
        setup, _ = setup_of(service, deal["id"])
        dealt.append((setup.hands, setup.kitty, deal["first"]))
    assert dealt[0] == dealt[1]


def test_a_board_is_dealt_once_for_its_round_and_a_different_deal_of_it_is_refused(service: Fupan):
    """Duplicate (B1, B11.8): every table of a round plays board k with the same cards in the same seats. A table
    whose board k would differ from one already dealt in the round is refused (nothing stored); giving neither
    hands nor seed deals the board's cards; another round's board k is another board."""
    tournament = open_event(service, "一副牌", PLAYERS, 1)
    first_table, _ = service.tables.open(tournament, "1", PLAYERS[:3], first=0)
    dealt, _ = service.deals.start(match=first_table["id"], seed="r1-b1")
    board = setup_of(service, dealt["id"])[0]
    second_table, _ = service.tables.open(tournament, "2", PLAYERS[3:], first=0)
    other_hands, other_kitty = deal_from_seed("another", ENGINE, 0)
    for different in ({"seed": "another"}, {"hands": other_hands, "kitty": other_kitty}):
        with pytest.raises(IllegalAction) as error:
            service.deals.start(match=second_table["id"], **different)
        assert error.value.code == "board_mismatch" and error.value.details["board"] == 1
        assert service.tables.get(second_table["id"])["deals"] == []
    twin, _ = service.deals.start(match=second_table["id"])  # neither: the board's cards
    assert (setup_of(service, twin["id"])[0].hands, twin["first"]) == (board.hands, dealt["first"])
    service.tournaments.start_round(tournament, "第2轮")
    later, _ = service.tables.open(tournament, "3", PLAYERS[:3], first=0)
    fresh, _ = service.deals.start(match=later["id"], seed="r2-b1")  # round 2's board 1: its own cards
    assert setup_of(service, fresh["id"])[0].hands != board.hands


def test_the_first_bidder_comes_from_the_cards_and_a_wrong_first_is_refused(service: Fupan):
    tournament = open_event(service, "首叫", PLAYERS[:3], 2)
    table, _ = service.tables.open(tournament, "1", PLAYERS[:3], first=2)
    hands, kitty = deal_from_seed("explicit", ENGINE, 0)
    right = lowest_heart_seat(hands)
    with pytest.raises(IllegalAction) as error:
        service.deals.start(match=table["id"], hands=hands, kitty=kitty, first=(right + 1) % 3)
    assert error.value.code == "bad_setup"
    assert service.tables.get(table["id"])["deals"] == []  # nothing stored
    deal, _ = service.deals.start(match=table["id"], hands=hands, kitty=kitty)  # no `first`: from the cards
    assert deal["first"] == right and deal["context"] == {"board": 1}
    seeded, _ = service.deals.start(key="stand-alone", game="wakeng", seats=PLAYERS[:3], seed="s", first=1)
    setup, _ = setup_of(service, seeded["id"])
    assert seeded["first"] == lowest_heart_seat(setup.hands)


def test_a_refused_action_over_http_is_a_422_and_stores_nothing(server):
    tournament, match_id = open_http_table(server, "挖坑HTTP", "wakeng", PLAYERS[:3], 0, {"wk.tableDeals": 2})
    assert tournament["format"] in ("", "wakeng.s003") and tournament["options"]["wk.tableDeals"] == 2
    started = server.post(f"/api/matches/{match_id}/deals", {"seed": "r1-b1"})
    assert started.status_code == 201, started.text
    deal, first = started.json()["id"], started.json()["first"]
    hands, kitty = deal_from_seed("r1-b1", ENGINE, 0)
    assert first == lowest_heart_seat(hands)
    second, third = (first + 1) % 3, (first + 2) % 3
    http = HttpDeal(server, deal)
    refused, accepted = http.refused, http.accepted
    refused({"seat": first, "type": "bid", "value": 1}, "wrong_phase")  # 明牌 decisions come first
    refused({"seat": second, "type": "pass"}, "not_your_turn")
    for seat in (first, second, third):
        accepted({"seat": seat, "type": "pass"})
    refused({"seat": first, "type": "play", "cards": [hands[first][0]]}, "wrong_phase")  # a play during bidding
    refused({"seat": first, "type": "bid", "value": 4}, "bad_bid")
    accepted({"seat": first, "type": "bid", "value": 2})
    refused({"seat": second, "type": "bid", "value": 2}, "bid_too_low")  # a bid not higher
    refused({"seat": second, "type": "bid", "value": 1}, "bid_too_low")
    refused({"seat": second, "type": "foul", "code": "smoking", "note": "吸烟", "penalty": 1}, "bad_action")
    accepted({"seat": second, "type": "pass"})
    accepted({"seat": third, "type": "pass"})
    refused({"seat": second, "type": "reveal"}, "not_your_turn")  # a defender's post-bid 明牌
    # The rest of the deal, from an engine state that followed the same actions.
    setup = DealSetup("wakeng", ENGINE.resolve_options({"wk.tableDeals": 2}), list(PLAYERS[:3]), first, hands, kitty,
                      {"board": 1})
    state = ENGINE.new_deal(setup)
    for action in [{"seat": s, "type": "pass"} for s in (first, second, third)] + [
            {"seat": first, "type": "bid", "value": 2}, {"seat": second, "type": "pass"},
            {"seat": third, "type": "pass"}]:
        ENGINE.apply(state, action)
    rest: list[dict[str, Any]] = []
    play_out(state, random.Random(3), rest)
    for action in rest:
        accepted(action)
    refused({"seat": 0, "type": "pass"}, "deal_finished")
    finished = server.get(f"/api/deals/{deal}").json()
    assert finished["result"]["scores"] == ENGINE.result(state)["scores"]
    standing = server.get(f"/api/matches/{match_id}").json()["standing"]
    assert standing["scores"] == finished["result"]["scores"] and standing["deals"] == 1 and standing["end"] is None
