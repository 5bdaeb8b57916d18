"""Live streams under load (issue 25, docs/streams.md): S open table streams on one machine while N tables record.

gunicorn serves fupan on a throwaway PostgreSQL server with gevent workers — the README's production command,
benchmarks/load_servers.py's server with the worker class changed — all on 127.0.0.1. N tables of one
tournament (快乐三打一: eight deals a table, long enough for a run) each record random legal deals
(fixtures/random_play/sandayi.py) action by action, each write the next only once the previous was acknowledged,
`--pace` seconds apart (a scorer's pad; 0: as fast as the server answers). S stream clients, spread evenly over
the tables, each hold `GET /api/matches/<id>/stream` open (the public viewpoint, as a spectator's page does) from
a process of their own (one asyncio loop, one connection each).

Measured: for every acknowledged action and every stream of its table, the time from the write's
acknowledgement (the scorer got its 201) to the first `deal` event of that deal at that version or later reaching
the stream client (CLOCK_MONOTONIC, one clock for both processes); p50, p95 and max, and how many
(write, stream) pairs never arrived — a stream must receive every event of its stream. Bounded: `--seconds`.

    nice .venv/bin/python benchmarks/load_streams.py [--tables 32] [--streams 500] [--seconds 20] [--workers 2]
                                                     [--pace 0.1]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import uuid4

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT), str(ROOT / "tests" / "support")]

from harness import free_port, wait_for  # noqa: E402
from load_servers import cpu_seconds, fupan_cli, load_average, postmaster  # noqa: E402
from postgres_cluster import application_env, create_schema, postgres_server  # noqa: E402

from fixtures.random_play.sandayi import random_record  # noqa: E402


@contextmanager
def gevent_gunicorn(env: dict[str, str], workers: int, log: Path) -> Iterator[tuple[int, int]]:
    """The README's production command (gevent workers) on a free loopback port."""
    port = free_port()
    kind = os.environ.get("FUPAN_LOAD_WORKER_CLASS", "gevent")  # gthread: the old command, for comparison
    argv = [sys.executable, "-m", "gunicorn", "--worker-class", kind, "--workers", str(workers),
            "--worker-connections", "1000", "--graceful-timeout", "5", "--log-level", "warning",
            "--bind", f"127.0.0.1:{port}", "web.app:create_app()"]
    with log.open("w") as sink:
        process = subprocess.Popen(argv, env=env, stdout=sink, stderr=sink, cwd=ROOT)
    try:
        wait_for(port, process, log)
        yield port, process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


class Scorer(threading.Thread):
    """One table: its deals, action by action, over one keep-alive connection; the acknowledgement times."""

    def __init__(self, port: int, token: str, match: str, seed: int, until: float, pace: float):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.token, self.match, self.until, self.pace = token, match, until, pace
        self.rng = random.Random(seed)
        self.acks: list[tuple[str, int, float]] = []  # (deal id, version, acknowledged at)
        self.error: str | None = None

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST under an idempotency key, sent again on a new connection if the kept-alive one was closed."""
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}",
                   "Idempotency-Key": str(uuid4())}
        for attempt in range(5):
            try:
                self.conn.request("POST", path, json.dumps(body), headers)
                response = self.conn.getresponse()
                answer = json.loads(response.read())
                break
            except (OSError, http.client.HTTPException):
                self.conn.close()  # reconnects on the next request
                if attempt == 4:
                    raise
        if response.status >= 300:
            raise RuntimeError(f"POST {path}: {response.status} {answer}")
        return answer

    def run(self) -> None:
        try:
            while time.monotonic() < self.until:
                record = random_record(self.rng, foul_rate=0, timeout_rate=0)
                deal = self.post(f"/api/matches/{self.match}/deals", {"hands": record["hands"],
                                                                       "kitty": record["kitty"],
                                                                       "first": record["first"]})
                for action in record["actions"]:
                    if time.monotonic() >= self.until:
                        return
                    answer = self.post(f"/api/deals/{deal['id']}/actions", {"action": action})
                    self.acks.append((deal["id"], answer["version"], time.monotonic()))
                    if answer.get("match", {}).get("status") == "over":
                        return
                    if self.pace:
                        time.sleep(self.pace)
        except Exception as error:  # reported by the run
            self.error = f"{type(error).__name__}: {error}"


async def follow(port: int, match: str, arrivals: list[tuple[str, int, float]], ready: asyncio.Event,
                 opened: list[int], stop: asyncio.Event) -> None:
    """One stream client: the table's stream over HTTP/1.1 (chunked), each `deal` event's (deal, version, time)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/matches/{match}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream {match}: {status!r}")
    while (await reader.readline()).strip():
        pass  # the headers
    opened[0] += 1
    if opened[0] == opened[1]:
        ready.set()
    buffer = b""
    try:
        while not stop.is_set():
            size = int((await reader.readline()).strip() or b"0", 16)
            if not size:
                break
            buffer += await reader.readexactly(size + 2)
            buffer = buffer[:-2] if buffer.endswith(b"\r\n") else buffer
            *blocks, buffer = buffer.split(b"\n\n")
            now = time.monotonic()
            for block in blocks:
                if b"event: deal" in block:
                    data = json.loads(block.split(b"data: ", 1)[1])
                    arrivals.append((data["deal_id"], data["version"], now))
    finally:
        writer.close()


def streams_process(port: int, matches: list[str], count: int, connection: Any) -> None:
    """The stream clients, in a process of their own: opened, then `ready`; on `stop`, their arrivals back."""

    async def main() -> None:
        per_stream: list[list[tuple[str, int, float]]] = [[] for _ in range(count)]
        ready, stop = asyncio.Event(), asyncio.Event()
        opened = [0, count]
        if not count:
            ready.set()  # a baseline: the same writes with no stream open
        tasks = [asyncio.create_task(follow(port, matches[i % len(matches)], per_stream[i], ready, opened, stop))
                 for i in range(count)]
        await asyncio.wait_for(ready.wait(), 600)
        connection.send("ready")
        await asyncio.get_running_loop().run_in_executor(None, connection.recv)  # "stop"
        stop.set()
        for task in tasks:
            task.cancel()
        connection.send([(matches[i % len(matches)], per_stream[i]) for i in range(count)])

    asyncio.run(main())


def percentile(ordered: list[float], p: float) -> float:
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between a table's writes (0: flat out)")
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    with postgres_server() as params:
        create_schema(params, "fupan")
        env = {**os.environ, **application_env(params, "fupan"), "PYTHONPATH": str(ROOT)}
        token = fupan_cli(env, "token", "create", "--role", "organiser").stdout.strip()
        log = Path(f"/tmp/fupan-load-streams-{os.getpid()}.log")
        with gevent_gunicorn(env, args.workers, log) as (port, server):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

            def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
                conn.request("POST", path, json.dumps(body), headers)
                response = conn.getresponse()
                answer = json.loads(response.read())
                assert response.status < 300, answer
                return answer

            names = ["甲", "乙", "丙", "丁"]
            tournament = post("/api/tournaments", {"name": "推送压测", "game": "sandayi"})["id"]
            for name in names:
                post(f"/api/tournaments/{tournament}/players", {"name": name})
            matches = [post(f"/api/tournaments/{tournament}/matches", {"table": str(n + 1), "seats": names,
                                                                        "first": 0})["id"]
                       for n in range(args.tables)]
            parent, child = multiprocessing.Pipe()
            clients = multiprocessing.Process(target=streams_process, args=(port, matches, args.streams, child))
            clients.start()
            assert parent.poll(660) and parent.recv() == "ready", "the stream clients did not all connect"
            load_before = load_average()
            cpu_before = cpu_seconds(server), cpu_seconds(clients.pid or 0), cpu_seconds(postmaster(params))
            until = time.monotonic() + args.seconds
            scorers = [Scorer(port, token, match, args.seed * 1000 + n, until, args.pace)
                       for n, match in enumerate(matches)]
            for scorer in scorers:
                scorer.start()
            for scorer in scorers:
                scorer.join()
            load_after = load_average()
            cpu = [after - before for before, after in zip(cpu_before, (cpu_seconds(server),
                                                                         cpu_seconds(clients.pid or 0),
                                                                         cpu_seconds(postmaster(params))), strict=True)]
            time.sleep(2.0)  # the last writes' events still on their way
            parent.send("stop")
            streams = parent.recv()
            clients.join(timeout=30)
        errors = [scorer.error for scorer in scorers if scorer.error]
        acks_of = {scorer.match: scorer.acks for scorer in scorers}
        latencies: list[float] = []
        missing = 0
        for match, arrivals in streams:
            by_deal: dict[str, list[tuple[int, float]]] = {}
            for deal, version, at in arrivals:
                by_deal.setdefault(deal, []).append((version, at))
            for deal, version, acked in acks_of[match]:
                seen = [at for v, at in by_deal.get(deal, ()) if v >= version]
                if not seen:
                    missing += 1
                else:
                    latencies.append(max(0.0, min(seen) - acked))
        writes = sum(len(acks) for acks in acks_of.values())
        ordered = sorted(latencies)
        print(f"{args.streams} streams over {args.tables} tables, gunicorn gevent × {args.workers} on PostgreSQL, "
              f"pace {args.pace} s; cpus {os.cpu_count()}")
        print(f"writes acknowledged: {writes} in {args.seconds:.0f} s ({writes / args.seconds:.0f}/s); "
              f"(write, stream) deliveries: {len(latencies)}, missing {missing}; errors {errors[:3]}")
        if ordered:
            print(f"ack → stream: p50 {1000 * statistics.median(ordered):.0f} ms, p95 "
                  f"{1000 * percentile(ordered, 0.95):.0f} ms, max {1000 * ordered[-1]:.0f} ms; "
                  f"load average before {load_before}, after {load_after}")
        print(f"CPU seconds during the run: gunicorn {cpu[0]:.1f}, stream clients {cpu[1]:.1f}, PostgreSQL "
              f"{cpu[2]:.1f}; gunicorn per write {1000 * cpu[0] / max(writes, 1):.1f} ms")


if __name__ == "__main__":
    main()
