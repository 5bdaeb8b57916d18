"""An analysis query: a deal's position (its setup and the actions so far) → for each legal play of the seat to
act, whether its side still wins (the points the attackers still take, in 升级), the side's verdict and one
line of best play — or "too large" once the budget runs out. What `fupan analyse` prints and the API answers
(docs/analysis.md)."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel.engine import Action, DealSetup, Engine, team_of
from domain.kernel.errors import BadRequest, Hidden, IllegalAction
from domain.model.deal import Deal
from domain.model.token import Principal
from domain.records.format import fold
from domain.services.visibility import may_see_all
from domain.solver import search
from domain.solver.search import Budget, TooLarge
from domain.solver.shedding import (
    DaguaiGame,
    DaguaiPosition,
    RankGame,
    RankPosition,
    RankRules,
    doudizhu_rules,
    sandayi_rules,
    wakeng_rules,
)
from domain.solver.shengji import MAX_TRICKS, ShengjiGame, tricks_left

RULES = {"doudizhu": doudizhu_rules, "sandayi": sandayi_rules, "wakeng": wakeng_rules}
SUPPORTED = ("doudizhu", "sandayi", "wakeng", "daguai", "shengji")
PLAYING = {"doudizhu": "play", "sandayi": "play", "wakeng": "play", "daguai": "play", "shengji": "playing"}


def not_analysable(phase: str) -> IllegalAction:
    return IllegalAction("not_analysable", f"Analysis is of card play; this position is in phase {phase!r} "
                         "(bidding, declaring, burying or a finished deal has no play to analyse).",
                         f"分析只针对出牌阶段；该局面处于 {phase!r} 阶段（叫牌、亮主、扣底或已结束的牌局无可分析）。",
                         {"phase": phase})


@dataclass
class Position:
    """A position ready to search: the adapter, its root, the side names and how moves read as actions."""

    game: Any
    root: Any
    to_act: int
    side: str
    engine: Engine
    state: Any  # the engine's state at the root (never changed)


def position(engine: Engine, state: Any) -> Position:
    """The search's position for an engine state in play; IllegalAction `not_analysable` otherwise."""
    game_code = engine.game
    if state.phase != PLAYING[game_code] or state.to_act is None:
        raise not_analysable(state.phase)
    seat = state.to_act
    if game_code in RULES:
        role = {"doudizhu": "landlord", "sandayi": "dealer", "wakeng": "digger"}[game_code]
        alone = getattr(state, role)
        others = {"landlord": "farmers", "dealer": "defenders", "digger": "defenders"}[role]
        if game_code == "sandayi" and state.locked:
            raise IllegalAction("not_analysable", "A 报到 hand with locked sets (sdy.baodao.lockCards) is not "
                                "analysed.", "报到锁牌（sdy.baodao.lockCards）的局面不做分析。", {})
        teams = [0 if s == alone else 1 for s in range(engine.seat_count)]
        # Queries of the same rules (the deal's options) share what they learn of plays (shedding._Shared).
        options_key, rules = _rules(game_code, state.options)
        game = RankGame(rules, teams, teams[seat], options_key)
        if game_code == "sandayi":
            bombs = tuple(None if a is None else max(0, a - p)
                          for a, p in zip(state.allowance, state.bombs_by_seat, strict=True))
        else:
            bombs = (None,) * engine.seat_count
        following = state.last_seat is not None and state.last_seat != seat
        last: Any = None
        if following:
            last = tuple(state.last_readings) if game_code == "doudizhu" else (state.last_pattern,)
            last = tuple(sorted(set(last)))
        root = RankPosition(tuple(game.counts(hand) for hand in state.hands), seat,
                            state.last_seat if following else None, last, bombs)
        game.add_sources(root.hands)
        side = role if teams[seat] == 0 else others
        return Position(game, root, seat, side, engine, state)
    if game_code == "daguai":
        game = DaguaiGame(team_of(seat), state.team_fouls)
        following = state.last_seat is not None
        root = DaguaiPosition(tuple(tuple(sorted(hand)) for hand in state.hands), seat,
                              state.last_seat if following else None, state.last_pattern if following else None,
                              frozenset(state.passed), tuple(state.finished))
        return Position(game, root, seat, f"team{team_of(seat)}", engine, state)
    assert game_code == "shengji"
    if tricks_left(state) > MAX_TRICKS:
        raise TooLarge(0, 0.0)
    game = ShengjiGame(engine, state.dealer)  # type: ignore[arg-type]
    side = "attackers" if team_of(seat) == game.attackers else "dealer_team"
    return Position(game, state, seat, side, engine, state)


_RULES_SEEN: dict[tuple[str, Any], tuple[tuple[Any, ...], RankRules]] = {}


def _rules(game_code: str, options: dict[str, Any]) -> tuple[tuple[Any, ...], RankRules]:
    """The rules of a deal's options and the key its queries share tables under, made once per options."""
    try:
        seen: Any = (game_code, frozenset(options.items()))
        found = _RULES_SEEN.get(seen)
    except TypeError:  # an option's value is a list or a table: keyed by its JSON instead
        seen = (game_code, json.dumps(options, sort_keys=True, default=str))
        found = _RULES_SEEN.get(seen)
    if found is None:
        if len(_RULES_SEEN) > 64:
            _RULES_SEEN.clear()
        found = _RULES_SEEN[seen] = ((json.dumps(options, sort_keys=True, default=str),), RULES[game_code](options))
    return found


def _action(pos: Position, state: Any, move: Any) -> Action:
    """A move as the record format writes it, with cards from the seat's actual hand in `state`."""
    seat = state.to_act
    if move is None:
        return {"seat": seat, "type": "pass"}
    cards = pos.game.cards(state.hands[seat], move) if isinstance(pos.game, RankGame) else list(move)
    return {"seat": seat, "type": "play", "cards": cards}


def analyse_state(engine: Engine, state: Any, budget: Budget) -> dict[str, Any]:
    """The analysis of an engine state: the JSON the CLI prints and the API answers. A position with no card
    play (bidding, declaring, burying, a finished deal) answers `not_in_play` with its phase."""
    if state.phase != PLAYING[engine.game] or state.to_act is None:
        return {"not_in_play": True, "phase": state.phase, "nodes": 0, "ms": 0.0}
    try:
        pos = position(engine, state)
        found = search.analyse(pos.game, pos.root, budget)
    except TooLarge as error:
        return {"too_large": True, "nodes": error.nodes, "ms": round(error.ms, 1)}
    points = pos.engine.game == "shengji"
    maximising = pos.game.maximising(pos.root)
    moves = []
    for move, value in found.moves:
        action = _action(pos, pos.state, move)
        if points:
            moves.append({"action": action, "points": value})
        else:
            moves.append({"action": action, "wins": bool(value) == maximising})
    # The line, each action applied by the engine to a copy of the position (so checked once more).
    line, walk = [], copy.deepcopy(pos.state)
    for move in found.line:
        action = _action(pos, walk, move)
        engine.apply(walk, action)
        line.append(action)
    answer: dict[str, Any] = {"to_act": pos.to_act, "side": pos.side}
    if points:
        answer["points"] = found.value
        answer["side_wins"] = _shengji_side_wins(engine, walk, pos)
    else:
        answer["side_wins"] = bool(found.value) == maximising
    answer.update({"moves": moves, "line": line, "nodes": found.nodes, "ms": round(found.ms, 1)})
    return answer


def solved_line(engine: Engine, state: Any, budget: Budget) -> list[Action]:
    """The solver's best play from `state` to the deal's end, applied to `state` by the engine (the stored
    forms); an appeal's sandbox line completed by the solver (docs/appeals.md). IllegalAction
    `not_analysable` outside card play, `line_too_large` when the search does not finish within its budget;
    `state` is then unchanged."""
    found = analyse_state(engine, state, budget)
    if found.get("not_in_play"):
        raise not_analysable(found["phase"])
    if found.get("too_large"):
        raise IllegalAction("line_too_large", f"The solver did not finish within its budget ({found['nodes']} "
                            f"positions, {found['ms']} ms): play more of the line yourself, then complete it.",
                            f"求解器未能在限额内算完（{found['nodes']} 个局面，{found['ms']} 毫秒）：请先多推演几步，"
                            "再让求解器补全。", {"nodes": found["nodes"], "ms": found["ms"]})
    return [engine.apply(state, action) for action in found["line"]]


def _shengji_side_wins(engine: Engine, final: Any, pos: Position) -> bool:
    """升级: whether the side to act wins the deal (the engine's `winner_team`) at the end of the best line."""
    result = engine.result(final)
    assert result is not None
    return bool(result["winner_team"] == team_of(pos.to_act))


def analyse_actions(setup: DealSetup, actions: Sequence[Action], budget: Budget) -> dict[str, Any]:
    """The analysis of the position after `actions`; ActionRejected (from `fold`) names a refused action."""
    engine, state = fold(setup, actions)
    return analyse_state(engine, state, budget)


def analyse_deal(events: Sequence[Any], step: int | None, budget: Budget, reader: Principal) -> dict[str, Any]:
    """The analysis of a stored deal (its events) after `step` actions (default: all). Every hand is in it, so a
    deal still being played is analysed only for readers with rights over its match (its referee, the
    organiser, the appeals committee: domain/services/visibility.py); a finished one is public, as its replay is."""
    created = events[0]
    closed = any(isinstance(e, Deal.Finished) for e in events)
    if not may_see_all(closed, created.match_id, reader):
        raise Hidden("analysis_hidden", "The deal is still being played: its analysis shows every hand, so only "
                     "its referee and the organiser may read it.", "该牌局尚在进行中：分析会显示所有手牌，只有该局"
                     "裁判和组织者可以查看。", {"deal_id": str(created.originator_id)})
    # A step counts entries as the viewer does: actions and retractions (fold takes a retraction back).
    actions = [e.action if isinstance(e, Deal.ActionRecorded) else e.entry() for e in events
               if isinstance(e, Deal.ActionRecorded | Deal.Retracted)]
    step = len(actions) if step is None else step
    if not 0 <= step <= len(actions):
        raise BadRequest("bad_step", f"`step` must be 0–{len(actions)}.", f"`step` 必须在 0–{len(actions)} 之间。",
                         {"total": len(actions)})
    setup = DealSetup(created.game, created.options, created.seats, created.first, created.hands, created.kitty,
                      created.context)
    return {"deal_id": str(created.originator_id), "step": step,
            **analyse_actions(setup, actions[:step], budget)}
