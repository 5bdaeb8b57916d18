"""The registry of rules engines, by record-format game code."""

from __future__ import annotations

from domain.engine import RulesEngine
from domain.errors import IllegalAction
from domain.games.daguai import DaguaiEngine
from domain.games.doudizhu import DoudizhuEngine
from domain.games.sandayi import SandayiEngine
from domain.games.shengji import ShengjiEngine
from domain.games.wakeng import WakengEngine

ENGINES: dict[str, RulesEngine] = {
    engine.game: engine
    for engine in (DoudizhuEngine(), ShengjiEngine(), SandayiEngine(), WakengEngine(), DaguaiEngine())
}


def get_engine(game: object) -> RulesEngine:
    engine = ENGINES.get(game) if isinstance(game, str) else None
    if engine is None:
        raise IllegalAction(
            "unknown_game",
            f"Unknown game {game!r}; known: {sorted(ENGINES)}.",
            f"未知的游戏 {game!r}；支持：{sorted(ENGINES)}。",
            {"game": repr(game), "known": sorted(ENGINES)},
        )
    return engine
