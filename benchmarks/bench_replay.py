"""Benchmark (c): replay latency for every step of a deal over HTTP — p50 / p95.

A server process (`fupan serve`, and gunicorn when installed) on a SQLite file holding a recorded deal; the
client asks `GET /api/deals/<id>/replay?step=k&viewpoint=…` for every step k of the deal, from the
referee's and a seat's point of view, several rounds, and reports the latency percentiles.

Run: python benchmarks/bench_replay.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from harness import Client, available_servers, organiser_token, start_server

from fixtures.random_play.doudizhu import random_record


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(11)
    record = max((random_record(rng, foul_rate=0, timeout_rate=0) for _ in range(20)),
                 key=lambda r: len(r["actions"]))  # a long deal: the worst case for folding
    steps = len(record["actions"])
    print(f"machine: {platform.machine()} {os.cpu_count()} cpu, python {platform.python_version()}; "
          f"a deal of {steps} actions, steps 0..{steps}, {args.rounds} rounds per viewpoint")
    for kind in available_servers():
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "fupan.sqlite"
            token = organiser_token(db)
            process, port = start_server(kind, db)
            try:
                client = Client(port, token)
                deal_id = client.post("/api/records", record)["id"]
                for viewpoint in ("referee", "seat:1"):
                    latencies = []
                    for _ in range(args.rounds):
                        for step in range(steps + 1):
                            started = time.perf_counter()
                            client.get(f"/api/deals/{deal_id}/replay?step={step}&viewpoint={viewpoint}")
                            latencies.append(1000 * (time.perf_counter() - started))
                    print(f"{kind:11s} {viewpoint:8s} replay latency over {len(latencies)} requests: "
                          f"p50 {statistics.median(latencies):.2f} ms, p95 {percentile(latencies, 0.95):.2f} ms, "
                          f"max {max(latencies):.2f} ms")
            finally:
                process.terminate()
                process.wait(timeout=10)


if __name__ == "__main__":
    main()
