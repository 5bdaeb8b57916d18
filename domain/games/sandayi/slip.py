"""快乐三打一 score slips (domain/records/slips.py): the facts that decide the score, scored by the engine's `result`.

Facts (docs/record-format.md "Result-only records"): `dealer` and `bid` (1–3; 头撂 when the first bidder opened
with 3, §1.7); `declared`, the dealer's declarations (`tanda` 摊打 — only after 头撂 —, `baodao` 报到, with
`baodao_sets`, the qualifying sets, §1.5); `bombs`, each bomb played `{"seat", "cards": 4–8}` or
`{"seat", "king": true}` (天王炸弹), which multiply under `sdy.bombMultiplier`; `spring`: none | spring |
anti_spring (under `sdy.spring`); the ending: `winner`, the seat that went out, or `ending: "foul"` with the
`offender` whose second foul decided it, or `ending: "instant"` (报到 直接赢); `fouls`. A deal voided by a
second foul before the dealer is known (§1.10a.8) is `{"ending": "void", "offender", "fouls"}`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.games.sandayi.engine import SEATS, TOP_BID, SandayiEngine, SandayiState, bomb_factor
from domain.games.sandayi.patterns import Pattern
from domain.games.slip import bad, choice, fouls, impossible, known, recorded_fouls, seat, whole
from domain.kernel.engine import DealSetup
from domain.kernel.errors import seat_ref

FACTS = {"dealer", "bid", "declared", "baodao_sets", "bombs", "spring", "ending", "winner", "offender", "fouls"}


def score_slip(engine: SandayiEngine, setup: DealSetup, facts: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    known(facts, FACTS)
    ending = choice(facts, "ending", ("out", "foul", "instant", "void"), "out")
    read = fouls(engine, facts)
    twice = [s for s, n in Counter(f["seat"] for f in read).items() if n >= 2]
    state = SandayiState(setup.options, list(setup.seats), setup.first, [[] for _ in range(SEATS)], [],
                         phase="finished", ending=ending, fouls=recorded_fouls(read))
    if ending in ("foul", "void"):
        offender = seat(facts, "offender", SEATS)
        if offender not in twice:
            raise impossible("A deal ends on a foul with the offender's second foul (§1.8): list both.",
                             "犯规结束的牌局是犯规者的第二次犯规（§1.8）：请列出两次犯规。", offender=offender)
        state.offender = offender
    elif twice:
        raise impossible(f"{seat_ref(twice[0])} fouled twice, which ends the deal (§1.8): it ended by a foul.",
                         f"{seat_ref(twice[0])} 两次犯规，本局即告结束（§1.8）：结束方式应为犯规。", seat=twice[0])
    if ending == "void":
        return {"ending": "void", "offender": state.offender, "fouls": read}, engine.result(state)  # type: ignore
    dealer = seat(facts, "dealer", SEATS)
    bid = whole(facts, "bid", 1, TOP_BID)
    declared = facts.get("declared", [])
    if not isinstance(declared, list) or not set(declared) <= {"tanda", "baodao"} or len(set(declared)) != len(
            declared):
        raise bad("The declarations are 摊打 and/or 报到, each once.", "宣告只能是摊打、报到，各一次。")
    toulu = bid == TOP_BID and dealer == setup.first  # the first bidder opened with 3: nobody could bid over it
    if "tanda" in declared and not toulu:
        raise impossible("摊打 only in a 头撂 deal: the first bidder opened with 3 and deals [S].",
                         "只有头撂（首先叫牌者直接叫 3 分并成为庄家）的庄家可以摊打。", first=setup.first)
    sets = whole(facts, "baodao_sets", 1, 5, 1) if "baodao" in declared else 0
    if ending == "instant" and ("baodao" not in declared or not setup.options["sdy.baodao.instantWin"]):
        raise impossible("直接赢 is a 报到 where the rules allow winning at once (EXT-M2).",
                         "直接赢只在报到且规则允许直接赢时发生。")
    bombs = facts.get("bombs", [])
    if not isinstance(bombs, list) or not all(isinstance(b, dict) for b in bombs):
        raise bad("The bombs are a list, each with who played it and its cards (or the kings).",
                  "炸弹必须是列表，每个写明出炸弹的人及其牌（或王炸）。")
    state.dealer, state.bid, state.toulu, state.declared, state.baodao_count = dealer, bid, toulu, list(declared), sets
    read_bombs = []
    for bomb in bombs:
        who = seat(bomb, "seat", SEATS)
        assert who is not None
        king = bomb.get("king") is True
        size = 4 if king else whole(bomb, "cards", 4, 8)
        state.bombs_by_seat[who] += 1
        state.bomb_multiplier *= bomb_factor(Pattern("king_bomb" if king else "bomb", size, 0),
                                             setup.options["sdy.bombMultiplier"])
        read_bombs.append({"seat": who, "king": True} if king else {"seat": who, "cards": size})
    spring = choice(facts, "spring", ("none", "spring", "anti_spring"), "none")
    if ending == "out":
        state.winner = seat(facts, "winner", SEATS)
    elif ending == "instant":
        state.winner = dealer
    if spring != "none" and ending != "out":
        raise impossible("春天 and 反春天 need a deal played out to a player going out.",
                         "春天、反春天只在有人出完牌时成立。")
    if spring == "spring" and state.winner != dealer or spring == "anti_spring" and state.winner == dealer:
        raise impossible("春天 is the dealer going out with no defender play, 反春天 a defender going out after the "
                         "dealer's one play.", "春天是庄家出完且闲家未出牌；反春天是闲家出完且庄家只出过一手。")
    plays = [0 if spring == "spring" else 1] * SEATS
    plays[dealer] = 1 if spring != "none" else 2  # type: ignore[index]
    state.plays_by_seat = plays
    stored = {"dealer": dealer, "bid": bid, "declared": list(declared), "baodao_sets": sets, "bombs": read_bombs,
              "spring": spring, "ending": ending, "winner": state.winner, "offender": state.offender, "fouls": read}
    return stored, engine.result(state)  # type: ignore[return-value]
