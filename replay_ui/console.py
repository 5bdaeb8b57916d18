"""The organiser console's pages (docs/console.md): `/console` (sign in, create a tournament), a tournament's
console (entries, rounds, progress, penalties, standings) and a round's printable seating sheet.

The pages hold nothing secret and are open to anyone: the script asks for the organiser's token, keeps it in the
tab's sessionStorage (never in a URL) and sends it as a header to the console API (api/console.py) and the
ordinary routes, where the token is what decides. Referee cards carry fresh referee tokens, so they are made by
the script from the API's answer, never by a page. QR codes are SVG made here by segno, served as data: URIs.
"""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, render_template
from markupsafe import Markup, escape

from projections.formats import FORMATS
from replay_ui.views import service

console_pages = Blueprint("console_ui", __name__, template_folder="templates")


def qr_data_uri(text: str) -> str:
    """A QR code of `text` as an SVG data: URI (error correction M, black on white, a quiet zone of 2)."""
    return segno.make(text, error="m").svg_data_uri(scale=4, border=2)


@console_pages.app_template_global("format_name")
def format_name(code: str) -> Any:
    """A format's name in both languages (the stylesheet shows the one chosen); an unknown code as it is."""
    found = FORMATS.get(code)
    if found is None:
        return code
    zh, en = escape(found.zh), escape(found.en)
    return Markup(f'<span class="zh" lang="zh-CN">{zh}</span><span class="en" lang="en">{en}</span>')


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
