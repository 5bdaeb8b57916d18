"""Benchmark: `fupan check` throughput on 10,000 random legal 升级 deals, single process.

Run: python benchmarks/bench_check_shengji.py [--deals N]. Prints the machine, Python and deals/s; the deals
mix both presets and both enforcement modes, with declarations during the deal, throws, tractors and trumping.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import tempfile
import time
from pathlib import Path

from domain.games.shengji_random import random_record
from domain.record import check_text

OPTION_SETS = [{"sj.preset": "s004"}, {"sj.preset": "s001"}, {"sj.illegalPlay": "adjudicate"}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deals.jsonl"
        started = time.perf_counter()
        records = (random_record(rng, OPTION_SETS[n % len(OPTION_SETS)]) for n in range(args.deals))
        path.write_text("\n".join(json.dumps(record, ensure_ascii=False) for record in records))
        generated = time.perf_counter() - started
        actions = sum(len(json.loads(line)["actions"]) for line in path.read_text().splitlines())
        started = time.perf_counter()
        reports = check_text(path.read_text())
        elapsed = time.perf_counter() - started
    assert len(reports) == args.deals and all(r["ok"] for r in reports), "a generated deal was refused"
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    print(f"generated {args.deals} deals ({actions} actions, {actions / args.deals:.1f}/deal) in {generated:.1f} s")
    print(f"fupan check: {args.deals} deals in {elapsed:.2f} s = {args.deals / elapsed:,.0f} deals/s "
          f"({actions / elapsed:,.0f} actions/s), single process")


if __name__ == "__main__":
    main()
