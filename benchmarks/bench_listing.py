"""How long listing every lead of a hand takes, cold (no shared table kept from before), at the first card play
and at the 6th of random legal deals: the move generation the analysis starts each query with
(docs/PERFORMANCE.md, "Listing plays"). Times are the process's CPU time (the machine may be loaded).

    .venv/bin/python benchmarks/bench_listing.py [--deals 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from domain.games import get_engine
from domain.services.analysis import position
from domain.solver.packed import _size, forget_shared
from domain.solver.search import UNLIMITED
from fixtures.positions import positions_in_play

GAMES = ("doudizhu", "sandayi", "wakeng", "daguai")


def listing_ms(game: Any, hand: Any) -> tuple[float, int]:
    """CPU milliseconds to list every lead of `hand` from cold, and how many there are."""
    forget_shared()
    if hasattr(game, "_plays"):
        game._plays.clear()
    start = time.process_time()
    found = game._leads(hand, UNLIMITED) if hasattr(game, "_leads") else game.plays(hand, None, UNLIMITED)
    return (time.process_time() - start) * 1000, len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="all", choices=[*GAMES, "all"])
    args = parser.parse_args()
    print(f"{'game':<9} {'step':>5} {'cards':>5} {'leads':>6} {'ms':>8}")
    for code in GAMES if args.game == "all" else (args.game,):
        engine = get_engine(code)
        rng = random.Random(args.seed)
        for _ in range(args.deals):
            states = [state for _, _, state in positions_in_play(code, rng)]
            for step in (0, 5):
                if step >= len(states):
                    continue
                pos = position(engine, states[step])
                hands = pos.root.hands
                hand = max((h for h in hands if h), key=lambda h: _size(h) if isinstance(h, int) else len(h))
                cards = _size(hand) if isinstance(hand, int) else len(hand)
                ms, count = listing_ms(pos.game, hand)
                print(f"{code:<9} {step + 1:>5} {cards:>5} {count:>6} {ms:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
