"""A throwaway PostgreSQL server for the test session: the real server, on a Unix socket, in a temp directory.

`FUPAN_TEST_POSTGRES` (a libpq "key=value" string) points the tests at an existing server instead. Without
it, the binaries are looked up on PATH and in /usr/lib/postgresql/*/bin; PostgreSQL refuses to run as root,
so as root the cluster runs as the `postgres` system user. When no server can be had the PostgreSQL tests
are skipped with the reason — unless FUPAN_REQUIRE_POSTGRES=1 (set by CI), which makes that an error.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

USER = "fupan"
PASSWORD = "fupan-test"
DBNAME = "fupan_test"


class Unavailable(RuntimeError):
    pass


def _binary(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if not found:
        raise Unavailable(f"PostgreSQL's `{name}` was not found (install Debian's postgresql package)")
    return found


def _run_as(user: str | None, argv: list[str]) -> None:
    command = ["runuser", "-u", user, "--", *argv] if user else argv
    subprocess.run(command, check=True, capture_output=True, timeout=120)


@contextmanager
def postgres_server() -> Iterator[dict[str, str]]:
    """Connection parameters (host, port, user, password, dbname) of a running server."""
    existing = os.environ.get("FUPAN_TEST_POSTGRES")
    if existing:
        params = dict(part.split("=", 1) for part in existing.split())
        yield params
        return
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    as_user = "postgres" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="fupan-pg-"))
    data, sockets = root / "data", root / "sock"
    sockets.mkdir()
    if as_user:
        shutil.chown(root, as_user)
        shutil.chown(sockets, as_user)
    # No TCP port at all: the server listens on a Unix socket in its own directory, so no port is picked, closed
    # and reused (another process could take it in between) and the port number only names the socket file.
    port = 5432
    pwfile = root / "pw"
    pwfile.write_text(PASSWORD)
    if as_user:
        shutil.chown(pwfile, as_user)
    try:
        _run_as(as_user, [initdb, "-D", str(data), "-U", USER, "--pwfile", str(pwfile), "-A", "scram-sha-256",
                          "-E", "UTF8", "--no-sync"])
        _run_as(as_user, [pg_ctl, "-D", str(data), "-l", str(root / "log"), "-w", "start", "-o",
                          f"-p {port} -k {sockets} -c listen_addresses='' -c fsync=off "
                          f"-c max_connections=200"])
    except (subprocess.CalledProcessError, FileNotFoundError, OSError) as error:
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(f"could not start a PostgreSQL server: {error}") from error
    params = {"host": str(sockets), "port": str(port), "user": USER, "password": PASSWORD, "dbname": DBNAME}
    try:
        with psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DBNAME}")
        yield params
    finally:
        subprocess.run(
            ["runuser", "-u", as_user, "--", pg_ctl, "-D", str(data), "-m", "fast", "stop"] if as_user
            else [pg_ctl, "-D", str(data), "-m", "fast", "stop"],
            capture_output=True, timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


def create_schema(params: dict[str, str], name: str) -> None:
    with psycopg.connect(**params, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')


def drop_schema(params: dict[str, str], name: str) -> None:
    with psycopg.connect(**params, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def application_env(params: dict[str, str], schema: str) -> dict[str, str]:
    """The eventsourcing settings that put a Fupan on this server, in its own schema."""
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": params["dbname"],
        "POSTGRES_HOST": params["host"],
        "POSTGRES_PORT": params["port"],
        "POSTGRES_USER": params["user"],
        "POSTGRES_PASSWORD": params["password"],
        "POSTGRES_SCHEMA": schema,
    }
