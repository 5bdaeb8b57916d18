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
"""

from __future__ import annotations

import select
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


def _gevent_parts() -> tuple[Any, Any, Any]:
    """(the kernel's `select.poll`, gevent's `get_hub`, gevent's wait on a watcher), looked up the first time."""
    if not _gevent:
        from gevent import monkey
        from gevent.hub import get_hub
        from gevent.socket import wait as wait_on_watcher

        _gevent.update(poll=monkey.get_original("select", "poll"), get_hub=get_hub, wait_on_watcher=wait_on_watcher)
    return _gevent["poll"], _gevent["get_hub"], _gevent["wait_on_watcher"]


def wait(gen: Any, fileno: int, interval: float = 0.0, timeout: float | None = None) -> Any:
    """psycopg's `WaitFunc` for a gevent worker (module docstring)."""
    kernel_poll, get_hub, wait_on_watcher = _gevent_parts()
    hub = get_hub()
    deadline = None if timeout is None else monotonic() + timeout
    poller = kernel_poll()  # the kernel's, never blocking here
    try:
        s = next(gen)
        poller.register(fileno, _EVENTS[s])
        while True:
            found = poller.poll(0)
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
