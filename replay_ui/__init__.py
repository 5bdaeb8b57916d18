"""The web replay viewer (docs/ARCHITECTURE.md "Views"): pages, the deal viewer, charts and the printable record.

Hand-written templates and static files, no build step and nothing from a CDN; plotly.js is served from the
installed `plotly` package. `BLUEPRINTS` are registered by `api.app.create_app`.
"""

from replay_ui.appeals import appeal_pages
from replay_ui.console import console_pages
from replay_ui.documents import documents
from replay_ui.finder import finder_pages
from replay_ui.games import game_plugins
from replay_ui.pad import pad_pages
from replay_ui.rounds import round_pages
from replay_ui.travellers import traveller_pages
from replay_ui.views import BLUEPRINTS as VIEWER

BLUEPRINTS = (*VIEWER, pad_pages, documents, console_pages, round_pages, finder_pages, traveller_pages,
              appeal_pages, game_plugins)

__all__ = ["BLUEPRINTS"]
