"""大怪路子's analysis adapter and its search game: 大怪路子's flushes need suits (rules A3), so a hand is the sorted
tuple of its card codes; a play is every combination of 1, 2, 3 or 5 cards its own patterns read and, when
following, beat; the turn order mirrors the engine's `_after_turn` (tests/services/test_analysis.py checks
every move and successor against the engine)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

from domain.games.daguai import engine as daguai_engine
from domain.games.daguai import patterns
from domain.games.shedding import LITTLE, card_value
from domain.kernel.engine import Engine, team_of
from domain.solver.position import Position
from domain.solver.search import UNLIMITED, Budget

Hand = tuple[str, ...]


# The five sequence positions of each straight A2345 … 10JQKA (patterns._lowest_straight_top).
_WINDOWS = tuple(range(low, low + 5) for low in range(1, 11))


def _fives(hand: Hand) -> set[Hand]:
    """The 5-card combinations of `hand` that can be a five-card play, a superset `patterns.parse` sorts out:
    those whose natural cards are of one suit (同花, 同花顺), of at most two ranks (五同, 四带一, 三带二), or
    each fit one straight's positions (杂顺), jokers joining any of them (A3). In hand order, as
    `itertools.combinations(hand, 5)` makes them: a sorted hand's listing is the one every combination gives."""
    jokers, by_suit, by_rank = [], {}, {}
    for i, code in enumerate(hand):
        value = card_value(code)
        if value >= LITTLE:
            jokers.append(i)
        else:
            by_suit.setdefault(code[0], []).append(i)
            by_rank.setdefault(value, []).append(i)
    pools: list[list[int]] = [[], *by_suit.values()]
    ranks = sorted(by_rank)
    for at, low in enumerate(ranks):
        pools.extend(by_rank[low] + (by_rank[high] if high != low else []) for high in ranks[at:])
    for window in _WINDOWS:
        pools.append([i for value, cards in by_rank.items() for i in cards
                      if any(place in window for place in patterns._position_options(value))])
    found: set[Hand] = set()
    for pool in pools:
        indices = sorted({*pool, *jokers})
        found.update(tuple(hand[i] for i in combo) for combo in itertools.combinations(indices, 5))
    return found


class DaguaiPosition(NamedTuple):
    """A 大怪路子 position: hands as sorted card codes, the seat to act, the play to answer (its seat and
    pattern), the active seats that passed since it, and the seats out so far in order."""

    hands: tuple[Hand, ...]
    to_act: int
    last_seat: int | None
    last: Any
    passed: frozenset[int]
    finished: tuple[int, ...]


def _team_out(order: Sequence[int]) -> int | None:
    for team in (0, 1):
        if sum(1 for s in order if team_of(s) == team) == daguai_engine.TEAM_SIZE:
            return team
    return None


def daguai_points(order: Sequence[int], team_fouls: Sequence[int]) -> list[int]:
    """Each team's points once a team is out, as DaguaiEngine.result scores them (A6, A7, A10.7–8)."""
    head_team = team_of(order[0])
    if _team_out(order) == head_team:
        natural = daguai_engine.CATCH_POINTS[daguai_engine.SEATS - len(order)]
    else:
        caught = daguai_engine.TEAM_SIZE - sum(1 for s in order if team_of(s) == head_team)
        natural = daguai_engine.CAUGHT_POINTS[caught]
    points = [natural if team == head_team else 0 for team in (0, 1)]
    fouled = [team for team in (0, 1) if team_fouls[team] >= daguai_engine.FOULS_TO_LOSE]
    if len(fouled) == 2:
        return [0, 0]
    if fouled:
        return [daguai_engine.FOUL_POINTS if team != fouled[0] else 0 for team in (0, 1)]
    return points


class DaguaiGame:
    """大怪路子 for the search: a team wins when the deal gives it more points than the other team (a deal that
    gives both 0 is a win for neither)."""

    bounds = (0, 1)
    seats = daguai_engine.SEATS

    def __init__(self, max_team: int, team_fouls: Sequence[int]):
        self.max_team, self.team_fouls = max_team, tuple(team_fouls)
        self.teams = tuple(team_of(s) for s in range(self.seats))
        self._plays: dict[tuple[Hand, Any], list[tuple[Hand, Any]]] = {}

    def key(self, pos: DaguaiPosition) -> DaguaiPosition:
        return pos

    def terminal(self, pos: DaguaiPosition) -> int | None:
        if _team_out(pos.finished) is None:
            return None
        points = daguai_points(pos.finished, self.team_fouls)
        return int(points[self.max_team] > points[1 - self.max_team])

    def maximising(self, pos: DaguaiPosition) -> bool:
        return team_of(pos.to_act) == self.max_team

    def plays(self, hand: Hand, last: Any, budget: Budget) -> list[tuple[Hand, Any]]:
        """Every distinct play of 1, 2, 3 or 5 cards the patterns read (the size of the play to answer when
        following) that beats it; the whole hand first, then the most cards."""
        found = self._plays.get((hand, last))
        if found is not None:
            return found
        sizes = (1, 2, 3, 5) if last is None else (last.size,)
        found = []
        for size in sizes:
            if size > len(hand):
                continue
            candidates = _fives(hand) if size == 5 else set(itertools.combinations(hand, size))
            budget.tick(1 + len(candidates) // 64)
            for cards in sorted(candidates):
                pattern = patterns.parse(list(cards))
                if pattern is not None and (last is None or patterns.beats(pattern, last)):
                    found.append((cards, pattern))
        found.sort(key=lambda p: (len(p[0]) != len(hand), -len(p[0])))
        self._plays[(hand, last)] = found
        return found

    def moves(self, pos: DaguaiPosition, budget: Budget) -> list[Hand | None]:
        seat = pos.to_act
        plays = [p[0] for p in self.plays(pos.hands[seat], pos.last, budget)]
        if pos.last_seat is None:
            return plays
        if team_of(pos.last_seat) == team_of(seat):
            return [None, *plays]
        return [*plays, None]

    def _next_active(self, hands: Sequence[Hand], seat: int) -> int:
        seats = self.seats
        return next((seat + step) % seats for step in range(1, seats + 1) if hands[(seat + step) % seats])

    def child(self, pos: DaguaiPosition, move: Hand | None) -> DaguaiPosition:
        seat = pos.to_act
        if move is None:
            return self._after_turn(pos.hands, seat, pos.last_seat, pos.last, pos.passed | {seat}, pos.finished)
        hands = list(pos.hands)
        rest = list(hands[seat])
        for code in move:
            rest.remove(code)
        hands[seat] = tuple(rest)
        pattern = next(p for c, p in self.plays(pos.hands[seat], pos.last, UNLIMITED) if c == move)
        finished = pos.finished + ((seat,) if not rest else ())
        if not rest and _team_out(finished) is not None:  # a team is out: the result is fixed (A10.8)
            return DaguaiPosition(tuple(hands), seat, None, None, frozenset(), finished)
        return self._after_turn(tuple(hands), seat, seat, pattern, frozenset(), finished)

    def _after_turn(self, hands: tuple[Hand, ...], seat: int, last_seat: int | None, last: Any,
                    passed: frozenset[int], finished: tuple[int, ...]) -> DaguaiPosition:
        """DaguaiEngine._after_turn: a new round once every other active seat passed since the last play, led by
        its player or, when that player is out, the next active seat (接风, A5.5)."""
        assert last_seat is not None
        others = [s for s in range(self.seats) if hands[s] and s != last_seat]
        if all(s in passed for s in others):
            leader = last_seat if hands[last_seat] else self._next_active(hands, last_seat)
            return DaguaiPosition(hands, leader, None, None, frozenset(), finished)
        return DaguaiPosition(hands, self._next_active(hands, seat), last_seat, last, passed, finished)


class DaguaiAnalysis:
    """The search's position for a 大怪路子 state in play: the side to act is its team."""

    points = False
    suitless = False  # flushes need suits

    def position(self, engine: Engine, state: Any) -> Position:
        seat = state.to_act
        game = DaguaiGame(team_of(seat), state.team_fouls)
        following = state.last_seat is not None
        root = DaguaiPosition(tuple(tuple(sorted(hand)) for hand in state.hands), seat,
                              state.last_seat if following else None, state.last_pattern if following else None,
                              frozenset(state.passed), tuple(state.finished))
        return Position(game, root, seat, f"team{team_of(seat)}", engine, state)


ANALYSIS = DaguaiAnalysis()
