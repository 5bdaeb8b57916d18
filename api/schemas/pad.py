"""The recording pad's answers and queries (api/pad.py, docs/pad.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

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
