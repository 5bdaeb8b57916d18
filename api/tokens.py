"""/api/tokens: an organiser issues, lists and revokes referee tokens over HTTP.

Organiser, appeals and commentator tokens are issued and revoked only with `fupan token …` on the server (the CLI has
the store, so it is trusted): a leaked organiser token then cannot mint a lasting organiser token for its
thief, nor revoke the organisers' own. Who issued and who revoked each token is in its events and listing.
"""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import ORGANISER_ONLY, current_principal, requires
from api.common import doc, json_body, load, reply, service
from domain.kernel.errors import Forbidden
from domain.model.token import REFEREE

TOKEN_IN, TOKEN, TOKEN_CREATED = s.TokenCreateSchema(), s.TokenSchema(), s.TokenCreatedSchema()

tokens = Blueprint("tokens", __name__, url_prefix="/api/tokens")


def _referee_only(role: str) -> None:
    if role != REFEREE:
        raise Forbidden(
            "cli_only",
            "Over the API an organiser manages referee tokens only; the others are managed on the server "
            "(fupan token).",
            "通过 API 只能管理裁判令牌；其他令牌请在服务器上管理（fupan token）。",
            {"role": role},
        )


@tokens.post("")
@requires(ORGANISER_ONLY)
@doc("Issue a referee token scoped to matches; the bearer token is in this answer only", body=TOKEN_IN,
     response=TOKEN_CREATED, status=201, errors=(400, 422))
def create_token() -> tuple[Response, int]:
    body = load(TOKEN_IN, json_body())
    _referee_only(body["role"])
    token, bearer = service().tokens.create(body["role"], body["matches"], body["label"],
                                            recorded_by=current_principal().recorded_by)
    return reply(TOKEN_CREATED, {"token": token, "bearer": bearer}, 201)


@tokens.get("")
@requires(ORGANISER_ONLY)
@doc("Every token: role, matches, label, who issued and who revoked it (never a secret)",
     response=s.TokenSchema(many=True))
def list_tokens() -> tuple[Response, int]:
    return reply(TOKEN, service().tokens.all(), many=True)


@tokens.post("/<token_id>/revoke")
@requires(ORGANISER_ONLY)
@doc("Revoke a referee token (again: no change)", response=TOKEN, errors=(404,))
def revoke_token(token_id: str) -> tuple[Response, int]:
    _referee_only(service().tokens.get(token_id)["role"])
    token, _ = service().tokens.revoke(token_id, recorded_by=current_principal().recorded_by)
    return reply(TOKEN, token)
