"""Duplicate travellers (`/matches/<id>/travellers`): for each board a table of a round played, every table's
result on that board side by side, seat by seat (the same cards sat in the same seat at every table), with the
matchpoints it earned, each linked to its replay — what Bridgemate prints as a traveller.

The boards are the game's (`MatchRules.board`: 挖坑's `context.board`); the matchpoints are the standings' own
(projections, the 挖坑 rules B7), read from each player's explanation, never computed again here. So is an
appeal's effect (docs/appeals.md): an adjusted score is shown as it is matchpointed, a voided board as compared
with nothing, and the board's replay at that table (the redeal) as a row of its own.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template

from domain.games import get_table
from replay_ui.pages import service

traveller_pages = Blueprint("travellers_ui", __name__, template_folder="templates")


def match_deals(match: dict[str, Any]) -> list[dict[str, Any]]:
    return [service().deals.get(entry["deal_id"]) for entry in match["deals"]]


def matchpoints(tournament_id: str, players: set[str]) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """Each deal's matchpoints by deal id and seat, from the standings' explanation of each player; and what an
    appeal did to a deal (deal id → the explanation's deal: `appeal`, `voided`, `replaces`, `counted`)."""
    explained: dict[str, dict[str, Any]] = {}
    appealed: dict[str, Any] = {}
    projections = current_app.extensions["fupan.projections"]
    for player in players:
        for table in projections.explain(tournament_id, player)["matches"]:
            if table.get("bye"):  # a bye's boards were played at no table: nothing to compare on a traveller
                continue
            for deal in table["deals"]:
                explained.setdefault(deal["deal_id"], {})[table["seat"]] = deal["facts"]
                if deal.get("appeal"):
                    appealed[deal["deal_id"]] = {**deal, "match_id": table["match_id"]}
    return explained, appealed


@traveller_pages.get("/matches/<match_id>/travellers")
def travellers(match_id: str) -> str:
    app = service()
    match = app.tables.get(match_id)
    tournament = app.tournaments.get(match["tournament_id"])
    rules = get_table(match["game"])
    here = {entry["id"]: entry for entry in tournament["matches"]}[match_id]
    same_round = [app.tables.get(entry["id"]) for entry in tournament["matches"] if entry["round"] == here["round"]]
    players = {player["id"] for player in tournament["players"]
               if any(player["name"] in table["seat_names"] for table in same_round)}
    points, appealed = matchpoints(tournament["id"], players) if same_round else ({}, {})
    by_board: dict[int, list[dict[str, Any]]] = {}
    for table in same_round:
        redeals = [app.deals.get(deal_id) for deal_id, deal in appealed.items()
                   if deal.get("replaces") and deal["match_id"] == table["id"]]
        for deal in [*match_deals(table), *redeals]:
            board = rules.board(deal.get("context") or {})
            if board is not None and deal["finished"]:
                by_board.setdefault(board, []).append({"match": table, "deal": deal})
    mine = sorted({rules.board(deal.get("context") or {}) for deal in match_deals(match)} - {None})
    if not mine:  # a game without boards: the page says so (it is a page of every table, as its match page is)
        return render_template("travellers.html", match=match, tournament=tournament, boards=[])
    boards = []
    for board in mine:
        rows = []
        for played in sorted(by_board.get(board, []), key=lambda p: p["match"]["table"]):
            deal, table = played["deal"], played["match"]
            appeal = appealed.get(deal["id"])
            adjusted = (appeal or {}).get("appeal", {}).get("outcome") in ("assigned", "weighted")
            seats = [{"name": table["seat_names"][seat], "facts": (facts := points.get(deal["id"], {}).get(seat, {})),
                      "score": facts.get("score", score) if adjusted else score}  # adjusted: as matchpointed
                     for seat, score in enumerate(deal["result"]["scores"])]
            rows.append({"match": table, "deal": deal, "seats": seats, "here": table["id"] == match_id,
                         "appeal": appeal})
        boards.append({"board": board, "rows": rows, "seats": len(match["seats"])})
    return render_template("travellers.html", match=match, tournament=tournament, boards=boards)
