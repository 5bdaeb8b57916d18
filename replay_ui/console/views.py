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

from projections.formats import FORMATS
from replay_ui.pages import service
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
    return render_template("console.html", tournament=None)


@console_pages.get("/console/tournaments/<tournament_id>")
def console_tournament(tournament_id: str) -> str:
    return render_template("console.html", tournament=service().tournaments.get(tournament_id))


@console_pages.get("/console/tournaments/<tournament_id>/rounds/<int:number>/seating")
def seating_sheet(tournament_id: str, number: int) -> str:
    app = service()
    tournament = app.tournaments.get(tournament_id)
    matches = [app.tables.get(m["id"]) for m in tournament["matches"] if m["round"] == number]
    info = next((r for r in tournament["rounds"] if r["round"] == number), {"round": number, "label": ""})
    names = {p["id"]: p["name"] for p in tournament["players"]}
    byes = [names.get(p, p) for p in info.get("byes", [])]
    return render_template("console_seating.html", tournament=tournament, matches=matches, round=info, byes=byes)
