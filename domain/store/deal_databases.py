"""K deal databases (docs/OPERATIONS.md "K deal databases"): where a deal's events are stored.

`FUPAN_DEAL_DATABASES` configures them (read from the application's environment, so `FUPAN_ENV` and the
process environment both work):

- unset, empty or `1`: every event in the one database, exactly as without this module;
- a count `K` ≥ 2: K deal databases on the main database's PostgreSQL server, named `<main dbname>_deals_<i>`
  (i = 0 … K−1), each with the main database's schema — created if missing (the benchmark's form);
- a list of PostgreSQL URLs, separated by commas or spaces: `postgresql://user:password@host:port/dbname`,
  optionally `?schema=name`; a part left out is the main database's.

A deal's database is a function of its id alone: `home(deal id, K)` below, the first 8 bytes of the id (a
uuid5 of the deal's natural key or a uuid4, so uniformly spread) modulo K. Any process finds a deal's events
without asking anyone, and creating a deal writes nothing on the main database. The price: the list's order
and length are part of the store — reordering or resizing it would send lookups to the wrong database (a
deal then answers 404 and `fupan verify` names every stream it finds in a database its id does not map to).
Deals stored before deal databases were configured stay on the main database and are found there.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

SETTING = "DEAL_DATABASES"  # FUPAN_DEAL_DATABASES (the application's prefix), or DEAL_DATABASES
POSTGRES_KEYS = ("POSTGRES_HOST", "POSTGRES_PORT", "POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DBNAME",
                 "POSTGRES_SCHEMA")


class DealDatabase:
    """One configured deal database: its place in the list, a label for messages, and the environment
    overrides that point an application at it."""

    def __init__(self, index: int, overrides: dict[str, str], create: bool):
        self.index = index
        self.overrides = overrides
        self.create = create  # the count form: create the database (and schema) if missing

    @property
    def label(self) -> str:
        schema = self.overrides.get("POSTGRES_SCHEMA")
        name = self.overrides.get("POSTGRES_DBNAME", "?")
        return f"deal database {self.index} ({name}{'.' + schema if schema and schema != 'public' else ''})"


def home(deal_id: UUID, count: int) -> int:
    """The deal database (0 … count−1) that stores this deal's events."""
    return int.from_bytes(deal_id.bytes[:8], "big") % count


def configured(value: str | None, main: dict[str, str], persistence: str) -> list[DealDatabase]:
    """The deal databases `value` names ([] for one database), every part not given taken from `main` (the
    main database's POSTGRES_* settings). ValueError, saying why, for a setting that cannot work."""
    text = (value or "").strip()
    if text in ("", "1"):
        return []
    if "postgres" not in persistence:
        raise ValueError("FUPAN_DEAL_DATABASES needs PostgreSQL (PERSISTENCE_MODULE=eventsourcing.postgres); one "
                         "SQLite file stores everything.")
    base = {key: main[key] for key in POSTGRES_KEYS if main.get(key)}
    if text.isdigit():
        count = int(text)
        if "POSTGRES_DBNAME" not in base:
            raise ValueError("FUPAN_DEAL_DATABASES as a count needs POSTGRES_DBNAME (the deal databases are named "
                             "after it).")
        return [DealDatabase(i, {**base, "POSTGRES_DBNAME": f"{base['POSTGRES_DBNAME']}_deals_{i}"}, create=True)
                for i in range(count)]
    databases = []
    for index, url in enumerate(part for part in re.split(r"[,\s]+", text) if part):
        parts = urlsplit(url)
        if parts.scheme not in ("postgresql", "postgres") or not parts.path.strip("/"):
            raise ValueError(f"FUPAN_DEAL_DATABASES: {url!r} is not postgresql://user:password@host:port/dbname.")
        given = {"POSTGRES_HOST": parts.hostname, "POSTGRES_PORT": str(parts.port) if parts.port else None,
                 "POSTGRES_USER": unquote(parts.username) if parts.username else None,
                 "POSTGRES_PASSWORD": unquote(parts.password) if parts.password else None,
                 "POSTGRES_DBNAME": unquote(parts.path.strip("/")),
                 "POSTGRES_SCHEMA": (parse_qs(parts.query).get("schema") or [None])[0]}
        databases.append(DealDatabase(index, {**base, **{k: v for k, v in given.items() if v}}, create=False))
    return databases
