"""Shared fixtures: a real SQLite file, a real HTTP server on a free localhost port, restart helpers.

Nothing of our storage is mocked: the server is werkzeug's, in a thread, serving the real Flask app over a
real FupanApplication on a real SQLite file in tmp_path.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from werkzeug.serving import BaseWSGIServer, make_server

from api.app import create_app
from api.cli import KeepAliveHandler
from domain.application import FupanApplication

# RECORD-FORMAT.md's complete example: seat 2 calls, one bomb (rocket), farmers win → [2, 2, -6].
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
        {"seat": 2, "type": "call"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "play", "cards": ["S3", "C4", "H5", "D6", "D7", "H8", "H9"]},
        {"seat": 0, "type": "play", "cards": ["LJ", "BJ"]},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "play", "cards": ["S7"]},
        {"seat": 1, "type": "play", "cards": ["D8"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "play", "cards": ["HA"]},
        {"seat": 1, "type": "play", "cards": ["H2"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "play", "cards": ["SA", "DA"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "play", "cards": ["D5", "SJ", "DJ", "CJ", "SQ", "HQ", "DQ", "SK"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "play", "cards": ["D10"]},
        {"seat": 2, "type": "play", "cards": ["CA"]},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "play", "cards": ["S2"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "play", "cards": ["S6"]},
        {"seat": 2, "type": "play", "cards": ["CK"]},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "play", "cards": ["D2"]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "play", "cards": ["H3"]},
    ],
}
EXAMPLE_SCORES = [2, 2, -6]


@pytest.fixture
def example_record() -> dict[str, Any]:
    return copy.deepcopy(EXAMPLE_RECORD)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "fupan.sqlite"


@pytest.fixture
def service(db_path: Path) -> Iterator[FupanApplication]:
    app = FupanApplication.for_sqlite(str(db_path))
    yield app
    app.close()


class QuietKeepAliveHandler(KeepAliveHandler):
    """`fupan serve`'s handler without the per-request log lines."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


class LiveServer:
    """The real app over HTTP on 127.0.0.1:<free port>, backed by one SQLite file; can be restarted."""

    def __init__(self, db_path: Path):
        self.db_path = db_path
        self.service: FupanApplication | None = None
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None
        self.http = requests.Session()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> LiveServer:
        self.service = FupanApplication.for_sqlite(str(self.db_path))
        app = create_app({"FUPAN_APPLICATION": self.service})
        self._server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietKeepAliveHandler)
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
    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.http.get(self.url + path, timeout=30, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> requests.Response:
        if body is not None:
            kwargs["json"] = body
        return self.http.post(self.url + path, timeout=30, **kwargs)


@pytest.fixture
def server(db_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(db_path).start()
    yield live
    live.stop()
