"""Property tests: random legal 斗地主 deals (docs/rules/doudizhu.md) keep every invariant an appeals committee
relies on."""

from __future__ import annotations

import random
from collections import Counter

from game_support import checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_doudizhu_scoring import doc_scores  # the rules tables, not the engine's multipliers

from domain.kernel.cards import full_deck
from domain.kernel.engine import Viewpoint
from domain.records.format import fold, parse_record
from fixtures.random_play.doudizhu import random_record

OPTIONS = st.fixed_dictionaries(
    {
        "ddz.payout": st.sampled_from(["literal31", "zeroSum21"]),
        "ddz.chipMultiplier": st.booleans(),
        "ddz.bombSpringMultipliers": st.booleans(),
    }
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_deals_are_accepted_and_score_by_the_payout_option(seed, options):
    record = random_record(random.Random(seed), options)
    _, result = checked(record)
    if result.get("redeal"):
        assert result["scores"] == result["penalties"]
        return
    if not any(action["type"] == "timeout" for action in record["actions"]):  # a timeout's play is the engine's
        assert result["multipliers"]["total"] == doc_scores(record)["total"]
    m = result["multipliers"]["total"] if options["ddz.chipMultiplier"] else 1
    share = 3 if options["ddz.payout"] == "literal31" else 2
    sign = 1 if result["landlord_won"] else -1
    base = [sign * share * m if s == result["landlord"] else -sign * m for s in range(3)]
    assert result["scores"] == [b + p for b, p in zip(base, result["penalties"], strict=True)]
    if options["ddz.payout"] == "zeroSum21":
        assert sum(base) == 0
    else:
        assert sum(base) == sign * m  # literal31 drifts by ±M per deal (§2.5)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_cards_are_conserved_and_views_hide_nothing_they_should_show(seed):
    record = random_record(random.Random(seed))
    setup, actions, _ = parse_record(record)
    engine = fold(setup, [])[0]
    state = engine.new_deal(setup)
    deck = Counter(full_deck(1, True))
    for action in actions:
        engine.apply(state, action)
        played = [c for seat in state.played for c in seat]
        in_hands = [c for hand in state.hands for c in hand]
        kitty = [] if state.landlord is not None else state.kitty
        assert Counter(played + in_hands + kitty) == deck
        referee = engine.view(state, Viewpoint("referee"))
        assert sum(len(s["hand"]) for s in referee["seats"]) + sum(len(s["played"]) for s in referee["seats"]) \
            == 54 - len(kitty)
        for seat in range(3):
            seen = engine.view(state, Viewpoint("seat", seat))
            for other in seen["seats"]:
                assert ("hand" in other) == (other["seat"] == seat or state.exposed[other["seat"]])


@SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_replaying_a_prefix_reproduces_the_state(seed, cut):
    record = random_record(random.Random(seed))
    setup, actions, _ = parse_record(record)
    k = int(cut * len(actions))
    engine, incremental = fold(setup, actions[:k])
    _, again = fold(setup, actions[:k])
    for viewpoint in (Viewpoint("referee"), Viewpoint("public"), Viewpoint("seat", 0)):
        assert engine.view(incremental, viewpoint) == engine.view(again, viewpoint)
    assert engine.status(incremental)["finished"] == (k == len(actions))
