"""The 斗地主 chip table (seed 001, docs/rules/doudizhu.md §2.5–2.6)."""

from __future__ import annotations

from typing import Any

from domain.kernel.table import DealsTable, Standing, chips_after

START_CHIPS = 10
TARGET = 20


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


class DoudizhuTable(DealsTable):
    """A 斗地主 chip table (seed 001, §2.5–2.6): 10 chips each, chips move by each deal's scores, the
    table ends per `ddz.tableTarget`. Balances may go to 0 or below and nobody is eliminated [REC]. Seed 001
    sets no time limit for a table: a clock reading is recorded and changes nothing."""

    game = "doudizhu"
    start_chips: int | None = START_CHIPS
    target_chips: int | None = TARGET  # what a table's winner holds at least (`hold20`; `net20`: start + 20)

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"chips": [START_CHIPS] * seat_count, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        return (first + number - 1) % seat_count  # the first bidder rotates one seat per deal [REC, §2.3.2]

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        chips = chips_after(standing["chips"], result["scores"])
        winner = table_winner(chips, [START_CHIPS] * len(chips), options.get("ddz.tableTarget", "hold20"))
        return {"chips": chips, "end": None if winner is None else {"winner": winner, "by": "chips"}}

    def seat_facts(self, result: dict[str, Any], standing: Standing | None) -> dict[str, list[Any]]:
        """Who was the landlord, who won, and each seat's chip penalty (a positive count of chips lost)."""
        seats = range(len(result["scores"]))
        landlord = result.get("landlord")  # None on a redeal: nobody won or lost
        penalties = result.get("penalties") or [0] * len(seats)
        won = [int(landlord is not None and (landlord == seat) == bool(result["landlord_won"])) for seat in seats]
        return {"landlord": [int(landlord == seat) for seat in seats], "won": won,
                "landlord_won": [int(landlord == seat and won[seat]) for seat in seats],
                "penalty": [-penalties[seat] for seat in seats]}
