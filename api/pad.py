"""The recording pad's data (docs/pad.md): a deal as its recorder sees it, with every seat's choices, and a dry
run of one action. All are for the table's referee and the organiser (`DEAL_RECORDER`, `MATCH_RECORDER`); none
stores anything. A table's pad reads the table through `GET /api/matches/<id>/pad`, which also tells it
whether its token is the table's. The pad records through the ordinary routes (POST /api/deals/<id>/actions,
the match's deals, clock and misdeals), so what it stores is what any API client would.
"""

from __future__ import annotations

from flask import Blueprint, Response
from marshmallow import Schema, fields, validate

from api.auth import DEAL_RECORDER, MATCH_RECORDER, requires
from api.common import doc, json_body, load, load_query, reply, service, stores_nothing
from domain.games import get_engine
from domain.services import pad

_ACTION = ("an action as the record format writes it (docs/record-format.md), with `seat` and, for a play, "
           "`cards` in the order tapped")


class PadQuerySchema(Schema):
    since = fields.Integer(validate=validate.Range(min=1), metadata={
        "description": "the version the pad shows: when the deal is still at it, the answer is only "
                       "{deal_id, version, unchanged: true}"})


class ChoiceSchema(Schema):
    seat = fields.Integer(required=True)
    action = fields.Dict(required=True, metadata={
        "description": "the action without seat, cards and typed fields: a pad button's data-action"})
    cards = fields.List(fields.String(), allow_none=True, metadata={
        "description": "the cards that may take part (the recorder selects them); null: the action has none"})
    typed = fields.List(fields.String(), required=True, metadata={
        "description": "the fields the recorder types (a foul's code, note, penalty; 升级's received)"})


class FoulCodeSchema(Schema):
    code = fields.String(required=True)
    zh = fields.String(required=True)
    en = fields.String(required=True)


class PadStateSchema(Schema):
    deal_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the deal's stored version"})
    unchanged = fields.Boolean(metadata={"description": "true: the deal is still at `since`; nothing else is sent"})
    game = fields.String()
    options = fields.Dict()
    seats = fields.List(fields.String())
    number = fields.Integer(allow_none=True)
    match_id = fields.String(allow_none=True)
    finished = fields.Boolean()
    result = fields.Dict(allow_none=True)
    actions = fields.Integer(metadata={"description": "entries recorded: actions and retractions"})
    last_standing = fields.Integer(allow_none=True, metadata={
        "description": "the index of the last action still standing (what POST …/retractions takes back)"})
    last_action = fields.Dict(allow_none=True, metadata={"description": "that action, as stored"})
    seed_commitment = fields.String(allow_none=True)
    seed = fields.String(allow_none=True)
    status = fields.Dict(metadata={"description": "{phase, to_act, finished}"})
    view = fields.Dict(metadata={"description": "the engine's view from the referee's viewpoint"})
    dealt = fields.List(fields.List(fields.String()), metadata={"description": "each hand in the order received"})
    choices = fields.List(fields.Nested(ChoiceSchema))
    fouls = fields.List(fields.Nested(FoulCodeSchema), metadata={"description": "the game's foul list"})
    foul_unit = fields.Dict(allow_none=True, metadata={"description": "{en, zh} of a foul's penalty; null: none"})
    table = fields.Dict(metadata={"description": "seats, hand_size, kitty_size, decks, jokers, kitty_apart"})


class PadCheckSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": _ACTION})


class PadVerdictSchema(Schema):
    deal_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the version the action was checked against"})
    legal = fields.Boolean(required=True)
    action = fields.Dict(metadata={"description": "the action as it would be stored"})
    reads_as = fields.Dict(allow_none=True, metadata={"description": "{kind, zh, en}: how the rules read a play"})
    refusal = fields.Dict(metadata={"description": "{code, message, message_zh, details}, as a 422 would say"})


class TablePadSchema(Schema):
    match = fields.Dict(required=True, metadata={"description": "the table, as GET /api/matches/<id> answers it"})
    table = fields.Dict(required=True, metadata={"description": "the game's seats, hand_size, kitty_size, decks, "
                                                               "jokers (the deck grid's cards), kitty_apart (the "
                                                               "phases the kitty lies apart in)"})


PAD_QUERY, PAD_STATE, PAD_CHECK, PAD_VERDICT = PadQuerySchema(), PadStateSchema(), PadCheckSchema(), PadVerdictSchema()
TABLE_PAD = TablePadSchema()

recording_pad = Blueprint("pad", __name__, url_prefix="/api")


@recording_pad.get("/matches/<match_id>/pad")
@requires(MATCH_RECORDER)
@doc("A table as its recorder's pad reads it: its score, its deals and the deal in play, and the game's table",
     response=TABLE_PAD, errors=(404,))
def table_pad(match_id: str) -> tuple[Response, int]:
    match = service().tables.get(match_id)
    return reply(TABLE_PAD, {"match": match, "table": pad.game_table(get_engine(match["game"]))})


@recording_pad.get("/deals/<deal_id>/pad")
@requires(DEAL_RECORDER)
@doc("The deal as its recorder sees it: every hand, the seat to act, each seat's choices other than which cards "
     "(bids, passes, declarations, fouls …: only what the rules allow now), the game's foul list",
     query=PAD_QUERY, response=PAD_STATE, errors=(400, 404))
def pad_state(deal_id: str) -> tuple[Response, int]:
    query = load_query(PAD_QUERY)
    return reply(PAD_STATE, service().deals.pad(deal_id, query.get("since")))


@recording_pad.post("/deals/<deal_id>/pad/check")
@stores_nothing
@requires(DEAL_RECORDER)
@doc("Dry run: would this action be recorded now? Legal, with how the rules read a play (e.g. 三带二), or the "
     "refusal with its reason in Chinese and English. Stores nothing", body=PAD_CHECK, response=PAD_VERDICT,
     errors=(400, 404))
def pad_check(deal_id: str) -> tuple[Response, int]:
    body = load(PAD_CHECK, json_body())
    return reply(PAD_VERDICT, service().deals.check(deal_id, body["action"]))
