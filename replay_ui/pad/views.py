"""The recording pad's pages (docs/pad.md): `/deals/<id>/pad` for one deal, `/matches/<id>/pad` for a table, which
moves from deal to deal. The pages are open to anyone and carry no hands: the script asks for the recorder's
token, keeps it in the tab's sessionStorage and reads and writes through the API with it (api/pad.py and the
ordinary recording routes), where the token is what decides.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, render_template, url_for

from domain.games import get_engine
from domain.services.pad import game_table
from replay_ui.games import has_pad_script
from replay_ui.pages import seat_mark, service
from replay_ui.shared import i18n

# The pad pages' strings (replay_ui/shared/i18n.py puts them in the one table every page embeds).
i18n.register(i18n.load_strings(Path(__file__).with_name("strings.toml")), "replay_ui/pad/strings.toml")
pad_pages = Blueprint("pad_ui", __name__, template_folder="templates")


def _page(boot: dict[str, Any], game: str, title: dict[str, Any]) -> str:
    engine = get_engine(game)
    marks = {lang: [seat_mark(game, seat, lang) for seat in range(engine.seat_count)] for lang in ("zh", "en")}
    # A slip's fouls are chosen from the game's list, with a penalty in its unit where it has one (slip-form.js).
    slip = {"fouls": [{"code": code, "zh": zh, "en": en} for code, zh, en in engine.foul_codes],
            "foul_unit": None if engine.foul_unit is None else {"en": engine.foul_unit[0], "zh": engine.foul_unit[1]}}
    boot = {**boot, "game": game, "table": game_table(engine), "seat_marks": marks, "slip": slip,
            "viewer_url": url_for("replay_ui.deal_viewer", deal_id=boot["deal_id"]) if boot.get("deal_id") else None}
    return render_template("pad.html", boot=boot, game=game, title=title, pad_script=has_pad_script(game))


@pad_pages.get("/deals/<deal_id>/pad")
def deal_pad(deal_id: str) -> str:
    deal = service().deals.get(deal_id)  # public: the page itself holds nothing hidden
    return _page({"deal_id": deal["id"], "match_id": deal["match_id"], "follow": False}, deal["game"],
                 {"number": deal["number"]})


@pad_pages.get("/matches/<match_id>/pad")
def match_pad(match_id: str) -> str:
    match = service().tables.get(match_id)
    # The deal in play, if any; between deals the table itself (its score, the next deal or a slip).
    return _page({"deal_id": match["current_deal"], "match_id": match["id"], "follow": True}, match["game"],
                 {"table": match["table"]})
