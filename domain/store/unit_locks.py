"""What lets units of one process run side by side (domain/store/event_store.py, docs/ARCHITECTURE.md
"Units of work"): the gate between units that change only what they lock and units that run alone, a lock per
aggregate, and the cache of committed aggregates that a read is served from when a write holds what it reads.

Nothing here touches the database. The guards below are held for a few Python statements; an aggregate's lock
and the gate are held by a unit until it ends.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID


class Gate:
    """Units that lock what they change (shared) run together; a unit that may change anything (alone) waits
    until none runs and holds the others back meanwhile. A waiting lone unit stops new shared ones from
    entering, so a stream of writes to deals cannot keep a tournament's write out for ever. A reading unit
    enters as a shared one if it can at once (`try_enter_reading`), and never waits."""

    def __init__(self) -> None:
        self._changed = threading.Condition(threading.Lock())
        self._shared = 0
        self._alone = False
        self._waiting_alone = 0

    def enter_shared(self) -> None:
        with self._changed:
            while self._alone or self._waiting_alone:
                self._changed.wait()
            self._shared += 1

    def try_enter_reading(self) -> bool:
        with self._changed:
            if self._alone or self._waiting_alone:
                return False
            self._shared += 1
            return True

    def leave_shared(self) -> None:
        with self._changed:
            self._shared -= 1
            if not self._shared:
                self._changed.notify_all()

    def enter_alone(self) -> None:
        with self._changed:
            self._waiting_alone += 1
            try:
                while self._alone or self._shared:
                    self._changed.wait()
            finally:
                self._waiting_alone -= 1
            self._alone = True

    def leave_alone(self) -> None:
        with self._changed:
            self._alone = False
            self._changed.notify_all()


class _Key:
    __slots__ = ("freed", "writer", "readers", "waiting", "users")

    def __init__(self, guard: threading.Lock):
        self.freed = threading.Condition(guard)
        self.writer = False  # a write unit holds it
        self.readers = 0  # reading units hold it (`pin`)
        self.waiting = 0  # write units waiting for it
        self.users = 0  # holders and waiters: the entry goes when none is left


class KeyLocks:
    """One lock per aggregate id, made when first asked for and dropped when nobody holds or waits for it: held by
    one write unit (`acquire`), or by any number of reading units (`pin`), which never wait: a read that cannot
    pin an aggregate at once reads it as last committed instead (domain/store/event_store.py `_fetch`)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._keys: dict[UUID, _Key] = {}

    def acquire(self, key: UUID, wait_for_writers: bool = True) -> bool:
        """Hold `key` alone, after the reads pinning it end; False, at once, if another write unit holds it
        and `wait_for_writers` is off (reads end without waiting for anything, so waiting for them is safe)."""
        with self._guard:
            entry = self._keys.get(key)
            if entry is None:
                entry = self._keys[key] = _Key(self._guard)
            entry.users += 1
            entry.waiting += 1
            try:
                while entry.writer or entry.readers:
                    if entry.writer and not wait_for_writers:
                        self._leave(key, entry)
                        return False
                    entry.freed.wait()
            finally:
                entry.waiting -= 1
            entry.writer = True
            return True

    def release(self, key: UUID) -> None:
        with self._guard:
            entry = self._keys[key]
            entry.writer = False
            entry.freed.notify_all()
            self._leave(key, entry)

    def pin(self, key: UUID) -> bool:
        """Hold `key` for a read, if no write unit holds it or waits for it (False: it does; nothing held)."""
        with self._guard:
            entry = self._keys.get(key)
            if entry is not None and (entry.writer or entry.waiting):
                return False
            if entry is None:
                entry = self._keys[key] = _Key(self._guard)
            entry.users += 1
            entry.readers += 1
            return True

    def unpin(self, key: UUID) -> None:
        with self._guard:
            entry = self._keys[key]
            entry.readers -= 1
            if not entry.readers:
                entry.freed.notify_all()
            self._leave(key, entry)

    def _leave(self, key: UUID, entry: _Key) -> None:
        entry.users -= 1
        if not entry.users:
            del self._keys[key]


class CommittedCache:
    """Aggregates as last committed, for reads: never handed to a write unit, so never changed after they are put
    here. An id is dropped when this process saves it or the notification log shows another process changed it;
    a load that started before such a drop is not kept (it may hold the state before the change)."""

    def __init__(self, maxsize: int):
        self.maxsize = maxsize
        self._guard = threading.Lock()
        self._kept: OrderedDict[UUID, Any] = OrderedDict()
        self._loading: dict[UUID, set[object]] = {}  # loads under way, each a token a drop takes away

    def get(self, key: UUID, load: Callable[[], Any]) -> Any:
        """The committed aggregate `key` (`load` reads it from the store when it is not kept; its errors pass)."""
        token = object()
        with self._guard:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
            self._loading.setdefault(key, set()).add(token)
        loaded = None
        try:
            loaded = load()
        finally:
            with self._guard:
                tokens = self._loading.get(key, set())
                current = token in tokens
                tokens.discard(token)
                if not tokens:
                    self._loading.pop(key, None)
                if current and loaded is not None and self.maxsize > 0:
                    self._kept[key] = loaded
                    if len(self._kept) > self.maxsize:
                        self._kept.popitem(last=False)
        return loaded

    def drop(self, keys: Iterable[UUID]) -> None:
        with self._guard:
            for key in keys:
                self._kept.pop(key, None)
                tokens = self._loading.get(key)
                if tokens:
                    tokens.clear()
