"""升级 as one descriptor: what every registry of fupan reads of it (domain/kernel/game.py)."""

from __future__ import annotations

from domain.games.shengji.analysis import ANALYSIS
from domain.games.shengji.engine import ShengjiEngine
from domain.games.shengji.formats import FORMATS
from domain.games.shengji.slip import score_slip
from domain.games.shengji.table import ShengjiTable
from domain.kernel.game import Game, PadFacts, Preset

GAME = Game(
    code="shengji", engine=ShengjiEngine(), table=ShengjiTable(), formats=FORMATS,
    slip=score_slip, analysis=ANALYSIS,
    pad=PadFacts(kitty_apart=("dealing", "declaring")),
    preset=Preset("sj.preset", ("s004", "s001")),  # the seeds' rulesets (engine.PRESETS)
    seat_words=(("东", "E"), ("南", "S"), ("西", "W"), ("北", "N")),  # as replay_ui/games/shengji's sj.seat.N
    delay_in_tricks=True,  # 升级's view counts its tricks (tricks_played)
)
