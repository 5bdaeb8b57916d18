"""How 升级 deals chain into a match (docs/rules/shengji.md §3.10–3.12): the match rules the Match aggregate calls.

A deal's result (domain.games.shengji) already says who gained how many levels, the next dealer, the new
levels and whether a team won the match by reaching `sj.goalLevel` or passing A. What is left here is the
context of the next deal, the running 大分/小分 totals, and the outcome when the time cap
(`sj.timeLimitMinutes`, measured by the clock readings the referee records) ends play first.

The standing (domain.kernel.table) of a 升级 match:

- `levels`: both teams' levels, team 0 = seats {0, 2}, team 1 = seats {1, 3};
- `next`: the context of the next deal (levels, dealer — null for 抢庄 —, deal number);
- `big_points`, `small_points`: S004 大分 and 小分 summed over the counted deals (§3.12);
- `extra_deal`: S001, time is up on equal levels: the next deal is the 加赛, from scratch (§3.11);
- `misdeals`: dealing miscounts by team (§3.13, S004 13: each is dealt again; more than MISDEALS_ALLOWED
  disqualify the team); absent in standings recorded before misdeals were;
- `end`: `{"winner": team or None, "by": …}` — `goal` (a team reached `sj.goalLevel` or passed A), `revoke`
  (`sj.revokeEndsMatch`), `misdeals` (the other team misdealt more than MISDEALS_ALLOWED times), or at the
  time cap `level`, `big_points`, `small_points` (S004: equal levels, then
  大分, then 小分), `tie` (S004: equal on all three: a drawn match) or `extra_deal` (S001: the 加赛's winner).

When time is called during a deal, that deal is played to its end and counts; the cap applies after it
[REC: the seeds do not say; §3.11]. The 加赛 is not counted in the levels or the totals: it only decides.
"""

from __future__ import annotations

from typing import Any

from domain.games.shengji.state import TOP_LEVEL
from domain.kernel.engine import team_of
from domain.kernel.table import DealsTable

Standing = dict[str, Any]

START_LEVEL = 2  # both seeds start at 2 (S001 [REC]; S004 "从2开始打")
TEAMS = 2
# S004 13: "发牌时若出现数目错误，则重新发牌，出现三次错误以上的一方，取消比赛资格" — §3.13 reads it as "more than
# 3" (the 4th disqualifies). S001 is silent; §3.13 states the rule for 升级 without a ruleset option.
MISDEALS_ALLOWED = 3


def first_context() -> dict[str, Any]:
    """The first deal of a match, or S001's 加赛 deal from scratch: 抢庄 at level 2 for both teams (§3.11)."""
    return {"levels": [START_LEVEL, START_LEVEL], "dealer": None, "deal_number": 1}


def next_context(context: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The `context` of the deal after one with this result; a redeal is dealt again with the same context."""
    if result.get("redeal"):
        return dict(context)
    return {"levels": list(result["new_levels"]), "dealer": result["next_dealer"],
            "deal_number": context.get("deal_number", 1) + 1}


def zero_totals() -> dict[str, list[int]]:
    return {"big_points": [0] * TEAMS, "small_points": [0] * TEAMS}


def add_to_totals(summed: dict[str, list[int]], result: dict[str, Any]) -> dict[str, list[int]]:
    """S004 大分 and 小分 by team after one more deal (§3.12); a redeal counts nothing."""
    if result.get("redeal"):
        return {key: list(values) for key, values in summed.items()}
    return {key: [summed[key][team] + result[key][team] for team in range(TEAMS)]
            for key in ("big_points", "small_points")}


def totals(results: list[dict[str, Any]]) -> dict[str, list[int]]:
    """S004 大分 and 小分 summed by team over a match's deal results (§3.12); redeals count nothing."""
    summed = zero_totals()
    for result in results:
        summed = add_to_totals(summed, result)
    return summed


def time_cap_outcome(levels: list[int], summed: dict[str, list[int]], options: dict[str, Any]) -> dict[str, Any]:
    """Who wins when the time cap ends the match (§3.11), from the levels and the 大分/小分 `summed` so far.

    The team ahead in level wins. On equal levels: `sj.equalLevels` = `bigPoints` (S004 [REC]) compares 大分
    totals, then 小分; `extraDeal` (S001) plays one more deal from `first_context()`, whose `winner_team`
    wins. `winner` is None while undecided (equal on every count, or the extra deal still to play).
    """
    if levels[0] != levels[1]:
        return {"winner": 0 if levels[0] > levels[1] else 1, "by": "level"}
    if options["sj.equalLevels"] == "extraDeal":
        return {"winner": None, "by": "extra_deal", "context": first_context()}
    for key in ("big_points", "small_points"):
        a, b = summed[key]
        if a != b:
            return {"winner": 0 if a > b else 1, "by": key}
    return {"winner": None, "by": "tie"}


def _won_by(result: dict[str, Any], team: int, goal: int) -> str:
    """Why a deal's `match_winner` won: the level goal (or passing A), else a revoke that ends the match."""
    change = result["level_change"]
    before = result["levels"][team]
    passed_ace = before + change["steps"] > TOP_LEVEL
    reached = change["team"] == team and (before < goal <= result["new_levels"][team] or passed_ace)
    return "goal" if reached else "revoke"


class ShengjiTable(DealsTable):
    """The 升级 match rules (domain.kernel.table.MatchRules)."""

    game = "shengji"
    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"levels": [START_LEVEL] * TEAMS, "next": first_context(), **zero_totals(), "extra_deal": False,
                "misdeals": [0] * TEAMS, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        """The dealer deals (record-format: `first` is normally the dealer); a 抢庄 deal starts from the seat
        the match was opened with [REC]."""
        dealer = standing["next"]["dealer"]
        return first if dealer is None else dealer

    def context(self, standing: Standing) -> dict[str, Any]:
        return dict(standing["next"])

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        if result.get("redeal"):
            return standing  # dealt again with the same context
        if standing["extra_deal"]:
            return {**standing, "end": {"winner": result["winner_team"], "by": "extra_deal"}}
        winner = result["match_winner"]
        return {
            "levels": list(result["new_levels"]), "next": next_context(standing["next"], result),
            **add_to_totals(standing, result), "extra_deal": False,
            "misdeals": list(standing.get("misdeals", [0] * TEAMS)),
            "end": None if winner is None else {"winner": winner, "by": _won_by(result, winner,
                                                                                options["sj.goalLevel"])},
        }

    def time_limit(self, options: dict[str, Any]) -> int | None:
        return options["sj.timeLimitMinutes"] or None

    def time_up(self, standing: Standing, options: dict[str, Any]) -> Standing:
        if standing["end"] is not None or standing["extra_deal"]:
            return standing
        outcome = time_cap_outcome(standing["levels"], standing, options)
        if outcome["by"] == "extra_deal":
            return {**standing, "extra_deal": True, "next": outcome["context"]}
        return {**standing, "end": {"winner": outcome["winner"], "by": outcome["by"]}}

    def side_seats(self, side: int, seat_count: int) -> list[int]:
        return [seat for seat in range(seat_count) if seat % TEAMS == side]

    def misdeal(self, standing: Standing, seat: int, seat_count: int) -> Standing:
        team = seat % TEAMS
        misdeals = list(standing.get("misdeals", [0] * TEAMS))
        misdeals[team] += 1
        end = {"winner": 1 - team, "by": "misdeals"} if misdeals[team] > MISDEALS_ALLOWED else None
        return {**standing, "misdeals": misdeals, "end": end}

    def seat_facts(self, result: dict[str, Any], standing: Standing | None) -> dict[str, list[Any]]:
        """Each seat's team and its figures: the match's level (S001's 加赛 restarts at 2 in its own deal but
        moves no level of the match), dealer, deal won, 大分/小分, and the 加赛 won (only the match knows)."""
        redeal = bool(result.get("redeal"))
        levels = standing["levels"] if standing else result["levels"] if redeal else result["new_levels"]
        end = (standing or {}).get("end") or {}
        teams = [team_of(seat) for seat in range(len(result["scores"]))]
        return {
            "team": teams,
            "level": [levels[team] for team in teams],
            "dealer": [int(not redeal and result["dealer"] == seat) for seat in range(len(teams))],
            "won": [int(not redeal and result["winner_team"] == team) for team in teams],
            "big_points": [0 if redeal else result["big_points"][team] for team in teams],
            "small_points": [0 if redeal else result["small_points"][team] for team in teams],
            "extra_deal": [int(end.get("by") == "extra_deal" and end.get("winner") == team) for team in teams],
        }
