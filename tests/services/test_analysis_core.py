"""The compiled core of the ranks-only AND/OR search (domain/solver/_rankcore.c, fed by domain/solver/rankcore.py)
against its references: the pure-Python search (`RankGame._decide`) and the exhaustive minimax. The core must be
built and used where fupan is installed (scripts/setup.sh): CI cannot fall back to the Python search unnoticed."""

from __future__ import annotations

import copy
import random
import threading
import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games import get_engine
from domain.services.analysis import position
from domain.solver import minimax, rankcore, search
from domain.solver.search import Budget, TooLarge
from domain.solver.shedding import RankGame
from fixtures.positions import cut_endgame, positions_in_play

RANKS_ONLY = ["doudizhu", "sandayi", "wakeng"]


def _big() -> Budget:
    return Budget(limit_ms=60_000, node_limit=20_000_000)


def test_the_compiled_core_is_built_and_used() -> None:
    """The extension is built into the installed package (not a leftover elsewhere) and a query runs on it."""
    assert rankcore._rankcore is not None, "domain/solver/_rankcore.c was not built: run scripts/setup.sh"
    assert Path(rankcore._rankcore.__file__).parent == Path(rankcore.__file__).parent
    assert RankGame.compiled, "the core is switched off (FUPAN_SOLVER=python?)"
    engine, state = cut_endgame("doudizhu", random.Random(3), 6)
    pos = position(engine, state)
    search.analyse(pos.game, pos.root, _big())
    assert pos.game._core is not None and pos.game._core.core.stored() > 0


def test_a_core_built_from_older_source_is_not_used() -> None:
    """The built core makes the calls rankcore.py makes; one without the same INTERFACE (built before a change of
    its calls, the checkout updated without scripts/setup.sh) would fail every query with a TypeError, so it is
    refused and the Python search answers."""
    assert rankcore.usable(rankcore._rankcore)
    assert not rankcore.usable(types.SimpleNamespace(Core=object))  # older than the check
    assert not rankcore.usable(types.SimpleNamespace(Core=object, INTERFACE=rankcore.INTERFACE - 1))


def test_the_python_search_is_kept_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """`FUPAN_SOLVER=python` keeps the pure-Python search (the benchmark's before); a position then has no core."""
    monkeypatch.setenv("FUPAN_SOLVER", "python")
    assert not rankcore.available()
    monkeypatch.setattr(RankGame, "compiled", rankcore.available())
    engine, state = cut_endgame("wakeng", random.Random(5), 4)
    pos = position(engine, state)
    search.analyse(pos.game, pos.root, _big())
    assert pos.game._core is None


def _python(game: RankGame, pos, budget: Budget) -> int:
    return game._decide(pos, {}, budget)


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_the_core_s_value_is_the_python_search_s_and_the_exhaustive_search_s_on_every_move(game_code: str) -> None:
    """Small positions of random deals: every move's child valued by the core, by the Python search and by the
    exhaustive minimax; the three agree, and so do the two analyses (values, moves, line)."""
    @settings(max_examples=15, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32), st.sampled_from([2, 3]))
    def check(seed: int, cards: int) -> None:
        engine, state = cut_endgame(game_code, random.Random(seed), cards)
        pos = position(engine, state)
        game = pos.game
        exhaustive = minimax.move_values(game, pos.root, _big())
        for move, value in exhaustive:
            child = game.child(pos.root, move)
            assert game.decide(child, {}, _big()) == value == _python(game, child, _big())
        compiled = search.analyse(game, pos.root, _big())
        assert compiled.moves == exhaustive

    check()


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_the_core_s_orders_taking_turns_every_few_nodes_give_the_exhaustive_search_s_values(
        game_code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The core's two orders take turns on a search once it outgrows a share of nodes (`RankGame.turn_share`,
    100,000 at first: small positions never reach it). With a share of one node every search here turns again
    and again, each turn resuming from the other's exact values; every move's value is still the exhaustive
    minimax's."""
    monkeypatch.setattr(RankGame, "turn_share", 1)
    turned = 0

    @settings(max_examples=15, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32), st.sampled_from([3, 4]))
    def check(seed: int, cards: int) -> None:
        nonlocal turned
        engine, state = cut_endgame(game_code, random.Random(seed), cards)
        pos = position(engine, state)
        game = pos.game
        for move, value in minimax.move_values(game, pos.root, _big()):
            budget = _big()
            assert game.decide(game.child(pos.root, move), {}, budget) == value
            turned += budget.nodes > 3  # past the first two turns (1 node, then 2)

    check()
    assert turned >= 10


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_the_core_s_analysis_is_the_python_search_s_on_larger_positions(game_code: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Positions of up to 7 cards a hand (the search's own order): the core's answer — every move's
    value, the verdict and the line — is the pure-Python search's."""
    @settings(max_examples=6, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        engine, state = cut_endgame(game_code, random.Random(seed), 7)
        compiled_pos = position(engine, state)
        compiled = search.analyse(compiled_pos.game, compiled_pos.root, _big())
        assert compiled_pos.game._core is not None
        with monkeypatch.context() as patched:
            patched.setattr(RankGame, "compiled", False)
            python_pos = position(engine, state)
            python = search.analyse(python_pos.game, python_pos.root, _big())
            assert python_pos.game._core is None
        assert (compiled.value, compiled.moves, compiled.line) == (python.value, python.moves, python.line)

    check()


def _walk(game: RankGame, pos, rng: random.Random, steps: int):
    """Positions along a random line from `pos` (each step a random move)."""
    for _ in range(steps):
        if game.terminal(pos) is not None:
            return
        yield pos
        pos = game.child(pos, rng.choice(game.moves(pos, _big())))


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_the_plays_the_core_lists_are_the_python_search_s_in_its_order(game_code: str) -> None:
    """At positions of whole random deals and along random lines from them, each node's plays as the core lists
    them (from the root's leads it is fed) — cards, readings on the table after, bomb, in the search's order —
    with the whole-hand flag and the static-win splits, are the Python search's (`RankGame._node_of`)."""
    engine = get_engine(game_code)
    rng = random.Random(24)
    checked = 0
    for _ in range(2):
        states = [state for _, _, state in positions_in_play(game_code, rng)]
        for state in (states[0], states[len(states) // 2]):
            pos = position(engine, copy.deepcopy(state))
            game = pos.game
            core = rankcore.RankCore(game, pos.root.hands, pos.root.last)
            for at in _walk(game, pos.root, rng, 12):
                steps, whole, splits = game._node_of(at, _big())
                seat = at.to_act
                listed = core.plays(at.hands[seat], seat, at.last, at.bombs_left[seat])
                assert listed == ([step for step in steps if step[0] is not None], whole, splits)
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("game_code", RANKS_ONLY)
def test_proven_verdicts_of_whole_deal_positions_agree_with_their_children(game_code: str) -> None:
    """Whole-deal positions (random steps of random deals), searched by the core with a node limit: where the
    position's value is proven, a win for the side to move has a winning child, and a loss has no winning child
    among the children the core proves within the same limit."""
    engine = get_engine(game_code)
    rng = random.Random(7)
    proven = 0
    for _ in range(3):
        states = [state for _, _, state in positions_in_play(game_code, rng)]
        for state in (states[len(states) // 4], states[len(states) // 2]):
            pos = position(engine, copy.deepcopy(state))
            game = pos.game
            try:
                value = game.decide(pos.root, {}, Budget(limit_ms=60_000, node_limit=200_000))
            except TooLarge:
                continue
            proven += 1
            wins = int(game.maximising(pos.root))
            children = []
            for move in game.moves(pos.root, _big()):
                try:
                    children.append(game.decide(game.child(pos.root, move), {},
                                                Budget(limit_ms=60_000, node_limit=200_000)))
                except TooLarge:
                    continue
            if value == wins:
                assert wins in children
            else:
                assert wins not in children
    assert proven >= 2


def _sixth_plays(game_code: str, rng: random.Random, count: int) -> list:
    """The positions before the 6th card play of `count` random deals (the benchmark's reach positions)."""
    found = []
    while len(found) < count:
        states = [state for _, _, state in positions_in_play(game_code, rng)]
        if len(states) > 5:
            found.append(states[5])
    return found


def test_the_search_runs_without_the_gil() -> None:
    """A web server's other threads keep running while a query searches: once the core is searching a 48-card
    斗地主 position (1,500,000 nodes, fewer than it needs), this thread counts to 1,000,000 — and the search
    is still running when it has (holding the GIL, the count could only go on once the search returned)."""
    state = _sixth_plays("doudizhu", random.Random(1), 2)[1]
    assert sum(len(hand) for hand in state.hands) == 48
    pos = position(get_engine("doudizhu"), state)
    game = pos.game
    with pytest.raises(TooLarge):  # the core made (and the position shown too large) before the thread starts
        game.decide(pos.root, {}, Budget(limit_ms=60_000, node_limit=1_000))
    entered = threading.Event()
    outcome: list[BaseException] = []

    def search_long() -> None:
        entered.set()
        try:
            game.decide(pos.root, {}, Budget(limit_ms=600_000, node_limit=1_500_000))
        except TooLarge as error:
            outcome.append(error)

    searching = threading.Thread(target=search_long)
    searching.start()
    entered.wait()
    counted = 0
    while counted < 1_000_000:
        counted += 1
    still_searching = searching.is_alive()
    searching.join()
    assert still_searching and outcome
