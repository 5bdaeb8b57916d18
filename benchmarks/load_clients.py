"""The load harness's clients (benchmarks/load.py): a scorer's table recording deals over HTTP, each write
sent again under its idempotency key until answered; the bare eventsourcing application appending the same
deals; the latencies both acknowledged, and the random legal 挖坑 deals they play."""

from __future__ import annotations

import functools
import http.client
import json
import random
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import uuid4

from floor_app import BareApplication, BareDeal

from domain.model.ids import deal_id_for_key
from fixtures.random_play.wakeng import random_record

RETRY_FOR = 90.0  # seconds a write is sent again before the run gives up on it (a restart takes a few)
PENDING_FOR = 5.0  # seconds a key may stay `idempotency_pending` before the scorer reads the deal back


def deals(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [random_record(rng, foul_rate=0, timeout_rate=0) for _ in range(count)]


class Stats:
    """Latencies of acknowledged writes, and how many a run sent again."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.retries = 0
        self.read_back = 0  # writes whose answer was lost with a killed worker, found stored by reading back
        self.lock = threading.Lock()

    def add(self, seconds: float, retries: int = 0, read_back: bool = False) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.retries += retries
            self.read_back += read_back

    def summary(self, elapsed: float) -> dict[str, float]:
        ordered = sorted(self.latencies)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")
        return {"writes": len(ordered), "per_s": len(ordered) / elapsed,
                "p50_ms": 1000 * statistics.median(ordered) if ordered else float("nan"), "p95_ms": 1000 * p95,
                "retries": self.retries, "read_back": self.read_back}


class Table(threading.Thread):
    """One table's scorer: deals recorded action by action over one keep-alive connection, each write sent
    again under its idempotency key until it is answered."""

    def __init__(self, port: int, token: str, records: list[dict[str, Any]], until: float, stats: Stats):
        super().__init__(daemon=True)
        self.port, self.token, self.records, self.until, self.stats = port, token, records, until, stats
        self.acknowledged: dict[str, int] = {}  # deal id → actions acknowledged
        self.current: str | None = None  # the deal being recorded (what a pad beside it polls, `Poller`)
        self.error: str | None = None
        self.keyed = True  # every write with an Idempotency-Key (`--plain` measures without)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(self, path: str, body: dict[str, Any], stored: Callable[[], dict[str, Any] | None]
             ) -> dict[str, Any]:
        """POST until answered. `stored`: what a read of the resource says was stored, for a key left pending:
        a worker killed between storing a write (its key with it) and storing the answer leaves the key
        `idempotency_pending` for good (api/idempotency.py), so after a while the scorer reads the deal back."""
        data, key = json.dumps(body), str(uuid4())
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}",
                   **({"Idempotency-Key": key} if self.keyed else {})}
        started, retries, pending_since = time.perf_counter(), 0, None
        while True:
            try:
                self.conn.request("POST", path, data, headers)
                response = self.conn.getresponse()
                answer = json.loads(response.read() or b"{}")
                if response.status < 300:
                    self.stats.add(time.perf_counter() - started, retries)
                    return answer
                code = answer.get("error", {}).get("code")
                if response.status < 500 and code not in ("idempotency_pending", "conflict"):
                    raise RuntimeError(f"POST {path}: {response.status} {answer}")
                if code == "idempotency_pending":
                    pending_since = pending_since or time.perf_counter()
                    if time.perf_counter() - pending_since > PENDING_FOR and (found := stored()) is not None:
                        self.stats.add(time.perf_counter() - started, retries, read_back=True)
                        return found
            except (OSError, http.client.HTTPException, json.JSONDecodeError):
                self.conn.close()  # reconnects on the next request
            retries += 1
            if time.perf_counter() - started > RETRY_FOR:
                raise RuntimeError(f"POST {path}: no answer for {RETRY_FOR} s")
            time.sleep(min(0.05 * retries, 1.0))

    def run(self) -> None:
        try:
            for record in self.records:
                if time.monotonic() >= self.until:
                    return
                key = str(uuid4())
                deal = self.send("/api/deals", {"game": "wakeng", "seats": record["seats"], "first": record["first"],
                                                "hands": record["hands"], "kitty": record["kitty"],
                                                "options": record["options"], "key": key},
                                 lambda key=key: self.read(f"/api/deals/{deal_id_for_key(key)}"))
                deal_id = self.current = deal["id"]
                self.acknowledged[deal_id] = 0
                for action in record["actions"]:
                    if time.monotonic() >= self.until:
                        return
                    self.send(f"/api/deals/{deal_id}/actions", {"action": action},
                              functools.partial(self.holds_more, deal_id, self.acknowledged[deal_id]))
                    self.acknowledged[deal_id] += 1
        except Exception as error:  # reported by the run
            self.error = f"{type(error).__name__}: {error}"

    def holds_more(self, deal_id: str, actions: int) -> dict[str, Any] | None:
        """The deal, if it holds more than `actions` actions (so the write in question was stored)."""
        found = self.read(f"/api/deals/{deal_id}")
        return found if found is not None and found["actions"] > actions else None

    def read(self, path: str) -> dict[str, Any] | None:
        try:
            self.conn.request("GET", path, headers={"Authorization": f"Bearer {self.token}"})
            response = self.conn.getresponse()
            answer = json.loads(response.read() or b"{}")
            return answer if response.status == 200 else None
        except (OSError, http.client.HTTPException, json.JSONDecodeError):
            self.conn.close()
            return None


class Poller(threading.Thread):
    """A second pad beside a table: reads the deal its table is recording, again and again, over a keep-alive
    connection of its own, until the run ends (`--polls`); each read's latency goes to `stats`."""

    def __init__(self, port: int, token: str, table: Table, until: float, stats: Stats):
        super().__init__(daemon=True)
        self.port, self.token, self.table, self.until, self.stats = port, token, table, until, stats
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        while time.monotonic() < self.until:
            deal = self.table.current
            if deal is None:
                time.sleep(0.01)
                continue
            started = time.perf_counter()
            try:
                self.conn.request("GET", f"/api/deals/{deal}", headers=headers)
                response = self.conn.getresponse()
                response.read()
                if response.status == 200:
                    self.stats.add(time.perf_counter() - started)
            except (OSError, http.client.HTTPException):
                self.conn.close()


class BareTable(threading.Thread):
    """The same deals appended by the bare eventsourcing application: one save per action, nothing checked."""

    def __init__(self, app: BareApplication, records: list[dict[str, Any]], until: float, stats: Stats):
        super().__init__(daemon=True)
        self.app, self.records, self.until, self.stats = app, records, until, stats

    def run(self) -> None:
        for record in self.records:
            started = time.perf_counter()
            deal = BareDeal(record["hands"], record["kitty"], record["first"])
            self.app.save(deal)
            self.stats.add(time.perf_counter() - started)
            for action in record["actions"]:
                if time.monotonic() >= self.until:
                    return
                started = time.perf_counter()
                deal.record(action)
                self.app.save(deal)
                self.stats.add(time.perf_counter() - started)


def timed(threads: list[threading.Thread]) -> float:
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def run_fupan(port: int, token: str, played: list[list[dict[str, Any]]], seconds: float,
              during: Callable[[], None] | None = None, keyed: bool = True,
              reads: Stats | None = None) -> tuple[dict[str, float], list[Table]]:
    """Each table plays its deals of `played` for `seconds` (the deals are made before the clock starts);
    `reads`: also a pad beside each table reading its deal meanwhile (`Poller`), the reads' latencies there."""
    stats = Stats()
    until = time.monotonic() + seconds
    tables = [Table(port, token, records, until, stats) for records in played]
    for table in tables:
        table.keyed = keyed
    if during is not None:
        threading.Thread(target=during, daemon=True).start()
    pollers = [Poller(port, token, table, until, reads) for table in tables] if reads is not None else []
    for poller in pollers:
        poller.start()
    elapsed = timed(tables)  # type: ignore[arg-type]
    for poller in pollers:
        poller.join()
    return stats.summary(elapsed), tables


def run_bare(app: BareApplication, played: list[list[dict[str, Any]]], seconds: float) -> dict[str, float]:
    stats = Stats()
    until = time.monotonic() + seconds
    elapsed = timed([BareTable(app, records, until, stats) for records in played])
    return stats.summary(elapsed)


def tables_of(n: int, seed: int, seconds: float) -> list[list[dict[str, Any]]]:
    """N tables' deals: enough for `seconds` of play at a fast table (~65 actions a deal, ≤ 2 ms a write)."""
    per_table = max(2, min(12, int(seconds * 500 / 65 / n) + 1))
    return [deals(seed + i, per_table) for i in range(n)]
