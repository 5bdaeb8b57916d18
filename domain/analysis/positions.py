"""Positions to analyse for the tests and the benchmark, taken from random legal deals (each game's random player,
domain/games/<game>/random_play.py): the real positions of a deal, and endgames cut down from them.

A cut-down endgame keeps a real position's table (whose turn, the play to answer, the roles, bomb allowances,
fouls) and keeps at most `cards` of each hand's cards: a position the rules can reach, small enough for the
exhaustive reference to finish.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from domain.analysis.query import PLAYING
from domain.engine import Action, DealSetup, Engine
from domain.games import get_engine
from domain.games.daguai.random_play import random_record as daguai_record
from domain.games.doudizhu.random_play import random_record as doudizhu_record
from domain.games.sandayi.random_play import random_record as sandayi_record
from domain.games.shengji.random_play import random_record as shengji_record
from domain.games.wakeng.random_play import random_record as wakeng_record
from domain.record import parse_record

RECORDS = {"doudizhu": doudizhu_record, "sandayi": sandayi_record, "wakeng": wakeng_record,
           "daguai": daguai_record, "shengji": shengji_record}


def positions_in_play(game: str, rng: random.Random) -> Iterator[tuple[DealSetup, list[Action], Any]]:
    """Each position in play of one random legal deal: its setup, the actions before it and the engine state
    there (a fresh copy each, the caller may keep it)."""
    record = RECORDS[game](rng)
    setup, actions, _ = parse_record(record)
    engine = get_engine(game)
    state = engine.new_deal(setup)
    for index, action in enumerate(actions):
        if state.phase == PLAYING[game] and state.to_act is not None and _between_tricks_or_shedding(game, state):
            yield setup, actions[:index], copy.deepcopy(state)
        engine.apply(state, action)


def _between_tricks_or_shedding(game: str, state: Any) -> bool:
    return game != "shengji" or not state.trick


def real_endgame(game: str, rng: random.Random, cards: int, tries: int = 200
                 ) -> tuple[DealSetup, list[Action], Any] | None:
    """The first position of a random legal deal where no hand holds more than `cards` cards (None when `tries`
    deals had none)."""
    for _ in range(tries):
        for setup, actions, state in positions_in_play(game, rng):
            if max(len(hand) for hand in state.hands) <= cards:
                return setup, actions, state
    return None


def cut_endgame(game: str, rng: random.Random, cards: int) -> tuple[Engine, Any]:
    """A position of a random legal deal with each hand cut to at most `cards` of its cards (升级: every hand to
    the same number, at a trick's start)."""
    engine = get_engine(game)
    while True:
        found = list(positions_in_play(game, rng))
        if found:
            break
    _, _, state = found[int(len(found) * rng.random() ** 2)]  # early ones more often: more of a hand to cut from
    if game == "shengji":
        keep = min(cards, len(state.hands[0]))
        state.hands = [rng.sample(hand, keep) for hand in state.hands]
        order = state.order
        state.counts = [[sum(1 for c in hand if order.suit[c] == suit) for suit in range(len(row))]
                        for hand, row in zip(state.hands, state.counts, strict=True)]
        return engine, state
    state.hands = [_cut(hand, rng.randint(1 + cards // 2, cards), rng) if hand else [] for hand in state.hands]
    return engine, state


def _cut(hand: list[str], keep: int, rng: random.Random) -> list[str]:
    """`keep` cards of `hand`, whole ranks and the largest first: pairs, triples and bombs are what a solver most
    easily gets wrong, so they are kept."""
    ranks: dict[str, list[str]] = {}
    for code in hand:
        ranks.setdefault(code if code in ("LJ", "BJ") else code[1:], []).append(code)
    groups = list(ranks.values())
    rng.shuffle(groups)
    groups.sort(key=len, reverse=True)
    kept: list[str] = []
    for group in groups:
        kept.extend(group[: keep - len(kept)])
        if len(kept) == keep:
            break
    return kept
