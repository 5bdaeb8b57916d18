"""What a refusal says, as people read it, over real HTTP (the app on a real SQLite file): card lists as codes,
seats counted from 1 (the `details` and every record keep 0-based seats), marshmallow's field messages in both
languages, never a Python repr (issue 15, defect 9 and 6)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer, move

from domain.field_errors import in_chinese, shape_refusal

REPR = re.compile(r"\[['\"]|\{['\"]|['\"]\]")  # a Python list or dict printed into a message


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(Path(tmp_path_factory.mktemp("messages")) / "messages.sqlite").start()
    yield server
    server.stop()


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    assert not REPR.search(error["message"]) and not REPR.search(error["message_zh"]), error
    return error


def started(live: LiveServer) -> str:
    record = EXAMPLE_RECORD
    response = live.post("/api/deals", {"game": "doudizhu", "seats": record["seats"], "first": record["first"],
                                        "hands": record["hands"], "kitty": record["kitty"]})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_a_refused_play_names_its_cards_as_codes_and_seats_from_one(live: LiveServer) -> None:
    deal = started(live)
    for action in EXAMPLE_RECORD["actions"][:4]:  # 王五 (seat 2) is landlord and leads a straight
        assert live.post(f"/api/deals/{deal}/actions", {"action": action}).status_code == 201
    error = refused(live.post(f"/api/deals/{deal}/actions", {"action": move(0, "play", "D3 C3")}), 422,
                    "does_not_beat")
    assert error["message_zh"].startswith("D3 C3 管不上上一手牌") and error["message"].startswith("D3 C3 does not")
    assert error["details"]["cards"] == ["D3", "C3"]
    error = refused(live.post(f"/api/deals/{deal}/actions", {"action": move(2, "pass")}), 422, "not_your_turn")
    # Seat 0 (张三) is to act, seat 2 asked: people count them 1 and 3; the details keep the record's numbers.
    assert "现在轮到座位 1，不是座位 3" in error["message_zh"] and "seat 1's turn, not seat 3's" in error["message"]
    assert (error["details"]["to_act"], error["details"]["seat"]) == (0, 2)


def test_a_body_of_the_wrong_shape_says_which_field_and_why_in_both_languages(live: LiveServer) -> None:
    record = EXAMPLE_RECORD
    error = refused(live.post("/api/deals", {"game": "doudizhu", "seats": record["seats"], "first": "二",
                                             "hands": record["hands"], "kitty": record["kitty"], "colour": 1}),
                    400, "invalid_body")
    assert "`first`: Not a valid integer." in error["message"] and "`colour`: Unknown field." in error["message"]
    assert "`first`：不是有效的整数。" in error["message_zh"] and "`colour`：未知字段。" in error["message_zh"]
    assert not re.search(r"[A-Za-z]{3,}", error["message_zh"].replace("`first`", "").replace("`colour`", ""))
    assert error["details"]["fields_zh"] == {"first": ["不是有效的整数。"], "colour": ["未知字段。"]}
    assert error["details"]["fields"]["first"] == ["Not a valid integer."]  # marshmallow's own, for programs


def test_unknown_options_are_named_not_printed_as_a_dict(live: LiveServer) -> None:
    record = EXAMPLE_RECORD
    error = refused(live.post("/api/deals", {"game": "doudizhu", "seats": record["seats"], "first": 2,
                                             "hands": record["hands"], "kitty": record["kitty"],
                                             "options": {"ddz.foo": 1}}), 422, "bad_options")
    assert error["message"] == "Invalid ruleset options: `ddz.foo`: Unknown field."
    assert error["message_zh"] == "规则选项无效：`ddz.foo`：未知字段。"


def test_marshmallows_messages_with_figures_are_translated_and_nested_fields_named() -> None:
    assert in_chinese("Must be greater than or equal to 1.") == "必须大于或等于 1。"
    assert in_chinese("Length must be between 1 and 200.") == "长度必须在 1 到 200 之间。"
    assert in_chinese("Must be one of: a, b.") == "必须是以下之一：a, b。"
    assert in_chinese("本游戏没有这一项。") == "本游戏没有这一项。"  # a schema's own words stay as written
    english, chinese, by_field = shape_refusal({"hands": {0: {3: ["Not a valid string."]}}})
    assert english == "`hands.0.3`: Not a valid string." and chinese == "`hands.0.3`：不是有效的字符串。"
    assert by_field == {"hands.0.3": ["不是有效的字符串。"]}
