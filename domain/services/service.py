"""What every service of this package shares: the one store (domain/store/event_store.py) whose units of work,
cache and commits they all use, and the reads more than one of them makes.

A service's command reads as the eventsourcing library's examples do: get the aggregates (`store.load`), call
their methods (which refuse what the rules forbid before anything changes), save them together in one
transaction (`store.commit`), all in one unit of work (`@command`, or `with self.unit():` around the part that
reads the store when the rest of the work needs no lock).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.kernel.errors import Conflict
from domain.model.deal import Deal
from domain.model.match import Match
from domain.model.tournament import Tournament
from domain.services.visibility import TableSoFar, public_steps, released
from domain.store.event_store import Store
from domain.store.units import Unit

K = TypeVar("K")
R = TypeVar("R")


class Service:
    """A service of one area over the shared store."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None, **uses: Service):
        """`uses`: the other services this one asks, by the names its class declares (the composition root,
        domain/services/fupan.py, hands them over). `clock`: "now" for a public delay in minutes (the wall
        clock unless given: tests pass one they move)."""
        self.store = store
        self.now: Callable[[], datetime] = clock or wall_clock
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


    def _deal_reading(self, deal: UUID | str) -> tuple[list[Any], int | None]:
        """The deal's stored events and how many of its steps the public may see now (`public_steps`: None = all
        and its record), from its tournament's delay and its table's deals; read in a unit, folded outside."""
        with self.unit():
            d = self.store.load(Deal, deal, "deal")
            events = self.store.stored_events(d)
            delay, table = self._delay_inputs(d.match_id, d.number)
        return events, public_steps(delay, events, table, self.now())

    def _delay_inputs(self, match: UUID | None, number: int | None) -> tuple[dict[str, Any] | None, TableSoFar | None]:
        """A deal's tournament delay and what its table says of the deals after it (none outside a match)."""
        if match is None:
            return None, None
        m = self.store.load(Match, match, "match")
        t = self.store.load(Tournament, m.tournament_id, "tournament")
        later = sum(1 for entry in m.deals
                    if (number is None or entry["number"] > number) and entry["status"] != "live")
        return dict(t.delay), TableSoFar(later_finished=later, over=m.over)


    def _released(self, d: Deal) -> bool:
        """Whether a deal's record is public by its delay (visibility.released); a live deal's never is."""
        if d.finished_at is None:
            return False
        delay, table = self._delay_inputs(d.match_id, d.number)
        return released(delay, table, d.finished_at, self.now())


def wall_clock() -> datetime:
    return datetime.now(UTC)


def same_kind(existing: Any, kind: type[K], key: str) -> K:
    """A create's id (from its natural key) already names an aggregate: it must be of the same kind."""
    if not isinstance(existing, kind):
        raise Conflict("already_exists", f"That key is taken: {key!r}.", f"该键已被占用：{key!r}。", {"key": key})
    return existing
