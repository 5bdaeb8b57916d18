"""Marshmallow schemas of every request and response body; the OpenAPI document is generated from them.

Request schemas check shape only (types, required fields, ranges) and answer 400 with field details. What
the rules allow — which cards, whose turn, which options — is the engine's call (422), because it differs
per game. Game-specific parts (engine views, results, action fields beyond seat/type/cards) are open dicts.
"""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from api.typed import described_dict, schema_for
from domain.kernel.values import DealResult
from domain.model.token import ROLES
from domain.model.tournament import ADJUSTMENT_KINDS, ROUND_KINDS
from domain.records.annotations import AUTHOR_LIMIT, GLYPHS, TEXT_LIMIT
from projections.rows import Placing, ProgressionRow, StandingsRow, TeamRow

_NAME = validate.Length(min=1, max=200)
_CARD = fields.String(validate=validate.Length(min=1, max=3))


# --- errors -------------------------------------------------------------------------------------------


class ErrorBodySchema(Schema):
    code = fields.String(required=True, metadata={"description": "stable machine-readable reason"})
    message = fields.String(required=True)
    message_zh = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema, required=True)


# --- tournaments and players --------------------------------------------------------------------------


class TournamentCreateSchema(Schema):
    name = fields.String(required=True, validate=_NAME)
    game = fields.String(required=True, metadata={"description": "record-format game code (one per game)"})
    options = fields.Dict(load_default=dict, metadata={"description": "ruleset options; defaults filled in"})
    key = fields.String(validate=_NAME, metadata={"description": "idempotency key (default: the name)"})
    format = fields.String(load_default="", metadata={"description": "format code (GET /api/formats); default: "
                                                                     "the game's"})
    tiebreaks = fields.List(fields.String(), load_default=list,
                            metadata={"description": "tiebreak codes in the order they apply; default: the format's"})
    lots_seed = fields.String(validate=validate.Length(min=1, max=200),
                              metadata={"description": "the seed lots are drawn from (default: random, recorded)"})
    department_limit = fields.Integer(strict=True, validate=validate.Range(min=1, max=1000), metadata={
        "description": "entries per department (部门) at most (seed 000: 2 teams; seed 002: 3 players); default none"})


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=_NAME)
    id = fields.String(validate=_NAME, metadata={"description": "player id (default: the name)"})


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


# --- matches ------------------------------------------------------------------------------------------


class MatchCreateSchema(Schema):
    table = fields.String(required=True, validate=_NAME, metadata={"description": "table label; idempotency key"})
    seats = fields.List(fields.String(validate=_NAME), required=True,
                        metadata={"description": "registered player ids in playing order"})
    first = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0),
                           metadata={"description": "first seat of deal 1 (斗地主: the first bidder, rotating one "
                                                    "seat per deal; 升级: dealt first in each 抢庄 deal, later "
                                                    "deals start from the dealer)"})
    options = fields.Dict(load_default=dict, metadata={"description": "overrides of the tournament's options"})
    round = fields.Integer(strict=True, validate=validate.Range(min=1),
                           metadata={"description": "the round it belongs to (default: the current round)"})


_STANDING = ("the game's running figures between deals (斗地主: chips; 升级: levels, next context, 大分/小分; "
             "三打一: totals, deals, deals as dealer and their bids; 挖坑: raw totals and boards played; "
             "大怪路子: team points and 跑头家 deals) "
             "and `end`: null, or {winner, by} (docs/ARCHITECTURE.md, match layer)")
_SIDE = ("the side that won: a seat (斗地主, 三打一: the first at the table) or a team, seats {0, 2} = 0 and "
         "{1, 3} = 1 (升级), seats {0, 2, 4} = 0 and {1, 3, 5} = 1 (大怪路子); null: live, a draw, a 三打一 tie at "
         "the top or a 挖坑 table (ranked by the standings)")


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
    standing = fields.Dict(required=True, metadata={"description": _STANDING})
    next_context = fields.Dict(allow_none=True, metadata={"description": "the context of the next deal"})
    status = fields.String(required=True, metadata={"description": "live | over"})
    winner = fields.Integer(allow_none=True, metadata={"description": _SIDE})
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


# --- deals --------------------------------------------------------------------------------------------


class DealCreateSchema(Schema):
    hands = fields.List(fields.List(_CARD), metadata={"description": "explicit hands, in the order received"})
    kitty = fields.List(_CARD, metadata={"description": "explicit kitty (with `hands`)"})
    seed = fields.String(validate=validate.Length(min=1, max=200),
                         metadata={"description": "server dealing: the seed to shuffle with (random if absent)"})
    first = fields.Integer(strict=True, validate=validate.Range(min=0))
    number = fields.Integer(strict=True, validate=validate.Range(min=1),
                            metadata={"description": "deal number in the match; makes re-submission idempotent"})
    context = fields.Dict(metadata={"description": "in a match the match sets it; if given it must agree"})


class StandaloneDealCreateSchema(DealCreateSchema):
    game = fields.String(required=True)
    seats = fields.List(fields.String(validate=_NAME), required=True)
    options = fields.Dict(load_default=dict)
    key = fields.String(validate=_NAME, metadata={"description": "idempotency key"})
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
    standing = fields.Dict(required=True, metadata={"description": _STANDING})
    status = fields.String(required=True)
    winner = fields.Integer(allow_none=True, metadata={"description": _SIDE})
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


# --- records (docs/record-format.md) ------------------------------------------------------------------


class RecordEnvelopeSchema(Schema):
    """What every `fupan.deal/1` document carries, played in full or result-only."""

    class Meta:
        unknown = INCLUDE

    format = fields.String(required=True, validate=validate.Equal("fupan.deal/1"))
    game = fields.String(required=True)
    options = fields.Dict()
    seats = fields.List(fields.Raw(), required=True)
    first = fields.Integer(required=True, strict=True)


class RecordSchema(RecordEnvelopeSchema):
    """A `fupan.deal/1` document; the record layer and the engine validate it completely."""

    hands = fields.List(fields.Raw(), required=True)
    kitty = fields.List(fields.Raw())
    context = fields.Dict()
    actions = fields.List(fields.Raw(), required=True)
    result = fields.Dict()
    meta = fields.Dict()
    annotations = fields.List(fields.Dict(), metadata={"description": "checked by the record layer "
                                                                      "(domain/records/annotations.py)"})
    digest = fields.String()


class ResultOnlyRecordSchema(RecordEnvelopeSchema):
    """A result-only `fupan.deal/1` document (a score slip's deal, docs/record-format.md "Result-only records"):
    no hands, kitty or actions; its slip scores its result."""

    context = fields.Dict()
    result_only = fields.Boolean(required=True, validate=validate.Equal(True))
    slip = fields.Dict(required=True)
    result = fields.Dict(required=True)
    meta = fields.Dict()
    digest = fields.String()


class ImportReportSchema(Schema):
    index = fields.Integer(required=True)
    ok = fields.Boolean(required=True)
    created = fields.Boolean()
    deal_id = fields.String()
    result = described_dict(DealResult, allow_none=True)
    error = fields.Nested(ErrorBodySchema)


class ImportReportsSchema(Schema):
    ok = fields.Boolean(required=True, metadata={"description": "every record was stored"})
    records = fields.List(fields.Nested(ImportReportSchema), required=True)


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
    format = fields.String(required=True)
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


# --- access tokens (api/tokens.py, docs/SECURITY.md) --------------------------------------------------


class TokenCreateSchema(Schema):
    role = fields.String(required=True, validate=validate.OneOf(ROLES),
                         metadata={"description": "over the API only `referee`; the others with `fupan token create`"})
    matches = fields.List(fields.String(validate=_NAME), load_default=list,
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


class AppealResponseSchema(Schema):
    """The other side's statement on an appeal (Appeal.ResponseRecorded)."""

    statement = fields.String(required=True, validate=validate.Length(min=1, max=TEXT_LIMIT))
    on_behalf_of = fields.List(fields.String(), load_default=list, validate=validate.Length(max=12),
                               metadata={"description": "the players who say it (none: the other side as a whole)"})
