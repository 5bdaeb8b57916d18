"""Tables (matches): opening one, its deals and figures, clock readings, misdeals, closing, reopening and correcting
a scored deal (api/resources.py, api/corrections.py)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas.common import NAME, SIDE, STANDING

# --- matches ------------------------------------------------------------------------------------------


class MatchCreateSchema(Schema):
    table = fields.String(required=True, validate=NAME, metadata={"description": "table label; idempotency key"})
    seats = fields.List(fields.String(validate=NAME), required=True,
                        metadata={"description": "registered player ids in playing order"})
    first = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0),
                           metadata={"description": "first seat of deal 1 (斗地主: the first bidder, rotating one "
                                                    "seat per deal; 升级: dealt first in each 抢庄 deal, later "
                                                    "deals start from the dealer)"})
    options = fields.Dict(load_default=dict, metadata={"description": "overrides of the tournament's options"})
    round = fields.Integer(strict=True, validate=validate.Range(min=1),
                           metadata={"description": "the round it belongs to (default: the current round)"})


class MatchDealSchema(Schema):
    number = fields.Integer(required=True)
    deal_id = fields.String(required=True)
    first = fields.Integer(required=True)
    status = fields.String(required=True, metadata={"description": "live | finished"})
    scores = fields.List(fields.Integer(), allow_none=True)
    chips = fields.List(fields.Integer(), allow_none=True, metadata={"description": "chips after this deal"})
    standing = fields.Dict(allow_none=True, metadata={"description": "the standing after this deal"})
    corrected = fields.Dict(metadata={"description": "更正: {reason, was, facts, result, by, at, count}, when the "
                                                     "deal's facts were corrected (docs/corrections.md)"})


class ClockReadingSchema(Schema):
    minutes = fields.Integer(required=True)
    note = fields.String(required=True)
    time_up = fields.Boolean(required=True, metadata={"description": "this reading reached the time limit"})
    after_deal = fields.Integer(required=True, metadata={"description": "deals started when it was recorded"})


class MisdealSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "the seat that dealt"})
    note = fields.String(required=True)
    before_deal = fields.Integer(required=True, metadata={"description": "the number of the deal dealt again"})


class MatchSchema(Schema):
    id = fields.String(required=True)
    tournament_id = fields.String(required=True)
    table = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.String(), required=True)
    seat_names = fields.List(fields.String(), required=True)
    entries = fields.List(fields.Dict(), metadata={
        "description": "the pairs / teams at the table: [{name, department, seats}] (empty for single players)"})
    first = fields.Integer(required=True)
    start_chips = fields.Integer(allow_none=True, metadata={"description": "null for a game without chips"})
    chips = fields.List(fields.Integer(), allow_none=True)
    standing = fields.Dict(required=True, metadata={"description": STANDING})
    next_context = fields.Dict(allow_none=True, metadata={"description": "the context of the next deal"})
    status = fields.String(required=True, metadata={"description": "live | over"})
    winner = fields.Integer(allow_none=True, metadata={"description": SIDE})
    winners = fields.List(fields.Integer(), required=True, metadata={"description": "the winning seats"})
    ended_by = fields.String(allow_none=True, metadata={"description": "why the match ended (standing.end.by)"})
    closed_because = fields.String(allow_none=True, metadata={"description": "the organiser's reason, when "
                                                                              "ended_by is `closed`"})
    time_limit = fields.Integer(allow_none=True, metadata={"description": "minutes; null: no time cap"})
    time_up = fields.Boolean(required=True)
    clock = fields.List(fields.Nested(ClockReadingSchema), required=True)
    misdeals = fields.List(fields.Nested(MisdealSchema), required=True,
                           metadata={"description": "wrong card counts found while dealing; each was dealt again"})
    current_deal = fields.String(allow_none=True)
    deals = fields.List(fields.Nested(MatchDealSchema), required=True)
    version = fields.Integer(required=True)


class ClockCreateSchema(Schema):
    minutes = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=100_000),
                             metadata={"description": "minutes played on the match clock; at or past the game's "
                                                      "time limit this calls time"})
    note = fields.String(load_default="", validate=validate.Length(max=500))


class MisdealCreateSchema(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                          metadata={"description": "the seat that dealt the wrong number of cards"})
    note = fields.String(load_default="", validate=validate.Length(max=500))


class CloseMatchSchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500),
                           metadata={"description": "why the table ends now, e.g. 加赛已分出名次"})


# --- a closed table reopened, a pairing overridden (issue 23: tables that end early or short) -----------------


class ReopenMatchSchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500),
                           metadata={"description": "why the closed table takes deals again, e.g. 误点结束此桌"})


class CorrectionSchema(Schema):
    """A correction (更正) of a scored deal of the table: its facts as they should have been, and why
    (docs/corrections.md). The facts are the game's slip facts (docs/record-format.md "Result-only records")."""

    number = fields.Integer(required=True, strict=True, validate=validate.Range(min=1),
                            metadata={"description": "the table's deal number to correct"})
    facts = fields.Dict(required=True, metadata={"description": "the deal's facts as corrected, per game"})
    reason = fields.String(metadata={"description": "why (required to correct; 1–500 characters)"})


class CorrectionPreviewSchema(Schema):
    match_id = fields.String(required=True)
    number = fields.Integer(required=True)
    deal_id = fields.String(required=True)
    facts = fields.Dict(required=True, metadata={"description": "the facts as they would be stored"})
    result = fields.Dict(required=True, metadata={"description": "the result the corrected facts score"})
    was = fields.List(fields.Integer(), required=True, metadata={"description": "the deal's scores before"})
    standing = fields.Dict(required=True, metadata={"description": "the table's standing after the correction"})
