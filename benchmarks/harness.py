"""What the HTTP benchmarks share: a real server process on a free port, an operator's token, a keep-alive client."""

from __future__ import annotations

import http.client
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def available_servers() -> list[str]:
    """`fupan serve` (waitress) always; gunicorn (gthread, one worker) when it is installed."""
    return ["fupan-serve"] + (["gunicorn"] if importlib.util.find_spec("gunicorn") else [])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("server did not start")


def organiser_token(db: Path) -> str:
    """Created the way an operator does it: `fupan token create --role organiser` prints the token once."""
    done = subprocess.run([sys.executable, "-m", "cli", "token", "create", "--role", "organiser", "--db", str(db)],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def start_server(kind: str, db: Path, app: str = "fupan") -> tuple[subprocess.Popen, int]:
    """Serve fupan (`app="fupan"`) or benchmark (b)'s floor app (`app="floor"`, floor_app.py) on `db` with
    the server software `kind`: waitress for "fupan-serve" (what `fupan serve` runs), or gunicorn;
    `app="floor-answer"`: the floor answering with fupan's headers and answer size."""
    port = free_port()
    here = str(Path(__file__).parent)
    env = {**os.environ, "PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db),
           "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}
    if kind == "fupan-serve" and app == "fupan":
        argv = [sys.executable, "-m", "cli", "serve", "--db", str(db), "--port", str(port)]
    elif kind == "fupan-serve":
        argv = [sys.executable, str(Path(here) / "floor_app.py"), "--db", str(db), "--port", str(port),
                *(["--answer"] if app == "floor-answer" else [])]
    else:
        target = "web.app:create_app()" if app == "fupan" else \
            f"floor_app:create_floor_app({str(db)!r}, {app == 'floor-answer'})"
        argv = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "4", "-w", "1", "-b",
                f"127.0.0.1:{port}", "--log-level", "warning", target]
    # The server's log goes to a file: an unread pipe would fill up and block the server.
    log = db.with_suffix(f".{kind}.{app}.log")
    with log.open("w") as sink:
        process = subprocess.Popen(argv, env=env, stdout=sink, stderr=sink)
    wait_for(port, process, log)
    return process, port


class Client:
    def __init__(self, port: int, token: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

    def post(self, path: str, body: Any) -> dict[str, Any]:
        return self._call("POST", path, json.dumps(body))

    def get(self, path: str) -> dict[str, Any]:
        return self._call("GET", path, None)

    def _call(self, method: str, path: str, body: str | None) -> dict[str, Any]:
        self.conn.request(method, path, body, self.headers)
        response = self.conn.getresponse()
        data = json.loads(response.read())
        if response.status >= 400:
            raise SystemExit(f"{method} {path}: {response.status} {data}")
        return data
