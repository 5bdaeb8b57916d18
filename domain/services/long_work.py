"""Seconds of computation on a request's path — a solver's search, up to the API's 10 s (docs/analysis.md) — without
stopping the requests beside it.

A gevent worker (README "Production") serves all its requests as greenlets of one thread: a search run in place
holds the worker's loop for its whole budget, and every pad, stream and page that worker serves waits for it.
`beside_the_loop(work)` runs `work` on a native thread of a small pool of the worker's (gevent's `ThreadPool`)
while the greenlet that asked waits cooperatively: the compiled core releases the GIL for its search and the
Python search gives it up at the interpreter's switch interval, so the loop goes on serving. Two searches at a
time per worker (each may hold some 250 MB of table, docs/PERFORMANCE.md); more wait their turn. `work` must read
and change nothing of the store (the search runs on copies of a position), as `Store.outside_lock` asks.

Anywhere else — gthread's or waitress's threads, the `fupan` command, the tests — `work` runs in place: those
threads are the operating system's already.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

POOL_THREADS = 2
_pool: dict[str, Any] = {}  # the worker's pool, made the first time it is needed (after gunicorn's fork)


def _patched() -> bool:
    """Whether gevent patched this process's threads (a gevent worker); gevent is never imported here otherwise."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def beside_the_loop(work: Callable[[], R]) -> R:
    """`work()`'s answer (or its exception), computed where it does not stop the worker's other requests (module
    docstring). Start any time budget inside `work`: a search waiting for a thread has not started its clock."""
    if not _patched():
        return work()
    if "threads" not in _pool:
        from gevent.threadpool import ThreadPool

        _pool["threads"] = ThreadPool(POOL_THREADS)
    result: R = _pool["threads"].apply(work)
    return result
