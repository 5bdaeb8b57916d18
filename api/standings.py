"""/api: standings, explanations, previews, rounds and adjustments, the formats registry, rebuild and verify.

Every read catches the projections up with the log first (projections/service.py), so an answer reflects
every event stored before the request; `as_of` in it is the notification id it reflects. Writes (rounds,
adjustments, rebuild) and verify are the organiser's; a preview stores nothing, so anyone may ask for one.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app

from api import schemas as s
from api.auth import ANYONE, ORGANISER_ONLY, current_principal, requires
from api.common import doc, json_body, load, load_query, reply, service, stores_nothing
from projections import Projections
from projections.formats import FORMATS, presets

standings = Blueprint("standings", __name__, url_prefix="/api")

# How often each server process polls the log for events stored by others (seconds; 0: only on reads).
DEFAULT_POLL = 0.02


def install(app: Flask) -> None:
    """The projections of the app's Fupan (following the log in the background) and the routes."""
    every = float(app.config.get("FUPAN_PROJECTION_POLL", DEFAULT_POLL))
    app.extensions["fupan.projections"] = Projections(app.extensions["fupan"], follow_every=every or None)
    app.register_blueprint(standings)


def projections() -> Projections:
    return current_app.extensions["fupan.projections"]


QUERY, STANDINGS, EXPLAIN = s.StandingsQuerySchema(), s.StandingsSchema(), s.ExplainSchema()
PREVIEW_IN, PREVIEW = s.PreviewInSchema(), s.PreviewSchema()
ADJUSTMENT_IN, ADJUSTMENT = s.AdjustmentSchema(), s.RecordedAdjustmentSchema()
ROUND_IN, ROUND = s.RoundInSchema(), s.RoundSchema()
REBUILD, VERIFY = s.ProjectionsRebuildSchema(), s.ProjectionsVerifySchema()


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


@standings.get("/tournaments/<tournament_id>/standings/<path:player_id>/explain")  # a name may hold "/"
@requires(ANYONE)
@doc("A player's standing explained: tables, deals, each deal's stored events, penalties and adjustments "
     "with who recorded them and why", query=QUERY, response=EXPLAIN, errors=(400, 404, 422))
def explain(tournament_id: str, player_id: str) -> tuple[Response, int]:
    query = load_query(QUERY)
    return reply(EXPLAIN, projections().explain(tournament_id, player_id, round_limit=query.get("round"),
                                                as_of=query.get("as_of")))


@standings.post("/tournaments/<tournament_id>/standings/preview")
@stores_nothing
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
    started = service().tournaments.start_round(tournament_id, body["label"], body["kind"],
                                                recorded_by=current_principal().recorded_by)
    return reply(ROUND, started, 201)


@standings.post("/tournaments/<tournament_id>/adjustments")
@requires(ORGANISER_ONLY)
@doc("Record a penalty or manual adjustment of a player's total, with the reason", body=ADJUSTMENT_IN,
     response=ADJUSTMENT, status=201, errors=(400, 404, 422))
def adjust(tournament_id: str) -> tuple[Response, int]:
    body = load(ADJUSTMENT_IN, json_body())
    recorded = service().tournaments.adjust(tournament_id, body["player_id"], body["points"], body["reason"],
                                            body["kind"], body.get("round"), body.get("refers_to"),
                                            recorded_by=current_principal().recorded_by)
    return reply(ADJUSTMENT, recorded, 201)


@standings.get("/formats")
@requires(ANYONE)
@doc("The formats a tournament may declare, with each one's total, tiebreaks and the result facts it needs; "
     "`presets`: per game, the ruleset preset option the console offers and its values")
def list_formats() -> tuple[Response, int]:
    return {"formats": [f.describe() for f in FORMATS.values()], "presets": presets()}, 200


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
