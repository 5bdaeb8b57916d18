"""大怪路子 as one descriptor: what every registry of fupan reads of it (domain/kernel/game.py)."""

from __future__ import annotations

from domain.games.daguai.analysis import ANALYSIS
from domain.games.daguai.engine import DaguaiEngine
from domain.games.daguai.formats import FORMATS
from domain.games.daguai.slip import score_slip
from domain.games.daguai.table import DaguaiTable
from domain.kernel.game import Game, PadFacts

GAME = Game(
    code="daguai", engine=DaguaiEngine(), table=DaguaiTable(), formats=FORMATS,
    slip=score_slip, analysis=ANALYSIS,
    pad=PadFacts(),  # no kitty
)
