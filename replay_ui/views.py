"""The viewer's pages and its one JSON endpoint.

Pages are rendered on the server from Fupan answers (lists, tables, the printable record); the deal
viewer and the charts are scripts over JSON. Every byte comes from this process: static files from
`replay_ui/static`, plotly.js from the installed `plotly` package (a venue may have no internet).

Hidden cards: the only source of hands the viewer has is `Fupan.deals.replay_all(deal, viewpoint, reader)`,
the same engine-filtered views the /api replay endpoints serve (docs/SECURITY.md §4), for the request's principal (the
anonymous public unless a bearer token came with it, api/auth.py). Pages embed no hands, and the text record
asks for the `public` viewpoint, which shows hands only once a deal is published.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import plotly
from flask import Blueprint, Response, current_app, jsonify, render_template, request, send_file, url_for
from markupsafe import Markup

from domain.games import get_engine
from domain.kernel.errors import NotFound
from domain.model.token import Principal
from domain.services.fupan import Fupan
from replay_ui import i18n, transfer
from replay_ui.cards import card_text, is_red
from replay_ui.games import ui_for
from replay_ui.marks import deal_marks
from replay_ui.notation import foul_names, note_text
from replay_ui.retraction import describe_retraction, is_retraction_step, mark_retracted

STATIC = Path(__file__).with_name("static")
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
YEAR = 365 * 24 * 3600

pages = Blueprint("replay_ui", __name__, static_folder="static", static_url_path="/ui/static",
                  template_folder="templates")
ui_api = Blueprint("replay_ui_api", __name__, url_prefix="/ui-api")


def service() -> Fupan:
    return current_app.extensions["fupan"]


def reader() -> Principal:
    """Who is asking, as the host app's access guard decided (api/auth.py installs it). The viewer's routes are
    read-only and open to anyone; what each reader sees of a live deal is the service's decision."""
    return current_app.extensions["fupan.reader"]()


@pages.app_template_global("t")
def _t(key: str, **params: Any) -> Any:
    return i18n.bilingual(key, **params)


@pages.app_template_global("zh")
def _zh(key: str, **params: Any) -> str:
    """The Chinese alone, where no language spans fit (a <select>'s options): the element names the key in
    `data-i18n-text` and static/fupan.js writes it again in the language chosen."""
    return i18n.text(key, "zh", **params)


@pages.app_template_global("game_name")
def _game_name(game: str) -> Any:
    return i18n.bilingual(f"game.{game}") if f"game.{game}" in i18n.catalog() else game


@pages.app_template_global("table_name")
def _table_name(label: str) -> Any:
    """'第 1 桌' / 'Table 1' for a numbered table, never broken across lines (第 1 / 桌 in a narrow column); a named
    one (决赛, 加赛) is called by its name."""
    if not label.isdigit():
        return label
    return Markup('<span class="nowrap">') + i18n.bilingual("match.title", table=label) + Markup("</span>")


def seat_mark(game: str, seat: int, lang: str) -> str:
    """What people call a seat (GameUI.seat_marks): '2' (counted from 1), or 升级's '东'."""
    zh, en = ui_for(game).seat_marks(seat + 1)[seat]
    return zh if lang == "zh" else en


@pages.app_template_global("seat_mark")
def _seat_mark(game: str, seat: int) -> Any:
    zh, en = seat_mark(game, seat, "zh"), seat_mark(game, seat, "en")
    return zh if zh == en else both_languages(zh, en)


def both_languages(zh: str, en: str) -> Markup:
    """Two texts as the pair of language spans the stylesheet chooses between (escaped)."""
    return Markup('<span class="zh" lang="zh-CN">{}</span><span class="en" lang="en">{}</span>').format(zh, en)


@pages.app_template_global("seat_called")
def _seat_called(game: str, seat: int, name: str | None = None) -> Any:
    """A seat in a sentence ('2 号位', '东'); with `name`, the viewpoint button's '张伟（2 号位）'."""
    key = ui_for(game).seat_called
    called = {lang: i18n.text(key, lang, mark=seat_mark(game, seat, lang)) for lang in i18n.LANGUAGES}
    if name is not None:
        called = {lang: i18n.text("view.seat", lang, name=name, seat=called[lang]) for lang in called}
    return both_languages(called["zh"], called["en"])


@pages.app_template_global("note")
def _note(written: str) -> Any:
    """An organiser's or referee's note in the chosen language (one written "中文 / English" shows its half)."""
    return both_languages(note_text(written, "zh"), note_text(written, "en"))


@pages.app_template_global("card_html")
def _card_html(code: str) -> Any:
    """A card as printable text: '♥10' in red, '大王'/'Big Joker' as a pair of language spans."""
    colour = "red" if is_red(code) else "black"
    zh, en = card_text(code, "zh"), card_text(code, "en")
    inner = zh if zh == en else Markup(
        f'<span class="zh" lang="zh-CN">{zh}</span><span class="en" lang="en">{en}</span>')
    return Markup(f'<span class="pc {colour}" data-card="{code}">{inner}</span>')


@pages.app_context_processor
def _page_globals() -> dict[str, Any]:
    return {"strings": i18n.as_json(), "plotly_url": url_for("replay_ui.plotly_js", v=plotly.__version__)}


@pages.errorhandler(NotFound)
def _not_found(error: NotFound) -> tuple[str, int]:
    kind = error.details.get("kind")
    kind = kind if f"error.notfound.{kind}" in i18n.catalog() else "deal"
    return render_template("error.html", kind=kind, missing=error.details.get("id", "")), 404


# --- data for the pages -------------------------------------------------------------------------------


def seat_names(deal: dict[str, Any], match: dict[str, Any] | None) -> list[str]:
    """Players' display names; a deal outside a match only has its seat labels."""
    return list(match["seat_names"]) if match else list(deal["seats"])


def deal_context(deal_id: str) -> dict[str, Any]:
    """What every deal page shows around the table: where it was played, who sat where, and the game's figures
    of the table around the deal (`figures`, GameUI.deal_figures)."""
    app = service()
    deal = app.deals.get(deal_id, reader())
    match = app.tables.get(deal["match_id"]) if deal["match_id"] else None
    tournament = app.tournaments.get(match["tournament_id"]) if match else None
    return {
        "deal": deal, "match": match, "tournament": tournament, "names": seat_names(deal, match),
        "figures": ui_for(deal["game"]).deal_figures(match, deal),
    }


def described_frames(deal_id: str, viewpoint: str, names: list[str]) -> dict[str, Any]:
    """`replay_all` for the viewpoint, each frame with its step in words (zh, en) and timeline tags."""
    folded = service().deals.replay_all(deal_id, viewpoint, reader())
    frames = folded["frames"]
    describe = ui_for(frames[0]["view"]["game"]).describe
    previous = None
    for frame in frames:
        if is_retraction_step(frame):
            notation = describe_retraction(frame).as_json()
        else:
            notation = describe(frame, previous, names).as_json()
        mark_retracted(frame, notation)  # an entry taken back later: struck through, with why and by whom
        if frame["annotations"]:
            notation["tags"].append("note")
        frame["notation"] = notation
        previous = frame
    return folded


# --- pages --------------------------------------------------------------------------------------------


@pages.get("/")
def index() -> str:
    return render_template("index.html", tournaments=service().tournaments.all())


@pages.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str) -> str:
    app = service()
    tournament = app.tournaments.get(tournament_id)
    matches = app.tables.of_tournament(tournament_id)
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
    match = app.tables.get(match_id)
    tournament = app.tournaments.get(match["tournament_id"])
    names = list(match["seat_names"])
    ui = ui_for(match["game"])
    deals = app.deals.of_match(match_id, reader())
    rows = ui.match_rows(match, deals, names)
    slips = {deal["id"] for deal in deals if deal.get("result_only")}
    for row in rows:  # 成绩单: a deal entered as a score slip is marked, and has no replay to link to
        row["result_only"] = row.get("id") in slips
    marked = {deal["id"]: deal_marks(app, deal, names, reader()) for deal in deals}
    for row in rows:  # its fouls and penalties beside a deal's figures: a −3 says why
        row["marks"] = marked.get(row.get("id"), [])
    return render_template("match.html", match=match, tournament=tournament, names=names, rows=rows,
                           chart=ui.match_chart(match, names))


@pages.get("/deals/<deal_id>")
def deal_viewer(deal_id: str) -> str:
    context = deal_context(deal_id)
    deal = context["deal"]
    if deal.get("result_only"):
        return render_template("slip.html", **context)  # a score slip: its facts and result, no replay
    game_script = f"games/{deal['game']}.js"
    boot = {
        "deal_id": deal["id"], "game": deal["game"], "names": context["names"], "seats": len(deal["seats"]),
        "number": deal["number"], "finished": deal["finished"], **context["figures"],
        "foul_names": foul_names(deal["game"]), "play_phase": get_engine(deal["game"]).play_phase,
        "seat_marks": {lang: [seat_mark(deal["game"], seat, lang) for seat in range(len(deal["seats"]))]
                       for lang in ("zh", "en")},
        "frames_url": url_for("replay_ui_api.frames", deal_id=deal["id"]),
        "deal_url": url_for("deals.get_deal", deal_id=deal["id"]), "version": deal["version"],
    }
    return render_template("deal.html", **context, boot=boot, neighbours=neighbours(context["match"], deal),
                           game_script=game_script if (STATIC / game_script).is_file() else None)


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
        return render_template("slip.html", **context)
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
    if deal["finished"]:  # published: the same for every reader until its next event (replay_ui/transfer.py)
        return transfer.finished_frames((deal["id"], deal["version"], viewpoint), payload)
    return jsonify(payload())


BLUEPRINTS = (pages, ui_api)
transfer.install(*BLUEPRINTS)
