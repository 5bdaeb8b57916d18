"""Property tests: random legal 快乐三打一 deals (docs/rules/sandayi.md) under random ruleset switches keep every
invariant.

Deals are shuffled from a seed and sometimes rigged (four jokers in the kitty, seven of a rank to the first bidder)
so that 报到 and 双报到 happen often. The deal is played by a random policy over `candidate_plays`; scores, bomb
allowances and the way the deal ended are then recomputed here from the actions alone (§1.5, §1.7, §1.8,
§1.10a), independently of the engine's bookkeeping.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from game_support import comes_to
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domain.games.sandayi.engine import SandayiEngine
from domain.kernel.cards import full_deck
from domain.kernel.engine import DealSetup, Viewpoint
from domain.kernel.errors import IllegalAction
from domain.records.format import check_record, parse_record
from fixtures.random_play.sandayi import candidate_plays, random_record

ENGINE = SandayiEngine()
NAMES = ["甲", "乙", "丙", "丁"]
DECK = Counter(full_deck(2, True))
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

OPTIONS = st.fixed_dictionaries(
    {
        "sdy.fullHouseCompare": st.sampled_from(["tripleOnly", "tripleThenPair"]),
        "sdy.baodao.instantWin": st.booleans(),
        "sdy.baodao.lockCards": st.booleans(),
        "sdy.baodao.perSet": st.booleans(),
        "sdy.bombMultiplier": st.sampled_from(["none", "x2each", "tiered"]),
        "sdy.spring": st.booleans(),
        "sdy.foulLoss": st.sampled_from(["side", "offenderOnly"]),
    }
)
RIGS = st.sampled_from(["none", "jokers_in_kitty", "seven_to_first", "both"])
FOUL_RATES = st.sampled_from([0.0, 0.01, 0.04])
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rank_of(code: str) -> str:
    return code if code in ("LJ", "BJ") else code[1:]


def is_bomb(cards: list[str]) -> bool:
    """§1.3: 4–8 cards of one non-joker rank, or exactly BJ BJ LJ LJ."""
    counts = Counter(rank_of(c) for c in cards)
    if counts == Counter({"BJ": 2, "LJ": 2}):
        return True
    return len(counts) == 1 and len(cards) >= 4 and not {"BJ", "LJ"} & set(counts)


def deal(rng: random.Random, rig: str, first: int) -> tuple[list[list[str]], list[str]]:
    """A shuffled two-deck deal, 25 each + 8; rigged so the kitty holds the four jokers and/or the first bidder
    seven cards of one rank."""
    deck = full_deck(2, True)
    rng.shuffle(deck)
    placed: dict[int, list[str]] = {s: [] for s in range(5)}  # seat 0–3, 4 = kitty
    if rig in ("jokers_in_kitty", "both"):
        placed[4] += ["BJ", "BJ", "LJ", "LJ"]
    if rig in ("seven_to_first", "both"):
        rank = rng.choice(RANKS)
        placed[first] += [c for c in deck if rank_of(c) == rank][:7]
    rest = list((Counter(deck) - Counter(c for cards in placed.values() for c in cards)).elements())
    rng.shuffle(rest)
    zones = []
    for zone, size in enumerate([25, 25, 25, 25, 8]):
        need = size - len(placed[zone])
        zones.append(placed[zone] + rest[:need])
        rest = rest[need:]
    return zones[:4], zones[4]


def snapshot(state, step: int) -> dict[str, Any]:
    """Status and views after action `step`: the referee's, the public's and one seat's (turn about)."""
    views = {str(v): ENGINE.view(state, v) for v in (Viewpoint("referee"), Viewpoint("public"),
                                                     Viewpoint("seat", step % 4))}
    return {"status": ENGINE.status(state), "views": views}


@dataclass
class Before:
    """The parts of the state before an action that `observe` reads."""

    to_act: int | None
    hands: list[list[str]]
    played: list[list[str]]

    @classmethod
    def of(cls, state) -> Before:
        return cls(state.to_act, [list(h) for h in state.hands], [list(p) for p in state.played])


def allowance_from_bids(bids: list[tuple[int, int | None]], dealer: int) -> list[int | None]:
    """§1.5: dealer unlimited; a defender who never bid unlimited; bid 1 → 1, bid 2 → 2, passed → 1."""
    said = dict(bids)
    return [None if s == dealer or s not in said else (said[s] or 1) for s in range(4)]


@dataclass
class Facts:
    """What happened, read off the actions (and the cards each action moved), not off the engine's result."""

    first: int
    hands: list[list[str]]  # as dealt
    kitty: list[str]
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    bidding_over: bool = False
    dealer: int | None = None
    bid: int = 0
    declared: list[str] = field(default_factory=list)
    baodao_sets: int = 0
    plays: list[tuple[int, list[str]]] = field(default_factory=list)
    fouls: Counter = field(default_factory=Counter)
    ending: str | None = None
    winner: int | None = None
    offender: int | None = None

    @property
    def toulu(self) -> bool:
        return bool(self.bids) and self.bids[0] == (self.first, 3)

    def allowance(self) -> list[int | None]:
        assert self.dealer is not None
        return allowance_from_bids(self.bids, self.dealer)

    def bombs_by_seat(self) -> list[int]:
        return [sum(1 for s, cards in self.plays if s == seat and is_bomb(cards)) for seat in range(4)]


def sets_in(cards: list[str]) -> int:
    """报到 sets (§1.5): every rank held 7 or 8 times, and all four jokers."""
    counts = Counter(rank_of(c) for c in cards)
    return sum(1 for r, n in counts.items() if n >= 7 and r not in ("BJ", "LJ")) + (counts["BJ"] + counts["LJ"] == 4)


def observe(facts: Facts, state_before: Before, action: dict[str, Any], state_after, options: dict[str, Any]) -> None:
    """Update `facts` with one accepted action (the state is read only for which cards moved and whose turn it
    was, which the record implies)."""
    if facts.ending is not None:
        return
    kind, seat = action["type"], action["seat"]
    if kind == "foul":
        facts.fouls[seat] += 1
        if facts.fouls[seat] == 2:  # §1.8 / §1.10a.8: a player's second foul decides the deal
            facts.ending, facts.offender = ("void" if not facts.bidding_over else "foul"), seat
        return
    if not facts.bidding_over:
        # A timeout [REC]: the opening bid becomes 1, a later bidder passes.
        value = action.get("value") if kind == "bid" else 1 if kind == "timeout" and not facts.bids else None
        facts.bids.append((seat, value))
        if value is not None:
            facts.bid, facts.dealer = value, seat
        if facts.bid == 3 or len(facts.bids) == 4:
            facts.bidding_over = True
        return
    if kind == "declare":
        facts.declared.append(action["kind"])
        if action["kind"] == "baodao":
            assert facts.dealer is not None
            held = facts.hands[facts.dealer] + facts.kitty  # the dealer has not played yet: the 33 cards
            assert Counter(held) == Counter(state_before.hands[facts.dealer])
            facts.baodao_sets = sets_in(held)
            assert facts.baodao_sets >= 1
            if options["sdy.baodao.instantWin"]:
                facts.ending, facts.winner = "instant", facts.dealer
        return
    moved = [len(after) - len(before) for before, after in zip(state_before.played, state_after.played, strict=True)]
    if any(moved):
        who = moved.index(max(moved))
        cards = state_after.played[who][len(state_before.played[who]):]
        assert who == state_before.to_act and (kind == "timeout" or cards == action["cards"])
        facts.plays.append((who, cards))
        if not state_after.hands[who]:
            facts.ending, facts.winner = "out", who


def expected_scores(facts: Facts, options: dict[str, Any]) -> list[int]:
    """§1.7 with every switch, and §1.8/§1.10a.8 for a deal decided by fouls."""
    if facts.ending == "void":
        return [0, 0, 0, 0]
    dealer = facts.dealer
    assert dealer is not None
    if facts.ending == "instant":
        won = True
    elif facts.ending == "foul":
        won = facts.offender != dealer
    else:
        won = facts.winner == dealer
    u = 4 if facts.toulu and won else facts.bid
    m = 2 if "tanda" in facts.declared else 1
    baodao = "baodao" in facts.declared
    if baodao and facts.ending == "out" and not won:
        return [0, 0, 0, 0]  # 报到 and a dealer loss: 0 for all four
    # The 报到 ×2 needs the deal played on: not after 直接赢, not when the dealer's own foul decides it.
    if baodao and facts.ending != "instant" and not (facts.ending == "foul" and facts.offender == dealer):
        m *= 2 ** facts.baodao_sets if options["sdy.baodao.perSet"] else 2
    for _, cards in facts.plays:
        if is_bomb(cards):
            if options["sdy.bombMultiplier"] == "x2each":
                m *= 2
            elif options["sdy.bombMultiplier"] == "tiered":
                m *= 3 if len(cards) == 8 or "BJ" in cards else 2 if len(cards) >= 6 else 1
    if options["sdy.spring"] and facts.ending == "out":
        played = Counter(s for s, _ in facts.plays)
        if (won and all(played[s] == 0 for s in range(4) if s != dealer)) or (not won and played[dealer] == 1):
            m *= 2
    if facts.ending == "foul" and facts.offender != dealer and options["sdy.foulLoss"] == "offenderOnly":
        return [u * m if s == dealer else -u * m if s == facts.offender else 0 for s in range(4)]
    sign = 1 if won else -1
    return [3 * sign * u * m if s == dealer else -sign * u * m for s in range(4)]


@dataclass
class Generated:
    record: dict[str, Any]
    snapshots: list[dict[str, Any]]
    hands_before: list[list[list[str]]]  # each seat's hand before each action
    to_act_before: list[int | None]
    facts: Facts


def generate(seed: int, options: dict[str, Any], rig: str, foul_rate: float, views: bool = False) -> Generated:
    """Play one random deal; on the way, try bombs beyond the allowance and check the engine refuses them."""
    rng = random.Random(seed)
    first = rng.randrange(4)
    hands, kitty = deal(rng, rig, first)
    resolved = ENGINE.resolve_options(options)
    state = ENGINE.new_deal(DealSetup("sandayi", resolved, list(NAMES), first, hands, kitty))
    facts = Facts(first, [list(h) for h in hands], list(kitty))
    actions: list[dict[str, Any]] = []
    snapshots, hands_before, to_act_before = [], [], []
    while state.phase != "finished":
        action = choose(state, rng, foul_rate, facts)
        before = Before.of(state)
        ENGINE.apply(state, action)
        observe(facts, before, action, state, resolved)
        actions.append(action)
        hands_before.append(before.hands)
        to_act_before.append(before.to_act)
        if views:
            snapshots.append(snapshot(state, len(actions) - 1))
        if len(actions) > 2000:
            raise AssertionError("the deal does not end")
    record = {"format": "fupan.deal/1", "game": "sandayi", "options": options, "seats": list(NAMES),
              "first": first, "hands": hands, "kitty": kitty, "context": {}, "actions": actions}
    return Generated(json.loads(json.dumps(record)), snapshots, hands_before, to_act_before, facts)


def choose(state, rng: random.Random, foul_rate: float, facts: Facts) -> dict[str, Any]:
    seat = state.to_act
    assert seat is not None
    if rng.random() < foul_rate * (10 if state.phase == "bidding" else 1):  # some deals are voided in bidding
        return {"seat": rng.randrange(4), "type": "foul", "code": "talking", "note": "说话"}
    if rng.random() < 0.02:
        return {"seat": seat, "type": "timeout"}
    legal = ENGINE.legal_actions(state, seat)
    if state.phase == "bidding":
        return rng.choice(legal)
    declarations = [a for a in legal if a["type"] == "declare"]
    if declarations and rng.random() < 0.6:
        return rng.choice(declarations)
    following = state.last_seat is not None and state.last_seat != seat
    plays = candidate_plays(state.hands[seat], state.last_pattern if following else None,
                            state.options["sdy.fullHouseCompare"])
    if seat == state.dealer and state.locked:
        plays = [p for p in plays if not any(c in s for s in state.locked for c in p)
                 or any(Counter(p) == Counter(s) for s in state.locked)]
    allowed = facts.allowance()[seat]
    if allowed is not None and facts.bombs_by_seat()[seat] >= allowed:
        over = [p for p in plays if is_bomb(p)]
        if over and rng.random() < 0.5:
            before = copy.deepcopy(state)
            with pytest.raises(IllegalAction) as error:
                ENGINE.apply(state, {"seat": seat, "type": "play", "cards": rng.choice(over)})
            assert error.value.code == "bomb_allowance" and state == before
        plays = [p for p in plays if not is_bomb(p)]
    if following and (not plays or rng.random() < 0.25):
        return {"seat": seat, "type": "pass"}
    by_kind: dict[str, list[list[str]]] = {}
    for cards in plays:
        by_kind.setdefault(kind_of(cards), []).append(cards)
    kind = rng.choice(sorted(by_kind))
    return {"seat": seat, "type": "play", "cards": rng.choice(by_kind[kind])}


def kind_of(cards: list[str]) -> str:
    return "bomb" if is_bomb(cards) else str(len(cards)) if len(cards) < 5 else "long"


# -- the properties -------------------------------------------------------------------------------------------


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS, rig=RIGS, foul_rate=FOUL_RATES)
def test_scores_follow_section_1_7_and_the_record_checks(seed, options, rig, foul_rate):
    generated = generate(seed, options, rig, foul_rate)
    facts = generated.facts
    expected = expected_scores(facts, ENGINE.resolve_options(options))
    result = comes_to(generated.record, {"scores": expected, **({"redeal": True} if facts.ending == "void" else {})})
    assert result["scores"] == expected, (facts, result)
    assert sum(result["scores"]) == 0
    assert (result["ending"], result["offender"]) == (facts.ending, facts.offender)
    if facts.ending != "void":
        assert (result["dealer"], result["bid"], result["toulu"]) == (facts.dealer, facts.bid, facts.toulu)
        assert (result["winner"], result["offender"]) == (facts.winner, facts.offender)
        assert result["declared"] == facts.declared
        assert result["bombs"] == facts.bombs_by_seat()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS, rig=RIGS, foul_rate=FOUL_RATES)
@example(seed=2432, options={}, rig="both", foul_rate=0.04)  # voided in bidding: nobody takes the kitty
def test_cards_are_conserved_allowances_hold_and_replay_reproduces_every_view(seed, options, rig, foul_rate):
    generated = generate(seed, options, rig, foul_rate, views=True)
    setup, actions, _ = parse_record(generated.record)
    state = ENGINE.new_deal(setup)
    assert len(actions) == len(generated.snapshots)
    for step, (action, expected) in enumerate(zip(actions, generated.snapshots, strict=True)):
        ENGINE.apply(state, action)
        taken = state.phase == "play" or state.ending not in (None, "void")  # the dealer's hand holds it
        kitty = [] if taken else state.kitty
        assert Counter([c for hand in state.hands for c in hand] + [c for p in state.played for c in p] + kitty) \
            == DECK
        if state.phase != "bidding":
            allowance = allowance_from_bids(state.bids, state.dealer)
            assert all(a is None or n <= a for n, a in zip(state.bombs_by_seat, allowance, strict=True))
        assert snapshot(state, step) == expected
        seat = step % 4
        for viewpoint, sees in ((f"seat:{seat}", seat), ("public", None)):
            view = expected["views"][viewpoint]
            for other in view["seats"]:
                shown = other["seat"] == sees or state.exposed[other["seat"]]
                assert ("hand" in other) == shown
                size = len(state.hands[other["seat"]])
                assert other["count"] == (size if shown or size <= 10 else ">10")  # §1.10a.12
            dealer_sees = sees is not None and sees == state.dealer and not (state.phase == "bidding"
                                                                              or state.ending == "void")
            assert view["kitty"] == (state.kitty if dealer_sees else None)  # kitty: dealer and referee only
        assert expected["views"]["referee"]["kitty"] == state.kitty
    assert ENGINE.status(state)["finished"]
    assert generated.facts.bombs_by_seat() == state.bombs_by_seat


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS, rig=RIGS, pick=st.floats(0, 1), how=st.sampled_from(
    ["seat", "card"]))
def test_a_mutated_record_is_refused_at_the_mutated_action(seed, options, rig, pick, how):
    generated = generate(seed, options, rig, 0.0)
    actions = generated.record["actions"]
    turns = [i for i, a in enumerate(actions) if a["type"] in ("play", "pass", "timeout")
             and generated.to_act_before[i] == a["seat"] and (how == "seat" or a["type"] == "play")]
    if not turns:
        return
    index = turns[int(pick * (len(turns) - 1))]
    record = copy.deepcopy(generated.record)
    action = record["actions"][index]
    if how == "seat":
        action["seat"] = (action["seat"] + 1 + int(pick * 1000) % 3) % 4
        code = "not_your_turn"
    else:
        hand = Counter(generated.hands_before[index][action["seat"]])
        action["cards"] = [next(c for c in sorted(DECK) if not hand[c])]
        code = "card_not_in_hand"
    report = check_record(record)
    assert (report["ok"], report.get("action"), report["code"]) == (False, index, code), report
    # A record cut before its last action is incomplete; one more action after the end is refused.
    assert check_record({**generated.record, "actions": actions[:-1]})["code"] == "incomplete"
    extra = {"seat": 0, "type": "pass"}
    report = check_record({**generated.record, "actions": [*actions, extra]})
    assert (report.get("action"), report["code"]) == (len(actions), "deal_finished")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_the_random_module_makes_records_that_check(seed, options):
    record = random_record(random.Random(seed), options)
    assert check_record(record) == {"ok": True, "result": record["result"]}
    assert sum(record["result"]["scores"]) == 0
