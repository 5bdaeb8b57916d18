"""/api: standings, explanations, previews, rounds and adjustments, the formats registry, rebuild and verify.

Every read catches the projections up with the log first (projections/service.py), so an answer reflects
every event stored before the request; `as_of` in it is the notification id it reflects. Writes (rounds,
adjustments, rebuild) and verify are the organiser's; a preview stores nothing, so anyone may ask for one.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app
from marshmallow import Schema, fields, validate

from api.auth import ANYONE, ORGANISER_ONLY, current_principal, requires
from api.resources import doc, json_body, load, load_query, reply, service
from domain.aggregates import ADJUSTMENT_KINDS, ROUND_KINDS
from projections import Projections
from projections.formats import FORMATS

standings = Blueprint("standings", __name__, url_prefix="/api")

# How often each server process polls the log for events stored by others (seconds; 0: only on reads).
DEFAULT_POLL = 0.02


def install(app: Flask) -> None:
    """The projections of the app's FupanApplication (following the log in the background) and the routes."""
    every = float(app.config.get("FUPAN_PROJECTION_POLL", DEFAULT_POLL))
    app.extensions["fupan.projections"] = Projections(app.extensions["fupan"], follow_every=every or None)
    app.register_blueprint(standings)


def projections() -> Projections:
    return current_app.extensions["fupan.projections"]


# --- schemas ------------------------------------------------------------------------------------------


class StandingsQuerySchema(Schema):
    round = fields.Integer(validate=validate.Range(min=1), metadata={"description": "standings after this round"})
    as_of = fields.Integer(validate=validate.Range(min=0),
                           metadata={"description": "standings as of this notification id of the event log"})


class TiebreakSchema(Schema):
    code = fields.String(required=True)
    zh = fields.String(required=True)
    en = fields.String(required=True)
    higher_wins = fields.Boolean()


class RowSchema(Schema):
    rank = fields.Integer(required=True, metadata={"description": "equal on every declared criterion: equal rank"})
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    number = fields.Integer(metadata={"description": "entrant number (registration order)"})
    total = fields.Raw(required=True, metadata={"description": "the format's total (chips, points, rate …)"})
    tiebreak_values = fields.List(fields.Raw(), required=True, metadata={"description": "in `tiebreaks` order"})
    stage = fields.Integer(metadata={"description": "knockout: stage reached (advancing counts as the next)"})
    reached = fields.Dict(allow_none=True, metadata={"description": "the round that ranks the player"})
    status = fields.String(metadata={"description": "waiting | playing | advanced | eliminated | champion | "
                                                    "placed | played"})
    adjustments = fields.Integer(metadata={"description": "sum of the adjustments counted in `total`"})
    tied_with = fields.List(fields.String(), metadata={"description": "equal stage and total"})
    decided_by = fields.String(allow_none=True, metadata={"description": "the tiebreak that put the player below "
                                                                          "the row above, when equal on total"})
    matches = fields.List(fields.Dict(), required=True)


class ProgressionRowSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    total = fields.Raw(required=True)
    rank = fields.Integer(required=True)


class ProgressionSchema(Schema):
    round = fields.Integer(required=True)
    label = fields.String(required=True)
    rows = fields.List(fields.Nested(ProgressionRowSchema), required=True)


class StandingsSchema(Schema):
    tournament_id = fields.String(required=True)
    as_of = fields.Integer(required=True, metadata={"description": "the notification id these standings reflect"})
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


class ExplainSchema(Schema):
    tournament_id = fields.String(required=True)
    as_of = fields.Integer(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True)
    total = fields.Raw(required=True)
    status = fields.String()
    reached = fields.Dict(allow_none=True)
    stage = fields.Integer()
    decided_by = fields.String(allow_none=True)
    tied_with = fields.List(fields.String())
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
    refers_to = fields.Dict(metadata={"description": "{deal_id, version}: the recorded event a ruling concerns"})


class PreviewInSchema(Schema):
    adjustments = fields.List(fields.Nested(AdjustmentSchema), required=True, validate=validate.Length(min=1))
    round = fields.Integer(strict=True, validate=validate.Range(min=1))


class PreviewSchema(Schema):
    tournament_id = fields.String(required=True)
    as_of = fields.Integer(required=True)
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


class ProjectionsRebuildSchema(Schema):
    position = fields.Integer(required=True)
    notifications = fields.Integer(required=True, metadata={"description": "notifications replayed"})
    seconds = fields.Float(required=True)
    tournaments = fields.Integer(required=True)
    deals = fields.Integer(required=True)


class ProjectionsVerifySchema(Schema):
    ok = fields.Boolean(required=True)
    position = fields.Integer(required=True)
    difference = fields.Dict(allow_none=True, metadata={"description": "the first difference: table, key, column"})
    seconds = fields.Float(required=True)
    tournaments = fields.Integer(required=True)
    deals = fields.Integer(required=True)


QUERY, STANDINGS, EXPLAIN = StandingsQuerySchema(), StandingsSchema(), ExplainSchema()
PREVIEW_IN, PREVIEW = PreviewInSchema(), PreviewSchema()
ADJUSTMENT_IN, ADJUSTMENT = AdjustmentSchema(), RecordedAdjustmentSchema()
ROUND_IN, ROUND = RoundInSchema(), RoundSchema()
REBUILD, VERIFY = ProjectionsRebuildSchema(), ProjectionsVerifySchema()


# --- views --------------------------------------------------------------------------------------------


@standings.get("/tournaments/<tournament_id>/standings")
@requires(ANYONE)
@doc("Standings: rank, total and tiebreak values per player, every table's result, the standings after each "
     "round; `round` or `as_of` for the standings at that point", query=QUERY, response=STANDINGS,
     errors=(400, 404, 422))
def get_standings(tournament_id: str) -> tuple[Response, int]:
    query = load_query(QUERY)
    return reply(STANDINGS, projections().standings(tournament_id, round_limit=query.get("round"),
                                                    as_of=query.get("as_of")))


@standings.get("/tournaments/<tournament_id>/standings/<player_id>/explain")
@requires(ANYONE)
@doc("A player's standing explained: tables, deals, each deal's stored events, penalties and adjustments "
     "with who recorded them and why", query=QUERY, response=EXPLAIN, errors=(400, 404, 422))
def explain(tournament_id: str, player_id: str) -> tuple[Response, int]:
    query = load_query(QUERY)
    return reply(EXPLAIN, projections().explain(tournament_id, player_id, round_limit=query.get("round"),
                                                as_of=query.get("as_of")))


@standings.post("/tournaments/<tournament_id>/standings/preview")
@requires(ANYONE)
@doc("The standings if these adjustments were recorded (before, after, what changes); stores nothing",
     body=PREVIEW_IN, response=PREVIEW, errors=(400, 404, 422))
def preview(tournament_id: str) -> tuple[Response, int]:
    body = load(PREVIEW_IN, json_body())
    return reply(PREVIEW, projections().preview(tournament_id, body["adjustments"], round_limit=body.get("round")))


@standings.post("/tournaments/<tournament_id>/rounds")
@requires(ORGANISER_ONLY)
@doc("Start the next round (tables opened from now on belong to it)", body=ROUND_IN, response=ROUND, status=201,
     errors=(400, 404, 422))
def start_round(tournament_id: str) -> tuple[Response, int]:
    body = load(ROUND_IN, json_body())
    started = service().start_round(tournament_id, body["label"], body["kind"],
                                    recorded_by=current_principal().recorded_by)
    return reply(ROUND, started, 201)


@standings.post("/tournaments/<tournament_id>/adjustments")
@requires(ORGANISER_ONLY)
@doc("Record a penalty or manual adjustment of a player's total, with the reason", body=ADJUSTMENT_IN,
     response=ADJUSTMENT, status=201, errors=(400, 404, 422))
def adjust(tournament_id: str) -> tuple[Response, int]:
    body = load(ADJUSTMENT_IN, json_body())
    recorded = service().adjust(tournament_id, body["player_id"], body["points"], body["reason"], body["kind"],
                                body.get("round"), body.get("refers_to"),
                                recorded_by=current_principal().recorded_by)
    return reply(ADJUSTMENT, recorded, 201)


@standings.get("/formats")
@requires(ANYONE)
@doc("The formats a tournament may declare, with each one's total, tiebreaks and the result facts it needs")
def list_formats() -> tuple[Response, int]:
    return {"formats": [f.describe() for f in FORMATS.values()]}, 200


@standings.post("/admin/rebuild")
@requires(ORGANISER_ONLY)
@doc("Replay the whole event log into fresh read models and swap them in", response=REBUILD)
def rebuild() -> tuple[Response, int]:
    return reply(REBUILD, projections().rebuild())


@standings.get("/admin/verify")
@requires(ORGANISER_ONLY)
@doc("Rebuild into scratch tables and compare with the live read models; the first difference", response=VERIFY)
def verify() -> tuple[Response, int]:
    return reply(VERIFY, projections().verify())
