"""A record's fold (domain/records/format.py `fold`) runs its actions straight through the engine and takes the
retraction fold (domain/records/retraction.py `fold_entry`) only from a record's first retraction on: the same
state, the same refusal at the same index as folding every entry through `fold_entry`."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games import GAMES, get_engine
from domain.kernel.engine import Action
from domain.kernel.errors import IllegalAction
from domain.records.format import ActionRejected, fold, parse_record
from domain.records.retraction import RETRACT, fold_entry, last_standing

SETUP = parse_record(EXAMPLE_RECORD)[0]
ACTIONS: list[Action] = EXAMPLE_RECORD["actions"]


def folded_entry_by_entry(entries: list[Any]) -> tuple[str, Any]:
    """What folding every entry through the retraction fold gives: ("ok", (status, result, actions applied)) or
    ("refused", (index, code))."""
    engine = get_engine(SETUP.game)
    state = engine.new_deal(SETUP)
    folded: list[Action] = []
    for index, entry in enumerate(entries):
        try:
            state = fold_entry(engine, SETUP, state, folded, copy.deepcopy(entry))
        except IllegalAction as error:
            return "refused", (index, error.code)
    return "ok", (engine.status(state), engine.result(state), state.actions)


def folded(entries: list[Any]) -> tuple[str, Any]:
    try:
        engine, state = fold(SETUP, copy.deepcopy(entries))
    except ActionRejected as error:
        return "refused", (error.index, error.code)
    return "ok", (engine.status(state), engine.result(state), state.actions)


def test_no_engine_knows_a_retract_action_so_each_refuses_one_before_touching_its_state():
    # The fold relies on it: the engine's refusal is where a record leaves the straight path.
    for game in GAMES:
        assert RETRACT not in get_engine(game).action_fields, game
    engine = get_engine(SETUP.game)
    state = engine.new_deal(SETUP)
    engine.apply(state, ACTIONS[0])
    before = (engine.status(state), state.actions)
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, {"seat": 0, "type": RETRACT, "at": 0, "reason": "x"})
    assert refused.value.code == "unknown_action" and (engine.status(state), state.actions) == before


WRONG_PLAY = {"seat": 2, "type": "play", "cards": ["S3"]}


@pytest.mark.parametrize(("entries", "expected"), [
    (ACTIONS, "ok"),
    ([*ACTIONS[:3], WRONG_PLAY, {"type": RETRACT, "at": 3, "reason": "误点"}, *ACTIONS[3:]], "ok"),
    ([{"type": RETRACT, "at": 0, "reason": "x"}, *ACTIONS], ("refused", (0, "nothing_to_retract"))),
    ([*ACTIONS[:3], {"type": RETRACT, "at": 1, "reason": "x"}], ("refused", (3, "not_last_action"))),
    ([*ACTIONS[:3], {"type": RETRACT, "at": 2, "reason": " "}], ("refused", (3, "bad_reason"))),
    ([*ACTIONS[:3], {"type": RETRACT, "at": 2, "reason": "x"}, WRONG_PLAY], ("refused", (4, "not_your_turn"))),
    ([*ACTIONS, {"type": RETRACT, "at": len(ACTIONS) - 1, "reason": "晚了"}], ("refused", (33, "deal_over"))),
    ([*ACTIONS[:5], {"seat": 9, "type": "pass"}], ("refused", (5, "bad_seat"))),
])
def test_the_fold_gives_what_the_retraction_fold_gives_entry_by_entry(entries: list[Any], expected: Any):
    outcome = folded(entries)
    assert outcome == folded_entry_by_entry(entries)
    if expected == "ok":
        assert outcome[0] == "ok" and outcome[1][1] is not None  # the deal ends, as if the mistake never happened
    else:
        assert outcome == expected


RETRACTIONS = st.lists(st.tuples(st.integers(0, len(ACTIONS)), st.sampled_from(["last", "first", "next"]),
                                  st.booleans()), max_size=6)


def with_retractions(retractions: list[tuple[int, str, bool]]) -> list[Any]:
    """The example's actions with a retraction put in before action `i` for each (i, which, again) — of the last
    standing action, the first or one that is not there — and, when `again`, the action taken back once more."""
    entries: list[Any] = []
    for position, action in enumerate([*ACTIONS, None]):
        for which, again in [(which, again) for before, which, again in retractions if before == position]:
            last = last_standing(entries)
            at = {"last": last if last is not None else 0, "first": 0, "next": len(entries)}[which]
            entries.append({"type": RETRACT, "at": at, "reason": "r"})
            if again and at == last:
                entries.append(copy.deepcopy(entries[at]))
        if action is not None:
            entries.append(action)
    return entries


@settings(max_examples=150, deadline=None)
@given(RETRACTIONS)
def test_any_record_with_retractions_folds_as_entry_by_entry(retractions: list[tuple[int, str, bool]]):
    entries = with_retractions(retractions)
    assert folded(entries) == folded_entry_by_entry(entries)
