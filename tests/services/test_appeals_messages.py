"""What the appeal routes say when they refuse (issue 23, defect 17): plain words in Chinese and English, actions
counted from 1 as a person counts them, no backticked field names, no Python repr (`None`, quotes), no braces,
and every problem of a decision at once. Over real HTTP (test_appeals.Event: one finished 斗地主 deal)."""

from __future__ import annotations

import re

from conftest import EXAMPLE_RECORD
from test_appeals import Event, live  # noqa: F401  (the module's server)

PLAIN = re.compile(r"`|\bNone\b|'|\{|\}|\[|\]")


def refusal(answer, status: int = 422) -> dict:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    for text in (error["message"], error["message_zh"]):
        assert not PLAIN.search(re.sub(r"'s\b", "", text)), text  # an English possessive is a word
    return error


def before_the_committee(event: Event) -> str:
    server = event.server
    appeal = event.file(step=3).json()["appeal_id"]
    path = f"/api/appeals/{appeal}"
    assert server.post(f"{path}/lines", {"from_step": 3, "actions": EXAMPLE_RECORD["actions"][3:]},
                       token=event.referee).status_code == 201
    assert server.post(f"{path}/ruling", {"outcome": {"kind": "stands"}, "reason": "维持"}).status_code == 201
    assert server.post(f"{path}/committee", {"reason": "不服"}, token=event.referee).status_code == 201
    return path


def test_a_decision_says_every_problem_at_once_in_plain_words(live):  # noqa: F811
    event = Event(live, "申诉杯 一次说全")
    path = before_the_committee(event)
    head = event.head()
    answer = live.post(f"{path}/decision", {
        "outcome": {"kind": "weighted", "parts": [{"weight": "60%", "line": None}, {"weight": "50%", "line": 4}]},
        "reason": "加权", "members": ["甲", "乙", "丙"], "vote": {"for": 0, "against": 1, "abstain": 0}},
        token=event.committee)
    error = refusal(answer)
    zh = error["message_zh"]
    assert "推演" in zh and "权重" in zh and "成员" in zh and "票" in zh, zh  # the line, the weights, members, vote
    assert "推演 5" in zh or "第 5 条" in zh, zh  # line index 4 named as people number the lines
    assert len(error["details"]["errors"]) >= 4
    assert event.head() == head


def test_a_refused_line_counts_its_actions_from_one(live):  # noqa: F811
    event = Event(live, "申诉杯 动作计数")
    appeal = event.file(step=3).json()["appeal_id"]
    played = EXAMPLE_RECORD["actions"][3:]
    # The line's 2nd action is refused (a play out of turn): "第 2 个动作", its index 1 in the details.
    answer = live.post(f"/api/appeals/{appeal}/lines", {"from_step": 3, "actions": [played[0], played[0]]},
                       token=event.referee)
    error = refusal(answer)
    assert error["details"]["index"] == 1
    assert "第 2 个动作" in error["message_zh"] and "action 2" in error["message"].lower(), error
    beyond = refusal(live.post(f"/api/appeals/{appeal}/lines", {"from_step": 99, "actions": []},
                               token=event.referee))
    assert str(len(EXAMPLE_RECORD["actions"])) not in beyond["message_zh"]  # the deal's length is not told


def test_a_filing_names_no_field_in_backticks(live):  # noqa: F811
    event = Event(live, "申诉杯 字段")
    refusal(live.post(f"/api/matches/{event.match}/appeals", {"against": {"kind": "nothing"}, "category": "conduct",
                                                               "statement": "x"}, token=event.referee), 400)
    refusal(live.post(f"/api/matches/{event.match}/appeals", {"against": {"kind": "deal", "deal_id": event.deal,
                                                                          "step": 999},
                                                              "category": "conduct", "statement": "x"},
                      token=event.referee))
