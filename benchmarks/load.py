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

fupan is served by the README's production command, gunicorn with gevent workers (`-k gevent -w 4
--worker-connections 1000`); `--worker-class gthread` serves it as before the live streams (`-k gthread -w 4
--threads 8`), whose figures docs/PERFORMANCE.md shows differ.

Bounded and loopback only: a throwaway PostgreSQL server (tests/support/postgres_cluster.py) on 127.0.0.1, gunicorn on
127.0.0.1, a few seconds per figure. Run:

    .venv/bin/python benchmarks/load.py [--tables 1,8,32,128] [--seconds 5] [--workers 4] [--plain] [--faults]
                                        [--databases 1,2,4] [--cpu] [--locks] [--polls] [--worker-class gthread]

`--databases 1,2,4` also runs fupan itself with FUPAN_DEAL_DATABASES=K for each K and each N ≥ 8 of --tables,
the same deals for every K, and `fupan verify` after each K.

Prints, per N: writes/s and p50/p95 latency of fupan and of bare eventsourcing, and fupan/bare; with the load
average of the machine beside each figure (the figures are only comparable within a run); `--cpu`: the CPU
time each side spent per acknowledged write, which a loaded machine moves far less than writes/s; `--locks`: how
often fupan's run found the events table's insert lock held; `--polls`: a second pad beside each table reads
its deal over and over meanwhile (reads/s and p50/p95 of a read; the writes' ratio is then not comparable with
runs without). `FUPAN_LOAD_APP` names another gunicorn app target
(e.g. `web.app:create_app({"FUPAN_PROJECTION_POLL": 0})`, `benchmarks.unit_probe:app` to time each worker's
units of work, or `benchmarks.statement_probe:app` to count the queries a write sends).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests" / "support")]  # the sibling modules; postgres_cluster

from floor_app import BareApplication  # noqa: E402
from load_clients import Stats, run_bare, run_fupan, tables_of  # noqa: E402
from load_scenarios import by_databases, faults, spread  # noqa: E402
from load_servers import LockSampler, cpu_seconds, fupan_cli, gunicorn, load_average, postmaster  # noqa: E402
from postgres_cluster import application_env, create_schema, postgres_server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="1,8,32,128")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--worker-class", default="gevent", choices=("gevent", "gthread"),
                        help="gevent: the README's production command (default); gthread: -w 4 --threads 8, "
                             "the command before the live streams")
    parser.add_argument("--threads", type=int, default=8, help="threads a gthread worker")
    parser.add_argument("--faults", action="store_true", help="kill -9 a worker and restart PostgreSQL mid-run")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--plain", action="store_true", help="also each N without idempotency keys")
    parser.add_argument("--cpu", action="store_true", help="also the CPU time each side spent per write "
                                                           "(PostgreSQL's, gunicorn's, the clients'; Linux)")
    parser.add_argument("--locks", action="store_true", help="also how often fupan's run found the events "
                                                             "table's insert lock held (pg_locks, every 2 ms)")
    parser.add_argument("--polls", action="store_true", help="also a pad beside each table reading its deal "
                                                             "over and over while fupan's tables record")
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
        with gunicorn(env, args.workers, args.threads, tmp / "gunicorn.log", args.worker_class) as (server, port):
            concurrency = ("--worker-connections 1000" if args.worker_class == "gevent"
                           else f"--threads {args.threads}")
            print(f"gunicorn -k {args.worker_class} -w {args.workers} {concurrency} on PostgreSQL; "
                  f"{args.seconds:.0f} s a figure; cpus {os.cpu_count()}")
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
                reads = Stats() if args.polls else None
                f, tables = run_fupan(port, token, played, args.seconds, reads=reads)
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
                if reads is not None:
                    r = reads.summary(args.seconds)
                    print(f"{'':6s} reads beside them: {r['per_s']:7.0f} reads/s p50 {r['p50_ms']:6.1f} ms "
                          f"p95 {r['p95_ms']:6.1f} ms", flush=True)
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


@contextmanager
def tempfile_dir() -> Iterator[Path]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="fupan-load-") as tmp:
        yield Path(tmp)


if __name__ == "__main__":
    main()
