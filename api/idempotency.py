"""The `Idempotency-Key` request header on every write (docs/SECURITY.md §6a; domain/model/idempotent_request.py).

A write (any POST) carrying `Idempotency-Key: <1–255 visible ASCII characters>` is remembered per caller
(its token) and key:

- the first request runs as usual, except that its unit holds what it writes until its answer (status and
  body) is built: the write, the key and the answer are then stored in one transaction (or none of them);
- the same key again with the same method, path and body answers that first answer — the same status and
  body, with `Idempotent-Replayed: true` — and stores nothing new, in whichever server process it arrives;
- the same key with another body or route is 409 `idempotency_conflict`, and stores nothing;
- two processes answering the same key at once cannot both store: the later save is refused whole and it
  answers the first one's stored answer (a key stored by an older version without its answer, whose worker
  died before answering, is 409 `idempotency_pending`).

Refusals: a refusal that judged the request itself (400, 403, 404, 422 …) is kept, so a retry of a refused
request gets the same refusal and cannot store anything later; a 409 (a stale version, a write that lost a
race) or a 5xx stored nothing and is not kept, so the same key may be tried again. A request refused before
it reached the key — 401, 403 by the access guard, 413, 429 — keeps nothing either. An anonymous caller's key
is ignored: the public writes nothing (it may only ask for previews), and one anonymous caller must not read
another's answer. Secrets are never kept: a token's `bearer` is answered once; a replay of a token creation
answers the same token with `"bearer": null`, of a referee card with its `token` and `token_qr` null. A view
names the fields of its answer that carry or encode a secret (`answered_once`); besides, any text in a kept
answer that holds a bearer token is kept as null, so a view that forgets to name one stores no usable token.
"""

from __future__ import annotations

import json
import re
from typing import Any
from uuid import UUID

from flask import Flask, Response, current_app, g, request

from api.auth import SAFE_METHODS, current_principal
from api.errors import error_response
from domain.kernel.errors import Conflict
from domain.model.idempotent_request import MAX_KEY, IdempotentRequest, check_key, request_id
from domain.model.token import parse_token

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
SECRET_FIELDS = ("bearer",)  # answered once, never stored
# A bearer token's text (domain/model/token.py `fupan_<id>_<secret>`), wherever it sits in an answer.
BEARER_TEXT = re.compile(r"fupan_[0-9a-f]{32}_[A-Za-z0-9_-]{16,}")


def answered_once(*fields: str) -> None:
    """The fields of this request's answer that carry a secret or encode one (a QR image of a token): a resend
    under the same key answers them null, and they are never stored (docs/SECURITY.md §6a)."""
    g.fupan_secret_fields = (*g.get("fupan_secret_fields", ()), *fields)


def _begin() -> Response | None:
    """After the access guard (the request's unit is open, the caller known): a replay, or note the first."""
    key = request.headers.get(HEADER)
    principal = current_principal()
    if key is None or request.method in SAFE_METHODS or principal.anonymous or principal.token_id is None:
        return None
    requests = current_app.extensions["fupan"].requests
    stored, first = requests.begin(principal.token_id, check_key(key), request.method,
                                   request.full_path.rstrip("?"), request.get_data(), principal.recorded_by,
                                   (request.view_args or {}).get("deal_id"))
    if first:
        g.fupan_idempotent = stored
        return None
    return _replay(stored.answer)  # type: ignore[arg-type]


def _probe() -> tuple[UUID, ...]:
    """The stored request this write's key would name, for the request's unit to look for at its start (one
    round trip with the unit's synchronisation, Store.unit): the caller's token id is in its bearer token, so
    it is known before the token is checked (a wrong token is refused before the key is looked at)."""
    key, header = request.headers.get(HEADER), request.headers.get("Authorization", "")
    parsed = parse_token(header.partition(" ")[2].strip()) if key is not None else None
    if parsed is None or not 0 < len(key) <= MAX_KEY:  # type: ignore[arg-type]
        return ()
    return (request_id(str(parsed[0]), key),)  # type: ignore[arg-type]


def _replay(answer: dict[str, Any]) -> Response:
    response = Response(answer["body"], status=answer["status"], mimetype=answer["content_type"])
    response.headers[REPLAYED] = "true"
    return response


def _without_secrets(value: Any, fields: tuple[str, ...]) -> Any:
    if isinstance(value, dict):
        return {k: (None if k in fields else _without_secrets(v, fields)) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_secrets(item, fields) for item in value]
    if isinstance(value, str) and BEARER_TEXT.search(value):
        return None
    return value


def _kept_body(response: Response) -> str:
    """The answer as it may be stored: every secret, named or found, blanked."""
    text = response.get_data(as_text=True)
    if response.is_json:
        fields = (*SECRET_FIELDS, *g.get("fupan_secret_fields", ()))
        # Most answers (every recorded action) name no secret field and hold no token: kept as they are, without
        # parsing them again. A field's name and a token's characters are never escaped in our JSON.
        if not BEARER_TEXT.search(text) and not any(f'"{field}"' in text for field in fields):
            return text
        payload = json.loads(text)
        kept = _without_secrets(payload, fields)
        # Unchanged, the answer is kept byte for byte (a resend must answer exactly what the first got).
        return text if kept == payload else json.dumps(kept, ensure_ascii=False)
    return BEARER_TEXT.sub("", text)


def _finish(response: Response) -> Response:
    stored: IdempotentRequest | None = g.pop("fupan_idempotent", None)
    if stored is None:
        return response
    status = response.status_code
    keep = status < 500 and status != 409
    try:
        other = current_app.extensions["fupan"].requests.finish(stored, status, _kept_body(response),
                                                                response.mimetype or "application/json", keep,
                                                                request.get_data())
    except Conflict as lost:  # our write, key and answer were refused whole: nothing stored
        reply, status = error_response(409, lost.code, lost.message, lost.message_zh, lost.details)
        reply.status_code = status
        return reply
    if other is None:
        return response
    return _replay(other.answer)  # type: ignore[arg-type]


def install(app: Flask) -> None:
    """Register after the access guard (api/auth.py `install`), so the caller and the unit are there."""
    app.extensions["fupan.unit_probe"] = _probe
    app.before_request(_begin)
    app.after_request(_finish)
