"""The solver (domain/solver/search.py) against the plain exhaustive minimax (minimax.py) on small positions of
every supported game, and the position adapters against the rules engines they stand for: every move a position
lists is a play the engine accepts, every play the engine accepts is listed (once), and the position after it is
the engine's. Positions come from random legal deals (fixtures/positions.py)."""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kernel.errors import IllegalAction
from domain.services.analysis import analyse_state, position
from domain.solver import minimax, search
from domain.solver.packed import pack, unpack
from domain.solver.search import Budget, TooLarge
from domain.solver.shedding import RankPosition
from fixtures.positions import cut_endgame, real_endgame

# Small enough for the exhaustive reference to finish in well under a second per position.
SMALL = {"doudizhu": 3, "sandayi": 2, "wakeng": 3, "daguai": 1, "shengji": 2}
CONSISTENCY_CARDS = {"doudizhu": 7, "sandayi": 7, "wakeng": 7, "daguai": 5, "shengji": 4}
EXAMPLES = {"doudizhu": 25, "sandayi": 15, "wakeng": 20, "daguai": 10, "shengji": 10}


def _big() -> Budget:
    return Budget(limit_ms=30_000, node_limit=5_000_000)


def _agree(game: str, seed: int) -> None:
    rng = random.Random(seed)
    engine, state = cut_endgame(game, rng, SMALL[game])
    pos = position(engine, state)
    solved = search.analyse(pos.game, pos.root, _big())
    exhaustive = minimax.move_values(pos.game, pos.root, _big())
    assert [m for m, _ in solved.moves] == [m for m, _ in exhaustive]
    assert solved.moves == exhaustive, f"{game} seed {seed}"
    values = [v for _, v in exhaustive]
    assert solved.value == (max(values) if pos.game.maximising(pos.root) else min(values))


@pytest.mark.parametrize("game", sorted(SMALL))
def test_solver_agrees_with_exhaustive_minimax_on_every_move(game: str) -> None:
    @settings(max_examples=EXAMPLES[game], deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        _agree(game, seed)

    check()


def _engine_plays(engine, state) -> set[tuple[str, ...]]:
    """Every distinct set of cards of the seat to act that the engine accepts as its play (brute force)."""
    seat = state.to_act
    accepted = set()
    hand = sorted(state.hands[seat])
    for size in range(1, len(hand) + 1):
        for cards in set(itertools.combinations(hand, size)):
            trial = copy.deepcopy(state)
            try:
                engine.apply(trial, {"seat": seat, "type": "play", "cards": list(cards)})
            except IllegalAction:
                continue
            accepted.add(cards)
    return accepted


def _distinct(game: str, pos, state, cards: tuple[str, ...]):
    """What the adapter calls a play: counts per rank where suits do not matter, else the sorted cards."""
    return pos.game.counts(cards) if game in ("doudizhu", "sandayi", "wakeng") else tuple(sorted(cards))


@pytest.mark.parametrize("game", sorted(SMALL))
def test_positions_list_exactly_the_plays_the_engine_accepts_and_follow_it(game: str) -> None:
    @settings(max_examples=20, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        engine, state = cut_endgame(game, random.Random(seed), CONSISTENCY_CARDS[game])
        pos = position(engine, state)
        moves = pos.game.moves(pos.root, _big())
        plays = [m for m in moves if m is not None]
        assert len(set(plays)) == len(plays)  # each distinct play once
        expected = {_distinct(game, pos, state, cards) for cards in _engine_plays(engine, state)}
        assert set(plays) == expected
        following = (state.trick if game == "shengji" else state.last_seat not in (None, state.to_act))
        assert (None in moves) == (bool(following) and game != "shengji")
        for move in moves:
            action = ({"seat": state.to_act, "type": "pass"} if move is None else
                      {"seat": state.to_act, "type": "play", "cards": _cards(game, pos, state, move)})
            after = copy.deepcopy(state)
            engine.apply(after, action)
            child = pos.game.child(pos.root, move)
            if game == "shengji":
                assert pos.game.key(child) == pos.game.key(after)
            elif pos.game.terminal(child) is None:
                assert position(engine, after).root == child
            else:
                assert after.phase == "finished" or game == "daguai" and after.decided is not None

    check()


def _cards(game: str, pos, state, move) -> list[str]:
    return pos.game.cards(state.hands[state.to_act], move) if game in ("doudizhu", "sandayi", "wakeng") \
        else list(move)


def test_a_position_beyond_the_budget_answers_too_large_quickly() -> None:
    # 三打一 early in its card play (two decks, 25-card hands): far beyond 50 ms, whatever the search's ordering
    found = real_endgame("sandayi", random.Random(7), 25)
    assert found is not None
    _, _, state = found
    engine_state = copy.deepcopy(state)
    from domain.games import get_engine

    budget = Budget(limit_ms=50, node_limit=10**9)
    answer = analyse_state(get_engine("sandayi"), engine_state, budget)
    assert answer["too_large"] is True and answer["ms"] < 1000
    with pytest.raises(TooLarge):
        pos = position(get_engine("sandayi"), state)
        search.analyse(pos.game, pos.root, Budget(limit_ms=10_000, node_limit=100))


def test_bombs_and_the_rocket_are_plays_and_answers_in_doudizhu() -> None:
    """Random deals seldom leave a bomb in a small hand, so a table of a real deal is given bombs and the rocket:
    the position lists them (leading and, above a trio, following) exactly as the engine accepts them, and the
    solver agrees with the exhaustive search on it."""
    from domain.games import get_engine

    engine = get_engine("doudizhu")
    found = real_endgame("doudizhu", random.Random(3), 17)
    assert found is not None
    _, _, table = found
    seat = table.to_act
    hands = {seat: ["S3", "H3", "C3", "D3", "LJ", "BJ", "S5"], (seat + 1) % 3: ["S4", "H4", "C4", "S6"],
             (seat + 2) % 3: ["S7", "H7", "C7", "D7"]}
    table.hands = [hands[s] for s in range(3)]
    table.last_seat, table.last_readings = None, []
    for state in (table, _after(engine, table, ["S5"]), _after(engine, table, ["S3", "H3", "C3"])):
        if state.to_act is None:
            continue
        pos = position(engine, state)
        plays = [m for m in pos.game.moves(pos.root, _big()) if m is not None]
        assert set(plays) == {_distinct("doudizhu", pos, state, c) for c in _engine_plays(engine, state)}
        solved = search.analyse(pos.game, pos.root, _big())
        assert solved.moves == minimax.move_values(pos.game, pos.root, _big())
    leads = [unpack(m, 15) for m in position(engine, table).game.moves(position(engine, table).root, _big()) if m]
    assert any(sum(m) == 4 for m in leads) and any(sum(m) == 2 and m[-1] and m[-2] for m in leads)


def _after(engine, state, cards: list[str]):
    after = copy.deepcopy(state)
    engine.apply(after, {"seat": after.to_act, "type": "play", "cards": cards})
    return after


@pytest.mark.parametrize("game", ["doudizhu", "sandayi", "wakeng"])
def test_a_static_win_is_a_win_of_the_exhaustive_search(game: str) -> None:
    """RankGame.proven claims a win without a search (the seat goes out in one play, or in an unanswerable play
    and one lead): on the root and every child of small positions of real deals, each claim is the exhaustive
    minimax's value, and claims do happen (so the rule is exercised)."""
    claims = 0

    @settings(max_examples=25, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        nonlocal claims
        engine, state = cut_endgame(game, random.Random(seed), SMALL[game] + 1)
        pos = position(engine, state)
        game_tree = pos.game
        for here in [pos.root, *(game_tree.child(pos.root, m) for m in game_tree.moves(pos.root, _big()))]:
            if game_tree.terminal(here) is not None:
                continue
            claim = game_tree.proven(here, _big())
            if claim is not None:
                claims += 1
                assert claim == minimax.minimax(game_tree, here, _big()), f"{game} seed {seed}: {here}"

    check()
    assert claims >= 5


def _relabelled(hands: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """The hands with the ranks 3..A held moved to other ranks 3..A in the same order (2 and jokers kept)."""
    held = [i for i in range(12) if any(unpack(h, 15)[i] for h in hands)]
    moved = dict(zip(held, sorted(rng.sample(range(12), len(held))), strict=True))
    out = []
    for hand in hands:
        counts = list(unpack(hand, 15))
        new = [0] * 12 + counts[12:]
        for old, place in moved.items():
            new[place] = counts[old]
        out.append(pack(tuple(new)))
    return tuple(out)


def test_doudizhu_leads_with_the_same_ranks_held_in_the_same_order_share_a_key_and_a_value() -> None:
    """The transposition key of a 斗地主 lead leaves out the ranks nobody holds (RankGame.key): leads of small real
    positions and their copies with the held ranks moved to other ranks in the same order have one key and one
    exhaustive value."""
    shared = 0

    @settings(max_examples=25, deadline=None, derandomize=True)
    @given(st.integers(min_value=0, max_value=2**32))
    def check(seed: int) -> None:
        nonlocal shared
        rng = random.Random(seed)
        engine, state = cut_endgame("doudizhu", rng, SMALL["doudizhu"])
        pos = position(engine, state)
        lead = pos.root._replace(last_seat=None, last=None)
        twin = lead._replace(hands=_relabelled(lead.hands, rng))
        if pos.game.key(lead) == pos.game.key(twin):
            shared += 1
            assert minimax.minimax(pos.game, lead, _big()) == minimax.minimax(pos.game, twin, _big())

    check()
    assert shared >= 20


def test_a_doudizhu_key_keeps_the_ranks_apart_while_a_sequence_can_be_made() -> None:
    """3-4-5-6-7 goes out in one straight, 3-4-5-6-8 (nobody holding a 7) does not: had the key left the 7 out, both
    leads would share one entry though their values differ; both keep their full positions as keys."""
    from domain.games import get_engine

    found = real_endgame("doudizhu", random.Random(3), 17)
    assert found is not None
    _, _, table = found
    seat = table.to_act
    table.last_seat, table.last_readings = None, []
    values, keys = [], []
    for straight in (["S3", "S4", "S5", "S6", "S7"], ["S3", "S4", "S5", "S6", "S8"]):
        hands = {seat: straight, (seat + 1) % 3: ["SK", "HK"], (seat + 2) % 3: ["SA"]}
        table.hands = [hands[s] for s in range(3)]
        pos = position(get_engine("doudizhu"), table)
        keys.append(pos.game.key(pos.root))
        values.append(minimax.minimax(pos.game, pos.root, _big()))
    assert values[0] != values[1]
    assert all(isinstance(key, RankPosition) for key in keys)  # the full position, every rank in its place


def test_a_doudizhu_key_never_reads_a_rocket_as_three_plain_ranks() -> None:
    """The landlord holding 2, 小王, 大王 leads the rocket and goes out with the 2; holding 9, 10, J instead (no 2
    or joker held by anyone) he cannot stop the 4444 bomb. Over the ranks held, both hands are three single
    columns above the farmers' 3, 4 and 5: the key must still tell them apart (it counts the ranks 3..A held)."""
    from domain.games import get_engine

    found = real_endgame("doudizhu", random.Random(3), 17)
    assert found is not None
    _, _, table = found
    seat = table.landlord
    table.to_act, table.last_seat, table.last_readings = seat, None, []
    values, keys = [], []
    for landlord in (["S2", "LJ", "BJ"], ["S9", "S10", "SJ"]):
        hands = {seat: landlord, (seat + 1) % 3: ["S3"], (seat + 2) % 3: ["S4", "H4", "C4", "D4", "S5"]}
        table.hands = [hands[s] for s in range(3)]
        pos = position(get_engine("doudizhu"), table)
        keys.append(pos.game.key(pos.root))
        values.append(minimax.minimax(pos.game, pos.root, _big()))
    assert values[0] != values[1]
    assert keys[0] != keys[1]
