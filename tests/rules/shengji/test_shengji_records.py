"""Whole 升级 records through `domain.records.format`: hand-made illegal records are refused at the right action index,
adjudicated records score their penalties, and the example of docs/record-format.md checks as documented."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from game_support import checked, documented_example
from test_shengji_rules import ENGINE, deal_with

from domain.games.shengji.state import ShengjiState
from domain.kernel.cards import full_deck
from domain.records.format import check_record, check_text, fold, parse_record
from fixtures.random_play.shengji import random_record


def situations(options: dict[str, Any] | None = None) -> Iterator[tuple[dict[str, Any], int, ShengjiState]]:
    """(record, action index, state before that action) over the actions of random legal deals."""
    for seed in range(400):
        record = random_record(random.Random(seed), options)
        setup, actions, _ = parse_record(record)
        engine, state = fold(setup, [])
        for index, action in enumerate(actions):
            yield record, index, state
            engine.apply(state, action)


def first(predicate: Callable[[dict[str, Any], int, ShengjiState], Any], options: dict[str, Any] | None = None
          ) -> tuple[dict[str, Any], int, ShengjiState, Any]:
    for record, index, state in situations(options):
        found = predicate(record, index, state)
        if found:
            return copy.deepcopy(record), index, state, found
    raise AssertionError("no such situation in 400 random deals")


def test_a_revoke_recorded_as_a_play_in_reject_mode_is_refused_at_that_action():
    def revoke(record, index, state):
        action = record["actions"][index]
        if action["type"] != "play" or not state.trick or len(action["cards"]) != 1:
            return None
        led = state.shape.suit
        if state.order.suit[action["cards"][0]] != led:
            return None
        other = [c for c in state.hands[action["seat"]] if state.order.suit[c] != led]
        return other[:1] or None

    record, index, _, cards = first(revoke)
    record["actions"][index]["cards"] = cards
    report = check_record(record)
    assert report["ok"] is False and report["action"] == index and report["code"] == "must_follow_suit"


def test_a_failed_throw_recorded_as_if_it_succeeded_is_refused_at_the_first_follow():
    def failed(record, index, state):
        action = record["actions"][index]
        if action["type"] != "play" or state.trick or index + 1 >= len(record["actions"]):
            return None
        nxt = record["actions"][index + 1]
        return action if nxt["type"] == "play" and len(nxt["cards"]) < len(action["cards"]) else None

    record, index, state, throw = first(failed)
    follower = record["actions"][index + 1]
    hand = state.hands[follower["seat"]]
    record["actions"][index + 1]["cards"] = hand[: len(throw["cards"])]  # answering the whole attempted throw
    report = check_record(record)
    assert report == {"ok": False, "action": index + 1, "code": "wrong_card_count",
                      "message": report["message"]} and "failed" in report["message"]
    # Claiming the throw's whole attempt as its forced part is refused at the throw itself.
    record["actions"][index]["forced"] = list(throw["cards"])
    report = check_record(record)
    assert report["action"] == index and report["code"] == "forced_mismatch"


def test_a_trump_that_is_not_a_tractor_cannot_win_a_tractor_lead():
    # Seat 0 deals and leads ♥KKQQ; seat 1, void in hearts, trumps with ♠33 ♠77: two pairs, not a tractor.
    plain = [c for c in full_deck(2, True) if c[0] in "CD" and c[1:] != "10"]
    seat1 = ["S3", "S3", "S7", "S7"] + plain[:21]
    seat0 = ["S10", "HK", "HK", "HQ", "HQ"] + plain[21:41]
    state = deal_with({0: seat0, 1: seat1}, context={"levels": [10, 10], "dealer": 0})
    actions: list[dict[str, Any]] = [{"seat": 0, "type": "declare", "cards": ["S10"]}]
    actions += [{"seat": s, "type": "pass"} for s in (1, 2, 3)]
    actions.append({"seat": 0, "type": "bury", "cards": list(state.kitty)})
    actions.append({"seat": 0, "type": "play", "cards": ["HK", "HK", "HQ", "HQ"]})
    actions.append({"seat": 1, "type": "play", "cards": ["S3", "S3", "S7", "S7"]})
    for action in actions:
        ENGINE.apply(state, action)
    for seat in (2, 3):  # the others follow legally
        action = {"seat": seat, "type": "play", "cards": ENGINE.lowest_play(state, seat)}
        ENGINE.apply(state, action)
        actions.append(action)
    assert state.tricks[-1]["winner"] != 1
    # The record claims the fake tractor won: seat 1 leads the next trick.
    actions.append({"seat": 1, "type": "play", "cards": ["S3"]})
    record = {"format": "fupan.deal/1", "game": "shengji", "options": {}, "seats": ["甲", "乙", "丙", "丁"],
              "first": 0, "hands": state.dealt_hands, "kitty": state.kitty,
              "context": {"levels": [10, 10], "dealer": 0}, "actions": actions}
    report = check_record(record)
    assert report["ok"] is False and report["action"] == len(actions) - 1 and report["code"] == "not_your_turn"


def test_a_declaration_with_a_card_not_yet_received_is_refused_at_that_action():
    def declaration(record, index, state):
        action = record["actions"][index]
        return action if action["type"] == "declare" and action.get("received", 0) > 1 else None

    record, index, state, action = first(declaration)
    cards = action["cards"]
    position = max(state.dealt_hands[action["seat"]].index(c) for c in cards) + 1
    record["actions"][index]["received"] = position - 1
    report = check_record(record)
    assert report["action"] == index and report["code"] == "not_yet_received"


def test_adjudicated_revoke_and_wrong_follow_records_carry_their_penalties():
    options = {"sj.illegalPlay": "adjudicate"}

    def irregular(record, index, state):
        action = record["actions"][index]
        return action["kind"] if action["type"] == "irregularity" else None

    for kind in ("revoke", "wrong_follow"):
        record, index, _, _ = first(lambda r, i, s, k=kind: irregular(r, i, s) == k, options)
        _, result = checked(record)
        assert any(i["kind"] == kind for i in result["irregularities"])
        if kind == "revoke":
            assert result["ended_by"] == "revoke" and sorted(result["big_points"])[0] == 0
        else:
            assert any(p["reason"] == "wrong_follow" for p in result["penalties"])
        # The same play in reject mode is refused.
        rejected = {**record, "options": {**record["options"], "sj.illegalPlay": "reject"}}
        assert check_record(rejected)["code"] == "irregularity_not_allowed"


def test_a_foul_after_the_last_card_is_recorded_and_changes_nothing():
    record = random_record(random.Random(8), {"sj.preset": "s004"})
    scores = check_record(record)["result"]["scores"]
    record["actions"].append({"seat": 3, "type": "foul", "code": "signalling", "note": "终局后示意"})
    assert check_record(record) == {"ok": True, "result": {"scores": scores}}
    record["actions"].append({"seat": 3, "type": "foul", "code": "signalling", "note": "罚分", "penalty": 10})
    assert check_record(record)["code"] == "penalty_after_end"


def test_a_wrong_declared_result_and_a_short_record_are_refused():
    record = random_record(random.Random(5), {}, context={"levels": [4, 6], "dealer": 1})
    assert check_record(record)["ok"]
    wrong = {**record, "result": {"scores": [9, 9, 9, 9]}}
    assert check_record(wrong)["code"] == "result_mismatch"
    short = {**record, "actions": record["actions"][:-1]}
    short.pop("result")
    assert check_record(short)["code"] == "incomplete"


def test_a_jsonl_stream_of_shengji_and_doudizhu_records_checks_line_by_line():
    from fixtures.random_play.doudizhu import random_record as doudizhu_record

    rng = random.Random(11)
    lines = [json.dumps(random_record(rng)), json.dumps(doudizhu_record(rng)), json.dumps(random_record(rng))]
    assert [r["ok"] for r in check_text("\n".join(lines))] == [True, True, True]


def test_the_documented_example_record_checks_with_its_stated_result():
    example = documented_example("升级")
    state, result = checked(example)
    assert any(t["plays"][0].get("failed_throw") for t in state.tricks)
    assert any(a["type"] == "declare" and "received" in a for a in example["actions"])
    assert result["takeover"] is not None
