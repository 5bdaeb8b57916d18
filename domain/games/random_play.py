"""What every game's random legal player (`domain/games/<game>/random_play.py`) shares: a deal dealt from a random
seed, the finished deal as a `fupan.deal/1` record, and for the shedding games (斗地主, 快乐三打一, 挖坑, 大怪路子)
the loop that plays a deal out: fouls and timeouts at given rates, else the game's own choice, which for a play
is a pass or a pattern kind first and a play of that kind.

Each game keeps what only it knows: which plays a hand can make (`candidate_plays`), its bidding and
declarations. The random numbers are drawn in the same order as each game drew them before this module, so a
seed still gives the same deal (the fixtures' generators rely on it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from domain.dealing import deal_from_seed
from domain.engine import Action, DealSetup, Engine
from domain.record import public_result

Play = list[str]


def random_setup(engine: Engine, rng: random.Random, names: Iterable[str], first: int,
                 options: dict[str, Any] | None = None, context: dict[str, Any] | None = None) -> DealSetup:
    """A deal of `engine`'s game dealt by the documented shuffle from a random seed, starting at seat `first`."""
    hands, kitty = deal_from_seed(f"{rng.getrandbits(64):x}", engine, first)
    return DealSetup(engine.game, engine.resolve_options(options or {}), list(names), first, hands, kitty,
                     {} if context is None else context)


def finished_record(engine: Engine, setup: DealSetup, state: Any, actions: list[Action], *,
                    first: int | None = None) -> dict[str, Any]:
    """The complete `fupan.deal/1` record of a finished deal (`first`: the effective first bidder when the deal
    changed it)."""
    result = engine.result(state)
    assert result is not None
    return {"format": "fupan.deal/1", "game": setup.game, "options": setup.options, "seats": setup.seats,
            "first": setup.first if first is None else first, "hands": setup.hands, "kitty": setup.kitty,
            "context": dict(setup.context), "actions": actions, "result": public_result(result)}


def played_record(engine: Engine, setup: DealSetup, play_out: Callable[..., None], rng: random.Random,
                  **rates: float) -> dict[str, Any]:
    """The record of the deal `setup` played to its end by `play_out(state, rng, actions, **rates)`."""
    state, actions = played(engine, setup, play_out, rng, **rates)
    return finished_record(engine, setup, state, actions)


def played(engine: Engine, setup: DealSetup, play_out: Callable[..., None], rng: random.Random,
           **rates: Any) -> tuple[Any, list[Action]]:
    """The final state and the actions of the deal `setup` played by `play_out(state, rng, actions, **rates)`."""
    state = engine.new_deal(setup)
    actions: list[Action] = []
    play_out(state, rng, actions, **rates)
    return state, actions


def foul_by_anyone(seats: int, code: str, note: str) -> Callable[[random.Random], Action]:
    """A referee's foul against a random one of `seats` seats (whoever is to act)."""
    return lambda rng: {"seat": rng.randrange(seats), "type": "foul", "code": code, "note": note}


def play_out(engine: Engine, state: Any, rng: random.Random, actions: list[Action],
             choose: Callable[[Any, int], Action], *, foul: Callable[[random.Random], Action],
             foul_rate: float = 0.0, timeout_rate: float = 0.0) -> None:
    """Play the deal in `state` to its end, appending each action to `actions`: a `foul` at `foul_rate`, a timeout
    of the seat to act at `timeout_rate`, else `choose(state, seat)`; the engine applies each."""
    while state.phase != "finished":
        seat = state.to_act
        assert seat is not None
        if rng.random() < foul_rate:
            action = foul(rng)
        elif rng.random() < timeout_rate:
            action = {"seat": seat, "type": "timeout"}
        else:
            action = choose(state, seat)
        engine.apply(state, action)
        actions.append(action)


def choose_play(seat: int, options: list[Play], following: bool, rng: random.Random, pass_rate: float,
                kind: Callable[[Play], str]) -> Action:
    """A pass when following and nothing in `options` beats the last play (or, at `pass_rate`, anyway); else a
    play: the pattern kind first, so that runs and planes are not drowned by singles, then a play of it."""
    if following and (not options or rng.random() < pass_rate):
        return {"seat": seat, "type": "pass"}
    by_kind: dict[str, list[Play]] = {}
    for play in options:
        by_kind.setdefault(kind(play), []).append(play)
    return {"seat": seat, "type": "play", "cards": rng.choice(by_kind[rng.choice(sorted(by_kind))])}


def kind_of(parse: Callable[[Play], Any]) -> Callable[[Play], str]:
    """A play's pattern kind, as `parse` reads it (a play `candidate_plays` offered: one the rules accept)."""
    return lambda play: parse(play).kind


def by_value(hand: Iterable[str], value: Callable[[str], int]) -> dict[int, list[str]]:
    """The hand's cards grouped by `value`, in the hand's order."""
    groups: dict[int, list[str]] = {}
    for code in hand:
        groups.setdefault(value(code), []).append(code)
    return groups


def accepted(plays: Iterable[Play], target: Any, parse: Callable[[Play], Any],
             beats: Callable[[Any, Any], bool]) -> list[Play]:
    """The plays the rules read as a pattern (`parse`) and, when following `target`, that beat it."""
    found = []
    for play in plays:
        pattern = parse(play)
        if pattern is not None and (target is None or beats(pattern, target)):
            found.append(play)
    return found


def sequence_rank(position: int) -> int:
    """The rank at a sequence position where A stands at 1 or 14 and 2 at 2 (A2345 … 10JQKA: 三打一, 大怪路子)."""
    return 14 if position in (1, 14) else 15 if position == 2 else position
