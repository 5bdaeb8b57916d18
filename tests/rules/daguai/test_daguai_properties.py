"""Property tests: random legal 大怪路子 deals (docs/rules/daguai.md) keep every invariant.

Deals come from `random_record` (a seeded shuffle, a random policy over `candidate_plays`, some fouls and
timeouts). The finishing order, the fouls counted while the deal was live and so the team points (A6, A7,
A10.7–8) are recomputed here from the actions alone, independently of the engine's bookkeeping. A deal is about
230 actions, so the example counts are small.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.daguai.engine import DaguaiEngine
from domain.games.daguai.patterns import Pattern, parse
from domain.kernel.cards import full_deck
from domain.kernel.engine import Viewpoint
from domain.kernel.errors import IllegalAction
from domain.records.format import check_record, parse_record
from fixtures.random_play.daguai import random_record

ENGINE = DaguaiEngine()
DECK = Counter(full_deck(3, True))
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FOUL_RATES = st.sampled_from([0.0, 0.005, 0.03])
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def record_of(seed: int, foul_rate: float, timeout_rate: float = 0.01) -> dict[str, Any]:
    return random_record(random.Random(seed), foul_rate=foul_rate, timeout_rate=timeout_rate)


def expected_points(record: dict[str, Any]) -> tuple[list[int], int, list[int], list[int]]:
    """(team points, 头家 team, finishing order, fouls per team while live), from the actions alone (A6, A7)."""
    left = [len(hand) for hand in record["hands"]]
    order: list[int] = []
    fouls = [0, 0]
    over = False
    for action in record["actions"]:
        seat = action["seat"]
        if action["type"] == "foul":
            if not over:
                fouls[seat % 2] += 1
            continue
        assert not over, "an action after the deal ended"
        if action["type"] == "play":
            left[seat] -= len(action["cards"])
            if left[seat] == 0:
                order.append(seat)
                over = any(sum(1 for s in order if s % 2 == team) == 3 for team in (0, 1))
    assert over
    letters = ["A" if s % 2 == order[0] % 2 else "B" for s in order]
    head = order[0] % 2
    caught = letters.count("A") < 3
    natural = {1: 1, 2: 0}[3 - letters.count("A")] if caught else {3: 8, 4: 5, 5: 3}[len(order)]  # 被关 k / 抓 6 − p
    points = [natural if team == head else 0 for team in (0, 1)]
    fouled = [team for team in (0, 1) if fouls[team] >= 2]
    if len(fouled) == 2:
        points = [0, 0]
    elif fouled:
        points = [0 if team == fouled[0] else 8 for team in (0, 1)]
    return points, head, order, fouls


@SETTINGS
@given(seed=SEEDS, foul_rate=FOUL_RATES)
def test_random_deals_conserve_cards_and_score_as_a6_a7(seed: int, foul_rate: float):
    record = record_of(seed, foul_rate)
    setup, actions, _ = parse_record(record)
    state = ENGINE.new_deal(setup)
    assert Counter(c for hand in state.hands for c in hand) == DECK and sum(map(len, state.hands)) == 162
    for action in actions:
        ENGINE.apply(state, action)
        in_hands = Counter(c for hand in state.hands for c in hand)
        played = Counter(c for cards in state.played for c in cards)
        assert in_hands + played == DECK  # every card is in a hand or played, once
        for seat in range(6):
            assert len(state.hands[seat]) + len(state.played[seat]) == 27
        for plays in state.rounds + [state.current_round]:
            for play in plays:
                if play["type"] == "play":
                    assert parse(play["cards"]) == play["pattern"] and play["pattern"].size in (1, 2, 3, 5)
    result = ENGINE.result(state)
    points, head, order, fouls = expected_points(record)
    assert result["team_points"] == points
    assert result["scores"] == [points[s % 2] for s in range(6)]  # scores by seat repeat the team's points
    assert result["head_team"] == head and result["first_finisher"] == order[0]
    assert result["finish_order"] == order and state.finished == order
    assert result["fouls_by_team"] == fouls
    assert result["decided_by_fouls"] == any(n >= 2 for n in fouls)
    assert sum(1 for s in order if s % 2 == (1 - head) or s % 2 == head) == len(order) >= 3
    assert all(state.hands[s] for s in range(6) if s not in order)
    assert not any(state.hands[s] for s in order)


@SETTINGS
@given(seed=SEEDS)
def test_replay_reproduces_every_view(seed: int):
    record = record_of(seed, 0.01)
    setup, actions, _ = parse_record(json.loads(json.dumps(record, ensure_ascii=False)))
    viewpoints = [Viewpoint("referee"), Viewpoint("public")] + [Viewpoint("seat", s) for s in range(6)]

    def frames() -> list[Any]:
        state = ENGINE.new_deal(setup)
        out = []
        for step in range(len(actions) + 1):
            if step:
                ENGINE.apply(state, actions[step - 1])
            viewpoint = viewpoints[step % len(viewpoints)]
            out.append((ENGINE.status(state), json.dumps(ENGINE.view(state, viewpoint), sort_keys=True,
                                                           ensure_ascii=False)))
        return out

    first = frames()
    assert frames() == first
    public = [json.loads(view) for _, view in first[1::len(viewpoints)]]
    for view in public:
        assert not any("hand" in s for s in view["seats"])
        for seat in view["seats"]:
            count = seat["count"]
            assert count == ">10" or (isinstance(count, int) and 0 <= count <= 10)
    assert first[-1][0]["finished"]


@SETTINGS
@given(seed=SEEDS, foul_rate=FOUL_RATES)
def test_check_record_accepts_generated_records(seed: int, foul_rate: float):
    record = record_of(seed, foul_rate)
    assert check_record(record) == {"ok": True, "result": record["result"]}


@SETTINGS
@given(seed=SEEDS, pick=st.integers(min_value=0, max_value=10**6), mutation=st.sampled_from(
    ["seat", "cards", "truncate", "append", "result", "pass_lead"]))
def test_mutated_records_are_refused_at_the_right_index(seed: int, pick: int, mutation: str):
    record = record_of(seed, 0.005)
    actions = record["actions"]
    bad = copy.deepcopy(record)
    turns = [i for i, a in enumerate(actions) if a["type"] != "foul"]
    if mutation == "seat":
        index = turns[pick % len(turns)]
        bad["actions"][index]["seat"] = (actions[index]["seat"] + 1 + pick % 5) % 6
        expected = {"action": index, "code": "not_your_turn"}
    elif mutation == "cards":
        plays = [i for i in turns if actions[i]["type"] == "play"]
        index = plays[pick % len(plays)]
        seat = actions[index]["seat"]
        absent = sorted(set(DECK) - set(record["hands"][seat]))
        assert absent  # 27 cards never cover all 54 codes
        bad["actions"][index]["cards"] = [absent[pick % len(absent)]] * len(actions[index]["cards"])
        expected = {"action": index, "code": "card_not_in_hand"}
    elif mutation == "truncate":
        bad["actions"] = actions[: turns[pick % len(turns)]]
        bad.pop("result")
        expected = {"code": "incomplete"}
    elif mutation == "append":
        bad["actions"].append({"seat": pick % 6, "type": "pass"})
        expected = {"action": len(actions), "code": "deal_finished"}
    elif mutation == "result":
        bad["result"]["scores"] = [s + 1 for s in record["result"]["scores"]]
        expected = {"code": "result_mismatch"}
    else:  # the first leader passes
        bad["actions"].insert(0, {"seat": record["first"], "type": "pass"})
        expected = {"action": 0, "code": "must_lead"}
    report = check_record(bad)
    assert report["ok"] is False and {k: report.get(k) for k in expected} == expected, report
    if "action" not in expected:
        assert "action" not in report


@SETTINGS
@given(seed=SEEDS)
def test_refused_actions_leave_any_reached_state_unchanged(seed: int):
    rng = random.Random(seed)
    record = record_of(seed, 0.0)
    setup, actions, _ = parse_record(record)
    state = ENGINE.new_deal(setup)
    stop = rng.randrange(len(actions))
    for action in actions[:stop]:
        ENGINE.apply(state, action)
    seat = state.to_act
    before = copy.deepcopy(state)
    other = (seat + 1 + rng.randrange(5)) % 6
    attempts = [{"seat": other, "type": "pass"}, {"seat": seat, "type": "play", "cards": state.hands[seat][:4]}
                if len(state.hands[seat]) >= 4 else {"seat": seat, "type": "bid"},
                {"seat": seat, "type": "foul", "code": "x", "note": "", "penalty": 3}]
    if state.last_pattern is None:
        attempts.append({"seat": seat, "type": "pass"})
    for attempt in attempts:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, attempt)
        assert state == before


# --- `parse` against a brute-force reading of A10.1 ------------------------------------------------------------------

VALUE = {str(n): n for n in range(3, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14, "2": 15}
FACES = [suit + rank for suit in "SHCD" for rank in VALUE]
CLASSES = ["straight", "flush", "full_house", "four_one", "straight_flush", "five"]
LOW_KEY = {"straight", "flush", "straight_flush"}


def straight_top(values: list[int]) -> int | None:
    """A2: A low or high, 2 only as itself (no wrap); the top of the straight the five values make."""
    for low in range(1, 11):
        window = set(range(low, low + 5))
        spots = {next((p for p in ((1, 14) if v == 14 else (2,) if v == 15 else (v,)) if p in window), 0)
                 for v in values}
        if len(set(values)) == 5 and spots == window:
            return low + 4
    return None


def natural_reading(cards: list[str]) -> tuple[str, tuple[int, ...]] | None:
    values = [VALUE[c[1:]] for c in cards]
    counts = Counter(values)
    one_suit, top = len({c[0] for c in cards}) == 1, straight_top(values)
    if len(counts) == 1:
        return "five", (values[0],)
    if one_suit and top:
        return "straight_flush", (top,)
    if 4 in counts.values():
        return "four_one", (next(v for v, n in counts.items() if n == 4),)
    if sorted(counts.values()) == [2, 3]:
        return "full_house", (next(v for v, n in counts.items() if n == 3),)
    if one_suit:
        return "flush", tuple(sorted((2 if v == 15 else v for v in values), reverse=True))
    return ("straight", (top,)) if top else None


def brute_force(cards: list[str]) -> tuple[str, tuple[int, ...]] | None:
    """Every joker as every non-joker face: the strongest class, then the lowest key for straights, straight
    flushes and flushes, the highest otherwise (A4 steps 3i–iii, A10.1)."""
    naturals = [c for c in cards if c not in ("LJ", "BJ")]
    readings = [r for sub in itertools.product(FACES, repeat=5 - len(naturals))
                if (r := natural_reading(naturals + list(sub))) is not None]
    if not readings:
        return None
    best = max(CLASSES.index(kind) for kind, _ in readings)
    keys = [key for kind, key in readings if CLASSES.index(kind) == best]
    return CLASSES[best], (min(keys) if CLASSES[best] in LOW_KEY else max(keys))


@settings(max_examples=120, deadline=None)
@given(ranks=st.lists(st.sampled_from(list(VALUE)), min_size=1, max_size=5),
       suits=st.lists(st.sampled_from("SHCD"), min_size=1, max_size=2),
       jokers=st.lists(st.sampled_from(["LJ", "BJ"]), max_size=2), data=st.data())
def test_five_card_readings_match_a_brute_force_of_every_joker_face(ranks, suits, jokers, data):
    naturals = [data.draw(st.sampled_from(suits)) + data.draw(st.sampled_from(ranks)) for _ in range(5 - len(jokers))]
    cards = naturals + jokers
    found = parse(cards)
    assert (None if found is None else (found.kind, found.key)) == brute_force(cards), cards
    if found is not None:
        assert found == Pattern(found.kind, 5, found.key)
