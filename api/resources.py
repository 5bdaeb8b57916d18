"""The /api blueprints: tournaments, players, matches, deals, actions, events, replay and records.

Each view validates its body or query with a marshmallow schema, calls one application-service method and
dumps the answer through the response schema. `@doc` attaches what the OpenAPI generator needs; `@requires`
declares who may call it (api/auth.py enforces it). Writes pass the caller as the events' `recorded_by`;
reads pass it as the `reader`, so the service filters hidden cards (docs/SECURITY.md).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from marshmallow import Schema

from api import schemas as s
from api.auth import (
    ANNOTATOR,
    ANYONE,
    DEAL_RECORDER,
    MATCH_RECORDER,
    NDJSON,
    ORGANISER_ONLY,
    current_principal,
    requires,
)
from api.common import doc, json_body, load, load_query, reply, service
from domain.kernel.errors import BadRequest, Refusal
from domain.model.tournament import ENTRY_RULES
from domain.records.format import Unreadable, read_records
from projections.formats import declare

# Schemas are instantiated once (instantiation costs more than a load); they are safe to share between requests.
TOURNAMENT_IN, PLAYER_IN, MATCH_IN = s.TournamentCreateSchema(), s.PlayerCreateSchema(), s.MatchCreateSchema()
CLOCK_IN = s.ClockCreateSchema()
CLOSE_IN, MISDEAL_IN = s.CloseMatchSchema(), s.MisdealCreateSchema()
REOPEN_IN = s.ReopenMatchSchema()
DEAL_IN, STANDALONE_DEAL_IN = s.DealCreateSchema(), s.StandaloneDealCreateSchema()
ACTION_IN, ANNOTATION_IN = s.RecordActionSchema(), s.AnnotationCreateSchema()
REPLAY_QUERY, REPLAY_ALL_QUERY = s.ReplayQuerySchema(), s.ReplayAllQuerySchema()
TOURNAMENT, PLAYER, MATCH, DEAL = s.TournamentSchema(), s.PlayerSchema(), s.MatchSchema(), s.DealSchema()
RECORDED, ANNOTATED, EVENT = s.RecordedActionSchema(), s.AnnotatedSchema(), s.EventSchema()
REPLAY, REPLAY_ALL, VERIFY = s.ReplaySchema(), s.ReplayAllSchema(), s.VerifySchema()
RECORD, IMPORT_REPORTS = s.RecordSchema(), s.ImportReportsSchema()
MANY_TOURNAMENTS, MANY_PLAYERS = s.TournamentSchema(many=True), s.PlayerSchema(many=True)
MANY_DEALS, MANY_EVENTS = s.DealSchema(many=True), s.EventSchema(many=True)
MANY_MATCHES = s.MatchSchema(many=True)

tournaments = Blueprint("tournaments", __name__, url_prefix="/api/tournaments")
matches = Blueprint("matches", __name__, url_prefix="/api/matches")
deals = Blueprint("deals", __name__, url_prefix="/api/deals")
records = Blueprint("records", __name__, url_prefix="/api/records")

_NOT_FOUND = (404,)


# --- tournaments and players --------------------------------------------------------------------------


@tournaments.post("")
@requires(ORGANISER_ONLY)
@doc("Create a tournament (idempotent by key)", body=TOURNAMENT_IN, response=TOURNAMENT, status=201,
     errors=(400, 409, 422), found=TOURNAMENT)
def create_tournament() -> tuple[Response, int]:
    body = load(TOURNAMENT_IN, json_body())
    format_code, tiebreaks = declare(body["game"], body["format"], body["tiebreaks"])  # 422 for unknown codes
    tournament, created = service().tournaments.create(body["name"], body["game"], body["options"], body.get("key"),
                                                     recorded_by=current_principal().recorded_by, format=format_code,
                                                     tiebreaks=tiebreaks, lots_seed=body.get("lots_seed"),
                                                     entry_rules={k: body[k] for k in ENTRY_RULES if k in body})
    return reply(TOURNAMENT, tournament, 201 if created else 200)


@tournaments.get("")
@requires(ANYONE)
@doc("List tournaments", response=MANY_TOURNAMENTS)
def list_tournaments() -> tuple[Response, int]:
    return reply(TOURNAMENT, service().tournaments.all(), many=True)


@tournaments.get("/<tournament_id>")
@requires(ANYONE)
@doc("A tournament with its players and tables", response=TOURNAMENT, errors=_NOT_FOUND)
def get_tournament(tournament_id: str) -> tuple[Response, int]:
    return reply(TOURNAMENT, service().tournaments.get(tournament_id))


@tournaments.post("/<tournament_id>/players")
@requires(ORGANISER_ONLY)
@doc("Register a player (idempotent by id)", body=PLAYER_IN, response=PLAYER, status=201,
     errors=(400, 404, 409, 422), found=PLAYER)
def register_player(tournament_id: str) -> tuple[Response, int]:
    body = load(PLAYER_IN, json_body())
    player, created = service().tournaments.register_player(tournament_id, body["name"], body.get("id"),
                                                 recorded_by=current_principal().recorded_by)
    return reply(PLAYER, player, 201 if created else 200)


@tournaments.get("/<tournament_id>/players")
@requires(ANYONE)
@doc("The tournament's players", response=MANY_PLAYERS, errors=_NOT_FOUND)
def list_players(tournament_id: str) -> tuple[Response, int]:
    return reply(PLAYER, service().tournaments.players(tournament_id), many=True)


@tournaments.post("/<tournament_id>/matches")
@requires(ORGANISER_ONLY)
@doc("Open a table (a match; idempotent by table label)", body=MATCH_IN, response=MATCH,
     status=201, errors=(400, 404, 409, 422), found=MATCH)
def create_match(tournament_id: str) -> tuple[Response, int]:
    body = load(MATCH_IN, json_body())
    match, created = service().tables.open(tournament_id, body["table"], body["seats"], body["first"],
                                           body["options"], recorded_by=current_principal().recorded_by,
                                           round=body.get("round"))
    return reply(MATCH, match, 201 if created else 200)


@tournaments.get("/<tournament_id>/matches")
@requires(ANYONE)
@doc("The tournament's tables with their standing and status", response=MANY_MATCHES, errors=_NOT_FOUND)
def list_matches(tournament_id: str) -> tuple[Response, int]:
    return reply(MATCH, service().tables.of_tournament(tournament_id), many=True)


@tournaments.get("/<tournament_id>/records")
@requires(ANYONE)
@doc("Every table's deals as fupan.deal/1 records, JSON Lines, table by table (published deals only, unless the "
     "caller may see a table's live deals)", errors=_NOT_FOUND, content_type="application/x-ndjson")
def export_tournament(tournament_id: str) -> Response:
    return json_lines(service().records.export_tournament(tournament_id, current_principal()))


# --- matches ------------------------------------------------------------------------------------------


@matches.get("/<match_id>")
@requires(ANYONE)
@doc("A match: its standing after every deal, clock readings, status and winner", response=MATCH, errors=_NOT_FOUND)
def get_match(match_id: str) -> tuple[Response, int]:
    return reply(MATCH, service().tables.get(match_id))


@matches.post("/<match_id>/clock")
@requires(MATCH_RECORDER)
@doc("Record the match clock (minutes played); at or past the game's time limit this calls time and the time "
     "cap decides the match, now or after the deal in play", body=CLOCK_IN, response=MATCH, status=201,
     errors=(400, 404, 409, 422))
def record_clock(match_id: str) -> tuple[Response, int]:
    body = load(CLOCK_IN, json_body())
    recorded_by = current_principal().recorded_by
    match = service().tables.record_clock(match_id, body["minutes"], body["note"], recorded_by=recorded_by)
    return reply(MATCH, match, 201)


@matches.post("/<match_id>/misdeals")
@requires(MATCH_RECORDER)
@doc("Record a misdeal (a wrong number of cards found while dealing) by the seat that dealt, before the deal is "
     "recorded; it is dealt again. 升级 (S004 13, digest §3.13): a side that misdeals more than three times is "
     "disqualified", body=MISDEAL_IN, response=MATCH, status=201, errors=(400, 404, 409, 422))
def record_misdeal(match_id: str) -> tuple[Response, int]:
    body = load(MISDEAL_IN, json_body())
    recorded_by = current_principal().recorded_by
    match = service().tables.record_misdeal(match_id, body["seat"], body["note"], recorded_by=recorded_by)
    return reply(MATCH, match, 201)


@matches.post("/<match_id>/close")
@requires(ORGANISER_ONLY)
@doc("End the table now, with the reason (the organiser's decision; e.g. a play-off table once its extra deals "
     "have separated the tied players). Refused while a deal is in play or when the table is already over",
     body=CLOSE_IN, response=MATCH, status=201, errors=(400, 404, 409, 422))
def close_match(match_id: str) -> tuple[Response, int]:
    body = load(CLOSE_IN, json_body())
    match = service().tables.close(match_id, body["reason"], recorded_by=current_principal().recorded_by)
    return reply(MATCH, match, 201)


@matches.post("/<match_id>/reopen")
@requires(ORGANISER_ONLY)
@doc("Reopen a table the organiser closed, with the reason (closed by mistake, or its remaining boards to be "
     "recorded); only while its round is the tournament's last. Refused (`not_closed`) for a table that its own "
     "end rule ended", body=REOPEN_IN, response=MATCH, status=201, errors=(400, 404, 409, 422))
def reopen_match(match_id: str) -> tuple[Response, int]:
    body = load(REOPEN_IN, json_body())
    match = service().tables.reopen(match_id, body["reason"], recorded_by=current_principal().recorded_by)
    return reply(MATCH, match, 201)


@matches.post("/<match_id>/deals")
@requires(MATCH_RECORDER)
@doc("Start the match's next deal: explicit hands + kitty, or server-dealt from a seed (commit–reveal)",
     body=DEAL_IN, response=DEAL, status=201, errors=(400, 404, 409, 422), found=DEAL)
def start_match_deal(match_id: str) -> tuple[Response, int]:
    body = load(DEAL_IN, json_body())
    deal, created = service().deals.start(match=match_id, **body, recorded_by=current_principal().recorded_by)
    return reply(DEAL, deal, 201 if created else 200)


@matches.get("/<match_id>/deals")
@requires(ANYONE)
@doc("The match's deals in order", response=MANY_DEALS, errors=_NOT_FOUND)
def list_match_deals(match_id: str) -> tuple[Response, int]:
    return reply(DEAL, service().deals.of_match(match_id, current_principal()), many=True)


@matches.get("/<match_id>/records")
@requires(ANYONE)
@doc("Every deal of the match as fupan.deal/1 records, JSON Lines", errors=_NOT_FOUND,
     content_type="application/x-ndjson")
def export_match(match_id: str) -> Response:
    return json_lines(service().records.export_match(match_id, current_principal()))


def json_lines(records: list[dict[str, Any]]) -> Response:
    """Records as JSON Lines (what `fupan import` and `POST /api/records` read back)."""
    lines = [json.dumps(record, ensure_ascii=False) + "\n" for record in records]
    return current_app.response_class("".join(lines), mimetype="application/x-ndjson")


# --- deals --------------------------------------------------------------------------------------------


@deals.post("")
@requires(ORGANISER_ONLY)
@doc("Start a deal outside any match (explicit or server-dealt)", body=STANDALONE_DEAL_IN,
     response=DEAL, status=201, errors=(400, 409, 422), found=DEAL)
def start_deal() -> tuple[Response, int]:
    body = load(STANDALONE_DEAL_IN, json_body())
    deal, created = service().deals.start(**body, recorded_by=current_principal().recorded_by)
    return reply(DEAL, deal, 201 if created else 200)


@deals.get("")
@requires(ANYONE)
@doc("List every deal", response=MANY_DEALS)
def list_deals() -> tuple[Response, int]:
    return reply(DEAL, service().deals.all(current_principal()), many=True)


@deals.get("/<deal_id>")
@requires(ANYONE)
@doc("A deal: status, result, digest, seed commitment (and the seed once closed)", response=DEAL,
     errors=_NOT_FOUND)
def get_deal(deal_id: str) -> tuple[Response, int]:
    return reply(DEAL, service().deals.get(deal_id, current_principal()))


@deals.post("/<deal_id>/actions")
@requires(DEAL_RECORDER)
@doc("Record one action; the rules engine validates it first (422 with a stable code if refused)",
     body=ACTION_IN, response=RECORDED, status=201, errors=(400, 404, 409, 422))
def record_action(deal_id: str) -> tuple[Response, int]:
    body = load(ACTION_IN, json_body())
    answer = service().deals.record(deal_id, body["action"], body.get("expected_version"),
                                    recorded_by=current_principal().recorded_by)
    return reply(RECORDED, answer, 201)


@deals.post("/<deal_id>/annotations")
@requires(ANNOTATOR)
@doc("Annotate a step with a glyph and a comment in Chinese (and English); never edits the record",
     body=ANNOTATION_IN,
     response=ANNOTATED, status=201, errors=(400, 404, 409, 422))
def annotate(deal_id: str) -> tuple[Response, int]:
    body = load(ANNOTATION_IN, json_body())
    expected = body.pop("expected_version", None)
    answer = service().deals.annotate(deal_id, body, expected, recorded_by=current_principal().recorded_by)
    return reply(ANNOTATED, answer, 201)


@deals.get("/<deal_id>/events")
@requires(ANYONE)
@doc("Every stored event of the deal: version, time, recorder, type, digest, payload", response=MANY_EVENTS,
     errors=_NOT_FOUND)
def deal_events(deal_id: str) -> tuple[Response, int]:
    return reply(EVENT, service().deals.events(deal_id, current_principal()), many=True)


@deals.get("/<deal_id>/replay")
@requires(ANYONE)
@doc("The table after `step` actions from a viewpoint", query=REPLAY_QUERY, response=REPLAY,
     errors=(400, 404))
def replay(deal_id: str) -> tuple[Response, int]:
    query = load_query(REPLAY_QUERY)
    return reply(REPLAY, service().deals.replay(deal_id, query.get("step"), query["viewpoint"], current_principal()))


@deals.get("/<deal_id>/replay/all")
@requires(ANYONE)
@doc("Every step of the deal from one viewpoint", query=REPLAY_ALL_QUERY, response=REPLAY_ALL,
     errors=(400, 404))
def replay_all(deal_id: str) -> tuple[Response, int]:
    query = load_query(REPLAY_ALL_QUERY)
    return reply(REPLAY_ALL, service().deals.replay_all(deal_id, query["viewpoint"], current_principal()))


@deals.get("/<deal_id>/record")
@requires(ANYONE)
@doc("The deal as a fupan.deal/1 record (with meta, annotations and the closing digest)", response=RECORD,
     errors=_NOT_FOUND)
def export_record(deal_id: str) -> tuple[Response, int]:
    return jsonify(service().records.export_record(deal_id, current_principal())), 200


@deals.get("/<deal_id>/verify")
@requires(ANYONE)
@doc("Recompute the deal's hash chain from storage", response=VERIFY, errors=_NOT_FOUND)
def verify(deal_id: str) -> tuple[Response, int]:
    return reply(VERIFY, service().audit.verify_deal(deal_id, current_principal()))


# --- records ------------------------------------------------------------------------------------------


@records.post("")
@requires(ORGANISER_ONLY, content_types=("application/json", NDJSON), large_body=True)
@doc("Import one record (answered like a deal: 201, or 200 when it was stored before) or a list / JSON Lines of "
     "records (200, a report per record: stored, or its refusal); each record is stored all-or-nothing",
     body={"oneOf": [RECORD, {"type": "array", "minItems": 1, "items": {"description": "a record, judged alone"}}]},
     response=DEAL, status=201, errors=(400, 409, 422), found={"oneOf": [DEAL, IMPORT_REPORTS]})
def import_records() -> tuple[Response, int]:
    if request.mimetype == "application/x-ndjson":
        docs: Any = list(read_records(request.get_data(as_text=True)))
        unreadable = next((doc for doc in docs if isinstance(doc, Unreadable)), None)
        if unreadable is not None:
            raise BadRequest(
                "malformed_json",
                f"Not valid JSON: {unreadable}",
                "请求体中有一行不是合法的 JSON。",
                {"error": str(unreadable)},
            )
    else:
        docs = json_body()
    if isinstance(docs, dict):
        deal, created = service().records.import_record(load(record_schema_for(docs), docs),
                                                        current_principal().recorded_by)
        return reply(DEAL, deal, 201 if created else 200)
    if not isinstance(docs, list) or not docs:
        raise BadRequest("invalid_body", "Send a record or a non-empty list of records.",
                         "请发送一条记录或非空的记录列表。")
    reports = [_import_one(index, doc) for index, doc in enumerate(docs)]
    return reply(IMPORT_REPORTS, {"ok": all(r["ok"] for r in reports), "records": reports})


RESULT_ONLY_RECORD = s.ResultOnlyRecordSchema()


def record_schema_for(doc: Any) -> Schema:
    """The schema an imported document is read with: a result-only record's (a score slip), or a full record's."""
    return RESULT_ONLY_RECORD if isinstance(doc, dict) and doc.get("result_only") is True else RECORD


def _import_one(index: int, doc: Any) -> dict[str, Any]:
    try:
        if not isinstance(doc, dict):
            raise BadRequest("not_a_record", f"Record {index} is not a fupan.deal/1 record (a JSON object).",
                             f"第 {index} 条不是 fupan.deal/1 记录（JSON 对象）。", {"index": index})
        deal, created = service().records.import_record(load(record_schema_for(doc), doc),
                                                        current_principal().recorded_by)
    except Refusal as error:
        return {"index": index, "ok": False, "error": {"code": error.code, "message": error.message,
                                                      "message_zh": error.message_zh, "details": error.details}}
    return {"index": index, "ok": True, "created": created, "deal_id": deal["id"], "result": deal["result"]}


BLUEPRINTS = (tournaments, matches, deals, records)
