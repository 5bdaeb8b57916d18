"""/api/matches/<id>/corrections: a scored deal of the table corrected (更正), previewed first.

A mistyped slip, or a recorded deal's scoring fact, is put right by the organiser or the table's referee with
the reason — not an appeal: nobody is marked 申诉 for a typo. The corrected facts are the game's slip facts,
checked and scored as a slip is (domain/records/slips.py); the table's standing is chained again from the
corrected deal on (domain/model/match.py `Match.correct_deal`), and every page, the standings, pairing and the
exports read the corrected scores (docs/corrections.md).
"""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import MATCH_RECORDER, current_principal, requires
from api.common import doc, json_body, load, reply, service, stores_nothing

CORRECTION_IN, PREVIEW, MATCH = s.CorrectionSchema(), s.CorrectionPreviewSchema(), s.MatchSchema()

corrections = Blueprint("corrections", __name__, url_prefix="/api/matches")


@corrections.post("/<match_id>/corrections/preview")
@stores_nothing
@requires(MATCH_RECORDER)
@doc("What correcting a scored deal to these facts scores, and the table after it; stores nothing (422 "
     "`impossible_slip`/`bad_slip` for facts the rules rule out or that do not read, `not_correctable` for a "
     "correction that is the committee's)", body=CORRECTION_IN, response=PREVIEW, errors=(400, 404, 422))
def preview_correction(match_id: str) -> tuple[Response, int]:
    body = load(CORRECTION_IN, json_body())
    return reply(PREVIEW, service().tables.preview_correction(match_id, body["number"], body["facts"]))


@corrections.post("/<match_id>/corrections")
@requires(MATCH_RECORDER)
@doc("Correct a scored deal of the table (更正, not an appeal): its facts as they should have been and the "
     "reason; the deal's scores and the table's standing follow on every page, in the standings and pairing",
     body=CORRECTION_IN, response=MATCH, status=201, errors=(400, 404, 422))
def correct_deal(match_id: str) -> tuple[Response, int]:
    body = load(CORRECTION_IN, json_body())
    match = service().tables.correct(match_id, body["number"], body["facts"], body.get("reason", ""),
                                     recorded_by=current_principal().recorded_by)
    return reply(MATCH, match, 201)
