"""Appeals: their rules, filing, evidence, lines, rulings, decisions and the other side's response (api/appeals.py,
docs/appeals.md)."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from api.schemas.analysis import AnalysisSchema
from api.schemas.deals import ReplayAllQuerySchema
from api.schemas.standings import PreviewSchema
from domain.records.annotations import TEXT_LIMIT

# --- appeals (api/appeals.py, docs/appeals.md) ---------------------------------------------------------------


class AppealRulesSchema(Schema):
    """A tournament's appeal settings."""

    deadline_minutes = fields.Integer(load_default=30, strict=True, validate=validate.Range(min=0, max=1440),
                                      metadata={"description": "minutes after the table's last deal (default 30)"})
    chief_referees = fields.List(fields.String(), load_default=list, validate=validate.Length(max=50),
                                 metadata={"description": "referee token ids the organiser names chief referees"})


class AppealRulesAnswerSchema(AppealRulesSchema):
    tournament_id = fields.String(required=True)


class AppealAgainstSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(("deal", "result", "ruling", "penalty")))
    deal_id = fields.String(allow_none=True)
    step = fields.Integer(strict=True, allow_none=True, metadata={"description": "the judged step (the viewer's)"})
    version = fields.Integer(strict=True, metadata={"description": "a ruling: the deal event that records it"})
    adjustment_version = fields.Integer(strict=True, metadata={"description": "a penalty: its Tournament.Adjusted"})


class AppealFileSchema(Schema):
    against = fields.Nested(AppealAgainstSchema, required=True)
    category = fields.String(required=True, validate=validate.OneOf(
        ("rules_misapplied", "irregularity", "scoring_error", "conduct")))
    statement = fields.String(required=True, validate=validate.Length(min=1, max=TEXT_LIMIT))
    on_behalf_of = fields.List(fields.String(), load_default=list, validate=validate.Length(max=12),
                               metadata={"description": "the players (a team: all of them) the appeal is for"})
    accept_late = fields.String(validate=validate.Length(min=1, max=500),
                                metadata={"description": "the chief referee accepts a late filing, for this reason"})


class AppealEvidenceSchema(Schema):
    reference = fields.Dict(allow_none=True, load_default=None,
                            metadata={"description": "{deal_id, step, viewpoint}: a place in the viewer"})
    note = fields.String(load_default="", validate=validate.Length(max=TEXT_LIMIT))


class AppealLineSchema(Schema):
    """A what-if line: from a step of the disputed deal, these actions instead, to the end."""

    from_step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                               metadata={"description": "the viewer's step the line leaves the deal at"})
    actions = fields.List(fields.Dict(), required=True, validate=validate.Length(max=300),
                          metadata={"description": "actions as recorded (docs/record-format.md)"})
    label = fields.String(load_default="", validate=validate.Length(max=200))
    complete = fields.Boolean(load_default=False, metadata={
        "description": "after `actions`, the solver's best play to the deal's end (domain/solver)"})


class AppealOutcomeSchema(Schema):
    """stands | assigned {scores} | weighted {parts: [{weight, scores, label}]} | void | penalty {player_ids,
    points}; checked by domain/model/appeal.py."""

    class Meta:
        unknown = INCLUDE

    kind = fields.String(required=True, validate=validate.OneOf(("stands", "assigned", "weighted", "void", "penalty")))


class AppealRulingSchema(Schema):
    outcome = fields.Nested(AppealOutcomeSchema, required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=TEXT_LIMIT))


class AppealDecisionSchema(AppealRulingSchema):
    members = fields.List(fields.String(validate=validate.Length(min=1, max=100)), required=True,
                          validate=validate.Length(min=3, max=15))
    vote = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), required=True,
                       metadata={"description": "{for, against, abstain}"})


class AppealRedealSchema(Schema):
    """Nothing to say: the voided deal's seats, first seat and context decide the new deal (`{}`)."""


class AppealReasonSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=TEXT_LIMIT))


class AppealCloseSchema(Schema):
    note = fields.String(load_default="", validate=validate.Length(max=TEXT_LIMIT))


class AppealPreviewSchema(Schema):
    outcome = fields.Nested(AppealOutcomeSchema, required=True)


class AppealSchema(Schema):
    """An appeal (domain/model/appeal.py appeal_dict); `withheld` names what a reader without rights over a live deal
    does not get."""

    class Meta:
        unknown = INCLUDE

    appeal_id = fields.String(required=True)
    tournament_id = fields.String(required=True)
    match_id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    against = fields.Dict(required=True)
    category = fields.String(required=True)
    statement = fields.String(allow_none=True)
    on_behalf_of = fields.List(fields.String())
    deadline = fields.Dict()
    late_acceptance = fields.Dict(allow_none=True)
    filed_by = fields.Dict()
    filed_at = fields.String()
    evidence = fields.List(fields.Dict())
    lines = fields.List(fields.Dict(), metadata={"description": "sandbox lines: from_step, actions, scores, label"})
    responses = fields.List(fields.Dict(), metadata={
        "description": "the other side's statements: {statement, on_behalf_of, by, at}"})
    ruling = fields.Dict(allow_none=True)
    decision = fields.Dict(allow_none=True)
    applied = fields.Dict(metadata={"description": "player → points this appeal's adjustments moved"})
    redeal = fields.Dict(allow_none=True, metadata={
        "description": "the voided deal dealt again: {deal_id, replaces, number, by, at, scores (once it ended)}"})
    digest = fields.String(allow_none=True)
    withheld = fields.List(fields.String())
    timeline = fields.List(fields.Dict())


class AppealListSchema(Schema):
    tournament_id = fields.String(required=True)
    appeals = fields.List(fields.Nested(AppealSchema), required=True)


class AppealImpactSchema(PreviewSchema):
    outcome = fields.Dict(required=True, metadata={"description": "the outcome as it would be stored"})
    table_end = fields.Dict(allow_none=True, metadata={
        "description": "set when the outcome would undo the table's end (a chip table's winner short of the target)"})


class AppealFramesQuerySchema(ReplayAllQuerySchema):
    reveal = fields.Boolean(load_default=False, metadata={"description": "true: the whole deal and its result"})


class AppealFramesSchema(Schema):
    class Meta:
        unknown = INCLUDE

    appeal_id = fields.String(required=True)
    blind = fields.Boolean(required=True)
    deal_id = fields.String(required=True)
    viewpoint = fields.String(required=True)
    judged_step = fields.Integer(metadata={"description": "blind: the last step shown, the one judged"})
    total = fields.Integer(metadata={"description": "revealed: every step"})
    closed = fields.Boolean()
    frames = fields.List(fields.Dict(), required=True)


# --- the other side's response


class AppealResponseSchema(Schema):
    """The other side's statement on an appeal (Appeal.ResponseRecorded)."""

    statement = fields.String(required=True, validate=validate.Length(min=1, max=TEXT_LIMIT))
    on_behalf_of = fields.List(fields.String(), load_default=list, validate=validate.Length(max=12),
                               metadata={"description": "the players who say it (none: the other side as a whole)"})


class SandboxSchema(Schema):
    """A line being built on the appeal's page: from a step of the disputed deal, the actions so far."""

    from_step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    # No count limit of its own: the body's size limit bounds it, and the engine refuses an action after the end.
    actions = fields.List(fields.Dict(), load_default=list)
    forced = fields.Boolean(load_default=False, metadata={
        "description": "play the passes nobody can avoid after the actions (the board of variations does)"})
    list_plays = fields.Boolean(load_default=False, metadata={
        "description": "answer `plays`, every distinct play of the seat to act (the board of variations)"})


class SandboxAnswerSchema(Schema):
    appeal_id = fields.String(required=True)
    deal_id = fields.String(required=True)
    from_step = fields.Integer(required=True)
    actions = fields.List(fields.Dict(), required=True, metadata={"description": "the line's stored forms"})
    status = fields.Dict(required=True, metadata={"description": "{phase, to_act, finished}"})
    view = fields.Dict(required=True, metadata={"description": "the referee's view after the line"})
    choices = fields.List(fields.Dict(), required=True, metadata={
        "description": "the seat to act's choices, as the recording pad's (GET /api/deals/<id>/pad): a play's "
                       "`cards` are those that may take part, chosen by the user and checked by the engine"})
    scores = fields.List(fields.Integer(), allow_none=True, metadata={"description": "the line's result, once it ends"})
    forced = fields.Integer(metadata={"description": "how many of the last actions were passes nobody could avoid, "
                                                     "played by the sandbox (`forced: true`)"})
    plays = fields.List(fields.Dict(), allow_none=True, metadata={
        "description": "with `list_plays`: every distinct play of the seat to act, as the analysis lists them; "
                       "null otherwise, outside card play, or where the game has no analysis"})


class LineAnalysisSchema(Schema):
    """A node of the appeal's board: the disputed deal's entries up to `from_step`, then `actions`."""

    from_step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    actions = fields.List(fields.Dict(), load_default=list)  # bounded by the body's size limit, as the sandbox's
    limit_ms = fields.Integer(load_default=2000, validate=validate.Range(min=1, max=10_000))


class LineAnalysisAnswerSchema(AnalysisSchema):
    """As AnalysisSchema, without `deal_id` and `step` (the result-blind board names neither)."""

    appeal_id = fields.String(required=True)
    from_step = fields.Integer(required=True)
    actions = fields.List(fields.Dict(), required=True, metadata={"description": "the line's stored forms"})
