"""Benchmark (b): record whole deals action by action through the HTTP API on SQLite, as a ratio to appending
the same events with the bare `eventsourcing` application (no HTTP, no validation), in the same run.

Four ways of storing the same deals, each writing one event per action to its own SQLite file with one
commit per event, interleaved deal by deal (bare, floor, fupan, bare, …) so machine noise hits all alike:

- bare: `BareApplication` in this process (floor_app.py): the event store and nothing else;
- floor: the same bare appends behind a minimal Flask endpoint, served by the same WSGI server as fupan
  (floor_app.py): what HTTP and Flask alone cost here, so bare/floor is the best ratio any Flask service
  that commits each action before it answers could reach on this machine;
- answer: the floor answering each action as fupan does (its security headers, an answer of the same size):
  what fupan's answer itself costs over HTTP, so answer/fupan is what the rest of fupan's work leaves;
- fupan: the real server process — `fupan serve` (waitress) and, when installed, gunicorn (gthread) — with a
  bearer token; each action is authenticated, validated by the rules engine, hash-chained and stored before
  the reply.

Run: python benchmarks/bench_record.py [--deals N]. Prints ms per write and the ratios (higher is better; 1.0
would mean HTTP and validation cost nothing).
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

from floor_app import BareApplication, BareDeal, bare_application
from harness import Client, available_servers, organiser_token, start_server

from fixtures.random_play.doudizhu import random_record


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
    print(f"machine: {platform.machine()} {os.cpu_count()} cpu, python {platform.python_version()}; "
          f"{args.deals} deals, {writes} writes (creates + actions)")
    for kind in available_servers():
        with tempfile.TemporaryDirectory() as tmp:
            bare = bare_application(str(Path(tmp) / "bare.sqlite"))
            token = organiser_token(Path(tmp) / "fupan.sqlite")
            servers = [start_server(kind, Path(tmp) / "fupan.sqlite"),
                       start_server(kind, Path(tmp) / "floor.sqlite", app="floor"),
                       start_server(kind, Path(tmp) / "answer.sqlite", app="floor-answer")]
            try:
                clients = {"fupan": Client(servers[0][1], token), "floor": Client(servers[1][1], token),
                           "answer": Client(servers[2][1], token)}
                for client in clients.values():  # first-request costs (imports, caches)
                    record_over_http(client, records[0], "warm-up")
                record_bare(bare, records[0])
                seconds = {"bare": 0.0, "floor": 0.0, "answer": 0.0, "fupan": 0.0}
                for n, record in enumerate(records):
                    seconds["bare"] += record_bare(bare, record)
                    for name, client in clients.items():
                        seconds[name] += record_over_http(client, record, f"bench-{n}")
            finally:
                for process, _ in servers:
                    process.terminate()
                    process.wait(timeout=10)
        ms = {name: 1000 * value / writes for name, value in seconds.items()}
        print(f"{kind:11s} fupan: {ms['fupan']:.3f} ms/write | floor (bare appends behind Flask): "
              f"{ms['floor']:.3f} | the floor with fupan's answer: {ms['answer']:.3f} | bare eventsourcing: "
              f"{ms['bare']:.3f}")
        print(f"{'':11s} ratio bare/fupan = {seconds['bare'] / seconds['fupan']:.2f} | best reachable with Flask "
              f"here, bare/floor = {seconds['bare'] / seconds['floor']:.2f} | floor/fupan = "
              f"{seconds['floor'] / seconds['fupan']:.2f} | with fupan's answer, answer/fupan = "
              f"{seconds['answer'] / seconds['fupan']:.2f}")


if __name__ == "__main__":
    main()
