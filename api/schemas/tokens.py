"""Access tokens (api/tokens.py, docs/SECURITY.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas.common import NAME
from domain.model.token import ROLES

# --- access tokens (api/tokens.py, docs/SECURITY.md) --------------------------------------------------


class TokenCreateSchema(Schema):
    role = fields.String(required=True, validate=validate.OneOf(ROLES),
                         metadata={"description": "over the API only `referee`; the others with `fupan token create`"})
    matches = fields.List(fields.String(validate=NAME), load_default=list,
                          metadata={"description": "match ids the referee token may record"})
    label = fields.String(load_default="", validate=validate.Length(max=200),
                          metadata={"description": "who holds it, e.g. 'table 3 scorer'"})


class RecorderSchema(Schema):
    role = fields.String(required=True)
    token_id = fields.String(allow_none=True, required=True)


class TokenSchema(Schema):
    id = fields.String(required=True)
    role = fields.String(required=True)
    matches = fields.List(fields.String(), required=True)
    label = fields.String(required=True)
    created_at = fields.String(required=True)
    created_by = fields.Nested(RecorderSchema, required=True)
    revoked = fields.Boolean(required=True)
    revoked_at = fields.String(allow_none=True)
    revoked_by = fields.Nested(RecorderSchema, allow_none=True)


class TokenCreatedSchema(Schema):
    token = fields.Nested(TokenSchema, required=True)
    bearer = fields.String(required=True, metadata={"description": "send as `Authorization: Bearer …`; shown once"})
