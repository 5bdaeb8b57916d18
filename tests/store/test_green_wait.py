"""PostgreSQL's driver in a gevent worker waits through domain/store/green_wait.py: a query that waits on the
server parks only its own greenlet, so the worker's other requests go on (here: the one that lets it go on), and
its answer arrives whole; a wait with a deadline ends at it. Run in a process of its own, patched by gevent as a
gunicorn gevent worker is."""

from __future__ import annotations

import json
import subprocess
import sys

from paths import ROOT

SCRIPT = r"""
from gevent import monkey
monkey.patch_all()
import json, sys, time
import gevent, psycopg, psycopg.waiting
from domain.store import green_wait

green_wait.install()
assert psycopg.waiting.wait is green_wait.wait, psycopg.waiting.wait
params = json.loads(sys.argv[1])
holder = psycopg.connect(**params, autocommit=True)
waiter = psycopg.connect(**params, autocommit=True)
holder.execute("SELECT pg_advisory_lock(7)")
done = []

def wait_for_the_lock():
    done.append(waiter.execute("SELECT pg_advisory_lock(7), repeat('x', 200000) AS big").fetchone()[1])

greenlet = gevent.spawn(wait_for_the_lock)
deadline = time.monotonic() + 30
while not holder.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").fetchone()[0]:
    assert time.monotonic() < deadline, "the waiting query was never sent"
    gevent.idle()
holder.execute("SELECT pg_advisory_unlock(7)")  # runs while the other greenlet's query waits on the server
greenlet.join(timeout=30)
waiter.execute("LISTEN nobody_notifies")
quiet = list(waiter.notifies(timeout=0.05))  # a wait with a deadline ends at it, with nothing
print(json.dumps({"answered": len(done[0]) if done else None, "notified": quiet}))
"""


def test_a_query_waiting_on_the_server_parks_only_its_greenlet(postgres_params):
    finished = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(postgres_params)], cwd=ROOT,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                              timeout=120)
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert json.loads(finished.stdout) == {"answered": 200000, "notified": []}
