"""What every service of this package shares: the one store (domain/store/event_store.py) whose units of work,
cache and commits they all use, and the reads more than one of them makes.

A service's command reads as the eventsourcing library's examples do: get the aggregates (`store.load`), call
their methods (which refuse what the rules forbid before anything changes), save them together in one
transaction (`store.commit`), all in one unit of work (`@command`, or `with self.unit():` around the part that
reads the store when the rest of the work needs no lock).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.kernel.errors import Conflict
from domain.model.deal import Deal
from domain.store.event_store import Store
from domain.store.units import Unit

K = TypeVar("K")
R = TypeVar("R")


class Service:
    """A service of one area over the shared store."""

    def __init__(self, store: Store, **uses: Service):
        """`uses`: the other services this one asks, by the names its class declares (the composition root,
        domain/services/fupan.py, hands them over)."""
        self.store = store
        for name, service in uses.items():
            setattr(self, name, service)

    def unit(self) -> Unit:
        """One unit of work on the shared store (units nest: a command inside a request's unit joins it)."""
        return self.store.unit()

    def _every(self, kind: type[Aggregate], read: Callable[[UUID], R]) -> list[R]:
        """`read` of every aggregate of `kind`, in the order they were created. Not one unit: each read takes the
        lock on its own, so a long listing never blocks recording."""
        return [read(uid) for uid in self.store.ids_by_topic(kind.Created.TOPIC)]

    def _stored_deal_events(self, deal: UUID | str) -> list[Any]:
        """The deal's stored events; read in a unit, processed (folded, verified) outside it."""
        with self.unit():
            return self.store.stored_events(self.store.load(Deal, deal, "deal"))


def same_kind(existing: Any, kind: type[K], key: str) -> K:
    """A create's id (from its natural key) already names an aggregate: it must be of the same kind."""
    if not isinstance(existing, kind):
        raise Conflict("already_exists", f"That key is taken: {key!r}.", f"该键已被占用：{key!r}。", {"key": key})
    return existing
