"""One write request, one unit of the service (`Requests.open`, domain/services/idempotency.py): a request middleware.

A write's authentication, the referee's scope, its idempotency key and its command share the unit's lock and its
one look at the notification log; the unit opens before the access guard (api/auth.py) asks who is calling and
closes when the request is torn down, whatever the answer. Reads open no unit here: each query opens its own.
The body is read before the unit (api/auth.py `admit_body`): on slow wifi an upload must not hold the lock that
every other table's writes wait for.
"""

from __future__ import annotations

from flask import Flask, current_app, g, request

from api.auth import SAFE_METHODS


def _open_unit() -> None:
    if request.routing_exception is not None or request.method in SAFE_METHODS:
        return  # Flask answers 404/405 and CORS preflights itself; a read opens its own units
    # The stored request an Idempotency-Key names is looked for with the unit's synchronisation (api/idempotency.py).
    probe = current_app.extensions.get("fupan.unit_probe")
    unit = current_app.extensions["fupan"].requests.open(probe() if probe is not None else ())
    unit.__enter__()
    g.fupan_unit = unit


def _close_unit(error: BaseException | None) -> None:
    unit = g.pop("fupan_unit", None)
    if unit is not None:
        unit.__exit__(None, None, None)  # the view's own commands already handled its exceptions


def install(app: Flask) -> None:
    """Register after `api.auth.admit_body` and before the access guard (`api.auth.install`): Flask runs the
    request hooks in the order they are registered."""
    app.before_request(_open_unit)
    app.teardown_request(_close_unit)
