"""The appeals pages (docs/appeals.md): a tournament's appeals (`/tournaments/<id>/appeals`: status, table,
what is appealed, deadline) and one appeal (`/appeals/<id>`: the statement, the deadline, evidence linked into
the deal viewer at its step and viewpoint, the ruling, the committee's decision with its vote and score
changes, the timeline of every step with who and when, the chain's digest).

Rendered for the anonymous public (pages hold no token): while the disputed deal is live, the statement and
notes are withheld exactly as the API withholds them (FupanApplication.get_appeal).
"""

from __future__ import annotations

from flask import Blueprint, render_template

from domain.errors import NotFound
from replay_ui.views import reader, service

appeal_pages = Blueprint("appeals_ui", __name__, template_folder="templates")


@appeal_pages.get("/tournaments/<tournament_id>/appeals")
def tournament_appeals(tournament_id: str) -> str:
    app = service()
    tournament = app.get_tournament(tournament_id)
    tables = {m["id"]: m["table"] for m in tournament["matches"]}
    return render_template("appeals.html", tournament=tournament, tables=tables,
                           appeals=app.list_appeals(tournament_id, reader()))


@appeal_pages.get("/appeals/<appeal_id>")
def appeal_page(appeal_id: str) -> str:
    app = service()
    appeal = app.get_appeal(appeal_id, reader())
    tournament = app.get_tournament(appeal["tournament_id"])
    names = {p["id"]: p["name"] for p in app.list_players(appeal["tournament_id"])}
    table = next(m["table"] for m in tournament["matches"] if m["id"] == appeal["match_id"])
    return render_template("appeal.html", appeal=appeal, tournament=tournament, table=table, names=names)


@appeal_pages.errorhandler(NotFound)
def _not_found(error: NotFound) -> tuple[str, int]:
    from replay_ui.views import _not_found as page_not_found

    return page_not_found(error)
