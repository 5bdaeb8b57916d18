"""Finding deals (`/deals`): every deal of every tournament and every deal created on its own (POST /api/deals,
which belongs to no table), filtered by tournament, table, player, game and by what happened in it — a foul, a
penalty, an appeal, an annotation.

An appeal is one filed with the tournament's appeals committee (domain/model/appeal.py) against the deal, or against
its table as a whole. Fouls and penalties come from each deal's public view (replay_ui/viewer/marks.py), read only for
the deals the other filters leave.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from replay_ui.pages import reader, service
from replay_ui.viewer.marks import deal_marks

finder_pages = Blueprint("finder_ui", __name__, template_folder="templates")

HAPPENINGS = ("foul", "penalty", "appeal", "annotation")
SHOWN = 300  # rows on one page; the filters narrow the rest


def deal_rows() -> list[dict[str, Any]]:
    """Every deal the reader may list, with where it was played: tournament, table, players."""
    app = service()
    who = reader()
    tournaments = {t["id"]: t for t in app.tournaments.all()}
    matches: dict[str, dict[str, Any]] = {}
    for tournament in tournaments.values():
        for match in app.tables.of_tournament(tournament["id"]):
            matches[match["id"]] = match
    rows = []
    for deal in app.deals.all(who):
        match = matches.get(deal["match_id"] or "")
        tournament = tournaments.get(match["tournament_id"]) if match else None
        rows.append({
            "deal": deal, "match": match, "tournament": tournament,
            "names": list(match["seat_names"]) if match else list(deal["seats"]),
        })
    rows.sort(key=lambda row: (row["tournament"] is not None, row["tournament"]["name"] if row["tournament"] else "",
                               row["match"]["table"] if row["match"] else "", row["deal"]["number"] or 0,
                               row["deal"]["created_at"]))
    return rows


def wanted(row: dict[str, Any], args: dict[str, str]) -> bool:
    """The filters that need no replay: tournament ('-': on its own), table, player, game, annotation, appeal."""
    deal, tournament, match = row["deal"], row["tournament"], row["match"]
    if args.get("tournament") == "-" and tournament is not None:
        return False
    if args.get("tournament") not in (None, "", "-") and (tournament is None or tournament["id"] != args["tournament"]):
        return False
    if args.get("table") and (match is None or match["table"] != args["table"]):
        return False
    if args.get("game") and deal["game"] != args["game"]:
        return False
    if args.get("player") and not any(args["player"] in name for name in row["names"]):
        return False
    return not (args.get("has") == "annotation" and not deal.get("annotations"))


def appealed(rows: list[dict[str, Any]]) -> set[str]:
    """The deals an appeal was filed against: by its deal, or every deal of the table it was filed against."""
    app, who = service(), reader()
    deals: set[str] = set()
    for tournament_id in {row["tournament"]["id"] for row in rows if row["tournament"]}:
        for appeal in app.appeals.of_tournament(tournament_id, who):
            against = appeal.get("against") or {}
            if against.get("deal_id"):
                deals.add(str(against["deal_id"]))
            else:
                deals |= {row["deal"]["id"] for row in rows
                          if row["match"] and row["match"]["id"] == appeal["match_id"]}
    return deals


@finder_pages.get("/deals")
def find_deals() -> str:
    args = {key: request.args.get(key, "").strip() for key in ("tournament", "table", "player", "game", "has")}
    rows = [row for row in deal_rows() if wanted(row, args)]
    app, who = service(), reader()
    if args["has"] == "appeal":
        against = appealed(rows)
        rows = [row for row in rows if row["deal"]["id"] in against]
    if args["has"] in ("foul", "penalty"):  # read from each remaining deal's public view
        for row in rows:
            row["marks"] = deal_marks(app, row["deal"], row["names"], who)
        rows = [row for row in rows if any(mark["kind"] == args["has"] for mark in row["marks"])]
    shown = rows[:SHOWN]
    for row in shown:
        if "marks" not in row:
            row["marks"] = deal_marks(app, row["deal"], row["names"], who)
    everything = deal_rows() if any(args.values()) else rows
    choices = {
        "tournaments": sorted({(r["tournament"]["id"], r["tournament"]["name"]) for r in everything if r["tournament"]},
                              key=lambda pair: pair[1]),
        "tables": sorted({r["match"]["table"] for r in everything if r["match"]}),
        "games": sorted({r["deal"]["game"] for r in everything}),
        "standalone": any(r["tournament"] is None for r in everything),
    }
    return render_template("find.html", rows=shown, found=len(rows), args=args, choices=choices,
                           happenings=HAPPENINGS)
