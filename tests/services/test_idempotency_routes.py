"""An idempotency key names one request: its method, its route and its body (domain/model/idempotent_request.py,
docs/SECURITY.md §6a). The same body under the same key to another route is another request, refused as the
documented conflict (409 `idempotency_conflict`) with nothing stored — never answered with the first route's
stored answer (issue 26: a comparison that ignored the route survived test_idempotency.py, which sent another
body as well)."""

from __future__ import annotations

import json

from conftest import EXAMPLE_RECORD, LiveServer
from test_idempotency import actions_stored, new_deal

ACTION = EXAMPLE_RECORD["actions"][0]  # legal as the first action of any deal of the example's hands


def send(server: LiveServer, path: str, body: bytes, key: str):
    """POST these exact bytes as the organiser under `key` (the body's digest is part of the request)."""
    return server.post(path, data=body, headers={"Content-Type": "application/json", "Idempotency-Key": key})


def test_the_same_body_under_the_same_key_to_another_route_is_refused_as_a_conflict(server: LiveServer):
    _, first_deal = new_deal(server, table="1")
    _, other_deal = new_deal(server, table="2")
    body = json.dumps({"action": ACTION}).encode()
    first = send(server, f"/api/deals/{first_deal}/actions", body, "tap-route")
    assert first.status_code == 201, first.text

    elsewhere = send(server, f"/api/deals/{other_deal}/actions", body, "tap-route")
    assert elsewhere.status_code == 409, elsewhere.text
    error = elsewhere.json()["error"]
    assert error["code"] == "idempotency_conflict" and error["message_zh"]
    assert "Idempotent-Replayed" not in elsewhere.headers
    assert (actions_stored(server, first_deal), actions_stored(server, other_deal)) == (1, 0)

    # The refusal is the key's alone: under a key of its own the same body is that route's first request; and the
    # first route still answers its stored answer under the old key.
    assert send(server, f"/api/deals/{other_deal}/actions", body, "tap-route-2").status_code == 201
    again = send(server, f"/api/deals/{first_deal}/actions", body, "tap-route")
    assert (again.status_code, again.json()) == (201, first.json()) and again.headers["Idempotent-Replayed"] == "true"
    assert (actions_stored(server, first_deal), actions_stored(server, other_deal)) == (1, 1)
