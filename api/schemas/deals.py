"""Deals: starting one, its actions, retractions, score slips, annotations, its events, replay and verification
(api/resources.py, api/retractions.py, api/slips.py)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas.common import CARD, NAME, SIDE, STANDING
from api.typed import described_dict
from domain.kernel.values import DealResult
from domain.records.annotations import AUTHOR_LIMIT, GLYPHS, TEXT_LIMIT

# --- deals --------------------------------------------------------------------------------------------


class DealCreateSchema(Schema):
    hands = fields.List(fields.List(CARD), metadata={"description": "explicit hands, in the order received"})
    kitty = fields.List(CARD, metadata={"description": "explicit kitty (with `hands`)"})
    seed = fields.String(validate=validate.Length(min=1, max=200),
                         metadata={"description": "server dealing: the seed to shuffle with (random if absent)"})
    first = fields.Integer(strict=True, validate=validate.Range(min=0))
    number = fields.Integer(strict=True, validate=validate.Range(min=1),
                            metadata={"description": "deal number in the match; makes re-submission idempotent"})
    context = fields.Dict(metadata={"description": "in a match the match sets it; if given it must agree"})


class StandaloneDealCreateSchema(DealCreateSchema):
    game = fields.String(required=True)
    seats = fields.List(fields.String(validate=NAME), required=True)
    options = fields.Dict(load_default=dict)
    key = fields.String(validate=NAME, metadata={"description": "idempotency key"})
    context = fields.Dict(metadata={"description": "what the game's deal starts from (升级: levels, dealer)"})


class DealSchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.String(), required=True)
    first = fields.Integer(required=True)
    context = fields.Dict(required=True)
    match_id = fields.String(allow_none=True)
    number = fields.Integer(allow_none=True)
    status = fields.Dict(required=True, metadata={"description": "{phase, to_act, finished}"})
    finished = fields.Boolean(required=True)
    actions = fields.Integer(required=True, metadata={"description": "number of recorded actions"})
    version = fields.Integer(required=True, metadata={"description": "number of stored events"})
    result = described_dict(DealResult, allow_none=True)
    digest = fields.String(required=True, allow_none=True, metadata={
        "description": "running SHA-256 of the deal's events; null for a reader without rights while the deal is live"})
    seed_commitment = fields.String(allow_none=True, metadata={"description": "SHA-256 of the dealing seed"})
    seed = fields.String(allow_none=True, metadata={"description": "revealed when the deal is closed"})
    annotations = fields.List(fields.Dict(), required=True)
    created_at = fields.String(required=True)
    result_only = fields.Boolean(metadata={"description": "entered as a score slip (成绩单): no cards, no replay"})
    slip = fields.Dict(metadata={"description": "a result-only deal's facts, as checked (docs/record-format.md)"})
    replaces = fields.String(metadata={"description": "a voided deal dealt again: the deal it replaces (appeals)"})
    appeal_id = fields.String(metadata={"description": "a voided deal dealt again: the appeal that voided it"})


# The rules engine checks an action, all of it, once (domain.kernel.engine.Engine.normalize_action): its seat and type
# too, with the game's own refusal (422) rather than a second, generic check here.
_ACTION = ("one action as docs/record-format.md writes it: `seat` (0 …), `type` and the fields of its type "
           "(`cards`, `value`, `stage` …); the game's rules engine checks all of it (422 with the refusal's code)")


class RecordActionSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": _ACTION})
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1),
                                      metadata={"description": "refuse (409) unless the deal is at this version"})


class MatchProgressSchema(Schema):
    id = fields.String(required=True)
    chips = fields.List(fields.Integer(), allow_none=True)
    standing = fields.Dict(required=True, metadata={"description": STANDING})
    status = fields.String(required=True)
    winner = fields.Integer(allow_none=True, metadata={"description": SIDE})
    winners = fields.List(fields.Integer(), required=True)


class RecordedActionSchema(Schema):
    deal_id = fields.String(required=True)
    version = fields.Integer(required=True)
    step = fields.Integer(required=True)
    action = fields.Dict(required=True, metadata={"description": "the action as stored (normalised)"})
    status = fields.Dict(required=True)
    finished = fields.Boolean(required=True)
    result = described_dict(DealResult, allow_none=True)
    digest = fields.String(required=True)
    seed = fields.String(metadata={"description": "the revealed seed, when this action closed a dealt deal"})
    match = fields.Nested(MatchProgressSchema, metadata={"description": "the match's standing, when this action "
                                                                        "closed the deal"})


class RetractionCreateSchema(Schema):
    """Take back the last action still standing of a live deal (domain/records/retraction.py)."""

    at = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                        metadata={"description": "the index of the action taken back in the deal's entries (the "
                                                 "record's `actions`; the viewer's step minus 1)"})
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1),
                                      metadata={"description": "refuse (409) unless the deal is at this version"})


class RetractedSchema(RecordedActionSchema):
    retracted = fields.Dict(required=True, metadata={"description": "the action taken back, as it was stored"})


class SlipSchema(Schema):
    """A score slip for the table's next deal (domain/records/slips.py; each game's facts: docs/record-format.md)."""

    facts = fields.Dict(required=True, metadata={"description": "the facts that decide the score, per game"})
    number = fields.Integer(strict=True, validate=validate.Range(min=1),
                            metadata={"description": "refuse (409) unless this is the table's next deal number"})


class SlipPreviewSchema(Schema):
    match_id = fields.String(required=True)
    number = fields.Integer(required=True, metadata={"description": "the deal number the slip would be"})
    first = fields.Integer(required=True)
    context = fields.Dict(required=True)
    facts = fields.Dict(required=True, metadata={"description": "the facts as they would be stored"})
    result = fields.Dict(required=True, metadata={"description": "the result the game's scoring gives"})
    standing = fields.Dict(required=True, metadata={"description": "the table's standing after it"})


class SlipEnteredSchema(DealSchema):
    match = fields.Nested(MatchProgressSchema, required=True, metadata={"description": "the table after the slip"})


class AnnotationCreateSchema(Schema):
    """A comment at a step (domain/records/annotations.py checks the step against the deal, the glyph and the texts)."""

    step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                          metadata={"description": "the viewer's step: 0 = as dealt, k = after the k-th action"})
    glyph = fields.String(load_default="", metadata={"description": "one of " + " ".join(GLYPHS) + ", or empty"})
    text = fields.String(required=True, validate=validate.Length(min=1, max=TEXT_LIMIT),
                         metadata={"description": "the comment in Chinese"})
    text_en = fields.String(load_default="", validate=validate.Length(max=TEXT_LIMIT),
                            metadata={"description": "the comment in English (optional)"})
    author = fields.String(load_default="", validate=validate.Length(max=AUTHOR_LIMIT))
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1))


class AnnotationSchema(Schema):
    step = fields.Integer(required=True)
    glyph = fields.String(required=True)
    text = fields.String(required=True)
    text_en = fields.String(required=True)
    author = fields.String(required=True)


class AnnotatedSchema(Schema):
    deal_id = fields.String(required=True)
    version = fields.Integer(required=True)
    annotation = fields.Nested(AnnotationSchema, required=True)
    digest = fields.String(required=True)


class EventSchema(Schema):
    version = fields.Integer(required=True)
    time = fields.String(required=True)
    type = fields.String(required=True, metadata={"description": "e.g. Deal.ActionRecorded"})
    recorded_by = fields.Dict(required=True, metadata={"description": "{role, token_id}"})
    digest = fields.String(required=True, allow_none=True,
                           metadata={"description": "null for a reader without rights while the deal is live"})
    payload = fields.Dict(required=True)


class ReplayAllQuerySchema(Schema):
    viewpoint = fields.String(load_default="referee", validate=validate.Regexp(r"^(referee|public|seat:\d{1,2})$"),
                              metadata={"description": "referee | public | seat:N"})


class ReplayQuerySchema(ReplayAllQuerySchema):
    step = fields.Integer(validate=validate.Range(min=0), metadata={"description": "actions applied (default: all)"})


class ReplayFrameSchema(Schema):
    step = fields.Integer(required=True)
    action = fields.Dict(allow_none=True, metadata={"description": "the action that led to this step"})
    status = fields.Dict(required=True)
    annotations = fields.List(fields.Nested(AnnotationSchema), required=True)
    view = fields.Dict(required=True, metadata={"description": "the engine's view for the viewpoint"})
    retracted = fields.Dict(metadata={"description": "when this step's action was taken back later: {step (of the "
                                                     "retraction), reason (null until the deal is published, for "
                                                     "readers without rights), by (recorded_by)}"})


class _ReplayedSchema(Schema):
    """A deal replayed for one viewpoint: one step of it or all of them."""

    deal_id = fields.String(required=True)
    total = fields.Integer(required=True)
    viewpoint = fields.String(required=True)
    closed = fields.Boolean(required=True)
    delayed = fields.Integer(metadata={"description": "a reader without rights under the tournament's public delay: "
                                                      "the steps recorded but not yet shown (docs/SECURITY.md)"})


class ReplaySchema(ReplayFrameSchema, _ReplayedSchema):
    """One step of a deal replayed for one viewpoint."""


class ReplayAllSchema(_ReplayedSchema):
    frames = fields.List(fields.Nested(ReplayFrameSchema), required=True)


class VerifySchema(Schema):
    deal_id = fields.String(required=True)
    ok = fields.Boolean(required=True)
    first_bad_version = fields.Integer(allow_none=True)
    digest = fields.String(required=True, allow_none=True,
                           metadata={"description": "null for a reader without rights while the deal is live"})
