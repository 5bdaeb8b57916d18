"""/api/deals/<id>/retractions: the recorder takes back the last action still standing of a live deal.

A retraction is a new event (`Deal.Retracted`: who, when, why), never an edit; the rules then stand on the
actions still standing (domain/records/retraction.py). Who may: the deal's recorders, as for recording an action.
"""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import DEAL_RECORDER, current_principal, requires
from api.common import doc, json_body, load, reply, service

RETRACTION_IN, RETRACTED = s.RetractionCreateSchema(), s.RetractedSchema()

retractions = Blueprint("retractions", __name__, url_prefix="/api/deals")


@retractions.post("/<deal_id>/retractions")
@requires(DEAL_RECORDER)
@doc("Take back the last action still standing of a live deal, with the reason; the deal then stands on the "
     "actions still standing (422 `deal_over`, `not_last_action`, `nothing_to_retract`)", body=RETRACTION_IN,
     response=RETRACTED, status=201, errors=(400, 404, 409, 422))
def retract_action(deal_id: str) -> tuple[Response, int]:
    body = load(RETRACTION_IN, json_body())
    answer = service().deals.retract(deal_id, body["at"], body["reason"], body.get("expected_version"),
                                     recorded_by=current_principal().recorded_by)
    return reply(RETRACTED, answer, 201)
