"""/api: appeals (docs/appeals.md) — filed about a table, evidence, the chief referee's ruling, an appeal of it to
the committee, the committee's decision, withdrawal, closing; the tournament's list, one appeal with its
timeline, the impact preview and the result-blind review frames.

Who may (docs/SECURITY.md §3): the organiser or a referee of the table files, appeals the ruling and withdraws;
they and the appeals committee add evidence; the chief referee (the organiser, or a referee token it named in
the tournament's appeal rules — checked by the service, 403 `not_chief_referee`) rules and closes; the appeals
role decides. Reads are anyone's, filtered as the deal viewer's: while the disputed deal is in play, its
statement, notes and frames only for those with rights over the table (domain/services/visibility.py).
"""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas as s
from api.auth import (
    ANYONE,
    APPEAL_FILER,
    APPEAL_PARTY,
    CHIEF_REFEREE,
    COMMITTEE,
    MATCH_RECORDER,
    ORGANISER_ONLY,
    current_principal,
    requires,
)
from api.common import doc, json_body, load, load_query, reply, service, stores_nothing
from api.standings import projections

appeals = Blueprint("appeals", __name__, url_prefix="/api")

RULES_IN, RULES = s.AppealRulesSchema(), s.AppealRulesAnswerSchema()
FILE_IN, EVIDENCE_IN, RULING_IN = s.AppealFileSchema(), s.AppealEvidenceSchema(), s.AppealRulingSchema()
LINE_IN, RESPONSE_IN = s.AppealLineSchema(), s.AppealResponseSchema()
DECISION_IN, REASON_IN, CLOSE_IN = s.AppealDecisionSchema(), s.AppealReasonSchema(), s.AppealCloseSchema()
PREVIEW_IN, PREVIEW = s.AppealPreviewSchema(), s.AppealImpactSchema()
APPEAL, APPEALS = s.AppealSchema(), s.AppealListSchema()
FRAMES_QUERY, FRAMES = s.AppealFramesQuerySchema(), s.AppealFramesSchema()
STEP_ERRORS = (400, 403, 404, 409, 422)


SANDBOX_IN, SANDBOX = s.SandboxSchema(), s.SandboxAnswerSchema()


LINE_ANALYSIS_IN, LINE_ANALYSIS = s.LineAnalysisSchema(), s.LineAnalysisAnswerSchema()


def _by() -> dict:
    return current_principal().recorded_by


def _step(answer: tuple[dict, bool]) -> tuple[Response, int]:
    """201 when the step was recorded, 200 when the same step was sent again (nothing new stored)."""
    appeal, changed = answer
    return reply(APPEAL, appeal, 201 if changed else 200)


@appeals.get("/tournaments/<tournament_id>/appeal-rules")
@requires(ANYONE)
@doc("The tournament's appeal rules: the deadline after a table's last deal, the chief referees",
     response=RULES, errors=(404,))
def get_appeal_rules(tournament_id: str) -> tuple[Response, int]:
    return reply(RULES, service().appeals.rules(tournament_id))


@appeals.post("/tournaments/<tournament_id>/appeal-rules")
@requires(ORGANISER_ONLY)
@doc("Set the appeal deadline and name chief referees (referee token ids)", body=RULES_IN, response=RULES,
     errors=(400, 404, 409, 422))
def set_appeal_rules(tournament_id: str) -> tuple[Response, int]:
    body = load(RULES_IN, json_body())
    return reply(RULES, service().appeals.set_rules(tournament_id, body["deadline_minutes"], body["chief_referees"],
                                                    recorded_by=_by()))


@appeals.post("/matches/<match_id>/appeals")
@requires(MATCH_RECORDER)
@doc("File an appeal about this table (a deal and step, its result, a ruling or a penalty); late (422 "
     "`late_appeal`, nothing stored) unless the chief referee accepts it with `accept_late`", body=FILE_IN,
     response=APPEAL, status=201, errors=(400, 403, 404, 409, 422))
def file_appeal(match_id: str) -> tuple[Response, int]:
    body = load(FILE_IN, json_body())
    appeal = service().appeals.file(match_id, body["against"], body["category"], body["statement"],
                                    body["on_behalf_of"], body.get("accept_late"), recorded_by=_by())
    return reply(APPEAL, appeal, 201)


@appeals.get("/tournaments/<tournament_id>/appeals")
@requires(ANYONE)
@doc("A tournament's appeals with their status and deadlines", response=APPEALS, errors=(404,))
def list_appeals(tournament_id: str) -> tuple[Response, int]:
    found = service().appeals.of_tournament(tournament_id, current_principal())
    return reply(APPEALS, {"tournament_id": found[0]["tournament_id"] if found else tournament_id,
                           "appeals": found})


@appeals.get("/appeals/<appeal_id>")
@requires(ANYONE)
@doc("One appeal with its timeline (every step with who and when)", response=APPEAL, errors=(404,))
def get_appeal(appeal_id: str) -> tuple[Response, int]:
    return reply(APPEAL, service().appeals.get(appeal_id, current_principal()))


@appeals.post("/appeals/<appeal_id>/evidence")
@requires(APPEAL_PARTY)
@doc("Add evidence: a (deal, step, viewpoint) reference into the viewer, a note, or both", body=EVIDENCE_IN,
     response=APPEAL, status=201, errors=STEP_ERRORS)
def add_evidence(appeal_id: str) -> tuple[Response, int]:
    body = load(EVIDENCE_IN, json_body())
    return reply(APPEAL, service().appeals.add_evidence(appeal_id, body["reference"], body["note"], recorded_by=_by()),
                 201)


@appeals.post("/appeals/<appeal_id>/responses")
@requires(APPEAL_PARTY)
@doc("Record the other side's statement (the players the appeal is against), written down by the committee or a "
     "referee of the table; shown beside the appellant's on the appeal and in its report", body=RESPONSE_IN,
     response=APPEAL, status=201, errors=STEP_ERRORS)
def record_response(appeal_id: str) -> tuple[Response, int]:
    body = load(RESPONSE_IN, json_body())
    return reply(APPEAL, service().appeals.record_response(appeal_id, body["statement"], body["on_behalf_of"],
                                                          recorded_by=_by()), 201)


@appeals.post("/appeals/<appeal_id>/lines")
@requires(APPEAL_PARTY)
@doc("A what-if line (the sandbox): from a step of the disputed deal, other actions through the same rules engine "
     "to the end, kept on the appeal (the deal untouched); its scores can be a weighted outcome's part (`line`). "
     "422 `illegal_line` names the first refused action, `line_unfinished` a line that does not end the deal; "
     "`complete: true`: the solver's best play ends it (422 `line_too_large` past its budget)",
     body=LINE_IN, response=APPEAL, status=201, errors=STEP_ERRORS)
def add_line(appeal_id: str) -> tuple[Response, int]:
    body = load(LINE_IN, json_body())
    return reply(APPEAL, service().appeals.add_line(appeal_id, body["from_step"], body["actions"], body["label"],
                                                    recorded_by=_by(), complete=body["complete"]), 201)


@appeals.post("/appeals/<appeal_id>/sandbox")
@stores_nothing
@requires(APPEAL_PARTY)
@doc("A line being built (the sandbox on the appeal's page): the state after `actions` from `from_step`, the seat to "
     "act's choices, or the line's scores once it ends; stores nothing. 422 `illegal_line` names a refused action",
     body=SANDBOX_IN, response=SANDBOX, errors=STEP_ERRORS)
def sandbox(appeal_id: str) -> tuple[Response, int]:
    body = load(SANDBOX_IN, json_body())
    return reply(SANDBOX, service().appeals.sandbox(appeal_id, body["from_step"], body["actions"],
                                                    forced=body["forced"], list_plays=body["list_plays"]))


@appeals.post("/appeals/<appeal_id>/analysis")
@stores_nothing
@requires(APPEAL_PARTY)
@doc("The analysis of a node of the appeal's board of variations: the disputed deal's entries up to `from_step`, "
     "then `actions`; the answer of GET /api/deals/<id>/analysis without the deal's id; stores nothing",
     body=LINE_ANALYSIS_IN, response=LINE_ANALYSIS, errors=STEP_ERRORS)
def analyse_line(appeal_id: str) -> tuple[Response, int]:
    body = load(LINE_ANALYSIS_IN, json_body())
    return reply(LINE_ANALYSIS, service().appeals.analyse(appeal_id, body["from_step"], body["actions"],
                                                          body["limit_ms"]))


@appeals.post("/appeals/<appeal_id>/ruling")
@requires(CHIEF_REFEREE)
@doc("The chief referee's ruling and its outcome, applied to the standings as compensating adjustments",
     body=RULING_IN, response=APPEAL, status=201, errors=STEP_ERRORS)
def rule(appeal_id: str) -> tuple[Response, int]:
    body = load(RULING_IN, json_body())
    return _step(service().rulings.rule(appeal_id, body["outcome"], body["reason"], recorded_by=_by()))


REDEAL_IN, DEAL = s.AppealRedealSchema(), s.DealSchema()


@appeals.post("/appeals/<appeal_id>/redeal")
@requires(CHIEF_REFEREE)
@doc("Deal the appeal's voided deal again at its table (the voided deal's seats, first seat and context; a 挖坑 "
     "board: the same cards): the new deal, with `replaces`, recorded as any deal, counts in the voided one's "
     "place while the outcome stays `void`. 200 with the same deal when sent again; 422 `not_void` unless the "
     "outcome in effect is `void`, `deal_in_progress` while the table plays a deal", body=REDEAL_IN, response=DEAL,
     status=201, found=DEAL, errors=STEP_ERRORS)
def redeal(appeal_id: str) -> tuple[Response, int]:
    load(REDEAL_IN, json_body())
    deal, dealt = service().rulings.redeal(appeal_id, recorded_by=_by())
    return reply(DEAL, deal, 201 if dealt else 200)


@appeals.post("/appeals/<appeal_id>/committee")
@requires(APPEAL_FILER)
@doc("Appeal the ruling to the committee", body=REASON_IN, response=APPEAL, status=201, errors=STEP_ERRORS)
def appeal_ruling(appeal_id: str) -> tuple[Response, int]:
    body = load(REASON_IN, json_body())
    return _step(service().appeals.appeal_ruling(appeal_id, body["reason"], recorded_by=_by()))


@appeals.post("/appeals/<appeal_id>/decision")
@requires(COMMITTEE)
@doc("The committee's decision with its members and vote; the standings move from the ruling's outcome to it",
     body=DECISION_IN, response=APPEAL, status=201, errors=STEP_ERRORS)
def decide(appeal_id: str) -> tuple[Response, int]:
    body = load(DECISION_IN, json_body())
    return _step(service().rulings.decide(appeal_id, body["outcome"], body["reason"], body["members"], body["vote"],
                                          recorded_by=_by()))


@appeals.post("/appeals/<appeal_id>/withdrawal")
@requires(APPEAL_FILER)
@doc("Withdraw the appeal (an outcome already applied stays)", body=REASON_IN, response=APPEAL, status=201,
     errors=STEP_ERRORS)
def withdraw(appeal_id: str) -> tuple[Response, int]:
    body = load(REASON_IN, json_body())
    return _step(service().appeals.withdraw(appeal_id, body["reason"], recorded_by=_by()))


@appeals.post("/appeals/<appeal_id>/closing")
@requires(CHIEF_REFEREE)
@doc("Close the appeal after its ruling or decision", body=CLOSE_IN, response=APPEAL, status=201,
     errors=STEP_ERRORS)
def close(appeal_id: str) -> tuple[Response, int]:
    body = load(CLOSE_IN, json_body())
    return _step(service().appeals.close(appeal_id, body["note"], recorded_by=_by()))


@appeals.post("/appeals/<appeal_id>/preview")
@stores_nothing
@requires(ANYONE)
@doc("The standings before and after this outcome were decided now; stores nothing", body=PREVIEW_IN,
     response=PREVIEW, errors=(400, 404, 422))
def preview(appeal_id: str) -> tuple[Response, int]:
    body = load(PREVIEW_IN, json_body())
    proposed = service().rulings.adjustments(appeal_id, body["outcome"])
    # The outcome itself too: a voided or adjusted deal moves tiebreaks and matchpoints, not only totals.
    with service().store.outside_lock():  # the standings recomputed, anyone may ask: the process's others go on
        answer = projections().preview(proposed["tournament_id"], proposed["adjustments"],
                                       appeal_outcome=(appeal_id, proposed["outcome"]))
    return reply(PREVIEW, {**answer, "outcome": proposed["outcome"], "table_end": proposed["table_end"]})


@appeals.get("/appeals/<appeal_id>/frames")
@requires(ANYONE)
@doc("The disputed deal for review: result-blind (up to the judged step, no result, no later steps or scores) "
     "unless `reveal=true`; a live deal's seat and referee views only for those with rights",
     query=FRAMES_QUERY, response=FRAMES, errors=(400, 401, 403, 404, 422))
def frames(appeal_id: str) -> tuple[Response, int]:
    query = load_query(FRAMES_QUERY)
    return reply(FRAMES, service().appeals.review(appeal_id, query["viewpoint"], current_principal(),
                                                  reveal=query["reveal"]))
