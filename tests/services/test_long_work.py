"""A solver's search on a request's path does not stop the requests beside it (domain/services/long_work.py): in a
process patched by gevent as a gunicorn gevent worker is, the worker's loop goes on serving other greenlets while
a real search runs; anywhere else the search runs in the asking thread, as before."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading

from paths import ROOT

from domain.services.long_work import beside_the_loop

SCRIPT = r"""
from gevent import monkey
monkey.patch_all()
import json, random
import gevent
from domain.services.analysis import analyse_actions
from domain.services.long_work import beside_the_loop
from domain.solver.search import Budget
from fixtures.positions import positions_in_play

setup, actions, _ = next(positions_in_play("sandayi", random.Random(3)))  # the first play: four full hands
searching, served_meanwhile, answers = [], [], []

def search():
    searching.append(True)
    try:
        answers.append(beside_the_loop(lambda: analyse_actions(setup, actions, Budget(limit_ms=600))))
    finally:
        searching.append(False)

def another_request():
    while not searching:
        gevent.idle()
    while searching[-1]:
        served_meanwhile.append(1)
        gevent.idle()

gevent.joinall([gevent.spawn(search), gevent.spawn(another_request)])
print(json.dumps({"served_meanwhile": len(served_meanwhile), "nodes": answers[0]["nodes"],
                  "answered": sorted(set(answers[0]) & {"moves", "too_large"})}))
"""


def test_a_search_in_a_gevent_worker_leaves_its_loop_serving():
    finished = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                              timeout=120)
    assert finished.returncode == 0, finished.stderr[-2000:]
    told = json.loads(finished.stdout)
    assert told["nodes"] > 0 and told["answered"], told  # a real search ran and answered
    assert told["served_meanwhile"] > 0, told  # run in place, the other greenlet would not run until it ended


def test_outside_gevent_the_work_runs_in_the_asking_thread():
    asked = threading.get_ident()
    assert beside_the_loop(lambda: (threading.get_ident(), random.Random(1).random())) == (
        asked, random.Random(1).random())
