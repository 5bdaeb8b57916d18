"""The organiser console's pages (docs/console.md): `/console` (sign in, create a tournament), a tournament's
console (entries, rounds, progress, penalties, standings) and a round's printable seating sheet.

The pages hold nothing secret and are open to anyone: the script asks for the organiser's token, keeps it in the
tab's sessionStorage (never in a URL) and sends it as a header to the console API (api/console.py) and the
ordinary routes, where the token is what decides. Referee cards carry fresh referee tokens, so they are made by
the script from the API's answer, never by a page (their QR codes come with it, api/console.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, render_template
from markupsafe import Markup, escape

from domain.games import get_engine
from projections.formats import FORMATS, resolve
from replay_ui.pages import seat_mark, service
from replay_ui.shared import i18n

# The console pages' strings (replay_ui/shared/i18n.py puts them in the one table every page embeds).
i18n.register(i18n.load_strings(Path(__file__).with_name("strings.toml")), "replay_ui/console/strings.toml")
console_pages = Blueprint("console_ui", __name__, template_folder="templates")


@console_pages.app_template_global("format_name")
def format_name(code: str) -> Any:
    """A format's name in both languages (the stylesheet shows the one chosen); an unknown code as it is."""
    found = FORMATS.get(code)
    if found is None:
        return code
    zh, en = escape(found.zh), escape(found.en)
    return Markup(f'<span class="zh" lang="zh-CN">{zh}</span><span class="en" lang="en">{en}</span>')


@console_pages.app_template_global("format_duplicate")
def format_duplicate(code: str) -> bool:
    """Whether a format scores by duplicate comparison (its penalties and adjustments are matchpoints)."""
    found = FORMATS.get(code)
    return found is not None and bool(found.duplicate)


@console_pages.get("/console")
def console_home() -> str:
    return render_template("console.html", tournament=None, seat_marks=None)


def seat_marks(game: str) -> dict[str, list[str]]:
    """The game's words for its seats by language (升级 东南西北; '' where it only numbers them): the script shows
    each seat as its player's name with the word (fupan.js Fupan.seatName)."""
    seats = get_engine(game).seat_count
    return {lang: [seat_mark(game, seat, lang) for seat in range(seats)] for lang in i18n.LANGUAGES}


@console_pages.get("/console/tournaments/<tournament_id>")
def console_tournament(tournament_id: str) -> str:
    tournament = service().tournaments.get(tournament_id)
    return render_template("console.html", tournament=tournament, seat_marks=seat_marks(tournament["game"]))


def table_entries(tournament_id: str, matches: list[dict[str, Any]], team_size: int) -> dict[str, list[dict[str, Any]]]:
    """Match id → the entries (teams, pairs) at the table with their departments, in the order of their first seat;
    none in a format of single players."""
    if team_size == 1:
        return {match["id"]: [] for match in matches}
    entry_of = {m["id"]: {"name": e["name"], "department": e["department"]}
                for e in service().tournaments.entries(tournament_id)["entries"] for m in e["members"]}
    out: dict[str, list[dict[str, Any]]] = {}
    for match in matches:
        seen: dict[str, dict[str, Any]] = {}
        for player in match["seats"]:
            entry = entry_of.get(player, {"name": player, "department": ""})
            seen.setdefault(entry["name"], entry)
        out[match["id"]] = list(seen.values())
    return out


@console_pages.get("/console/tournaments/<tournament_id>/rounds/<int:number>/seating")
def seating_sheet(tournament_id: str, number: int) -> str:
    app = service()
    tournament = app.tournaments.get(tournament_id)
    matches = [app.tables.get(m["id"]) for m in tournament["matches"] if m["round"] == number]
    info = next((r for r in tournament["rounds"] if r["round"] == number), {"round": number, "label": ""})
    names = {p["id"]: p["name"] for p in tournament["players"]}
    byes = [names.get(p, p) for p in info.get("byes", [])]
    size = resolve(tournament["game"], tournament["format"], tournament["tiebreaks"])[0].team_size
    teams = table_entries(tournament_id, matches, size)
    # a bye team named as a team, with its department
    bye_teams = table_entries(tournament_id, [{"id": "byes", "seats": info.get("byes", [])}], size)["byes"]
    return render_template("console_seating.html", tournament=tournament, matches=matches, round=info, byes=byes,
                           teams=teams, bye_teams=bye_teams)
