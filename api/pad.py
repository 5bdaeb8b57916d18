"""The recording pad's data (docs/pad.md): a deal as its recorder sees it, with every seat's choices, and a dry
run of one action. All are for the table's referee and the organiser (`DEAL_RECORDER`, `MATCH_RECORDER`); none
stores anything. A table's pad reads the table through `GET /api/matches/<id>/pad`, which also tells it
whether its token is the table's. The pad records through the ordinary routes (POST /api/deals/<id>/actions,
the match's deals, clock and misdeals), so what it stores is what any API client would.
"""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import DEAL_RECORDER, MATCH_RECORDER, requires
from api.common import doc, json_body, load, load_query, reply, service, stores_nothing
from domain.games import get_engine
from domain.services import pad

PAD_QUERY, PAD_STATE, TABLE_PAD = s.PadQuerySchema(), s.PadStateSchema(), s.TablePadSchema()
PAD_CHECK, PAD_VERDICT = s.PadCheckSchema(), s.PadVerdictSchema()

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
