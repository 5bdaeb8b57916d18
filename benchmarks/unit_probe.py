"""Where a gunicorn worker's requests wait: a gunicorn app target for benchmarks/load.py that times each worker's
units of work (domain/store/units.py, `Store.unit`), a write request's unit and a read's apart.

Every 2 s each worker appends a line to `$FUPAN_UNIT_PROBE_DIR/unit-<pid>.txt` (default: the system's temp
directory). For the writes' units: units a second, how many were open at once on average (the time they were
held, summed, over the time passed: at most 1 when units exclude each other), and per unit the wall time held,
the CPU time of the holding thread, the time spent waiting to enter and, of the time held, the synchronisation
with the log at the unit's start. For the reads' units (a GET request's queries): units a second, the time each
waited to enter, and the share that entered while a write's unit of the same worker was open, with their mean
wait — what shows whether a read waits for a write. Run, from the project's root:

    FUPAN_LOAD_APP=benchmarks.unit_probe:app .venv/bin/python benchmarks/load.py --tables 32 --seconds 8 --polls

(`--polls`: a pad beside each table reading its deal, so that there are reads.) Measuring adds a little CPU to
every request: compare its writes/s only with runs that use it too. It times whichever code it runs with: it
needs only `Unit`, `Store._synchronise` and `Store._depth`.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from flask import has_request_context, request

from domain.store import event_store
from domain.store.units import Unit
from web.app import create_app

_KEYS = ("units", "held", "cpu", "waited", "sync")
_totals = {kind: dict.fromkeys(_KEYS, 0.0) for kind in ("write", "read")}
_during = {"reads": 0, "waited": 0.0}  # reads that entered while a write's unit was open in this worker
_open_writes = [0]
_guard = threading.Lock()
_mine = threading.local()  # the outermost unit this thread holds: its kind, when it entered, its CPU time then
_enter, _exit, _synchronise = Unit.__enter__, Unit.__exit__, event_store.Store._synchronise


def _reading() -> bool:
    return has_request_context() and request.method in ("GET", "HEAD", "OPTIONS")


def _timed_enter(unit: Unit) -> None:
    outermost = getattr(_mine, "since", None) is None
    if outermost:
        _mine.kind = "read" if _reading() else "write"
        _mine.during = _mine.kind == "read" and _open_writes[0] > 0
    asked = time.perf_counter()
    _enter(unit)
    if outermost:
        _mine.since, _mine.cpu = time.perf_counter(), time.thread_time()
        _mine.asked = asked
        if _mine.kind == "write":
            with _guard:
                _open_writes[0] += 1


def _timed_exit(unit: Unit, *exc: Any) -> None:
    outermost = unit.store._depth == 1
    try:
        _exit(unit, *exc)
    finally:
        if outermost and getattr(_mine, "since", None) is not None:
            now, sync, kind = time.perf_counter(), getattr(_mine, "sync", 0.0), _mine.kind
            waited = _mine.since - _mine.asked - sync
            with _guard:
                totals = _totals[kind]
                totals["units"] += 1
                totals["held"] += now - _mine.since + sync  # the synchronisation ran inside the unit too
                totals["cpu"] += time.thread_time() - _mine.cpu
                totals["waited"] += waited
                totals["sync"] += sync
                if kind == "write":
                    _open_writes[0] -= 1
                elif _mine.during:
                    _during["reads"] += 1
                    _during["waited"] += waited
            _mine.since, _mine.sync = None, 0.0


def _timed_synchronise(store: event_store.Store, *args: Any) -> None:
    started = time.perf_counter()
    try:
        _synchronise(store, *args)
    finally:
        _mine.sync = time.perf_counter() - started


def _snapshot() -> tuple[dict[str, dict[str, float]], dict[str, float], float]:
    with _guard:
        return {kind: dict(t) for kind, t in _totals.items()}, dict(_during), time.perf_counter()


def _report(path: Path) -> None:
    last, last_during, at = _snapshot()
    while True:
        time.sleep(2)
        now, during, when = _snapshot()
        parts = []
        w, lw = now["write"], last["write"]
        units = w["units"] - lw["units"]
        if units:
            per = {key: 1000 * (w[key] - lw[key]) / units for key in ("held", "cpu", "waited", "sync")}
            parts.append(f"writes: {units / (when - at):.0f} units/s, {(w['held'] - lw['held']) / (when - at):.2f} "
                         f"open at once; a unit: held {per['held']:.2f} ms (CPU {per['cpu']:.2f}, synchronising "
                         f"{per['sync']:.2f}), waited {per['waited']:.2f} ms to enter")
        r, lr = now["read"], last["read"]
        reads = r["units"] - lr["units"]
        if reads:
            beside = during["reads"] - last_during["reads"]
            waited = 1000 * (r["waited"] - lr["waited"]) / reads
            waited_beside = 1000 * (during["waited"] - last_during["waited"]) / beside if beside else 0.0
            parts.append(f"reads: {reads / (when - at):.0f} units/s, waited {waited:.2f} ms to enter; "
                         f"{100 * beside / reads:.0f} % of them entered while a write's unit was open, waited "
                         f"{waited_beside:.2f} ms")
        if parts:
            with path.open("a") as out:
                out.write(" | ".join(parts) + "\n")
        last, last_during, at = now, during, when


Unit.__enter__ = _timed_enter  # type: ignore[method-assign]
Unit.__exit__ = _timed_exit  # type: ignore[method-assign]
event_store.Store._synchronise = _timed_synchronise  # type: ignore[method-assign]
_directory = Path(os.environ.get("FUPAN_UNIT_PROBE_DIR") or tempfile.gettempdir())
threading.Thread(target=_report, args=(_directory / f"unit-{os.getpid()}.txt",), daemon=True).start()
app = create_app()
