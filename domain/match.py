"""How deals chain into a match: one small protocol the Match aggregate calls, one implementation per game.

A match (one table's session of deals) keeps a **standing**: the game's running figures between deals, as JSON
(斗地主: each player's chips; 升级: both teams' levels, the next deal's context, 大分/小分). Every standing has
`end`: None while play goes on, else `{"winner": side or None, "by": reason}` — a side is what the game's
match is won by (斗地主: a seat; 升级: a team, seats {0, 2} or {1, 3}); `winner` None is a drawn match.

The Match aggregate (domain/aggregates.py) knows no game: it asks its game's `MatchRules` where the next
deal starts and with which context, folds each finished deal's result into the standing, and, when the
recorded clock reaches the game's time limit, lets the rules decide what the time cap means.

The 斗地主 chip table (seed 001, digest §2.5–2.6) is here; 升级 is in domain/shengji_match.py.
"""

from __future__ import annotations

from typing import Any, Protocol

from domain.errors import IllegalAction
from domain.shengji_match import ShengjiMatch

Standing = dict[str, Any]

START_CHIPS = 10
TARGET = 20


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

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        """The standing after `seat` misdealt (a wrong number of cards found while dealing): the deal is dealt
        again with the same context and first seat; the game may count it against the seat's side."""
        ...


# --- 斗地主: the chip table ---------------------------------------------------------------------------------


def chips_after(chips: list[int], scores: list[int]) -> list[int]:
    return [c + s for c, s in zip(chips, scores, strict=True)]


def table_winner(chips: list[int], start: list[int], target_rule: str) -> int | None:
    """The seat that wins the table now, or None to play on.

    `ddz.tableTarget`: `hold20` — someone holds ≥ 20 chips ("赢满20张", "赌注达到20张"); `net20` — someone is
    ≥ +20 net. Several qualify → the most chips wins; an equal top count plays extra deals [REC].
    """
    if target_rule == "hold20":
        qualifying = [s for s, c in enumerate(chips) if c >= TARGET]
    else:
        qualifying = [s for s, c in enumerate(chips) if c - start[s] >= TARGET]
    if not qualifying:
        return None
    best = max(chips[s] for s in qualifying)
    top = [s for s in qualifying if chips[s] == best]
    return top[0] if len(top) == 1 else None


class ChipTable:
    """A 斗地主 chip table (seed 001, digest §2.5–2.6): 10 chips each, chips move by each deal's scores, the
    table ends per `ddz.tableTarget`. Balances may go to 0 or below and nobody is eliminated [REC]. Seed 001
    sets no time limit for a table: a clock reading is recorded and changes nothing."""

    game = "doudizhu"
    start_chips: int | None = START_CHIPS

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"chips": [START_CHIPS] * seat_count, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        return (first + number - 1) % seat_count  # the first bidder rotates one seat per deal [REC, §2.3.2]

    def context(self, standing: Standing) -> dict[str, Any]:
        return {}

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        chips = chips_after(standing["chips"], result["scores"])
        winner = table_winner(chips, [START_CHIPS] * len(chips), options.get("ddz.tableTarget", "hold20"))
        return {"chips": chips, "end": None if winner is None else {"winner": winner, "by": "chips"}}

    def time_limit(self, options: dict[str, Any]) -> int | None:
        return None

    def time_up(self, standing: Standing, options: dict[str, Any]) -> Standing:
        return standing

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        return [side]

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        return standing  # seed 001 is silent: dealt again, nothing counted


MATCH_RULES: dict[str, MatchRules] = {rules.game: rules for rules in (ChipTable(), ShengjiMatch())}


def match_rules(game: str) -> MatchRules:
    rules = MATCH_RULES.get(game)
    if rules is None:
        raise IllegalAction("no_match_rules", f"Matches of {game} are not supported yet: deals of it are stand-alone.",
                            f"暂不支持 {game} 的对局（牌桌），只能记录单独牌局。", {"game": game})
    return rules
