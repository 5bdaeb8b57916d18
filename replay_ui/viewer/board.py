"""The board of variations (docs/analysis.md "The board of variations"): from a step of a deal, every hand and
the play to beat, each play of the seat to act with its analysis verdict once known, and a tree of variations
kept in the browser (static/board.js).

- `/deals/<id>/board?step=S`: any deal, for whoever may see every hand (a finished deal: anyone; a live one: its
  referee, the organiser, the committee — the API decides, the page says its refusal);
- `/appeals/<id>/board?step=S`: the disputed deal of an appeal, inside its result-blind review: while the
  appeal is undecided the page carries no deal address, no deal length and no link to the viewer, the step
  stops at the judged one, and its routes are the appeal's (the sandbox, its analysis, its lines)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, render_template, request, url_for

from domain.games import get_game
from domain.kernel.errors import IllegalAction, NotFound
from replay_ui.appeals.views import appeal_context, steps_from
from replay_ui.pages import deal_context, not_found_page, seat_mark
from replay_ui.shared import i18n

i18n.register(i18n.load_strings(Path(__file__).with_name("board_strings.toml")), "replay_ui/viewer/board_strings.toml")
board_pages = Blueprint("board_ui", __name__, template_folder="templates")
board_pages.register_error_handler(NotFound, not_found_page)


def _step(last: int | None) -> int:
    """The step asked for (`?step=`), kept between 0 and `last` (a result-blind board: the judged step)."""
    try:
        step = max(0, int(request.args.get("step", last if last is not None else 0)))
    except ValueError:
        step = last or 0
    return step if last is None else min(step, last)


def _game_boot(game: str, seats: int) -> dict[str, object]:
    """The game's part of the boot: the seats' marks (升级's 东南西北) and whether suits never matter to a play
    (tapped cards then pick plays by rank)."""
    return {"game": game, "seat_marks": {lang: [seat_mark(game, seat, lang) for seat in range(seats)]
                                         for lang in ("zh", "en")},
            "suitless": bool(getattr(get_game(game).analysis, "suitless", False))}


@board_pages.get("/deals/<deal_id>/board")
def deal_board(deal_id: str) -> str:
    context = deal_context(deal_id)
    deal = context["deal"]
    if deal.get("result_only"):
        raise IllegalAction("no_replay", "A score slip's deal has no cards to play variations from.",
                            "成绩单录入的牌局没有牌，无法推演。", {"deal_id": deal_id})
    step = _step(deal.get("actions", 0))
    boot = {"scope": f"deal:{deal['id']}", **_game_boot(deal["game"], len(deal["seats"])), "names": context["names"],
            "step": step, "last_step": deal.get("actions", 0),
            "blind": False, "step_field": "step",
            "variation_url": url_for("analysis.variation", deal_id=deal["id"]),
            "analysis_url": url_for("analysis.analyse_variation", deal_id=deal["id"]),
            "lines_url": None, "back_url": url_for("replay_ui.deal_viewer", deal_id=deal["id"]) + f"?step={step}"}
    return render_template("board.html", boot=boot, deal=deal, tournament=context.get("tournament"),
                           match=context.get("match"), appeal=None, steps_from=steps_from(None, deal["id"]))


@board_pages.get("/appeals/<appeal_id>/board")
def appeal_board(appeal_id: str) -> str:
    context = appeal_context(appeal_id)
    deal, appeal = context["deal"], context["appeal"]
    if deal is None or deal.get("result_only"):
        raise IllegalAction("no_deal", "This appeal names no deal to play variations of.", "该申诉未指向可推演的牌局。",
                            {"appeal_id": appeal_id})
    blind = context["blind"]
    step = _step(context["judged"] if blind else deal.get("actions", 0))
    # While blind: no deal address, no deal length, no viewer link (docs/appeals.md, issue 23).
    boot = {"scope": f"appeal:{appeal_id}", **_game_boot(deal["game"], len(deal["seats"])), "names": context["seats"],
            "step": step,
            "last_step": context["last_step"], "judged": context["judged"], "blind": blind, "step_field": "from_step",
            "variation_url": url_for("appeals.sandbox", appeal_id=appeal_id),
            "analysis_url": url_for("appeals.analyse_line", appeal_id=appeal_id),
            "lines_url": url_for("appeals.add_line", appeal_id=appeal_id)
            if appeal["status"] in ("filed", "ruled", "appealed") else None,
            "back_url": url_for("appeals_ui.appeal_page", appeal_id=appeal_id)}
    return render_template("board.html", boot=boot, deal=deal if not blind else {"number": deal.get("number"),
                                                                                   "game": deal["game"]},
                           tournament=context["tournament"], match=context["match"], appeal=appeal,
                           table=context["table"], steps_from=context["steps_from"])
