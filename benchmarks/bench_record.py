"""Benchmark (b): record whole deals action by action through the HTTP API on SQLite, as a ratio to appending
the same events with the bare `eventsourcing` application (no HTTP, no validation), in the same run.

Both sides write one event per action to their own SQLite file, one commit per event. The HTTP side runs a
real server process — `fupan serve` (waitress) and, when installed, gunicorn (gthread) — and a keep-alive
client; each action is validated by the rules engine, hash-chained and stored before the reply. Deals are
interleaved (bare, HTTP, bare, HTTP …) so machine noise hits both sides alike.

Run: python benchmarks/bench_record.py [--deals N]. Prints ms per action and the ratio bare/HTTP (higher is
better; 1.0 would mean HTTP and validation cost nothing).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from harness import Client, available_servers, organiser_token, start_server

from domain.games.doudizhu_random import random_record


class BareDeal(Aggregate):
    """The same facts as a fupan Deal, with nothing checked."""

    @event("Created")
    def __init__(self, hands: list[list[str]], kitty: list[str], first: int):
        self.hands, self.kitty, self.first = hands, kitty, first
        self.actions: list[dict[str, Any]] = []

    @event("ActionRecorded")
    def record(self, action: dict[str, Any]) -> None:
        self.actions.append(action)


class BareApplication(Application):
    pass


def record_over_http(client: Client, record: dict[str, Any], key: str) -> float:
    started = time.perf_counter()
    deal = client.post("/api/deals", {"game": "doudizhu", "seats": record["seats"], "first": record["first"],
                                      "hands": record["hands"], "kitty": record["kitty"], "key": key})
    for action in record["actions"]:
        client.post(f"/api/deals/{deal['id']}/actions", {"action": action})
    return time.perf_counter() - started


def record_bare(app: BareApplication, record: dict[str, Any]) -> float:
    started = time.perf_counter()
    deal = BareDeal(record["hands"], record["kitty"], record["first"])
    app.save(deal)
    for action in record["actions"]:
        deal.record(action)
        app.save(deal)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records = [random_record(rng, foul_rate=0, timeout_rate=0) for _ in range(args.deals)]
    writes = sum(len(r["actions"]) + 1 for r in records)
    servers = available_servers()
    print(f"machine: {platform.machine()} {os.cpu_count()} cpu, python {platform.python_version()}; "
          f"{args.deals} deals, {writes} writes (creates + actions)")
    for kind in servers:
        with tempfile.TemporaryDirectory() as tmp:
            bare = BareApplication(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                        "SQLITE_DBNAME": str(Path(tmp) / "bare.sqlite")})
            token = organiser_token(Path(tmp) / "fupan.sqlite")
            process, port = start_server(kind, Path(tmp) / "fupan.sqlite")
            try:
                client = Client(port, token)
                record_over_http(client, records[0], "warm-up")  # first-request costs (imports, caches)
                record_bare(bare, records[0])
                bare_time = http_time = 0.0
                for n, record in enumerate(records):
                    bare_time += record_bare(bare, record)
                    http_time += record_over_http(client, record, f"bench-{n}")
            finally:
                process.terminate()
                process.wait(timeout=10)
        print(f"{kind:11s} HTTP+validation: {1000 * http_time / writes:.3f} ms/write | bare eventsourcing: "
              f"{1000 * bare_time / writes:.3f} ms/write | ratio bare/HTTP = {bare_time / http_time:.2f}")


if __name__ == "__main__":
    main()
