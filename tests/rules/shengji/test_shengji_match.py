"""The 升级 match layer (docs/rules/shengji.md §3.10–3.12): contexts chained from real deal results and the time cap."""

from __future__ import annotations

import random

from domain.games.shengji.engine import ShengjiEngine
from domain.games.shengji.table import first_context, next_context, time_cap_outcome, totals
from domain.records.format import fold, parse_record
from fixtures.random_play.shengji import random_record

ENGINE = ShengjiEngine()


def _play_match(options: dict, deals: int, seed: int) -> tuple[dict, list[dict]]:
    rng = random.Random(seed)
    context, results = first_context(), []
    for _ in range(deals):
        record = random_record(rng, options, context=context, irregularity_rate=0.0)
        setup, actions, _ = parse_record(record)
        engine, state = fold(setup, actions)
        result = engine.result(state)
        results.append(result)
        context = next_context(context, result)
        if result.get("match_winner") is not None:
            break
    return context, results


def test_contexts_chain_levels_dealers_and_deal_numbers():
    context, results = _play_match({"sj.preset": "s004"}, 12, 3)
    played = [r for r in results if not r.get("redeal")]
    assert played and played[0]["deal_number"] == 1
    for before, after in zip(played, played[1:], strict=False):
        assert after["levels"] == before["new_levels"] and after["dealer"] == before["next_dealer"]
        assert after["deal_number"] == before["deal_number"] + 1
    assert context["levels"] == played[-1]["new_levels"]


def test_a_redeal_keeps_the_context():
    context = first_context()
    assert next_context(context, {"redeal": True, "scores": [0, 0, 0, 0]}) == context


def test_s001_match_ends_when_a_team_reaches_level_five():
    context, results = _play_match({"sj.preset": "s001"}, 60, 8)
    winner = results[-1]["match_winner"]
    assert winner is not None and context["levels"][winner] >= 5


def test_time_cap_outcomes():
    s004 = ENGINE.resolve_options({"sj.preset": "s004"})
    s001 = ENGINE.resolve_options({"sj.preset": "s001"})
    deal = {"big_points": [2, 0], "small_points": [0, 40]}
    assert time_cap_outcome([5, 4], totals([]), s004) == {"winner": 0, "by": "level"}
    assert time_cap_outcome([5, 5], totals([deal]), s004) == {"winner": 0, "by": "big_points"}
    even = totals([deal, {"big_points": [0, 2], "small_points": [0, 0]}, {"redeal": True, "scores": [0] * 4}])
    assert even == {"big_points": [2, 2], "small_points": [0, 40]}
    assert time_cap_outcome([5, 5], even, s004) == {"winner": 1, "by": "small_points"}
    assert time_cap_outcome([5, 5], totals([]), s004) == {"winner": None, "by": "tie"}
    assert time_cap_outcome([5, 5], even, s001) == {"winner": None, "by": "extra_deal", "context": first_context()}
