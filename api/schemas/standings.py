"""Standings, previews, rounds, adjustments, and the projections' rebuild and verify (api/standings.py)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.typed import schema_for
from domain.model.tournament import ADJUSTMENT_KINDS, ROUND_KINDS
from projections.rows import Placing, ProgressionRow, StandingsRow, TeamRow

# --- standings, previews, rounds, adjustments, rebuild and verify (api/standings.py) ------------------------


class StandingsQuerySchema(Schema):
    round = fields.Integer(validate=validate.Range(min=1), metadata={"description": "standings after this round"})
    as_of = fields.Integer(validate=validate.Range(min=0),
                           metadata={"description": "standings as of this notification id of the event log"})


class TiebreakSchema(Schema):
    code = fields.String(required=True)
    zh = fields.String(required=True)
    en = fields.String(required=True)
    higher_wins = fields.Boolean()


ProgressionRowSchema = schema_for(ProgressionRow, "ProgressionRowSchema")
_PlacingSchema = schema_for(Placing, "PlacingSchema")
RowSchema = schema_for(StandingsRow, "RowSchema")
TeamRowSchema = schema_for(TeamRow, "TeamRowSchema")


class ProgressionSchema(Schema):
    round = fields.Integer(required=True)
    label = fields.String(required=True)
    rows = fields.List(fields.Nested(ProgressionRowSchema), required=True)
    teams = fields.List(fields.Dict(), metadata={"description": "team formats: each entry's {entry, total, rank}"})


class _AnswerSchema(Schema):
    """What every standings answer starts with: its tournament and the point of the event log it reflects."""

    tournament_id = fields.String(required=True)
    as_of = fields.Integer(required=True, metadata={"description": "the notification id this answer reflects"})


class StandingsSchema(_AnswerSchema):
    name = fields.String()
    game = fields.String()
    format = fields.String(required=True, metadata={"description": "format code (GET /api/formats)"})
    format_name = fields.Dict(metadata={"description": "{zh, en}"})
    tiebreaks = fields.List(fields.Nested(TiebreakSchema), required=True,
                            metadata={"description": "declared at creation, in the order they apply"})
    total_measure = fields.Dict(metadata={"description": "what `total` is: {code, zh, en}"})
    lots_seed = fields.String(metadata={"description": "the recorded seed lots are drawn from"})
    round = fields.Integer(allow_none=True, metadata={"description": "the round asked for, if any"})
    rounds = fields.List(fields.Dict())
    rows = fields.List(fields.Nested(RowSchema), required=True)
    tables = fields.List(fields.Dict(), metadata={"description": "every table's result: totals, ranking, advancing"})
    progression = fields.List(fields.Nested(ProgressionSchema), required=True)
    directions = fields.List(fields.Dict(), metadata={
        "description": "formats with directions (S004: E-W and N-S): each direction's pairs ranked among themselves, "
                       "{code, zh, en, seats, rows: [{rank, player_ids, names, match_id, table, total, "
                       "tiebreak_values, status}]}"})
    teams = fields.List(fields.Nested(TeamRowSchema), metadata={
        "description": "team formats with entries: the entries (teams, pairs) ranked as entries"})


class ExplainSchema(_AnswerSchema, _PlacingSchema):
    game = fields.String()
    format = fields.String(required=True)
    format_name = fields.Dict(metadata={"description": "{zh, en}"})
    total_measure = fields.Dict(metadata={"description": "what `total` is: {code, zh, en}"})
    lots_seed = fields.String(metadata={"description": "the recorded seed lots are drawn from"})
    number = fields.Integer(metadata={"description": "entrant number (registration order)"})
    entry = fields.String(metadata={"description": "the pair or team the player entered with (team formats)"})
    department = fields.String(metadata={"description": "部门: the department the player or their entry entered for"})
    withdrawn = fields.Dict(metadata={"description": "the player withdrew: {round, reason} (paired no more)"})
    tiebreaks = fields.List(fields.Nested(TiebreakSchema))
    round = fields.Integer(allow_none=True)
    total_explained = fields.Dict(required=True, metadata={"description": "start chips + deals + adjustments"})
    tiebreak_values = fields.List(fields.Dict(), required=True, metadata={"description": "each with its rule"})
    matches = fields.List(fields.Dict(), required=True,
                          metadata={"description": "tables → deals (score, facts, result) → the stored events "
                                                   "(aggregate, id, version, type, recorded_by, time)"})
    adjustments = fields.List(fields.Dict(), required=True,
                              metadata={"description": "penalties and adjustments: who recorded them and why"})


class AdjustmentSchema(Schema):
    player_id = fields.String(required=True)
    points = fields.Integer(required=True, strict=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    kind = fields.String(load_default="adjustment", validate=validate.OneOf(ADJUSTMENT_KINDS))
    round = fields.Integer(strict=True, validate=validate.Range(min=1),
                           metadata={"description": "the round it applies from (default: the current one)"})
    refers_to = fields.Dict(allow_none=True,
                            metadata={"description": "{deal_id, version}: the recorded event a ruling concerns"})


class PreviewInSchema(Schema):
    adjustments = fields.List(fields.Nested(AdjustmentSchema), required=True, validate=validate.Length(min=1))
    round = fields.Integer(strict=True, validate=validate.Range(min=1))


class PreviewSchema(_AnswerSchema):
    adjustments = fields.List(fields.Dict(), required=True)
    before = fields.Nested(StandingsSchema, required=True)
    after = fields.Nested(StandingsSchema, required=True)
    changes = fields.List(fields.Dict(), required=True,
                          metadata={"description": "players whose rank, total, status or stage would change"})


class RoundInSchema(Schema):
    label = fields.String(load_default="", validate=validate.Length(max=200))
    kind = fields.String(load_default="tables", validate=validate.OneOf(ROUND_KINDS))


class RoundSchema(Schema):
    round = fields.Integer(required=True)
    label = fields.String(required=True)
    kind = fields.String(required=True)


class RecordedAdjustmentSchema(AdjustmentSchema):
    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the tournament's version: its event"})


class _ProjectionsRunSchema(Schema):
    """A replay of the whole log into read models: where it ended, how long it took, what it holds."""

    position = fields.Integer(required=True)
    seconds = fields.Float(required=True)
    tournaments = fields.Integer(required=True)
    deals = fields.Integer(required=True)


class ProjectionsRebuildSchema(_ProjectionsRunSchema):
    notifications = fields.Integer(required=True, metadata={"description": "notifications replayed"})


class ProjectionsVerifySchema(_ProjectionsRunSchema):
    ok = fields.Boolean(required=True)
    difference = fields.Dict(allow_none=True, metadata={"description": "the first difference: table, key, column"})
