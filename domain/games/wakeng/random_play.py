"""Random legal 挖坑 deals: the generator behind the property tests, the benchmarks and sample data.

`candidate_plays` builds every single, pair, triple, quad, run and pair run a hand can make and keeps those the
rules accept, so every action it emits is legal; the engine checks it again anyway. The deal, the loop and the
record are domain/games/random_play.py's.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from domain.games import random_play as shared
from domain.games.wakeng.engine import WakengEngine, WakengState, first_bidder
from domain.games.wakeng.patterns import RUN_TOP, Pattern, beats, card_value, parse

ENGINE = WakengEngine()
NAMES = ["东", "南", "西"]
LEFT_SEAT = shared.foul_by_anyone(3, "left_seat", "未经允许离座 / left the seat without leave")


def candidate_plays(hand: list[str], target: Pattern | None, quad_is_bomb: bool = False) -> list[list[str]]:
    groups = shared.by_value(hand, card_value)
    out = [cards[:n] for cards in groups.values() for n in range(1, len(cards) + 1)]
    for width in (1, 2):
        for low in range(4, RUN_TOP - 1):
            body: list[str] = []
            for value in range(low, min(low + 10, RUN_TOP + 1)):
                if len(groups.get(value, [])) < width:
                    break
                body += groups[value][:width]
                if value - low >= 2:
                    out.append(list(body))
    return shared.accepted(out, target, parse, lambda pattern, last: beats(pattern, last, quad_is_bomb))


def play_out(state: WakengState, rng: random.Random, actions: list[dict[str, Any]], *, foul_rate: float = 0.0,
             timeout_rate: float = 0.0) -> None:
    """Play the deal in `state` to its end with random legal actions, appending each to `actions`."""

    def choose(state: WakengState, seat: int) -> dict[str, Any]:
        if state.phase != "play":
            choices = ENGINE.legal_actions(state, seat)  # [reveal|double, pass], or [pass, bids…] when bidding
            if state.phase == "bidding":
                return rng.choice(choices)
            return choices[0] if rng.random() < 0.15 else choices[-1]  # mostly decline 明牌 and 加倍, as players do
        following = state.last_seat is not None and state.last_seat != seat
        options = candidate_plays(state.hands[seat], state.last_pattern if following else None,
                                  state.options["wk.quadIsBomb"])
        return shared.choose_play(seat, options, following, rng, 0.2, shared.kind_of(parse))

    shared.play_out(ENGINE, state, rng, actions, choose, foul=LEFT_SEAT, foul_rate=foul_rate,
                    timeout_rate=timeout_rate)


def random_record(rng: random.Random, options: dict[str, Any] | None = None, *, foul_rate: float = 0.01,
                  timeout_rate: float = 0.01, board: Any = None) -> dict[str, Any]:
    """One complete, legal `fupan.deal/1` record of a random deal (dealt from seat 0; the cards name the first
    bidder)."""
    setup = shared.random_setup(ENGINE, rng, NAMES, 0, options, {} if board is None else {"board": board})
    setup = dataclasses.replace(setup, first=first_bidder(setup.hands))
    return shared.played_record(ENGINE, setup, play_out, rng, foul_rate=foul_rate, timeout_rate=timeout_rate)
