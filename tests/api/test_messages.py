"""What a refusal says, as people read it, over real HTTP (the app on a real SQLite file): cards as ♠A ♥10, seats
by their players' names (the `details` and every record keep 0-based seats), marshmallow's field messages in both
languages, never a Python repr (issue 15, defect 9 and 6; issue 23, defects 10 and 14)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, move
from game_support import open_http_table

from domain.games import get_engine
from domain.kernel.errors import Refusal
from domain.kernel.field_errors import in_chinese, shape_refusal
from domain.model.token import LOCAL
from domain.records.format import parse_record
from fixtures.random_play import doudizhu as doudizhu_play
from fixtures.random_play import shengji as shengji_play
from fixtures.random_play.common import played

REPR = re.compile(r"\[['\"]|\{['\"]|['\"]\]")  # a Python list or dict printed into a message


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(Path(tmp_path_factory.mktemp("messages")) / "messages.sqlite").start()
    yield server
    server.stop()


def refused(response: Any, status: int, code: str, printed: re.Pattern[str] = REPR) -> dict[str, Any]:
    """The refusal, checked to print no Python value (`printed`) in either language."""
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    assert not printed.search(error["message"]) and not printed.search(error["message_zh"]), error
    return error


def started(live: LiveServer) -> str:
    record = EXAMPLE_RECORD
    response = live.post("/api/deals", {"game": "doudizhu", "seats": record["seats"], "first": record["first"],
                                        "hands": record["hands"], "kitty": record["kitty"]})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_a_refused_play_names_its_cards_and_the_seats_of_a_lone_deal_by_their_labels(live: LiveServer) -> None:
    deal = started(live)
    for action in EXAMPLE_RECORD["actions"][:4]:  # 王五 (seat 2) is landlord and leads a straight
        assert live.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    error = refused(live.post(f"/api/deals/{deal}/actions", {"action": move(0, "play", "D3 C3")}), 422,
                    "does_not_beat")
    assert error["message_zh"].startswith("♦3 ♣3 管不上上一手牌") and error["message"].startswith("♦3 ♣3 does not")
    assert error["details"]["cards"] == ["D3", "C3"]
    error = refused(live.post(f"/api/deals/{deal}/actions", {"action": move(2, "pass")}), 422, "not_your_turn")
    # Seat 0 (张三) is to act, seat 2 (王五) asked: a deal outside any match names them by its seat labels; the
    # details keep the record's numbers.
    assert "现在轮到张三，不是王五" in error["message_zh"] and "张三's turn, not 王五's" in error["message"]
    assert (error["details"]["to_act"], error["details"]["seat"]) == (0, 2)


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[SHCD](?:10|[2-9JQKA])|LJ|BJ)(?![A-Za-z0-9])")
SEAT_NUMBER = re.compile(r"座位|[Ss]eat \d|\d")  # neither the word nor any digit: names only


def out_of_turn(live: LiveServer, deal: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Record `actions` up to and with the first play, then a play by the seat after the one to act: the
    refusal."""
    lead = next(index for index, action in enumerate(actions) if action["type"] == "play")
    for action in actions[:lead + 1]:
        assert live.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201, action
    to_act = actions[lead + 1]["seat"]
    wrong = {**actions[lead + 1], "seat": (to_act + 1) % len(live.service.deals.get(deal)["seats"])}
    error = refused(live.post(f"/api/deals/{deal}/actions", {"action": wrong}), 422, "not_your_turn")
    assert (error["details"]["to_act"], error["details"]["seat"]) == (to_act, wrong["seat"])  # 0-based: contract
    assert not SEAT_NUMBER.search(error["message_zh"]) and not SEAT_NUMBER.search(error["message"]), error
    return error


def table_deal(live: LiveServer, name: str, game: str, players: list[str]) -> tuple[str, Any]:
    """A server-dealt deal at table 1 of a new tournament, and its setup as the referee holds it."""
    _, match = open_http_table(live, name, game, players, 0)
    created = live.post(f"/api/matches/{match}/deals", {})
    assert created.status_code == 201, created.text
    deal = created.json()["id"]
    setup, _, _ = parse_record(live.service.records.export_record(deal, LOCAL))
    return deal, setup


def test_a_wrong_turn_at_a_doudizhu_table_names_the_players(live: LiveServer) -> None:
    players = ["张伟", "李娜", "王芳"]
    deal, setup = table_deal(live, "名字·斗地主", "doudizhu", players)
    _, actions = played(get_engine("doudizhu"), setup, doudizhu_play.play_out, random.Random("names"))
    error = out_of_turn(live, deal, actions)
    to_act, asked = (players[error["details"][key]] for key in ("to_act", "seat"))
    assert error["message_zh"] == f"现在轮到{to_act}，不是{asked}。"
    assert error["message"] == f"It is {to_act}'s turn, not {asked}'s."


def test_a_wrong_turn_at_a_shengji_table_names_the_players_with_their_seats(live: LiveServer) -> None:
    players = ["张伟", "李娜", "王芳", "刘洋"]
    deal, setup = table_deal(live, "名字·升级", "shengji", players)
    _, actions = shengji_play.play_deal(setup, random.Random("names"), foul_rate=0, timeout_rate=0,
                                        irregularity_rate=0)
    error = out_of_turn(live, deal, actions)
    zh, en = ("东", "南", "西", "北"), ("E", "S", "W", "N")
    to_act, asked = (error["details"][key] for key in ("to_act", "seat"))
    assert error["message_zh"] == f"现在轮到{players[to_act]}（{zh[to_act]}），不是{players[asked]}（{zh[asked]}）。"
    assert error["message"] == f"It is {players[to_act]} ({en[to_act]})'s turn, not {players[asked]} ({en[asked]})'s."
    assert not CARD_CODE.search(error["message"] + error["message_zh"])


def test_a_body_of_the_wrong_shape_says_which_field_and_why_in_both_languages(live: LiveServer) -> None:
    record = EXAMPLE_RECORD
    error = refused(live.post("/api/deals", {"game": "doudizhu", "seats": record["seats"], "first": "二",
                                             "hands": record["hands"], "kitty": record["kitty"], "colour": 1}),
                    400, "invalid_body")
    assert "first: Not a valid integer." in error["message"] and "colour: Unknown field." in error["message"]
    assert "first：不是有效的整数。" in error["message_zh"] and "colour：未知字段。" in error["message_zh"]
    assert not re.search(r"[A-Za-z]{3,}", error["message_zh"].replace("first", "").replace("colour", ""))
    assert error["details"]["fields_zh"] == {"first": ["不是有效的整数。"], "colour": ["未知字段。"]}
    assert error["details"]["fields"]["first"] == ["Not a valid integer."]  # marshmallow's own, for programs


def test_unknown_options_are_named_not_printed_as_a_dict(live: LiveServer) -> None:
    record = EXAMPLE_RECORD
    error = refused(live.post("/api/deals", {"game": "doudizhu", "seats": record["seats"], "first": 2,
                                             "hands": record["hands"], "kitty": record["kitty"],
                                             "options": {"ddz.foo": 1}}), 422, "bad_options")
    assert error["message"] == "Invalid ruleset options: ddz.foo: Unknown field."  # named plainly (issue 23)
    assert error["message_zh"] == "规则选项无效：ddz.foo：未知字段。"


def test_marshmallows_messages_with_figures_are_translated_and_nested_fields_named() -> None:
    assert in_chinese("Must be greater than or equal to 1.") == "必须大于或等于 1。"
    assert in_chinese("Length must be between 1 and 200.") == "长度必须在 1 到 200 之间。"
    assert in_chinese("Must be one of: a, b.") == "必须是以下之一：a、b。"  # a list reads with 、
    assert in_chinese("本游戏没有这一项。") == "本游戏没有这一项。"  # a schema's own words stay as written
    english, chinese, by_field = shape_refusal({"hands": {0: {3: ["Not a valid string."]}}})
    assert english == "hands.0.3: Not a valid string." and chinese == "hands.0.3：不是有效的字符串。"
    assert by_field == {"hands.0.3": ["不是有效的字符串。"]}


# A sample of refusals across the API, one of each kind of message that once printed a Python list, set or dict:
# a choice among codes, names that are not registered, the role a route needs, the facts a slip may carry.
NO_REPR = re.compile(r"\[|\{'|\{\"|\(\'")


def sentence(response: Any, status: int, code: str) -> dict[str, Any]:
    """The refusal, checked to read as a sentence: no bracket of a printed list or dict in either language."""
    return refused(response, status, code, NO_REPR)


def test_refusals_across_the_api_name_things_in_sentences_not_python_reprs(live: LiveServer) -> None:
    service = live.service
    assert service is not None
    tournament, _ = service.tournaments.create("措辞杯", "doudizhu", {})
    tid = tournament["id"]
    players = [service.tournaments.register_player(tid, name)[0]["id"] for name in ("甲", "乙", "丙")]
    match = live.post(f"/api/tournaments/{tid}/matches", {"table": "1", "seats": players}).json()
    referee = live.post("/api/tokens", {"role": "referee", "matches": [match["id"]]}).json()["bearer"]

    error = sentence(live.post("/api/tournaments", {"name": "象棋杯", "game": "chess"}), 422, "unknown_game")
    assert "daguai, doudizhu, sandayi, shengji, wakeng" in error["message"]
    assert "daguai、doudizhu、sandayi、shengji、wakeng" in error["message_zh"]
    error = sentence(live.post(f"/api/tournaments/{tid}/matches", {"table": "2", "seats": [players[0], "x1", "x2"]}),
                     422, "unknown_player")
    assert error["message"].endswith(": x1, x2.") and error["message_zh"].endswith("：x1、x2。")
    error = sentence(live.post(f"/api/tournaments/{tid}/rounds", {"label": "", "kind": "semifinal"}),
                     400, "invalid_body")  # marshmallow's "Must be one of: …", its list in Chinese with 、
    assert "tables, final, playoff" in error["message"] and "tables、final、playoff" in error["message_zh"]
    error = sentence(live.post(f"/api/tournaments/{tid}/adjustments", {"player_id": players[0], "points": -1,
                                                                     "reason": "迟到"}, token=referee),
                     403, "forbidden")
    assert error["message"] == "This needs: organiser." and error["message_zh"] == "此操作需要相应权限：组织者。"
    error = sentence(live.post(f"/api/matches/{match['id']}/appeals", {"against": {"kind": "everything"},
                                                                      "category": "scoring_error",
                                                                      "statement": "计分有误"}), 400, "invalid_body")
    assert "deal, result, ruling, penalty" in error["message"]
    assert "deal、result、ruling、penalty" in error["message_zh"]
    error = sentence(live.post(f"/api/matches/{match['id']}/slips", {"facts": {"landlord": 0, "colour": "red"}}),
                     422, "bad_slip")
    assert "colour; it takes " in error["message"] and "没有这些项：colour；可填：" in error["message_zh"]
    assert "、" in error["message_zh"].split("可填：")[1]
    error = sentence(live.post(f"/api/tournaments/{tid}/players", {"name": "丁"}, token=referee), 403, "forbidden")
    assert "组织者" in error["message_zh"] and not re.search(r"[A-Za-z]", error["message_zh"])

    wrong = {**EXAMPLE_RECORD, "result": {"scores": [9, 9, -18]}}
    error = sentence(live.post("/api/records", wrong), 422, "result_mismatch")
    assert "The record's scores are 9, 9, -18; the rules give " in error["message"]
    assert "记录中的得分为 9、9、-18，" in error["message_zh"]

    # What the service itself refuses (the CLI and the console reach it without the API's schemas first).
    def domain(call: Any, *args: Any) -> tuple[str, str]:
        with pytest.raises(Refusal) as refusal:
            call(*args)
        assert not NO_REPR.search(refusal.value.message) and not NO_REPR.search(refusal.value.message_zh)
        return refusal.value.message, refusal.value.message_zh

    english, chinese = domain(service.tokens.create, "king")
    assert english.endswith("organiser, referee, appeals, commentator.") and "organiser、referee、appeals" in chinese
    assert "tables、final、playoff" in domain(service.tournaments.start_round, tid, "", "semifinal")[1]
    assert "penalty、adjustment" in domain(service.tournaments.adjust, tid, players[0], -1, "迟到", "bonus")[1]
    # what is appealed, in words (issue 23)
    assert "牌局、桌的结果、判罚或罚分" in domain(service.appeals.file, match["id"], {"kind": "x"}, "other", "？")[1]
    english, chinese = domain(service.tournaments.create, "象棋杯", "chess", {})
    assert "chess; known: daguai, doudizhu" in english and "未知的游戏 chess；支持：daguai、doudizhu" in chinese


def test_a_refused_slip_names_the_players(live: LiveServer) -> None:
    """A score slip refused by the game's slip rules names the players as a deal's action does (大怪路子: the
    deal ended when 陈静's team, seats 0·2·4 counted from 0, was all out)."""
    players = ["张伟", "李娜", "王芳", "刘洋", "陈静", "杨帆"]
    _, match = open_http_table(live, "名字·大怪路子", "daguai", players, 0)
    error = refused(live.post(f"/api/matches/{match}/slips", {"facts": {"finish_order": [0, 2, 4, 1]}}), 422,
                    "impossible_slip")
    assert error["message_zh"].startswith("陈静 所在一方全部出完时") and "when 陈静's team" in error["message"]
    assert "座位" not in error["message_zh"]


def test_a_seat_that_is_nobodys_is_refused_by_naming_the_tables_players(live: LiveServer) -> None:
    """A misdeal by a seat the table does not have, an action by one: the person reads who sits at the table,
    never "`seat` must be a seat 0–2"; the details keep the seat as sent."""
    players = ["张伟", "李娜", "王芳"]
    _, match = open_http_table(live, "名字·座位", "doudizhu", players, 0)
    error = refused(live.post(f"/api/matches/{match}/misdeals", {"seat": 5, "note": "多发一张"}), 422, "bad_seat")
    assert error["message_zh"] == "发错牌的人必须是本桌的一位玩家：张伟、李娜、王芳。", error
    assert error["message"] == "Who misdealt must be one of the table's players: 张伟, 李娜, 王芳.", error
    assert error["details"]["seat"] == 5
    deal, _ = table_deal(live, "名字·座位二", "doudizhu", players)
    error = refused(live.post(f"/api/deals/{deal}/actions", {"action": {"seat": 3, "type": "pass"}}), 422, "bad_seat")
    assert error["message_zh"] == "出手的人必须是本桌的一位玩家：张伟、李娜、王芳。", error
    assert "`" not in error["message"] + error["message_zh"] and "0–" not in error["message"]
    # Opening a table whose first to act is none of its seats: named by the players being seated.
    tournament = live.get(f"/api/matches/{match}").json()["tournament_id"]
    opened = live.post(f"/api/tournaments/{tournament}/matches", {"table": "2", "seats": players, "first": 3})
    error = refused(opened, 422, "bad_setup")
    assert error["message_zh"] == "先出的人必须是本桌的一位玩家：张伟、李娜、王芳。", error
