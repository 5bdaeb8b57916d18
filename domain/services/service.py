"""What every service of this package shares: the one store (domain/store/event_store.py) whose units of work,
cache and commits they all use, and the reads more than one of them makes.

A service's command reads as the eventsourcing library's examples do: get the aggregates (`store.load`), call
their methods (which refuse what the rules forbid before anything changes), save them together in one
transaction (`store.commit`), all in one unit of work (`@command`, or `with self.unit():` around the part that
reads the store when the rest of the work needs no lock).
"""

from __future__ import annotations

from typing import Any, TypeVar
from uuid import UUID

from domain.kernel.errors import Conflict
from domain.model.deal import Deal
from domain.store.event_store import Store, Unit

K = TypeVar("K")


class Service:
    """A service of one area over the shared store."""

    def __init__(self, store: Store):
        self.store = store

    def unit(self) -> Unit:
        """One unit of work on the shared store (units nest: a command inside a request's unit joins it)."""
        return self.store.unit()

    def _stored_deal_events(self, deal: UUID | str) -> list[Any]:
        """The deal's stored events; read in a unit, processed (folded, verified) outside it."""
        with self.unit():
            return self.store.stored_events(self.store.load(Deal, deal, "deal"))


def same_kind(existing: Any, kind: type[K], key: str) -> K:
    """A create's id (from its natural key) already names an aggregate: it must be of the same kind."""
    if not isinstance(existing, kind):
        raise Conflict("already_exists", f"That key is taken: {key!r}.", f"该键已被占用：{key!r}。", {"key": key})
    return existing
