"""Tournament formats and tiebreaks: which a tournament may declare, and the tiebreaks in force.

A tournament declares a format code and an ordered list of tiebreak codes when it is created (FIDE-style:
published before play starts, shown on every standings page). The data types are domain/kernel/formats.py;
each game declares its formats in its own folder (`domain/games/<game>/formats.py`, named by its descriptor),
so adding a game's format touches only that game. The standings code (projections/standings.py) knows no game
and no format: it reads a `Format` and its `Criterion`s and evaluates them over per-seat facts of finished
deals (projections/facts.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from domain.games import GAMES, get_engine
from domain.kernel.errors import IllegalAction
from domain.kernel.formats import Criterion, Format


class _Formats(Mapping[str, Format]):
    """Every registered game's formats by code, read from the registry at each use (a game registered later,
    such as a test's, is seen)."""

    def _all(self) -> dict[str, Format]:
        return {f.code: f for game in GAMES.values() for f in game.formats}

    def __getitem__(self, code: str) -> Format:
        return self._all()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


FORMATS: Mapping[str, Format] = _Formats()


def presets() -> dict[str, dict[str, Any]]:
    """Per game with one, the ruleset preset the console offers when a tournament is created."""
    return {code: {"option": game.preset.option, "values": list(game.preset.values)}
            for code, game in GAMES.items() if game.preset is not None}


def default_format(game: str) -> str:
    """The format a tournament of `game` gets when it names none: the first its descriptor lists ("" if none)."""
    found = GAMES.get(game)
    return found.formats[0].code if found is not None and found.formats else ""


def resolve(game: str, format_code: str, tiebreaks: list[str]) -> tuple[Format, list[Criterion]]:
    """The format and the tiebreaks in force; "" and [] mean the game's defaults. IllegalAction if unknown."""
    code = format_code or default_format(game)
    found = FORMATS.get(code)
    if found is None or found.game != game:
        known = sorted(c for c, f in FORMATS.items() if f.game == game)
        raise IllegalAction("unknown_format", f"No format {code!r} for {game}; known: {known}.",
                            f"{game} 没有赛制 {code!r}；可用：{known}。",
                            {"format": code, "game": game, "known": known})
    codes = list(tiebreaks) or list(found.default_tiebreaks)
    menu = [c.code for c in found.tiebreaks]
    unknown = [c for c in codes if c not in menu]
    if unknown or len(set(codes)) != len(codes):
        raise IllegalAction("unknown_tiebreak", f"Tiebreaks of {code} are distinct codes among {menu}.",
                            f"{code} 的破同分规则必须是 {menu} 中互不相同的代码。",
                            {"tiebreaks": codes, "known": menu, "unknown": unknown})
    return found, [found.tiebreak(c) for c in codes]


def declare(game: str, format_code: str = "", tiebreaks: list[str] | None = None) -> tuple[str, list[str]]:
    """What a new tournament records: the format code and its full tiebreak list, defaults written out."""
    get_engine(game)  # an unknown game is refused as such, not as a missing format
    found, criteria = resolve(game, format_code, list(tiebreaks or []))
    return found.code, [c.code for c in criteria]
