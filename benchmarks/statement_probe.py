"""How many queries a write sends to the database: a gunicorn app target for benchmarks/load.py that counts, in
each worker, the queries its driver sends (psycopg's `Cursor.execute`, the background poller's included) and the
writes it answered (a POST answered 2xx), by the query's first words.

Every 2 s each worker appends a line to `$FUPAN_STATEMENT_PROBE_DIR/statements-<pid>.txt` (default: the system's
temp directory): writes answered, queries sent, queries a write, and the kinds sent most. A query of several
statements (PostgreSQL's simple query protocol: domain/store/logchain.py) counts once, and its statements are
counted beside it. Run, from the project's root:

    FUPAN_LOAD_APP=benchmarks.statement_probe:app .venv/bin/python benchmarks/load.py --tables 32 --seconds 5

Counting adds a little CPU to every query: compare its writes/s only with runs that use it too.
"""

from __future__ import annotations

import collections
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
from flask import Response, request

from web.app import create_app

_guard = threading.Lock()
_counts: collections.Counter[str] = collections.Counter()
_execute = psycopg.Cursor.execute


def _kind(query: Any) -> str:
    text = query if isinstance(query, str) else query.decode() if isinstance(query, bytes) else str(query)
    words = text.replace("(", " ").split()
    return " ".join(words[:2]) if words else "?"


def _counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
    text = query if isinstance(query, (str, bytes)) else None
    with _guard:
        _counts["queries"] += 1
        _counts["kind " + _kind(query)] += 1
        if text is not None:
            _counts["statements"] += max(1, (text.count(b";") if isinstance(text, bytes) else text.count(";")) + 1)
        else:
            _counts["statements"] += 1
    return _execute(self, query, *args, **kwargs)


def _count_write(response: Response) -> Response:
    if request.method == "POST" and response.status_code < 300:
        with _guard:
            _counts["writes"] += 1
    return response


def _report(path: Path) -> None:
    last: collections.Counter[str] = collections.Counter()
    while True:
        time.sleep(2)
        with _guard:
            now = collections.Counter(_counts)
        delta = now - last
        last = now
        writes = delta["writes"]
        if not writes:
            continue
        kinds = sorted(((n, k[5:]) for k, n in delta.items() if k.startswith("kind ")), reverse=True)[:8]
        with path.open("a") as out:
            out.write(f"writes {writes}, queries {delta['queries']} ({delta['queries'] / writes:.2f} a write), "
                      f"statements {delta['statements']} ({delta['statements'] / writes:.2f} a write); "
                      + ", ".join(f"{k}: {n / writes:.2f}" for n, k in kinds) + "\n")


psycopg.Cursor.execute = _counted_execute  # type: ignore[method-assign]
_directory = Path(os.environ.get("FUPAN_STATEMENT_PROBE_DIR") or tempfile.gettempdir())
threading.Thread(target=_report, args=(_directory / f"statements-{os.getpid()}.txt",), daemon=True).start()
app = create_app()
app.after_request(_count_write)
