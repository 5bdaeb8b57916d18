"""Property tests: random legal 升级 deals (docs/rules/shengji.md) keep every invariant an appeals committee relies on.

Follow obligations are checked against an independent brute-force oracle: every way of choosing the led-suit
cards is scored and the play must be among the best (§3.7, §3.14a.4).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import comb
from typing import Any

from game_support import checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_shengji_scoring import doc_big_points, doc_level_change  # the rules tables, not the engine's functions

from domain.games.shengji.cards import (
    POINTS,
    Shape,
    decompose,
    follow_problem,
    order_for,
    shape_of,
)
from domain.games.shengji.state import ShengjiState
from domain.kernel.cards import full_deck
from domain.kernel.engine import Viewpoint
from domain.records.format import fold, parse_record
from fixtures.random_play.shengji import random_record

OPTIONS = st.fixed_dictionaries(
    {
        "sj.preset": st.sampled_from(["s001", "s004"]),
        "sj.illegalPlay": st.sampled_from(["reject", "adjudicate"]),
        "sj.preferShorterTractor": st.booleans(),
        "sj.kittyBasis": st.sampled_from(["winnerCards", "leadFormat"]),
        "sj.kittyMultiplier": st.sampled_from(["doubling", "linear"]),
        "sj.throwPenalty": st.sampled_from(["perRetractedCard", "flat10", "none"]),
        "sj.mixedJokerNoTrump": st.booleans(),
        "sj.bigJokerPairOvercall": st.booleans(),
    }
)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DECK = Counter(full_deck(2, True))


def _replay(record: dict[str, Any]):
    setup, actions, _ = parse_record(record)
    engine = fold(setup, [])[0]
    return engine, engine.new_deal(setup), actions


def _played(state: ShengjiState) -> list[str]:
    cards = [c for trick in state.tricks for play in trick["plays"] for c in play["cards"]]
    return cards + [c for play in state.trick for c in play["cards"]]


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_deals_are_accepted_with_the_same_result(seed, options):
    _, result = checked(random_record(random.Random(seed), options))
    if result.get("redeal"):
        assert result["scores"] == [0, 0, 0, 0]
        return
    points = result["attacker_points"]
    if result["ended_by"] == "play":
        assert points == max(0, result["points"]["cards"] + result["points"]["kitty_bonus"]
                             + result["points"]["penalties"])
        takeover, steps = doc_level_change(points, options["sj.preset"])
        assert (result["takeover"], result["level_change"]["steps"]) == (takeover, steps)
        assert sorted(result["big_points"]) == sorted(doc_big_points(points))
    gaining = result["level_change"]["team"]
    assert result["scores"] == [result["level_change"]["steps"] if s % 2 == gaining else 0 for s in range(4)]
    assert result["next_dealer"] == (result["dealer"] + (1 if result["takeover"] else 2)) % 4


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_cards_are_conserved_and_all_200_points_are_accounted_for(seed, options):
    engine, state, actions = _replay(random_record(random.Random(seed), options))
    for action in actions:
        engine.apply(state, action)
        cards = [c for hand in state.hands for c in hand] + _played(state) + state.buried
        if state.phase in ("dealing", "declaring") or state.ended_by == "redeal":
            cards += state.kitty
        assert Counter(cards) == DECK
    if state.ended_by == "play":
        assert sum(state.captured) + sum(POINTS[c] for c in state.buried) == 200
        assert sum(POINTS[c] for c in _played(state)) == sum(state.captured)


def _pairs(cards: list[str], value: dict[str, int]) -> list[int]:
    counts = Counter(cards)
    return [value[c] for c, n in counts.items() if n == 2]


def _oracle_tractors(pair_values: list[int], lengths: tuple[int, ...], shorter: bool) -> int:
    """Most matched lead-tractor length by brute force over sets of pairs (independent of the engine's search)."""
    if not lengths:
        return 0
    best = _oracle_tractors(pair_values, lengths[1:], shorter)
    sizes = range(2, lengths[0] + 1) if shorter else [lengths[0]]
    for size in sizes:
        for chosen in itertools.combinations(range(len(pair_values)), size):
            values = sorted(pair_values[i] for i in chosen)
            if all(b == a + 1 for a, b in itertools.pairwise(values)):
                rest = [v for i, v in enumerate(pair_values) if i not in chosen]
                best = max(best, size + _oracle_tractors(rest, lengths[1:], shorter))
    return best


def _oracle_score(cards: list[str], shape: Shape, value: dict[str, int], shorter: bool) -> tuple[int, int]:
    pairs = _pairs(cards, value)
    return _oracle_tractors(pairs, shape.tractors, shorter), min(len(pairs), shape.pairs)


def _check_follow(state: ShengjiState, seat: int, cards: list[str]) -> None:
    shape, order = state.shape, state.order
    assert shape is not None and order is not None
    holding = [c for c in state.hands[seat] if order.suit[c] == shape.suit]
    played = [c for c in cards if order.suit[c] == shape.suit]
    assert len(cards) == shape.size
    assert len(played) == min(shape.size, len(holding)), "suit obligation"
    if len(holding) <= shape.size or not shape.pairs or comb(len(holding), shape.size) > 3000:
        return
    shorter = state.options["sj.preferShorterTractor"]
    best = max(_oracle_score(list(c), shape, order.value, shorter)
               for c in itertools.combinations(holding, shape.size))
    assert _oracle_score(played, shape, order.value, shorter) == best, "pair/tractor obligation"


@SETTINGS
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_every_follow_obeys_the_obligations(seed, options):
    engine, state, actions = _replay(random_record(random.Random(seed), options))
    for action in actions:
        if action["type"] == "play" and state.trick:
            _check_follow(state, action["seat"], action["cards"])
        engine.apply(state, action)


@SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.floats(0, 1), options=OPTIONS)
def test_folding_a_prefix_twice_gives_identical_views(seed, cut, options):
    record = random_record(random.Random(seed), options)
    setup, actions, _ = parse_record(record)
    k = int(cut * len(actions))
    engine, once = fold(setup, actions[:k])
    _, again = fold(setup, actions[:k])
    for viewpoint in (Viewpoint("referee"), Viewpoint("public"), *(Viewpoint("seat", s) for s in range(4))):
        assert engine.view(once, viewpoint) == engine.view(again, viewpoint)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_views_show_each_seat_its_own_hand_only(seed):
    engine, state, actions = _replay(random_record(random.Random(seed)))
    for action in actions:
        engine.apply(state, action)
        for seat in range(4):
            seen = engine.view(state, Viewpoint("seat", seat))
            assert [("hand" in s) for s in seen["seats"]] == [s == seat for s in range(4)]
            if seen["kitty"] is not None and state.phase != "finished":
                assert seat == state.dealer and state.phase in ("burying", "playing")
        public = engine.view(state, Viewpoint("public"))
        assert all("hand" not in s for s in public["seats"])


@settings(max_examples=400, deadline=None)
@given(data=st.data(), level=st.integers(2, 14), trump=st.sampled_from(["S", "H", "NT"]),
       suit=st.sampled_from(["S", "H", "C", "D"]), shorter=st.booleans())
def test_follow_obligation_agrees_with_the_oracle_on_dense_holdings(data, level, trump, suit, shorter):
    """Pair- and tractor-rich leads and holdings, drawn directly, so that every shape obligation gets exercised."""
    order = order_for(level, trump)
    target = order.suit[suit + ("3" if level == 2 else "2")]  # the suit's plain cards: that suit or the trumps
    pool = [c for c in full_deck(2, True) if order.suit[c] == target]
    pool.sort(key=order.sort_key)
    codes = sorted(set(pool), key=order.sort_key)  # in value order, so neighbours are mostly tractor neighbours

    def runs(count: int, longest: int) -> list[str]:
        chosen: list[str] = []
        for _ in range(count):
            start = data.draw(st.integers(0, len(codes) - 1))
            chosen += [c for c in codes[start: start + data.draw(st.integers(1, longest))] if c not in chosen]
        return chosen

    lead = [c for code in runs(data.draw(st.integers(1, 2)), 3) for c in (code, code)]
    rest = list(pool)
    for code in lead:
        rest.remove(code)
    holding = []
    for code in runs(data.draw(st.integers(1, 4)), 4):
        holding += [code] * min(rest.count(code), data.draw(st.sampled_from([1, 2, 2])))
    size = len(lead)
    if len(holding) <= size:
        return
    shape = shape_of(decompose(lead, order.value), target)
    if comb(len(holding), size) > 600:
        return
    plays = [list(c) for c in itertools.combinations(holding, size)]
    scores = [_oracle_score(play, shape, order.value, shorter) for play in plays]
    best = max(scores)
    for play, score in zip(plays, scores, strict=True):  # every possible follow, not a sample
        assert (follow_problem(holding, play, shape, order.value, shorter) is None) == (score == best), play
