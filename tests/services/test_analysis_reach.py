"""The analysis beyond its budget (docs/analysis.md "What was proven"): an answer shows a verdict only once it is
proven, and every play it marks won or lost is what the full search finds. Budgets here are node limits (the
same on every machine), small enough that the search stops part-way on most positions."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
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


@pytest.mark.parametrize("game", RANKS_ONLY)
def test_what_a_cut_short_answer_shows_is_what_the_full_search_finds(game: str) -> None:
    seen = {"partial": 0, "too_large": 0}

    @settings(max_examples=12, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32), st.sampled_from([40, 150, 600]))
    def check(seed: int, limit: int) -> None:
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
            assert short["line"][0] == full["line"][0] or values[_key(short["line"][0])] == full["side_wins"]
        listed = [_key(m["action"]) for m in short.get("moves", [])] + [_key(a) for a in short.get("unproven", [])]
        if "moves" in short:
            assert sorted(listed) == sorted(values)
        seen["partial"] += bool(short.get("partial"))
        seen["too_large"] += bool(short.get("too_large") and short.get("moves"))

    check()
    assert seen["partial"] or seen["too_large"]  # the budgets do cut searches short


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

