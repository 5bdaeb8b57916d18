"""An engine's `fielded` names every action type whose own fields its `normalize_fields` reads: the skeleton calls
the hook for those types only (issue 25 scope 4: the call on every action of every record checked), so a type
left out would have its fields dropped unchecked. For every game and every other type, the hook is shown to
read nothing: an action carrying every field any game knows, with good and bad values, leaves the stored form
as it was and is not refused."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games import GAMES, get_engine

# Every field some game's normalize_fields reads, with a value it takes and one it refuses.
FIELD_VALUES: list[dict[str, Any]] = [
    {"stage": "deal", "received": 3, "value": 2, "kind": "tanda", "forced": ["S3"], "note": "x", "cards": ["S3"]},
    {"stage": "later", "received": -1, "value": 0, "kind": "nothing", "forced": [], "note": 5, "cards": "S3"},
]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_types_outside_fielded_carry_no_fields_of_the_game(game: str):
    engine = get_engine(game)
    assert engine.fielded is not None, "each game says which of its types carry fields of its own"
    others = [kind for kind in engine.action_fields if kind not in engine.fielded]
    assert others, "some type of every game has no fields of its own"
    for kind in others:
        for fields in FIELD_VALUES:
            out = {"seat": 0, "type": kind}
            engine.normalize_fields(kind, {"seat": 0, "type": kind, **fields}, out)
            assert out == {"seat": 0, "type": kind}, (kind, fields)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_fielded_type_is_a_type_of_the_game(game: str):
    engine = get_engine(game)
    assert engine.fielded is not None and engine.fielded <= set(engine.action_fields)
