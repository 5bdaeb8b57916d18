"""The event store and its cache: units of work, where each aggregate is stored, and all-or-nothing commits.

SQLite is the embedded default; the usual eventsourcing environment variables (PERSISTENCE_MODULE,
POSTGRES_*) select another store without code changes. `Store` is the eventsourcing `Application` the
services (domain/services/fupan.py) build on (its parts: domain/store/units.py, chained_application.py,
deal_store.py); it gives every command three things:

- **Units side by side.** `unit()` runs a command as one unit of work; units nest (a request that
  authenticates, checks the referee's scope and records an action is one unit, and the commands it calls run
  inside it). How a unit runs beside the process's other units (docs/ARCHITECTURE.md "Units of work"):
  a *reading* unit (`reading()`: a GET request) takes no lock and waits for no write; a *locking* unit (a write
  to one deal, `unit(writes_to=…)`) locks its deal, and each other aggregate it loads, so writes to other deals
  run beside it; any other unit runs *alone*, as every unit did before.
- **A current cache.** Hot aggregates stay in the library's cache and commands change them in place instead
  of deep-copying them (the copy cost more than the SQLite write). That is safe because (1) a write unit
  changes only what it holds — the aggregates it locked, or all of them when it runs alone — and a read sees
  the cached object only while it pins it, which no write holds meanwhile (else the read gets the aggregate as
  last committed, loaded from the store: `_fetch`); (2) refusals happen before any aggregate changes, and (3)
  when anything fails after a change — a stale write, a bug — the touched aggregates are evicted, so the next
  unit reloads them. Other processes' writes (the CLI revoking a token, a
  second server worker) reach the cache through the notification log, which numbers every stored event in
  commit order: each unit starts by asking the store for the highest number (one indexed query, under a short
  lock of its own that units starting together share: `ChainedApplication.catch_up`). If it is the
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
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, project_aggregate
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.kernel.errors import Conflict, NotFound
from domain.store.chained_application import ChainedApplication
from domain.store.deal_databases import SETTING, configured, home
from domain.store.deal_store import DealStore
from domain.store.green_wait import install as wait_cheaply_under_gevent
from domain.store.unit_locks import CommittedCache, Gate, KeyLocks
from domain.store.units import Unit

A = TypeVar("A", bound=Aggregate)
S = TypeVar("S", bound="Store")

READS, LOCKING, ALONE = "reads", "locking", "alone"  # how a unit runs beside the others (`Store.unit`)


class _UnitState:
    """One thread's unit of work: its nesting, how it runs, what it touched, holds and locked."""

    __slots__ = ("depth", "mode", "reading", "touched", "deferred", "synced", "absent", "placed", "created",
                 "locked", "on_gate", "pinned")

    def __init__(self) -> None:
        self.depth = 0  # nesting of units (a request's unit holds the commands it calls)
        self.mode = READS  # READS, LOCKING or ALONE, set by the outermost unit (READS also: nothing held)
        self.reading = 0  # inside `Store.reading()`
        self.touched: list[Aggregate] = []
        self.deferred: list[Aggregate] | None = None  # a keyed write's commits, held for its answer (`defer`)
        self.synced: set[int] = set()  # deal databases whose log this unit has looked at
        self.absent: set[UUID] = set()  # probed at this unit's start and not stored then (`unit`)
        self.placed: dict[UUID, int] = {}  # this unit's aggregates kept in a deal database though not deals
        self.created: dict[UUID, Aggregate] = {}  # held by `defer` (new ones too), seen by this unit only
        self.locked: list[UUID] = []  # the aggregates a locking unit holds, in the order it locked them
        self.on_gate = False  # a reading unit entered the gate (no unit runs alone): it may pin what it reads
        self.pinned: set[UUID] = set()  # the aggregates a reading unit reads from the cache, pinned (`_fetch`)


_ZH = {"tournament": "赛事", "match": "对局", "deal": "牌局", "token": "令牌", "appeal": "申诉"}


class Store(ChainedApplication):
    """The event store, its cache kept current through the notification log, and units of work."""

    # The aggregates stored in the deal databases when there are several (the application names them).
    deal_kinds: tuple[type[Aggregate], ...] = ()

    # Kinds of aggregate that only a unit running alone changes (tokens, tournaments, stored requests): a unit
    # that locks what it changes (`unit(writes_to=…)`) reads them without locking them, and may not save them.
    changed_only_alone: tuple[type[Aggregate], ...] = ()

    def __init__(self, env: dict[str, str] | None = None):
        wait_cheaply_under_gevent()  # a gevent worker's queries (domain/store/green_wait.py)
        super().__init__(env)
        self._gate = Gate()  # units that lock what they change, beside units that run alone
        self._locks = KeyLocks()  # the aggregates held by units that lock what they change
        self._units = threading.local()  # each thread's unit (`_state`)
        databases = configured(self.env.get(SETTING), dict(self.env), self.env.get("PERSISTENCE_MODULE", ""))
        self.deal_stores: list[DealStore] = []
        try:
            for database in databases:
                self.deal_stores.append(DealStore(database, dict(self.env), self))
        except BaseException:
            self.close()
            raise
        size = int(self.env.get("AGGREGATE_CACHE_MAXSIZE") or 0)
        self._committed = CommittedCache(size)  # what reads are served from (`reading`)
        for where in (self, *self.deal_stores):
            where.on_change = self._committed.drop
        self._on_main: set[UUID] = set()  # deals stored before deal databases were configured

    @property
    def _state(self) -> _UnitState:
        """This thread's unit (a fresh one, depth 0, when it has none)."""
        state = getattr(self._units, "state", None)
        if state is None:
            state = self._units.state = _UnitState()
        return state

    @property
    def _depth(self) -> int:
        return self._state.depth

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Every unit this thread opens meanwhile reads (a GET request, web/units.py): it takes no lock, sees
        the aggregates as last committed (never a write's half-made change) and may not save anything."""
        state = self._state
        state.reading += 1
        try:
            yield
        finally:
            state.reading -= 1

    def close(self) -> None:
        for deal_store in getattr(self, "deal_stores", ()):
            deal_store.close()
        super().close()

    @classmethod
    def for_sqlite(cls: type[S], path: str) -> S:
        return cls(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})

    def unit(self, probe: Sequence[UUID] = (), writes_to: Sequence[UUID] | None = None) -> Unit:
        """One unit of work, the cache synchronised once at its start; if it fails after changing aggregates,
        they are forgotten (a `with` block; units nest: the outermost one decides how it runs).

        How it runs beside this process's other units (docs/ARCHITECTURE.md "Units of work"): inside
        `reading()` it waits for nothing and sees each aggregate as last committed (`_fetch`); with `writes_to`
        (a write to one deal, web/units.py) it locks those aggregates now and every other one it loads when
        loaded, except the kinds `changed_only_alone`, and runs beside the other units that do the same;
        without, it runs alone.

        `probe`: aggregates the unit will look for and that are likely not stored (a write's idempotency key),
        asked with the synchronisation in the same round trip where the store can (PostgreSQL, one database):
        the first `find` of one found absent then needs no query. Its absence is as of the unit's start, as a
        `find` then would have seen it; a key stored meanwhile by another unit is caught by the commit."""
        return Unit(self, probe if not self.deal_stores else (), writes_to)

    def _enter_unit(self, probe: Sequence[UUID], writes_to: Sequence[UUID] | None = None) -> None:
        """A unit begins (`Unit`); the outermost one takes what it runs under and synchronises the cache."""
        state = self._state
        if not state.depth:
            state.mode = READS if state.reading else ALONE if writes_to is None else LOCKING
            self._take(state, sorted(set(writes_to or ())))
            try:
                self._synchronise(probe if state.mode is not READS else ())
            except BaseException:
                self._give_back(state)
                raise
        state.depth += 1

    def _leave_unit(self, failed: bool) -> None:
        """A unit ends (`Unit`); `failed`: by an error other than a refusal, so the aggregates it touched are
        forgotten. The outermost one forgets what it held and gives its locks back."""
        state = self._state
        try:
            if failed and state.mode is not READS:
                self._forget(state.touched)
        finally:
            state.depth -= 1
            if not state.depth:
                if state.deferred is not None:  # never saved (the request failed before its answer): forget it
                    self._forget(state.deferred)
                    state.deferred = None
                state.touched = []
                state.placed.clear()
                state.absent.clear()
                state.created.clear()
                state.synced = set()
                self._give_back(state)

    def _take(self, state: _UnitState, keys: Sequence[UUID]) -> None:
        """Enter the gate as the unit's mode says, then lock `keys` (sorted: no other lock is held yet)."""
        if state.mode is ALONE:
            self._gate.enter_alone()
        elif state.mode is LOCKING:
            self._gate.enter_shared()
            for key in keys:
                self._locks.acquire(key)
                state.locked.append(key)
        else:
            state.on_gate = self._gate.try_enter_reading()

    def _give_back(self, state: _UnitState) -> None:
        for key in reversed(state.locked):
            self._locks.release(key)
        state.locked = []
        for key in state.pinned:
            self._locks.unpin(key)
        state.pinned.clear()
        if state.mode is ALONE:
            self._gate.leave_alone()
        elif state.mode is LOCKING or state.on_gate:
            self._gate.leave_shared()
        state.mode, state.on_gate = READS, False  # nothing held

    def _lock_for(self, state: _UnitState, aggregate: Aggregate) -> bool:
        """Lock an aggregate a locking unit loaded (False: it needs no lock, or holds it). Deadlocks cannot
        happen: a unit waits for another write unit only for an id greater than every id it holds; for a smaller
        one, if another write unit holds it, it fails as a conflict (nothing written, the client sends again).
        It may wait for reads of it to end whatever the id: a read waits for nothing."""
        if (state.mode is not LOCKING or aggregate.id in state.locked
                or isinstance(aggregate, self.changed_only_alone)):
            return False
        waits = all(held < aggregate.id for held in state.locked)
        if not self._locks.acquire(aggregate.id, wait_for_writers=waits):
            self._forget(state.touched)
            raise Conflict("conflict", "Someone else is changing this at the same time; nothing was written. "
                           "Retry.", "同时有其他人正在修改这一记录，本次未写入任何内容。请重试。")
        state.locked.append(aggregate.id)
        return True

    @contextlib.contextmanager
    def outside_lock(self) -> Iterator[None]:
        """Step out of this thread's unit for long work on objects of its own (a solver's search on a copy of a
        position) that reads and changes nothing of the store: the process's other units run meanwhile, a unit
        running alone too (docs/SECURITY.md §6: no request holds the others for its own computation). Only when
        the unit has no change waiting to be saved (held by `defer`, or pending on an aggregate it touched),
        which other units must not see; otherwise the work runs inside. Back in, the unit's locks are taken
        again and the cache synchronised again: an aggregate loaded before and changed by another unit meanwhile
        is caught by the store's version constraint when saved (409, nothing written). A reading unit holds
        nothing, so it has nothing to step out of."""
        state = self._state
        waiting = state.deferred or any(getattr(a, "pending_events", None) for a in state.touched)
        if not state.depth or waiting or state.mode is READS:
            yield
            return
        mode, depth, keys = state.mode, state.depth, sorted(state.locked)
        saved = (state.touched, state.deferred, state.placed, state.absent, state.created)
        self._give_back(state)
        state.touched, state.deferred, state.placed, state.absent, state.created = [], None, {}, set(), {}
        state.depth = 0
        try:
            yield
        finally:
            state.mode = mode
            self._take(state, keys)
            state.touched, state.deferred, state.placed, state.absent, state.created = saved
            state.depth = depth
            self._synchronise()

    def _synchronise(self, probe: Sequence[UUID] = ()) -> None:
        """Evict the cached aggregates that others changed since this process last looked (the main database's
        log; a deal database's when the unit first touches it, `_deal_store`)."""
        state = self._state
        state.absent.update(self.catch_up(probe))
        if self.deal_stores:
            state.synced = set()

    # --- where an aggregate lives (K deal databases) ---------------------------------------------------

    def _is_deal_kind(self, kind: type | None) -> bool:
        return kind is not None and any(issubclass(kind, deal_kind) for deal_kind in self.deal_kinds)

    def _deal_store(self, index: int) -> DealStore:
        """Deal database `index`, its cache made current once in this unit."""
        deal_store = self.deal_stores[index]
        synced = self._state.synced
        if index not in synced:
            deal_store.catch_up()
            synced.add(index)
        return deal_store

    def _home(self, aggregate_id: UUID, kind: type | None) -> ChainedApplication:
        """The application storing this aggregate: its deal database for a deal (or an aggregate this unit
        placed there), else the main one."""
        if not self.deal_stores:
            return self
        index = self._state.placed.get(aggregate_id)
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
            self._state.placed[aggregate_id] = home(uid, len(self.deal_stores))

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
        placed = self._state.placed.get(uid)
        if placed is not None:
            return self._fetch(self._deal_store(placed), uid)
        if uid in self._on_main or not (kind is None or self._is_deal_kind(kind)):
            return self._fetch(self, uid)
        deal_store = self._deal_store(home(uid, len(self.deal_stores)))
        first, second = (deal_store, self) if kind is not None else (self, deal_store)
        try:
            aggregate = self._fetch(first, uid)
            found_on_main = first is self
        except AggregateNotFoundError:
            aggregate = self._fetch(second, uid)
            found_on_main = second is self
        if found_on_main and isinstance(aggregate, self.deal_kinds):
            self._on_main.add(uid)
        return aggregate

    def _fetch(self, where: ChainedApplication, uid: UUID) -> Aggregate:
        """The aggregate `uid` from the application `where`, as this thread's unit may see it: its own new
        aggregates held for its answer (`defer`); in a reading unit, the cached aggregate pinned for the unit
        (no write unit changes it meanwhile), or, when a write holds it or a unit runs alone, its last committed
        state (never an object a write is changing); in a locking unit, the cached aggregate once locked
        (AggregateNotFoundError: none)."""
        state = self._state
        created = state.created.get(uid)
        if created is not None:
            return created
        if state.depth and state.mode is READS:
            if state.on_gate and (uid in state.pinned or self._locks.pin(uid)):
                state.pinned.add(uid)  # no write unit holds it, and none takes it before this unit ends
                return where.repository.get(uid)
            return self._committed.get(uid, lambda: where.repository._reconstruct_aggregate(  # no cache on the way
                uid, None, project_aggregate))
        aggregate = where.repository.get(uid)
        if self._lock_for(state, aggregate):
            aggregate = where.repository.get(uid)  # as the unit that held it left it (reloaded if it failed)
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
            aggregate = self._fetch(self, uid) if not self.deal_stores else self._get(uid, kind)
        except (ValueError, AggregateNotFoundError):
            aggregate = None
        if not isinstance(aggregate, kind):
            raise NotFound("not_found", f"No {label} with id {aggregate_id}.",
                           f"找不到 id 为 {aggregate_id} 的{_ZH[label]}。", {"id": str(aggregate_id), "kind": label})
        self._state.touched.append(aggregate)
        return aggregate

    def find(self, aggregate_id: UUID | str, kind: type[Aggregate] | None = None) -> Aggregate | None:
        """The aggregate with this id, of whatever kind, or None (also for a malformed id). With deal databases:
        the main database's, else the deal database the id maps to (`kind`, if known, says where to look first)."""
        try:
            uid = aggregate_id if isinstance(aggregate_id, UUID) else UUID(str(aggregate_id))
            state = self._state
            if uid in state.absent and not self._cached(uid):
                state.absent.discard(uid)  # probed at the unit's start (`unit`): not stored, no query needed
                return None
            aggregate = self._fetch(self, uid) if not self.deal_stores else self._get(uid, kind)
        except (ValueError, AggregateNotFoundError):
            return None
        state.touched.append(aggregate)
        return aggregate

    def _cached(self, uid: UUID) -> bool:
        if uid in self._state.created:
            return True
        cache = self.repository.cache
        try:
            return cache is not None and cache.get(uid) is not None
        except KeyError:
            return False

    def defer(self) -> None:
        """Hold this unit's commits until `commit_deferred` (or forget them with `drop_deferred`, or when the unit
        ends without either): a keyed write and its answer are one transaction
        (domain/model/idempotent_request.py). Meanwhile
        the unit sees its own changes: it holds them (no other unit sees them), `stored_events` and `ids_by_topic`
        include them."""
        self._writing("defer")
        self._state.deferred = []

    def commit_deferred(self, *aggregates: Aggregate) -> None:
        """Save the held commits and `aggregates` in one transaction (a Conflict, as `commit`: nothing written)."""
        state = self._state
        held, state.deferred = state.deferred or [], None
        try:
            self.commit(*held, *aggregates)
        except BaseException:  # the store failed (the request's unit is not failing): its cache must forget too
            self._forget(held)
            raise

    def drop_deferred(self) -> None:
        """Save none of the held commits (the cache forgets the aggregates they changed)."""
        state = self._state
        held, state.deferred = state.deferred or [], None
        self._forget(held)

    def commit(self, *aggregates: Aggregate) -> None:
        """Save the aggregates' new events in one transaction; a stale version is a Conflict, nothing written.
        While deferred (`defer`), hold them instead. With deal databases: one transaction per database touched,
        the deal databases' first, the main one's last (so a table never scores a deal its database lacks)."""
        state = self._state
        self._writing("save", aggregates)
        if state.deferred is not None:
            for aggregate in aggregates:
                if not any(held is aggregate for held in state.deferred):
                    state.deferred.append(aggregate)
                state.created[aggregate.id] = aggregate  # a new one too: this unit's next reads find it, no other's
            state.touched.extend(aggregates)
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

    def _writing(self, what: str, aggregates: Sequence[Aggregate] = ()) -> None:
        """A reading unit saves nothing, and a locking unit only what it locked or made (RuntimeError: a bug,
        which would otherwise change an object other units read or change unlocked)."""
        state = self._state
        if not state.depth:
            return
        if state.mode is READS:
            raise RuntimeError(f"A reading unit cannot {what} (a GET changed something).")
        if state.mode is LOCKING:
            for aggregate in aggregates:
                pending = getattr(aggregate, "pending_events", None)
                new = bool(pending) and pending[0].originator_version == 1
                if not new and aggregate.id not in state.locked:
                    raise RuntimeError(f"A locking unit cannot save {type(aggregate).__name__} {aggregate.id}, "
                                       "which it did not lock.")

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
        for held in self._state.deferred or ():  # this unit's, not yet saved (`defer`)
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
