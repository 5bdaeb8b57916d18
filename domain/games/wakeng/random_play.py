"""Random legal 挖坑 deals: the generator behind the property tests, the benchmarks and sample data.

`candidate_plays` builds every single, pair, triple, quad, run and pair run a hand can make and keeps those the
rules accept, so every action it emits is legal; the engine checks it again anyway.
"""

from __future__ import annotations

import random
from typing import Any

from domain.dealing import deal_from_seed
from domain.engine import DealSetup
from domain.games.wakeng.engine import WakengEngine, WakengState, first_bidder
from domain.games.wakeng.patterns import RUN_TOP, Pattern, beats, card_value, parse

ENGINE = WakengEngine()
NAMES = ["东", "南", "西"]


def candidate_plays(hand: list[str], target: Pattern | None, quad_is_bomb: bool = False) -> list[list[str]]:
    groups: dict[int, list[str]] = {}
    for code in hand:
        groups.setdefault(card_value(code), []).append(code)
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
    found = []
    for play in out:
        pattern = parse(play)
        if pattern is not None and (target is None or beats(pattern, target, quad_is_bomb)):
            found.append(play)
    return found


def play_out(state: WakengState, rng: random.Random, actions: list[dict[str, Any]], *, foul_rate: float = 0.0,
             timeout_rate: float = 0.0) -> None:
    """Play the deal in `state` to its end with random legal actions, appending each to `actions`."""
    while state.phase != "finished":
        seat = state.to_act
        assert seat is not None
        action: dict[str, Any]
        if rng.random() < foul_rate:
            action = {"seat": rng.randrange(3), "type": "foul", "code": "left_seat",
                      "note": "未经允许离座 / left the seat without leave"}
        elif rng.random() < timeout_rate:
            action = {"seat": seat, "type": "timeout"}
        elif state.phase != "play":
            choices = ENGINE.legal_actions(state, seat)  # [reveal|double, pass], or [pass, bids…] when bidding
            if state.phase == "bidding":
                action = rng.choice(choices)
            else:  # mostly decline 明牌 and 加倍, as players do
                action = choices[0] if rng.random() < 0.15 else choices[-1]
        else:
            following = state.last_seat is not None and state.last_seat != seat
            options = candidate_plays(state.hands[seat], state.last_pattern if following else None,
                                      state.options["wk.quadIsBomb"])
            if following and (not options or rng.random() < 0.2):
                action = {"seat": seat, "type": "pass"}
            else:
                by_kind: dict[str, list[list[str]]] = {}
                for play in options:
                    by_kind.setdefault(parse(play).kind, []).append(play)  # type: ignore[union-attr]
                action = {"seat": seat, "type": "play", "cards": rng.choice(by_kind[rng.choice(sorted(by_kind))])}
        ENGINE.apply(state, action)
        actions.append(action)


def random_record(rng: random.Random, options: dict[str, Any] | None = None, *, foul_rate: float = 0.01,
                  timeout_rate: float = 0.01, board: Any = None) -> dict[str, Any]:
    """One complete, legal `fupan.deal/1` record of a random deal."""
    hands, kitty = deal_from_seed(f"{rng.getrandbits(64):x}", ENGINE, 0)
    first = first_bidder(hands)
    context = {} if board is None else {"board": board}
    setup = DealSetup("wakeng", ENGINE.resolve_options(options or {}), list(NAMES), first, hands, kitty, context)
    state = ENGINE.new_deal(setup)
    actions: list[dict[str, Any]] = []
    play_out(state, rng, actions, foul_rate=foul_rate, timeout_rate=timeout_rate)
    result = ENGINE.result(state)
    assert result is not None
    return {"format": "fupan.deal/1", "game": "wakeng", "options": setup.options, "seats": setup.seats,
            "first": first, "hands": hands, "kitty": kitty, "context": context, "actions": actions,
            "result": {"scores": result["scores"]}}
