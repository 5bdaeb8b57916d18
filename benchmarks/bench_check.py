"""Benchmark (a): `fupan check` throughput on 10,000 random legal deals per game, single process.

Run: python benchmarks/bench_check.py [--game doudizhu|shengji|sandayi|wakeng|daguai|all] [--deals N]. Prints
the machine, Python and deals/s per game; docs/PERFORMANCE.md records the figures.

With --against REV (once or more) [--rounds R]: the command itself, `fupan check FILE`, of this tree and of each
git revision REV (checked out by `git worktree add` into a temporary directory, removed after) on the same
generated file, in turns — R rounds, each tree first in its turn — each a process of its own timed from start to
exit, so start-up counts as a user sees it. Prints each round with the load average, then min/median/max of
deals/s by wall time and by CPU time (user + system: waiting for a core is not in it) for each; on a shared
machine the medians are what to compare, and the CPU time is the steadier of the two. 斗地主 deals come with bids,
明牌, robs, fouls and time-outs; 升级 deals mix both presets and both enforcement modes, with declarations
during the deal, throws, tractors and trumping; 三打一 deals come with bids, 摊打/报到, bombs within the
allowances, fouls and time-outs; 挖坑 deals with 明牌, 加倍 and 烂挖 under three option sets; 大怪路子 deals with
wildcards, 接风, fouls and time-outs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
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


ROOT = Path(__file__).resolve().parent.parent
# `fupan check FILE` as the console script runs it, imported from the working directory (the tree being timed);
# both trees' api.cli:main take the arguments as a list.
CHECK = "import sys; from api.cli import main; sys.exit(main(['check', sys.argv[1]]))"
WHERE = "import api.cli, domain; print(api.cli.__file__)"


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def timed_check(tree: Path, path: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `fupan check` process of `tree`'s code on `path`; every record must
    check. The CPU time (user + system) is the steadier figure on a machine others share: waiting for a core
    is not in it."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHECK, str(path)], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, f"fupan check of {tree} refused a record or failed: {done.stderr[-2000:]}"
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def compare(game: str, deals: int, seed: int, revisions: list[str], rounds: int) -> None:
    rng = random.Random(seed)
    generate = GENERATORS[game]
    here = git("rev-parse", "--short", "HEAD") + ("+changes" if git("status", "--porcelain", "--untracked-files=no")
                                                  else "")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deals.jsonl"
        path.write_text("\n".join(json.dumps(generate(rng, n), ensure_ascii=False) for n in range(deals)))
        trees = {here: ROOT}
        try:
            for revision in revisions:
                there = git("rev-parse", "--short", revision)
                trees[there] = Path(tmp) / f"fupan-{there}"
                git("worktree", "add", "--detach", str(trees[there]), revision)
            for label, tree in trees.items():  # each process must import its own tree's code
                env = {**os.environ, "PYTHONPATH": str(tree)}
                found = subprocess.run([sys.executable, "-c", WHERE], cwd=tree, env=env, check=True,
                                       capture_output=True, text=True).stdout.strip()
                assert Path(found).is_relative_to(tree), f"{label} imported {found}, not its own tree's code"
            seconds: dict[str, list[float]] = {label: [] for label in trees}
            cpu: dict[str, list[float]] = {label: [] for label in trees}
            print(f"{game}: {deals} deals, `fupan check` of {here} (this tree) and {', '.join(list(trees)[1:])}, "
                  f"{rounds} rounds in turns")
            for round_no in range(rounds):
                labels = list(trees)
                order = labels[round_no % len(labels):] + labels[:round_no % len(labels)]  # each goes first in turn
                figures = []
                for label in order:
                    load = os.getloadavg()[0]
                    elapsed, used = timed_check(trees[label], path)
                    seconds[label].append(elapsed)
                    cpu[label].append(used)
                    figures.append(f"{label} {elapsed:6.2f} s = {deals / elapsed:6,.0f} deals/s, CPU {used:.2f} s "
                                   f"(load {load:.2f})")
                print(f"  round {round_no + 1}: " + "; ".join(figures), flush=True)
        finally:
            for tree in list(trees.values())[1:]:
                if tree.exists():
                    git("worktree", "remove", "--force", str(tree))
    for label in trees:
        rates, cpu_rates = sorted(deals / s for s in seconds[label]), sorted(deals / s for s in cpu[label])
        print(f"{game}: {label}: deals/s min {rates[0]:,.0f} median {statistics.median(rates):,.0f} "
              f"max {rates[-1]:,.0f}; by CPU time min {cpu_rates[0]:,.0f} median {statistics.median(cpu_rates):,.0f} "
              f"max {cpu_rates[-1]:,.0f}")
    for there in list(trees)[1:]:
        for what, figures in (("wall", seconds), ("CPU", cpu)):
            ratio = statistics.median(figures[there]) / statistics.median(figures[here])
            print(f"{game}: by {what} time, {here} checks {ratio:.2f}× the deals/s of {there} (ratio of medians)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=[*GENERATORS, "all"], default="all")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--against", metavar="REV", action="append",
                        help="also time this git revision's `fupan check`, in turns (may be given more than once)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of the comparison (default 7)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {cpu_model()}, {os.cpu_count()} CPUs, python {platform.python_version()}, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game in GENERATORS if args.game == "all" else [args.game]:
        if args.against:
            compare(game, args.deals, args.seed, args.against, args.rounds)
        else:
            bench(game, args.deals, args.seed)


if __name__ == "__main__":
    main()
