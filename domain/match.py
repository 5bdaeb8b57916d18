"""How deals chain into a match: one small protocol the Match aggregate calls, one implementation per game.

A match (one table's session of deals) keeps a **standing**: the game's running figures between deals, as JSON
(斗地主: each player's chips; 升级: both teams' levels, the next deal's context, 大分/小分). Every standing has
`end`: None while play goes on, else `{"winner": side or None, "by": reason}` — a side is what the game's
match is won by (斗地主: a seat; 升级: a team, seats {0, 2} or {1, 3}); `winner` None is a drawn match.

The Match aggregate (domain/aggregates.py) knows no game: it asks its game's `MatchRules` where the next
deal starts and with which context, folds each finished deal's result into the standing, and, when the
recorded clock reaches the game's time limit, lets the rules decide what the time cap means.

The 斗地主 chip table (seed 001, digest §2.5–2.6) and the 快乐三打一 table (digest §1.9) are here; 升级 is in
domain/shengji_match.py.
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


# --- 快乐三打一: a table of a fixed number of deals ----------------------------------------------------------


class SandayiTable:
    """A 快乐三打一 knockout table (seeds 000/002, digest §1.9): `sdy.earlyRoundDeals` deals (8 by default, S002;
    S000's first two rounds play 4, and its tables from the last 16 on play 8: set it per table), each player for
    themselves. The first bidder moves one seat per deal (§1.1: deal k starts at seat (k−1) mod 4); a voided
    deal (a second foul before the dealer is known, §1.10a.8) is redealt with the same first bidder and counts
    nothing. Ranking at the table: total score, then 庄家数量, then 庄家难度 (§1.9, §1.10a.10); the top 2 advance,
    which the standings decide (projections/formats.py). The standing's `end.winner` names the first-ranked seat
    when it is alone there (lots are drawn by the standings, not here)."""

    game = "sandayi"
    start_chips: int | None = None

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        zeros = [0] * seat_count
        return {"scores": zeros, "deals": 0, "dealt": zeros, "dealer_bids": [[] for _ in range(seat_count)],
                "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        return (first + standing["deals"]) % seat_count

    def context(self, standing: Standing) -> dict[str, Any]:
        return {}

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        if result.get("redeal"):
            return standing
        dealer, bid = result["dealer"], result["bid"]
        after = {**standing, "scores": chips_after(standing["scores"], result["scores"]),
                 "deals": standing["deals"] + 1,
                 "dealt": [n + (s == dealer) for s, n in enumerate(standing["dealt"])],
                 "dealer_bids": [bids + [bid] * (s == dealer) for s, bids in enumerate(standing["dealer_bids"])]}
        if after["deals"] >= options.get("sdy.earlyRoundDeals", 8):
            after["end"] = {"winner": self._alone_on_top(after), "by": "deals"}
        return after

    @staticmethod
    def _alone_on_top(standing: Standing) -> int | None:
        """The seat ranked first by total, then 庄家数量 (more), then 庄家难度 (the sum of its bids as dealer) — the
        format's default order (§1.9 [REC]) — if no other seat equals it there. A tournament that declared other
        tiebreaks is ranked by them in its standings."""
        keys = [(score, dealt, sum(bids)) for score, dealt, bids
                in zip(standing["scores"], standing["dealt"], standing["dealer_bids"], strict=True)]
        best = max(keys)
        return keys.index(best) if keys.count(best) == 1 else None

    def time_limit(self, options: dict[str, Any]) -> int | None:
        return None  # the seeds count deals, not minutes

    def time_up(self, standing: Standing, options: dict[str, Any]) -> Standing:
        return standing

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        return [side]

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        return standing  # seeds 000/002 are silent: dealt again, nothing counted


# --- 竞技挖坑: a table of one Swiss round's duplicate boards -------------------------------------------------


class WakengTable:
    """A 挖坑 table in one round of the seed-003 Swiss event (digest B7–B8, B11.8): every table of the round plays
    the same boards, board k being the table's k-th deal (`context.board` = k), `wk.tableDeals` of them. The cards
    of a board are the organiser's to deal alike at every table (the same hands, or the same dealing seed); the
    first bidder follows from the cards (the lowest heart), so the table passes no rotation. Each seat is ranked
    against the same board and seat at the round's other tables by the standings (matchpoints), not here: the
    standing only sums the raw scores, and the table has no winner of its own."""

    game = "wakeng"
    start_chips: int | None = None

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"scores": [0] * seat_count, "deals": 0, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        # Where server dealing starts, always seat 0: the cards name the first bidder (the engine's
        # `first_from_hands`), and a board's seed must deal each seat the same cards at every table of the round
        # (B1, B11.8) whatever `first` a table was opened with.
        return 0

    def context(self, standing: Standing) -> dict[str, Any]:
        return {"board": standing["deals"] + 1}

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        deals = standing["deals"] + 1
        done = deals >= options.get("wk.tableDeals", 6)
        return {"scores": chips_after(standing["scores"], result["scores"]), "deals": deals,
                "end": {"winner": None, "by": "boards"} if done else None}

    def time_limit(self, options: dict[str, Any]) -> int | None:
        return None

    def time_up(self, standing: Standing, options: dict[str, Any]) -> Standing:
        return standing

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        return [side]

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        return standing  # the seed's software deals: nothing to count


# --- 大怪路子: two teams of three, a fixed number of deals, then a play-off deal --------------------------------


class DaguaiTable:
    """A 大怪路子 knockout table (seed 000, digest A8, A10.9): two teams of three (seats 0, 2, 4 and 1, 3, 5),
    `dg.tableDeals` deals (4 a round; 6 in the semifinal and final), the dealer moving one seat per deal (依次坐庄,
    A10.10). The team with more points advances; equal points → more 跑头家 deals; still equal → one play-off deal
    (its dealer drawn by lot: the organiser starts it with that `first`), won by the team of its first finisher,
    or by the other side if exactly one side fouled twice in it; both → another play-off (A10.9). Every deal's
    points count in the totals, the play-off's too, as the standings count them."""

    game = "daguai"
    start_chips: int | None = None

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"points": [0, 0], "first_finishes": [0, 0], "deals": 0, "playoff": False, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        return (first + number - 1) % seat_count

    def context(self, standing: Standing) -> dict[str, Any]:
        return {}

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        head = result["head_team"]
        after = {**standing, "points": chips_after(standing["points"], result["team_points"]),
                 "first_finishes": [n + (team == head) for team, n in enumerate(standing["first_finishes"])],
                 "deals": standing["deals"] + 1}
        if standing["playoff"]:
            fouled = [team for team, n in enumerate(result["fouls_by_team"]) if n >= 2]
            if len(fouled) == 2:
                return after  # both sides fouled twice: another play-off deal
            winner = 1 - fouled[0] if fouled else head
            return {**after, "end": {"winner": winner, "by": "playoff"}}
        if after["deals"] < options.get("dg.tableDeals", 4):
            return after
        for figure, by in (("points", "points"), ("first_finishes", "first_finishes")):
            values = after[figure]
            if values[0] != values[1]:
                return {**after, "end": {"winner": 0 if values[0] > values[1] else 1, "by": by}}
        return {**after, "playoff": True}

    def time_limit(self, options: dict[str, Any]) -> int | None:
        return None

    def time_up(self, standing: Standing, options: dict[str, Any]) -> Standing:
        return standing

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        return [seat for seat in range(seat_count) if seat % 2 == side]

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        return standing  # seed 000 is silent: dealt again, nothing counted


MATCH_RULES: dict[str, MatchRules] = {
    rules.game: rules for rules in (ChipTable(), ShengjiMatch(), SandayiTable(), WakengTable(), DaguaiTable())
}


def match_rules(game: str) -> MatchRules:
    rules = MATCH_RULES.get(game)
    if rules is None:
        raise IllegalAction("no_match_rules", f"Matches of {game} are not supported yet: deals of it are stand-alone.",
                            f"暂不支持 {game} 的对局（牌桌），只能记录单独牌局。", {"game": game})
    return rules
