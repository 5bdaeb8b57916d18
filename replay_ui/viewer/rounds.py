"""A round's results page (`/tournaments/<id>/rounds/<n>`): its tables and the round's published digest (domain/
digests.py), printable, so that anyone holding the printout can check the record later with
`fupan verify --digest …`. The digest is also on each deal's printable record (the round as it stood when that
deal closed), through the template global `deal_round_digest`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from domain.kernel.errors import NotFound
from replay_ui.games import ui_for
from replay_ui.pages import not_found_page, service

round_pages = Blueprint("rounds_ui", __name__, template_folder="templates")
round_pages.register_error_handler(NotFound, not_found_page)


@round_pages.app_template_global("round_digests_of")
def _round_digests_of(tournament_id: str) -> list[dict[str, Any]]:
    return service().records.round_digests(tournament_id)


@round_pages.app_template_global("deal_round_digest")
def _deal_round_digest(deal_id: str) -> dict[str, Any] | None:
    return service().records.deal_round_digest(deal_id)


@round_pages.get("/tournaments/<tournament_id>/rounds/<int:number>")
def round_page(tournament_id: str, number: int) -> str:
    app = service()
    tournament = app.tournaments.get(tournament_id)
    stage = next(iter(app.records.round_digests(tournament_id, only=number)), None)
    if stage is None:
        raise NotFound("not_found", f"No round {number} in this tournament.", f"本赛事没有第 {number} 轮。",
                       {"id": f"{tournament_id}/rounds/{number}", "kind": "round"})
    matches = [app.tables.get(m["id"]) for m in tournament["matches"] if m["round"] == number]
    standings = {m["id"]: ui_for(m["game"]).standing_text(m, m["seat_names"]) for m in matches}
    return render_template("round.html", tournament=tournament, stage=stage, matches=matches, standings=standings)
