"""升级's scoring (docs/rules/shengji.md §3.9–3.13): the level change and 大分 for the attackers' points, a failed
throw's penalty, the kitty's multiplier (抠底), and a finished deal's result."""

from __future__ import annotations

from typing import Annotated, Any

from domain.games.shengji.cards import POINTS
from domain.games.shengji.state import SEATS, TOP_LEVEL, ShengjiState
from domain.kernel.engine import team_of
from domain.kernel.values import DealResult, Doc


def level_change(points: int, table: str) -> tuple[bool, int]:
    """(attackers take over, levels gained) for attacker points P (§3.10; vector 11)."""
    if points < 80:
        return False, 3 if points == 0 else 2 if points < 40 else 1
    if table == "s001":
        return True, (points - 40) // 40  # +1 at 80, then +1 per 40, uncapped [S001]
    return True, min(3, (points - 80) // 40)  # +0 at 80 … +3 cap [S004 rule 14]


def big_points(points: int) -> tuple[int, int]:
    """S004 大分 (dealer team, attackers) for attacker points P; the bonuses do not stack (§3.12 [REC])."""
    if points < 80:
        return (6 if points == 0 else 4 if points < 40 else 2), 0
    return 0, 10 if points >= 200 else 6 if points >= 160 else 4 if points >= 120 else 2


def throw_penalty(retracted: int, rule: str) -> int:
    """The points a failed throw (甩牌失败) costs, `retracted` cards taken back, under `sj.throwPenalty` (§3.13)."""
    return 10 * retracted if rule == "perRetractedCard" else 10 if rule == "flat10" else 0


def kitty_factor(pairs: int, rule: str) -> int:
    """抠底 multiplier for a largest component of `pairs` pairs (0 = single) (§3.9; vector 10)."""
    if rule == "linear":
        return 2 if pairs == 0 else 4 * pairs  # S004 "2•2n" read as 2·2·n
    return 2 << pairs  # 2 × 2^n


class ShengjiResult(DealResult, total=False):
    """A 升级 deal's result (docs/rules/shengji.md §3.9–3.12): points, the level change, 大分 and 小分."""

    deal_number: Annotated[int, Doc("the deal's number in its match")]
    dealer: Annotated[int, Doc("the dealer's seat")]
    dealer_team: Annotated[int, Doc("the dealer's team (seat % 2)")]
    declarer: Annotated[int | None, Doc("the seat whose declaration set the trump")]
    trump: Annotated[str | None, Doc("the trump suit (none: no-trump)")]
    level: Annotated[int, Doc("the level played")]
    levels: Annotated[list[int], Doc("both teams' levels before the deal")]
    ended_by: Annotated[str, Doc("how the deal ended: cards, revoke, miscount, kitty_mishandled, redeal")]
    offender: Annotated[int | None, Doc("the seat whose irregularity ended the deal")]
    points: Annotated[dict[str, Any], Doc("the attackers' points: cards, kitty cards and bonus, penalties, total")]
    attacker_points: Annotated[int, Doc("the attackers' points after penalties (never below 0)")]
    dealer_team_points: Annotated[int, Doc("the card points the dealer's team took")]
    winner_team: Annotated[int, Doc("the team that won the deal")]
    takeover: Annotated[bool, Doc("the attackers become the dealers")]
    level_change: Annotated[dict[str, int], Doc("`team` and `steps` it moves up")]
    new_levels: Annotated[list[int], Doc("both teams' levels after the deal")]
    next_dealer: Annotated[int, Doc("the next deal's dealer")]
    big_points: Annotated[list[int], Doc("大分 per team (S004)")]
    small_points: Annotated[list[int], Doc("小分 per team (S004)")]
    match_winner: Annotated[int | None, Doc("the team whose deal ended the match (reaching the goal level, passing A)")]
    penalties: Annotated[list[dict[str, Any]], Doc("the point penalties applied, each with its effect")]
    irregularities: Annotated[list[dict[str, Any]], Doc("the irregularities the referee recorded")]


def deal_result(state: ShengjiState) -> ShengjiResult | None:
    """A finished deal's result (§3.9–3.13); None while it is played."""
    if state.phase != "finished":
        return None
    if state.ended_by == "redeal":
        return {"redeal": True, "scores": [0] * SEATS, "deal_number": state.deal_number,
                "levels": list(state.levels)}
    dealer = state.dealer
    assert dealer is not None
    options = state.options
    table = options["sj.levelTable"]
    dealer_team = team_of(dealer)
    attackers = 1 - dealer_team
    effect = sum(p["effect"] for p in state.penalties)
    card_points = state.captured[attackers]
    points = max(0, card_points + state.kitty_bonus + effect)  # P < 0 counts as 0 [REC]
    ended_by = state.ended_by
    if ended_by in ("revoke", "miscount"):
        # 0 : 2 — the non-offending side wins the deal minimally (§3.13 [REC]).
        assert state.offender is not None
        winner = 1 - team_of(state.offender)
        takeover = winner == attackers
        steps = (0 if table == "s004" else 1) if takeover else 1
        big = [0, 0]
        big[winner] = max(2, big_points(points)[1]) if takeover else 2
    else:
        if ended_by == "kitty_mishandled":
            points = 80  # "自动下台，对方上台" → scored as P = 80 [REC]
        takeover, steps = level_change(points, table)
        dealer_big, attacker_big = big_points(points)
        big = [0, 0]
        big[dealer_team], big[attackers] = dealer_big, attacker_big
        winner = attackers if takeover else dealer_team
    gaining = attackers if takeover else dealer_team
    new_levels = list(state.levels)
    passed_ace = new_levels[gaining] + steps > TOP_LEVEL
    new_levels[gaining] = min(TOP_LEVEL, new_levels[gaining] + steps)
    match_winner = None
    if passed_ace or state.levels[gaining] < options["sj.goalLevel"] <= new_levels[gaining]:
        match_winner = gaining  # passing A, or reaching the goal level (§3.11, §3.14a.10)
    elif ended_by in ("revoke", "miscount") and options["sj.revokeEndsMatch"]:
        match_winner = winner
    small = [0, 0]
    small[attackers] = points
    return {
        "scores": [steps if team_of(s) == gaining else 0 for s in range(SEATS)],
        "deal_number": state.deal_number,
        "dealer": dealer,
        "dealer_team": dealer_team,
        "declarer": state.declarations[-1].seat if state.declarations else None,
        "trump": state.trump,
        "level": state.level,
        "levels": list(state.levels),
        "ended_by": ended_by,
        "offender": state.offender,
        "points": {
            "cards": card_points,
            "kitty_cards": sum(POINTS[c] for c in state.buried),
            "kitty_multiplier": state.kitty_multiplier,
            "kitty_bonus": state.kitty_bonus,
            "penalties": effect,
            "total": points,
        },
        "attacker_points": points,
        "dealer_team_points": state.captured[dealer_team],
        "winner_team": winner,
        "takeover": takeover,
        "level_change": {"team": gaining, "steps": steps},
        "new_levels": new_levels,
        "next_dealer": (dealer + 1) % SEATS if takeover else (dealer + 2) % SEATS,
        "big_points": big,
        "small_points": small,
        "match_winner": match_winner,
        "penalties": [dict(p) for p in state.penalties],
        "irregularities": [dict(i) for i in state.irregularities],
    }
