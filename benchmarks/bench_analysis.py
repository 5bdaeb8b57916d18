"""Benchmark (analysis): the open-hand solver on real end positions of random legal deals, grouped by the cards
left in the largest hand (升级: by the tricks left), with the plain exhaustive minimax on the same positions of
the groups it can finish, for the ratio. docs/PERFORMANCE.md records the figures.

Run: python benchmarks/bench_analysis.py [--game doudizhu|shengji|all] [--positions N] [--seed S] [--cold]

The position adapters share what they learn of plays between queries of the same rules (a server's process keeps
it); --cold empties those tables before every position, as a fresh process would see it. Each position is first
solved on its own, then searched exhaustively (which finds the tables the solver filled); `ratio` columns compare
those two times; `again p50` is the median ratio with the solver timed once more after the exhaustive search, so
that both see the same filled tables (what a server pays for a second query of a deal's step).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from domain.games import get_engine
from domain.services.analysis import position
from domain.solver import minimax, search
from domain.solver.packed import forget_shared
from domain.solver.search import Budget, TooLarge
from fixtures.positions import positions_in_play

GROUPS = {"doudizhu": (3, 5, 8, 11), "shengji": (1, 2, 3, 4)}  # upper bounds: cards in the largest hand
EXHAUSTIVE_UP_TO = {"doudizhu": 5, "shengji": 2}  # the groups the exhaustive search can finish
SOLVER_BUDGET = Budget  # fresh per position
SOLVER_MS, EXHAUSTIVE_MS = 20_000, 20_000


def sample(game: str, rng: random.Random, per_group: int) -> dict[int, list[Any]]:
    """Up to `per_group` positions per group, each the first position of its deal inside the group."""
    found: dict[int, list[Any]] = {g: [] for g in GROUPS[game]}
    deals = 0
    while any(len(v) < per_group for v in found.values()) and deals < per_group * 40:
        deals += 1
        taken: set[int] = set()
        for _, _, state in positions_in_play(game, rng):
            largest = max(len(hand) for hand in state.hands)
            group = next((g for g in GROUPS[game] if largest <= g), None)
            if group is not None and group not in taken and len(found[group]) < per_group:
                found[group].append(state)
                taken.add(group)
    return found


def searching(run: Callable[[Any, Any, Budget], Any], budget: Callable[[], Budget], engine: Any, state: Any,
              cold: bool) -> Callable[[], int]:
    """One search `run` of the position at `state` under a fresh `budget`, on a fresh adapter (`cold`: with the
    shared play tables emptied first): the nodes it visited."""
    def search_once() -> int:
        if cold:
            forget_shared()
        pos = position(engine, state)
        spent = budget()
        run(pos.game, pos.root, spent)
        return spent.nodes

    return search_once


def timed(run: Any) -> tuple[float | None, int]:
    start = time.perf_counter()
    try:
        nodes = run()
    except TooLarge as error:
        return None, error.nodes
    return (time.perf_counter() - start) * 1000, nodes


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def bench(game: str, per_group: int, seed: int, cold: bool = False) -> None:
    engine = get_engine(game)
    groups = sample(game, random.Random(seed), per_group)
    print(f"\n{game}: positions of random legal deals (seed {seed}), solver budget {SOLVER_MS} ms each"
          f"{', cold (shared tables emptied before each position)' if cold else ''}")
    print(f"{'≤ cards':>8} {'n':>4} {'pos/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'too large':>9}"
          f" {'nodes p50':>9} {'exh. n':>6} {'exh. p50':>9} {'ratio p50':>9} {'ratio min':>9} {'ratio Σ':>8}"
          f" {'again p50':>9}")
    for group, states in groups.items():
        solver_ms, exhaustive_ms, ratios, nodes, both, large = [], [], [], [], [], 0
        again_ratios: list[float] = []
        for state in states:
            solve = searching(search.analyse, lambda: SOLVER_BUDGET(limit_ms=SOLVER_MS, node_limit=10**9),
                              engine, state, cold)
            ms, count = timed(solve)
            if ms is None:
                large += 1
                continue
            solver_ms.append(ms)
            nodes.append(count)
            if group <= EXHAUSTIVE_UP_TO[game]:
                exhaust = searching(minimax.move_values, lambda: Budget(limit_ms=EXHAUSTIVE_MS, node_limit=10**9),
                                    engine, state, cold)
                ems, _ = timed(exhaust)
                if ems is not None:
                    exhaustive_ms.append(ems)
                    ratios.append(ems / max(ms, 1e-3))
                    both.append(ms)
                    # The solver once more, as the exhaustive search ran: after this position's first query
                    # filled the shared play tables (what a server answering a second query pays).
                    again, _ = timed(solve)
                    again_ratios.append(ems / max(again or ms, 1e-3))
        if not solver_ms:
            print(f"{group:>8} {len(states):>4}  all too large")
            continue
        rate = len(solver_ms) / (sum(solver_ms) / 1000)
        exh = (f"{len(exhaustive_ms):>6} {statistics.median(exhaustive_ms):>9.1f} {statistics.median(ratios):>9.0f}"
               f" {min(ratios):>9.1f} {sum(exhaustive_ms) / sum(both):>8.0f}"
               f" {statistics.median(again_ratios):>9.0f}") if ratios \
            else f"{'–':>6} {'–':>9} {'–':>9} {'–':>9} {'–':>8} {'–':>9}"
        print(f"{group:>8} {len(states):>4} {rate:>8.1f} {statistics.median(solver_ms):>8.1f}"
              f" {percentile(solver_ms, 0.95):>8.1f} {max(solver_ms):>8.1f} {large:>9}"
              f" {statistics.median(nodes):>9.0f} " + exh)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="all", choices=[*GROUPS, "all"])
    parser.add_argument("--positions", type=int, default=40, help="positions per group (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold", action="store_true", help="empty the shared play tables before each position")
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    for game in GROUPS if args.game == "all" else [args.game]:
        bench(game, args.positions, args.seed, args.cold)


if __name__ == "__main__":
    main()
