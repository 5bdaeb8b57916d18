"""An analysis query: a deal's position (its setup and the actions so far) → for each legal play of the seat to
act, whether its side still wins (the points the attackers still take, in 升级), the side's verdict and one
line of best play — or "too large" once the budget runs out. What `fupan analyse` prints and the API answers
(docs/analysis.md)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from domain.games import GAMES
from domain.kernel.engine import Action, DealSetup, Engine, Viewpoint
from domain.kernel.errors import BadRequest, Hidden, IllegalAction
from domain.model.deal import Deal
from domain.model.token import Principal
from domain.records.format import fold
from domain.services.pad import choices
from domain.services.visibility import may_see_all
from domain.solver import search
from domain.solver.position import Position, not_analysable
from domain.solver.search import Budget, TooLarge, Unfinished
from domain.solver.shedding import RankGame


def position(engine: Engine, state: Any) -> Position:
    """The search's position for an engine state in play, by the game's analysis adapter (its descriptor's
    `analysis`); IllegalAction `not_analysable` otherwise."""
    adapter = GAMES[engine.game].analysis
    if adapter is None or state.phase != engine.play_phase or state.to_act is None:
        raise not_analysable(state.phase)
    return adapter.position(engine, state)


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
    adapter = GAMES[engine.game].analysis
    if adapter is None or state.phase != engine.play_phase or state.to_act is None:
        return {"not_in_play": True, "phase": state.phase, "nodes": 0, "ms": 0.0}
    try:
        pos = position(engine, state)  # 升级 beyond its endgames answers too large here, before any search
    except TooLarge as error:
        return {"too_large": True, "nodes": error.nodes, "ms": round(error.ms, 1)}
    maximising = pos.game.maximising(pos.root)
    try:
        found = search.analyse(pos.game, pos.root, budget)
    except Unfinished as error:
        # No verdict; the plays proven so far (each a loss for the side to act: a win would be its verdict).
        return {"too_large": True, "moves": _moves(pos, error.proven, maximising, False),
                "unproven": [_action(pos, pos.state, move) for move in error.unproven],
                "nodes": error.nodes, "ms": round(error.ms, 1)}
    except TooLarge as error:
        return {"too_large": True, "nodes": error.nodes, "ms": round(error.ms, 1)}
    points = adapter.points  # the search values the attackers' points (升级), not a win or a loss
    moves = _moves(pos, found.moves, maximising, points)
    # The line, each action applied by the engine to a copy of the position (so checked once more).
    line, walk = [], copy.deepcopy(pos.state)
    for move in found.line:
        action = _action(pos, walk, move)
        engine.apply(walk, action)
        line.append(action)
    answer: dict[str, Any] = {"to_act": pos.to_act, "side": pos.side}
    if points:
        answer["points"] = found.value
        answer["side_wins"] = adapter.side_wins(engine, walk, pos.to_act)  # type: ignore[attr-defined]
    else:
        answer["side_wins"] = bool(found.value) == maximising
    answer.update({"moves": moves, "line": line})
    if found.unproven or not found.line_complete:  # the verdict is proven, not all the rest within the budget
        answer.update({"partial": True, "unproven": [_action(pos, pos.state, move) for move in found.unproven]})
    if not found.line_complete:
        answer["line_complete"] = False
    answer.update({"nodes": found.nodes, "ms": round(found.ms, 1)})
    return answer


def _moves(pos: Position, scored: Sequence[tuple[Any, int]], maximising: bool, points: bool
           ) -> list[dict[str, Any]]:
    """Moves with their values as the answer writes them: `wins` for the mover's side, or 升级's `points`."""
    moves = []
    for move, value in scored:
        action = _action(pos, pos.state, move)
        moves.append({"action": action, "points": value} if points else
                     {"action": action, "wins": bool(value) == maximising})
    return moves


def solved_line(engine: Engine, state: Any, budget: Budget) -> list[Action]:
    """The solver's best play from `state` to the deal's end, applied to `state` by the engine (the stored
    forms); an appeal's sandbox line completed by the solver (docs/appeals.md). IllegalAction
    `not_analysable` outside card play, `line_too_large` when the search does not finish within its budget;
    `state` is then unchanged."""
    found = analyse_state(engine, state, budget)
    if found.get("not_in_play"):
        raise not_analysable(found["phase"])
    if found.get("too_large") or found.get("line_complete") is False:
        raise IllegalAction("line_too_large", f"The solver did not finish within its budget ({found['nodes']} "
                            f"positions, {found['ms']} ms): play more of the line yourself, then complete it.",
                            f"求解器未能在限额内算完（{found['nodes']} 个局面，{found['ms']} 毫秒）：请先多推演几步，"
                            "再让求解器补全。", {"nodes": found["nodes"], "ms": found["ms"]})
    return [engine.apply(state, action) for action in found["line"]]


def analyse_actions(setup: DealSetup, actions: Sequence[Action], budget: Budget) -> dict[str, Any]:
    """The analysis of the position after `actions`; ActionRejected (from `fold`) names a refused action."""
    engine, state = fold(setup, actions)
    return analyse_state(engine, state, budget)


def analyse_deal(events: Sequence[Any], step: int | None, budget: Budget, reader: Principal,
                 released: bool = True) -> dict[str, Any]:
    """The analysis of a stored deal (its events) after `step` actions (default: all). Every hand is in it, so a
    deal still being played is analysed only for readers with rights over its match (its referee, the
    organiser, the appeals committee: domain/services/visibility.py); a finished one is public, as its replay is."""
    setup, entries, step = _deal_entries(events, step, reader, released)
    return {"deal_id": str(events[0].originator_id), "step": step,
            **analyse_actions(setup, entries, budget)}


# --- the board of variations (docs/analysis.md "The board of variations") -------------------------------------


DEFAULT_BOARD_MS = 1_000  # listing the plays is no search; the budget bounds a large hand (大怪路子's 27 cards)


def plays(engine: Engine, state: Any) -> list[Action] | None:
    """Every distinct legal play (and pass) of the seat to act, as the analysis lists them (the same actions its
    `moves` and `unproven` name), without a search: the board's choices. None outside card play, or where the
    game has no analysis or the position is beyond it (升级 past its endgames)."""
    adapter = GAMES[engine.game].analysis
    if adapter is None or state.phase != engine.play_phase or state.to_act is None or engine.result(state):
        return None
    try:
        pos = position(engine, state)
        moves = pos.game.moves(pos.root, Budget(limit_ms=DEFAULT_BOARD_MS))
    except TooLarge:
        return None
    return [_action(pos, pos.state, move) for move in moves]


def play_forced(engine: Engine, state: Any) -> list[Action]:
    """The passes the seat to act cannot avoid (its only legal action), applied to `state` one after another
    until a seat has a choice or the deal ends: the board plays them by itself. Returns their stored forms."""
    forced: list[Action] = []
    while len(forced) < engine.seat_count * 4:  # a pass moves the turn on: a handful at most, bounded anyway
        offered = plays(engine, state)
        if offered is None or len(offered) != 1 or offered[0]["type"] != "pass":
            break
        forced.append(engine.apply(state, offered[0]))
    return forced


def play_variation(engine: Engine, state: Any, actions: Sequence[Action]) -> list[Action]:
    """A variation's actions applied to `state` (a copy of the deal's at a step) through the rules engine;
    IllegalAction `illegal_line` names the first refused one (counted from 1; `index` 0-based). Returns their
    stored forms."""
    played = []
    for index, action in enumerate(actions):
        if engine.result(state) is not None:
            raise IllegalAction("illegal_line", f"The deal is over before action {index + 1} of the line.",
                                f"推演的第 {index + 1} 个动作之前牌局已结束。", {"index": index})
        try:
            played.append(engine.apply(state, action))
        except IllegalAction as refused:
            raise IllegalAction("illegal_line", f"Action {index + 1} of the line is refused: {refused.template}",
                                f"推演的第 {index + 1} 个动作不合规则：{refused.template_zh}",
                                {"index": index, "refused": refused.code}) from None
    return played


def board_state(engine: Engine, state: Any, list_plays: bool = True) -> dict[str, Any]:
    """What the board shows at a node: the status, the referee's view (every hand, the round on the table with
    the play to beat), the seat to act's plays (`plays`, None where the game has no analysis), the pad's
    `choices` of that seat (bids and the like) and the scores once the line has ended."""
    result = engine.result(state)
    status = engine.status(state)
    offered = [] if result is not None else [c for c in choices(engine, state) if c["seat"] == status.get("to_act")
                                             and c["action"].get("type") not in ("foul", "timeout")]
    return {"status": status, "view": engine.view(state, Viewpoint("referee")), "choices": offered,
            "plays": None if result is not None or not list_plays else plays(engine, state),
            "scores": None if result is None else list(result["scores"])}


def _deal_entries(events: Sequence[Any], step: int | None, reader: Principal,
                  released: bool = True) -> tuple[DealSetup, list[Action], int]:
    """A stored deal's setup and its entries (actions and retractions, as the viewer counts steps), after checking
    that `reader` may see every hand (a live deal, or a finished one its public delay still holds: its referee,
    the organiser, the committee)."""
    created = events[0]
    closed = any(isinstance(e, Deal.Finished) for e in events) and released  # `released`: its public delay passed
    if not may_see_all(closed, created.match_id, reader):
        raise Hidden("analysis_hidden", "The deal is still being played: its analysis shows every hand, so only "
                     "its referee and the organiser may read it.", "该牌局尚在进行中：分析会显示所有手牌，只有该局"
                     "裁判和组织者可以查看。", {"deal_id": str(created.originator_id)})
    actions = [e.action if isinstance(e, Deal.ActionRecorded) else e.entry() for e in events
               if isinstance(e, Deal.ActionRecorded | Deal.Retracted)]
    step = len(actions) if step is None else step
    if not 0 <= step <= len(actions):
        raise BadRequest("bad_step", f"The step must be from 0 (as dealt) to {len(actions)} (the end).",
                         f"步数必须在 0（发牌时）到 {len(actions)}（结束时）之间。",
                         {"total": len(actions)})
    setup = DealSetup(created.game, created.options, created.seats, created.first, created.hands, created.kitty,
                      created.context)
    return setup, actions[:step], step


def deal_variation(events: Sequence[Any], step: int, actions: Sequence[Action], reader: Principal,
                   forced: bool = False, list_plays: bool = True, released: bool = True) -> dict[str, Any]:
    """The board at a node of a stored deal's tree: its entries up to `step`, then the variation's `actions`
    (and, with `forced`, the passes nobody can avoid after them); nothing stored."""
    setup, entries, step = _deal_entries(events, step, reader, released)
    engine, state = fold(setup, entries)
    played = play_variation(engine, state, actions)
    auto = play_forced(engine, state) if forced else []
    return {"deal_id": str(events[0].originator_id), "step": step, "actions": played + auto, "forced": len(auto),
            **board_state(engine, state, list_plays)}


def deal_variation_analysis(events: Sequence[Any], step: int, actions: Sequence[Action], budget: Budget,
                            reader: Principal, released: bool = True) -> dict[str, Any]:
    """The analysis (as GET …/analysis answers it) of the position after `step` entries and a variation."""
    setup, entries, step = _deal_entries(events, step, reader, released)
    engine, state = fold(setup, entries)
    play_variation(engine, state, actions)
    return {"deal_id": str(events[0].originator_id), "step": step, **analyse_state(engine, state, budget)}
