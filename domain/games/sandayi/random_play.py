"""Random legal 快乐三打一 deals: the generator behind the property tests, the benchmarks and sample data.

`candidate_plays` builds plays shaped like every pattern of §1.3 from a hand and keeps those the rules
accept (`parse`, `beats`), so every action it emits is legal; the engine checks it again anyway (a generated
deal that the engine refused would be a bug in one of the two, and the tests say so). The deal, the loop and the
record are domain/games/random_play.py's.
"""

from __future__ import annotations

import random
from typing import Any

from domain.games import random_play as shared
from domain.games.sandayi.engine import SandayiEngine, SandayiState
from domain.games.sandayi.patterns import Pattern, beats, is_bomb, parse
from domain.games.shedding import BIG, LITTLE, card_value

ENGINE = SandayiEngine()
NAMES = ["甲", "乙", "丙", "丁"]
TALKING = shared.foul_by_anyone(4, "talking", "说话 / spoke during play")


def _runs(groups: dict[int, list[str]], width: int, shortest: int) -> list[list[str]]:
    """Every run of `width` cards per sequence position (A at 1 or 14, §1.2) the hand can make."""
    out = []
    for low in range(1, 15):
        body: list[str] = []
        used: dict[int, int] = {}
        for position in range(low, 15):
            rank = shared.sequence_rank(position)
            have = groups.get(rank, [])
            if len(have) < used.get(rank, 0) + width:
                break
            body += have[used.get(rank, 0):used.get(rank, 0) + width]
            used[rank] = used.get(rank, 0) + width
            if position - low + 1 >= shortest:
                out.append(list(body))
    return out


def candidate_plays(hand: list[str], target: Pattern | None, full_house_compare: str = "tripleOnly"
                    ) -> list[list[str]]:
    """Plays from `hand`: every lead shape when `target` is None, else those that beat `target`."""
    groups = shared.by_value(hand, card_value)
    out: list[list[str]] = []
    for cards in groups.values():
        for n in range(1, min(len(cards), 8) + 1):
            out.append(cards[:n])
    if len(groups.get(LITTLE, [])) == 2 and len(groups.get(BIG, [])) == 2:
        out.append(groups[LITTLE] + groups[BIG])
    triples = [r for r, cards in groups.items() if len(cards) >= 3 and r < LITTLE]
    pairs = [r for r, cards in groups.items() if len(cards) >= 2]
    out += [groups[t][:3] + groups[p][:2] for t in triples for p in pairs if p != t]
    out += _runs(groups, 1, 5) + _runs(groups, 2, 3)
    for body in _runs(groups, 3, 2):
        k = len(body) // 3
        body_ranks = {card_value(c) for c in body}
        rest = {r: cards for r, cards in groups.items() if r not in body_ranks and r < LITTLE}
        out.append(body)
        out += [body + wings for wings in _runs(rest, 2, k) if len(wings) == 2 * k]
    return shared.accepted(out, target, parse, lambda pattern, last: beats(pattern, last, full_house_compare))


def play_out(state: SandayiState, rng: random.Random, actions: list[dict[str, Any]], *, foul_rate: float = 0.0,
             timeout_rate: float = 0.0, declare_rate: float = 0.3) -> None:
    """Play the deal in `state` to its end with random legal actions, appending each to `actions`."""

    def choose(state: SandayiState, seat: int) -> dict[str, Any]:
        if state.phase == "bidding":
            choices = ENGINE.legal_actions(state, seat)
            return rng.choice(choices) if rng.random() < 0.5 else choices[0]
        declarations = [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "declare"]
        if declarations and rng.random() < declare_rate:
            return rng.choice(declarations)
        return _play(state, seat, rng)

    shared.play_out(ENGINE, state, rng, actions, choose, foul=TALKING, foul_rate=foul_rate, timeout_rate=timeout_rate)


def _play(state: SandayiState, seat: int, rng: random.Random) -> dict[str, Any]:
    following = state.last_seat is not None and state.last_seat != seat
    options = candidate_plays(state.hands[seat], state.last_pattern if following else None,
                              state.options["sdy.fullHouseCompare"])
    allowed = state.allowance[seat]
    if allowed is not None and state.bombs_by_seat[seat] >= allowed:
        options = [p for p in options if not is_bomb(parse(p))]  # type: ignore[arg-type]
    if seat == state.dealer and state.locked:
        locked = [sorted(s) for s in state.locked]
        options = [p for p in options if not any(c in s for s in state.locked for c in p) or sorted(p) in locked]
    return shared.choose_play(seat, options, following, rng, 0.2, shared.kind_of(parse))


def random_record(rng: random.Random, options: dict[str, Any] | None = None, *, foul_rate: float = 0.01,
                  timeout_rate: float = 0.01, first: int | None = None) -> dict[str, Any]:
    """One complete, legal `fupan.deal/1` record of a random deal."""
    setup = shared.random_setup(ENGINE, rng, NAMES, rng.randrange(4) if first is None else first, options)
    return shared.played_record(ENGINE, setup, play_out, rng, foul_rate=foul_rate, timeout_rate=timeout_rate)
