"""The compiled core of the ranks-only AND/OR search (domain/solver/_rankcore.c), fed by the Python search.

`RankGame.decide` (domain/solver/shedding.py) is the reference: the core walks the same positions, with the same
moves in the same order, the same forced-move walk, static wins, table key and node count, but in C. It holds
no rule of any game: every rule it applies comes from here, worked out by the game's own patterns module through
the same `RankGame` tables the Python search reads —

- each seat's leads from its hand at the query's root (`RankGame._leads`, best-first), as (packed cards, the id
  of their readings, a bomb or not): the leads of any hand the search reaches are the root hand's leads it holds;
- the readings as ids, and for each readings of a lead and readings on the table, the readings that beat it
  (the game's `answers`) and whether those are a bomb (`is_bomb`): asked once per pair, over the closure of the
  readings a position can put on the table;
- the teams, the maximising team, and (斗地主) what the key over the ranks held needs.

The core is made once per query (per `RankGame`), from the root's hands; its transposition table lives as long
as the query's game (memory bounded: a fixed-size table, docs/analysis.md "How it searches").
`FUPAN_SOLVER=python` in the environment, or `RankGame.compiled = False`, keeps the pure-Python search.
"""

from __future__ import annotations

import logging
import os
import time
from array import array
from typing import Any

from domain.solver.packed import _within
from domain.solver.search import UNLIMITED, Budget, TooLarge

# The game and positions are shedding.py's `RankGame` and `RankPosition` (typed Any here: shedding.py imports this
# module, and imports run one way).
RankGame = Any
RankPosition = Any

# The shape of the core's calls this module makes (the C file's RANKCORE_INTERFACE, bumped with it). A module
# built from older source — a checkout updated without `bash scripts/setup.sh` — would answer a call with a
# TypeError; it is not used, and the pure-Python search answers, with a warning saying how to rebuild it.
INTERFACE = 2


def usable(module: Any) -> bool:
    """Whether a built core module makes the calls this module makes (its INTERFACE matches)."""
    return getattr(module, "INTERFACE", None) == INTERFACE


try:
    from domain.solver import _rankcore
except ImportError:  # not built (no C compiler where it was installed): the pure-Python search answers
    _rankcore = None  # type: ignore[assignment]
if _rankcore is not None and not usable(_rankcore):
    logging.getLogger(__name__).warning(
        "the solver's compiled core was built from older source (interface %s, expected %s): the Python search "
        "answers until `bash scripts/setup.sh` builds it again", getattr(_rankcore, "INTERFACE", None), INTERFACE)
    _rankcore = None


def available() -> bool:
    """Whether the compiled core is built and not switched off (`FUPAN_SOLVER=python`)."""
    return _rankcore is not None and os.environ.get("FUPAN_SOLVER", "") != "python"


class RankCore:
    """One query's compiled search: the tables above, made from the root's hands, and the core holding them."""

    def __init__(self, game: RankGame, roots: tuple[int, ...], last: tuple[Any, ...] | None):
        assert _rankcore is not None
        self.roots = roots
        self.ids: dict[tuple[Any, ...], int] = {}
        self.readings: list[tuple[Any, ...]] = []
        if last is not None:
            self._id(last)
        self.leads = [[(play, self._id(readings), int(bomb)) for play, readings, bomb in game._leads(hand, UNLIMITED)]
                      for hand in roots]
        self._game = game
        answers = game._shared.reading_answers
        lead_ids = sorted({reading for seat in self.leads for _, reading, _ in seat})
        self._lead_ids = lead_ids
        self._answers: dict[tuple[int, int], int] = {}
        self._closed = 0
        self._close(answers)
        self.core = self._make()

    def _id(self, readings: tuple[Any, ...]) -> int:
        found = self.ids.get(readings)
        if found is None:
            found = self.ids[readings] = len(self.readings)
            self.readings.append(readings)
        return found

    def _close(self, known: dict[tuple[tuple[Any, ...], tuple[Any, ...]], tuple[Any, ...]]) -> None:
        """Every readings a play can leave on the table (a lead's, or its answer to readings on the table), and
        each lead's answer to each: the game's `answers`, asked once per pair (shared between queries)."""
        rules, readings = self._game.rules, self.readings
        while self._closed < len(readings):
            table = readings[self._closed]
            for lead in self._lead_ids:
                pair = (readings[lead], table)
                found = known.get(pair)
                if found is None:
                    found = known[pair] = rules.answers(readings[lead], table)
                if found:
                    self._answers[(lead, self._closed)] = self._id(found)
            self._closed += 1

    def _make(self) -> Any:
        game, count = self._game, len(self.readings)
        matrix = array("i", [-1]) * (count * count)
        for (lead, table), answer in self._answers.items():
            matrix[lead * count + table] = answer
        bombs = bytes(int(bool(game.rules.is_bomb(readings))) for readings in self.readings)
        ranks_held = game._sequences_only_of_counts
        return _rankcore.Core(game.teams, game.max_team, count, matrix.tobytes(), bombs, self.leads, self.roots,
                              ranks_held, game._always_kept, game._plain_bits, game.ranks,
                              game.reordered_from, game.turn_share)

    def table_of(self, last: tuple[Any, ...] | None) -> int | None:
        """The id of the readings on the table (-1: a lead); None when the core was not made with them (a
        position from elsewhere: then the core is made again with them)."""
        if last is None:
            return -1
        return self.ids.get(last)

    def holds(self, pos: RankPosition) -> bool:
        return len(pos.hands) == len(self.roots) and all(
            _within(hand, root) for hand, root in zip(pos.hands, self.roots, strict=True))

    def decide(self, pos: RankPosition, table: int, budget: Budget) -> int:
        """The exact value of `pos` (as `RankGame.decide`), counting its nodes on `budget`; TooLarge past it."""
        value, budget.nodes = self.core.decide(
            pos.hands, pos.to_act, -1 if pos.last_seat is None else pos.last_seat, table, pos.bombs_left,
            budget.nodes, budget.node_limit, budget.limit_ms - budget.elapsed_ms(),
            budget.clock is time.process_time)
        if value < 0:
            raise TooLarge(budget.nodes, budget.elapsed_ms())
        return int(value)

    def plays(self, hand: int, seat: int, last: tuple[Any, ...] | None, allowance: int | None
              ) -> tuple[list[tuple[int, tuple[Any, ...], bool]], bool, list[tuple[Any, ...]]]:
        """A node's plays as the core lists them, with readings, and its static-win split (for the tests)."""
        table = self.table_of(last)
        assert table is not None
        plays, whole, splits = self.core.plays(hand, seat, table, -1 if allowance is None else allowance)
        return ([(play, self.readings[reading], bool(bomb)) for play, reading, bomb in plays], whole,
                [self.readings[reading] for reading in splits])

