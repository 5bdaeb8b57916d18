"""斗地主 as one descriptor: what every registry of fupan reads of it (domain/kernel/game.py)."""

from __future__ import annotations

from domain.games.doudizhu.analysis import ANALYSIS
from domain.games.doudizhu.engine import DoudizhuEngine
from domain.games.doudizhu.formats import FORMATS
from domain.games.doudizhu.slip import score_slip
from domain.games.doudizhu.table import DoudizhuTable
from domain.kernel.game import Game, PadFacts

GAME = Game(
    code="doudizhu", engine=DoudizhuEngine(), table=DoudizhuTable(), formats=FORMATS,
    slip=score_slip, analysis=ANALYSIS,
    pad=PadFacts(kitty_apart=("bidding",)),
)
