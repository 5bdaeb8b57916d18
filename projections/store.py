"""The read-model tables and their tracking position, in the event store's own database.

The tables live beside the events (the same SQLite file, the same PostgreSQL schema) and are written through
the application's own eventsourcing datastore, so one transaction covers a batch's rows, the recomputed
standings of the tournaments it touched and the new tracking position. The position is advanced by
compare-and-set (`UPDATE … WHERE notification_id = <the position the batch was read from>`), which is the
transaction's first statement: a second writer — another thread, another process — either waits for the
first and then finds the position moved (its batch is rolled back, nothing is counted twice) or moves it
first. On SQLite the first write takes the database's write lock; on PostgreSQL it takes the row lock.

Rows are facts stamped with the notification id that produced them (`nid`), so the facts as of any point
of the log are a WHERE clause away (time travel). Tables (prefix `proj_`; a scratch copy for verify and
rebuild uses another prefix):

- position(name, notification_id) — how far the read model has followed the notification log;
- tournaments, players, rounds, adjustments — from the Tournament's events;
- matches — a table opened in a round (`Tournament.MatchOpened`) and its seats (`Match.Created`);
- deals — a deal of a table: started, its result (`Deal.Finished`), its score at the table (`Match.DealScored`,
  with the table's standing after it);
- ends — a table that is over (`Match.Ended`): the side that won, its seats and why (until a `Match.Reopened`);
- appeals, outcomes — an appeal's deal (`Appeal.Created`) and each outcome its ruling and decision recorded
  (`Appeal.Ruled`, `.Decided`; docs/appeals.md): the standings read the latest one; a voided deal's replacement
  (`Appeal.Redealt`) is a deals row of the appeal's table, counted in the voided deal's place;
- corrections — a scored deal's facts corrected (`Match.DealCorrected`, docs/corrections.md): loaded over the
  deal's result and score, and the table's standing after it and the later deals, as of its notification id;
- standings(tournament_id, document) — the standings page, recomputed from the facts in the same transaction.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore

from domain.records.format import UNSTORABLE
from projections.standings_values import TournamentFacts

LIVE = "proj_"
POSITION = "standings"

# table → (columns with types, primary key); the order is the order verify compares in.
TABLES: dict[str, tuple[str, str]] = {
    "position": ("name TEXT NOT NULL, notification_id BIGINT NOT NULL", "name"),
    "tournaments": ("tournament_id TEXT NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL", "tournament_id"),
    "players": ("tournament_id TEXT NOT NULL, player_id TEXT NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL",
                "tournament_id, player_id"),
    "rounds": ("tournament_id TEXT NOT NULL, round INTEGER NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL",
               "tournament_id, round"),
    "matches": ("match_id TEXT NOT NULL, tournament_id TEXT NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL, "
                "created_nid BIGINT, created TEXT", "match_id"),
    "deals": ("deal_id TEXT NOT NULL, match_id TEXT NOT NULL, tournament_id TEXT NOT NULL, number INTEGER NOT NULL, "
              "started_nid BIGINT NOT NULL, finished_nid BIGINT, finished TEXT, scored_nid BIGINT, scored TEXT",
              "deal_id"),
    "adjustments": ("tournament_id TEXT NOT NULL, version INTEGER NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL",
                    "tournament_id, version"),
    "ends": ("match_id TEXT NOT NULL, tournament_id TEXT NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL",
             "match_id"),
    "appeals": ("appeal_id TEXT NOT NULL, tournament_id TEXT NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL",
                "appeal_id"),
    "outcomes": ("appeal_id TEXT NOT NULL, version INTEGER NOT NULL, tournament_id TEXT NOT NULL, nid BIGINT NOT NULL, "
                 "body TEXT NOT NULL", "appeal_id, version"),
    "standings": ("tournament_id TEXT NOT NULL, document TEXT NOT NULL", "tournament_id"),
    "corrections": ("match_id TEXT NOT NULL, version INTEGER NOT NULL, tournament_id TEXT NOT NULL, "
                    "nid BIGINT NOT NULL, body TEXT NOT NULL", "match_id, version"),
    # players who left: a withdrawal (`Tournament.Withdrew`) or an entry taken off before round 1 (`.EntryRemoved`)
    "departures": ("tournament_id TEXT NOT NULL, nid BIGINT NOT NULL, body TEXT NOT NULL", "tournament_id, nid"),
}
INDEXED = {"matches": "tournament_id", "deals": "tournament_id", "ends": "tournament_id", "appeals": "tournament_id",
           "outcomes": "tournament_id", "corrections": "tournament_id"}
# Tables added after stores with a read model existed: a read model without them is rebuilt once (Projections).
LATER_TABLES = ("appeals", "outcomes", "corrections", "departures")

# What a page of events writes, per kind of row, applied kind by kind in this order. Every row is inserted
# once and every column set once (a deal finishes once, a table is seated once), and each statement only
# needs rows of the kinds before it, so this gives exactly what applying the events one by one would.
WRITES: dict[str, str] = {
    "tournament": "INSERT INTO {tournaments} (tournament_id, nid, body) VALUES (?, ?, ?)",
    # a player id registered again after its entry was taken off (EntryRemoved) replaces the old row
    "player": "INSERT INTO {players} (tournament_id, player_id, nid, body) VALUES (?, ?, ?, ?) "
              "ON CONFLICT (tournament_id, player_id) DO UPDATE SET nid = excluded.nid, body = excluded.body",
    "departure": "INSERT INTO {departures} (tournament_id, nid, body) VALUES (?, ?, ?)",
    "round": "INSERT INTO {rounds} (tournament_id, round, nid, body) VALUES (?, ?, ?, ?)",
    "match": "INSERT INTO {matches} (match_id, tournament_id, nid, body) VALUES (?, ?, ?, ?)",
    "seats": "UPDATE {matches} SET created_nid = ?, created = ? WHERE match_id = ?",
    "deal": "INSERT INTO {deals} (deal_id, match_id, tournament_id, number, started_nid) "
            "SELECT ?, match_id, tournament_id, ?, ? FROM {matches} WHERE match_id = ?",
    "appeal": "INSERT INTO {appeals} (appeal_id, tournament_id, nid, body) VALUES (?, ?, ?, ?)",
    # A voided deal's replacement (Appeal.Redealt), scored by its appeal's RedealScored.
    "redeal": "INSERT INTO {deals} (deal_id, match_id, tournament_id, number, started_nid) "
              "SELECT ?, match_id, tournament_id, ?, ? FROM {matches} WHERE match_id = ?",
    # A deal outside any table (standalone, imported) has no row: its result updates nothing.
    "finished": "UPDATE {deals} SET finished_nid = ?, finished = ? WHERE deal_id = ?",
    "scored": "UPDATE {deals} SET scored_nid = ?, scored = ? WHERE deal_id = ?",
    # A table the organiser reopened (Match.Reopened) is no longer over; written before "ended", so a page that
    # reopens a table and ends it again keeps the later end (the follower drops an end the page then reopened).
    "reopened": "DELETE FROM {ends} WHERE match_id = ?",
    "ended": "INSERT INTO {ends} (match_id, tournament_id, nid, body) "
             "SELECT ?, tournament_id, ?, ? FROM {matches} WHERE match_id = ?",
    "adjustment": "INSERT INTO {adjustments} (tournament_id, version, nid, body) VALUES (?, ?, ?, ?)",
    "outcome": "INSERT INTO {outcomes} (appeal_id, version, tournament_id, nid, body) "
               "SELECT ?, ?, tournament_id, ?, ? FROM {appeals} WHERE appeal_id = ?",
    # A scored deal's facts corrected (Match.DealCorrected): read over the deal's score when loaded.
    "correction": "INSERT INTO {corrections} (match_id, version, tournament_id, nid, body) "
                  "SELECT ?, ?, tournament_id, ?, ? FROM {matches} WHERE match_id = ?",
}


_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(value: Any) -> str:
    """Canonical JSON, so that a rebuilt row is byte-for-byte the incremental one. Text a store cannot keep
    (domain.records.format.UNSTORABLE) may be in events stored before the API refused it: JSON escapes a NUL itself,
    and a lone surrogate — which only a JSON string can hold — is written as its escape too, so the row is
    storable and reads back as the event had it."""
    return _SURROGATE.sub(_escaped, json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                                               default=str))


def _escaped(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def key(text: str) -> str:
    """A free-text key (a player id) as a key column can hold it: as it is, or — holding text a store cannot
    keep, or starting with a quote — as its JSON string (which starts with a quote, so no two ids meet)."""
    if UNSTORABLE.search(text) or text.startswith('"'):
        return json.dumps(text)
    return text


def corrected(deals: list[dict[str, Any]], corrections: list[dict[str, Any]]) -> None:
    """The deals as corrected (in the order the corrections were stored): a corrected deal's result and score
    are the correction's, marked `corrected`; its standing and the later deals' of its table are chained again."""
    by_table = {(deal["match_id"], deal["number"]): deal for deal in deals if "replaces" not in deal["scored"]}
    for correction in corrections:
        for offset, standing in enumerate(correction["standings"]):
            deal = by_table.get((correction["match_id"], correction["number"] + offset))
            if deal is not None:
                deal["scored"] = {**deal["scored"], "standing": standing, "chips": standing.get("chips")}
        deal = next((d for d in deals if d["deal_id"] == correction["deal_id"]), None)
        if deal is not None:
            deal["result"] = correction["result"]
            deal["scored"]["scores"] = correction["scores"]
            deal["corrected"] = {k: correction[k] for k in ("reason", "was", "recorded_by", "time")}


class PositionMoved(Exception):
    """Another writer advanced the position since this batch was read; the batch was rolled back."""


class PollerLease:
    """Which one of a server's processes polls the log in the background, so that W workers do not all ask the
    same questions every 20 ms. On PostgreSQL, the process whose poller holds a session advisory lock (one per
    schema) on a connection kept for it: when that process dies, its session ends, the lock with it, and another
    worker's poller takes over at its next try (each tries once a second). Elsewhere (SQLite: one server, one
    file) every poller polls. Reads never depend on it: each catches up itself."""

    RETRY = 1.0  # seconds between a follower's tries to take the lease

    def __init__(self, datastore: SQLiteDatastore | PostgresDatastore):
        self.datastore = datastore
        self.shared = isinstance(datastore, PostgresDatastore)
        name = f"fupan projections poller:{getattr(datastore, 'schema', '')}".encode()
        self.key = int.from_bytes(hashlib.sha256(name).digest()[:8], "big", signed=True)
        self._conn: Any = None
        self._next_try = 0.0

    def held(self) -> bool:
        """Whether this process polls now (trying to take the lease at most once a RETRY)."""
        if not self.shared or self._conn is not None:
            return True
        now = time.monotonic()
        if now < self._next_try:
            return False
        self._next_try = now + self.RETRY
        pool = self.datastore.pool  # type: ignore[union-attr]
        pool.open(True, 30.0)  # as the library's get_connection does (idempotent)
        conn = pool.getconn()
        try:
            got = conn.execute("SELECT pg_try_advisory_lock(%s) AS got", (self.key,)).fetchone()["got"]
        except BaseException:
            self._close(conn)
            raise
        if got:
            self._conn = conn
        else:
            pool.putconn(conn)
        return bool(got)

    def release(self) -> None:
        """Give the lease up (also after a failure: the connection may be broken); ending its session frees it."""
        conn, self._conn = self._conn, None
        if conn is not None:
            self._close(conn)

    def _close(self, conn: Any) -> None:
        try:
            conn.close()  # never back into the pool with the lock held
        finally:
            self.datastore.pool.putconn(conn)  # type: ignore[union-attr]


class ViewStore:
    """The read-model tables with one table-name prefix, over the application's datastore."""

    def __init__(self, datastore: SQLiteDatastore | PostgresDatastore, prefix: str = LIVE):
        self.datastore = datastore
        self.prefix = prefix
        self.postgres = isinstance(datastore, PostgresDatastore)
        if isinstance(datastore, SQLiteDatastore):
            self.placeholder, schema = "?", None
        elif isinstance(datastore, PostgresDatastore):
            self.placeholder, schema = "%s", datastore.schema
        else:
            raise TypeError(f"projections support SQLite and PostgreSQL, not {type(datastore).__name__}")
        self.names = {table: (f'"{schema}".' if schema else "") + f'"{prefix}{table}"' for table in TABLES}
        self._tournament_of: dict[str, str] = {}

    def sql(self, statement: str) -> str:
        """`{table}` names filled in and `?` placeholders in the datastore's style."""
        return statement.format(**self.names).replace("?", self.placeholder)

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.transaction(commit=commit) as cursor:
            yield cursor

    # --- schema ---------------------------------------------------------------------------------------

    def has(self, table: str) -> bool:
        """Whether this read model has the table (its own transaction: PostgreSQL aborts one at an error)."""
        try:
            with self.transaction(commit=False) as c:
                c.execute(f"SELECT 1 FROM {self.names[table]} WHERE 1 = 0")
            return True
        except Exception:  # the driver's "no such table" (SQLite) / UndefinedTable (PostgreSQL)
            return False

    def outdated(self) -> bool:
        """A read model written before LATER_TABLES existed: it never followed their events."""
        return self.has("position") and not all(self.has(table) for table in LATER_TABLES)

    def create(self) -> None:
        with self.transaction(commit=True) as c:
            for table, (columns, key) in TABLES.items():
                c.execute(f"CREATE TABLE IF NOT EXISTS {self.names[table]} ({columns}, PRIMARY KEY ({key}))")
            for table, column in INDEXED.items():
                c.execute(f'CREATE INDEX IF NOT EXISTS "{self.prefix}{table}_{column}" '
                          f"ON {self.names[table]} ({column})")
            c.execute(self.sql("INSERT INTO {position} (name, notification_id) VALUES (?, 0) "
                               "ON CONFLICT (name) DO NOTHING"), (POSITION,))

    def drop(self) -> None:
        with self.transaction(commit=True) as c:
            for table in TABLES:
                c.execute(f"DROP TABLE IF EXISTS {self.names[table]}")

    # --- position -------------------------------------------------------------------------------------

    def position(self, c: Any = None) -> int:
        if c is None:
            with self.transaction(commit=False) as c:
                return self.position(c)
        c.execute(self.sql("SELECT notification_id FROM {position} WHERE name = ?"), (POSITION,))
        return int(c.fetchone()["notification_id"])

    def advance(self, c: Any, expected: int, new: int) -> None:
        """Compare-and-set: the first statement of every batch (see the module's docstring)."""
        c.execute(self.sql("UPDATE {position} SET notification_id = ? WHERE name = ? AND notification_id = ? "
                           "RETURNING notification_id"), (new, POSITION, expected))
        if c.fetchone() is None:
            raise PositionMoved(expected)

    # --- writes ---------------------------------------------------------------------------------------

    def write(self, c: Any, rows: dict[str, list[tuple[Any, ...]]]) -> None:
        """A page's rows, statement by statement in WRITES order (one round trip per statement on PostgreSQL:
        psycopg pipelines `executemany`)."""
        for kind, statement in WRITES.items():
            if rows.get(kind):
                c.executemany(self.sql(statement), rows[kind])

    def tournament_of(self, c: Any, match_id: str) -> str:
        """The tournament of a table (never changes, so remembered)."""
        if match_id not in self._tournament_of:
            c.execute(self.sql("SELECT tournament_id FROM {matches} WHERE match_id = ?"), (match_id,))
            self._tournament_of[match_id] = c.fetchone()["tournament_id"]
        return self._tournament_of[match_id]

    def tournament_of_appeal(self, c: Any, appeal_id: str) -> str:
        c.execute(self.sql("SELECT tournament_id FROM {appeals} WHERE appeal_id = ?"), (appeal_id,))
        return c.fetchone()["tournament_id"]

    def put_standings(self, c: Any, tournament_id: str, document: dict[str, Any]) -> None:
        c.execute(self.sql("INSERT INTO {standings} (tournament_id, document) VALUES (?, ?) ON CONFLICT "
                           "(tournament_id) DO UPDATE SET document = excluded.document"),
                  (tournament_id, dumps(document)))

    # --- reads ----------------------------------------------------------------------------------------

    def standings(self, tournament_id: str, reflects: int) -> tuple[int, dict[str, Any] | None]:
        """(the notification id it reflects, the stored standings document). `reflects`: what the follower
        found the read model to reflect (the stored position may lag behind it; see Follower.catch_up)."""
        with self.transaction(commit=False) as c:
            position = self.position(c)
            c.execute(self.sql("SELECT document FROM {standings} WHERE tournament_id = ?"), (tournament_id,))
            row = c.fetchone()
        return max(position, reflects), json.loads(row["document"]) if row else None

    def facts(self, tournament_id: str, reflects: int, as_of: int | None = None
              ) -> tuple[int, TournamentFacts | None]:
        """(the notification id they reflect, the tournament's facts as of `as_of`, at most that)."""
        with self.transaction(commit=False) as c:
            now = max(self.position(c), reflects)
            at = now if as_of is None else min(as_of, now)
            return at, self.load(c, tournament_id, at)

    def load(self, c: Any, tournament_id: str, as_of: int) -> TournamentFacts | None:
        """The tournament's facts recorded at notification ids ≤ `as_of`; None if it did not exist yet."""
        c.execute(self.sql("SELECT body FROM {tournaments} WHERE tournament_id = ? AND nid <= ?"),
                  (tournament_id, as_of))
        head = c.fetchone()
        if head is None:
            return None

        def bodies(table: str, order: str) -> list[dict[str, Any]]:
            c.execute(self.sql(f"SELECT body FROM {{{table}}} WHERE tournament_id = ? AND nid <= ? ORDER BY {order}"),
                      (tournament_id, as_of))
            return [json.loads(row["body"]) for row in c.fetchall()]

        c.execute(self.sql("SELECT match_id, body FROM {ends} WHERE tournament_id = ? AND nid <= ?"),
                  (tournament_id, as_of))
        ends = {row["match_id"]: json.loads(row["body"]) for row in c.fetchall()}
        c.execute(self.sql("SELECT match_id, body, created_nid, created FROM {matches} "
                           "WHERE tournament_id = ? AND nid <= ? ORDER BY nid"), (tournament_id, as_of))
        matches = []
        for row in c.fetchall():
            created = json.loads(row["created"]) if row["created"] and row["created_nid"] <= as_of else {}
            matches.append({**json.loads(row["body"]), "match_id": row["match_id"], "seats": created.get("seats"),
                            "start_chips": created.get("start_chips"), "created": created or None,
                            "ended": ends.get(row["match_id"])})
        c.execute(self.sql("SELECT deal_id, match_id, number, finished, scored FROM {deals} WHERE tournament_id = ? "
                           "AND scored_nid <= ? AND finished_nid <= ? ORDER BY scored_nid"),
                  (tournament_id, as_of, as_of))
        deals = []
        for row in c.fetchall():
            finished, scored = json.loads(row["finished"]), json.loads(row["scored"])
            deals.append({"deal_id": row["deal_id"], "match_id": row["match_id"], "number": row["number"],
                          "result": finished.pop("result"), "winner": scored["winner"], "finished": finished,
                          "scored": scored})
        c.execute(self.sql("SELECT body FROM {corrections} WHERE tournament_id = ? AND nid <= ? ORDER BY nid"),
                  (tournament_id, as_of))
        corrected(deals, [json.loads(row["body"]) for row in c.fetchall()])
        c.execute(self.sql("SELECT appeal_id, body FROM {appeals} WHERE tournament_id = ? AND nid <= ? ORDER BY nid"),
                  (tournament_id, as_of))
        appeals = {row["appeal_id"]: {**json.loads(row["body"]), "appeal_id": row["appeal_id"], "outcome": None}
                   for row in c.fetchall()}
        c.execute(self.sql("SELECT appeal_id, nid, body FROM {outcomes} WHERE tournament_id = ? AND nid <= ? "
                           "ORDER BY nid, version"), (tournament_id, as_of))
        for row in c.fetchall():  # the latest outcome of each appeal is the one in effect
            appeals[row["appeal_id"]].update(outcome=json.loads(row["body"])["outcome"], outcome_nid=row["nid"])
        c.execute(self.sql("SELECT nid, body FROM {players} WHERE tournament_id = ? AND nid <= ? ORDER BY nid"),
                  (tournament_id, as_of))
        registered = [(row["nid"], json.loads(row["body"])) for row in c.fetchall()]
        c.execute(self.sql("SELECT nid, body FROM {departures} WHERE tournament_id = ? AND nid <= ? ORDER BY nid"),
                  (tournament_id, as_of))
        departures = [(row["nid"], json.loads(row["body"])) for row in c.fetchall()]
        players = []
        for nid, player in registered:  # a departure counts for the registration before it
            left = [body for at, body in departures if at > nid and player["player_id"] in body["player_ids"]]
            if any(body["kind"] == "removed" for body in left):
                continue
            withdrew = next((body for body in left if body["kind"] == "withdrew"), None)
            players.append({**player, **({"withdrawn": {"round": withdrew["round"], "reason": withdrew["reason"]}}
                                         if withdrew else {})})
        return TournamentFacts(
            tournament={**json.loads(head["body"]), "tournament_id": tournament_id},
            players=players, rounds=bodies("rounds", "round"), matches=matches, deals=deals,
            adjustments=bodies("adjustments", "nid"), appeals=list(appeals.values()),
        )

    @contextmanager
    def snapshot(self) -> Iterator[Any]:
        """A read transaction that sees one state of every table (verify compares two sets of tables in it):
        SQLite's read transactions are snapshots; PostgreSQL's default (read committed) is not."""
        with self.transaction(commit=False) as c:
            if self.postgres:
                c.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield c

    def table_rows(self, c: Any, table: str) -> list[dict[str, Any]]:
        """Every row of one table in key order (what verify compares)."""
        c.execute(f"SELECT * FROM {self.names[table]} ORDER BY {TABLES[table][1]}")
        return [dict(row) for row in c.fetchall()]

    def count(self, c: Any, table: str) -> int:
        c.execute(f"SELECT COUNT(*) AS n FROM {self.names[table]}")
        return int(c.fetchone()["n"])

    # --- rebuild --------------------------------------------------------------------------------------

    def replace_with(self, scratch: ViewStore) -> int:
        """Make these tables a copy of `scratch`'s, position included, in one transaction; the position."""
        with self.transaction(commit=True) as c:
            c.execute(self.sql("UPDATE {position} SET notification_id = notification_id WHERE name = ?"),
                      (POSITION,))  # first a write: take the write lock (SQLite) / the row lock (PostgreSQL)
            for table in TABLES:
                c.execute(f"DELETE FROM {self.names[table]}")
                c.execute(f"INSERT INTO {self.names[table]} SELECT * FROM {scratch.names[table]}")
            return self.position(c)
