"""Where a gunicorn worker's write waits: a gunicorn app target for benchmarks/load.py that times each worker's
units of work (domain/store/units.py, `Store.unit`: one per request, under the process's lock).

Every 2 s each worker appends a line to `$FUPAN_UNIT_PROBE_DIR/unit-<pid>.txt` (default: the system's temp
directory): units a second, the share of the time its lock was held, and per unit the wall time held, the CPU
time of the holding thread, the time spent waiting for the lock and, of the time held, the synchronisation with
the log at the unit's start (one round trip to PostgreSQL). Run, from the project's root:

    FUPAN_LOAD_APP=benchmarks.unit_probe:app .venv/bin/python benchmarks/load.py --tables 32 --seconds 8

Measuring adds a little CPU to every request: compare its writes/s only with runs that use it too.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from api.app import create_app
from domain.store import event_store
from domain.store.units import Unit

_totals = {"units": 0, "held": 0.0, "cpu": 0.0, "waited": 0.0, "sync": 0.0}
_mine = threading.local()  # the outermost unit this thread holds: when it got the lock, its CPU time then
_enter, _exit, _synchronise = Unit.__enter__, Unit.__exit__, event_store.Store._synchronise


def _timed_enter(unit: Unit) -> None:
    outermost = getattr(_mine, "since", None) is None
    asked = time.perf_counter()
    _enter(unit)
    if outermost:
        _mine.since, _mine.cpu = time.perf_counter(), time.thread_time()
        _mine.asked = asked


def _timed_exit(unit: Unit, *exc: Any) -> None:
    outermost = unit.store._depth == 1
    try:
        _exit(unit, *exc)
    finally:
        if outermost and getattr(_mine, "since", None) is not None:
            now, sync = time.perf_counter(), getattr(_mine, "sync", 0.0)
            _totals["units"] += 1
            _totals["held"] += now - _mine.since + sync  # the synchronisation ran under the lock too
            _totals["cpu"] += time.thread_time() - _mine.cpu
            _totals["waited"] += _mine.since - _mine.asked - sync
            _totals["sync"] += sync
            _mine.since, _mine.sync = None, 0.0


def _timed_synchronise(store: event_store.Store, *args: Any) -> None:
    started = time.perf_counter()
    try:
        _synchronise(store, *args)
    finally:
        _mine.sync = time.perf_counter() - started


def _report(path: Path) -> None:
    last, at = dict(_totals), time.perf_counter()
    while True:
        time.sleep(2)
        now, when = dict(_totals), time.perf_counter()
        units = now["units"] - last["units"]
        if units:
            per = {key: 1000 * (now[key] - last[key]) / units for key in ("held", "cpu", "waited", "sync")}
            with path.open("a") as out:
                busy = 100 * (now["held"] - last["held"]) / (when - at)
                out.write(f"{units / (when - at):.0f} units/s, lock held {busy:.0f} "
                          f"% of the time; a unit: held {per['held']:.2f} ms (CPU {per['cpu']:.2f}, synchronising "
                          f"{per['sync']:.2f}), waited {per['waited']:.2f} ms for the lock\n")
        last, at = now, when


Unit.__enter__ = _timed_enter  # type: ignore[method-assign]
Unit.__exit__ = _timed_exit  # type: ignore[method-assign]
event_store.Store._synchronise = _timed_synchronise  # type: ignore[method-assign]
_directory = Path(os.environ.get("FUPAN_UNIT_PROBE_DIR") or tempfile.gettempdir())
threading.Thread(target=_report, args=(_directory / f"unit-{os.getpid()}.txt",), daemon=True).start()
app = create_app()
