"""The registry: a record-format game code → its rules engine and its table (how its deals chain into a match).

Each game lives in its own package, `domain/games/<game>/`: `engine.py` (the rules of a deal), `table.py` (the
match rules), `random_play.py` (a random legal player for tests, fixtures and benchmarks) and whatever else only
that game needs (its patterns or card order). Adding a game adds its package and one line here.
"""

from __future__ import annotations

from domain.games.daguai.engine import DaguaiEngine
from domain.games.daguai.table import DaguaiTable
from domain.games.doudizhu.engine import DoudizhuEngine
from domain.games.doudizhu.table import DoudizhuTable
from domain.games.sandayi.engine import SandayiEngine
from domain.games.sandayi.table import SandayiTable
from domain.games.shengji.engine import ShengjiEngine
from domain.games.shengji.table import ShengjiTable
from domain.games.wakeng.engine import WakengEngine
from domain.games.wakeng.table import WakengTable
from domain.kernel.engine import Engine
from domain.kernel.errors import IllegalAction, listed
from domain.kernel.table import MatchRules

GAMES: dict[str, tuple[Engine, MatchRules]] = {
    engine.game: (engine, table) for engine, table in (
        (DoudizhuEngine(), DoudizhuTable()),
        (ShengjiEngine(), ShengjiTable()),
        (SandayiEngine(), SandayiTable()),
        (WakengEngine(), WakengTable()),
        (DaguaiEngine(), DaguaiTable()),
    )
}


def _known(game: object) -> tuple[Engine, MatchRules]:
    entry = GAMES.get(game) if isinstance(game, str) else None
    if entry is None:
        raise IllegalAction(
            "unknown_game",
            f"Unknown game {game}; known: {listed(sorted(GAMES))}.",
            f"未知的游戏 {game}；支持：{listed(sorted(GAMES), 'zh')}。",
            {"game": repr(game), "known": sorted(GAMES)},
        )
    return entry


def get_engine(game: object) -> Engine:
    return _known(game)[0]


def get_table(game: object) -> MatchRules:
    return _known(game)[1]
