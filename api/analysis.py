"""GET /api/deals/<id>/analysis?step=&limit_ms=: perfect open-hand play at a step of a stored deal
(docs/analysis.md). Every hand is in the answer, so a deal still being played is analysed only for its referee,
the organiser and the appeals committee (the service checks it, as for a record); a finished deal for anyone."""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import ANYONE, current_principal, requires
from api.common import doc, json_body, load, load_query, reply, service, stores_nothing

ANALYSIS_QUERY, ANALYSIS = s.AnalysisQuerySchema(), s.AnalysisSchema()

analysis = Blueprint("analysis", __name__, url_prefix="/api/deals")


@analysis.get("/<deal_id>/analysis")
@requires(ANYONE)
@doc("Perfect open-hand play after `step` actions: each legal play of the seat to act with whether its side "
     "still wins (升级: the attackers' points), the verdict and a line; too_large beyond the budget",
     query=ANALYSIS_QUERY, response=ANALYSIS, errors=(400, 401, 403, 404, 422))
def analyse_deal(deal_id: str) -> tuple[Response, int]:
    query = load_query(ANALYSIS_QUERY)
    return reply(ANALYSIS, service().deals.analyse(deal_id, query.get("step"), query["limit_ms"], current_principal()))


VARIATION_IN, VARIATION_ANALYSIS_IN = s.VariationSchema(), s.VariationAnalysisSchema()
VARIATION = s.VariationAnswerSchema()


@analysis.post("/<deal_id>/variation")
@stores_nothing
@requires(ANYONE)
@doc("The board of variations at a node: after `step` entries, the variation's `actions` (and the passes nobody "
     "can avoid): every hand, the round on the table, the plays of the seat to act; stores nothing. 422 "
     "`illegal_line` names a refused action", body=VARIATION_IN, response=VARIATION, errors=(400, 401, 403, 404, 422))
def variation(deal_id: str) -> tuple[Response, int]:
    body = load(VARIATION_IN, json_body())
    return reply(VARIATION, service().deals.variation(deal_id, body["step"], body["actions"], current_principal(),
                                                      forced=body["forced"], list_plays=body["list_plays"]))


@analysis.post("/<deal_id>/analysis")
@stores_nothing
@requires(ANYONE)
@doc("The analysis of a node of the board: after `step` entries, then the variation's `actions`; the same answer "
     "as GET", body=VARIATION_ANALYSIS_IN, response=ANALYSIS, errors=(400, 401, 403, 404, 422))
def analyse_variation(deal_id: str) -> tuple[Response, int]:
    body = load(VARIATION_ANALYSIS_IN, json_body())
    return reply(ANALYSIS, service().deals.analyse_variation(deal_id, body["step"], body["actions"],
                                                             body["limit_ms"], current_principal()))
