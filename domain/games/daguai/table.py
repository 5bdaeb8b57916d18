"""The 大怪路子 team table: a fixed number of deals, then a play-off deal (docs/rules/daguai.md A8, A10.9)."""

from __future__ import annotations

from typing import Any

from domain.kernel.table import DealsTable, Standing, chips_after


class DaguaiTable(DealsTable):
    """A 大怪路子 knockout table (seed 000, A8, A10.9): two teams of three (seats 0, 2, 4 and 1, 3, 5),
    `dg.tableDeals` deals (4 a round; 6 in the semifinal and final), the dealer moving one seat per deal (依次坐庄,
    A10.10). The team with more points advances; equal points → more 跑头家 deals; still equal → one play-off deal
    (its dealer drawn by lot: the organiser starts it with that `first`), won by the team of its first finisher,
    or by the other side if exactly one side fouled twice in it; both → another play-off (A10.9). Every deal's
    points count in the totals, the play-off's too, as the standings count them."""

    game = "daguai"

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"points": [0, 0], "first_finishes": [0, 0], "deals": 0, "playoff": False, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        return (first + number - 1) % seat_count

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

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        return [seat for seat in range(seat_count) if seat % 2 == side]
