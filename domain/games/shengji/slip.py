"""升级 score slips (domain/records/slips.py): the facts that decide the level change, scored by the engine's `result`.

Facts (docs/record-format.md "Result-only records"): `dealer` (the context's dealer when the table has one; any
seat in a 抢庄 deal); `points`, the card points the attackers took in tricks (0–200, in fives); `kitty`:
`{"points": the buried cards' points, "pairs": when the attackers won the last trick (抠底, §3.9) the largest
number of pairs in the winning play (0: a single), else null}`; `throws`, each failed throw (甩牌失败) `{"seat",
"retracted": cards taken back}`, costing what `sj.throwPenalty` says (§3.13); `penalties`, the points an
adjudicated irregularity cost (`{"seat", "reason": wrong_follow | revoke | miscount | kitty_mishandled, "points"}`,
under `sj.illegalPlay` = adjudicate); `ended_by` (play, or the irregularity that ended it, with its `offender`)
and, for a deal cut short, `dealer_points`; `fouls` (a point penalty where
the rules give one); optionally `trump` and `declarer`, for the record.
"""

from __future__ import annotations

from typing import Any

from domain.games.shengji.engine import ShengjiEngine
from domain.games.shengji.scoring import kitty_factor, throw_penalty
from domain.games.shengji.state import KITTY_SIZE, SEATS, ShengjiState
from domain.games.slip import bad, choice, fouls, impossible, known, seat, whole
from domain.kernel.engine import PENALTY_LIMIT, DealSetup, team_of
from domain.kernel.errors import seat_ref

FACTS = {"dealer", "points", "kitty", "throws", "penalties", "fouls", "trump", "declarer", "ended_by", "offender",
         "redeal", "dealer_points"}
OTHER_PENALTIES = ("wrong_follow", "revoke", "miscount", "kitty_mishandled")  # adjudicated irregularities (§3.13)
ENDINGS = ("play", "revoke", "miscount", "kitty_mishandled")  # how a deal ends (§3.13; the engine's `ended_by`)
ALL_POINTS = 200  # two decks: 8 fives, 8 tens, 8 kings (§3.1)
MOST_KITTY_POINTS = 10 * KITTY_SIZE  # eight tens or kings
TRUMPS = ("S", "H", "C", "D", "NT")


def score_slip(engine: ShengjiEngine, setup: DealSetup, facts: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    known(facts, FACTS)
    levels, context_dealer, number = engine._context(setup.context)
    if facts.get("redeal") is True:
        if context_dealer is not None or set(facts) != {"redeal"}:
            raise impossible("Only a 抢庄 deal nobody declared in is dealt again (§3.4 [REC]); it has no other facts.",
                             "只有无人亮主的抢庄局才重新发牌（§3.4），且没有其他内容。")
        state = ShengjiState(setup.options, list(setup.seats), setup.first, [], [], [], levels, None, number,
                             levels[0], phase="finished", ended_by="redeal")
        return {"redeal": True}, engine.result(state)  # type: ignore[return-value]
    dealer = seat(facts, "dealer", SEATS)
    assert dealer is not None
    if context_dealer is not None and dealer != context_dealer:
        raise impossible(f"This deal's dealer is {seat_ref(context_dealer)}, as the table's last deal decided (§3.10).",
                         f"本局庄家是{seat_ref(context_dealer)}，由本桌上一局决定（§3.10）。", dealer=dealer,
                         expected=context_dealer)
    points = whole(facts, "points", 0, ALL_POINTS)
    if points % 5:
        raise impossible("Card points come in fives (5, 10, K).", "牌分以 5 为单位（5、10、K）。", points=points)
    kitty = facts.get("kitty")
    ended_by = choice(facts, "ended_by", ENDINGS, "play")
    offender = seat(facts, "offender", SEATS, required=ended_by in ("revoke", "miscount"))
    if ended_by in ("revoke", "miscount") and setup.options["sj.illegalPlay"] != "adjudicate":
        raise impossible("A deal ends on a revoke or a miscount only where the referee adjudicates illegal plays; "
                         "under these rules such plays are refused.",
                         "只有裁判判罚违规出牌的规则下，牌局才会因违例结束。")
    state = ShengjiState(setup.options, list(setup.seats), setup.first, [], [], [], levels, dealer, number,
                         levels[team_of(dealer)], phase="finished", ended_by=ended_by,
                         offender=offender if ended_by in ("revoke", "miscount") else None)
    trump = facts.get("trump")
    if trump is not None:
        state.trump = choice(facts, "trump", TRUMPS)
    attackers = 1 - team_of(dealer)
    kitty_points = 0
    pairs = None
    if kitty is not None:
        if not isinstance(kitty, dict):
            raise bad("The kitty gives the buried cards' points and, when the attackers won the last trick, the "
                      "largest number of pairs in the winning play.",
                      "底牌须写明底牌分，以及攻方赢得最后一墩时赢牌中最大的对子数。")
        kitty_points = whole(kitty, "points", 0, MOST_KITTY_POINTS)
        if kitty_points % 5 or points + kitty_points > ALL_POINTS:
            raise impossible(f"The kitty's points come in fives and, with the {points} taken in tricks, are at "
                             f"most {ALL_POINTS}.",
                             f"底牌分以 5 为单位，且与牌墩中的 {points} 分合计不超过 {ALL_POINTS}。",
                             kitty=kitty_points, points=points)
        if kitty.get("pairs") is not None:  # 抠底: the attackers won the last trick
            pairs = whole(kitty, "pairs", 0, SEATS * 3)
            state.kitty_multiplier = kitty_factor(pairs, setup.options["sj.kittyMultiplier"])
            state.kitty_bonus = kitty_points * state.kitty_multiplier
    state.captured[attackers] = points
    # The dealer's side took the rest of the tricks' points in a deal played out; one cut short by an
    # irregularity says how many it had taken (`dealer_points`, default 0).
    rest = ALL_POINTS - points - kitty_points
    dealer_points = whole(facts, "dealer_points", 0, rest, rest if ended_by == "play" else 0)
    if ended_by == "play" and dealer_points != rest:
        raise impossible(f"Played out, the tricks hold {ALL_POINTS} points less the kitty's: the dealer's side took "
                         f"{rest}.", f"打完的牌局中牌墩共 {ALL_POINTS} 分减去底牌分：庄家方得 {rest} 分。",
                         dealer_points=dealer_points, expected=rest)
    state.captured[1 - attackers] = dealer_points
    throws = facts.get("throws", [])
    if not isinstance(throws, list) or not all(isinstance(t, dict) for t in throws):
        raise bad("The failed throws are a list, each with who threw and how many cards were taken back.",
                  "甩牌失败必须是列表，每条写明甩牌者及收回的牌数。")
    read_throws = []
    for throw in throws:
        who = seat(throw, "seat", SEATS)
        assert who is not None
        retracted = whole(throw, "retracted", 1, 25)
        penalty = throw_penalty(retracted, setup.options["sj.throwPenalty"])
        if penalty:
            engine._penalize(state, who, "failed_throw", penalty, {"retracted": retracted})
        read_throws.append({"seat": who, "retracted": retracted})
    others = facts.get("penalties", [])
    if not isinstance(others, list) or not all(isinstance(p, dict) for p in others):
        raise bad("The penalties are a list, each with who, the reason and the points.",
                  "罚分必须是列表，每条写明受罚者、理由和分数。")
    read_penalties = []
    for other in others:  # the points an adjudicated irregularity cost (§3.13), by the offender's side
        who = seat(other, "seat", SEATS)
        assert who is not None
        reason = choice(other, "reason", OTHER_PENALTIES)
        amount = whole(other, "points", 1, PENALTY_LIMIT)
        engine._penalize(state, who, reason, amount, {})
        read_penalties.append({"seat": who, "reason": reason, "points": amount})
    read = fouls(engine, facts)
    for foul in read:
        engine.record_foul(state, foul)  # a penalty moves the attackers' points, by the offender's side (§3.13)
    declarer = seat(facts, "declarer", SEATS, required=False)
    stored = {"dealer": dealer, "points": points, "kitty": None if kitty is None else
              {"points": kitty_points, "pairs": pairs}, "throws": read_throws, "penalties": read_penalties,
              "fouls": read,
              "trump": state.trump, "declarer": declarer, "ended_by": ended_by, "offender": state.offender,
              "dealer_points": dealer_points}
    result = engine.result(state)
    assert result is not None
    result["points"]["kitty_cards"] = kitty_points  # the buried cards themselves are not on a slip
    result["declarer"] = declarer
    return stored, result
