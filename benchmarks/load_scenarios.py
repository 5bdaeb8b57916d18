"""The load run's other scenarios (benchmarks/load.py): fupan with its deal streams in K deal databases, the
bare appends spread over K databases (the storage layer's ceiling), and faults — a worker killed, PostgreSQL
restarted — after which every acknowledged action must be stored exactly once."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
from floor_app import BareApplication
from load_clients import BareTable, Stats, run_fupan, tables_of, timed
from load_servers import ROOT, fupan_cli, gunicorn, load_average, restart_postgres, stored_actions, workers_of
from postgres_cluster import application_env, create_schema


def by_databases(params: dict[str, str], ks: list[int], ns: list[int], args: argparse.Namespace, tmp: Path) -> None:
    """fupan itself through gunicorn with its deal streams in K deal databases (FUPAN_DEAL_DATABASES=K: K
    databases on the one loopback server beside the main one; K = 1: everything in the main database, as
    without the setting), the same deals for every K; then `fupan verify` over everything each K stored."""
    for k in ks:
        schema = f"fupan_k{k}"
        create_schema(params, schema)
        env = {**os.environ, **application_env(params, schema), "PYTHONPATH": str(ROOT),
               # bounded pools: every worker holds one per database it touches
               "POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "10",
               **({"FUPAN_DEAL_DATABASES": str(k)} if k > 1 else {})}
        token = fupan_cli(env, "token", "create", "--role", "organiser").stdout.strip()
        with gunicorn(env, args.workers, args.threads, tmp / f"gunicorn-k{k}.log", args.worker_class) as (_, port):
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
