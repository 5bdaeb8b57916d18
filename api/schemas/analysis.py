"""Double-dummy analysis of a deal (api/analysis.py, docs/analysis.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

# --- analysis (docs/analysis.md) ---------------------------------------------------------------------


class AnalysisQuerySchema(Schema):
    step = fields.Integer(validate=validate.Range(min=0), metadata={"description": "actions applied (default: all)"})
    limit_ms = fields.Integer(load_default=2000, validate=validate.Range(min=1, max=10_000),
                              metadata={"description": "time budget; beyond it the answer is too_large"})


class AnalysisMoveSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": "as the record format writes it"})
    wins = fields.Boolean(metadata={"description": "the mover's side still wins after it (shedding games)"})
    points = fields.Integer(metadata={"description": "升级: the most points the attackers still take after it"})


class AnalysisSchema(Schema):
    """Perfect open-hand play at a step: every legal play of the seat to act with its verdict and one line; or
    `too_large` (beyond the budget), or `not_in_play` (no card play at this step: bidding, burying, the end)."""

    deal_id = fields.String(required=True)
    step = fields.Integer(required=True)
    to_act = fields.Integer()
    side = fields.String(metadata={"description": "the side of the seat to act, as the game's result names it"})
    side_wins = fields.Boolean()
    points = fields.Integer(metadata={"description": "升级: the attackers' points under perfect play"})
    moves = fields.List(fields.Nested(AnalysisMoveSchema))
    line = fields.List(fields.Dict(), metadata={"description": "actions of one line of best play, to the end"})
    too_large = fields.Boolean()
    partial = fields.Boolean(metadata={"description": "the verdict is proven, the plays in `unproven` were not "
                                                      "settled within the budget"})
    unproven = fields.List(fields.Dict(), metadata={"description": "plays (as actions) whose verdict the budget "
                                                                   "did not settle; `moves` lists the settled ones"})
    line_complete = fields.Boolean(metadata={"description": "false: the budget ran out before `line` reached the "
                                                            "end of the deal (the line so far is proven)"})
    not_in_play = fields.Boolean()
    phase = fields.String()
    nodes = fields.Integer(required=True)
    ms = fields.Float(required=True)
