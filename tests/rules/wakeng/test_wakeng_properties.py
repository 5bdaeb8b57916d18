"""Property tests: random legal 竞技挖坑 deals (docs/rules/wakeng.md) under random ruleset switches keep every
invariant.

Deals are shuffled from a seed; a random policy shows hands, bids, doubles, times out and plays over
`candidate_plays`. The digger, the bid, who showed, who doubled and who went out first are then read off the
actions alone (timeouts interpreted by B11.6), and the scores recomputed by B6/B11.7, independently of the
engine's bookkeeping.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from game_support import Scripted, comes_to
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.wakeng.engine import WakengEngine
from domain.kernel.cards import full_deck
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup, Viewpoint
from domain.records.format import check_record, parse_record
from fixtures.random_play.wakeng import candidate_plays, random_record

ENGINE = WakengEngine()
NAMES = ["东", "南", "西"]
DECK = Counter(full_deck(1, False))
ORDER = {r: n for n, r in enumerate(["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3"])}

OPTIONS = st.fixed_dictionaries(
    {
        "wk.quadIsBomb": st.booleans(),
        "wk.mustDig": st.booleans(),
        "wk.globalDoubling": st.booleans(),
        "wk.showFactor": st.integers(1, 3),
        "wk.doubleFactor": st.integers(1, 3),
        "wk.tableDeals": st.integers(1, 99),
    }
)
RATES = st.sampled_from([0.0, 0.02, 0.1])
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def lowest_heart_seat(hands: list[list[str]]) -> int:
    return min((ORDER[c[1:]], seat) for seat, hand in enumerate(hands) for c in hand if c[0] == "H")[1]


def dig_forced(hand: list[str]) -> bool:
    threes = sum(c[1:] == "3" for c in hand)
    return threes >= 3 or (threes >= 2 and sum(c[1:] == "2" for c in hand) >= 2)


def lowest(hand: list[str]) -> str:
    return min(hand, key=lambda c: (ORDER[c[1:]], "DCHS".index(c[0])))


@dataclass
class Facts:
    """What happened, read off the actions and the dealt cards only (B4, B5, B11)."""

    hands: list[list[str]]
    kitty: list[str]
    options: dict[str, Any]
    first: int = 0
    phase: str = "reveal"
    decided: int = 0
    shown: list[int] = field(default_factory=list)
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    bid: int = 0
    digger: int | None = None
    doubles: list[int] = field(default_factory=list)
    doubling_seen: int = 0
    held: list[list[str]] = field(default_factory=list)
    last: int | None = None  # the seat of the last play of the round, None when a lead is due
    passes: int = 0
    winner: int | None = None

    def __post_init__(self) -> None:
        self.first = lowest_heart_seat(self.hands)
        self.held = [list(h) for h in self.hands]

    def observe(self, action: dict[str, Any]) -> None:
        kind, seat = action["type"], action["seat"]
        if kind == "foul" or self.phase == "over":
            return
        if self.phase == "reveal":
            self.shown += [seat] if kind == "reveal" else []
            self.decided += 1
            if self.decided == 3:
                self.phase = "bidding"
        elif self.phase == "bidding":
            value = action.get("value") if kind == "bid" else None
            if kind == "timeout" and self.options["wk.mustDig"] and dig_forced(self.hands[seat]):
                value = 3
            self.bids.append((seat, value))
            if value is not None:
                self.bid, self.digger = value, seat
            if self.bid == 3 or len(self.bids) == 3:
                if self.digger is None:
                    self.digger, self.bid = self.first, 1  # 烂挖
                self.held[self.digger] += self.kitty
                self.phase = "doubling" if self.digger in self.shown else "post_reveal"
        elif self.phase == "post_reveal":
            assert seat == self.digger
            self.shown += [seat] if kind == "reveal" else []
            self.phase = "doubling"
        elif self.phase == "doubling":
            self.doubles += [seat] if kind == "double" else []
            self.doubling_seen += 1
            if self.doubling_seen == 3:
                self.phase = "play"
        else:
            leading = self.last is None
            if kind == "timeout":
                kind, action = ("play", {"cards": [lowest(self.held[seat])]}) if leading else ("pass", {})
            if kind == "pass":
                assert not leading
                self.passes += 1
                if self.passes == 2:
                    self.last, self.passes = None, 0
                return
            for card in action["cards"]:
                self.held[seat].remove(card)
            self.last, self.passes = seat, 0
            if not self.held[seat]:
                self.winner, self.phase = seat, "over"

    def scores(self) -> list[int]:
        """B6 / B11.7: s_i = b · show^(players who showed) · d_digger · d_i (d = the double factor for a player who
        doubled), or b · m · double^(doubles) with wk.globalDoubling; the digger wins iff it went out first."""
        digger = self.digger
        assert digger is not None and self.winner is not None
        show, double = self.options["wk.showFactor"], self.options["wk.doubleFactor"]
        m = show ** len(set(self.shown))
        if self.options["wk.globalDoubling"]:
            stake = [self.bid * m * double ** len(self.doubles)] * 3
        else:
            d = [double if s in self.doubles else 1 for s in range(3)]
            stake = [self.bid * m * d[digger] * d[s] for s in range(3)]
        sign = 1 if self.winner == digger else -1
        return [sign * sum(stake[s] for s in range(3) if s != digger) if s == digger else -sign * stake[s]
                for s in range(3)]


@dataclass
class Generated:
    record: dict[str, Any]
    snapshots: list[dict[str, Any]]
    to_act_before: list[int | None]
    hands_before: list[list[list[str]]]
    phase_before: list[str]
    facts: Facts


def snapshot(state, step: int) -> dict[str, Any]:
    views = {str(v): ENGINE.view(state, v) for v in (Viewpoint("referee"), Viewpoint("public"),
                                                     Viewpoint("seat", step % 3))}
    return {"status": ENGINE.status(state), "views": json.loads(json.dumps(views))}


def choose(state, rng: random.Random, foul_rate: float, timeout_rate: float) -> dict[str, Any]:
    seat = state.to_act
    assert seat is not None
    if rng.random() < foul_rate:
        return {"seat": rng.randrange(3), "type": "foul", "code": "smoking", "note": "吸烟"}
    if rng.random() < timeout_rate:
        return {"seat": seat, "type": "timeout"}
    if state.phase != "play":
        legal = ENGINE.legal_actions(state, seat)
        if state.phase == "bidding":
            return rng.choice(legal)
        return legal[0] if rng.random() < 0.35 else legal[-1]  # reveal / double, or pass
    following = state.last_seat is not None and state.last_seat != seat
    plays = candidate_plays(state.hands[seat], state.last_pattern if following else None,
                            state.options["wk.quadIsBomb"])
    if following and (not plays or rng.random() < 0.25):
        return {"seat": seat, "type": "pass"}
    by_size: dict[int, list[list[str]]] = {}
    for cards in plays:
        by_size.setdefault(len(cards), []).append(cards)
    return {"seat": seat, "type": "play", "cards": rng.choice(by_size[rng.choice(sorted(by_size))])}


def generate(seed: int, options: dict[str, Any], foul_rate: float, timeout_rate: float,
             views: bool = False) -> Generated:
    rng = random.Random(seed)
    hands, kitty = deal_from_seed(f"{seed:x}", ENGINE, rng.randrange(3))
    first = lowest_heart_seat(hands)
    resolved = ENGINE.resolve_options(options)
    board = rng.choice([None, 1, 7])
    context = {} if board is None else {"board": board}
    state = ENGINE.new_deal(DealSetup("wakeng", resolved, list(NAMES), first, hands, kitty, context))
    facts = Facts([list(h) for h in hands], list(kitty), resolved)
    actions: list[dict[str, Any]] = []
    snapshots, to_act_before, hands_before, phase_before = [], [], [], []
    while state.phase != "finished":
        action = choose(state, rng, foul_rate, timeout_rate)
        to_act_before.append(state.to_act)
        hands_before.append([list(h) for h in state.hands])
        phase_before.append(state.phase)
        ENGINE.apply(state, action)
        facts.observe(action)
        actions.append(action)
        if views:
            snapshots.append(snapshot(state, len(actions) - 1))
        assert len(actions) < 1000, "the deal does not end"
    record = {"format": "fupan.deal/1", "game": "wakeng", "options": options, "seats": list(NAMES), "first": first,
              "hands": hands, "kitty": kitty, "context": context, "actions": actions}
    return Generated(json.loads(json.dumps(record)), snapshots, to_act_before, hands_before, phase_before, facts)


# -- the properties -------------------------------------------------------------------------------------------


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS, foul_rate=RATES, timeout_rate=RATES)
def test_scores_are_zero_sum_and_follow_b6_recomputed_from_the_actions(seed, options, foul_rate, timeout_rate):
    generated = generate(seed, options, foul_rate, timeout_rate)
    facts = generated.facts
    expected = facts.scores()
    result = comes_to(generated.record, {"scores": expected})
    assert result["scores"] == expected, (facts, result)
    assert sum(expected) == 0
    assert (result["digger"], result["bid"], result["winner"]) == (facts.digger, facts.bid, facts.winner)
    assert result["lanwa"] == all(value is None for _, value in facts.bids)
    assert result["revealed"] == facts.shown and result["doubled"] == facts.doubles
    assert result.get("board") == generated.record["context"].get("board")
    won = facts.winner == facts.digger
    assert result["seat_facts"]["won"] == [int(won == (s == facts.digger)) for s in range(3)]
    wrong = [expected[0] + 1, expected[1] - 1, expected[2]]
    assert check_record({**generated.record, "result": {"scores": wrong}})["code"] == "result_mismatch"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS, foul_rate=RATES)
def test_cards_are_conserved_and_replay_reproduces_every_view(seed, options, foul_rate):
    generated = generate(seed, options, foul_rate, 0.03, views=True)
    setup, actions, _ = parse_record(generated.record)
    state = ENGINE.new_deal(setup)
    assert len(actions) == len(generated.snapshots)
    for step, (action, expected) in enumerate(zip(actions, generated.snapshots, strict=True)):
        ENGINE.apply(state, action)
        taken = state.phase not in ("reveal", "bidding")
        in_hands = [c for hand in state.hands for c in hand] + [c for p in state.played for c in p]
        assert Counter(in_hands + ([] if taken else state.kitty)) == DECK  # 52 cards, always
        if taken:
            assert sorted(len(h) + len(p) for h, p in zip(state.hands, state.played, strict=True)) == [16, 16, 20]
        assert snapshot(state, step) == expected
        seat = step % 3
        for name, sees in ((f"seat:{seat}", seat), ("public", None)):
            view = expected["views"][name]
            for other in view["seats"]:
                shown = other["seat"] == sees or other["seat"] in state.revealed
                assert ("hand" in other) == shown
                assert other["count"] == len(state.hands[other["seat"]])  # counts are public
            assert view["kitty"] == (state.kitty if taken else None)  # public once the digger is known
            assert view["digger"] == (state.digger if taken else None)
        assert expected["views"]["referee"]["kitty"] == state.kitty
    assert ENGINE.status(state)["finished"]


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS, pick=st.floats(0, 1),
       how=st.sampled_from(["seat", "card", "bid", "lead_pass", "first"]))
def test_a_mutated_record_is_refused_at_the_mutated_action(seed, options, pick, how):
    generated = generate(seed, options, 0.0, 0.0)
    actions = generated.record["actions"]
    record = copy.deepcopy(generated.record)
    if how == "first":
        record["first"] = (record["first"] + 1 + int(pick * 10) % 2) % 3
        report = check_record(record)
        assert (report["ok"], report["code"], "action" in report) == (False, "bad_setup", False)
        return
    if how == "seat":
        turns = list(range(len(actions)))
    elif how == "card":
        turns = [i for i, a in enumerate(actions) if a["type"] == "play"]
    elif how == "bid":
        turns = [i for i, a in enumerate(actions) if generated.phase_before[i] == "bidding"
                 and any(b["type"] == "bid" for b in actions[:i] if "value" in b)]
    else:
        turns = [i for i, a in enumerate(actions) if a["type"] == "play" and i and generated.phase_before[i] == "play"
                 and (actions[i - 1]["type"] == "pass" and actions[i - 2]["type"] == "pass"
                      or generated.phase_before[i - 1] != "play")]
    if not turns:
        return
    index = turns[int(pick * (len(turns) - 1))]
    action = record["actions"][index]
    if how == "seat":
        action["seat"] = (action["seat"] + 1 + int(pick * 1000) % 2) % 3
        code = "not_your_turn"
    elif how == "card":
        hand = Counter(generated.hands_before[index][action["seat"]])
        action["cards"] = [next(c for c in sorted(DECK) if not hand[c])]
        code = "card_not_in_hand"
    elif how == "bid":
        highest = max(b["value"] for b in actions[:index] if b["type"] == "bid")
        record["actions"][index] = {"seat": action["seat"], "type": "bid", "value": highest}
        forced = options["wk.mustDig"] and dig_forced(generated.hands_before[index][action["seat"]])
        code = "must_dig" if forced else "bid_too_low"  # 必挖 is judged first
    else:
        record["actions"][index] = {"seat": action["seat"], "type": "pass"}
        code = "must_lead"
    report = check_record(record)
    assert (report["ok"], report.get("action"), report["code"]) == (False, index, code), report
    # A record cut before its last action is incomplete; one more action after the end is refused.
    assert check_record({**generated.record, "actions": actions[:-1]})["code"] == "incomplete"
    report = check_record({**generated.record, "actions": [*actions, {"seat": 0, "type": "pass"}]})
    assert (report.get("action"), report["code"]) == (len(actions), "deal_finished")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS, board=st.sampled_from([None, 1, 5]))
def test_the_random_module_makes_records_that_check(seed, options, board):
    record = random_record(random.Random(seed), options, board=board)
    assert check_record(record) == {"ok": True, "result": record["result"]}
    assert sum(record["result"]["scores"]) == 0
    assert record["first"] == lowest_heart_seat(record["hands"])
    assert record["context"] == ({} if board is None else {"board": board})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_refusal_leaves_the_state_unchanged(seed):
    """At random points of a random deal, random wrong actions are refused and change nothing."""
    rng = random.Random(seed)
    hands, kitty = deal_from_seed(f"r{seed}", ENGINE, 0)
    state = ENGINE.new_deal(DealSetup("wakeng", ENGINE.resolve_options({}), list(NAMES), lowest_heart_seat(hands),
                                      hands, kitty))
    while state.phase != "finished":
        for _ in range(3):
            seat = rng.randrange(3)
            wrong = rng.choice([
                {"seat": seat, "type": "bid", "value": rng.randrange(0, 5)}, {"seat": seat, "type": "reveal"},
                {"seat": seat, "type": "double"}, {"seat": seat, "type": "pass"},
                {"seat": seat, "type": "play", "cards": rng.sample(sorted(DECK), rng.randrange(1, 4))},
            ])
            state = Scripted(ENGINE).undone(state, wrong)  # a lucky legal action: undone, the policy plays on
        ENGINE.apply(state, choose(state, rng, 0.0, 0.0))
