"""The appeals pages (docs/appeals.md): a tournament's appeals (`/tournaments/<id>/appeals`: status, table,
what is appealed, deadline, and the filing form) and one appeal (`/appeals/<id>`: the statement, the deadline,
evidence linked into the deal viewer at its step and viewpoint, the ruling, the committee's decision with its
vote and score changes, the timeline of every step with who and when, the chain's digest, and the forms of
every step: evidence, the sandbox, the ruling, to the committee, withdrawal, closing, the decision).

- `/appeals/<id>/review?view=seat:N`: the disputed deal in the viewer, result-blind (the appeal's frames: up to
  the judged step, no result, no later step, no score), with a 揭晓结果 link to the whole deal;
- `/appeals/<id>/report`: the printable report (facts, the disputed sequence from the relevant seat, evidence,
  ruling, committee and vote, the score change, the deal's closing digest);
- `/tournaments/<id>/standings/<player>`: a player's standing explained, each adjustment linked to its appeal.

Rendered for the reader of the request (pages hold no token; the forms send one from the tab's sessionStorage):
while the disputed deal is live, the statement, notes and seat views are withheld exactly as the API withholds
them (Fupan.appeals.get, .review).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from domain.games import get_engine
from domain.kernel.errors import Hidden, IllegalAction, NotFound, Unauthenticated
from domain.model.appeal_rules import is_chief, is_viewpoint
from replay_ui.games import ui_for
from replay_ui.pages import game_script, not_found_page, reader, seat_mark, service
from replay_ui.shared import i18n
from replay_ui.shared.notation import foul_names

# The appeals pages' strings (replay_ui/shared/i18n.py puts them in the one table every page embeds).
i18n.register(i18n.load_strings(Path(__file__).with_name("strings.toml")), "replay_ui/appeals/strings.toml")
appeal_pages = Blueprint("appeals_ui", __name__, template_folder="templates")
appeal_pages.register_error_handler(NotFound, not_found_page)


@appeal_pages.get("/tournaments/<tournament_id>/appeals")
def tournament_appeals(tournament_id: str) -> str:
    app = service()
    tournament = app.tournaments.get(tournament_id)
    tables = {m["id"]: m["table"] for m in tournament["matches"]}
    # The filing form's choices: each table's deals (a deal and step, a ruling's deal) and the players.
    deals = {m["id"]: app.tables.get(m["id"])["deals"] for m in tournament["matches"]}
    # Each appeal's deal named by its number at its table (第 N 局), as the table page numbers them.
    numbers = {d["deal_id"]: d.get("number") or index for table in deals.values()
               for index, d in enumerate(table, start=1)}
    return render_template("appeals.html", tournament=tournament, tables=tables, deals=deals, numbers=numbers,
                           players=app.tournaments.players(tournament_id),
                           appeals=app.appeals.of_tournament(tournament_id, reader()))


def _appeal_context(appeal_id: str) -> dict[str, Any]:
    app = service()
    appeal = app.appeals.get(appeal_id, reader())
    tournament = app.tournaments.get(appeal["tournament_id"])
    names = {p["id"]: p["name"] for p in app.tournaments.players(appeal["tournament_id"])}
    match = app.tables.get(appeal["match_id"])
    deal_id = appeal["against"].get("deal_id")
    deal = app.deals.get(deal_id, reader()) if deal_id else None
    judged = _judged_step(appeal, deal)
    # a slip's deal has no steps to keep back: its result is all it has
    blind = deal is not None and not deal.get("result_only") and appeal["status"] not in REVEALED

    def deal_link(step: int, view: str = "public") -> str:
        """Where a step of the disputed deal opens: while the appeal is undecided, the result-blind review (no step
        past the judged one); once decided, the deal viewer."""
        if blind:
            return (url_for("appeals_ui.appeal_review", appeal_id=appeal_id)
                    + f"?step={min(step, judged or 0)}&view={view}")
        return url_for("replay_ui.deal_viewer", deal_id=deal_id) + f"?step={step}&view={view}"

    return {"appeal": appeal, "tournament": tournament, "table": match["table"], "names": names, "match": match,
            "deal": deal, "seats": list(match["seat_names"]) if deal is None else list(deal["seats"]),
            "judged": judged, "blind": blind, "deal_link": deal_link,
            "steps_from": steps_from(appeal_id if blind else None, deal_id),
            # the last step a form may name: the judged one while the result is not revealed
            "last_step": (judged if blind else (deal or {}).get("actions", 0)) or 0}


def steps_from(blind_appeal: str | None, deal_id: str | None) -> str:
    """Where a step chooser (fupan.js Fupan.stepChooser) reads the deal's steps, first address first: the referee's
    view (for a tab whose token may see it), else the public's; while an appeal is undecided, its result-blind
    frames (nothing after the judged step, no deal address), else the deal's own."""
    if blind_appeal is not None:
        base = url_for("appeals_ui.review_frames", appeal_id=blind_appeal)
    elif deal_id:
        base = url_for("replay_ui_api.frames", deal_id=deal_id)
    else:
        return ""
    return " ".join(f"{base}?viewpoint={view}" for view in ("referee", "public"))


# Once the committee has decided (or the appeal is over) the result is no longer kept from the page's readers.
REVEALED = ("decided", "closed", "withdrawn")


def _judged_step(appeal: dict[str, Any], deal: dict[str, Any] | None) -> int | None:
    """The step the appeal judges: the one it names, else the disputed deal's last."""
    if deal is None:
        return None
    step = appeal["against"].get("step")
    return step if step is not None else deal.get("actions", 0)


@appeal_pages.get("/appeals/<appeal_id>")
def appeal_page(appeal_id: str) -> str:
    return render_template("appeal.html", **_appeal_context(appeal_id))


def relevant_seat(appeal: dict[str, Any], seats: list[str]) -> int | None:
    """The seat the report shows the disputed sequence from: the first player the appeal is on behalf of who sat
    at the deal, else the first seat an evidence reference looks from, else none (the referee's view)."""
    for player in appeal["on_behalf_of"]:
        if player in seats:
            return seats.index(player)
    for evidence in appeal["evidence"]:
        viewpoint = (evidence.get("reference") or {}).get("viewpoint", "")
        # Only a viewpoint this deal has: one stored before they were checked exactly (`seat:99`) is passed
        # over, so it cannot break the report for good.
        if isinstance(viewpoint, str) and viewpoint.startswith("seat:") and is_viewpoint(viewpoint, len(seats)):
            return int(viewpoint[5:])
    return None


def blind_frames(appeal_id: str, viewpoint: str, names: list[str]) -> dict[str, Any]:
    """The appeal's result-blind frames (Fupan.appeals.review) with each step in words, as the viewer's
    frames carry them; no annotations and no retraction marks (result_blind leaves them out)."""
    blind = service().appeals.review(appeal_id, viewpoint, reader())
    frames = blind["frames"]
    describe = ui_for(frames[0]["view"]["game"]).describe
    previous = None
    for frame in frames:
        frame["annotations"] = []
        # Each step told as it was: result_blind already shows a finished view as `judged` (a step, never the
        # deal's outcome); every other view keeps its phase, so a step while the cards are dealt is not told as
        # the declarations closed (a 升级 deal has no dealer yet).
        frame["notation"] = describe(frame, previous, names).as_json()
        frame["notation"]["tags"] = [tag for tag in frame["notation"]["tags"] if tag != "end"]
        previous = frame
    return {**blind, "total": blind["judged_step"], "closed": False, "names": names}


@appeal_pages.get("/ui-api/appeals/<appeal_id>/frames")
def review_frames(appeal_id: str) -> Response:
    """JSON for the review page's viewer: the result-blind frames of `viewpoint` (default public)."""
    context = _appeal_context(appeal_id)
    return jsonify(blind_frames(appeal_id, request.args.get("viewpoint", "public"), context["seats"]))


def _may(tournament_id: str, match_ids: set[str]) -> dict[str, bool]:
    """Which appeal steps the reader of the request may take (docs/appeals.md "Roles"), so a page offers only
    those forms: the filing side (the organiser, a referee of the table), the chief referee, the committee."""
    who = reader()
    organiser = who.role in ("organiser", "local")
    filer = organiser or any(who.referees(match) for match in match_ids)
    chief = is_chief(who.recorded_by, service().appeals.rules(tournament_id)["chief_referees"])
    committee = who.role == "appeals"
    return {"file": filer, "evidence": filer or committee, "response": filer or committee,
            "sandbox": filer or committee, "ruling": chief,
            "committee": filer, "withdrawal": filer, "closing": chief, "decision": committee}


@appeal_pages.get("/ui-api/appeals/<appeal_id>/may")
def appeal_may(appeal_id: str) -> Response:
    appeal = service().appeals.get(appeal_id, reader())
    return jsonify(_may(appeal["tournament_id"], {appeal["match_id"]}))


@appeal_pages.get("/ui-api/tournaments/<tournament_id>/appeals/may")
def tournament_may(tournament_id: str) -> Response:
    tournament = service().tournaments.get(tournament_id)
    return jsonify(_may(tournament_id, {m["id"] for m in tournament["matches"]}))


@appeal_pages.get("/appeals/<appeal_id>/review")
def appeal_review(appeal_id: str) -> str:
    context = _appeal_context(appeal_id)
    deal = context["deal"]
    if deal is None:
        raise IllegalAction("no_deal", "This appeal names no deal to review.", "该申诉未指向任何牌局。",
                            {"appeal_id": appeal_id})
    game = deal["game"]
    boot = {
        "deal_id": deal["id"], "game": game, "names": context["seats"], "seats": len(deal["seats"]),
        "number": deal["number"], "finished": True,  # nothing to follow: the review stops at the judged step
        "foul_names": foul_names(game), "play_phase": get_engine(game).play_phase,
        "seat_marks": {lang: [seat_mark(game, seat, lang) for seat in range(len(deal["seats"]))]
                       for lang in ("zh", "en")},
        # No deal address and no version: the deal's answer (and its event count) tells how long it went on.
        "frames_url": url_for("appeals_ui.review_frames", appeal_id=appeal_id),
        **ui_for(game).deal_figures(None, deal),  # no table figures: the chips after the deal are its result
    }
    return render_template("appeal_review.html", **context, boot=boot,
                           game_script=game_script(game))


@appeal_pages.get("/appeals/<appeal_id>/report")
def appeal_report(appeal_id: str) -> str:
    context = _appeal_context(appeal_id)
    appeal, deal, seats = context["appeal"], context["deal"], context["seats"]
    seat = relevant_seat(appeal, seats)
    sequence: dict[str, Any] | None = None
    if deal is not None and not deal.get("result_only"):
        viewpoint = "referee" if seat is None else f"seat:{seat}"
        try:
            sequence = blind_frames(appeal_id, viewpoint, seats)
        except (Unauthenticated, Hidden):
            sequence = None  # a live deal's seat view: not the public's (docs/SECURITY.md §4)
    dealt = None  # every hand as dealt: the referee's first frame, for a reader allowed the referee's view
    if deal is not None and not deal.get("result_only"):
        try:
            first = blind_frames(appeal_id, "referee", seats)["frames"][0]["view"]
            dealt = [place.get("hand") or [] for place in first["seats"]]
        except (Unauthenticated, Hidden):
            dealt = None  # a live deal's hidden hands (docs/SECURITY.md §4)
    return render_template("appeal_report.html", **context, seat=seat, sequence=sequence, dealt=dealt,
                           moves=[line_moves(line, seats) for line in appeal["lines"]],
                           scores=_score_change(appeal, deal, seats))


def line_moves(line: dict[str, Any], seats: list[str]) -> list[dict[str, Any]] | None:
    """A sandbox line's actions as the report prints them: who, what in words (both languages), the cards. None
    while withheld (a live deal's line)."""
    if line.get("actions") is None:
        return None
    known = i18n.catalog()
    moves = []
    for action in line["actions"]:
        kind = action.get("type", "")
        key = "pad.act.pass.play" if kind == "pass" else f"pad.act.{kind}"
        words = {lang: (i18n.text(key, lang, value=action.get("value", "")) if key in known else kind)
                 for lang in i18n.LANGUAGES}
        seat = action.get("seat")
        moves.append({"name": seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else "",
                      "zh": words["zh"], "en": words["en"], "cards": action.get("cards") or []})
    return moves


def _score_change(appeal: dict[str, Any], deal: dict[str, Any] | None, seats: list[str]) -> list[dict[str, Any]]:
    """Each player the appeal moved: the deal's recorded score (when a finished deal is disputed), the score
    after the appeal's latest outcome, and the points its adjustments moved the total by."""
    recorded = (deal or {}).get("result") or {}
    rows = []
    players = list(seats) + sorted(set(appeal["applied"]) - set(seats))
    for player in players:
        moved = appeal["applied"].get(player, 0)
        score = None
        if player in seats and "scores" in recorded:
            score = recorded["scores"][seats.index(player)]
        if score is None and not moved:
            continue
        rows.append({"player": player, "recorded": score, "now": None if score is None else score + moved,
                     "change": moved})
    return rows


@appeal_pages.get("/tournaments/<tournament_id>/standings/<path:player_id>")  # a name may hold "/"
def explain_page(tournament_id: str, player_id: str) -> str:
    """A player's standing explained (the projections' explain): the total's parts, each table's deals, each
    adjustment with its reason and, for an appeal's outcome, a link to the appeal."""
    explained = current_app.extensions["fupan.projections"].explain(tournament_id, player_id)
    return render_template("explain.html", tournament=service().tournaments.get(tournament_id), explained=explained)


# The board of variations inside the review (replay_ui/viewer/board.py) reads an appeal as these pages do.
appeal_context = _appeal_context
