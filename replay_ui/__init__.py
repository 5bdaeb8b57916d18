"""The web pages (docs/ARCHITECTURE.md "Views"), one folder per page family — `viewer/` (tournaments, tables,
the deal viewer, the printable record, rounds, travellers, the finder), `pad/` (the recording pad), `console/`
(the organiser console), `appeals/`, `publishing/` (the static site, PDFs, the rules pages) — each with its view
module, templates, scripts and strings; what they share is in `shared/` (strings, cards, notation, the base
template, the common scripts and styles) and `pages.py` (the template globals, the request's service).

Hand-written templates and static files, no build step and nothing from a CDN; plotly.js is served from the
installed `plotly` package. `BLUEPRINTS` are mounted by the web app (web/app.py), which imports this package and
the JSON API (api/) side by side: neither imports the other.
"""

from pathlib import Path

from replay_ui.appeals.views import appeal_pages
from replay_ui.console.views import console_pages
from replay_ui.games import game_plugins
from replay_ui.pad.views import pad_pages
from replay_ui.pages import common
from replay_ui.publishing.documents import documents
from replay_ui.shared.assets import Assets
from replay_ui.viewer.board import board_pages
from replay_ui.viewer.finder import finder_pages
from replay_ui.viewer.rounds import round_pages
from replay_ui.viewer.travellers import traveller_pages
from replay_ui.viewer.views import BLUEPRINTS as VIEWER

HERE = Path(__file__).parent
FAMILIES = ("viewer", "pad", "console", "appeals", "publishing")
assets = Assets([HERE / family / "static" for family in FAMILIES if (HERE / family / "static").is_dir()])

BLUEPRINTS = (assets, common, *VIEWER, pad_pages, documents, console_pages, round_pages, finder_pages,
              traveller_pages, appeal_pages, game_plugins, board_pages)

__all__ = ["BLUEPRINTS"]
