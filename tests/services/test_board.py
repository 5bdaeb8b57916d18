"""The board of variations' service helpers (domain/services/analysis.py; docs/analysis.md "The board of
variations"): the plays listed at a node are the analysis's, in every game with an analysis; a pass nobody can
avoid is played by itself and nothing else is; a hand too large to list quickly is left to the cards tapped."""

from __future__ import annotations

import copy
import random

import pytest

from domain.records.format import fold
from domain.services.analysis import (
    analyse_state,
    board_state,
    play_forced,
    plays,
)
from domain.solver.search import Budget
from fixtures.positions import cut_endgame, positions_in_play


def key(action: dict) -> tuple:
    return action["seat"], action["type"], tuple(sorted(action.get("cards", ())))


@pytest.mark.parametrize("game", ["doudizhu", "sandayi", "wakeng", "daguai"])
def test_the_plays_listed_are_those_the_analysis_settles_or_leaves_unproven(game):
    engine, state = cut_endgame(game, random.Random(3), 5)
    listed = plays(engine, state)
    answer = analyse_state(engine, state, Budget(limit_ms=20_000))
    assert listed is not None and not answer.get("too_large")
    named = [m["action"] for m in answer["moves"]] + answer.get("unproven", [])
    assert sorted(map(key, listed)) == sorted(map(key, named))


def test_only_a_pass_that_is_the_seats_only_play_is_played_by_itself():
    for setup, actions, _ in positions_in_play("doudizhu", random.Random(11)):
        engine, state = fold(setup, actions)
        offered = plays(engine, state)
        forced = play_forced(engine, state)
        only_pass = offered is not None and [a["type"] for a in offered] == ["pass"]
        if only_pass:
            assert forced and forced[0] == offered[0]
        else:
            assert forced == []
        for action in forced:
            assert action["type"] == "pass"
        after = plays(engine, state)
        assert after is None or [a["type"] for a in after] != ["pass"]  # the next seat has a choice, or it ended


def test_a_two_deck_hand_of_33_cards_lists_its_plays_with_the_pad_choices_beside_them():
    """Plays are listed by pattern (domain/solver/candidates.py), so the largest hand of all — 三打一's 33
    cards of two decks, millions of sub-multisets — lists its plays too, each one the engine's legal play."""
    setup, actions, _ = next(positions_in_play("sandayi", random.Random(7)))
    engine, state = fold(setup, actions)
    assert len(state.hands[state.to_act]) >= 25
    node = board_state(engine, state)
    assert node["plays"], "a large hand's plays listed"
    for play in node["plays"][:50]:
        engine.apply(copy.deepcopy(state), play)  # each listed play is legal where it was listed
    assert any(choice["action"]["type"] == "play" and choice["cards"] for choice in node["choices"])
