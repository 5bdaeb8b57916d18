"""Score slips score as the engines do (domain/records/slips.py): for random legal deals of every game, the slip a
table would write of the deal — only the facts that decide the score — gives the result the engine computed
from the deal's every action. Pure domain, no store: hypothesis over each game's random player."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.shengji.cards import POINTS
from domain.records.format import fold, parse_record
from domain.records.slips import score
from fixtures.random_play import daguai as daguai
from fixtures.random_play import doudizhu as doudizhu
from fixtures.random_play import sandayi as sandayi
from fixtures.random_play import shengji as shengji
from fixtures.random_play import wakeng as wakeng

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=25, deadline=None)


def fouls(state: Any, *fields: str) -> list[dict[str, Any]]:
    return [{k: f[k] for k in ("seat", "code", "note", *fields) if k in f} for f in state.fouls]


def doudizhu_slip(state: Any, actions: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    if state.redeal:
        return {"redeal": True, "fouls": fouls(state, "penalty")}
    rocket = any(a["type"] == "play" and sorted(a["cards"]) == ["BJ", "LJ"] for a in actions)
    reveal = max(state.reveals, key=lambda r: r["factor"], default=None)
    return {"landlord": state.landlord, "robs": state.robs, "bombs": state.bombs - int(rocket), "rocket": rocket,
            "reveal": None if reveal is None else {k: v for k, v in reveal.items() if k != "factor"},
            "spring": "spring" if result["spring"] else "anti_spring" if result["anti_spring"] else "none",
            "winner": "landlord" if result["landlord_won"] else "farmers", "out": state.winner,
            "fouls": fouls(state, "penalty")}


def daguai_slip(state: Any, actions: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    return {"finish_order": list(state.decided), "fouls": fouls(state)}


def wakeng_slip(state: Any, actions: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    return {"digger": state.digger, "bid": state.bid, "lanwa": state.lanwa, "shows": list(state.revealed),
            "doubles": list(state.doubled), "winner": state.winner, "fouls": fouls(state)}


def sandayi_slip(state: Any, actions: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    if state.ending == "void":
        return {"ending": "void", "offender": state.offender, "fouls": fouls(state)}
    plays = [p for played in (*state.rounds, state.current_round) for p in played if "pattern" in p]
    bombs = [{"seat": p["seat"], "king": True} if p["pattern"].kind == "king_bomb" else
             {"seat": p["seat"], "cards": p["pattern"].size} for p in plays
             if p["pattern"].kind in ("bomb", "king_bomb")]
    engine = sandayi.ENGINE
    spring = "spring" if engine._spring(state) else "anti_spring" if engine._anti_spring(state) else "none"
    facts: dict[str, Any] = {"dealer": state.dealer, "bid": state.bid, "declared": list(state.declared),
                             "bombs": bombs, "spring": spring, "ending": state.ending, "fouls": fouls(state)}
    if "baodao" in state.declared:
        facts["baodao_sets"] = state.baodao_count
    if state.ending == "out":
        facts["winner"] = state.winner
    if state.ending == "foul":
        facts["offender"] = state.offender
    return facts


def shengji_slip(state: Any, actions: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    if state.ended_by == "redeal":
        return {"redeal": True}
    attackers = 1 - state.dealer % 2
    facts: dict[str, Any] = {"dealer": state.dealer, "points": state.captured[attackers], "trump": state.trump,
                             "declarer": result["declarer"], "ended_by": state.ended_by,
                             "fouls": fouls(state, "penalty")}
    if state.ended_by in ("revoke", "miscount"):
        facts["offender"] = state.offender
    if state.ended_by != "play":
        facts["dealer_points"] = state.captured[1 - attackers]  # cut short: what the dealer's side had taken
    pairs = None
    if state.kitty_multiplier:  # 抠底: the factor back to the number of pairs it was worked out from
        factor = state.kitty_multiplier
        linear = state.options["sj.kittyMultiplier"] == "linear"
        pairs = (0 if factor == 2 else factor // 4) if linear else factor.bit_length() - 2
    facts["kitty"] = {"points": sum(POINTS[c] for c in state.buried), "pairs": pairs}
    facts["throws"] = [{"seat": p["seat"], "retracted": len(p["attempted"]) - len(p["played"])}
                       for p in state.penalties if p["reason"] == "failed_throw"]
    facts["penalties"] = [{"seat": p["seat"], "reason": p["reason"], "points": p["points"]}
                          for p in state.penalties if p["reason"] not in ("failed_throw", "foul")]
    return facts


def assert_slip_scores_as_the_deal(record: dict[str, Any], slip_of: Any, *, skip: tuple[str, ...] = ()) -> None:
    setup, actions, _ = parse_record(record)
    engine, state = fold(setup, actions)
    result = engine.result(state)
    facts = slip_of(state, actions, result)
    _, scored = score(setup, facts)
    assert {k: v for k, v in scored.items() if k not in skip} == {k: v for k, v in result.items() if k not in skip}, (
        facts)


@FEW
@given(SEEDS)
def test_a_doudizhu_slip_scores_as_its_deal(seed: int) -> None:
    assert_slip_scores_as_the_deal(doudizhu.random_record(random.Random(seed), foul_rate=0.05), doudizhu_slip)


@FEW
@given(SEEDS)
def test_a_daguai_slip_scores_as_its_deal(seed: int) -> None:
    assert_slip_scores_as_the_deal(daguai.random_record(random.Random(seed), foul_rate=0.02), daguai_slip)


@FEW
@given(SEEDS)
def test_a_wakeng_slip_scores_as_its_deal(seed: int) -> None:
    assert_slip_scores_as_the_deal(wakeng.random_record(random.Random(seed)), wakeng_slip)


@FEW
@given(SEEDS, st.sampled_from([{}, {"sdy.bombMultiplier": "tiered", "sdy.spring": True}]))
def test_a_sandayi_slip_scores_as_its_deal(seed: int, options: dict[str, Any]) -> None:
    assert_slip_scores_as_the_deal(sandayi.random_record(random.Random(seed), options, foul_rate=0.05), sandayi_slip)


@FEW
@given(SEEDS, st.sampled_from([{}, {"sj.preset": "s004"}, {"sj.illegalPlay": "adjudicate"}]))
def test_a_shengji_slip_scores_as_its_deal(seed: int, options: dict[str, Any]) -> None:
    # The penalties' and irregularities' own lists name actions (`at`, the cards tried); a slip gives their
    # effect, which `points` carries.
    assert_slip_scores_as_the_deal(shengji.random_record(random.Random(seed), options, foul_rate=0.02),
                                   shengji_slip, skip=("penalties", "irregularities"))
