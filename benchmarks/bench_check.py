"""Benchmark (a): `fupan check` throughput on 10,000 random legal deals per game, single process.

Run: python benchmarks/bench_check.py [--game doudizhu|shengji|sandayi|wakeng|daguai|all] [--deals N]. Prints
the machine, Python and deals/s per game; docs/PERFORMANCE.md records the figures. 斗地主 deals come with bids,
明牌, robs, fouls and time-outs; 升级 deals mix both presets and both enforcement modes, with declarations
during the deal, throws, tractors and trumping; 三打一 deals come with bids, 摊打/报到, bombs within the
allowances, fouls and time-outs; 挖坑 deals with 明牌, 加倍 and 烂挖 under three option sets; 大怪路子 deals with
wildcards, 接风, fouls and time-outs.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.records.format import check_text
from fixtures.random_play import daguai as daguai_random
from fixtures.random_play import doudizhu as doudizhu_random
from fixtures.random_play import sandayi as sandayi_random
from fixtures.random_play import shengji as shengji_random
from fixtures.random_play import wakeng as wakeng_random

SHENGJI_OPTION_SETS = [{"sj.preset": "s004"}, {"sj.preset": "s001"}, {"sj.illegalPlay": "adjudicate"}]
WAKENG_OPTION_SETS = [{}, {"wk.quadIsBomb": True, "wk.mustDig": True}, {"wk.globalDoubling": True}]

GENERATORS: dict[str, Callable[[random.Random, int], dict[str, Any]]] = {
    "doudizhu": lambda rng, n: doudizhu_random.random_record(rng),
    "shengji": lambda rng, n: shengji_random.random_record(rng, SHENGJI_OPTION_SETS[n % len(SHENGJI_OPTION_SETS)]),
    "sandayi": lambda rng, n: sandayi_random.random_record(rng),
    "wakeng": lambda rng, n: wakeng_random.random_record(rng, WAKENG_OPTION_SETS[n % len(WAKENG_OPTION_SETS)]),
    "daguai": lambda rng, n: daguai_random.random_record(rng),
}


def bench(game: str, deals: int, seed: int) -> None:
    rng = random.Random(seed)
    generate = GENERATORS[game]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deals.jsonl"
        started = time.perf_counter()
        path.write_text("\n".join(json.dumps(generate(rng, n), ensure_ascii=False) for n in range(deals)))
        generated = time.perf_counter() - started
        actions = sum(len(json.loads(line)["actions"]) for line in path.read_text().splitlines())
        started = time.perf_counter()
        reports = check_text(path.read_text())
        elapsed = time.perf_counter() - started
    assert len(reports) == deals and all(r["ok"] for r in reports), "a generated deal was refused"
    print(f"{game}: generated {deals} deals ({actions} actions, {actions / deals:.1f}/deal) in {generated:.1f} s")
    print(f"{game}: fupan check: {deals} deals in {elapsed:.2f} s = {deals / elapsed:,.0f} deals/s "
          f"({actions / elapsed:,.0f} actions/s), single process")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=[*GENERATORS, "all"], default="all")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    for game in GENERATORS if args.game == "all" else [args.game]:
        bench(game, args.deals, args.seed)


if __name__ == "__main__":
    main()
