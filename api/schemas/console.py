"""The organiser console's bodies and queries (api/console.py, docs/console.md): entries, the draw, a round's
tables, an organiser's pairing override, removals, withdrawals and side events."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from domain.model.side_events import GAMES as SIDE_GAMES

_NAME = validate.Length(min=1, max=200)


class MemberSchema(Schema):
    name = fields.String(required=True, validate=_NAME)
    id = fields.String(validate=_NAME, metadata={"description": "player id (default: the name)"})


class EntrySchema(Schema):
    name = fields.String(required=True, validate=_NAME, metadata={"description": "the player's, pair's or team's"})
    department = fields.String(load_default="", validate=validate.Length(max=200), metadata={"description": "部门"})
    members = fields.List(fields.Nested(MemberSchema), required=True, validate=validate.Length(min=1, max=10))


class EntriesInSchema(Schema):
    entries = fields.List(fields.Nested(EntrySchema), validate=validate.Length(min=1, max=2000))
    text = fields.String(validate=validate.Length(min=1, max=200_000), metadata={
        "description": "a pasted list or a CSV file: one entry a line (docs/console.md)"})


class DrawQuerySchema(Schema):
    method = fields.String(load_default="", validate=validate.OneOf(["", "swiss", "order", "lot"]), metadata={
        "description": "knockout round 1: `order` (现场分组, the default) or `lot`; Swiss formats always pair"})
    apart = fields.Boolean(load_default=False, metadata={
        "description": "knockout round 1: keep two entries of one department (部门) apart where they can be "
                       "(off by default: the seeds draw by lot)"})


class TableInSchema(Schema):
    table = fields.String(required=True, validate=_NAME)
    seats = fields.List(fields.String(validate=_NAME), required=True)
    first = fields.Integer(load_default=0, strict=True)
    options = fields.Dict(load_default=dict)


class RoundTablesInSchema(Schema):
    label = fields.String(load_default="", validate=validate.Length(max=200))
    kind = fields.String(load_default="tables", validate=validate.OneOf(["tables", "final", "playoff"]))
    tables = fields.List(fields.Nested(TableInSchema), required=True, validate=validate.Length(min=1, max=500))
    byes = fields.List(fields.String(validate=_NAME), load_default=list)
    override = fields.Nested(
        "OverrideInSchema", load_default=None,
        metadata={"description": "a Swiss round opened with other tables or byes than proposed: why "
                  "(docs/pairing.md \"The organiser's override\"); refused without it"})


class OverrideInSchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class PairingCheckInSchema(Schema):
    tables = fields.List(fields.List(fields.String(validate=_NAME)), required=True,
                         validate=validate.Length(min=1, max=500),
                         metadata={"description": "each table's player ids in seat order"})
    byes = fields.List(fields.String(validate=_NAME), load_default=list)


class RemovalInSchema(Schema):
    name = fields.String(required=True, validate=_NAME, metadata={"description": "the entry's name (a player's, a "
                                                                                  "pair's or a team's)"})
    reason = fields.String(load_default="", validate=validate.Length(max=2000))


class WithdrawalInSchema(Schema):
    player_id = fields.String(required=True, validate=_NAME)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class SideEventInSchema(Schema):
    key = fields.String(required=True, validate=validate.Length(min=1, max=60))
    game = fields.String(required=True, validate=validate.OneOf(sorted(SIDE_GAMES)))
    name = fields.String(required=True, validate=_NAME)
    entrants = fields.List(fields.String(validate=_NAME), validate=validate.Length(min=2, max=1000))
    text = fields.String(validate=validate.Length(min=1, max=100_000),
                         metadata={"description": "the entrants one a line, numbered in this order (现场分组)"})
    table_size = fields.Integer(load_default=2, strict=True)
    advance = fields.Integer(load_default=1, strict=True)


class SideResultInSchema(Schema):
    round = fields.Integer(required=True, strict=True)
    table = fields.Integer(required=True, strict=True)
    placing = fields.List(fields.String(validate=_NAME), required=True, validate=validate.Length(min=2, max=6),
                          metadata={"description": "the table's players, first place first"})
