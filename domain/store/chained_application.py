"""One eventsourcing application on one database, its writes chained and signed (domain/store/logchain.py),
with what a cache kept current through the notification log needs: the log head, what was seen, and a
reading factory for background readers. The main store and each deal database are one of these
(domain/store/event_store.py, domain/store/deal_store.py)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import ApplicationRecorder, DatabaseError, InfrastructureFactory
from eventsourcing.sqlite import SQLiteDatastore
from eventsourcing.utils import Environment, get_topic

from domain.store.logchain import ChainedRecorder, LogChain, chained_recorder_class
from domain.store.signing import KeyRing

R = TypeVar("R")


def created_by_whoever_comes_first(create: Callable[[], R], attempts: int = 60, pause: float = 0.05,
                                   start_again: Callable[[], None] = lambda: None) -> R:
    """Run `create` (CREATE … IF NOT EXISTS) when other processes may run it at the same moment — several
    workers starting on a fresh store. SQLite then refuses the slower one with "database is locked" (its read
    snapshot went stale under the other's commit, or two connections deadlocked switching the new file to
    WAL), PostgreSQL with a unique violation in its catalogue or "tuple concurrently updated"; all mean that
    someone else is creating the same tables, so try again until they are there (a store that is really
    unreachable still fails, after `attempts` tries). `start_again` runs before each new try."""
    for attempt in range(attempts):
        try:
            return create()
        except (DatabaseError, sqlite3.OperationalError):
            # eventsourcing switches a new SQLite file to WAL outside its error translation, so that
            # "database is locked" arrives as the driver's own error.
            if attempt == attempts - 1:
                raise
            start_again()
            time.sleep(pause)
    raise AssertionError("unreachable")


class ChainedApplication(Application):
    """An eventsourcing application on one database whose writes are chained and signed (domain/store/logchain.py),
    with what a cache kept current through its notification log needs: the log head and what was seen."""

    env = {  # the library reads this class attribute, overridden by os.environ and the env argument
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": "fupan.sqlite",
        # Hot aggregates stay in memory, so recording an action does not re-read the whole deal.
        "AGGREGATE_CACHE_MAXSIZE": "4096",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",  # see domain/store/event_store.py
        "AGGREGATE_CACHE_FASTFORWARD": "n",  # `_synchronise` keeps the cache current instead
    }

    def __init__(self, env: dict[str, str] | None = None):
        super().__init__(env)
        self._closing: list[Callable[[], None]] = []
        # `_seen`, `_own` and the log head's own SQLite connection belong to whoever holds this short lock (never
        # held across a unit: only across one look at the log, or the bookkeeping after a save).
        self._log_lock = threading.Lock()
        self._looks_begun = 0  # looks at the log begun so far, and the number of the last one finished
        self._look_done = 0
        self._log_head = self._log_head_reader()
        self._seen = self._log_head()  # the cache is empty: nothing to evict yet
        self._own: set[int] = set()  # notification ids of our own saves after `_seen` (their aggregates are current)
        # Told the ids of the aggregates saved here or found changed by others (the store's cache of committed
        # aggregates, domain/store/unit_locks.py, drops them).
        self.on_change: Callable[[Iterable[UUID]], None] = lambda ids: None

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        """The library's factory, building recorders that chain every write (domain/store/logchain.py)."""
        factory = super().construct_factory(env)
        chained = chained_recorder_class(type(factory).application_recorder_class)  # type: ignore[attr-defined]
        if chained is not None:
            factory.env[factory.APPLICATION_RECORDER_TOPIC] = get_topic(chained)
        return factory

    def reading_factory(self) -> InfrastructureFactory:
        """A factory of this store's own for a background reader (its own connections), whose recorders never
        create tables: the store's tables exist once the application is open, and a reader that created them
        again after they went (a dropped or renamed table) would start a new, empty log under the server."""
        env = Environment(self.env.name, dict(self.env))
        env.update({key: "n" for key in env.create_keys("CREATE_TABLE")})
        return self.construct_factory(env)

    def construct_recorder(self) -> ApplicationRecorder:
        recorder = self._construct_recorder()
        if isinstance(recorder, ChainedRecorder):  # signed with the key outside the database (domain/store/signing.py)
            recorder.chain = LogChain(KeyRing.from_env(self.env), self.chain_log(recorder.chain.log))
            if recorder.chain_is_new:  # an older store, opened by this code for the first time
                created_by_whoever_comes_first(recorder.adopt)  # other workers may be starting on it too
        return recorder

    def chain_log(self, events_table: str) -> str:
        """The name of this database's notification log in its chain's links."""
        return events_table

    def _construct_recorder(self) -> ApplicationRecorder:
        def with_a_new_datastore() -> None:
            # A failed first connection can leave eventsourcing's connection pool holding its writer lock
            # (it is taken before the connection is made and not given back), so the next try would wait on it.
            self.factory.close()
            self.factory = self.construct_factory(self.env)

        # Creates the tables if missing.
        return created_by_whoever_comes_first(super().construct_recorder, start_again=with_a_new_datastore)

    def _log_head_reader(self) -> Callable[[], int]:
        """How this process asks for the highest notification id, once per unit. On an SQLite file, one
        connection of its own in autocommit mode (a read in WAL mode sees the last commit): a tenth of the
        library's pooled transaction, which every write request would otherwise pay. Elsewhere, the library's."""
        datastore = getattr(self.factory, "datastore", None)
        if isinstance(datastore, SQLiteDatastore) and not datastore.pool.is_sqlite_memory_mode:
            connection = sqlite3.connect(datastore.pool.db_name, uri=True, check_same_thread=False,
                                         isolation_level=None)
            self._closing.append(connection.close)
            statement = self.recorder.select_max_notification_id_statement  # type: ignore[attr-defined]
            return lambda: connection.execute(statement).fetchone()[0] or 0  # called under `_log_lock`
        return lambda: self.recorder.max_notification_id() or 0

    def catch_up(self, probe: Sequence[UUID] = ()) -> set[UUID]:
        """Make the cache current with everything committed before this call (`_changed_since_seen`), under the
        log's short lock. Units starting together share one look: a look that began after this call began sees
        at least as much of the log, so when one finishes while this call waits for the lock, it is enough (and
        `probe` goes unasked: each `find` of it then asks the store itself)."""
        asked = self._looks_begun
        with self._log_lock:
            if self._look_done > asked:
                return set()
            self._looks_begun += 1
            number = self._looks_begun
            absent = self._changed_since_seen(probe)
            self._look_done = number
            return absent

    def _changed_since_seen(self, probe: Sequence[UUID] = ()) -> set[UUID]:
        """(Under `_log_lock`: `catch_up`.) Evict the cached aggregates that others changed since this process
        last looked at this log; which of `probe` are not stored, if this store can tell with the same round trip
        (else none).

        An aggregate is evicted only when the log holds a version of it newer than the cached one. A save of this
        process that committed but has not yet noted its notification in `_own` (`_saved`, which waits for this
        lock meanwhile) looks like another process's write, and evicting its aggregate would cost the next unit a
        reload of every event; its cached version already is the one stored. A cached aggregate a unit is
        changing holds its new version before it is saved: if another process stored that version first, the
        unit's save fails and forgets it."""
        changed: dict[UUID, int] = {}  # aggregate id → the highest version others stored after `_seen`
        absent: set[UUID] = set()
        changed_since = getattr(self.recorder, "changed_since", None)
        if changed_since is not None:  # PostgreSQL (domain/store/logchain.py): the ids after `_seen`, one round trip
            latest = self._seen
            ids, stored = changed_since(latest, 1000, probe)
            absent = set(probe) - stored
            while True:
                for n, aggregate_id, version in ids:
                    if n not in self._own and version > changed.get(aggregate_id, 0):
                        changed[aggregate_id] = version
                latest = ids[-1][0] if ids else latest
                if len(ids) < 1000:
                    break
                ids, _ = changed_since(latest, 1000)
        else:
            latest = self._log_head()
            if latest == self._seen:
                return absent
            start = self._seen + 1
            while start <= latest:
                page = self.recorder.select_notifications(start, 1000, stop=latest)
                for n in page:
                    if n.id not in self._own and n.originator_version > changed.get(n.originator_id, 0):
                        changed[n.originator_id] = n.originator_version
                if not page:
                    break
                start = page[-1].id + 1
        cache = self.repository.cache
        if cache is not None:
            for aggregate_id, version in changed.items():
                with contextlib.suppress(KeyError):
                    if cache.get(aggregate_id).version < version:
                        cache.get(aggregate_id, evict=True)
        self.on_change(changed)
        self._seen = latest
        self._own = {n for n in self._own if n > latest}
        return absent

    def _saved(self, aggregates: Sequence[Aggregate]) -> None:
        """Save in one transaction and note our own notifications (a stale version: IntegrityError)."""
        recordings = self.save(*aggregates)
        self.on_change(aggregate.id for aggregate in aggregates)
        with self._log_lock:  # another unit may be looking at the log meanwhile
            self._own.update(r.notification.id for r in recordings if r.notification.id > self._seen)
            while self._seen + 1 in self._own:  # our own writes, in order: the cache already holds their result
                self._seen += 1
                self._own.discard(self._seen)

    def close(self) -> None:
        for close in self._closing:
            close()
        super().close()
