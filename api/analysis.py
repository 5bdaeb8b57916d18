"""GET /api/deals/<id>/analysis?step=&limit_ms=: perfect open-hand play at a step of a stored deal
(docs/analysis.md). Every hand is in the answer, so a deal still being played is analysed only for its referee,
the organiser and the appeals committee (the service checks it, as for a record); a finished deal for anyone."""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import ANYONE, current_principal, requires
from api.common import doc, load_query, reply, service

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
