"""What a load run (benchmarks/load.py) starts and watches: gunicorn serving fupan, the `fupan` command, the
throwaway PostgreSQL server (restarted, its events table's insert lock sampled, its rows counted), and the CPU
time of a process tree from /proc."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from harness import free_port, wait_for

ROOT = Path(__file__).resolve().parents[1]


def load_average() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


@contextmanager
def gunicorn(env: dict[str, str], workers: int, threads: int, log: Path, kind: str = "gevent"
             ) -> Iterator[tuple[subprocess.Popen, int]]:
    """gunicorn serving fupan on a free loopback port. `kind` "gevent": the README's production command (gevent
    workers, 1,000 connections each; `threads` unused); "gthread": `workers` × `threads` threads, the command
    before the live streams."""
    port = free_port()
    concurrency = ["--worker-connections", "1000"] if kind == "gevent" else ["--threads", str(threads)]
    argv = [sys.executable, "-m", "gunicorn", "-k", kind, "-w", str(workers), *concurrency, "-b",
            f"127.0.0.1:{port}", "--log-level", "warning", "--graceful-timeout", "5",
            os.environ.get("FUPAN_LOAD_APP", "web.app:create_app()")]
    with log.open("w") as sink:
        process = subprocess.Popen(argv, env=env, stdout=sink, stderr=sink, cwd=ROOT)
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
    return subprocess.run([sys.executable, "-m", "cli", *args], env=env, capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def stored_actions(env: dict[str, str], schema: str, params: dict[str, str]) -> dict[str, int]:
    """Every deal's stored ActionRecorded events, read from the rows."""
    with psycopg.connect(**params) as conn:
        rows = conn.execute(f'SELECT originator_id, count(*) FROM "{schema}".fupan_events '
                            "WHERE topic = 'fupan:Deal.ActionRecorded' GROUP BY originator_id").fetchall()
    return {str(deal): count for deal, count in rows}


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
