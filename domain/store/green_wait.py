"""How PostgreSQL's driver waits for its socket in a gevent worker (README "Production", docs/streams.md).

psycopg sees gevent's patched `select` and waits through it (`psycopg.waiting.wait_poll`): every time a query
waits — several times a write — it makes a patched `select.poll()`, whose every `poll()` starts and stops event
loop watchers and builds its result in Python, even when the socket is ready already. `wait` below asks the
kernel first, without blocking (the real `poll`, a C call), and only when the socket is not ready yet parks the
greenlet on one event loop watcher until it is — the same cooperation with the worker's other requests, for
about half the CPU (docs/PERFORMANCE.md "Load": 104 against 215 µs a pipeline and a query). Its contract is
psycopg's `WaitFunc`: the generator is sent what the socket is ready for, and `timeout` ends it with
`_WaitTimeout` (READY_NONE once it passed). psycopg's `interval` (its C wait wakes that often to notice Ctrl-C)
is not needed here: the worker's signals reach it through gevent's loop, so a greenlet parks until the socket is
ready, with no timer to start and stop at every wait.

`install()` (called by the store as it opens) puts it in psycopg's place only where gevent patched `select` (a
gevent worker); anywhere else the driver keeps its own C wait.

**Holding the worker** (`holding()`, around a write's two queries, domain/store/logchain.py). A write holds the
events table's EXCLUSIVE lock, which every writer of every process waits for, from its first query's answer to
its second query's COMMIT. Parked on the event loop, the greenlet would resume after whatever other requests of
its worker are ready to run — milliseconds of their CPU with the lock held, and every other writer waiting: at
N = 32 tables the lock was found held in 100 % of samples with 25 writers waiting (docs/PERFORMANCE.md "Load").
So while a greenlet holds, its waits block the worker's thread in the kernel's `poll` (the socket's answer is a
round trip away, the lock's release a few of them), up to `HOLD` seconds in all; past that it parks as usual.
One greenlet of a worker holds at a time; the worker's other writes wait for it parked (they would wait for the
table's lock anyway).
"""

from __future__ import annotations

import contextlib
import select
from collections.abc import Iterator
from time import monotonic
from typing import Any

from psycopg import errors, waiting

_EVENTS = {waiting.WAIT_R: select.POLLIN, waiting.WAIT_W: select.POLLOUT,
           waiting.WAIT_RW: select.POLLIN | select.POLLOUT}
_WATCH = {waiting.WAIT_R: 1, waiting.WAIT_W: 2, waiting.WAIT_RW: 3}  # the event loop's READ, WRITE, both
_BAD = ~(select.POLLIN | select.POLLOUT)


class _Quiet(Exception):
    """The deadline passed with the socket not ready (the generator is told READY_NONE)."""


_gevent: dict[str, Any] = {}  # what `wait` uses of gevent, looked up once (`_gevent_parts`)

HOLD = 0.05  # seconds a holding greenlet's waits may block its worker in all (`holding`)
_holding: dict[Any, float] = {}  # a greenlet holding its worker (`holding`) → when its blocking ends at the latest


@contextlib.contextmanager
def holding() -> Iterator[None]:
    """This greenlet's queries meanwhile block its worker rather than park (module docstring), one greenlet of the
    worker at a time: the others wait for it parked, so that none blocks the worker waiting for a lock that a
    parked greenlet of its own worker holds. Anywhere but in a gevent worker (psycopg's own wait in place) it
    changes nothing."""
    if waiting.wait is not wait:
        yield
        return
    _gevent_parts()
    me = _gevent["current"]()
    if me in _holding:
        yield
        return
    with _gevent["gate"]:
        _holding[me] = monotonic() + HOLD
        try:
            yield
        finally:
            _holding.pop(me, None)


def _gevent_parts() -> tuple[Any, Any, Any]:
    """(the kernel's `select.poll`, gevent's `get_hub`, gevent's wait on a watcher), looked up the first time."""
    if not _gevent:
        from gevent import getcurrent, monkey
        from gevent.hub import get_hub
        from gevent.lock import Semaphore
        from gevent.socket import wait as wait_on_watcher

        _gevent.update(poll=monkey.get_original("select", "poll"), get_hub=get_hub, wait_on_watcher=wait_on_watcher,
                       current=getcurrent, gate=Semaphore())
    return _gevent["poll"], _gevent["get_hub"], _gevent["wait_on_watcher"]


def wait(gen: Any, fileno: int, interval: float = 0.0, timeout: float | None = None) -> Any:
    """psycopg's `WaitFunc` for a gevent worker (module docstring)."""
    kernel_poll, get_hub, wait_on_watcher = _gevent_parts()
    hub = get_hub()
    deadline = None if timeout is None else monotonic() + timeout
    poller = kernel_poll()  # the kernel's: blocking only while this greenlet holds its worker (`holding`)
    held_until = _holding.get(_gevent["current"]()) if _holding else None
    try:
        s = next(gen)
        poller.register(fileno, _EVENTS[s])
        while True:
            found = poller.poll(0)
            if not found and held_until is not None:
                block = min(held_until, deadline or held_until) - monotonic()
                found = poller.poll(max(1, int(block * 1000))) if block > 0 else None
            if not found:
                limit = _limit(interval, deadline)
                if limit is None or limit > 0:
                    watcher = hub.loop.io(fileno, _WATCH[s])
                    try:
                        wait_on_watcher(watcher, limit, _Quiet)
                    except _Quiet:
                        pass
                    finally:
                        watcher.close()
                    found = poller.poll(0)
            if not found:
                s = gen.send(waiting.READY_NONE)
            else:
                happened = found[0][1]
                ready = (waiting.READY_R if happened & select.POLLIN else 0) | (
                    waiting.READY_W if happened & select.POLLOUT else 0)
                if not ready and happened & _BAD:
                    raise errors.OperationalError("connection socket closed")
                s = gen.send(ready)
            poller.modify(fileno, _EVENTS[s])
            if deadline is not None and monotonic() >= deadline:
                raise errors._WaitTimeout("wait timeout expired")  # type: ignore[attr-defined]
    except StopIteration as done:
        return done.value


def _limit(interval: float, deadline: float | None) -> float | None:
    """How long to park before telling the generator READY_NONE: until the socket is ready (None), or until the
    deadline (0 once it passed). `interval` is psycopg's, unused (module docstring)."""
    if deadline is None:
        return None
    return max(0.0, deadline - monotonic())


def install() -> None:
    """Use `wait` for psycopg's queries if gevent patched `select` in this process (a gevent worker)."""
    patched = getattr(waiting, "_is_select_patched", None)
    if patched is not None and patched():
        waiting.wait = wait
