"""The pad's choices (domain/services/pad.py) against the random players of every game: whatever a random legal
deal does
next — a bid, a declaration, 明牌, a double, a pass, a timeout, a foul, a play, a bury — the pad offers it at that
moment, for that seat, with those cards among the usable ones; and every choice it offers without cards or typed
fields is one the engine accepts. So a recorder can tap any legal deal, and nothing the rules forbid is offered.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games import get_engine
from domain.records.format import parse_record
from domain.services.pad import choices, dry_run
from fixtures.random_play.daguai import random_record as daguai_record
from fixtures.random_play.doudizhu import random_record as doudizhu_record
from fixtures.random_play.sandayi import random_record as sandayi_record
from fixtures.random_play.shengji import random_record as shengji_record
from fixtures.random_play.wakeng import random_record as wakeng_record

RECORDS = {  # a random legal deal of each game, with fouls and timeouts
    "doudizhu": lambda rng: doudizhu_record(rng, foul_rate=0.02, timeout_rate=0.03, reveal_rate=0.4),
    "shengji": lambda rng: shengji_record(rng, declare_rate=0.1, foul_rate=0.02, timeout_rate=0.03),
    "shengji adjudicate": lambda rng: shengji_record(rng, {"sj.illegalPlay": "adjudicate"}, foul_rate=0.02,
                                                     timeout_rate=0.03, irregularity_rate=0.1),
    "sandayi": lambda rng: sandayi_record(rng, foul_rate=0.02, timeout_rate=0.03),
    "wakeng": lambda rng: wakeng_record(rng, foul_rate=0.02, timeout_rate=0.03),
    "daguai": lambda rng: daguai_record(rng, foul_rate=0.02, timeout_rate=0.03),
}
TYPED = ("code", "note", "penalty", "received", "forced")


def offered(engine: Any, state: Any, action: dict[str, Any]) -> bool:
    template = {k: v for k, v in action.items() if k not in ("seat", "cards", *TYPED)}
    for choice in choices(engine, state):
        if choice["seat"] == action["seat"] and choice["action"] == template:
            return not action.get("cards") or set(action["cards"]) <= set(choice["cards"] or [])
    return False


@pytest.mark.parametrize("game", sorted(RECORDS))
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_action_of_a_random_legal_deal_is_offered_and_every_offer_is_legal(game: str, seed: int) -> None:
    engine = get_engine(game.split()[0])
    record = RECORDS[game](random.Random(seed))
    setup, actions, _ = parse_record(record)
    state = engine.new_deal(setup)
    for index, action in enumerate(actions):
        assert offered(engine, state, action), (game, seed, index, action)
        if index % 7 == 0:  # the other way round, now and then: what is offered without typing is legal
            for choice in choices(engine, state):
                if choice["cards"] is None and not choice["typed"] and choice["action"]["type"] != "foul":
                    trial = dry_run(engine, state, {"seat": choice["seat"], **choice["action"]})
                    assert trial["legal"], (game, seed, index, choice, trial)
        engine.apply(state, action)
    assert choices(engine, state) and all(c["action"]["type"] == "foul" for c in choices(engine, state))
