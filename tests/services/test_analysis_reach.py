"""The analysis beyond its budget (docs/analysis.md "What was proven"): an answer shows a verdict only once it is
proven, and every play it marks won or lost is what the full search finds. Budgets here are node limits (the
same on every machine), small enough that the search stops part-way on most positions."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from domain.games import get_engine
from domain.services.analysis import analyse_state
from domain.solver.search import Budget
from fixtures.positions import positions_in_play, real_endgame

RANKS_ONLY = ["doudizhu", "sandayi", "wakeng"]


def _nodes(limit: int) -> Budget:
    return Budget(limit_ms=600_000, node_limit=limit)


def _key(action: dict) -> tuple:
    return action["type"], tuple(action.get("cards", ()))


def _consistent(answer: dict) -> None:
    """A verdict agrees with the plays it lists: a win has a winning play among them; a loss lists every play
    (none left unproven) and none wins; no verdict (too large) lists only losing plays (a winning one would be
    the verdict)."""
    wins = [move["wins"] for move in answer.get("moves", [])]
    if answer.get("too_large"):
        assert not any(wins)
    elif answer["side_wins"]:
        assert any(wins)
    else:
        assert not any(wins) and not answer.get("unproven")


def test_what_a_cut_short_answer_shows_is_what_the_full_search_finds() -> None:
    seen = {"too_large": 0}

    @settings(max_examples=30, deadline=None, derandomize=True)
    @given(st.sampled_from(RANKS_ONLY), st.integers(min_value=0, max_value=2**32),
           st.sampled_from([1_000, 5_000, 20_000]))
    @example("doudizhu", 7, 20_000)  # positions that these budgets cut short with plays proven
    @example("sandayi", 3, 5_000)
    def check(game: str, seed: int, limit: int) -> None:
        found = real_endgame(game, random.Random(seed), 8)
        assert found is not None
        engine, state = get_engine(game), found[2]
        full = analyse_state(engine, copy.deepcopy(state), _nodes(5_000_000))
        short = analyse_state(engine, copy.deepcopy(state), _nodes(limit))
        assert "side_wins" in full and not full.get("unproven")
        values = {_key(move["action"]): move["wins"] for move in full["moves"]}
        _consistent(short)
        for move in short.get("moves", []):
            assert values[_key(move["action"])] == move["wins"]
        if "side_wins" in short:
            assert short["side_wins"] == full["side_wins"]
            if short["line"]:
                assert values[_key(short["line"][0])] == full["side_wins"]
            assert short.get("line_complete", True) is False or short["line"]
        listed = [_key(m["action"]) for m in short.get("moves", [])] + [_key(a) for a in short.get("unproven", [])]
        if "moves" in short:
            assert sorted(listed) == sorted(values)
        seen["too_large"] += bool(short.get("too_large") and short.get("moves"))

    check()
    assert seen["too_large"]  # the budgets do cut searches short after proving some plays


@pytest.mark.parametrize("game", RANKS_ONLY)
def test_verdicts_on_whole_deal_positions_agree_with_their_plays(game: str) -> None:
    """Real positions of random deals, early and late: whatever the search proves within its budget, a win has a
    winning play, a loss has none, and the line's first play keeps the verdict."""
    engine = get_engine(game)
    rng = random.Random(24)
    for _ in range(3):
        states = [state for _, _, state in positions_in_play(game, rng)]
        for state in (states[len(states) // 3], states[2 * len(states) // 3]):
            answer = analyse_state(engine, copy.deepcopy(state), _nodes(20_000))
            _consistent(answer)
            if "side_wins" in answer:
                first = next((m for m in answer["moves"] if _key(m["action"]) == _key(answer["line"][0])), None)
                assert first is None or first["wins"] == answer["side_wins"]



def test_a_whole_deal_verdict_proven_before_every_play_is_settled_answers_partial() -> None:
    """A 斗地主 position of 35 cards (a random step of a random deal): 50,000 nodes prove the side to act wins,
    not what each of its other plays does — the answer says so."""
    rng = random.Random(1)
    states = [state for _, _, state in positions_in_play("doudizhu", rng)]
    state = rng.choice(states)
    assert sum(len(hand) for hand in state.hands) == 35
    answer = analyse_state(get_engine("doudizhu"), copy.deepcopy(state), _nodes(50_000))
    assert answer["partial"] is True and answer["side_wins"] is True and answer["unproven"]
    _consistent(answer)
    assert answer["line"] and answer["line"][0]["seat"] == state.to_act


def test_a_shengji_deal_at_its_first_trick_answers_too_large_not_an_error() -> None:
    """升级 answers only endgames (docs/analysis.md): at the first trick the query says too large."""
    _, _, state = next(positions_in_play("shengji", random.Random(1)))
    answer = analyse_state(get_engine("shengji"), state, _nodes(1_000))
    assert answer == {"too_large": True, "nodes": 0, "ms": 0.0}
