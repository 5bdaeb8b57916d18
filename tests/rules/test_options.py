"""Ruleset options of every game take JSON's own types: a switch is `true` or `false`, a count a whole number.
A record or a tournament saying "yes", "on", "6" or 6.0 is refused with `bad_options`, not guessed at."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games import get_engine
from domain.kernel.errors import IllegalAction

CASES = [
    ("doudizhu", "ddz.chipMultiplier", "yes", False),
    ("shengji", "sj.revokeEndsMatch", "true", True),
    ("sandayi", "sdy.spring", "on", True),
    ("sandayi", "sdy.earlyRoundDeals", 8.0, 4),
    ("wakeng", "wk.quadIsBomb", "1", True),
    ("wakeng", "wk.tableDeals", "6", 3),
    ("wakeng", "wk.showFactor", 2.5, 3),
    ("daguai", "dg.tableDeals", "6", 6),
]


@pytest.mark.parametrize(("game", "option", "guess", "meant"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_an_option_in_the_wrong_json_type_is_refused_and_the_right_one_taken(game: str, option: str, guess: Any,
                                                                              meant: Any):
    engine = get_engine(game)
    with pytest.raises(IllegalAction) as refused:
        engine.resolve_options({option: guess})
    assert refused.value.code == "bad_options" and option in str(refused.value.details)
    assert engine.resolve_options({option: meant})[option] == meant


@pytest.mark.parametrize(("game", "option", "taken", "look_alike"), [
    ("doudizhu", "ddz.chipMultiplier", True, 1),
    ("wakeng", "wk.quadIsBomb", False, 0),
    ("sandayi", "sdy.earlyRoundDeals", 8, 8.0),
    ("wakeng", "wk.tableDeals", 3, 3.0),
], ids=["switch-1", "switch-0", "count-8.0", "count-3.0"])
def test_a_number_equal_in_python_is_not_the_option_it_equals(game: str, option: str, taken: Any, look_alike: Any):
    """1 == True and 8 == 8.0 in Python: neither a switch nor a count may take the other's look-alike, even
    right after the real one was resolved (resolutions are cached by the options' content)."""
    engine = get_engine(game)
    assert engine.resolve_options({option: taken})[option] == taken
    with pytest.raises(IllegalAction) as refused:
        engine.resolve_options({option: look_alike})
    assert refused.value.code == "bad_options"
