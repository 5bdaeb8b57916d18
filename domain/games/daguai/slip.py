"""大怪路子 score slips (domain/records/slips.py): the finishing order and the fouls, scored by the engine's `result`.

Facts (docs/record-format.md "Result-only records"): `finish_order`, the seats in the order they went out,
up to the one that put a whole team out (A10.8: the score is fixed then, so nobody after it counts); `fouls`,
each against a seat (counted per team: a side's second foul scores it as caught three, A7).
"""

from __future__ import annotations

from typing import Any

from domain.games.daguai.engine import SEATS, TEAM_SIZE, DaguaiEngine, DaguaiState
from domain.games.slip import bad, fouls, impossible, known, recorded_fouls
from domain.kernel.engine import DealSetup, team_of
from domain.kernel.errors import seat_ref

FACTS = {"finish_order", "fouls"}


def score_slip(engine: DaguaiEngine, setup: DealSetup, facts: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    known(facts, FACTS)
    order = facts.get("finish_order")
    if not isinstance(order, list) or not all(type(s) is int and 0 <= s < SEATS for s in order):
        raise bad(f"The finish order lists the table's {SEATS} players in the order they went out.",
                  f"出完顺序按出完牌的先后列出本桌 {SEATS} 名玩家。")
    if len(set(order)) != len(order):
        raise impossible("A player goes out once: one is twice in the finish order.", "同一玩家不能两次出完牌。",
                         finish_order=order)
    out = [0, 0]
    for index, seat in enumerate(order):
        out[team_of(seat)] += 1
        if TEAM_SIZE in out and index < len(order) - 1:
            who = seat_ref(seat)  # counted from 0, as `finish_order` is
            raise impossible(f"The deal ended when {who}'s team was all out (A10.8): nobody after it went out "
                             "on the slip.", f"{who} 所在一方全部出完时本局即结束（A10.8），之后不再有人出完。",
                             finish_order=order)
    if TEAM_SIZE not in out:
        raise impossible("The deal ends when one team's three players are all out (A10.8): name every seat until "
                         "then.", "一方三人全部出完时本局才结束（A10.8）：请写到该方最后一人。", finish_order=order)
    read = fouls(engine, facts)
    team_fouls = [0, 0]
    for foul in read:
        team_fouls[team_of(foul["seat"])] += 1
    state = DaguaiState(setup.options, list(setup.seats), setup.first, [[] for _ in range(SEATS)],
                        phase="finished", finished=list(order), decided=list(order), team_fouls=team_fouls,
                        fouls=recorded_fouls(read))
    return {"finish_order": list(order), "fouls": read}, engine.result(state)  # type: ignore[return-value]
