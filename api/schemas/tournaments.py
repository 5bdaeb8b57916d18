"""Tournaments and their players (api/resources.py)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas.common import NAME

# --- tournaments and players --------------------------------------------------------------------------


class TournamentCreateSchema(Schema):
    name = fields.String(required=True, validate=NAME)
    game = fields.String(required=True, metadata={"description": "record-format game code (one per game)"})
    options = fields.Dict(load_default=dict, metadata={"description": "ruleset options; defaults filled in"})
    key = fields.String(validate=NAME, metadata={"description": "idempotency key (default: the name)"})
    format = fields.String(load_default="", metadata={"description": "format code (GET /api/formats); default: "
                                                                     "the game's"})
    tiebreaks = fields.List(fields.String(), load_default=list,
                            metadata={"description": "tiebreak codes in the order they apply; default: the format's"})
    lots_seed = fields.String(validate=validate.Length(min=1, max=200),
                              metadata={"description": "the seed lots are drawn from (default: random, recorded)"})
    department_limit = fields.Integer(strict=True, validate=validate.Range(min=1, max=1000), metadata={
        "description": "entries per department (部门) at most (seed 000: 2 teams; seed 002: 3 players); default none"})


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=NAME)
    id = fields.String(validate=NAME, metadata={"description": "player id (default: the name)"})


class PlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    tournament_id = fields.String()


class MatchRefSchema(Schema):
    id = fields.String(required=True)
    table = fields.String(required=True)
    round = fields.Integer()


class TournamentSchema(Schema):
    id = fields.String(required=True)
    key = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    matches = fields.List(fields.Nested(MatchRefSchema), required=True)
    version = fields.Integer(required=True)
    created_at = fields.String(required=True)
    format = fields.String(metadata={"description": "declared format code (empty: the game's default)"})
    tiebreaks = fields.List(fields.String(), metadata={"description": "declared tiebreak codes, in order"})
    lots_seed = fields.String()
    rounds = fields.List(fields.Dict(), metadata={"description": "started rounds: {round, label, kind}"})
    current_round = fields.Integer()
