"""挖坑 as one descriptor: what every registry of fupan reads of it (domain/kernel/game.py)."""

from __future__ import annotations

from domain.games.wakeng.analysis import ANALYSIS
from domain.games.wakeng.engine import WakengEngine
from domain.games.wakeng.formats import FORMATS
from domain.games.wakeng.slip import score_slip
from domain.games.wakeng.table import WakengTable
from domain.kernel.game import Game, PadFacts

GAME = Game(
    code="wakeng", engine=WakengEngine(), table=WakengTable(), formats=FORMATS,
    slip=score_slip, analysis=ANALYSIS,
    pad=PadFacts(kitty_apart=("reveal", "bidding")),
)
