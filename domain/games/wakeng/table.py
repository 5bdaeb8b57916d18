"""The 挖坑 table: one Swiss round's duplicate boards (docs/rules/wakeng.md B7–B8, B11.8)."""

from __future__ import annotations

from typing import Any

from domain.kernel.table import DealsTable, Standing, chips_after


class WakengTable(DealsTable):
    """A 挖坑 table in one round of the seed-003 Swiss event (B7–B8, B11.8): every table of the round plays
    the same boards, board k being the table's k-th deal (`context.board` = k), `wk.tableDeals` of them. The cards
    of a board are the organiser's to deal alike at every table (the same hands, or the same dealing seed); the
    first bidder follows from the cards (the lowest heart), so the table passes no rotation. Each seat is ranked
    against the same board and seat at the round's other tables by the standings (matchpoints), not here: the
    standing only sums the raw scores, and the table has no winner of its own."""

    game = "wakeng"

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"scores": [0] * seat_count, "deals": 0, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        # Where server dealing starts, always seat 0: the cards name the first bidder (the engine's
        # `first_actor`), and a board's seed must deal each seat the same cards at every table of the round
        # (B1, B11.8) whatever `first` a table was opened with.
        return 0

    def context(self, standing: Standing) -> dict[str, Any]:
        return {"board": standing["deals"] + 1}

    def seat_facts(self, result: dict[str, Any], standing: Standing | None) -> dict[str, list[Any]]:
        # Duplicate scoring compares each seat with the same board and seat elsewhere (B11.8).
        return {**super().seat_facts(result, standing), "board": [result["board"]] * len(result["scores"])}

    def board(self, context: dict[str, Any]) -> int | None:
        return context["board"]  # dealt once for the round (B1, B11.8); the other tables get its cards

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        deals = standing["deals"] + 1
        done = deals >= options.get("wk.tableDeals", 6)
        return {"scores": chips_after(standing["scores"], result["scores"]), "deals": deals,
                "end": {"winner": None, "by": "boards"} if done else None}
