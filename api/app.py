"""The Flask app factory: one FupanApplication per process, shared by every request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from api.errors import register_error_handlers
from api.openapi import docs
from api.resources import BLUEPRINTS
from domain.application import FupanApplication
from replay_ui import BLUEPRINTS as VIEWER_BLUEPRINTS


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. `config` keys (all optional):

    - `FUPAN_APPLICATION`: an existing FupanApplication to serve (the CLI and tests share one this way);
    - `FUPAN_DB`: path of the SQLite file;
    - `FUPAN_ENV`: eventsourcing environment variables (e.g. PERSISTENCE_MODULE=eventsourcing.postgres).

    Without any of them the process environment decides, falling back to ./fupan.sqlite.
    """
    config = dict(config or {})
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=64 * 1024 * 1024)  # a whole tournament's records in one import
    app.config.update({k: v for k, v in config.items() if k != "FUPAN_APPLICATION"})
    # Chinese names stay readable in responses; key order is the order we build (no sorting cost).
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    service = config.get("FUPAN_APPLICATION")
    if service is None:
        if config.get("FUPAN_DB"):
            service = FupanApplication.for_sqlite(str(config["FUPAN_DB"]))
        else:
            service = FupanApplication(env=config.get("FUPAN_ENV"))
    app.extensions["fupan"] = service
    register_error_handlers(app)
    for blueprint in (*BLUEPRINTS, docs, *VIEWER_BLUEPRINTS):
        app.register_blueprint(blueprint)
    return app
