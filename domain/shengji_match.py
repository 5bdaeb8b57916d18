"""How 升级 deals chain into a match (digest §3.10–3.12): pure functions the Match aggregate can use.

A deal's result (domain.games.shengji) already says who gained how many levels, the next dealer, the new
levels and whether a team won the match by reaching `sj.goalLevel` or passing A. What is left here is the
context of the next deal and the outcome when the time cap (`sj.timeLimitMinutes`) ends play first.
"""

from __future__ import annotations

from typing import Any

START_LEVEL = 2  # both seeds start at 2 (S001 [REC]; S004 "从2开始打")


def first_context() -> dict[str, Any]:
    """The first deal of a match, or S001's 加赛 deal from scratch: 抢庄 at level 2 for both teams (§3.11)."""
    return {"levels": [START_LEVEL, START_LEVEL], "dealer": None, "deal_number": 1}


def next_context(context: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The `context` of the deal after one with this result; a redeal is dealt again with the same context."""
    if result.get("redeal"):
        return dict(context)
    return {"levels": list(result["new_levels"]), "dealer": result["next_dealer"],
            "deal_number": context.get("deal_number", 1) + 1}


def totals(results: list[dict[str, Any]]) -> dict[str, list[int]]:
    """S004 大分 and 小分 summed by team over a match's deal results (§3.12); redeals count nothing."""
    big, small = [0, 0], [0, 0]
    for result in results:
        if result.get("redeal"):
            continue
        for team in (0, 1):
            big[team] += result["big_points"][team]
            small[team] += result["small_points"][team]
    return {"big_points": big, "small_points": small}


def time_cap_outcome(levels: list[int], results: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    """Who wins when the time cap ends the match (§3.11).

    The team ahead in level wins. On equal levels: `sj.equalLevels` = `bigPoints` (S004 [REC]) compares 大分
    totals, then 小分; `extraDeal` (S001) plays one more deal from `first_context()`, whose `winner_team`
    wins. `winner` is None while undecided (equal on every count, or the extra deal still to play).
    """
    if levels[0] != levels[1]:
        return {"winner": 0 if levels[0] > levels[1] else 1, "by": "level"}
    if options["sj.equalLevels"] == "extraDeal":
        return {"winner": None, "by": "extra_deal", "context": first_context()}
    summed = totals(results)
    for key in ("big_points", "small_points"):
        a, b = summed[key]
        if a != b:
            return {"winner": 0 if a > b else 1, "by": key}
    return {"winner": None, "by": "tie"}
