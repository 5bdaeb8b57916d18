"""Random legal 斗地主 deals: the generator behind the property tests, the benchmarks and sample data.

Every action it emits is legal by construction of `candidate_plays`, and is then checked by the engine
anyway (a generated deal that the engine refused would be a bug in one of the two, and the tests say so). The
deal, the loop and the record are domain/games/random_play.py's.
"""

from __future__ import annotations

import random
from typing import Any

from domain.games import random_play as shared
from domain.games.doudizhu.engine import DoudizhuEngine, DoudizhuState
from domain.games.doudizhu.patterns import BIG, LITTLE, SEQUENCE_TOP, Pattern, answers, parses
from domain.games.shedding import card_value

ENGINE = DoudizhuEngine()
NAMES = ["甲", "乙", "丙"]
TALKING = shared.foul_by_anyone(3, "talking", "说话 / spoke during play")


def _kickers(groups: dict[int, list[str]], exclude: set[int], count: int, width: int, rng: random.Random
             ) -> list[str] | None:
    """`count` kicker units of `width` cards (1 = singles, 2 = pairs of distinct ranks) outside `exclude`."""
    if width == 1:
        pool = [c for v, cards in groups.items() if v not in exclude for c in cards]
        if len(pool) < count:
            return None
        chosen = rng.sample(pool, count)
        values = {card_value(c) for c in chosen}
        if LITTLE in values and BIG in values:
            return None  # wings / 四带二 singles may not be the rocket [REC]
        return chosen
    ranks = [v for v, cards in groups.items() if v not in exclude and len(cards) >= 2 and v < LITTLE]
    if len(ranks) < count:
        return None
    return [c for v in rng.sample(ranks, count) for c in groups[v][:2]]


def candidate_plays(hand: list[str], target: list[Pattern] | None, rng: random.Random) -> list[list[str]]:
    """Plays from `hand`: everything shaped like a lead when `target` is None, else those that beat it.

    Kickers are chosen at random (one choice per main part), so the list is a sample, not every play.
    """
    groups = shared.by_value(hand, card_value)
    values = sorted(groups)
    out: list[list[str]] = []
    wanted = {(p.kind, p.size) for p in target} if target else None

    def want(kind: str, size: int) -> bool:
        return wanted is None or (kind, size) in wanted or kind in ("bomb", "rocket")

    for v in values:
        cards = groups[v]
        for n, kind in ((1, "single"), (2, "pair"), (3, "trio"), (4, "bomb")):
            if len(cards) >= n and want(kind, n) and (n != 2 or v < LITTLE):
                out.append(cards[:n])
        if len(cards) >= 3:
            for width, kind in ((1, "trio_single"), (2, "trio_pair")):
                if want(kind, 3 + width):
                    kick = _kickers(groups, {v}, 1, width, rng)
                    if kick:
                        out.append(cards[:3] + kick)
        if len(cards) == 4:
            for width, kind in ((1, "four_two_single"), (2, "four_two_pair")):
                if want(kind, 4 + 2 * width):
                    kick = _kickers(groups, {v}, 2, width, rng)
                    if kick:
                        out.append(cards + kick)
    if LITTLE in groups and BIG in groups:
        out.append(groups[LITTLE] + groups[BIG])
    for width, min_len, max_len, kind in ((1, 5, 12, "straight"), (2, 3, 10, "pair_run"), (3, 2, 6, "trio_run")):
        for start in range(3, SEQUENCE_TOP + 1):
            for length in range(min_len, max_len + 1):
                top = start + length - 1
                if top > SEQUENCE_TOP or any(len(groups.get(v, ())) < width for v in range(start, top + 1)):
                    break
                if want(kind, width * length):
                    body = [c for v in range(start, top + 1) for c in groups[v][:width]]
                    out.append(body)
                    if kind == "trio_run":
                        for wing, plane in ((1, "plane_single"), (2, "plane_pair")):
                            if want(plane, (3 + wing) * length):
                                kick = _kickers(groups, set(range(start, top + 1)), length, wing, rng)
                                if kick:
                                    out.append(body + kick)
    if target is None:
        return [p for p in out if parses(p)]
    return [p for p in out if (found := parses(p)) and answers(found, target)]


def _foul(rng: random.Random) -> dict[str, Any]:
    action = TALKING(rng)
    if rng.random() < 0.5:
        action["penalty"] = rng.randint(1, 3)
    return action


def play_out(state: DoudizhuState, rng: random.Random, actions: list[dict[str, Any]], *,
             foul_rate: float = 0.0, timeout_rate: float = 0.0) -> None:
    """Play the deal in `state` to its end with random legal actions, appending each to `actions`."""

    def choose(state: DoudizhuState, seat: int) -> dict[str, Any]:
        if state.phase == "bidding":
            kinds = [a["type"] for a in ENGINE.legal_actions(state, seat)]
            return {"seat": seat, "type": kinds[0] if rng.random() < 0.45 else "pass"}
        if (state.landlord == seat and state.plays_by_seat[seat] == 0 and not state.exposed[seat]
                and rng.random() < 0.1):
            return {"seat": seat, "type": "reveal", "stage": "after_kitty"}
        following = state.last_seat is not None and state.last_seat != seat
        options = candidate_plays(state.hands[seat], state.last_readings if following else None, rng)
        return shared.choose_play(seat, options, following, rng, 0.15, lambda play: parses(play)[0].kind)

    shared.play_out(ENGINE, state, rng, actions, choose, foul=_foul, foul_rate=foul_rate, timeout_rate=timeout_rate)


def random_record(rng: random.Random, options: dict[str, Any] | None = None, *, foul_rate: float = 0.01,
                  timeout_rate: float = 0.01, reveal_rate: float = 0.15) -> dict[str, Any]:
    """One complete, legal `fupan.deal/1` record of a random deal."""
    setup = shared.random_setup(ENGINE, rng, NAMES, rng.randrange(3), options)
    actions: list[dict[str, Any]] = []
    state = ENGINE.new_deal(setup)
    # Pre-bid 明牌: 明牌开始 first, then 发牌明牌 in increasing `received` (§2.7a.1).
    revealers = [s for s in range(3) if rng.random() < reveal_rate]
    received = 0
    for seat in revealers:
        if rng.random() < 0.4 and all(a["stage"] == "start" for a in actions):
            action: dict[str, Any] = {"seat": seat, "type": "reveal", "stage": "start"}
        else:
            received = rng.randint(received, 17)
            action = {"seat": seat, "type": "reveal", "stage": "deal", "received": received}
        ENGINE.apply(state, action)
        actions.append(action)
    play_out(state, rng, actions, foul_rate=foul_rate, timeout_rate=timeout_rate)
    return shared.finished_record(ENGINE, setup, state, actions, first=state.first)  # the effective first bidder
