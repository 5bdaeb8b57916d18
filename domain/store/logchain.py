"""The store-wide chain (docs/SECURITY.md §9): one signed link per write transaction, over every event of every
aggregate, in the same transaction as the events.

Each notification log (a database's events table) has a chain table beside it, `<events table>_chain`, one
row per transaction that stored events:

    seq        1, 2, 3 … (no gaps)
    prev       the digest of link seq − 1 (64 zeros for link 1)
    at         when it was written (UTC, ISO 8601)
    events     JSON [[aggregate id, version, topic, SHA-256 of the stored state], …] — every event the
               transaction stored, of whatever aggregate (a new kind of aggregate is chained without a line of
               code: the chain sees stored events, not classes)
    adopted    how many of `events` were stored before the chain existed (only link 1 adopts: the events an
               older version of fupan wrote are covered from the moment this code first opens the store)
    digest     SHA-256 of the canonical JSON {format: "fupan.chain/1", log, seq, prev, at, events, adopted}
    key_id, signature   HMAC-SHA-256 of "fupan.chain/1:" + digest with the server's key (domain/store/signing.py), or
               both null when no key is configured

Because the link is written in the events' own transaction (SQLite: the database's one writer; PostgreSQL:
under the events table's EXCLUSIVE lock, which serialises every writer), links are in commit order, a crash
leaves no event without its link, and an event stored any other way — by someone editing the database — is
in no link. `audit_log` recomputes all of it from storage and names what differs: an event edited, deleted
or inserted; a link removed, changed or re-signed without the key.

What a chain cannot show by itself is a cut-off tail (the last links deleted with their events): that needs
a digest kept outside the database — a printed round digest, or the chain head `fupan verify` prints
(`fupan verify --digest`).

The write path costs one INSERT per transaction. On PostgreSQL the head is read in the same pipelined round
trip as the events' INSERT and the link goes with the COMMIT (`ChainedPostgresApplicationRecorder`), so no
extra round trip waits under the lock whichever worker wrote last. On SQLite (one process's file, no round
trips) each process remembers the head it wrote last and a conditional INSERT checks it is still the head;
only when another process wrote since does it read the head and write again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError, ProgrammingError, StoredEvent
from eventsourcing.postgres import SQL, Identifier, PostgresApplicationRecorder  # psycopg's, as the library's
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import retry
from psycopg.pq import Escaping

from domain.kernel.integrity import GENESIS, canonical_json
from domain.store.green_wait import holding
from domain.store.signing import KeyRing

FORMAT = "fupan.chain/1"
_UNKNOWN = object()  # the head this process wrote last is unknown: read it
COLUMNS = "seq, prev, at, events, adopted, digest, key_id, signature"


def member(originator_id: UUID | str, version: int, topic: str, state: bytes) -> list[Any]:
    """One event as a link lists it."""
    uid = originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
    return [str(uid), version, topic, hashlib.sha256(bytes(state)).hexdigest()]


def link_digest(log: str, seq: int, prev: str, at: str, events: list[list[Any]], adopted: int) -> str:
    content = {"format": FORMAT, "log": log, "seq": seq, "prev": prev, "at": at, "events": events, "adopted": adopted}
    return hashlib.sha256(canonical_json(content).encode()).hexdigest()


class LogChain:
    """What one recorder needs to chain its writes: the keys, the log's name and the head it wrote last."""

    def __init__(self, keys: KeyRing, log: str):
        self.keys = keys
        self.log = log
        self.head: Any = _UNKNOWN  # (seq, digest) of the last link this process wrote, or _UNKNOWN

    def row(self, prev: tuple[int, str] | None, events: list[list[Any]], adopted: int = 0) -> tuple[Any, ...]:
        seq, prev_digest = (prev[0] + 1, prev[1]) if prev else (1, GENESIS)
        at = datetime.now(UTC).isoformat()
        digest = link_digest(self.log, seq, prev_digest, at, events, adopted)
        kid, signature = self.keys.sign(digest)
        return seq, prev_digest, at, json.dumps(events, separators=(",", ":")), adopted, digest, kid, signature


class ChainedRecorder:
    """The chain's SQL on one recorder (SQLite or PostgreSQL): the table, the write and the reads."""

    chain: LogChain
    chain_is_new = False  # set by create_table: the chain table did not exist before this process opened the store
    chain_table: str  # quoted, schema-qualified where the store has schemas
    events_table: str
    id_column: str
    placeholder: str

    def _chain_sql(self, statement: str) -> str:
        return statement.format(chain=self.chain_table, events=self.events_table,
                                id=self.id_column).replace("?", self.placeholder)

    def chain_create_statement(self) -> str:
        return self._chain_sql("CREATE TABLE IF NOT EXISTS {chain} (seq BIGINT PRIMARY KEY, prev TEXT NOT NULL, "
                               "at TEXT NOT NULL, events TEXT NOT NULL, adopted INTEGER NOT NULL, "
                               "digest TEXT NOT NULL, key_id TEXT, signature TEXT)")

    def _link_if_head(self, c: Any, events: list[list[Any]]) -> bool:
        """Insert the link after the head this process remembers, if it is still the head (one statement)."""
        head = self.chain.head
        if head is _UNKNOWN or head is None:
            return False
        row = self.chain.row(head, events)
        c.execute(self._chain_sql(f"INSERT INTO {{chain}} ({COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS "
                                  "(SELECT 1 FROM {chain} WHERE seq = ? AND digest = ?) AND NOT EXISTS "
                                  "(SELECT 1 FROM {chain} WHERE seq > ?) RETURNING seq"),
                  (*row, head[0], head[1], head[0]))
        self._pending = row
        return True

    def _linked(self, c: Any) -> bool:
        """Whether the conditional insert went in (its RETURNING row); remember the new head if it did."""
        if c.fetchone() is None:
            return False
        self.chain.head = (self._pending[0], self._pending[5])
        return True

    HEAD_SQL = "SELECT seq, digest FROM {chain} ORDER BY seq DESC LIMIT 1"

    def _link_after_reading_head(self, c: Any, events: list[list[Any]], first_id: int) -> None:
        """Read the head, then insert the link after it. The first link adopts every event stored before it."""
        c.execute(self._chain_sql(self.HEAD_SQL))
        self._link_after(c, c.fetchone(), events, first_id)

    def _link_after(self, c: Any, found: Any, events: list[list[Any]], first_id: int) -> None:
        """Insert the link after the head `found` (a row of HEAD_SQL, None: the chain is empty, and this first link
        adopts every event stored before `first_id`)."""
        adopted: list[list[Any]] = []
        if found is None:
            c.execute(self._chain_sql("SELECT originator_id, originator_version, topic, state FROM {events} "
                                      "WHERE {id} < ? ORDER BY {id}"), (first_id,))
            adopted = [member(self._uuid(r["originator_id"]), r["originator_version"], r["topic"], r["state"])
                       for r in c.fetchall()]
        prev = None if found is None else (int(found["seq"]), found["digest"])
        row = self.chain.row(prev, adopted + events, len(adopted))
        c.execute(self._chain_sql(f"INSERT INTO {{chain}} ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"), row)
        self.chain.head = (row[0], row[5])

    # --- an older store, opened by this code for the first time --------------------------------------------

    def create_table(self) -> None:
        """The library's tables and the chain's; remember whether the chain table is new here (`adopt`)."""
        self.chain_is_new = not self._chain_table_exists()
        super().create_table()  # type: ignore[misc]

    def _chain_table_exists(self) -> bool:
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            if self.placeholder == "?":
                c.execute("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?",
                          (self.chain_table.strip('"'),))
                return c.fetchone() is not None
            c.execute("SELECT to_regclass(%s) AS found", (self.chain_table,))
            return c.fetchone()["found"] is not None

    def adopt(self) -> int:
        """Link 1 over the events an older fupan stored, written the first time this code opens the store (the
        moment of the upgrade), so they are proven from then on and an empty chain later means a deleted one.
        Under the events' write lock; a second process doing the same finds the link there. The count adopted."""
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute(self._chain_sql("SELECT 1 AS found FROM {events} LIMIT 1"))
            if c.fetchone() is None:
                return 0  # a new store: nothing to adopt, and no write lock taken while workers start together
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            if self.placeholder == "?":
                c.execute(self._chain_sql("DELETE FROM {chain} WHERE seq < 0"))  # a write first: SQLite's lock
            else:
                c.execute(self._chain_sql("LOCK TABLE {events} IN EXCLUSIVE MODE"))
            c.execute(self._chain_sql("SELECT seq FROM {chain} LIMIT 1"))
            if c.fetchone() is not None:
                return 0
            c.execute(self._chain_sql("SELECT originator_id, originator_version, topic, state FROM {events} "
                                      "ORDER BY {id}"))
            events = [member(self._uuid(r["originator_id"]), r["originator_version"], r["topic"], r["state"])
                      for r in c.fetchall()]
            if not events:
                return 0
            row = self.chain.row(None, events, len(events))
            c.execute(self._chain_sql(f"INSERT INTO {{chain}} ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"), row)
        self.chain.head = (row[0], row[5])
        return len(events)

    @staticmethod
    def _uuid(value: Any) -> UUID:
        return value if isinstance(value, UUID) else UUID(str(value))

    # --- reads (audit) ------------------------------------------------------------------------------------

    def chain_links(self, page: int = 1000) -> Iterator[dict[str, Any]]:
        """Every link in seq order (a missing table reads as no links)."""
        after = 0
        while True:
            with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
                c.execute(self._chain_sql(f"SELECT {COLUMNS} FROM {{chain}} WHERE seq > ? ORDER BY seq LIMIT ?"),
                          (after, page))
                rows = [dict(row) for row in c.fetchall()]
            yield from rows
            if len(rows) < page:
                return
            after = int(rows[-1]["seq"])


def _members(stored_events: Sequence[StoredEvent]) -> list[list[Any]]:
    return [member(s.originator_id, s.originator_version, s.topic, s.state) for s in stored_events]


class ChainedSQLiteApplicationRecorder(ChainedRecorder, SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, each write transaction also writing its link."""

    def __init__(self, datastore: Any, events_table_name: str = "stored_events"):
        self.chain_table, self.events_table = f'"{events_table_name}_chain"', events_table_name
        self.id_column, self.placeholder = "rowid", "?"
        self.chain = LogChain(KeyRing(), events_table_name)
        super().__init__(datastore, events_table_name)  # builds the create statements, which need the names

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), self.chain_create_statement()]

    def _insert_events(self, c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        if stored_events:
            events = _members(stored_events)
            if not (self._link_if_head(c, events) and self._linked(c)):
                self._link_after_reading_head(c, events, min(ids or [0]))
        return ids


class ChainedPostgresApplicationRecorder(ChainedRecorder, PostgresApplicationRecorder):
    """eventsourcing's PostgreSQL recorder, each write transaction also writing its link after the events
    table's EXCLUSIVE lock, so links follow commit order.

    The write is two round trips and two messages, each one query of several statements (PostgreSQL's simple
    query protocol, the values written into the text, escaped by libpq): (1) BEGIN, the lock, NOTIFY, the events'
    INSERT and a read of the chain's head; (2) the link, computed from that head, and COMMIT. So the lock is held
    for one round trip and the link's making, whichever process wrote last, and no read waits under it that could
    be sent with the insert. A pipeline would send the same statements, but psycopg sends each one on its own
    as it is queued (a socket write, a wake-up of the server, a parse and bind each): eight of them a write where
    these are two."""

    def __init__(self, datastore: Any, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        if datastore.enable_db_functions:
            raise ValueError("The store-wide chain needs POSTGRES_ENABLE_DB_FUNCTIONS off: the database function "
                             "would store events without their link.")
        schema = datastore.schema
        self.chain_table = f'"{schema}"."{events_table_name}_chain"'
        self.events_table = f'"{schema}"."{events_table_name}"'
        self.id_column, self.placeholder = "notification_id", "%s"
        self.chain = LogChain(KeyRing(), events_table_name)
        self.sql_create_statements.append(SQL(self.chain_create_statement()))  # type: ignore[arg-type]
        # The log's head, which the projections' poller asks for every 20 ms, is a psycopg `Composed` object, which
        # psycopg renders again at every execution; as bytes it is rendered once here.
        self.max_notification_id_statement = self.max_notification_id_statement.as_bytes(None)
        # A write's two queries (`insert_events`), around the values: the library's lock (and its lock timeout),
        # its NOTIFY (the live streams listen, domain/store/log_watch.py), the events' INSERT as the library's
        # (RETURNING their notification ids, in order) and the chain's head; then the link and COMMIT.
        lock = b"; ".join(statement.as_bytes(None) for statement in self.lock_table_statements)  # type: ignore[union-attr]
        notify = SQL("NOTIFY {0}").format(Identifier(self.channel_name)).as_bytes(None)
        self._write_head = (b"BEGIN; " + lock + b"; " + notify + b"; " + self._chain_sql(
            "INSERT INTO {events} (originator_id, originator_version, topic, state) VALUES ").encode())
        self._write_tail = b" RETURNING notification_id; " + self._chain_sql(self.HEAD_SQL).encode()
        self._link_sql = self._chain_sql(f"INSERT INTO {{chain}} ({COLUMNS}) VALUES ").encode()
        self._topics: dict[str, bytes] = {}  # each topic's literal, escaped once
        self._select_events_sql: dict[tuple[bool, bool, bool, bool], bytes] = {}  # `select_events`, by shape
        self._changes_sql = self._chain_sql("SELECT notification_id, originator_id, originator_version FROM {events} "
                                            "WHERE notification_id > %s ORDER BY notification_id LIMIT %s")
        # The same, and which of the aggregates probed have a first event (notification id 0 marks those rows):
        # one statement, so one parse, bind and answer for a write's look at the log.
        self._changes_and_probe_sql = self._chain_sql(
            "(SELECT notification_id, originator_id, originator_version FROM {events} WHERE notification_id > %s "
            "ORDER BY notification_id LIMIT %s) UNION ALL (SELECT DISTINCT 0::BIGINT, originator_id, 1::BIGINT "
            "FROM {events} WHERE originator_id = ANY(%s) AND originator_version = 1)")

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's select_events
    def select_events(self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None,
                      desc: bool = False, limit: int | None = None) -> Sequence[StoredEvent]:
        """The library's query of an aggregate's events, its text made once for each shape it takes rather than
        composed and rendered again at every call (a unit's look-up of an idempotency key is one, every write)."""
        shape = (gt is not None, lte is not None, desc, limit is not None)
        statement = self._select_events_sql.get(shape)
        if statement is None:
            statement = self._select_events_sql[shape] = self._chain_sql(
                "SELECT * FROM {events} WHERE originator_id = %s" + " AND originator_version > %s" * shape[0]
                + " AND originator_version <= %s" * shape[1] + " ORDER BY originator_version"
                + (" DESC" if desc else " ASC") + " LIMIT %s" * shape[3]).encode()
        params = [originator_id, *(value for value in (gt, lte, limit) if value is not None)]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, params, prepare=True)
            return [StoredEvent(originator_id=row["originator_id"], originator_version=row["originator_version"],
                                topic=row["topic"], state=bytes(row["state"])) for row in curs.fetchall()]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def changed_since(self, seen: int, limit: int, probe: Sequence[UUID] = ()
                      ) -> tuple[list[tuple[int, UUID, int]], set[UUID]]:
        """(notification id, aggregate id, its version) of the events stored after notification `seen`, in order,
        at most `limit`: what a cache needs to know of others' writes, in one round trip and without the events'
        states (domain/store/chained_application.py; the library's way is the log's head, then the notifications
        whole). And which of the aggregates `probe` have any event, asked in the same statement."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            if probe:
                curs.execute(self._changes_and_probe_sql, (seen, limit, list(probe)), prepare=True)
            else:
                curs.execute(self._changes_sql, (seen, limit), prepare=True)
            ids, stored = [], set()
            for row in curs.fetchall():
                if row["notification_id"]:
                    ids.append((row["notification_id"], self._uuid(row["originator_id"]), row["originator_version"]))
                else:
                    stored.add(self._uuid(row["originator_id"]))
            return ids, stored

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's insert_events
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not stored_events:
            return None
        events = _members(stored_events)
        # autocommit: BEGIN and COMMIT are ours to send. Between the two queries this greenlet holds the events
        # table's lock, which every writer waits for: it waits for their answers without giving its gevent
        # worker to other requests (green_wait.holding).
        with self.datastore.get_connection() as conn, holding():
            try:
                with conn.cursor() as curs:
                    text = Escaping(conn.pgconn).escape_literal
                    # A stale version is refused here (IntegrityError), nothing written.
                    curs.execute(self._write_sql(stored_events, text), prepare=False)
                    curs.set_result(-2)  # BEGIN, SET LOCAL, LOCK, NOTIFY: no rows; then the INSERT's ids, the head
                    ids = [row["notification_id"] for row in curs.fetchall()]
                    if len(ids) != len(stored_events):
                        raise ProgrammingError(f"{len(ids)} notification ids for {len(stored_events)} events")
                    curs.set_result(-1)
                    head = curs.fetchone()
                    if head is None:  # the chain's first link adopts what was stored before it (rare: a new store)
                        self._link_after(curs, None, events, min(ids))
                        curs.execute("COMMIT")
                    else:
                        row = self.chain.row((int(head["seq"]), head["digest"]), events)
                        curs.execute(self._link_sql + b"(" + b", ".join(_literal(value, text) for value in row)
                                     + b"); COMMIT", prepare=False)
                        self.chain.head = (row[0], row[5])
            except BaseException:
                with contextlib.suppress(Exception):  # a broken connection is dropped by the pool anyway
                    conn.rollback()
                raise
        return ids

    def _write_sql(self, stored_events: Sequence[StoredEvent], text: Any) -> bytes:
        """BEGIN, the lock, NOTIFY, the events' INSERT and the chain's head: one query. Each value is escaped by
        libpq for this connection (`text`) or made only of digits, hex and dashes (versions, ids, states)."""
        rows = b", ".join(b"(%s, %d, %s, E'\\\\x%s'::bytea)" % (
            _id_literal(event.originator_id, text), int(event.originator_version),
            self._topics.get(event.topic) or self._topic_literal(event.topic, text), bytes(event.state).hex().encode())
            for event in stored_events)
        return self._write_head + rows + self._write_tail

    def _topic_literal(self, topic: str, text: Any) -> bytes:
        literal = self._topics[topic] = text(topic.encode())
        return literal


def _id_literal(originator_id: UUID | str, text: Any) -> bytes:
    if isinstance(originator_id, UUID):
        return b"'%s'" % str(originator_id).encode()  # hex digits and dashes
    return text(str(originator_id).encode())


def _literal(value: Any, text: Any) -> bytes:
    """A link's value as SQL: NULL, an integer, or text escaped by libpq (`text`)."""
    if value is None:
        return b"NULL"
    if isinstance(value, int):
        return b"%d" % value
    return text(str(value).encode())


def chained_recorder_class(recorder_class: type) -> type | None:
    """The chained counterpart of an eventsourcing application recorder class (None: not supported)."""
    if issubclass(recorder_class, ChainedRecorder):
        return recorder_class
    if issubclass(recorder_class, SQLiteApplicationRecorder):
        return ChainedSQLiteApplicationRecorder
    if issubclass(recorder_class, PostgresApplicationRecorder):
        return ChainedPostgresApplicationRecorder
    return None
