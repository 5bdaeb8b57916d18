"""The registry: the list of games, each one descriptor (`domain.kernel.game.Game`) that every other registry of
fupan reads — the recording path, the score slips, the analysis, the formats and draws, the pad.

Each game lives in its own package, `domain/games/<game>/`: `engine.py` (the rules of a deal), `table.py` (the
match rules), `slip.py` (its score slips), `analysis.py` (its adapter to the solver), `formats.py` (its
tournament formats), whatever else only that game needs (its patterns or card order), and `descriptor.py`,
which names them all in one `Game`. Adding a game adds its package and one line here (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.daguai.descriptor import GAME as DAGUAI
from domain.games.doudizhu.descriptor import GAME as DOUDIZHU
from domain.games.sandayi.descriptor import GAME as SANDAYI
from domain.games.shengji.descriptor import GAME as SHENGJI
from domain.games.wakeng.descriptor import GAME as WAKENG
from domain.kernel.engine import Engine
from domain.kernel.errors import IllegalAction, SeatNamer, listed, seat_numbered
from domain.kernel.game import Game
from domain.kernel.table import MatchRules

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry (a test's toy game registers itself here, then `unregister`s)."""
    if game.code in GAMES and GAMES[game.code] is not game:
        raise ValueError(f"a game {game.code!r} is registered already")
    GAMES[game.code] = game
    return game


def unregister(code: str) -> None:
    GAMES.pop(code, None)


for _game in (DOUDIZHU, SHENGJI, SANDAYI, WAKENG, DAGUAI):
    register(_game)


def get_game(game: object) -> Game:
    """The descriptor of a record-format game code; IllegalAction `unknown_game` otherwise."""
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
    return get_game(game).engine


def get_table(game: object) -> MatchRules:
    return get_game(game).table


def seat_namer(game: str, names: Sequence[str]) -> SeatNamer:
    """A refusal's seats named `names[seat]` (a match's players, or a lone deal's labels), with the game's seat
    word where it has one: "张伟（东）" (domain/services/seat_names.py)."""
    words = GAMES[game].seat_words if game in GAMES else ()

    def named(seat: int, lang: str) -> str:
        if not 0 <= seat < len(names) or not names[seat]:
            return seat_numbered(seat, lang)
        word = words[seat][lang == "en"] if seat < len(words) else ""
        if not word:
            return names[seat]
        return f"{names[seat]}（{word}）" if lang == "zh" else f"{names[seat]} ({word})"
    return named
