"""No secret at rest (docs/SECURITY.md §2, §6a; issue 27 item 1): after every kind of token and card is issued —
by the CLI, over the API, as a referee card, each with and without an idempotency key and each key sent twice —
no stored row of any table and no file of the store holds a token's secret or the QR image of one. A stolen
database or backup reveals no usable token; the card is the token's only copy."""

from __future__ import annotations

import re
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import psycopg
from conftest import Store
from test_security_tokens import open_table, secret_of

from cli.main import main as fupan


def stored_texts(store: Store, folder: Path) -> list[tuple[str, str]]:
    """(where, text) of everything the store keeps: every row of every table (bytes read as Latin-1, so any
    byte sequence is searchable), and every file under the test's folder (the SQLite file, its WAL and journal)."""
    found: list[tuple[str, str]] = []
    if store.backend == "postgres":
        env = store.env
        with psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                             password=env["POSTGRES_PASSWORD"], dbname=env["POSTGRES_DBNAME"]) as conn:
            tables = [row[0] for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (env["POSTGRES_SCHEMA"],)).fetchall()]
            assert tables
            for table in tables:
                for row in conn.execute(f'SELECT * FROM "{env["POSTGRES_SCHEMA"]}"."{table}"').fetchall():
                    found.append((table, " ".join(text_of(value) for value in row)))
    else:
        with sqlite3.connect(store.env["SQLITE_DBNAME"]) as conn:
            tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                for row in conn.execute(f'SELECT * FROM "{table}"'):
                    found.append((table, " ".join(text_of(value) for value in row)))
        conn.close()
    for path in folder.rglob("*"):
        if path.is_file():
            found.append((str(path), path.read_bytes().decode("latin-1")))
    return found


def text_of(value: Any) -> str:
    return bytes(value).decode("latin-1") if isinstance(value, (bytes, memoryview)) else str(value)


def qr_marks(data_uri: str) -> list[str]:
    """Pieces of a QR image's text that any stored copy would hold as they are (no quote or backslash a JSON
    encoding would escape): the longest few."""
    return sorted(re.findall(r"[^\"'\\]{40,}", data_uri), key=len, reverse=True)[:3]


def test_no_token_or_card_is_stored_in_clear_with_or_without_idempotency_keys(server, store, tmp_path, capsys):
    match = open_table(server)
    assert server.service is not None
    secrets: list[str] = [secret_of(server.organiser)]
    images: list[str] = []
    first_card: dict[str, Any] = {}
    # Every role through the store, as `fupan token create` does, and one through the CLI itself.
    for role in ("organiser", "appeals", "commentator"):
        secrets.append(secret_of(server.service.tokens.create(role, label=role)[1]))
    secrets.append(secret_of(server.service.tokens.create("referee", [match], "table 1")[1]))
    if store.backend == "sqlite":
        assert fupan(["token", "create", "--role", "commentator", "--db", store.env["SQLITE_DBNAME"]]) == 0
        secrets.append(secret_of(capsys.readouterr().out.strip()))
    # Over HTTP: a referee token and a referee card, without a key, and with a key sent twice.
    for keyed in (False, True):
        keys = [{"Idempotency-Key": str(uuid.uuid4())} if keyed else {} for _ in range(2)]
        for _ in range(2 if keyed else 1):
            created = server.post("/api/tokens", {"role": "referee", "matches": [match]}, headers=keys[0])
            assert created.status_code == 201, created.text
            card = server.post(f"/api/matches/{match}/referee-card", {}, headers=keys[1])
            assert card.status_code == 201, card.text
            if created.headers.get("Idempotent-Replayed"):
                # A resend answers the same token and card, without the secret: the card was its only copy.
                assert created.json()["bearer"] is None
                assert card.json()["token"] is None and card.json()["token_qr"] is None
                assert card.json()["token_id"] == first_card["token_id"]
                continue
            first_card = card.json()
            secrets += [secret_of(created.json()["bearer"]), secret_of(card.json()["token"])]
            images += qr_marks(card.json()["token_qr"])
    assert len(set(secrets)) == len(secrets) and images
    server.stop()  # the SQLite WAL checkpointed into the file, and the file read as well as the rows
    leaks = [(where, secret[:8]) for where, text in stored_texts(store, tmp_path)
             for secret in secrets + images if secret in text]
    assert leaks == []
