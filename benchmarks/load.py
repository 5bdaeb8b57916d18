"""Load harness (issue 16): N tables recording random legal 挖坑 deals at once through gunicorn on PostgreSQL,
against the bare eventsourcing PostgreSQL application with the same N clients, in the same run; optionally
with faults (a worker killed with SIGKILL, PostgreSQL restarted) while the tables play.

Each table is one client thread with one keep-alive connection, playing deals from
`fixtures/random_play/wakeng.py` (a standalone deal per record, then its actions one request each, each
the next only once the previous was acknowledged, as a scorer's pad does). Every write carries an
`Idempotency-Key`; a write that got no answer (the connection broke, a 5xx, 409 `idempotency_pending`) is
sent again with the same key and body until it is answered, so after a fault no acknowledged action is lost and
none is stored twice — which the run then checks: every deal's stored action count equals the actions its
table had acknowledged, and `fupan verify` passes.

The bare side: one `BareApplication` (benchmarks/floor_app.py) on its own PostgreSQL schema of the same server,
N threads each appending the same deals' events (one `save` per action, nothing checked, no HTTP).

Bounded and loopback only: a throwaway PostgreSQL server (tests/support/postgres_cluster.py) on 127.0.0.1, gunicorn on
127.0.0.1, a few seconds per figure. Run:

    .venv/bin/python benchmarks/load.py [--tables 1,8,32,128] [--seconds 5] [--workers 4] [--plain] [--faults]
                                        [--databases 1,2,4] [--cpu] [--locks]

`--databases 1,2,4` also runs fupan itself with FUPAN_DEAL_DATABASES=K for each K and each N ≥ 8 of --tables,
the same deals for every K, and `fupan verify` after each K.

Prints, per N: writes/s and p50/p95 latency of fupan and of bare eventsourcing, and fupan/bare; with the load
average of the machine beside each figure (the figures are only comparable within a run); `--cpu`: the CPU
time each side spent per acknowledged write, which a loaded machine moves far less than writes/s; `--locks`: how
often fupan's run found the events table's insert lock held. `FUPAN_LOAD_APP` names another gunicorn app target
(e.g. `api.app:create_app({"FUPAN_PROJECTION_POLL": 0})`, or `benchmarks.unit_probe:app` to time each worker's
units of work).
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import uuid4

import psycopg

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from floor_app import BareApplication, BareDeal  # noqa: E402
from harness import free_port, wait_for  # noqa: E402
from postgres_cluster import application_env, create_schema, postgres_server  # noqa: E402

from domain.model.ids import deal_id_for_key  # noqa: E402
from fixtures.random_play.wakeng import random_record  # noqa: E402

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
                deal_id = deal["id"]
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


def load_average() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


@contextmanager
def gunicorn(env: dict[str, str], workers: int, threads: int, log: Path) -> Iterator[tuple[subprocess.Popen, int]]:
    port = free_port()
    argv = [sys.executable, "-m", "gunicorn", "-k", "gthread", "-w", str(workers), "--threads", str(threads), "-b",
            f"127.0.0.1:{port}", "--log-level", "warning", "--graceful-timeout", "5",
            os.environ.get("FUPAN_LOAD_APP", "api.app:create_app()")]
    with log.open("w") as sink:
        process = subprocess.Popen(argv, env=env, stdout=sink, stderr=sink, cwd=HERE.parent)
    try:
        wait_for(port, process, log)
        yield process, port
    finally:
        process.terminate()
        process.wait(timeout=30)


def workers_of(master: int) -> list[int]:
    """The gunicorn master's worker processes (its children)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def restart_postgres(params: dict[str, str]) -> None:
    """A fast restart of the benchmark's own throwaway server (its data directory from the server itself)."""
    with psycopg.connect(**params, autocommit=True) as conn:
        data = conn.execute("SHOW data_directory").fetchone()[0]  # type: ignore[index]
    pg_ctl = next(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    # The server's output to its log beside the data directory (where tests/support/postgres_cluster.py puts it): a
    # restarted server would otherwise hold our pipes open for good.
    argv = [str(pg_ctl), "-D", data, "-l", str(Path(data).parent / "log"), "-m", "fast", "-w", "restart"]
    if os.geteuid() == 0:
        argv = ["runuser", "-u", "postgres", "--", *argv]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its descendants, living and reaped, from /proc (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = [int(c) for task in Path(f"/proc/{pid}/task").iterdir()
                    for c in (task / "children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        return 0.0  # it exited meanwhile: its time is in its parent's reaped children's
    own = sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime, stime, cutime, cstime
    return own + sum(cpu_seconds(child) for child in children)


def postmaster(params: dict[str, str]) -> int:
    with psycopg.connect(**params, autocommit=True) as conn:
        data = conn.execute("SHOW data_directory").fetchone()[0]  # type: ignore[index]
    return int(Path(data, "postmaster.pid").read_text().split()[0])


def fupan_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "api.cli", *args], env=env, capture_output=True, text=True,
                          timeout=600, cwd=HERE.parent)


def stored_actions(env: dict[str, str], schema: str, params: dict[str, str]) -> dict[str, int]:
    """Every deal's stored ActionRecorded events, read from the rows."""
    with psycopg.connect(**params) as conn:
        rows = conn.execute(f'SELECT originator_id, count(*) FROM "{schema}".fupan_events '
                            "WHERE topic = 'fupan:Deal.ActionRecorded' GROUP BY originator_id").fetchall()
    return {str(deal): count for deal, count in rows}


def run_fupan(port: int, token: str, played: list[list[dict[str, Any]]], seconds: float,
              during: Callable[[], None] | None = None, keyed: bool = True) -> tuple[dict[str, float], list[Table]]:
    """Each table plays its deals of `played` for `seconds` (the deals are made before the clock starts)."""
    stats = Stats()
    until = time.monotonic() + seconds
    tables = [Table(port, token, records, until, stats) for records in played]
    for table in tables:
        table.keyed = keyed
    if during is not None:
        threading.Thread(target=during, daemon=True).start()
    elapsed = timed(tables)  # type: ignore[arg-type]
    return stats.summary(elapsed), tables


class LockSampler(threading.Thread):
    """Looks at pg_locks every 2 ms while a run plays: how often the events table's EXCLUSIVE lock (taken by every
    insert, eventsourcing's) was held, and how many transactions were waiting for it."""

    def __init__(self, params: dict[str, str], schema: str):
        super().__init__(daemon=True)
        self.params, self.table = params, f'"{schema}".fupan_events'
        self.samples = self.held = self.waiting = 0
        self.done = threading.Event()
        self.start()

    def run(self) -> None:
        with psycopg.connect(**self.params, autocommit=True) as conn:
            (relation,) = conn.execute("SELECT %s::regclass::oid", (self.table,)).fetchone()  # type: ignore[misc]
            while not self.done.is_set():
                held, waiting = conn.execute(
                    "SELECT count(*) FILTER (WHERE granted), count(*) FILTER (WHERE NOT granted) FROM pg_locks "
                    "WHERE relation = %s AND mode = 'ExclusiveLock'", (relation,)).fetchone()  # type: ignore[misc]
                self.samples, self.held, self.waiting = self.samples + 1, self.held + (held > 0), self.waiting + waiting
                time.sleep(0.002)

    def stop(self) -> str:
        self.done.set()
        self.join()
        return (f"held in {100 * self.held / max(1, self.samples):.0f} % of {self.samples} samples, "
                f"{self.waiting / max(1, self.samples):.2f} waiting on average")


def run_bare(app: BareApplication, played: list[list[dict[str, Any]]], seconds: float) -> dict[str, float]:
    stats = Stats()
    until = time.monotonic() + seconds
    elapsed = timed([BareTable(app, records, until, stats) for records in played])
    return stats.summary(elapsed)


def tables_of(n: int, seed: int, seconds: float) -> list[list[dict[str, Any]]]:
    """N tables' deals: enough for `seconds` of play at a fast table (~65 actions a deal, ≤ 2 ms a write)."""
    per_table = max(2, min(12, int(seconds * 500 / 65 / n) + 1))
    return [deals(seed + i, per_table) for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="1,8,32,128")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--faults", action="store_true", help="kill -9 a worker and restart PostgreSQL mid-run")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--plain", action="store_true", help="also each N without idempotency keys")
    parser.add_argument("--cpu", action="store_true", help="also the CPU time each side spent per write "
                                                           "(PostgreSQL's, gunicorn's, the clients'; Linux)")
    parser.add_argument("--locks", action="store_true", help="also how often fupan's run found the events "
                                                             "table's insert lock held (pg_locks, every 2 ms)")
    parser.add_argument("--databases", default="", help="e.g. 1,2,4: fupan with its deal streams in K deal "
                                                        "databases (FUPAN_DEAL_DATABASES), N of --tables ≥ 8; and "
                                                        "bare appends spread over K databases (the storage layer's "
                                                        "ceiling)")
    args = parser.parse_args()
    with postgres_server() as params, tempfile_dir() as tmp:
        create_schema(params, "fupan")
        create_schema(params, "bare")
        env = {**os.environ, **application_env(params, "fupan"), "PYTHONPATH": str(HERE.parent)}
        bare = BareApplication(env={**application_env(params, "bare"), "POSTGRES_POOL_SIZE": "20",
                                    "POSTGRES_MAX_OVERFLOW": "100"})
        token = fupan_cli(env, "token", "create", "--role", "organiser").stdout.strip()
        with gunicorn(env, args.workers, args.threads, tmp / "gunicorn.log") as (server, port):
            print(f"gunicorn -w {args.workers} --threads {args.threads} on PostgreSQL; {args.seconds:.0f} s a figure; "
                  f"cpus {os.cpu_count()}")
            warm = tables_of(4 * args.workers, 0, 3.0)
            run_fupan(port, token, warm, 3.0)  # warm-up: every worker's first requests
            run_bare(bare, warm[:2], 1.0)
            for n in (int(v) for v in args.tables.split(",")):
                played = tables_of(n, args.seed, args.seconds)  # the same deals for both sides
                before = load_average()
                pg = postmaster(params) if args.cpu else 0
                cpu = [(cpu_seconds(pg), cpu_seconds(server.pid), time.process_time())] if args.cpu else []
                b = run_bare(bare, played, args.seconds)
                cpu += [(cpu_seconds(pg), cpu_seconds(server.pid), time.process_time())] if args.cpu else []
                locks = LockSampler(params, "fupan") if args.locks else None
                f, tables = run_fupan(port, token, played, args.seconds)
                held = locks.stop() if locks is not None else ""
                cpu += [(cpu_seconds(pg), cpu_seconds(server.pid), time.process_time())] if args.cpu else []
                errors = [t.error for t in tables if t.error]
                print(f"N={n:4d} load {before}: fupan {f['per_s']:7.0f} writes/s p50 {f['p50_ms']:6.1f} ms "
                      f"p95 {f['p95_ms']:6.1f} ms | bare {b['per_s']:7.0f} writes/s p50 {b['p50_ms']:6.1f} ms "
                      f"p95 {b['p95_ms']:6.1f} ms | fupan/bare {f['per_s'] / b['per_s']:.2f}"
                      + (f" | {f['retries']} sent again" if f["retries"] else "")
                      + (f" | ERRORS {errors[:3]}" if errors else ""), flush=True)
                if held:
                    print(f"{'':6s} fupan: the events table's insert lock {held}", flush=True)
                if cpu:  # bare: its process (the threads are the application) and PostgreSQL; fupan: all three
                    (p0, _, m0), (p1, s1, m1), (p2, s2, m2) = cpu
                    bw, fw = b["writes"] / 1000, f["writes"] / 1000
                    bare_ms, fupan_ms = (p1 - p0 + m1 - m0) / bw, (p2 - p1 + s2 - s1 + m2 - m1) / fw
                    print(f"{'':6s} CPU a write: bare {bare_ms:.2f} ms (PostgreSQL {(p1 - p0) / bw:.2f}) | fupan "
                          f"{fupan_ms:.2f} ms (PostgreSQL {(p2 - p1) / fw:.2f}, gunicorn {(s2 - s1) / fw:.2f}, "
                          f"clients {(m2 - m1) / fw:.2f}) | bare/fupan {bare_ms / fupan_ms:.2f}", flush=True)
                if errors or not f["writes"] or f["retries"] or os.environ.get("FUPAN_LOAD_LOG"):
                    print((tmp / "gunicorn.log").read_text()[-3000:], file=sys.stderr)
                if args.plain:
                    p, _ = run_fupan(port, token, tables_of(n, args.seed + 500, args.seconds), args.seconds,
                                     keyed=False)
                    print(f"{'':6s} without Idempotency-Key (load {load_average()}): fupan {p['per_s']:7.0f} writes/s "
                          f"p50 {p['p50_ms']:6.1f} ms p95 {p['p95_ms']:6.1f} ms | fupan/bare "
                          f"{p['per_s'] / b['per_s']:.2f}", flush=True)
            if args.faults:
                faults(server, port, token, env, params, args)
        bare.close()
        if args.databases:
            ks = [int(k) for k in args.databases.split(",")]
            by_databases(params, ks, [int(v) for v in args.tables.split(",") if int(v) >= 8] or [32], args, tmp)
            spread(params, ks, max(int(v) for v in args.tables.split(",")), args)


def by_databases(params: dict[str, str], ks: list[int], ns: list[int], args: argparse.Namespace, tmp: Path) -> None:
    """fupan itself through gunicorn with its deal streams in K deal databases (FUPAN_DEAL_DATABASES=K: K
    databases on the one loopback server beside the main one; K = 1: everything in the main database, as
    without the setting), the same deals for every K; then `fupan verify` over everything each K stored."""
    for k in ks:
        schema = f"fupan_k{k}"
        create_schema(params, schema)
        env = {**os.environ, **application_env(params, schema), "PYTHONPATH": str(HERE.parent),
               # bounded pools: every worker holds one per database it touches
               "POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "10",
               **({"FUPAN_DEAL_DATABASES": str(k)} if k > 1 else {})}
        token = fupan_cli(env, "token", "create", "--role", "organiser").stdout.strip()
        with gunicorn(env, args.workers, args.threads, tmp / f"gunicorn-k{k}.log") as (_, port):
            run_fupan(port, token, tables_of(4 * args.workers, 0, 3.0), 3.0)  # warm-up
            for n in ns:
                before = load_average()
                f, tables = run_fupan(port, token, tables_of(n, args.seed + 3000, args.seconds), args.seconds)
                errors = [t.error for t in tables if t.error]
                print(f"K={k} deal databases, fupan, N={n:4d} tables, load {before}: {f['per_s']:7.0f} writes/s "
                      f"p50 {f['p50_ms']:6.1f} ms p95 {f['p95_ms']:6.1f} ms"
                      + (f" | {f['retries']} sent again" if f["retries"] else "")
                      + (f" | ERRORS {errors[:3]}" if errors else ""), flush=True)
        verified = fupan_cli(env, "verify")
        print(f"K={k}: fupan verify exit {verified.returncode}: "
              + " / ".join(line.removeprefix("fupan verify: ")[:90] for line in verified.stdout.splitlines()
                           if "store-wide chain of" in line), flush=True)
        if verified.returncode:
            print(verified.stderr[-2000:], file=sys.stderr)


def spread(params: dict[str, str], ks: list[int], n: int, args: argparse.Namespace) -> None:
    """The premise of storing deal streams across K databases (docs/OPERATIONS.md): each database's events
    table has its own insert lock, so the storage layer's ceiling grows with K. N tables' deals appended by the
    bare application, table t to database t mod K (fupan's own K databases: `by_databases`)."""
    names = [f"fupan_deals_{k}" for k in range(max(ks))]
    with psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True) as conn:
        for name in names:
            conn.execute(f"CREATE DATABASE {name}")
    apps = [BareApplication(env={**application_env({**params, "dbname": name}, "public"), "POSTGRES_POOL_SIZE": "10",
                                 "POSTGRES_MAX_OVERFLOW": str(max(10, 100 // len(names)))}) for name in names]
    try:
        played = tables_of(n, args.seed + 2000, args.seconds)
        for k in ks:
            stats = Stats()
            until = time.monotonic() + args.seconds
            before = load_average()
            elapsed = timed([BareTable(apps[t % k], records, until, stats) for t, records in enumerate(played)])
            result = stats.summary(elapsed)
            print(f"K={k} deal databases, N={n} tables, load {before}: bare {result['per_s']:7.0f} writes/s "
                  f"p50 {result['p50_ms']:6.1f} ms p95 {result['p95_ms']:6.1f} ms", flush=True)
    finally:
        for app in apps:
            app.close()


def faults(server: subprocess.Popen, port: int, token: str, env: dict[str, str], params: dict[str, str],
           args: argparse.Namespace) -> None:
    """32 tables for a while; a worker killed with SIGKILL after a third of it, PostgreSQL restarted after two
    thirds; then every acknowledged action must be stored exactly once, and `fupan verify` must pass."""
    seconds = max(args.seconds, 9.0)
    happened: list[str] = []

    def strike() -> None:
        try:
            faults_in(seconds)
        except Exception as error:  # the run then fails on it
            happened.append(f"FAULT INJECTION FAILED: {type(error).__name__}: {error}")

    def faults_in(seconds: float) -> None:
        time.sleep(seconds / 3)
        victim = workers_of(server.pid)[0]
        os.kill(victim, signal.SIGKILL)
        happened.append(f"worker {victim} killed (SIGKILL)")
        time.sleep(seconds / 3)
        started = time.perf_counter()
        restart_postgres(params)
        happened.append(f"PostgreSQL restarted ({time.perf_counter() - started:.1f} s)")

    summary, tables = run_fupan(port, token, tables_of(32, args.seed + 1000, seconds), seconds, during=strike)
    errors = [t.error for t in tables if t.error]
    acknowledged = {deal: count for t in tables for deal, count in t.acknowledged.items()}
    stored = stored_actions(env, "fupan", params)
    lost = {d: (a, stored.get(d, 0)) for d, a in acknowledged.items() if stored.get(d, 0) < a}
    twice = {d: (a, stored.get(d, 0)) for d, a in acknowledged.items() if stored.get(d, 0) > a}
    verified = fupan_cli(env, "verify")
    print(f"faults at N=32 ({'; '.join(happened)}): {summary['writes']} writes acknowledged, {summary['retries']} "
          f"sent again, {summary['read_back']} answers lost with the worker and read back, p95 "
          f"{summary['p95_ms']:.0f} ms; deals {len(acknowledged)}, acknowledged actions "
          f"{sum(acknowledged.values())}, lost {len(lost)}, stored twice {len(twice)}; fupan verify exit "
          f"{verified.returncode}" + (f" | ERRORS {errors[:3]}" if errors else ""))
    if lost or twice or errors or verified.returncode or len(happened) != 2 or "FAILED" in " ".join(happened):
        print(verified.stdout[-2000:], verified.stderr[-2000:], lost, twice, file=sys.stderr)
        raise SystemExit(1)


@contextmanager
def tempfile_dir() -> Iterator[Path]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="fupan-load-") as tmp:
        yield Path(tmp)


if __name__ == "__main__":
    main()
