"""Random legal 升级 deals: the generator behind the property tests, the benchmark and sample data.

It deals from a random seed, declares during the deal (with `received` as it was), plays the round after the
last card, buries, and plays 25 tricks with singles, pairs, tractors and throws (valid and failed), following
every obligation of §3.7, trumping and over-trumping when void. Under `sj.illegalPlay` = adjudicate it can
also have a referee record wrong follows and, rarely, a revoke. Every action is built to be legal and is then
applied by the engine anyway, so a refusal is a bug in one of the two (the tests say which).
"""

from __future__ import annotations

import random
from typing import Any

from domain.cards import remove_from
from domain.engine import DealSetup
from domain.games import random_play as shared
from domain.games.shengji.cards import TRUMP, Shape, beats_component, decompose, pair_counts, tractor_match
from domain.games.shengji.engine import ShengjiEngine, ShengjiState

ENGINE = ShengjiEngine()
NAMES = ["东", "南", "西", "北"]


def random_context(rng: random.Random) -> dict[str, Any]:
    """A deal 1 (抢庄, equal levels) a third of the time, else a random dealer at random levels."""
    if rng.random() < 0.3:
        level = rng.randint(2, 14)
        return {"levels": [level, level], "dealer": None, "deal_number": 1}
    return {"levels": [rng.randint(2, 14), rng.randint(2, 14)], "dealer": rng.randrange(4),
            "deal_number": rng.randint(2, 30)}


def _pairs_by_value(cards: list[str], value: dict[str, int], rng: random.Random) -> dict[int, list[str]]:
    seen: set[str] = set()
    out: dict[int, list[str]] = {}
    for code in cards:
        if code in seen:
            out.setdefault(value[code], []).append(code)
        seen.add(code)
    for codes in out.values():
        rng.shuffle(codes)
    return out


def _structured(cards: list[str], shape: Shape, value: dict[str, int], shorter: bool, rng: random.Random
                ) -> list[str]:
    """Tractors matched as well as possible, then pairs up to the lead's number (§3.7.2): the core of a follow."""
    by_value = _pairs_by_value(cards, value, rng)
    chosen: list[str] = []
    placements = tractor_match(pair_counts(cards, value), shape.tractors, shorter)[1] if shape.tractors else []
    for top, size in placements:
        for v in range(top - size + 1, top + 1):
            code = by_value[v].pop()
            chosen += [code, code]
    spare = [code for codes in by_value.values() for code in codes]
    rng.shuffle(spare)
    for code in spare[: shape.pairs - len(chosen) // 2]:
        chosen += [code, code]
    return chosen


def random_follow(state: ShengjiState, seat: int, rng: random.Random) -> list[str]:
    """A legal follow chosen at random; void in a plain led suit it trumps (to win if it can) more often than not."""
    shape, order = state.shape, state.order
    assert shape is not None and order is not None
    hand, suit_of, value = state.hands[seat], order.suit, order.value
    size = shape.size
    in_suit = [c for c in hand if suit_of[c] == shape.suit]
    others = [c for c in hand if suit_of[c] != shape.suit]
    if len(in_suit) <= size:
        if not in_suit and shape.suit != TRUMP and rng.random() < 0.7:
            trumps = [c for c in others if suit_of[c] == TRUMP]
            if len(trumps) >= size:
                core = _structured(trumps, shape, value, False, rng)
                if len(core) // 2 >= shape.pairs:
                    rest = remove_from(trumps, core)
                    rest.sort(key=value.__getitem__, reverse=rng.random() < 0.5)
                    return core + rest[: size - len(core)]
        return in_suit + rng.sample(others, size - len(in_suit))
    if not shape.pairs:
        return rng.sample(in_suit, size)
    core = _structured(in_suit, shape, value, state.options["sj.preferShorterTractor"], rng)
    return core + rng.sample(remove_from(in_suit, core), size - len(core))


def random_lead(state: ShengjiState, seat: int, rng: random.Random) -> list[str]:
    """A single, pair, tractor or throw; throws are built unbeatable half the time, so both outcomes occur."""
    order = state.order
    assert order is not None
    hand, suit_of, value = state.hands[seat], order.suit, order.value
    by_suit: dict[int, list[str]] = {}
    for code in hand:
        by_suit.setdefault(suit_of[code], []).append(code)
    parts = {suit: decompose(cards, value) for suit, cards in by_suit.items()}
    pairs = [p for ps in parts.values() for p in ps if p.pairs == 1]
    tractors = [p for ps in parts.values() for p in ps if p.pairs >= 2]
    roll = rng.random()
    if roll < 0.25 and tractors:
        part = rng.choice(tractors)
        if part.pairs > 2 and rng.random() < 0.5:  # a shorter piece of a long tractor
            size = rng.randint(2, part.pairs)
            start = rng.randint(0, part.pairs - size)
            return list(part.cards[2 * start: 2 * (start + size)])
        return list(part.cards)
    if roll < 0.45 and pairs:
        return list(rng.choice(pairs).cards)
    suit = rng.choice(sorted(by_suit))
    components = parts[suit]
    if roll < 0.75 or len(components) < 2:
        return [rng.choice(hand)]
    holdings = [[c for c in state.hands[s] if suit_of[c] == suit] for s in range(4) if s != seat]
    safe = [c for c in components if not any(beats_component(c, h, value) for h in holdings)]
    pool = safe if len(safe) >= 2 and rng.random() < 0.5 else components
    picked = rng.sample(pool, rng.randint(2, min(len(pool), 4)))
    return [code for part in picked for code in part.cards]


def _wrong_follow(state: ShengjiState, seat: int, rng: random.Random) -> list[str] | None:
    """A follow that keeps suit but breaks a pair/tractor obligation, if this seat can make one."""
    shape, order = state.shape, state.order
    assert shape is not None and order is not None
    in_suit = [c for c in state.hands[seat] if order.suit[c] == shape.suit]
    distinct = sorted(set(in_suit))
    if not shape.pairs or len(in_suit) <= shape.size or len(distinct) < shape.size:
        return None
    cards = rng.sample(distinct, shape.size)
    return cards if ENGINE.follow_obligation(state, seat, cards) in ("must_play_pair", "must_play_tractor") else None


def revoke_cards(state: ShengjiState, seat: int, rng: random.Random) -> list[str] | None:
    """Cards of other suits the seat plays although it holds the led suit (a revoke), if it can."""
    shape, order = state.shape, state.order
    assert shape is not None and order is not None
    hand = state.hands[seat]
    others = [c for c in hand if order.suit[c] != shape.suit]
    if len(others) == len(hand) or len(others) < shape.size:
        return None
    return rng.sample(others, shape.size)


def _declare_during_deal(state: ShengjiState, first: int, rng: random.Random, rate: float,
                         actions: list[dict[str, Any]]) -> None:
    """After each card, the seat that received it may declare with what it holds so far (§3.4)."""
    for dealt in range(1, 101):
        seat = (first + dealt - 1) % 4
        if rng.random() >= rate:
            continue
        received = (dealt - 1) // 4 + 1
        options = ENGINE.declarations_from(state, seat, state.dealt_hands[seat][:received])
        if options:
            action = {"seat": seat, "type": "declare", "cards": rng.choice(options), "received": received}
            ENGINE.apply(state, action)
            actions.append(action)


def play_out(state: ShengjiState, rng: random.Random, actions: list[dict[str, Any]], *, foul_rate: float = 0.0,
             timeout_rate: float = 0.0, irregularity_rate: float = 0.0, forced_rate: float = 0.5) -> None:
    """Play the deal in `state` to its end from wherever it is, appending every action to `actions`."""
    engine = ENGINE
    adjudicate = state.options["sj.illegalPlay"] == "adjudicate"
    while state.phase != "finished":
        seat = state.to_act if state.to_act is not None else state.first  # the round after the last card
        action: dict[str, Any]
        if rng.random() < foul_rate:
            action = {"seat": rng.randrange(4), "type": "foul", "code": "signal", "note": "打暗号 / signalling"}
            if state.dealer is not None and rng.random() < 0.5:
                action["penalty"] = 10
        elif rng.random() < timeout_rate:
            action = {"seat": seat, "type": "timeout"}
        elif state.phase in ("dealing", "declaring"):
            choices = engine.legal_actions(state, seat)
            action = rng.choice(choices[1:]) if len(choices) > 1 and rng.random() < 0.2 else choices[0]
        elif state.phase == "burying":
            action = {"seat": seat, "type": "bury", "cards": rng.sample(state.hands[seat], 8)}
        elif not state.trick:
            action = {"seat": seat, "type": "play", "cards": random_lead(state, seat, rng)}
        else:
            action = {"seat": seat, "type": "play", "cards": random_follow(state, seat, rng)}
            if adjudicate and rng.random() < irregularity_rate:
                if rng.random() < 0.1 and (cards := revoke_cards(state, seat, rng)):
                    action = {"seat": seat, "type": "irregularity", "kind": "revoke", "cards": cards,
                              "note": "有红桃却垫牌 / revoke"}
                elif cards := _wrong_follow(state, seat, rng):
                    action = {"seat": seat, "type": "irregularity", "kind": "wrong_follow", "cards": cards}
        engine.apply(state, action)
        if action["type"] == "play" and len(state.trick) == 1 and state.trick[0].get("failed_throw") \
                and rng.random() < forced_rate:
            action["forced"] = list(state.trick[0]["cards"])  # the record may state the forced part (checked)
        actions.append(action)


def play_deal(setup: DealSetup, rng: random.Random, *, declare_rate: float = 0.04, foul_rate: float = 0.003,
              timeout_rate: float = 0.005, irregularity_rate: float = 0.02
              ) -> tuple[ShengjiState, list[dict[str, Any]]]:
    """Random legal actions for a deal set up elsewhere (a match's next deal), from the deal to its end."""
    state = ENGINE.new_deal(setup)
    actions: list[dict[str, Any]] = []
    _declare_during_deal(state, setup.first, rng, declare_rate, actions)
    play_out(state, rng, actions, foul_rate=foul_rate, timeout_rate=timeout_rate,
             irregularity_rate=irregularity_rate)
    return state, actions


def random_record(rng: random.Random, options: dict[str, Any] | None = None, *, context: dict[str, Any] | None = None,
                  declare_rate: float = 0.04, foul_rate: float = 0.003, timeout_rate: float = 0.005,
                  irregularity_rate: float = 0.02) -> dict[str, Any]:
    """One complete, legal `fupan.deal/1` 升级 record of a random deal."""
    context = context if context is not None else random_context(rng)
    dealer = context.get("dealer")
    setup = shared.random_setup(ENGINE, rng, NAMES, dealer if dealer is not None else rng.randrange(4), options,
                                context)
    state, actions = play_deal(setup, rng, declare_rate=declare_rate, foul_rate=foul_rate, timeout_rate=timeout_rate,
                               irregularity_rate=irregularity_rate)
    return shared.finished_record(ENGINE, setup, state, actions)
