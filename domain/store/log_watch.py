"""Watching the notification logs for the live streams (docs/streams.md): one watcher per server process.

A server process keeps one background thread that asks each log (the main database's and, with K deal
databases, each deal database's: domain/store/deal_databases.py) for its head every `interval` seconds and reads
the notifications past the last one it saw (their ids, aggregates, versions and topics; never their payloads'
meaning). It keeps the latest of them in memory, so a stream that wakes up finds what it missed without a query,
and wakes only the streams following an aggregate that changed. It sees every process's writes (another gunicorn
worker, the command line), because it reads the store, not this process's saves.

Positions: a **cursor** is the tuple of the last notification id seen in each log, the main database's first.
With one database it is one number — the notification id itself, which is what a stream sends as its event
id. The thread reads with connections of its own (`reading_factory`), as the projections' poller does: closing
the application's pool under a query running in another thread is unsafe on SQLite.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

log = logging.getLogger(__name__)

Cursor = tuple[int, ...]


@dataclass(frozen=True)
class Change:
    """One stored event, as a stream needs it: which log, its notification id, whose event and which."""

    log: int
    id: int
    aggregate: UUID
    version: int
    topic: str


class Interest:
    """What one stream follows: aggregate ids (changed as it goes: a table's new deal) and the flag the watcher
    sets when one of them changed."""

    def __init__(self, aggregates: Iterable[UUID]):
        self.aggregates: set[UUID] = set(aggregates)
        self.woken = threading.Event()


class LogWatcher:
    """The logs' heads and their latest notifications in memory, and the streams waiting on them."""

    def __init__(self, store: Any, *, interval: float = 0.02, keep: int = 20000):
        self.store = store
        self.interval = interval
        self.keep = keep  # notifications kept in memory per log: a stream further behind reads the database
        self.sources = [store, *store.deal_stores]
        self._lock = threading.Lock()
        self._recent: list[list[Change]] = [[] for _ in self.sources]
        self._ids: list[list[int]] = [[] for _ in self.sources]  # the ids of `_recent`, for bisect
        self._positions: list[int] = [source.recorder.max_notification_id() or 0 for source in self.sources]
        self._floor = list(self._positions)  # memory holds every notification of a log past its floor
        self._interests: set[Interest] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._polling = threading.Lock()  # one reader of the logs at a time: the thread, or `catch_up`

    # --- what a stream asks -------------------------------------------------------------------------

    def cursor(self) -> Cursor:
        with self._lock:
            return tuple(self._positions)

    def parse(self, text: str | None) -> Cursor | None:
        """A cursor sent back as `Last-Event-ID` (None: absent or not one of ours — the stream starts now)."""
        parts = (text or "").strip().split(".")
        if len(parts) != len(self.sources) or not all(part.isdigit() and len(part) < 19 for part in parts):
            return None
        return tuple(int(part) for part in parts)

    @staticmethod
    def text(cursor: Cursor) -> str:
        return ".".join(str(position) for position in cursor)

    def follow(self, aggregates: Iterable[UUID]) -> Interest:
        self._start()
        interest = Interest(aggregates)
        with self._lock:
            self._interests.add(interest)
        return interest

    def widen(self, interest: Interest, aggregates: Iterable[UUID]) -> None:
        """Follow more aggregates (a table's next deal)."""
        with self._lock:
            interest.aggregates.update(aggregates)

    def leave(self, interest: Interest) -> None:
        with self._lock:
            self._interests.discard(interest)

    def changes(self, after: Cursor, aggregates: set[UUID]) -> tuple[list[Change], Cursor]:
        """The changes of `aggregates` past `after`, in each log's order (the main log's first), and the cursor
        they bring the stream to: every log's position now, so a stream that saw nothing of its own still moves
        on. A cursor further back than memory holds (a stream resumed after a long while) reads the database."""
        with self._lock:
            now = tuple(self._positions)
            found: list[Change] = []
            behind: list[int] = []
            for index, ids in enumerate(self._ids):
                start = after[index]
                if start >= now[index]:
                    continue
                if start >= self._floor[index]:
                    at = bisect.bisect_right(ids, start)
                    found.extend(c for c in self._recent[index][at:] if c.aggregate in aggregates)
                else:
                    behind.append(index)
        for index in behind:
            found.extend(self._read(index, after[index], now[index], aggregates))
        found.sort(key=lambda change: (change.log, change.id))
        return found, now

    def _read(self, index: int, after: int, until: int, aggregates: set[UUID]) -> list[Change]:
        recorder = self.sources[index].recorder
        found: list[Change] = []
        while after < until:
            page = recorder.select_notifications(after + 1, 1000, stop=until)
            if not page:
                break
            found.extend(Change(index, n.id, n.originator_id, n.originator_version, n.topic) for n in page
                         if n.originator_id in aggregates)
            after = page[-1].id
        return found

    # --- the thread ----------------------------------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._watch, name="fupan-streams", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        with self._lock:
            for interest in self._interests:
                interest.woken.set()

    @property
    def closed(self) -> bool:
        return self._stop.is_set() or self.store.closing.is_set()

    def _watch(self) -> None:
        factories = [source.reading_factory() for source in self.sources]
        try:
            recorders = [factory.application_recorder() for factory in factories]
            with contextlib.ExitStack() as stack:
                wait = self._listening(recorders, stack)
                while not self.closed:
                    try:
                        if wait is None:
                            self._stop.wait(self.interval)
                        else:
                            wait()
                        self._poll(recorders)
                    except Exception:
                        if self.closed:
                            break
                        log.exception("streams: reading the log failed; trying again in %s s", self.interval)
                        self._stop.wait(self.interval)
                        with contextlib.suppress(Exception):
                            stack.close()
                        wait = None  # the connection may be gone (a restarted server): poll from now on
        finally:
            for factory in factories:
                with contextlib.suppress(Exception):
                    factory.close()
            with self._lock:
                for interest in self._interests:
                    interest.woken.set()  # the streams notice the watcher is gone and end

    QUIET = 1.0  # PostgreSQL: a look at the log at least this often even without a notification

    def _listening(self, recorders: list[Any], stack: contextlib.ExitStack) -> Any:
        """On PostgreSQL with one database: a function that waits for the store's own NOTIFY (every write sends one
        on the events table's channel: eventsourcing's recorder) or QUIET seconds, so a change is read as soon
        as it is committed and an idle server asks nothing 50 times a second. None otherwise (poll every
        `interval`; with deal databases too, whose logs notify on connections of their own)."""
        recorder = recorders[0]
        channel = getattr(recorder, "channel_name", None)
        datastore = getattr(recorder, "datastore", None)
        if len(recorders) != 1 or channel is None or not hasattr(datastore, "get_connection"):
            return None
        connection = stack.enter_context(datastore.get_connection())
        quoted = channel.replace('"', '""')  # the events table's name, quoted as an identifier
        connection.execute(f'LISTEN "{quoted}"')
        connection.commit()

        def wait() -> None:
            for _ in connection.notifies(timeout=self.QUIET, stop_after=1):
                pass

        return wait

    def catch_up(self) -> None:
        """Read the logs now, on the caller's thread with the store's own recorders: a stream that starts or
        resumes reflects every change stored before its request, not the thread's last look."""
        self._poll([source.recorder for source in self.sources])

    def _poll(self, recorders: list[Any]) -> None:
        with self._polling:
            self._poll_locked(recorders)

    def _poll_locked(self, recorders: list[Any]) -> None:
        touched: set[UUID] = set()
        for index, recorder in enumerate(recorders):
            head = recorder.max_notification_id() or 0
            position = self._positions[index]
            new: list[Change] = []
            while position < head:
                page = recorder.select_notifications(position + 1, 1000, stop=head)
                if not page:
                    break
                new.extend(Change(index, n.id, n.originator_id, n.originator_version, n.topic) for n in page)
                position = page[-1].id
            position = max(position, head)
            with self._lock:
                recent, ids = self._recent[index], self._ids[index]
                recent.extend(new)
                ids.extend(change.id for change in new)
                if len(recent) > self.keep:
                    self._floor[index] = ids[len(ids) - self.keep - 1]
                    del recent[: len(recent) - self.keep]
                    del ids[: len(ids) - self.keep]
                self._positions[index] = position
            touched.update(change.aggregate for change in new)
        if touched:
            with self._lock:
                waking = [interest for interest in self._interests if interest.aggregates & touched]
            for interest in waking:
                interest.woken.set()
