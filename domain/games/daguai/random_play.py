"""Random legal 大怪路子 deals: the generator behind the property tests, the benchmarks and sample data.

`candidate_plays` builds singles, pairs, triples and five-card plays of every class from a hand (jokers standing
in where they help) and keeps those the rules accept (`parse`, `beats`); the engine checks each action again.
The deal, the loop and the record are domain/games/random_play.py's.
"""

from __future__ import annotations

import random
from typing import Any

from domain.games import random_play as shared
from domain.games.daguai.engine import DaguaiEngine, DaguaiState
from domain.games.daguai.patterns import BIG, LITTLE, Pattern, beats, card_value, parse

ENGINE = DaguaiEngine()
NAMES = ["甲一", "乙一", "甲二", "乙二", "甲三", "乙三"]
TALKING = shared.foul_by_anyone(6, "talking", "说话 / spoke during play")


def candidate_plays(hand: list[str], target: Pattern | None, rng: random.Random) -> list[list[str]]:
    """Plays from `hand` (a sample where there are many): every size when leading, else the target's size."""
    groups = shared.by_value(hand, card_value)
    jokers = groups.get(LITTLE, []) + groups.get(BIG, [])
    naturals = {v: cards for v, cards in groups.items() if v < LITTLE}
    size = None if target is None else target.size
    out: list[list[str]] = []
    if size in (None, 1):
        out += [cards[:1] for cards in groups.values()]
    for n in (2, 3):
        if size in (None, n):
            out += [cards[:n] for cards in groups.values() if len(cards) >= n]
            out += [cards[:n - 1] + jokers[:1] for cards in naturals.values() if len(cards) >= n - 1 and jokers]
    if size in (None, 5):
        for value, cards in naturals.items():
            if len(cards) + len(jokers) >= 5:
                out.append((cards + jokers)[:5])
            if len(cards) >= 4:
                other = next((c for c in hand if card_value(c) != value), None)
                if other:
                    out.append(cards[:4] + [other])
            if len(cards) >= 3:
                out += [cards[:3] + more[:2] for v, more in naturals.items() if v != value and len(more) >= 2]
        for low in range(1, 11):
            picked, spare = [], list(jokers)
            for position in range(low, low + 5):
                have = naturals.get(shared.sequence_rank(position), [])
                if have:
                    picked.append(rng.choice(have))
                elif spare:
                    picked.append(spare.pop())
            if len(picked) == 5:
                out.append(picked)
        by_suit: dict[str, list[str]] = {}
        for code in hand:
            if card_value(code) < LITTLE:
                by_suit.setdefault(code[0], []).append(code)
        out += [rng.sample(cards, 5) for cards in by_suit.values() if len(cards) >= 5]
    return shared.accepted(out, target, parse, beats)


def play_out(state: DaguaiState, rng: random.Random, actions: list[dict[str, Any]], *, foul_rate: float = 0.0,
             timeout_rate: float = 0.0) -> None:
    """Play the deal in `state` to its end with random legal actions, appending each to `actions`."""

    def choose(state: DaguaiState, seat: int) -> dict[str, Any]:
        options = candidate_plays(state.hands[seat], state.last_pattern, rng)
        return shared.choose_play(seat, options, state.last_pattern is not None, rng, 0.3, shared.kind_of(parse))

    shared.play_out(ENGINE, state, rng, actions, choose, foul=TALKING, foul_rate=foul_rate, timeout_rate=timeout_rate)


def random_record(rng: random.Random, options: dict[str, Any] | None = None, *, foul_rate: float = 0.005,
                  timeout_rate: float = 0.005, first: int | None = None) -> dict[str, Any]:
    """One complete, legal `fupan.deal/1` record of a random deal."""
    setup = shared.random_setup(ENGINE, rng, NAMES, rng.randrange(6) if first is None else first, options)
    return shared.played_record(ENGINE, setup, play_out, rng, foul_rate=foul_rate, timeout_rate=timeout_rate)
