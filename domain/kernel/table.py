"""How deals chain into a match: one small protocol the Match aggregate calls, one implementation per game.

A match (one table's session of deals) keeps a **standing**: the game's running figures between deals, as JSON
(斗地主: each player's chips; 升级: both teams' levels, the next deal's context, 大分/小分). Every standing has
`end`: None while play goes on, else `{"winner": side or None, "by": reason}` — a side is what the game's
match is won by (斗地主: a seat; 升级: a team, seats {0, 2} or {1, 3}); `winner` None is a drawn match.

The Match aggregate (domain/model/) knows no game: it asks its game's `MatchRules` where the next
deal starts and with which context, folds each finished deal's result into the standing, and, when the
recorded clock reaches the game's time limit, lets the rules decide what the time cap means.

Each game's table is `domain/games/<game>/table.py`; the registry in domain/games/__init__.py maps a game
code to its engine and its table.
"""

from __future__ import annotations

from typing import Any, Protocol

Standing = dict[str, Any]

class MatchRules(Protocol):
    """How one game's deals chain into a match; every method is pure."""

    game: str
    start_chips: int | None  # the chips each seat starts with, for a chip game; None for a game without chips

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        """The standing before the first deal."""
        ...

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        """The deal's `first` seat for deal `number` (1-based) of a match opened with `first`."""
        ...

    def context(self, standing: Standing) -> dict[str, Any]:
        """The `context` the next deal is set up with (docs/record-format.md)."""
        ...

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        """The standing after a deal with this result (a redeal included)."""
        ...

    def time_limit(self, options: dict[str, Any]) -> int | None:
        """Minutes of play after which time is called; None: the match has no time cap."""
        ...

    def time_up(self, standing: Standing, options: dict[str, Any]) -> Standing:
        """The standing once time is up and no deal is in play: who wins at the cap, or what is still played."""
        ...

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        """The seats of one side (the players a match win belongs to)."""
        ...

    def board(self, context: dict[str, Any]) -> int | None:
        """The duplicate board a deal with this context plays — every table of the round deals it alike, from
        the first table that starts it — or None where each table deals its own cards."""
        ...

    def seat_facts(self, result: dict[str, Any], standing: Standing | None) -> dict[str, list[Any]]:
        """The facts per seat that formats and tiebreaks are written in, besides each seat's `score`: `{name:
        [value per seat]}`, from a finished deal's stored result and the table's standing after it (None: a
        deal not counted at a table, or scored before tables recorded their standing). Stored results are
        read as they were written, so a game's old results keep their meaning."""
        ...

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        """The standing after `seat` misdealt (a wrong number of cards found while dealing): the deal is dealt
        again with the same context and first seat; the game may count it against the seat's side."""
        ...


def chips_after(chips: list[int], scores: list[int]) -> list[int]:
    return [c + s for c, s in zip(chips, scores, strict=True)]


class DealsTable:
    """What most tables share, so a game states only where it differs: no chips, no context between deals,
    no time cap, a match won by one seat, a misdeal that is dealt again and counts nothing, and each table
    dealing its own cards."""

    start_chips: int | None = None

    def context(self, standing: Standing) -> dict[str, Any]:
        return {}

    def time_limit(self, options: dict[str, Any]) -> int | None:
        return None

    def time_up(self, standing: Standing, options: dict[str, Any]) -> Standing:
        return standing

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        return [side]

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        return standing

    def board(self, context: dict[str, Any]) -> int | None:
        return None

    def seat_facts(self, result: dict[str, Any], standing: Standing | None) -> dict[str, list[Any]]:
        return dict(result.get("seat_facts") or {})  # the engine names them in its result
