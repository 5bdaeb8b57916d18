"""Benchmark (analysis): the open-hand solver on real end positions of random legal deals, grouped by the cards
left in the largest hand (升级: by the tricks left), with the plain exhaustive minimax on the same positions of
the groups it can finish, for the ratio. docs/PERFORMANCE.md records the figures.

Run: python benchmarks/bench_analysis.py [--game doudizhu|shengji|all] [--positions N] [--seed S] [--cold]
     python benchmarks/bench_analysis.py --reach [--game doudizhu|sandayi|wakeng|daguai|shengji|all]
                                         [--positions N] [--seed S] [--limit-ms MS] [--cpu]
                                         [--kind random|6th|both]

The reach mode asks the query every client asks (`analyse_state`, as `fupan analyse` and the API do) at whole-deal
positions, with a budget of --limit-ms (default 10,000) each: N positions at a uniformly random card-play step of
a random legal deal (each position its own deal), and N at the 6th card play (the position before a deal's 6th
play or pass). It prints, by the cards left in all hands together, the share answered with a proven verdict of
the side to act, the share of positions where every play of the seat to act was proven, and p50/p95 of the
times of the answered ones (a position not answered counts its whole budget).

斗地主, 三打一 and 挖坑 are searched by the compiled core when it is built (domain/solver/_rankcore.c);
`FUPAN_SOLVER=python` in the environment measures the pure-Python search instead (the before of docs/PERFORMANCE.md).
The first line printed says which.

The position adapters share what they learn of plays between queries of the same rules (a server's process keeps
it); --cold empties those tables before every position, as a fresh process would see it. Each position is first
solved on its own, then searched exhaustively (which finds the tables the solver filled); `ratio` columns compare
those two times; `again p50` is the median ratio with the solver timed once more after the exhaustive search, so
that both see the same filled tables (what a server pays for a second query of a deal's step).
"""

from __future__ import annotations

import argparse
import copy
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from domain.games import get_engine
from domain.services.analysis import analyse_state, position
from domain.solver import minimax, search
from domain.solver.packed import forget_shared
from domain.solver.search import Budget, TooLarge
from domain.solver.shedding import RankGame
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


REACH_GAMES = ("doudizhu", "sandayi", "wakeng", "daguai", "shengji")
BANDS = ((15, "≤15"), (25, "16–25"), (35, "26–35"), (45, "36–45"), (10**9, "46+"))  # cards left in all hands


def reach_positions(game: str, rng: random.Random, count: int, sixth: bool) -> list[Any]:
    """`count` positions of random legal deals: each at a uniformly random card-play step of its own deal, or
    (`sixth`) at its 6th card play."""
    found: list[Any] = []
    while len(found) < count:
        states = [state for _, _, state in positions_in_play(game, rng)]
        if sixth:
            if len(states) > 5:
                found.append(states[5])
        elif states:
            found.append(rng.choice(states))
    return found


def band_of(state: Any) -> str:
    left = sum(len(hand) for hand in state.hands)
    return next(name for top, name in BANDS if left <= top)


def reach(game: str, count: int, seed: int, limit_ms: int, cpu: bool, kinds: tuple[str, ...] = ("random", "6th")
          ) -> None:
    engine = get_engine(game)
    clock = time.process_time if cpu else time.perf_counter
    print(f"\n{game}: reach, {count} positions per kind (seed {seed}), {limit_ms} ms each"
          f"{' of CPU time' if cpu else ''}")
    print(f"{'kind':<8} {'cards':>6} {'n':>4} {'verdict':>8} {'all plays':>9} {'p50 ms':>8} {'p95 ms':>8}")
    rng = random.Random(seed)
    for kind, sixth in (("random", False), ("6th", True)):
        if kind not in kinds:
            continue
        rows: dict[str, list[tuple[bool, bool, float]]] = {name: [] for _, name in BANDS}
        for state in reach_positions(game, rng, count, sixth):
            forget_shared()  # each position as a fresh process would see it
            start = clock()
            answer = analyse_state(engine, copy.deepcopy(state),
                                   Budget(limit_ms=limit_ms, node_limit=10**12, clock=clock))
            ms = (clock() - start) * 1000
            verdict = "side_wins" in answer
            every = verdict and not answer.get("partial") and not answer.get("unproven")
            rows[band_of(state)].append((verdict, every, ms if verdict else float(limit_ms)))
            # Each position as it ends (a long run on a loaded machine can be read part-way).
            print(f"  {kind} {sum(len(hand) for hand in state.hands)} cards: "
                  f"{'verdict' if verdict else 'no verdict'}{', every play' if every else ''}, {ms:.0f} ms", flush=True)
        everything = [row for found in rows.values() for row in found]
        for name, found in [*rows.items(), ("all", everything)]:
            if not found:
                continue
            times = [ms for _, _, ms in found]
            print(f"{kind:<8} {name:>6} {len(found):>4} {sum(v for v, _, _ in found) / len(found):>8.0%}"
                  f" {sum(e for _, e, _ in found) / len(found):>9.0%} {statistics.median(times):>8.0f}"
                  f" {percentile(times, 0.95):>8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="all", choices=[*REACH_GAMES, "all"])
    parser.add_argument("--positions", type=int, default=40, help="positions per group (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold", action="store_true", help="empty the shared play tables before each position")
    parser.add_argument("--reach", action="store_true", help="whole-deal positions (the reach mode above)")
    parser.add_argument("--limit-ms", type=int, default=10_000, help="the reach mode's budget per position")
    parser.add_argument("--cpu", action="store_true",
                        help="reach mode: budgets and times in the process's CPU time (a machine others load)")
    parser.add_argument("--kind", default="both", choices=["random", "6th", "both"], help="reach mode: which positions")
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}; 斗地主/三打一/挖坑 searched by "
          f"{'the compiled core' if RankGame.compiled else 'the pure-Python search'}")
    if args.reach:
        for game in REACH_GAMES if args.game == "all" else [args.game]:
            reach(game, args.positions, args.seed, args.limit_ms, args.cpu,
                  ("random", "6th") if args.kind == "both" else (args.kind,))
        return
    for game in GROUPS if args.game == "all" else [args.game] if args.game in GROUPS else []:
        bench(game, args.positions, args.seed, args.cold)


if __name__ == "__main__":
    main()
