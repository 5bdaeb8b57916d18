"""The event store and its cache: the one module of the domain that knows which database is underneath.

SQLite is the embedded default; the usual eventsourcing environment variables (PERSISTENCE_MODULE,
POSTGRES_*) select another store without code changes. `Store` is the eventsourcing `Application` the
services (domain/services/fupan.py) build on; it gives every command three things:

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
  notifications in between are evicted and reloaded on use (on PostgreSQL both in one query: the ids of the
  events after the last one seen, no states). That replaces the library's fast-forward (one query per
  aggregate per `get`). Whatever slips past (a write committed between the check and our save) is
  caught by the store's version constraint: the save fails with `Conflict`, nothing written.
- **All or nothing.** `commit(*aggregates)` is one `save()`: one transaction. A keyed write (an
  `Idempotency-Key`, domain/model/idempotent_request.py) `defer`s its unit's commits, so that what its commands
  changed is
  saved with its answer — built by the view after them — in one transaction (`commit_deferred`), or not at all.

With K deal databases (`FUPAN_DEAL_DATABASES`, domain/store/deal_databases.py) the aggregates of `deal_kinds` live in
the database their id maps to, each database an eventsourcing application of its own (`DealStore`: its own
recorder, chain and cache); everything else stays on the main one. A unit then also looks at the log head of
each deal database it touches, once, when it first touches it. A commit spanning databases is one transaction
per database, the deal databases' first and the main one's last (docs/OPERATIONS.md says what that keeps and
what it gives up). With one database (the default) none of this runs.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import ApplicationRecorder, DatabaseError, InfrastructureFactory, IntegrityError
from eventsourcing.sqlite import SQLiteDatastore
from eventsourcing.utils import Environment, get_topic

from domain.kernel.errors import Conflict, NotFound, Refusal
from domain.store.deal_databases import SETTING, DealDatabase, configured, home
from domain.store.logchain import ChainedRecorder, LogChain, chained_recorder_class
from domain.store.signing import KeyRing

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

    __slots__ = ("store", "probe")

    def __init__(self, store: Store, probe: Sequence[UUID] = ()):
        self.store, self.probe = store, probe

    def __enter__(self) -> None:
        store = self.store
        store._lock.acquire()
        try:
            if not store._depth:
                store._synchronise(self.probe)
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
                store._placed.clear()
                store._absent.clear()
            store._lock.release()


class ChainedApplication(Application):
    """An eventsourcing application on one database whose writes are chained and signed (domain/store/logchain.py),
    with what a cache kept current through its notification log needs: the log head and what was seen."""

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
        self._closing: list[Callable[[], None]] = []
        self._log_head = self._log_head_reader()
        self._seen = self._log_head()  # the cache is empty: nothing to evict yet
        self._own: set[int] = set()  # notification ids of our own saves after `_seen` (their aggregates are current)

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
            return lambda: connection.execute(statement).fetchone()[0] or 0  # called under the unit's lock
        return lambda: self.recorder.max_notification_id() or 0

    def _changed_since_seen(self, probe: Sequence[UUID] = ()) -> set[UUID]:
        """Evict the cached aggregates that others changed since this process last looked at this log; which of
        `probe` are not stored, if this store can tell with the same round trip (else none)."""
        changed: set[UUID] = set()
        absent: set[UUID] = set()
        changed_since = getattr(self.recorder, "changed_since", None)
        if changed_since is not None:  # PostgreSQL (domain/store/logchain.py): the ids after `_seen`, one round trip
            latest = self._seen
            ids, stored = changed_since(latest, 1000, probe)
            absent = set(probe) - stored
            while True:
                changed.update(aggregate_id for n, aggregate_id in ids if n not in self._own)
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
                changed.update(n.originator_id for n in page if n.id not in self._own)
                if not page:
                    break
                start = page[-1].id + 1
        cache = self.repository.cache
        if cache is not None:
            for aggregate_id in changed:
                with contextlib.suppress(KeyError):
                    cache.get(aggregate_id, evict=True)
        self._seen = latest
        self._own = {n for n in self._own if n > latest}
        return absent

    def _saved(self, aggregates: Sequence[Aggregate]) -> None:
        """Save in one transaction and note our own notifications (a stale version: IntegrityError)."""
        recordings = self.save(*aggregates)
        self._own.update(r.notification.id for r in recordings)
        while self._seen + 1 in self._own:  # our own writes, in order: the cache already holds their result
            self._seen += 1
            self._own.discard(self._seen)

    def close(self) -> None:
        for close in self._closing:
            close()
        super().close()


class DealStore(ChainedApplication):
    """One deal database: the deal streams whose ids map to it, in its own events table with its own chain."""

    name = "Fupan"  # the same environment prefix and events table (fupan_events) as the main database

    def __init__(self, database: DealDatabase, env: dict[str, str], main: Any):
        self.database = database
        if database.create:
            _create_database(main.factory.datastore, database.overrides["POSTGRES_DBNAME"])
        overrides = {**database.overrides, **{f"FUPAN_{k}": v for k, v in database.overrides.items()}}
        super().__init__({k: v for k, v in env.items() if not k.endswith(SETTING)} | overrides)

    @property
    def label(self) -> str:
        return self.database.label

    def chain_log(self, events_table: str) -> str:
        return f"{events_table}@deals{self.database.index}"

    def _construct_recorder(self) -> ApplicationRecorder:
        schema = self.database.overrides.get("POSTGRES_SCHEMA")
        if schema and schema != "public":
            _create_schema(self.factory.datastore, schema)  # type: ignore[attr-defined]
        return super()._construct_recorder()


def _sql_name(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"FUPAN_DEAL_DATABASES: {name!r} is not a plain SQL name (letters, digits, _).")
    return f'"{name}"'


def _create_database(datastore: Any, name: str) -> None:
    _create_if_missing(datastore, "SELECT 1 FROM pg_database WHERE datname = %s", "CREATE DATABASE {}", name)


def _create_schema(datastore: Any, name: str) -> None:
    _create_if_missing(datastore, "SELECT 1 FROM pg_namespace WHERE nspname = %s", "CREATE SCHEMA IF NOT EXISTS {}",
                       name)


def _create_if_missing(datastore: Any, exists: str, create: str, name: str) -> None:
    """Create a database or schema if missing, through a connection of the main database's pool (autocommit).
    Several workers may start at once: whoever loses the race finds it there."""
    with datastore.get_connection() as conn:
        if conn.execute(exists, (name,)).fetchone() is None:
            try:
                conn.execute(create.format(_sql_name(name)))
            except Exception:  # the driver's error: someone else created it first, or a real failure
                if conn.execute(exists, (name,)).fetchone() is None:
                    raise


class Store(ChainedApplication):
    """The event store, its cache kept current through the notification log, and units of work."""

    # The aggregates stored in the deal databases when there are several (the application names them).
    deal_kinds: tuple[type[Aggregate], ...] = ()

    def __init__(self, env: dict[str, str] | None = None):
        super().__init__(env)
        self._lock = threading.RLock()
        self._depth = 0  # nesting of units (a request's unit holds the commands it calls)
        self._touched: list[Aggregate] = []
        self._deferred: list[Aggregate] | None = None  # a keyed write's commits, held for its answer (`defer`)
        databases = configured(self.env.get(SETTING), dict(self.env), self.env.get("PERSISTENCE_MODULE", ""))
        self.deal_stores: list[DealStore] = []
        try:
            for database in databases:
                self.deal_stores.append(DealStore(database, dict(self.env), self))
        except BaseException:
            self.close()
            raise
        self._synced: set[int] = set()  # deal databases whose log this unit has looked at
        self._absent: set[UUID] = set()  # probed at this unit's start and not stored then (`unit`)
        self._placed: dict[UUID, int] = {}  # this unit's aggregates kept in a deal database though not deals
        self._on_main: set[UUID] = set()  # deals stored before deal databases were configured

    def close(self) -> None:
        for deal_store in getattr(self, "deal_stores", ()):
            deal_store.close()
        super().close()

    @classmethod
    def for_sqlite(cls: type[S], path: str) -> S:
        return cls(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})

    def unit(self, probe: Sequence[UUID] = ()) -> Unit:
        """One unit of work under the lock, the cache synchronised once at its start; if it fails after
        changing aggregates, they are forgotten (a `with` block; units nest). `probe`: aggregates the unit will
        look for and that are likely not stored (a write's idempotency key), asked with the synchronisation in
        the same round trip where the store can (PostgreSQL, one database): the first `find` of one found absent
        then needs no query. Its absence is as of the unit's start, as a `find` then would have seen it; a key
        stored meanwhile by another process is caught by the commit, as before."""
        return Unit(self, probe if not self.deal_stores else ())

    def _synchronise(self, probe: Sequence[UUID] = ()) -> None:
        """Evict the cached aggregates that others changed since this process last looked (the main database's
        log; a deal database's when the unit first touches it, `_deal_store`)."""
        self._absent.update(self._changed_since_seen(probe))
        if self.deal_stores:
            self._synced = set()

    # --- where an aggregate lives (K deal databases) ---------------------------------------------------

    def _is_deal_kind(self, kind: type | None) -> bool:
        return kind is not None and any(issubclass(kind, deal_kind) for deal_kind in self.deal_kinds)

    def _deal_store(self, index: int) -> DealStore:
        """Deal database `index`, its cache made current once in this unit."""
        deal_store = self.deal_stores[index]
        if index not in self._synced:
            deal_store._changed_since_seen()
            self._synced.add(index)
        return deal_store

    def _home(self, aggregate_id: UUID, kind: type | None) -> ChainedApplication:
        """The application storing this aggregate: its deal database for a deal (or an aggregate this unit
        placed there), else the main one."""
        if not self.deal_stores:
            return self
        index = self._placed.get(aggregate_id)
        if index is None and self._is_deal_kind(kind) and aggregate_id not in self._on_main:
            index = home(aggregate_id, len(self.deal_stores))
        return self if index is None else self._deal_store(index)

    def place_with_deal(self, aggregate_id: UUID, deal_id: UUID | str | None) -> None:
        """Keep the aggregate `aggregate_id` (looked up and saved in this unit) in the database of `deal_id`: a
        write to a deal keeps its idempotency key in the deal's transaction (docs/OPERATIONS.md)."""
        if not self.deal_stores or deal_id is None or not self.deal_kinds:
            return
        try:
            uid = deal_id if isinstance(deal_id, UUID) else UUID(str(deal_id))
        except ValueError:
            return
        with contextlib.suppress(AggregateNotFoundError):  # the write loads it next (so it is cached now)
            self._get(uid, self.deal_kinds[0])  # a deal kept on the main database keeps its keys there too
        if uid not in self._on_main:
            self._placed[aggregate_id] = home(uid, len(self.deal_stores))

    def where_stored(self, aggregate_id: UUID) -> dict[str, str]:
        """{"database": label} of the database holding an aggregate's events, for messages ({} with one
        database; "main database" when no deal database has it)."""
        if not self.deal_stores:
            return {}
        for deal_store in self.deal_stores:
            if list(deal_store.events.get(aggregate_id, limit=1)):
                return {"database": deal_store.label}
        return {"database": "main database"}

    def _get(self, uid: UUID, kind: type | None) -> Aggregate:
        """The aggregate from its home (AggregateNotFoundError if it has none). A deal is looked for in its deal
        database, then on the main one (stored there before deal databases were configured); an aggregate of
        unknown kind (`find`) on the main database, then in the deal database its id maps to."""
        placed = self._placed.get(uid)
        if placed is not None:
            return self._deal_store(placed).repository.get(uid)
        if uid in self._on_main or not (kind is None or self._is_deal_kind(kind)):
            return self.repository.get(uid)
        deal_store = self._deal_store(home(uid, len(self.deal_stores)))
        first, second = (deal_store, self) if kind is not None else (self, deal_store)
        try:
            aggregate = first.repository.get(uid)
            found_on_main = first is self
        except AggregateNotFoundError:
            aggregate = second.repository.get(uid)
            found_on_main = second is self
        if found_on_main and isinstance(aggregate, self.deal_kinds):
            self._on_main.add(uid)
        return aggregate

    def _forget(self, aggregates: Iterable[Aggregate]) -> None:
        self._evict(aggregate.id for aggregate in aggregates)

    def _evict(self, aggregate_ids: Iterable[UUID]) -> None:
        caches = [app.repository.cache for app in (self, *self.deal_stores)]
        for aggregate_id in aggregate_ids:
            for cache in caches:
                if cache is not None:
                    with contextlib.suppress(KeyError):
                        cache.get(aggregate_id, evict=True)

    def load(self, kind: type[A], aggregate_id: UUID | str, label: str) -> A:
        """The cached aggregate itself (callers hold the unit); NotFound if there is none of that kind."""
        try:
            uid = aggregate_id if isinstance(aggregate_id, UUID) else UUID(str(aggregate_id))
            aggregate = self.repository.get(uid) if not self.deal_stores else self._get(uid, kind)
        except (ValueError, AggregateNotFoundError):
            aggregate = None
        if not isinstance(aggregate, kind):
            raise NotFound("not_found", f"No {label} with id {aggregate_id}.",
                           f"找不到 id 为 {aggregate_id} 的{_ZH[label]}。", {"id": str(aggregate_id), "kind": label})
        self._touched.append(aggregate)
        return aggregate

    def find(self, aggregate_id: UUID | str, kind: type[Aggregate] | None = None) -> Aggregate | None:
        """The aggregate with this id, of whatever kind, or None (also for a malformed id). With deal databases:
        the main database's, else the deal database the id maps to (`kind`, if known, says where to look first)."""
        try:
            uid = aggregate_id if isinstance(aggregate_id, UUID) else UUID(str(aggregate_id))
            if uid in self._absent and not self._cached(uid):
                self._absent.discard(uid)  # probed at the unit's start (`unit`): not stored, no query needed
                return None
            aggregate = self.repository.get(uid) if not self.deal_stores else self._get(uid, kind)
        except (ValueError, AggregateNotFoundError):
            return None
        self._touched.append(aggregate)
        return aggregate

    def _cached(self, uid: UUID) -> bool:
        cache = self.repository.cache
        try:
            return cache is not None and cache.get(uid) is not None
        except KeyError:
            return False

    def defer(self) -> None:
        """Hold this unit's commits until `commit_deferred` (or forget them with `drop_deferred`, or when the unit
        ends without either): a keyed write and its answer are one transaction
        (domain/model/idempotent_request.py). Meanwhile
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
        While deferred (`defer`), hold them instead. With deal databases: one transaction per database touched,
        the deal databases' first, the main one's last (so a table never scores a deal its database lacks)."""
        if self._deferred is not None:
            for aggregate in aggregates:
                if not any(held is aggregate for held in self._deferred):
                    self._deferred.append(aggregate)
                cache = self._home(aggregate.id, type(aggregate)).repository.cache
                if cache is not None:  # a new aggregate too, as `save` would: the unit's next reads find it
                    cache.put(aggregate.id, aggregate)
            self._touched.extend(aggregates)
            return
        if not self.deal_stores:
            groups: list[tuple[ChainedApplication, list[Aggregate]]] = [(self, list(aggregates))]
        else:
            by_home: dict[int, tuple[ChainedApplication, list[Aggregate]]] = {}
            for aggregate in aggregates:
                where = self._home(aggregate.id, type(aggregate))
                by_home.setdefault(id(where), (where, []))[1].append(aggregate)
            groups = sorted(by_home.values(), key=lambda group: group[0] is self)  # main last
        for index, (where, group) in enumerate(groups):
            try:
                where._saved(group)
            except IntegrityError:
                unsaved = [aggregate for _, rest in groups[index:] for aggregate in rest]
                self._forget(unsaved)
                if index:  # the deal databases before it are saved: say so (docs/OPERATIONS.md)
                    raise Conflict("conflict", "Someone else changed the table at the same time: the deal's part "
                                   "was stored, the table's was not; it is scored when the table is next used.",
                                   "同时有其他人修改了该桌：牌局部分已写入，该桌部分未写入；"
                                   "下次使用该桌时会补记。") from None
                raise Conflict("conflict", "Someone else changed this at the same time; nothing was written. Reload "
                               "and retry.", "同时有其他人修改了这一记录，本次未写入任何内容。请刷新后重试。") from None

    def ids_by_topic(self, topic: str) -> Iterator[UUID]:
        """The ids of the aggregates whose events of `topic` are in the log, in log order (with deal databases:
        the main log's, then each deal database's)."""
        found = set()
        for where in (self, *self.deal_stores):
            start = 1
            while True:
                page = where.recorder.select_notifications(start, 500, topics=[topic])
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
        where = self._home(aggregate.id, type(aggregate)) if self.deal_stores else self
        return [*where.events.get(aggregate.id, lte=aggregate.version), *aggregate.pending_events]

    def stream(self, aggregate_id: UUID, deal: bool = False, **kwargs: Any) -> list[Any]:
        """An aggregate's stored events from wherever they are (`deal`: it is one of `deal_kinds`), read
        without the cache or the unit (verify, the projections' explanations)."""
        if self.deal_stores and deal and aggregate_id not in self._on_main:
            found = list(self.deal_stores[home(aggregate_id, len(self.deal_stores))].events.get(aggregate_id,
                                                                                                 **kwargs))
            if found:
                return found
        return list(self.events.get(aggregate_id, **kwargs))

    def deal_stream_elsewhere(self, deal_id: UUID | str) -> list[Any]:
        """A deal's stored events in its deal database ([] with one database, or for a deal kept on the main
        one): what the projections read of a deal whose end its table scored (projections/follower.py)."""
        if not self.deal_stores:
            return []
        uid = deal_id if isinstance(deal_id, UUID) else UUID(str(deal_id))
        return list(self.deal_stores[home(uid, len(self.deal_stores))].events.get(uid))

    def deal_home_label(self, deal_id: UUID) -> str:
        """The label of the deal database a deal's id maps to ("" with one database): `fupan verify` names it."""
        if not self.deal_stores:
            return ""
        return self.deal_stores[home(deal_id, len(self.deal_stores))].label
