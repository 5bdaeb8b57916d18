"""The Flask app factory, the wiring root: one Fupan (domain/services/fupan.py) per process, shared by every
request; the JSON API (api/) and the pages (replay_ui/) mounted side by side, with the request middleware around them.

Hardening (docs/SECURITY.md): access policies and failed-auth limits (api/auth.py), body size limits, one unit
of the service per write request (web/units.py), security headers on every response with a
Content-Security-Policy that allows no other origin, and CORS closed unless `FUPAN_CORS_ORIGINS` names origins.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, request
from werkzeug.middleware.proxy_fix import ProxyFix

from api import auth, idempotency
from api.analysis import analysis
from api.appeals import appeals
from api.broadcast import broadcast
from api.console import BLUEPRINTS as CONSOLE_BLUEPRINTS
from api.corrections import corrections
from api.errors import register_error_handlers
from api.openapi import docs
from api.pad import recording_pad
from api.resources import BLUEPRINTS
from api.retractions import retractions
from api.slips import slips
from api.standings import install as install_standings
from api.streams import streams
from api.tokens import tokens
from domain.services.fupan import Fupan
from replay_ui import BLUEPRINTS as VIEWER_BLUEPRINTS
from web import units


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. `config` keys (all optional):

    - `FUPAN_APPLICATION`: an existing Fupan to serve (the CLI and tests share one this way);
    - `FUPAN_DB`: path of the SQLite file;
    - `FUPAN_ENV`: eventsourcing environment variables (e.g. PERSISTENCE_MODULE=eventsourcing.postgres);
    - `MAX_CONTENT_LENGTH` (imports, default 16 MiB) and `FUPAN_MAX_BODY` (every other body, 256 KiB);
    - `FUPAN_AUTH_FAILURES` / `FUPAN_AUTH_ADDRESS_FAILURES` / `FUPAN_AUTH_WINDOW`: failed authentications
      allowed with one token from one client address (10), and from one address whatever the tokens (200), in
      a window of seconds (60) before 429 — per worker process (api/auth.py FailureLimiter); `FUPAN_AUTH_CLOCK`:
      the seconds clock of that window (time.monotonic; tests pass one they move by hand);
    - `FUPAN_VENUE_URL`: the address the referees' devices reach this server at, printed on the referee cards
      (default: the environment variable of that name, else the address each request came to);
    - `FUPAN_CORS_ORIGINS`: origins allowed to call the API from a browser (none by default);
    - `FUPAN_PROJECTION_POLL`: seconds between checks for events stored by other processes (0.02; 0: only
      when standings are read);
    - `FUPAN_PROXY_HOPS`: how many reverse proxies in front of the server set `X-Forwarded-For` / `-Proto`
      (default: the environment variable of that name, else 0). Only then is the client's address (the
      failed-login limit) and HTTPS (HSTS) taken from those headers; without a proxy they could be forged.

    Without any of them the process environment decides, falling back to ./fupan.sqlite.
    """
    config = dict(config or {})
    app = Flask(__name__, static_folder=None)  # none of its own: the pages serve theirs (replay_ui/shared/assets.py)
    app.response_class = TextSafeResponse
    # A whole tournament's records in one import (~5 KB a deal); other bodies are small (FUPAN_MAX_BODY).
    app.config.update(MAX_CONTENT_LENGTH=16 * 1024 * 1024, FUPAN_MAX_BODY=256 * 1024, FUPAN_CORS_ORIGINS=(),
                      FUPAN_AUTH_FAILURES=10, FUPAN_AUTH_ADDRESS_FAILURES=200, FUPAN_AUTH_WINDOW=60.0)
    app.config.update({k: v for k, v in config.items() if k != "FUPAN_APPLICATION"})
    app.config.setdefault("FUPAN_VENUE_URL", os.environ.get("FUPAN_VENUE_URL", ""))
    # Chinese names stay readable in responses; key order is the order we build (no sorting cost).
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    service = config.get("FUPAN_APPLICATION")
    if service is None:
        if config.get("FUPAN_DB"):
            service = Fupan.for_sqlite(str(config["FUPAN_DB"]))
        else:
            service = Fupan(env=config.get("FUPAN_ENV"))
    app.extensions["fupan"] = service
    register_error_handlers(app, anonymous=lambda: auth.current_principal().anonymous)
    # Flask runs request hooks in the order they are registered: a write's body is read before its unit takes
    # the lock, and the guard authenticates inside the unit (one look at the log for the token and the command).
    auth.install_body_limits(app)
    units.install(app)
    auth.install(app)
    idempotency.install(app)  # after the guard: the caller and the request's unit are known
    for blueprint in (*BLUEPRINTS, retractions, slips, corrections, tokens, docs, recording_pad, analysis,
                      *CONSOLE_BLUEPRINTS):
        app.register_blueprint(blueprint)
    app.register_blueprint(appeals)  # docs/appeals.md
    app.register_blueprint(broadcast)  # the public delay and the broadcast (直播)
    app.register_blueprint(streams)  # docs/streams.md
    auth.open_to_anyone(app, VIEWER_BLUEPRINTS)
    install_standings(app)  # the projections of `service` and their routes
    app.after_request(_security_headers)
    app.after_request(_cors)
    hops = int(config.get("FUPAN_PROXY_HOPS", os.environ.get("FUPAN_PROXY_HOPS", 0)))
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    return app


class TextSafeResponse(Response):
    """A response whose text is encoded even when it holds a lone surrogate: events stored before the API
    refused such text may still hold one (docs/SECURITY.md §6). It is sent as `\\ud800` — in JSON, where only
    a string can hold it, exactly its escape; in a page, visible as such — instead of failing the answer."""

    def set_data(self, value: bytes | str) -> None:
        super().set_data(value.encode("utf-8", "backslashreplace") if isinstance(value, str) else value)


# Pages may use only this server: scripts from files (no inline script, no eval), styles from files or
# inline (plotly styles its charts inline; that cannot fetch anything), images and data from here.
VIEWER_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
              "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
              "frame-ancestors 'none'")
# Everything else is data: nothing in it may load or run anything.
DATA_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}


def _security_headers(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)
    response.headers["Content-Security-Policy"] = VIEWER_CSP if response.mimetype == "text/html" else DATA_CSP
    if "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "no-store"  # live views and token answers must not sit in caches
    if request.is_secure:
        response.headers["Strict-Transport-Security"] = "max-age=31536000"
    return response


def _cors(response: Response) -> Response:
    """Closed by default: no Access-Control-* header unless the request's Origin is listed exactly. Tokens
    are sent as headers, never cookies, so credentials are never allowed."""
    allowed = current_app.config["FUPAN_CORS_ORIGINS"]
    if not allowed:
        return response
    response.vary.add("Origin")
    origin = request.headers.get("Origin")
    if origin in allowed:
        response.headers["Access-Control-Allow-Origin"] = origin
        if request.method == "OPTIONS":
            response.headers["Access-Control-Allow-Methods"] = "GET, POST"
            response.headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type, Idempotency-Key"
            response.headers["Access-Control-Max-Age"] = "600"
    return response
