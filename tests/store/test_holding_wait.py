"""A write holding the events table's lock in a gevent worker waits for its answers without giving the worker to
its other requests (domain/store/green_wait.py `holding`), one greenlet of the worker at a time; outside it a
query parks only its own greenlet, as before. Run in a process of its own, patched by gevent as a gunicorn
gevent worker is."""

from __future__ import annotations

import json
import subprocess
import sys

from paths import ROOT

SCRIPT = r"""
from gevent import monkey
monkey.patch_all()
import json, sys
import gevent, psycopg
from domain.store import green_wait

green_wait.install()
params = json.loads(sys.argv[1])
first, second = (psycopg.connect(**params, autocommit=True) for _ in range(2))
ran = []

def sleeper(conn, name, held, seconds=0.01):
    ran.append(f"{name} asks")
    if held:
        with green_wait.holding():
            conn.execute("SELECT pg_sleep(%s)", (seconds,))
    else:
        conn.execute("SELECT pg_sleep(%s)", (seconds,))
    ran.append(f"{name} answered")

def other():
    ran.append("other request runs")

found = {}
for held in (False, True):
    ran.clear()
    jobs = [gevent.spawn(sleeper, first, "A", held), gevent.spawn(other)]
    gevent.joinall(jobs, timeout=30)
    found["held" if held else "parked"] = list(ran)
ran.clear()
# A holds longer than green_wait.HOLD, so parks at last: B starts and waits for A's turn to end, parked.
long = green_wait.HOLD * 3
gevent.joinall([gevent.spawn(sleeper, first, "A", True, long), gevent.spawn(sleeper, second, "B", True)], timeout=30)
found["two holding"] = list(ran)
print(json.dumps(found))
"""


def test_a_holding_greenlet_keeps_its_worker_and_one_holds_at_a_time(postgres_params):
    finished = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(postgres_params)], cwd=ROOT,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                              timeout=120)
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert json.loads(finished.stdout) == {
        "parked": ["A asks", "other request runs", "A answered"],  # its query waits: the worker serves the other
        "held": ["A asks", "A answered", "other request runs"],  # the worker waits with it
        "two holding": ["A asks", "B asks", "A answered", "B answered"],  # B's shorter query waits for A's turn
    }
