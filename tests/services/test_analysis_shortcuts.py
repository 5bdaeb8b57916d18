"""The solver's shortcuts for speed change no answer (docs/analysis.md "How it searches"): a hand's leads read off
a larger hand's are exactly those its sub-multisets parse, in the same order; the sub-multiset check they use is
exact; the search with the ranks-only adapter's steps worked in (RankGame.decide) visits the nodes the generic
AND/OR search visits and gives every move the same value (on large hands, where it tries plays in its own order,
the same values and line); the line taken without re-solving a losing side's
moves is the line the full walk takes. Positions come from random legal deals (fixtures/positions.py)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.daguai import patterns as daguai_patterns
from domain.games.daguai.analysis import DaguaiGame
from domain.services.analysis import position
from domain.solver import search
from domain.solver.packed import _size, _within, forget_shared, pack, packed_submultisets, unpack
from domain.solver.search import Budget, Solver
from domain.solver.shedding import RankGame
from fixtures.positions import cut_endgame

LISTED_UP_TO = 6  # cards in a hand up to which the node-for-node check keeps the listed order (`reordered_from`)

RANKS_ONLY = ("doudizhu", "sandayi", "wakeng")


def _big() -> Budget:
    return Budget(limit_ms=30_000, node_limit=5_000_000)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=15))
def test_within_is_the_sub_multiset_check(pairs: list[tuple[int, int]]) -> None:
    part, hand = pack(tuple(p for p, _ in pairs)), pack(tuple(h for _, h in pairs))
    assert _within(part, hand) == all(p <= h for p, h in pairs)
    assert _within(min(part, hand), min(part, hand)) and _within(0, hand)


def _parsed(game: RankGame, hand: int, last, bombs: bool) -> list:
    """The plays of `hand` as every sub-multiset parses (the reference the lead lists stand for)."""
    found = []
    for play in packed_submultisets(hand, game.ranks):
        entry = game._lead(play) if last is None else game._answer(play, last)
        if entry is not None and not (entry[1] and not bombs):
            found.append((play, entry[0], entry[1]))
    found.sort(key=game._order_of(hand))
    return found


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_leads_read_off_a_larger_hand_are_the_plays_its_sub_multisets_parse_in_the_same_order(game_code: str) -> None:
    derived = 0

    @settings(max_examples=20, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        nonlocal derived
        rng = random.Random(seed)
        forget_shared()  # no list left from another query: the smaller hands' lists are read off the root's
        engine, state = cut_endgame(game_code, rng, 8)
        pos = position(engine, state)
        game = pos.game
        last = pos.root.last
        for hand in (h for h in pos.root.hands if h):
            smaller = pack(tuple(rng.randint(0, c) for c in unpack(hand, game.ranks)))
            if not smaller:
                continue
            game._leads(hand, _big())
            derived += smaller != hand
            for bombs in (True, False):
                assert game.plays(smaller, None, bombs, _big()) == _parsed(game, smaller, None, bombs)
                if last is not None:
                    assert game.plays(smaller, last, bombs, _big()) == _parsed(game, smaller, last, bombs)

    check()
    assert derived >= 20


def _generic(pos) -> search.Analysis:
    """search.analyse with the generic AND/OR search (`Solver._decide` without the adapter's `decide`)."""
    original = Solver.__init__

    def without_inlined(self, game, budget):
        original(self, game, budget)
        self.inlined = None

    Solver.__init__ = without_inlined  # type: ignore[method-assign]
    try:
        return search.analyse(pos.game, pos.root, _big())
    finally:
        Solver.__init__ = original  # type: ignore[method-assign]


def _full_walk_line(game, pos, value) -> list:
    """The line as every node's moves are solved in turn until one keeps the value (the walk before the
    shortcut)."""
    solver = Solver(game, _big())
    line, current = [], pos
    while game.terminal(current) is None:
        chosen = next(m for m in game.moves(current, _big()) if solver.exact(game.child(current, m)) == value)
        line.append(chosen)
        current = game.child(current, chosen)
    return line


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_the_worked_in_search_visits_the_generic_search_s_nodes_and_the_line_is_the_full_walk_s(
        game_code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RankGame, "compiled", False)  # the Python search, the reference (node for node)
    monkeypatch.setattr(RankGame, "reordered_from", LISTED_UP_TO + 1)  # its plays in the listed order
    @settings(max_examples=12, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        engine, state = cut_endgame(game_code, random.Random(seed), LISTED_UP_TO)  # the listed order
        forget_shared()  # both searches start from empty tables, so they count the same plays' generation
        pos = position(engine, state)
        worked_in = search.analyse(pos.game, pos.root, _big())
        forget_shared()
        generic = _generic(position(engine, state))
        assert (worked_in.value, worked_in.moves, worked_in.line, worked_in.nodes) == \
            (generic.value, generic.moves, generic.line, generic.nodes)
        assert worked_in.line == _full_walk_line(pos.game, pos.root, worked_in.value)

    check()


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_the_search_s_own_order_on_large_hands_changes_no_value_and_no_line(game_code: str) -> None:
    """The worked-in search tries its plays in its own order (the rest's greedy plays to go out, then the fewest
    ranks left, then the lowest cards, first):
    every move keeps the generic search's value, and the line (taken in the listed order) is the same."""
    reordered = 0

    @settings(max_examples=6, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        nonlocal reordered
        engine, state = cut_endgame(game_code, random.Random(seed), 8)
        pos = position(engine, state)
        reordered += max(len(hand) for hand in state.hands) >= 7  # a large hand
        worked_in = search.analyse(pos.game, pos.root, _big())
        generic = _generic(position(engine, state))
        assert (worked_in.value, worked_in.moves, worked_in.line) == (generic.value, generic.moves, generic.line)

    check()
    assert reordered >= 3


# Each game's most cards of a rank (3..2, then jokers where it has them), for random hands of every shape.
_MOST = {"doudizhu": (4,) * 13 + (1, 1), "sandayi": (8,) * 13 + (2, 2), "wakeng": (4,) * 13}


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_leads_listed_by_pattern_family_are_the_plays_every_sub_multiset_parses_in_the_same_order(game_code: str
                                                                                                  ) -> None:
    """The pattern families (domain/solver/candidates.py) miss no play and change no order: a hand's leads, and
    its answers to plays on the table, equal the listing that parses every sub-multiset. Hands are random, often
    with trios and fours (planes, 四带二, bombs), cut to at most 16 cards so the reference stays quick."""
    engine, state = cut_endgame(game_code, random.Random(7), 8)
    game = position(engine, state).game
    most = _MOST[game_code]
    seen = {"plays": 0, "long": 0}

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(st.lists(st.integers(0, 8), min_size=len(most), max_size=len(most)),
           st.lists(st.integers(0, 8), min_size=len(most), max_size=len(most)))
    def check(drawn: list[int], table: list[int]) -> None:
        counts, left = [], 16
        for want, top in zip(drawn, most, strict=True):
            take = min(want, top, left)
            counts.append(take)
            left -= take
        hand = pack(tuple(counts))
        if not hand:
            return
        forget_shared()
        game._sources.clear()
        leads = game.plays(hand, None, True, _big())
        assert leads == _parsed(game, hand, None, True)
        assert game.plays(hand, None, False, _big()) == _parsed(game, hand, None, False)
        seen["plays"] += len(leads)
        seen["long"] += any(_size(play) >= 8 for play, _, _ in leads)
        # The plays to answer: leads of another random hand (its longest and a few others).
        other = pack(tuple(min(t, top) for t, top in zip(table, most, strict=True)))
        if other:
            lasts = [readings for _, readings, _ in game._leads(other, _big())][:6]
            for last in lasts:
                assert game.plays(hand, last, True, _big()) == _parsed(game, hand, last, True)

    check()
    assert seen["plays"] > 1000 and seen["long"] >= 5


_DAGUAI_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_DAGUAI_DECK = sorted([s + r for s in "SHCD" for r in _DAGUAI_RANKS] + ["LJ", "BJ"]) * 3


def _daguai_every_combination(hand: tuple[str, ...], last) -> list:
    """大怪路子's plays of `hand` as every combination of 1, 2, 3 or 5 cards parses (the listing before the
    five-card families)."""
    found = []
    for size in (1, 2, 3, 5) if last is None else (last.size,):
        for cards in sorted(set(itertools.combinations(hand, size))):
            pattern = daguai_patterns.parse(list(cards))
            if pattern is not None and (last is None or daguai_patterns.beats(pattern, last)):
                found.append((cards, pattern))
    found.sort(key=lambda p: (len(p[0]) != len(hand), -len(p[0])))
    return found


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, len(_DAGUAI_DECK) - 1), min_size=1, max_size=16, unique=True),
       st.lists(st.integers(0, len(_DAGUAI_DECK) - 1), min_size=5, max_size=12, unique=True),
       st.sampled_from(["", "S", "H"]))
def test_daguai_plays_listed_by_five_card_family_are_every_combination_s(picked: list[int], other: list[int],
                                                                        suited: str) -> None:
    """The five-card families (`daguai.analysis._fives`: one suit, two ranks, a straight's positions) miss no
    play and change no order, leading and answering a five-card play. `suited` keeps only cards of a suit and
    jokers, so flushes and straight flushes come up often."""
    deck = [c for c in _DAGUAI_DECK if not suited or c[0] == suited or c in ("LJ", "BJ")]
    hand = tuple(sorted(deck[i % len(deck)] for i in picked))
    game = DaguaiGame(0, (0, 0))
    assert game.plays(hand, None, _big()) == _daguai_every_combination(hand, None)
    fives = [p for _, p in _daguai_every_combination(tuple(sorted(deck[i % len(deck)] for i in other)), None)
             if p.size == 5]
    for last in fives[:: max(1, len(fives) // 4)]:
        assert game.plays(hand, last, _big()) == _daguai_every_combination(hand, last)
