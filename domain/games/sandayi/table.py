"""The 快乐三打一 table: a fixed number of deals (docs/rules/sandayi.md §1.9)."""

from __future__ import annotations

from typing import Any

from domain.kernel.table import DealsTable, Standing, chips_after


class SandayiTable(DealsTable):
    """A 快乐三打一 knockout table (seeds 000/002, §1.9): `sdy.earlyRoundDeals` deals (8 by default, S002;
    S000's first two rounds play 4, and its tables from the last 16 on play 8: set it per table), each player for
    themselves. The first bidder moves one seat per deal (§1.1: deal k starts at seat (k−1) mod 4); a voided
    deal (a second foul before the dealer is known, §1.10a.8) is redealt with the same first bidder and counts
    nothing. Ranking at the table: total score, then 庄家数量, then 庄家难度 (§1.9, §1.10a.10); the top 2 advance,
    which the standings decide (projections/formats.py). The standing's `end.winner` names the first-ranked seat
    when it is alone there (lots are drawn by the standings, not here)."""

    game = "sandayi"

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        zeros = [0] * seat_count
        return {"scores": zeros, "deals": 0, "dealt": zeros, "dealer_bids": [[] for _ in range(seat_count)],
                "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        return (first + standing["deals"]) % seat_count

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
