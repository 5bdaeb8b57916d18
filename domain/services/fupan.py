"""The composition root of the services: one store, opened once, and the service of each area over it. Every
interface (the API and pages, the command line, the fixtures, the benchmarks) opens a `Fupan` and calls its
services; every refusal is a `domain.kernel.errors.Refusal`, and whatever raises, nothing has been written."""

from __future__ import annotations

from domain.model.deal import Deal
from domain.model.idempotent_request import IdempotentRequest
from domain.model.token import AccessToken
from domain.model.tournament import Tournament
from domain.services.appeals import Appeals
from domain.services.deals import Deals
from domain.services.idempotency import Requests
from domain.services.records import Records
from domain.services.rulings import Rulings
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

    def __init__(self, env: dict[str, str] | None = None, *, store: FupanStore | None = None):
        self.store = FupanStore(env) if store is None else store
        self.tournaments = Tournaments(self.store)
        self.tables = Tables(self.store, tournaments=self.tournaments)
        self.deals = Deals(self.store, tables=self.tables)
        self.records = Records(self.store, tournaments=self.tournaments, tables=self.tables)
        self.tokens = Tokens(self.store)
        self.appeals = Appeals(self.store)
        self.rulings = Rulings(self.store)
        self.audit = Audit(self.store, tournaments=self.tournaments, records=self.records)
        self.requests = Requests(self.store)

    @classmethod
    def for_sqlite(cls, path: str) -> Fupan:
        return cls(store=FupanStore.for_sqlite(path))

    def close(self) -> None:
        self.store.close()
