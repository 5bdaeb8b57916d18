"""斗地主 score slips (domain/records/slips.py): the facts that decide a deal's chips, scored by the engine's `result`.

Facts (docs/record-format.md "Result-only records"): `landlord`; `robs`, the 抢地主 made (each ×2, at most 3:
the two others and the caller's one counter-rob, §2.7a.4); `reveal`, the 明牌 with the largest factor, if any
(`{"seat", "stage": "start" | "deal" | "after_kitty", "received"}`, §2.7a.1: ×5, ×4/×3/×2 by cards received,
×2 by the landlord after the kitty); `bombs` (炸弹) and `rocket` (火箭) played; `spring`: none | spring |
anti_spring (§2.7a.7); `winner`: landlord | farmers, and `out`, the farmer who went out (default: the one after
the landlord); `fouls`. A deal everyone passed is `{"redeal": true}` (fouls aside).
"""

from __future__ import annotations

from typing import Any

from domain.games.doudizhu.engine import (
    HAND_SIZE,
    REVEAL_AFTER_KITTY_FACTOR,
    REVEAL_START_FACTOR,
    SEATS,
    DoudizhuEngine,
    DoudizhuState,
    reveal_deal_factor,
)
from domain.games.slip import bad, choice, flag, fouls, impossible, known, recorded_fouls, seat, whole
from domain.kernel.engine import DealSetup
from domain.kernel.errors import listed

FACTS = {"landlord", "robs", "reveal", "bombs", "rocket", "spring", "winner", "out", "fouls", "redeal"}
MAX_ROBS = 3
FOUR_OF_A_KIND = 13  # one per rank of one deck
LANDLORD_CARDS = 20  # 17 and the kitty: a spring's every bomb is the landlord's


def score_slip(engine: DoudizhuEngine, setup: DealSetup, facts: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    known(facts, FACTS)
    penalties = fouls(engine, facts)
    state = DoudizhuState(setup.options, list(setup.seats), setup.first, [[] for _ in range(SEATS)], [],
                          phase="finished", fouls=recorded_fouls(penalties))
    if flag(facts, "redeal"):
        extra = sorted(set(facts) - {"redeal", "fouls"})
        if extra:
            raise impossible(f"A deal everyone passed has no landlord or play: {listed(extra)} cannot be on its slip.",
                             f"无人叫地主的牌局没有地主和出牌，成绩单上不能有：{listed(extra, 'zh')}。", facts=extra)
        state.redeal = True
        return {"redeal": True, "fouls": penalties}, engine.result(state)  # type: ignore[return-value]
    landlord = seat(facts, "landlord", SEATS)
    assert landlord is not None
    robs = whole(facts, "robs", 0, MAX_ROBS, 0)
    bombs = whole(facts, "bombs", 0, FOUR_OF_A_KIND, 0)
    rocket = flag(facts, "rocket")
    spring = choice(facts, "spring", ("none", "spring", "anti_spring"), "none")
    winner = choice(facts, "winner", ("landlord", "farmers"))
    reveal = _reveal(facts.get("reveal"), landlord)
    if spring == "spring" and winner != "landlord":
        raise impossible("春天 is the landlord's win with no farmer play: the farmers cannot have won (§2.7a.7).",
                         "春天是地主获胜且农民一张牌未出：农民不可能获胜（§2.7a.7）。")
    if spring == "anti_spring" and winner != "farmers":
        raise impossible("反春天 is the farmers' win after the landlord's one play: the landlord cannot have won "
                         "(§2.7a.7).", "反春天是地主只出过一手、农民获胜：地主不可能获胜（§2.7a.7）。")
    if spring == "spring" and 4 * bombs + 2 * rocket > LANDLORD_CARDS:
        raise impossible(f"In a 春天 only the landlord played: {bombs} bombs and {'a' if rocket else 'no'} rocket "
                         f"need more than the landlord's {LANDLORD_CARDS} cards.",
                         f"春天只有地主出牌：{bombs} 个炸弹{'和火箭' if rocket else ''}超过了地主的 "
                         f"{LANDLORD_CARDS} 张牌。",
                         bombs=bombs, rocket=rocket)
    out = seat(facts, "out", SEATS, required=False)
    if winner == "landlord":
        if out not in (None, landlord):
            raise impossible("The landlord won, so the landlord went out first.", "地主获胜，先出完牌的是地主。")
        out = landlord
    elif out is None:
        out = (landlord + 1) % SEATS
    elif out == landlord:
        raise impossible("The farmers won, so a farmer went out first, not the landlord.",
                         "农民获胜，先出完牌的是农民，不是地主。")
    farmers = [s for s in range(SEATS) if s != landlord]
    # What the engine reads to tell 春天 and 反春天 (§2.7a.7): the landlord's and the farmers' plays.
    plays = [0] * SEATS
    plays[landlord] = 1 if spring != "none" else 2
    for farmer in farmers:
        plays[farmer] = 0 if spring == "spring" else 1
    state.landlord, state.robs, state.bombs, state.winner = landlord, robs, bombs + int(rocket), out
    state.reveals = [] if reveal is None else [reveal]
    state.plays_by_seat = plays
    stored = {"landlord": landlord, "robs": robs, "reveal": None if reveal is None else
              {k: v for k, v in reveal.items() if k != "factor"}, "bombs": bombs, "rocket": rocket,
              "spring": spring, "winner": winner, "out": out, "fouls": penalties}
    return stored, engine.result(state)  # type: ignore[return-value]


def _reveal(given: Any, landlord: int) -> dict[str, Any] | None:
    """The 明牌 with the largest factor (only it counts, §2.4), as the engine keeps a reveal."""
    if given is None:
        return None
    if not isinstance(given, dict):
        raise bad("A 明牌 says who showed, when, and how many cards had been received; or there was none.",
                  "明牌须写明谁明牌、何时明牌及已收到的牌数；没有明牌则不填。")
    who = seat(given, "seat", SEATS)
    stage = choice(given, "stage", ("start", "deal", "after_kitty"))
    if stage == "after_kitty" and who != landlord:
        raise impossible("明牌 after the kitty is the landlord's alone (§2.7a.3).",
                         "收底牌后明牌只能由地主进行（§2.7a.3）。", seat=who, landlord=landlord)
    if stage == "deal":
        received = whole(given, "received", 0, HAND_SIZE)
        return {"seat": who, "stage": stage, "received": received, "factor": reveal_deal_factor(received)}
    factor = REVEAL_START_FACTOR if stage == "start" else REVEAL_AFTER_KITTY_FACTOR
    return {"seat": who, "stage": stage, "factor": factor}
