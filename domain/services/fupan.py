"""The composition root of the services: one store, opened once, and the service of each area over it. Every
interface (the API and pages, the command line, the fixtures, the benchmarks) opens a `Fupan` and calls its
services; every refusal is a `domain.kernel.errors.Refusal`, and whatever raises, nothing has been written."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from domain.model.deal import Deal
from domain.model.idempotent_request import IdempotentRequest
from domain.model.token import AccessToken
from domain.model.tournament import Tournament
from domain.services.appeals import Appeals
from domain.services.deals import Deals
from domain.services.idempotency import Requests
from domain.services.records import Records
from domain.services.rulings import Rulings
from domain.services.service import Service
from domain.services.tables import Tables
from domain.services.tokens import Tokens
from domain.services.tournaments import Tournaments
from domain.services.verification import Audit
from domain.store.event_store import Store


class FupanStore(Store):
    """fupan's event store: its environment prefix and events table are "Fupan"'s, and deals are what the deal
    databases keep when there are several (domain/store/deal_databases.py)."""

    name = "Fupan"
    deal_kinds = (Deal,)
    # A write to one deal locks the deal and whatever else it changes (its table, its appeal); these it only
    # reads: tokens and tournaments change only in units that run alone, and a stored request never changes.
    changed_only_alone = (AccessToken, Tournament, IdempotentRequest)


class Fupan:
    """The services of fupan over one store."""

    def __init__(self, env: dict[str, str] | None = None, *, store: FupanStore | None = None,
                 clock: Callable[[], datetime] | None = None):
        """`clock`: "now" for a public delay in minutes (docs/SECURITY.md "Broadcast delay"); the wall clock
        unless given (tests pass one they move)."""
        self.store = FupanStore(env) if store is None else store
        self.tournaments = Tournaments(self.store, clock)
        self.tables = Tables(self.store, clock, tournaments=self.tournaments)
        self.deals = Deals(self.store, clock, tables=self.tables)
        self.records = Records(self.store, clock, tournaments=self.tournaments, tables=self.tables)
        self.tokens = Tokens(self.store, clock)
        self.appeals = Appeals(self.store, clock)
        self.rulings = Rulings(self.store, clock)
        self.audit = Audit(self.store, clock, tournaments=self.tournaments, records=self.records)
        self.requests = Requests(self.store, clock)

    def use_clock(self, clock: Callable[[], datetime]) -> None:
        """Take "now" (a public delay in minutes) from `clock` from here on, in every service (a test's clock)."""
        for service in vars(self).values():
            if isinstance(service, Service):
                service.now = clock

    @classmethod
    def for_sqlite(cls, path: str, clock: Callable[[], datetime] | None = None) -> Fupan:
        return cls(store=FupanStore.for_sqlite(path), clock=clock)

    def close(self) -> None:
        self.store.close()
