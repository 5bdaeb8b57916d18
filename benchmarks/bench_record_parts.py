"""Benchmark (b), where the time of one recorded action goes: the same deals recorded in this process through
Flask's test client (no sockets, so the WSGI server's share is left out), fupan against the floor app of
bench_record.py, each part of fupan's request timed on its own. Parts nest (the unit includes the log-head check,
the guard authenticating, the service's command the engine and the save); "the rest" is Flask's own request
machinery.

Run: python benchmarks/bench_record_parts.py [--deals N] [--rounds R]. Prints µs per write for each part and
the floor's whole request: fupan's parts from its best of R rounds, the floor's best round (the rounds least
disturbed by whatever else the machine does; a commit's fsync varies most).
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import platform
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from floor_app import create_floor_app

import api.auth
import api.resources
import web.app
import web.units
from domain.model.deal import Deal
from domain.services.deals import Deals
from domain.services.fupan import Fupan
from domain.store import event_store
from fixtures.random_play.doudizhu import random_record
from web.app import create_app

PARTS: list[tuple[Any, str, str]] = [
    (web.units, "_open_unit", "the request's unit (web/units.py)"),
    (event_store.Store, "_synchronise", "  log-head check (notification log)"),
    (api.auth, "_guard", "access guard (token, scope, body)"),
    (api.auth, "_authenticate", "  bearer token"),
    (api.resources, "json_body", "JSON body"),
    (api.resources, "load", "marshmallow load"),
    (Deals, "record", "service command"),
    (Deal, "record", "  engine, hash chain, events"),
    (event_store.Store, "commit", "  save (insert + commit)"),
    (api.resources, "reply", "answer (marshmallow dump + jsonify)"),
    (web.app, "_security_headers", "security headers"),
]


def timed(spent: dict[str, list[float]], label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            if spent[label]:  # rounds open the lists; warming up is not counted
                spent[label][-1] += time.perf_counter() - started

    return run


def record(client: Any, headers: dict[str, str], records: list[dict[str, Any]], prefix: str) -> None:
    for n, deal in enumerate(records):
        created = client.post("/api/deals", headers=headers, json={
            "game": "doudizhu", "seats": deal["seats"], "first": deal["first"], "hands": deal["hands"],
            "kitty": deal["kitty"], "key": f"{prefix}-{n}"}).get_json()
        for action in deal["actions"]:
            client.post(f"/api/deals/{created['id']}/actions", headers=headers, json={"action": action})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(7)
    records = [random_record(rng, foul_rate=0, timeout_rate=0) for _ in range(args.deals)]
    writes = sum(len(r["actions"]) + 1 for r in records)
    spent: dict[str, list[float]] = collections.defaultdict(list)
    for owner, name, label in PARTS:
        setattr(owner, name, timed(spent, label, getattr(owner, name)))
    with tempfile.TemporaryDirectory() as tmp:
        service = Fupan.for_sqlite(str(Path(tmp) / "fupan.sqlite"))
        _, token = service.tokens.create("organiser")
        fupan = create_app({"FUPAN_APPLICATION": service, "FUPAN_PROJECTION_POLL": 0}).test_client()
        floor = create_floor_app(str(Path(tmp) / "floor.sqlite")).test_client()
        bearer = {"Authorization": f"Bearer {token}"}
        record(fupan, bearer, records[:2], "warm")
        record(floor, {}, records[:2], "warm")
        for n in range(args.rounds):
            for label in [label for _, _, label in PARTS] + ["fupan request", "floor request"]:
                spent[label].append(0.0)
            started = time.perf_counter()
            record(floor, {}, records, f"round-{n}")
            spent["floor request"][-1] = time.perf_counter() - started
            started = time.perf_counter()
            record(fupan, bearer, records, f"round-{n}")
            spent["fupan request"][-1] = time.perf_counter() - started
        best = min(range(args.rounds), key=lambda n: spent["fupan request"][n])
    print(f"machine: {platform.machine()} {os.cpu_count()} cpu, python {platform.python_version()}; "
          f"{args.deals} deals, {writes} writes a round, best of {args.rounds} rounds; µs per write")
    for label in ["fupan request", *[label for _, _, label in PARTS]]:
        print(f"{label:60s} {spent[label][best] / writes * 1e6:7.1f}")
    fupan_us = spent["fupan request"][best] / writes * 1e6
    floor_us = min(spent["floor request"]) / writes * 1e6  # its own best round
    print(f"{'floor request':60s} {floor_us:7.1f}")
    print(f"{'fupan over the floor, in-process':60s} {fupan_us - floor_us:7.1f}")


if __name__ == "__main__":
    main()
