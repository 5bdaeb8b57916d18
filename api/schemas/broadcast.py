"""The public delay of a tournament's live deals and the broadcast (api/broadcast.py, docs/SECURITY.md
"Broadcast delay")."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from domain.model.tournament import DELAY_LIMITS


class DelayInSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(tuple(DELAY_LIMITS)),
                         metadata={"description": "deals (局), tricks (墩, 升级 only) or minutes (分钟)"})
    amount = fields.Integer(required=True, strict=True,
                            metadata={"description": "deals 0–10 (0: no delay), tricks 1–24, minutes 1–180"})


class DelaySchema(Schema):
    tournament_id = fields.String(required=True)
    delay = fields.Dict(required=True, metadata={"description": "{kind, amount}; one deal unless set"})
    version = fields.Integer(required=True)


class BroadcastSchema(Schema):
    class Meta:
        unknown = INCLUDE

    tournament_id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    delay = fields.Dict(required=True)
    tables = fields.List(fields.Dict(), required=True,
                         metadata={"description": "each table: match_id, table, round, names, status, standing, "
                                                  "chips, deals (number, deal_id, status)"})


class FollowedTableSchema(Schema):
    class Meta:
        unknown = INCLUDE

    match_id = fields.String(required=True)
    table = fields.String(required=True)
    seat_names = fields.List(fields.String(), required=True)
    status = fields.String(required=True)
    standing = fields.Dict(required=True)
    following = fields.Dict(allow_none=True, required=True,
                            metadata={"description": "the newest deal the caller may see anything of: its replay "
                                                     "frames under the delay, and its number"})
    held = fields.List(fields.Dict(), required=True,
                       metadata={"description": "newer deals held back whole by the delay: number, steps recorded"})


class StreamQuerySchema(Schema):
    """A deal's or a table's stream: the viewpoint its `deal` events are computed for (the replay API's)."""

    viewpoint = fields.String(load_default="public", validate=validate.Regexp(r"^(referee|public|seat:\d{1,2})$"),
                              metadata={"description": "public (default) | seat:N | referee"})
