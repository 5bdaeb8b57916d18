"""Several server processes on one store, as in production (README "Production": several workers on PostgreSQL).

Each process keeps hot aggregates in its own cache and keeps it current through the notification log
(Store._synchronise). Here real processes — `fupan serve`, and gunicorn with two workers, the
documented production command — share a SQLite file or a PostgreSQL schema: processes taking turns record
one deal without a false conflict and read each other's writes at once, a stale write is a 409 that stores
nothing, and a token revoked from the CLI is refused by every process at its next request.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import EXAMPLE_RECORD, EXAMPLE_SCORES, Store, token_id
from paths import ROOT
from streams import Events

from domain.services.fupan import Fupan

PLAYERS = EXAMPLE_RECORD["seats"]


# Every server here binds port 0 and says which port the system gave it (no port is picked, closed and then
# reused, which another process could take in between): `fupan serve` in its "serving on" line, gunicorn in its
# "Listening at" line.
SERVE = [sys.executable, "-m", "cli", "serve", "--port", "0"]
LISTENING = re.compile(r"(?:serving on|Listening at:) (http://127\.0\.0\.1:\d+)")


class Process:
    """A server process on `store`, logging to a file (an unread pipe could fill up and block it)."""

    def __init__(self, store: Store, argv: list[str], log: Path):
        self.log = log
        with log.open("w") as sink:
            self.popen = subprocess.Popen(argv, cwd=ROOT, env={**os.environ, **store.env}, stdout=sink,
                                          stderr=subprocess.STDOUT)

    def address(self) -> str:
        """The URL the server says it listens on, once it has bound its socket (connections wait in the
        socket's queue from then on, until it accepts them)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = LISTENING.search(self.log.read_text())
            if found:
                return found.group(1)
            assert self.popen.poll() is None, f"the server exited: {self.log.read_text()}"
            time.sleep(0.05)  # poll interval: the log line is the condition
        raise AssertionError(f"the server did not start: {self.log.read_text()}")

    def stop(self) -> None:
        self.popen.terminate()
        try:
            self.popen.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait(timeout=15)


class Server:
    """One HTTP server (one or several processes) and a client for it; every request a fresh connection, so
    a multi-worker server hands requests to whichever worker accepts them."""

    def __init__(self, store: Store, argv: list[str], log: Path):
        self.process = Process(store, argv, log)
        self.url = self.process.address()

    def call(self, method: str, path: str, token: str, body: Any = None) -> requests.Response:
        return requests.request(method, self.url + path, json=body, timeout=30,
                                headers={"Authorization": f"Bearer {token}", "Connection": "close"})


def fupan_cli(store: Store, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env={**os.environ, **store.env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@contextmanager
def two_servers(store: Store, logs: Path) -> Iterator[list[Server]]:
    """Two `fupan serve` processes on the same store (their logs in `logs`), stopped at the end."""
    started: list[Server] = []
    try:
        for n in range(2):
            started.append(Server(store, SERVE, logs / f"serve-{n}.log"))
        yield started
    finally:
        for server in started:
            server.process.stop()


@pytest.fixture
def servers(store: Store, tmp_path: Path) -> Iterator[list[Server]]:
    """Two `fupan serve` processes on the same store."""
    with two_servers(store, tmp_path) as started:
        yield started


def open_table(server: Server, token: str) -> str:
    tournament = server.call("POST", "/api/tournaments", token, {"name": "多进程杯", "game": "doudizhu"}).json()["id"]
    for name in PLAYERS:
        assert server.call("POST", f"/api/tournaments/{tournament}/players", token, {"name": name}).ok
    match = server.call("POST", f"/api/tournaments/{tournament}/matches", token,
                        {"table": "1", "seats": PLAYERS, "first": 2})
    assert match.status_code == 201, match.text
    return match.json()["id"]


def start_deal(server: Server, token: str, match: str) -> dict[str, Any]:
    started = server.call("POST", f"/api/matches/{match}/deals", token,
                          {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2})
    assert started.status_code == 201, started.text
    return started.json()


def test_two_processes_taking_turns_record_one_deal_and_see_each_others_writes(store, servers):
    token = fupan_cli(store, "token", "create", "--role", "organiser")
    a, b = servers
    match = open_table(a, token)
    deal = start_deal(b, token, match)["id"]
    assert a.call("GET", f"/api/deals/{deal}", token).json()["version"] == 1  # cached by both processes
    for n, action in enumerate(EXAMPLE_RECORD["actions"]):
        writer, reader = (a, b) if n % 2 else (b, a)
        written = writer.call("POST", f"/api/deals/{deal}/actions", token, {"action": action})
        assert written.status_code == 201, written.text
        seen = reader.call("GET", f"/api/deals/{deal}", token).json()
        assert (seen["version"], seen["digest"]) == (written.json()["version"], written.json()["digest"])
    for server in servers:
        assert server.call("GET", f"/api/matches/{match}", token).json()["chips"] == [10 + s for s in EXAMPLE_SCORES]
        assert server.call("GET", f"/api/deals/{deal}/verify", token).json()["ok"]

    # Both processes hold the next deal at version 1; the slower of two writes at that version loses.
    second = start_deal(a, token, match)["id"]
    assert b.call("GET", f"/api/deals/{second}", token).json()["version"] == 1
    first_action = {"action": EXAMPLE_RECORD["actions"][0], "expected_version": 1}
    assert a.call("POST", f"/api/deals/{second}/actions", token, first_action).status_code == 201
    stale = b.call("POST", f"/api/deals/{second}/actions", token, first_action)
    assert stale.status_code == 409 and set(stale.json()["error"]) == {"code", "message", "message_zh", "details"}
    assert [len(s.call("GET", f"/api/deals/{second}/events", token).json()) for s in servers] == [2, 2]


def test_a_token_revoked_from_the_cli_is_refused_by_every_process_at_its_next_request(store, servers):
    token = fupan_cli(store, "token", "create", "--role", "organiser")
    for server in servers:
        assert server.call("GET", "/api/tokens", token).status_code == 200  # both have it cached now
    fupan_cli(store, "token", "revoke", token_id(token))
    for server in servers:
        refused = server.call("GET", "/api/tokens", token)
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "revoked_token"


def test_workers_starting_together_on_a_fresh_store_all_come_up(store):
    """Each process creates the tables it needs (events, read models) if they are missing; started at the same
    moment on an empty store they race, and every one of them must still come up."""
    start = "from web.app import create_app; create_app({'FUPAN_PROJECTION_POLL': 0})"
    workers = [subprocess.Popen([sys.executable, "-c", start], cwd=ROOT, env={**os.environ, **store.env},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(6)]
    failed = [err[-800:] for worker in workers for _, err in [worker.communicate(timeout=120)] if worker.returncode]
    assert not failed, failed


def test_a_new_sqlite_file_locked_while_a_worker_starts_is_waited_for(tmp_path):
    """The race above, made certain: another process holds the new file's lock while a worker starts, past the
    worker's lock timeout, so switching the file to WAL hears "database is locked" (from the driver itself:
    eventsourcing does that switch outside its error translation). The worker must try again and come up once
    the lock is released, not crash — CI once lost this race."""
    path = tmp_path / "new.sqlite"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    released = threading.Event()

    def release() -> None:
        released.set()  # before the rollback: the worker cannot get the lock before this is set
        holder.rollback()

    releasing = threading.Timer(1.5, release)  # past the worker's 1 s lock timeout
    releasing.start()
    app = Fupan(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path),
                                "SQLITE_LOCK_TIMEOUT": "1"})
    try:
        assert released.is_set()  # it did meet the lock, and waited it out
        app.tournaments.create("加锁的新库", "doudizhu")
        assert [t["name"] for t in app.tournaments.all()] == ["加锁的新库"]
    finally:
        releasing.join()
        holder.close()
        app.close()


def test_the_documented_production_command_two_gunicorn_workers_records_a_deal(store, tmp_path):
    token = fupan_cli(store, "token", "create", "--role", "organiser")
    server = Server(store, [sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "gthread",
                            "--threads", "4", "--bind", "127.0.0.1:0", "web.app:create_app()"],
                    tmp_path / "gunicorn.log")
    try:
        match = open_table(server, token)
        deal = start_deal(server, token, match)["id"]
        for action in EXAMPLE_RECORD["actions"]:
            recorded = server.call("POST", f"/api/deals/{deal}/actions", token, {"action": action})
            assert recorded.status_code == 201, recorded.text
        assert server.call("GET", f"/api/matches/{match}", token).json()["chips"] == [10 + s for s in EXAMPLE_SCORES]
    finally:
        server.process.stop()


def test_fupan_serve_reads_a_chunked_body_whole_and_limits_it(store: Store, tmp_path: Path):
    """waitress reads a chunked body before the app sees it: a small one is stored whole, one past the body
    limit is refused with 413 in the error shape and writes nothing (docs/SECURITY.md "Hardening")."""
    token = fupan_cli(store, "token", "create", "--role", "organiser")
    server = Server(store, SERVE, tmp_path / "serve.log")
    try:
        def chunked(parts: list[bytes]) -> requests.Response:
            return requests.post(server.url + "/api/tournaments", data=iter(parts), timeout=30,
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})

        stored = chunked([b'{"name": "\\u5206\\u5757", ', b'"game": "doudizhu"}'])
        assert stored.status_code == 201 and stored.json()["name"] == "分块", stored.text
        app = store.open()
        before = app.store.recorder.max_notification_id()
        too_long = chunked([b'{"name": "', b"x" * (300 * 1024), b'", "game": "doudizhu"}'])
        assert too_long.status_code == 413 and too_long.json()["error"]["code"] == "too_large", too_long.text
        assert app.store.recorder.max_notification_id() == before
        app.close()
    finally:
        server.process.stop()


# README "Production": gevent workers, which hold the live streams (docs/streams.md "Serving them").
PRODUCTION = [sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "gevent", "--worker-connections",
              "1000", "--graceful-timeout", "5", "--bind", "127.0.0.1:0", "web.app:create_app()"]


@pytest.mark.parametrize("argv", [PRODUCTION, SERVE], ids=["gunicorn-gevent", "fupan-serve"])
def test_the_production_command_and_fupan_serve_hold_more_streams_than_threads_and_push_every_write(
        store: Store, tmp_path: Path, argv: list[str]):
    """More open streams than `fupan serve` has request threads (8), each told of every write made through the
    server's other connections (any worker), while ordinary requests are still answered."""
    token = fupan_cli(store, "token", "create", "--role", "organiser")
    server = Server(store, argv, tmp_path / "server.log")
    streams: list[Events] = []
    try:
        match = open_table(server, token)
        deal = start_deal(server, token, match)["id"]
        for _ in range(12):
            streams.append(Events(f"{server.url}/api/matches/{match}/stream"))
            assert streams[-1].status == 200
            assert streams[-1].next()["data"]["current_deal"] == deal
        assert server.call("GET", "/api/tournaments", token).status_code == 200
        for action in EXAMPLE_RECORD["actions"][:3]:
            recorded = server.call("POST", f"/api/deals/{deal}/actions", token, {"action": action})
            assert recorded.status_code == 201, recorded.text
            version = recorded.json()["version"]
            for stream in streams:
                told = stream.until(lambda e, v=version: e["event"] == "deal" and e["data"]["version"] >= v)
                assert told["data"]["deal_id"] == deal
    finally:
        for stream in streams:
            stream.close()
        server.process.stop()

