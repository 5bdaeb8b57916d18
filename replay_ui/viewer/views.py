"""The viewer's pages and its one JSON endpoint.

Pages are rendered on the server from Fupan answers (lists, tables, the printable record); the deal
viewer and the charts are scripts over JSON. Every byte comes from this process: static files from
`replay_ui/viewer/static` and the other families' folders (replay_ui/shared/assets.py), plotly.js from the
installed `plotly` package (a venue may have no internet).

Hidden cards: the only source of hands the viewer has is `Fupan.deals.replay_all(deal, viewpoint, reader)`,
the same engine-filtered views the /api replay endpoints serve (docs/SECURITY.md §4), for the request's principal (the
anonymous public unless a bearer token came with it, api/auth.py). Pages embed no hands, and the text record
asks for the `public` viewpoint, which shows hands only once a deal is published.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import plotly
from flask import Blueprint, Response, current_app, jsonify, render_template, request, send_file, url_for
from markupsafe import Markup, escape

from domain.games import get_engine, get_game
from domain.kernel.errors import NotFound
from projections.appeal_effects import score_outcomes
from replay_ui.games import ui_for
from replay_ui.pages import (
    as_corrected,
    correction_texts,
    deal_context,
    described_frames,
    game_script,
    not_found_page,
    reader,
    scores_named,
    seat_mark,
    service,
)
from replay_ui.shared import i18n, transfer
from replay_ui.shared.notation import foul_names
from replay_ui.viewer.marks import deal_marks
from replay_ui.viewer.slip_facts import slip_lines

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
YEAR = 365 * 24 * 3600

pages = Blueprint("replay_ui", __name__, template_folder="templates")
pages.register_error_handler(NotFound, not_found_page)
ui_api = Blueprint("replay_ui_api", __name__, url_prefix="/ui-api")


# --- pages --------------------------------------------------------------------------------------------


@pages.get("/")
def index() -> str:
    return render_template("index.html", tournaments=service().tournaments.all())


@pages.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str) -> str:
    app = service()
    tournament = app.tournaments.get(tournament_id)
    outcomes = _outcomes(tournament_id)  # each table as the standings count it (an appeal's outcome in effect)
    matches = [_as_ruled(m, outcomes)[0] for m in app.tables.of_tournament(tournament_id)]
    standings = {m["id"]: ui_for(m["game"]).standing_text(m, m["seat_names"]) for m in matches}
    leaders = {m["id"]: ui_for(m["game"]).table_leaders(m) if m["ended_by"] == "closed" else [] for m in matches}
    return render_template("tournament.html", tournament=tournament, matches=matches, standings=standings,
                           leaders=leaders)


@pages.get("/tournaments/<tournament_id>/standings")
def standings_page(tournament_id: str) -> str:
    # The table and chart are drawn by the script from GET /api/tournaments/<id>/standings (the projections).
    return render_template("standings.html", tournament=service().tournaments.get(tournament_id))


@pages.get("/matches/<match_id>")
def match_page(match_id: str) -> str:
    app = service()
    match, ruled = _as_ruled(app.tables.get(match_id))  # as the standings count it: an appeal's outcome in effect
    tournament = app.tournaments.get(match["tournament_id"])
    names = list(match["seat_names"])
    ui = ui_for(match["game"])
    deals = [as_corrected(deal, match) for deal in app.deals.of_match(match_id, reader())]
    rows = ui.match_rows(match, deals, names)
    slips = {deal["id"] for deal in deals if deal.get("result_only")}
    for row in rows:  # 成绩单: a deal entered as a score slip is marked, and has no replay to link to
        row["result_only"] = row.get("id") in slips
    marked = {deal["id"]: deal_marks(app, deal, names, reader()) for deal in deals}
    corrected = {deal["id"]: correction_texts(deal, names) for deal in deals if "corrected" in deal}
    published = current_app.config.get("FUPAN_PUBLISHING")  # a published copy has no pad to correct on
    finished = {} if published else {deal["id"]: deal["number"] for deal in deals if deal["finished"]}
    for row in rows:  # 更正: the organiser or the table's referee corrects a scored deal on the pad (a token)
        if row.get("id") in finished:
            row["correct_url"] = url_for("pad_ui.match_pad", match_id=match_id, correct=finished[row["id"]])
    for row in rows:  # its fouls and penalties beside a deal's figures: a −3 says why; a 更正 says why too
        row["marks"] = marked.get(row.get("id"), [])
        if row.get("id") in corrected:
            texts = corrected[row["id"]]
            row["corrected"] = True
            row["marks"] = [*row["marks"], {"kind": "corrected", "who": "", "zh": texts["zh"]["mark"],
                                            "en": texts["en"]["mark"]}]
    _appeal_marks(rows, ruled, names)
    return render_template("match.html", match=match, tournament=tournament, names=names, rows=rows,
                           chart=ui.match_chart(match, names),
                           printable=any(not deal.get("result_only") for deal in deals))  # the PDF's deals


def _outcomes(tournament_id: str) -> dict[str, dict[str, Any]]:
    """deal id → the appeal's score outcome in effect on it, from the standings' own read (none without them)."""
    projections = current_app.extensions.get("fupan.projections")
    return {} if projections is None else score_outcomes(projections.facts(tournament_id).appeals)


def _as_ruled(match: dict[str, Any], outcomes: dict[str, dict[str, Any]] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(the table as the standings count it, deal id → the appeal's outcome in effect and the scores as played).
    A deal an appeal's outcome rescored (projections/appeal_effects.py, the standings' own read) has the score
    the outcome gives, and the running figures after it (scores, chips) move with it — on the rows, the chart
    and the table's standing alike. Corrections (更正) are the table's own scores already."""
    outcomes = _outcomes(match["tournament_id"]) if outcomes is None else outcomes
    ruled = {e["deal_id"]: {**outcomes[e["deal_id"]], "was": e["scores"]} for e in match["deals"]
             if e["deal_id"] in outcomes and e["scores"]}
    if not ruled:
        return match, {}
    shown = copy.deepcopy(match)
    moved = [0] * len(match["seats"])

    def shifted(values: Any) -> Any:
        if isinstance(values, list) and len(values) == len(moved) and all(isinstance(v, int) for v in values):
            return [v + m for v, m in zip(values, moved, strict=True)]
        return values

    for entry in shown["deals"]:
        found = ruled.get(entry["deal_id"])
        if found is not None and "scores" in found["outcome"]:
            new = found["outcome"]["scores"]
            moved = [m + a - b for m, a, b in zip(moved, new, entry["scores"], strict=True)]
            entry["scores"] = list(new)
        if any(moved) and entry["standing"]:
            entry["chips"] = shifted(entry["chips"])
            entry["standing"] = {**entry["standing"], **{k: shifted(entry["standing"][k]) for k in ("scores", "chips")
                                                          if k in entry["standing"]}}
    if any(moved):
        shown["chips"] = shifted(shown["chips"])
        shown["standing"] = {**shown["standing"], **{k: shifted(shown["standing"][k]) for k in ("scores", "chips")
                                                     if k in shown["standing"]}}
    return shown, ruled


def _appeal_marks(rows: list[dict[str, Any]], ruled: dict[str, dict[str, Any]], names: list[str]) -> None:
    """申诉 under a rescored deal: what the outcome did, the scores as played by name, a link to the appeal."""
    for row in rows:
        found = ruled.get(row.get("id") or "")
        if found is None:
            continue
        row["appealed"] = True
        row["marks"] = [*row.get("marks", []), {
            "kind": "appeal", "who": "", "href": f"/appeals/{found['appeal_id']}",
            **{lang: i18n.text(f"appeal.mark.{found['outcome']['kind']}", lang,
                               was=scores_named(found["was"], names, lang)) for lang in i18n.LANGUAGES}}]


@pages.get("/deals/<deal_id>")
def deal_viewer(deal_id: str) -> str:
    context = deal_context(deal_id)
    deal = context["deal"]
    if deal.get("result_only"):
        return slip_page(context)  # a score slip: its facts and result, no replay
    boot = {
        "deal_id": deal["id"], "game": deal["game"], "names": context["names"], "seats": len(deal["seats"]),
        "number": deal["number"], "finished": deal["finished"], **context["figures"],
        "foul_names": foul_names(deal["game"]), "play_phase": get_engine(deal["game"]).play_phase,
        "entries": (context["match"] or {}).get("entries") or [],  # a team event's teams: its sides' names
        "suitless": bool(getattr(get_game(deal["game"]).analysis, "suitless", False)),  # the analysis groups ranks
        "seat_marks": {lang: [seat_mark(deal["game"], seat, lang) for seat in range(len(deal["seats"]))]
                       for lang in ("zh", "en")},
        "frames_url": url_for("replay_ui_api.frames", deal_id=deal["id"]),
        "deal_url": url_for("deals.get_deal", deal_id=deal["id"]), "version": deal["version"],
    }
    return render_template("deal.html", **context, boot=boot, neighbours=neighbours(context["match"], deal),
                           game_script=game_script(deal["game"]))


def slip_page(context: dict[str, Any]) -> str:
    """A score slip's page: its facts in words (every seat by its player's name) and its result."""
    deal = context["deal"]
    return render_template("slip.html", **context, slip_lines=slip_lines(deal["game"], deal["slip"], context["names"]))


def neighbours(match: dict[str, Any] | None, deal: dict[str, Any]) -> dict[str, str | None]:
    """The deals before and after this one at its table (none for a deal on its own)."""
    entries = match["deals"] if match else []
    at = next((index for index, entry in enumerate(entries) if entry["deal_id"] == deal["id"]), None)
    if at is None:
        return {"previous": None, "next": None}
    return {"previous": entries[at - 1]["deal_id"] if at > 0 else None,
            "next": entries[at + 1]["deal_id"] if at + 1 < len(entries) else None}


def dealt_view(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The table as dealt, for the record's hands: step 0, or in a game dealt card by card (升级: declarations
    come while dealing) the first step past dealing."""
    return next((frame["view"] for frame in frames if frame["view"].get("phase") != "dealing"), frames[0]["view"])


@pages.get("/deals/<deal_id>/record")
def deal_record(deal_id: str) -> str:
    context = deal_context(deal_id)
    if context["deal"].get("result_only"):
        return slip_page(context)
    replay = described_frames(deal_id, "public", context["names"])
    final = replay["frames"][-1]["view"]
    summary = [n.as_json() for n in ui_for(final["game"]).summarize(final, context["names"])]
    return render_template("record.html", **context, replay=replay, dealt=dealt_view(replay["frames"]),
                           summary=summary)


@pages.get("/ui/vendor/plotly.min.js")
def plotly_js() -> Response:
    """plotly.js from the installed package; the version is in the URL (?v=), so it may be cached for a year."""
    response = send_file(PLOTLY_JS, mimetype="text/javascript", max_age=YEAR, conditional=True)
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


# --- JSON for the deal viewer --------------------------------------------------------------------------


@ui_api.get("/deals/<deal_id>/frames")
def frames(deal_id: str) -> Response:
    """Every step of the deal as `viewpoint` (default: public) may see it, with each step in words.

    The views are Fupan.deals.replay_all's, filtered by the engine on the server; the words are made from
    those filtered frames only.
    """
    context = deal_context(deal_id)
    viewpoint = request.args.get("viewpoint", "public")

    def payload() -> dict[str, Any]:
        folded = described_frames(deal_id, viewpoint, context["names"])
        folded["names"] = context["names"]
        return folded

    deal = context["deal"]
    # Published (closed, its public delay passed): the same for every reader until its next event
    # (replay_ui/shared/transfer.py). A deal held back by the delay is not: its referee sees more than the public.
    if deal["finished"] and service().deals.public_record(deal_id):
        return transfer.finished_frames((deal["id"], deal["version"], viewpoint), payload)
    return jsonify(payload())


# --- the broadcast (直播): the live tables under the tournament's public delay ---------------------------------


@pages.get("/tournaments/<tournament_id>/broadcast")
def broadcast_page(tournament_id: str) -> str:
    """The tables of a tournament with their standing, one of them followed (`?follow=<match id>`, else the first
    live one) by broadcast.js over /ui-api/matches/<id>/broadcast. Nothing of a deal is in the page itself."""
    app = service()
    listing = app.tournaments.broadcast(tournament_id)
    matches = app.tables.of_tournament(tournament_id)
    standings = {m["id"]: ui_for(m["game"]).standing_text(m, m["seat_names"]) for m in matches}
    asked = request.args.get("follow", "")
    ids = [m["id"] for m in matches]
    follow = asked if asked in ids else next((m["id"] for m in matches if m["status"] == "live"), ids[0] if ids else "")
    return render_template("broadcast.html", tournament=app.tournaments.get(tournament_id), matches=matches,
                           standings=standings, follow=follow, delay=listing["delay"],
                           delay_text=delay_words(listing["delay"]))


CHINESE_NUMBERS = "零一两三四五六七八九十"


def delay_words(delay: dict[str, Any]) -> Any:
    """The delay as a page says it, Chinese first: 延迟一局, 延迟两墩, 延迟10分钟; 无直播延迟 for none."""
    kind, amount = delay["kind"], delay["amount"]
    if kind == "deals" and amount == 0:
        return i18n.bilingual("broadcast.delay.none")
    # The Chinese says a small count in words (一局, 两墩), the English in figures: each language its own number.
    said = CHINESE_NUMBERS[amount] if kind != "minutes" and amount < len(CHINESE_NUMBERS) else str(amount)
    zh = escape(i18n.counted(f"broadcast.delay.{kind}", "zh", amount, n=said))
    en = escape(i18n.counted(f"broadcast.delay.{kind}", "en", amount, n=amount))
    return Markup(f'<span class="zh" lang="zh-CN">{zh}</span><span class="en" lang="en">{en}</span>')


@ui_api.get("/matches/<match_id>/broadcast")
def broadcast_table(match_id: str) -> Response:
    """A followed table as its reader may see it under the delay (Fupan.deals.broadcast, the one place that decides
    it), with each shown step in words. What a broadcast stream pushes should be this answer."""
    followed = service().deals.broadcast(match_id, reader())
    if followed["following"] is not None:
        shown = followed["following"]
        followed["following"] = {**described_frames(shown["deal_id"], "public", followed["seat_names"], shown),
                                 "number": shown["number"]}
    return jsonify(followed)


BLUEPRINTS = (pages, ui_api)
transfer.install(*BLUEPRINTS)
