"""三打一 as one descriptor: what every registry of fupan reads of it (domain/kernel/game.py)."""

from __future__ import annotations

from domain.games.sandayi.analysis import ANALYSIS
from domain.games.sandayi.engine import SandayiEngine
from domain.games.sandayi.formats import FORMATS
from domain.games.sandayi.slip import score_slip
from domain.games.sandayi.table import SandayiTable
from domain.kernel.game import Game, PadFacts

GAME = Game(
    code="sandayi", engine=SandayiEngine(), table=SandayiTable(), formats=FORMATS,
    slip=score_slip, analysis=ANALYSIS,
    pad=PadFacts(kitty_apart=("bidding",)),
)
