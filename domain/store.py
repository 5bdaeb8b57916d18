"""The event store and its cache: the one module of the domain that knows which database is underneath.

SQLite is the embedded default; the usual eventsourcing environment variables (PERSISTENCE_MODULE,
POSTGRES_*) select another store without code changes. `Store` is the eventsourcing `Application` the
service (domain/application.py) builds on; it gives every command three things:

- **One unit at a time.** `unit()` runs a command under this process's lock. Units nest: a request that
  authenticates, checks the referee's scope and records an action is one unit (the API opens it for every
  write), and the commands it calls run inside it.
- **A current cache.** Hot aggregates stay in the library's cache and commands change them in place instead
  of deep-copying them (the copy cost more than the SQLite write). That is safe because (1) the lock
  serialises the commands and the reads of cached aggregates in this process, (2) refusals happen before any
  aggregate changes, and (3) when anything fails after a change — a stale write, a bug — the touched
  aggregates are evicted, so the next unit reloads them. Other processes' writes (the CLI revoking a token, a
  second server worker) reach the cache through the notification log, which numbers every stored event in
  commit order: each unit starts by asking the store for the highest number (one indexed query). If it is the
  last one this process has seen, nobody else wrote; otherwise the cached aggregates named by the
  notifications in between are evicted and reloaded on use. That replaces the library's fast-forward (one
  query per aggregate per `get`). Whatever slips past (a write committed between the check and our save) is
  caught by the store's version constraint: the save fails with `Conflict`, nothing written.
- **All or nothing.** `commit(*aggregates)` is one `save()`: one transaction. A keyed write (an
  `Idempotency-Key`, domain/idempotency.py) `defer`s its unit's commits, so that what its commands changed is
  saved with its answer — built by the view after them — in one transaction (`commit_deferred`), or not at all.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Concatenate, ParamSpec, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import ApplicationRecorder, DatabaseError, InfrastructureFactory, IntegrityError
from eventsourcing.sqlite import SQLiteDatastore
from eventsourcing.utils import Environment, get_topic

from domain.errors import Conflict, NotFound, Refusal
from domain.logchain import ChainedRecorder, LogChain, chained_recorder_class
from domain.signing import KeyRing

A = TypeVar("A", bound=Aggregate)
S = TypeVar("S", bound="Store")
P = ParamSpec("P")
R = TypeVar("R")

_ZH = {"tournament": "赛事", "match": "对局", "deal": "牌局", "token": "令牌", "appeal": "申诉"}


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


def command(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """Run a public method of the service as one unit (or inside the unit already open)."""

    @functools.wraps(method)
    def run(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.unit():
            return method(self, *args, **kwargs)

    return run


class Unit:
    """A `with` block of `Store.unit()` (a class rather than a generator: every request enters several)."""

    __slots__ = ("store",)

    def __init__(self, store: Store):
        self.store = store

    def __enter__(self) -> None:
        store = self.store
        store._lock.acquire()
        try:
            if not store._depth:
                store._synchronise()
        except BaseException:
            store._lock.release()
            raise
        store._depth += 1

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        store = self.store
        try:
            if kind is not None and not issubclass(kind, Refusal):
                # Refusals come before any aggregate changed (or `commit` already forgot them); anything else
                # may have left changed aggregates in the cache.
                store._forget(store._touched)
        finally:
            store._depth -= 1
            if not store._depth:
                if store._deferred is not None:  # never saved (the request failed before its answer): forget it
                    store._forget(store._deferred)
                    store._deferred = None
                store._touched = []
            store._lock.release()


class Store(Application):
    """The event store, its cache kept current through the notification log, and units of work."""

    env = {  # the library reads this class attribute, overridden by os.environ and the env argument
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": "fupan.sqlite",
        # Hot aggregates stay in memory, so recording an action does not re-read the whole deal.
        "AGGREGATE_CACHE_MAXSIZE": "4096",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",  # see the module docstring
        "AGGREGATE_CACHE_FASTFORWARD": "n",  # `_synchronise` keeps the cache current instead
    }

    def __init__(self, env: dict[str, str] | None = None):
        super().__init__(env)
        self._lock = threading.RLock()
        self._depth = 0  # nesting of units (a request's unit holds the commands it calls)
        self._touched: list[Aggregate] = []
        self._deferred: list[Aggregate] | None = None  # a keyed write's commits, held for its answer (`defer`)
        self._closing: list[Callable[[], None]] = []
        self._log_head = self._log_head_reader()
        self._seen = self._log_head()  # the cache is empty: nothing to evict yet
        self._own: set[int] = set()  # notification ids of our own saves after `_seen` (their aggregates are current)

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        """The library's factory, building recorders that chain every write (domain/logchain.py)."""
        factory = super().construct_factory(env)
        chained = chained_recorder_class(type(factory).application_recorder_class)  # type: ignore[attr-defined]
        if chained is not None:
            factory.env[factory.APPLICATION_RECORDER_TOPIC] = get_topic(chained)
        return factory

    def construct_recorder(self) -> ApplicationRecorder:
        recorder = self._construct_recorder()
        if isinstance(recorder, ChainedRecorder):  # signed with the key outside the database (domain/signing.py)
            recorder.chain = LogChain(KeyRing.from_env(self.env), recorder.chain.log)
            if recorder.chain_is_new:  # an older store, opened by this code for the first time
                created_by_whoever_comes_first(recorder.adopt)  # other workers may be starting on it too
        return recorder

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
            return lambda: connection.execute(statement).fetchone()[0] or 0  # called under the unit's lock
        return lambda: self.recorder.max_notification_id() or 0

    def close(self) -> None:
        for close in self._closing:
            close()
        super().close()

    @classmethod
    def for_sqlite(cls: type[S], path: str) -> S:
        return cls(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})

    def unit(self) -> Unit:
        """One unit of work under the lock, the cache synchronised once at its start; if it fails after
        changing aggregates, they are forgotten (a `with` block; units nest)."""
        return Unit(self)

    def _synchronise(self) -> None:
        """Evict the cached aggregates that others changed since this process last looked."""
        latest = self._log_head()
        if latest == self._seen:
            return
        changed: set[UUID] = set()
        start = self._seen + 1
        while start <= latest:
            page = self.recorder.select_notifications(start, 1000, stop=latest)
            changed.update(n.originator_id for n in page if n.id not in self._own)
            if not page:
                break
            start = page[-1].id + 1
        self._evict(changed)
        self._seen = latest
        self._own = {n for n in self._own if n > latest}

    def _forget(self, aggregates: Iterable[Aggregate]) -> None:
        self._evict(aggregate.id for aggregate in aggregates)

    def _evict(self, aggregate_ids: Iterable[UUID]) -> None:
        cache = self.repository.cache
        if cache is not None:
            for aggregate_id in aggregate_ids:
                with contextlib.suppress(KeyError):
                    cache.get(aggregate_id, evict=True)

    def load(self, kind: type[A], aggregate_id: UUID | str, label: str) -> A:
        """The cached aggregate itself (callers hold the unit); NotFound if there is none of that kind."""
        try:
            uid = aggregate_id if isinstance(aggregate_id, UUID) else UUID(str(aggregate_id))
            aggregate = self.repository.get(uid)
        except (ValueError, AggregateNotFoundError):
            aggregate = None
        if not isinstance(aggregate, kind):
            raise NotFound("not_found", f"No {label} with id {aggregate_id}.",
                           f"找不到 id 为 {aggregate_id} 的{_ZH[label]}。", {"id": str(aggregate_id), "kind": label})
        self._touched.append(aggregate)
        return aggregate

    def find(self, aggregate_id: UUID | str) -> Aggregate | None:
        """The aggregate with this id, of whatever kind, or None (also for a malformed id)."""
        try:
            aggregate = self.repository.get(aggregate_id if isinstance(aggregate_id, UUID) else UUID(str(aggregate_id)))
        except (ValueError, AggregateNotFoundError):
            return None
        self._touched.append(aggregate)
        return aggregate

    def defer(self) -> None:
        """Hold this unit's commits until `commit_deferred` (or forget them with `drop_deferred`, or when the unit
        ends without either): a keyed write and its answer are one transaction (domain/idempotency.py). Meanwhile
        the unit sees its own changes: the cache holds them, `stored_events` and `ids_by_topic` include them."""
        self._deferred = []

    def commit_deferred(self, *aggregates: Aggregate) -> None:
        """Save the held commits and `aggregates` in one transaction (a Conflict, as `commit`: nothing written)."""
        held, self._deferred = self._deferred or [], None
        try:
            self.commit(*held, *aggregates)
        except BaseException:  # the store failed (the request's unit is not failing): its cache must forget too
            self._forget(held)
            raise

    def drop_deferred(self) -> None:
        """Save none of the held commits (the cache forgets the aggregates they changed)."""
        held, self._deferred = self._deferred or [], None
        self._forget(held)

    def commit(self, *aggregates: Aggregate) -> None:
        """Save the aggregates' new events in one transaction; a stale version is a Conflict, nothing written.
        While deferred (`defer`), hold them instead."""
        if self._deferred is not None:
            cache = self.repository.cache
            for aggregate in aggregates:
                if not any(held is aggregate for held in self._deferred):
                    self._deferred.append(aggregate)
                if cache is not None:  # a new aggregate too, as `save` would: the unit's next reads find it
                    cache.put(aggregate.id, aggregate)
            self._touched.extend(aggregates)
            return
        try:
            recordings = self.save(*aggregates)
        except IntegrityError:
            self._forget(aggregates)
            raise Conflict("conflict", "Someone else changed this at the same time; nothing was written. Reload "
                           "and retry.", "同时有其他人修改了这一记录，本次未写入任何内容。请刷新后重试。") from None
        self._own.update(r.notification.id for r in recordings)
        while self._seen + 1 in self._own:  # our own writes, in order: the cache already holds their result
            self._seen += 1
            self._own.discard(self._seen)

    def ids_by_topic(self, topic: str) -> Iterator[UUID]:
        """The ids of the aggregates whose events of `topic` are in the log, in log order."""
        start, found = 1, set()
        while True:
            page = self.recorder.select_notifications(start, 500, topics=[topic])
            for notification in page:
                found.add(notification.originator_id)
                yield notification.originator_id
            if len(page) < 500:
                break
            start = page[-1].id + 1
        for held in self._deferred or ():  # this unit's, not yet saved (`defer`)
            if held.id not in found and any(getattr(e, "TOPIC", None) == topic for e in held.pending_events):
                yield held.id

    def stored_events(self, aggregate: Aggregate) -> list[Any]:
        """An aggregate's stored events up to its cached version (with those this unit holds, `defer`)."""
        return [*self.events.get(aggregate.id, lte=aggregate.version), *aggregate.pending_events]
