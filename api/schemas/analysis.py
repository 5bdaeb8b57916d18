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


class VariationSchema(Schema):
    """A node of the board of variations: the deal's entries up to `step`, then `actions` instead."""

    step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    actions = fields.List(fields.Dict(), load_default=list)  # bounded by the body's size limit, as the sandbox's
    forced = fields.Boolean(load_default=False, metadata={"description": "play the passes nobody can avoid after "
                                                                         "the actions (the board does)"})
    list_plays = fields.Boolean(load_default=True, metadata={"description": "answer `plays` (as the appeal's "
                                                                            "sandbox takes it; here by default)"})


class VariationAnalysisSchema(Schema):
    step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    actions = fields.List(fields.Dict(), load_default=list)  # bounded by the body's size limit, as the sandbox's
    limit_ms = fields.Integer(load_default=2000, validate=validate.Range(min=1, max=10_000))


class VariationAnswerSchema(Schema):
    deal_id = fields.String(required=True)
    step = fields.Integer(required=True)
    actions = fields.List(fields.Dict(), required=True, metadata={
        "description": "the variation's stored forms, the passes played by themselves last"})
    forced = fields.Integer(required=True, metadata={"description": "how many of the last actions were passes "
                                                                    "nobody could avoid, played by the board"})
    status = fields.Dict(required=True, metadata={"description": "{phase, to_act, finished}"})
    view = fields.Dict(required=True, metadata={"description": "the referee's view at the node (every hand)"})
    plays = fields.List(fields.Dict(), allow_none=True, metadata={
        "description": "every distinct play of the seat to act, as the analysis lists them; null outside card "
                       "play or where the game has no analysis"})
    choices = fields.List(fields.Dict(), required=True, metadata={
        "description": "the seat to act's choices as the recording pad's (bids and the like, which have no analysis)"})
    scores = fields.List(fields.Integer(), allow_none=True, metadata={"description": "once the line ends"})
