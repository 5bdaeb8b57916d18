"""Per-game presentation: how each game's actions read in notation and how its matches are shown (the scripts
draw the table).

A game's viewer plugin is the folder `replay_ui/games/<game>/`, named by the game's record-format code and found
by that name (no list of games here):

- `__init__.py`, its view module: `describe(frame, previous, names) -> Notation` (one step in words),
  `summarize(view, names) -> list[Notation]` (the outcome lines of the printable record), `match_rows(match,
  deals, names)` (the match page's table of deals, drawn by its `deals.html`), `match_chart(match, names)` (the
  match page's chart, drawn by static/charts.js), `standing_text(match, names)` (a table's standing in one
  line, on the tournament page) and, if its deal pages show figures of the table around the deal,
  `deal_figures(match, deal)` (斗地主: the chips before and after it) — declared together as `UI = GameUI(...)`
  (replay_ui/games/plugin.py);
- `strings.toml`: every UI string only this game uses (its name, its table, its match page, its steps in
  words), which replay_ui.shared.i18n adds to the common ones;
- `script.js`, which registers `Fupan.games.<game>` with `render(frame, ctx)`, served where the viewer's
  pages ask for it (`/ui/static/games/<game>.js`); `pad.js`, which registers `Fupan.padGames.<game>` (its
  score slip's fields), served at `/ui/static/games/<game>/pad.js` for the recording pad;
- templates the match and record pages include when present: `deals.html` (the table of deals),
  `summary.html` (above the match chart), `record_rows.html` (rows under the printable record's scores).

Games without a plugin fall back to the generic one (`replay_ui.shared.notation`, `replay_ui.games.generic`,
`static/games/generic.js`), which shows any engine's view and any match's scores — enough to step through a
new game's deals from day one.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

from domain.games import GAMES as REGISTERED
from replay_ui.games.plugin import GENERIC, GameUI

HERE = Path(__file__).parent
STATIC = HERE.parent / "viewer" / "static"  # the generic script, every page's
_CODE = re.compile(r"[a-z][a-z0-9_]*")  # a record-format game code, as a folder name

# Serves each plugin's scripts, and lets the pages include its templates as "<game>/deals.html".
game_plugins = Blueprint("game_plugins", __name__, template_folder=".")


def has_plugin(game: str) -> bool:
    return bool(_CODE.fullmatch(game)) and (HERE / game / "__init__.py").is_file()


@cache
def ui_for(game: str) -> GameUI:
    """The game's plugin, `replay_ui/games/<game>/` (its `UI`), or the generic one."""
    if not has_plugin(game):
        return GENERIC
    return importlib.import_module(f"replay_ui.games.{game}").UI  # type: ignore[no-any-return]


def plugins() -> dict[str, GameUI]:
    """The plugins of the registered games that have one, in the registry's order."""
    return {game: ui_for(game) for game in REGISTERED if has_plugin(game)}


def script_of(game: str) -> str | None:
    """The game's viewer script as a path under the viewer's static URL (`games/<game>.js`), if it has one."""
    return f"games/{game}.js" if has_plugin(game) and (HERE / game / "script.js").is_file() else None


def has_pad_script(game: str) -> bool:
    """Whether the game's plugin has its part of the recording pad (`pad.js`: its score slip)."""
    return has_plugin(game) and (HERE / game / "pad.js").is_file()


def _plugin_file(game: str, name: str) -> Response:
    if not has_plugin(game) or not (HERE / game / name).is_file():
        abort(404)
    return send_from_directory(HERE / game, name, mimetype="text/javascript", max_age=3600)


# The URL's part is no `game`: a published site (replay_ui/publish.py) keeps links to the tournament's games only,
# and the generic script is every page's.
@game_plugins.get("/ui/static/games/<plugin>.js")
def viewer_script(plugin: str) -> Response:
    """A game's viewer script at the URL the pages have always used; the generic one stays in static/games/."""
    game = plugin
    if not has_plugin(game):
        if not (STATIC / "games" / f"{game}.js").is_file() or not _CODE.fullmatch(game):
            abort(404)
        return send_from_directory(STATIC / "games", f"{game}.js", mimetype="text/javascript", max_age=3600)
    return _plugin_file(game, "script.js")


@game_plugins.get("/ui/static/games/<plugin>/pad.js")
def pad_script(plugin: str) -> Response:
    """A game's part of the recording pad (its score slip's fields)."""
    return _plugin_file(plugin, "pad.js")
