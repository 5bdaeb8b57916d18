"""Shared fixtures: real stores (a SQLite file, a PostgreSQL schema), a real HTTP server, restart helpers.

Nothing of our storage is mocked: the server is werkzeug's, in a thread, serving the real Flask app over a
real Fupan on a real SQLite file in tmp_path or a real PostgreSQL server (tests/support/postgres_cluster.py).
Fixtures `store`, `service` and `server` run each test once per backend.

Access control (docs/SECURITY.md): a LiveServer issues itself an organiser token through the store (as
`fupan token create` would) and writes with it by default; reads are anonymous unless a test passes `token=`.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
import requests
from flask import Flask
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase
from paths import ROOT
from postgres_cluster import Unavailable, application_env, create_schema, drop_schema, postgres_server
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from domain.services.fupan import Fupan
from web.app import create_app

# Hypothesis profiles (docs/TESTING.md). "ci", chosen when CI is set: the same examples on every run (derived from
# each test's name, not drawn at random) and no example database, so a CI run fails or passes the same way twice.
# "dev", otherwise: random examples, and the failing ones kept in .hypothesis/examples and tried first next run.
# HYPOTHESIS_PROFILE picks one by name. Loaded here, before any test module builds its own @settings from them.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", database=DirectoryBasedExampleDatabase(str(ROOT / ".hypothesis" / "examples")))
# "mutation" (pyproject's [tool.mutmut], docs/TESTING.md): the ci profile's fixed examples, with no deadline, since
# a mutant runs under mutmut's tracing (slower) and must be killed by a wrong answer, not by a slow one.
settings.register_profile("mutation", derandomize=True, database=None, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


def random_order_seed(config: pytest.Config) -> int | None:
    """The seed pytest-randomly shuffled the tests with (None when it is off: `-p no:randomly`)."""
    return getattr(config.option, "randomly_seed", None) if config.pluginmanager.hasplugin("randomly") else None


def pytest_sessionstart(session: pytest.Session) -> None:
    # pytest-randomly says its seed in the header, which -q (our default) leaves out: say it here, and again at the
    # end, so a failing order can be run again (docs/TESTING.md).
    seed = random_order_seed(session.config)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if seed is not None and reporter is not None and session.config.option.verbose < 0:
        reporter.write_line(f"random order: -p randomly --randomly-seed={seed}")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    seed = random_order_seed(config)
    if seed is not None:
        terminalreporter.write_line(f"random order: -p randomly --randomly-seed={seed} runs the tests in this order")


def move(seat: int, kind: str, cards: str = "") -> dict[str, Any]:
    """One action of a hand-written record: (seat, type), and a play's cards as codes separated by spaces."""
    return {"seat": seat, "type": kind, **({"cards": cards.split()} if cards else {})}


# The complete 斗地主 example record of `fupan.deal/1`: seat 2 calls, one bomb (rocket), farmers win → [2, 2, -6].
EXAMPLE_RECORD: dict[str, Any] = {
    "format": "fupan.deal/1", "game": "doudizhu", "options": {},
    "seats": ["张三", "李四", "王五"], "first": 2,
    "hands": [
        ["D3", "C3", "H4", "H6", "C6", "S7", "S9", "D9", "C9", "C10", "HJ", "CQ", "HK", "DK", "HA", "LJ", "BJ"],
        ["H3", "D5", "S6", "D8", "D10", "SJ", "DJ", "CJ", "SQ", "HQ", "DQ", "SK", "SA", "DA", "S2", "H2", "D2"],
        ["S3", "S4", "D4", "C4", "S5", "H5", "C5", "D6", "H7", "D7", "C7", "H8", "C8", "S10", "H10", "CK", "CA"],
    ],
    "kitty": ["S8", "H9", "C2"], "context": {},
    "actions": [
        move(2, "call"), move(0, "pass"), move(1, "pass"), move(2, "play", "S3 C4 H5 D6 D7 H8 H9"),
        move(0, "play", "LJ BJ"), move(1, "pass"), move(2, "pass"), move(0, "play", "S7"), move(1, "play", "D8"),
        move(2, "pass"), move(0, "play", "HA"), move(1, "play", "H2"), move(2, "pass"), move(0, "pass"),
        move(1, "play", "SA DA"), move(2, "pass"), move(0, "pass"), move(1, "play", "D5 SJ DJ CJ SQ HQ DQ SK"),
        move(2, "pass"), move(0, "pass"), move(1, "play", "D10"), move(2, "play", "CA"), move(0, "pass"),
        move(1, "play", "S2"), move(2, "pass"), move(0, "pass"), move(1, "play", "S6"), move(2, "play", "CK"),
        move(0, "pass"), move(1, "play", "D2"), move(2, "pass"), move(0, "pass"), move(1, "play", "H3"),
    ],
}
EXAMPLE_SCORES = [2, 2, -6]


def token_id(bearer: str) -> str:
    """The id inside a bearer token `fupan_<id hex>_<secret>`, as events and listings name it."""
    return str(UUID(hex=bearer.split("_")[1]))


@pytest.fixture
def example_record() -> dict[str, Any]:
    return copy.deepcopy(EXAMPLE_RECORD)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "fupan.sqlite"


@pytest.fixture(scope="session")
def postgres_params() -> Iterator[dict[str, str]]:
    try:
        with postgres_server() as params:
            yield params
    except Unavailable as error:
        if os.environ.get("FUPAN_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here: {error}")
        pytest.skip(f"no PostgreSQL server: {error}")


class Store:
    """Where one test's events live: a SQLite file, or a schema of its own on the PostgreSQL server."""

    def __init__(self, backend: str, env: dict[str, str]):
        self.backend = backend
        self.env = env

    @classmethod
    def sqlite(cls, path: Path) -> Store:
        return cls("sqlite", {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})

    def open(self) -> Fupan:
        return Fupan(env=self.env)

    def stored_events(self) -> list[tuple[str, int, str]]:
        """(originator id, version, topic) of every stored event, read back through a fresh application."""
        app = self.open()
        try:
            return [(str(n.originator_id), n.originator_version, n.topic)
                    for n in app.store.recorder.select_notifications(1, 10**9)]
        finally:
            app.close()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, db_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        yield Store.sqlite(db_path)
        return
    params = request.getfixturevalue("postgres_params")
    schema = f"t_{uuid4().hex[:16]}"
    create_schema(params, schema)
    yield Store("postgres", application_env(params, schema))
    drop_schema(params, schema)


@pytest.fixture
def service(store: Store) -> Iterator[Fupan]:
    app = store.open()
    yield app
    app.close()


class QuietHandler(WSGIRequestHandler):
    """The test server's handler: no per-request log lines, and a Server header as bare as `fupan serve`'s."""

    def version_string(self) -> str:
        return "fupan"

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


class LiveServer:
    """The real app over HTTP on 127.0.0.1:<free port>, backed by one store; can be restarted."""

    def __init__(self, store: Store | Path, config: dict[str, Any] | None = None):
        self.store = store if isinstance(store, Store) else Store.sqlite(store)
        self.config = dict(config or {})
        self.service: Fupan | None = None
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None
        self.http = requests.Session()
        self.organiser = ""  # an organiser bearer token, issued on the first start
        self.app: Flask | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> LiveServer:
        self.service = self.store.open()
        if not self.organiser:
            _, self.organiser = self.service.tokens.create("organiser", label="tests")
        self.app = app = create_app({**self.config, "FUPAN_APPLICATION": self.service})
        self._server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Shut the server down and drop the application object (its caches go with it)."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            assert self._thread is not None
            self._thread.join(timeout=10)
        if self.service is not None:
            self.service.close()
        self._server = self._thread = self.service = None
        self.http.close()
        self.http = requests.Session()

    def restart(self) -> LiveServer:
        self.stop()
        return self.start()

    # Thin helpers: every test talks plain HTTP through these.
    def auth(self, token: str | None = None) -> dict[str, str]:
        """The Authorization header of `token` (default: the organiser's)."""
        return {"Authorization": f"Bearer {token or self.organiser}"}

    def get(self, path: str, *, token: str | None = None, **kwargs: Any) -> requests.Response:
        """GET, anonymously unless `token` is given."""
        if token is not None:
            kwargs["headers"] = {**kwargs.get("headers", {}), **self.auth(token)}
        return self.http.get(self.url + path, timeout=30, **kwargs)

    def post(self, path: str, body: Any = None, *, token: str | None = None, anonymous: bool = False,
             **kwargs: Any) -> requests.Response:
        """POST as the organiser, or with `token`, or with no token at all (`anonymous`)."""
        if body is not None:
            kwargs["json"] = body
        if not anonymous:
            kwargs["headers"] = {**kwargs.get("headers", {}), **self.auth(token)}
        return self.http.post(self.url + path, timeout=30, **kwargs)


@pytest.fixture
def server(store: Store) -> Iterator[LiveServer]:
    live = LiveServer(store).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright, one per viewer test module (tests/test_viewer_*browser.py)."""
    from playwright.sync_api import sync_playwright
    from test_viewer_browser import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def offline(browser: Any, site: Any) -> Iterator[Any]:
    """A browser context on the module's `site` where only the test server answers (test_viewer_browser.Offline);
    the test fails if any request tried to leave it."""
    from test_viewer_browser import LAPTOP, Offline

    context = Offline(browser, site, LAPTOP)
    yield context
    context.context.close()
    assert context.left == [], f"requests left the test server: {context.left}"
