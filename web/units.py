"""One request, one way of running beside the process's other requests (docs/ARCHITECTURE.md "Units of work"):
a request middleware.

A write is one unit of the service (`Requests.open`, domain/services/idempotency.py): its authentication, the
referee's scope, its idempotency key and its command share the unit and its one look at the notification log;
the unit opens before the access guard (api/auth.py) asks who is calling and closes when the request is torn
down, whatever the answer. A write to one deal (its route names the deal, or it starts a new one) locks that
deal and what else it changes, so writes to other deals go on beside it; any other write runs alone.

A read (GET, HEAD, OPTIONS, or a POST marked `stores_nothing`) opens no unit here: each query opens its own,
which reads the last committed state (`Store.reading`) and waits for no write.

The body is read before the unit (api/auth.py `admit_body`): on slow wifi an upload must not hold a unit that
other writes wait for.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from flask import Flask, current_app, g, request

from api.auth import SAFE_METHODS

# Writes that change one deal and what belongs to it (its table's standing at its end, its appeal): they name
# the deal in their route, or make a new one (whose id no other request can hold yet).
NEW_DEAL_ENDPOINTS = frozenset({"deals.start_deal"})


def _writes_to() -> Sequence[UUID] | None:
    """The deal this write changes ([] for a new one), or None: the write runs alone."""
    deal = (request.view_args or {}).get("deal_id")
    if deal is not None:
        try:
            return [UUID(str(deal))]
        except ValueError:
            return None  # no such deal: it is refused, alone
    return [] if request.endpoint in NEW_DEAL_ENDPOINTS else None


def _open_unit() -> None:
    if request.routing_exception is not None:
        return  # Flask answers 404/405 itself
    fupan = current_app.extensions["fupan"]
    view = current_app.view_functions.get(request.endpoint or "")
    if request.method in SAFE_METHODS or getattr(view, "stores_nothing", False):
        # A POST that only computes (api.common.stores_nothing: an analysis may search for seconds) must not
        # hold a deal, or every deal, while it does.
        reading = fupan.store.reading()
        reading.__enter__()
        g.fupan_reading = reading
        return
    # The stored request an Idempotency-Key names is looked for with the unit's synchronisation (api/idempotency.py).
    probe = current_app.extensions.get("fupan.unit_probe")
    unit = fupan.requests.open(probe() if probe is not None else (), _writes_to())
    unit.__enter__()
    g.fupan_unit = unit


def _close_unit(error: BaseException | None) -> None:
    unit = g.pop("fupan_unit", None)
    if unit is not None:
        unit.__exit__(None, None, None)  # the view's own commands already handled its exceptions
    reading = g.pop("fupan_reading", None)
    if reading is not None:
        reading.__exit__(None, None, None)


def install(app: Flask) -> None:
    """Register after `api.auth.admit_body` and before the access guard (`api.auth.install`): Flask runs the
    request hooks in the order they are registered."""
    app.before_request(_open_unit)
    app.teardown_request(_close_unit)
