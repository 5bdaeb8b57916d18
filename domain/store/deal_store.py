"""One deal database as an application of its own (`DealStore`: its own recorder, chain and cache), and the
SQL that creates its PostgreSQL database or schema when missing; which deals it holds and how it is
configured: domain/store/deal_databases.py."""

from __future__ import annotations

import re
from typing import Any

from eventsourcing.persistence import ApplicationRecorder

from domain.store.chained_application import ChainedApplication
from domain.store.deal_databases import SETTING, DealDatabase


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
