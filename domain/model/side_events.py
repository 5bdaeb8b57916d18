"""Results-only knockout side events (seed 001 六.2 棋类: 五子棋 and 跳棋), kept in their tournament so an event's
whole programme lives in one place.

Nothing of the board is recorded: a match is its placing (1st, 2nd, …). Seed 001 六.2(8):
实行淘汰制，两人比赛，输的一方淘汰，赢的一方晋级。若为三人以上，则根据比赛情况按名次晋级
— the loser is out, the winner goes on; with more than two at a table the best placed go on.
Tables are formed on the spot (九、现场分组): the entrants are numbered in order and consecutive
numbers share a table; the next round's players come in the order of the tables they won. This
module is pure: the Tournament aggregate records the side event and each table's placing, and
asks here what follows.

- 五子棋 (`gomoku`): two at a table, the winner goes on.
- 跳棋 (`tiaoqi`): 2, 3, 4 or 6 at a table (seed: 游戏人数 2，3，4，6人; the organiser picks the size),
  the best `advance` placed go on (at least one is out at each table).
- A last table that would hold one player is none: that player has a bye, goes on, and heads the next
  round's numbering, so no one sits out twice running [REC]. When
  the players left fit one table, it is the final; its placing is the final order. The others are
  placed by the round they went out in (later is better), equal within a round [REC: the seed
  names three prizes and no third-place match].
"""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import IllegalAction, listed

GAMES: dict[str, dict[str, Any]] = {
    "gomoku": {"zh": "五子棋", "en": "Gomoku", "sizes": (2,)},
    "tiaoqi": {"zh": "跳棋", "en": "Chinese checkers", "sizes": (2, 3, 4, 6)},
}


def _refuse(code: str, message: str, message_zh: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, message_zh, details)


def checked_event(game: str, name: str, entrants: list[str], table_size: int, advance: int) -> dict[str, Any]:
    """A new side event's declaration, checked."""
    if game not in GAMES:
        raise _refuse("unknown_side_game", f"A side event is one of {listed(sorted(GAMES))}.",
                      f"附加赛项目必须是 {listed(sorted(GAMES), 'zh')} 之一。", game=game)
    sizes = GAMES[game]["sizes"]
    if table_size not in sizes:
        raise _refuse("bad_table_size", f"{GAMES[game]['en']} is played {listed(sizes)} at a table.",
                      f"{GAMES[game]['zh']}每桌人数只能是 {listed(sizes, 'zh')} 人。", table_size=table_size)
    if not 1 <= advance < table_size:
        raise _refuse("bad_advance", f"1 to {table_size - 1} of a table of {table_size} go on.",
                      f"每桌 {table_size} 人，晋级人数须为 1 到 {table_size - 1}。", advance=advance)
    cleaned = [e.strip() for e in entrants]
    twice = sorted({e for e in cleaned if cleaned.count(e) > 1})
    if len(cleaned) < 2 or twice or not all(cleaned) or not name.strip():
        raise _refuse("bad_entrants", f"A name and at least two different entrants, each once: {twice or cleaned}.",
                      f"需要赛事名称和至少两名不同的参赛者，每人一次：{twice or cleaned}。", duplicates=twice)
    return {"game": game, "name": name.strip(), "entrants": cleaned, "table_size": table_size, "advance": advance}


def bracket(event: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    """The rounds so far, the current round's tables (each with its placing once recorded), the byes, and — once
    the final is recorded — the places. `results`: {round, table, placing} in the order recorded."""
    size, advance = event["table_size"], event["advance"]
    placing_of = {(r["round"], r["table"]): r["placing"] for r in results}
    players, rounds, out_in = list(event["entrants"]), [], {}
    number = 1
    while True:
        final = len(players) <= size
        groups = [players] if final else [players[i:i + size] for i in range(0, len(players), size)]
        byes = [] if final or len(groups[-1]) > 1 else groups.pop()
        tables = [{"table": index, "seats": group, "placing": placing_of.get((number, index))}
                  for index, group in enumerate(groups, start=1)]
        rounds.append({"round": number, "final": final, "tables": tables, "byes": byes})
        if any(t["placing"] is None for t in tables):
            return {"rounds": rounds, "current": number, "places": None}
        going = []
        for table in tables:
            keep = 1 if len(table["seats"]) == 2 else min(advance, len(table["seats"]) - 1)
            going += table["placing"][:keep]
            for player in table["placing"][keep:]:
                out_in[player] = number
        if final:
            order = list(tables[0]["placing"])
            places = [{"place": i + 1, "player": p} for i, p in enumerate(order)]
            for gone in sorted({r for p, r in out_in.items() if p not in order}, reverse=True):
                shared = len(places) + 1  # out in the same round: an equal place
                places += [{"place": shared, "player": p} for p in event["entrants"]
                           if p not in order and out_in.get(p) == gone]
            return {"rounds": rounds, "current": None, "places": places}
        players = byes + going  # a bye plays first next round, so no one sits out twice running
        number += 1


def checked_result(event: dict[str, Any], results: list[dict[str, Any]], number: int, table: int,
                   placing: list[str]) -> list[str]:
    """A table's placing for the current round, checked: the table's players, each once, not recorded before."""
    state = bracket(event, results)
    if state["current"] is None:
        raise _refuse("side_event_over", "This side event is decided.", "本附加赛已决出名次。")
    if number != state["current"]:
        raise _refuse("bad_round", f"Results are for round {state['current']}.",
                      f"只能录入第 {state['current']} 轮的成绩。", round=number, current=state["current"])
    found = next((t for t in state["rounds"][-1]["tables"] if t["table"] == table), None)
    if found is None:
        raise _refuse("unknown_table", f"Round {number} has no table {table}.", f"第 {number} 轮没有第 {table} 桌。",
                      table=table)
    if found["placing"] is not None:
        raise _refuse("result_exists", f"Table {table} of round {number} has its result already.",
                      f"第 {number} 轮第 {table} 桌的成绩已录入。", table=table, placing=found["placing"])
    cleaned = [p.strip() for p in placing]
    if sorted(cleaned) != sorted(found["seats"]):
        raise _refuse("bad_placing", f"The placing names the table's players, each once: {found['seats']}.",
                      f"名次必须列出本桌每位选手各一次：{found['seats']}。", seats=found["seats"], placing=cleaned)
    return cleaned
