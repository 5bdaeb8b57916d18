"""/api/matches/<id>/slips: a table's next deal entered as a score slip (成绩单), previewed first.

The facts that decide the score (per game: docs/record-format.md "Result-only records") are checked against
the rules and the options in force and scored by the game's engine (domain/records/slips.py); the preview stores
nothing, the confirm stores a result-only deal scored into the match like a recorded one. Who may: the
organiser and the table's referee, as for starting a deal.
"""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import MATCH_RECORDER, current_principal, requires
from api.common import doc, json_body, load, reply, service, stores_nothing

SLIP_IN, PREVIEW, ENTERED = s.SlipSchema(), s.SlipPreviewSchema(), s.SlipEnteredSchema()

slips = Blueprint("slips", __name__, url_prefix="/api/matches")


@slips.post("/<match_id>/slips/preview")
@stores_nothing
@requires(MATCH_RECORDER)
@doc("What a score slip for the table's next deal scores, and the table after it; stores nothing (422 "
     "`impossible_slip` with the reason for facts the rules rule out, `bad_slip` for facts that do not read)",
     body=SLIP_IN, response=PREVIEW, errors=(400, 404, 409, 422))
def preview_slip(match_id: str) -> tuple[Response, int]:
    body = load(SLIP_IN, json_body())
    return reply(PREVIEW, service().tables.preview_slip(match_id, body["facts"], body.get("number")))


@slips.post("/<match_id>/slips")
@requires(MATCH_RECORDER)
@doc("Enter the table's next deal as a score slip: a result-only deal (成绩单, no cards, no replay) scored into "
     "the match like a recorded deal", body=SLIP_IN, response=ENTERED, status=201, errors=(400, 404, 409, 422))
def enter_slip(match_id: str) -> tuple[Response, int]:
    body = load(SLIP_IN, json_body())
    deal = service().tables.enter_slip(match_id, body["facts"], body.get("number"),
                                       recorded_by=current_principal().recorded_by)
    return reply(ENTERED, deal, 201)
