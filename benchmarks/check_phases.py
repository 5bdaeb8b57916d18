"""Where `fupan check` spends its work, phase by phase, counted in machine instructions (deterministic, unlike time
on a shared machine): valgrind's callgrind counts the instructions of one process reading the records of FILE
phase by phase, and this prints the instructions per record of each phase.

Run: python benchmarks/check_phases.py FILE [--tree PATH]. FILE: JSON Lines of legal records (e.g. the first 200
lines of bench_check.py's file); --tree: the source tree whose code is counted (default this one; an older commit
checked out with `git worktree add`, whose record module was `domain.record`, works too). Needs valgrind.

The phases: reading the JSON (`load_json`, with the source checks), the envelope (`parse_record`), the deal's
setup (`new_deal`), normalising every action (`normalize_action`), the whole fold (setup and every action
applied; so the actions alone are the fold less the setup), and judging the result. A call of `math.gcd`
between phases marks them: callgrind writes its counts so far each time that C function starts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

PHASES = ("read JSON", "parse_record", "new_deal", "normalize_action", "fold (setup + actions)", "judge")
ROOT = Path(__file__).resolve().parent.parent


def run_phases(path: str) -> None:
    """The phases themselves, in the process callgrind counts."""
    import json
    import math

    try:
        from domain.records import format as record_format
    except ImportError:  # before the house move
        from domain import record as record_format  # type: ignore[no-redef]
    from domain.games import get_engine

    lines = Path(path).read_text(encoding="utf-8").splitlines()
    docs = [json.loads(line) for line in lines]
    load = getattr(record_format, "load_json", json.loads)
    math.gcd(4, 6)
    for line in lines:
        load(line)
    math.gcd(4, 6)
    parsed = [record_format.parse_record(doc) for doc in docs]
    math.gcd(4, 6)
    for setup, _, _ in parsed:
        get_engine(setup.game).new_deal(setup)
    math.gcd(4, 6)
    for setup, actions, _ in parsed:
        engine = get_engine(setup.game)
        for action in actions:
            engine.normalize_action(action)
    math.gcd(4, 6)
    folded = [record_format.fold(setup, actions) for setup, actions, _ in parsed]
    math.gcd(4, 6)
    for engine, state in folded:
        engine.result(state)
    math.gcd(4, 6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--tree", default=str(ROOT))
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        run_phases(args.file)
        return
    records = sum(1 for line in Path(args.file).read_text(encoding="utf-8").splitlines() if line.strip())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "counts"
        env = {**os.environ, "PYTHONPATH": args.tree, "PYTHONHASHSEED": "0"}
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-before=_PyLong_GCD",
                        sys.executable, __file__, str(Path(args.file).resolve()), "--inside"],
                       cwd=args.tree, env=env, check=True, capture_output=True)
        totals = []
        for number in range(2, 2 + len(PHASES)):  # dump 1 is the start-up, up to the first mark
            line = next(line for line in (Path(f"{out}.{number}")).read_text().splitlines()
                        if line.startswith("totals:"))
            totals.append(int(line.split()[1]))
    print(f"{args.tree}: {records} records, instructions per record")
    for phase, total in zip(PHASES, totals, strict=True):
        print(f"  {phase:24} {total / records:>12,.0f}")


if __name__ == "__main__":
    main()
