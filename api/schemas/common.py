"""What every area's schemas share: the one error body (api/errors.py), a name's length, a card's code, what a
table's figures and its winning side mean."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

NAME = validate.Length(min=1, max=200)  # a name: a tournament's, a player's, a table's
CARD = fields.String(validate=validate.Length(min=1, max=3))  # a card's code (S10, BJ)
# what a table's figures and its winning side mean (a table's schemas and a deal's)
STANDING = ("the game's running figures between deals (斗地主: chips; 升级: levels, next context, 大分/小分; "
            "三打一: totals, deals, deals as dealer and their bids; 挖坑: raw totals and boards played; "
            "大怪路子: team points and 跑头家 deals) "
            "and `end`: null, or {winner, by} (docs/ARCHITECTURE.md, match layer)")
SIDE = ("the side that won: a seat (斗地主, 三打一: the first at the table) or a team, seats {0, 2} = 0 and "
        "{1, 3} = 1 (升级), seats {0, 2, 4} = 0 and {1, 3, 5} = 1 (大怪路子); null: live, a draw, a 三打一 tie at "
        "the top or a 挖坑 table (ranked by the standings)")


# --- errors -------------------------------------------------------------------------------------------


class ErrorBodySchema(Schema):
    code = fields.String(required=True, metadata={"description": "stable machine-readable reason"})
    message = fields.String(required=True)
    message_zh = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema, required=True)
