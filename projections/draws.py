"""The next round's tables, as the console proposes them: a Swiss round (projections/pairing.py), a knockout's
first round drawn on the spot (现场分组, seed 001: entrants numbered in order, consecutive numbers share a table)
or by lot, and a knockout's later rounds from the standings (who advanced, by the declared tiebreaks).

Pure functions of what the store holds (the tournament, its entries, its standings document, its history): the
console shows the proposal, the organiser opens it (Fupan.tournaments.open_round), nothing is stored here.

Knockout units are entries: a player, or a pair / team of the format's `team_size`, whose members sit in
alternate seats (大怪路子 seats 0, 2, 4 against 1, 3, 5; 升级 0, 2 against 1, 3 — the tables' `side_seats`). When the
units do not fill the tables exactly, the rest have a bye and go on (Standings counts a knockout bye as advancing):
in round 1 the last in the draw, later the best-ranked among those with the fewest byes so far [REC: seed 000
says nothing of byes; the common rule gives them to the strongest].
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.kernel.errors import IllegalAction, listed
from projections.formats import Format
from projections.pairing import lot, pair, read_history
from projections.standings import Standings


def _refuse(code: str, message: str, message_zh: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, message_zh, details)


def next_round(tournament: dict[str, Any]) -> int:
    return tournament["current_round"] + 1 if tournament["rounds"] or tournament["matches"] else 1


def swiss(tournament: dict[str, Any], history: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The Swiss pairing of the next round (the same function `fupan pair` runs on the exported history);
    `names`: the history's names → player ids."""
    number = next_round(tournament)
    pairing = pair(read_history(history), number)
    tables = [{"table": f"{number}-{index}", "seats": [names[name] for name in seats], "first": 0, "options": {}}
              for index, seats in enumerate(pairing["tables"], start=1)]
    return {"round": number, "kind": "tables", "label": f"第{number}轮", "method": "swiss", "tables": tables,
            "byes": [names[name] for name in pairing["byes"]], "pairing": pairing}


def _seated(units: list[list[str]], fmt: Format) -> list[str]:
    """The seats of one table from its units: seat s holds member s // k of unit s % k (k units a table)."""
    k = len(units)
    return [units[seat % k][seat // k] for seat in range(fmt.table_size)]


def _tables(tournament: dict[str, Any], number: int, groups: list[list[list[str]]], fmt: Format, stage: str,
            per_seat: bool = False) -> list[dict[str, Any]]:
    seed = tournament["lots_seed"] or tournament["id"]
    # A stage's own figures replace the tournament's only where it kept the seed's (an organiser who chose other
    # figures keeps them for every round).
    # The format's options for this stage (its `stage_options`), unless the tournament changed them.
    options = {name: value for name, value in fmt.stage_options.get(stage, {}).items()
               if tournament["options"].get(name) == fmt.stage_defaults.get(name)}
    out = []
    for index, units in enumerate(groups, start=1):
        label = f"{number}-{index}"
        first = int(lot(seed, "first", label), 16) % fmt.table_size if fmt.first_by_lot else 0
        seats = [unit[0] for unit in units] if per_seat else _seated(units, fmt)  # a play-off keeps its seats
        out.append({"table": label, "seats": seats, "first": first, "options": dict(options)})
    return out


def _stage(units: int, per_table: int) -> tuple[str, str]:
    """(round kind, stage) for this many units: one table is the final; two tables' worth the semi-final."""
    if units == per_table:
        return "final", "final"
    return "tables", "semifinal" if units <= 2 * per_table else "round"


def _check_units(units: list[list[str]], fmt: Format) -> None:
    wrong = [unit for unit in units if len(unit) != fmt.team_size]
    if wrong:
        named = [" · ".join(unit) for unit in wrong[:5]]
        raise _refuse("not_teams", f"{fmt.en} is played by entries of {fmt.team_size}; these are not: "
                      f"{listed(named)}. Register pairs or teams as entries.", f"{fmt.zh}以 {fmt.team_size} 人为一个"
                      f"报名单位；以下不是：{listed(named, 'zh')}。请按对或队报名。", team_size=fmt.team_size,
                      entries=wrong[:20])


def departments_apart(units: list[list[str]], department: dict[str, str], per_table: int) -> list[list[str]]:
    """The units in the drawn order, moved as little as needed so that no table of round 1 holds two of one
    department (seed 000 enters teams by department; an option of the draw, off by default): each table takes the
    first units still waiting whose department it does not have yet, then any conflict left is swapped away with
    a unit of a later table where that makes no new one. Units without a department never conflict; where the
    departments cannot be kept apart (one department has more than one unit a table), the rest stay as drawn.
    The byes are the units left after the tables, as without the option."""
    def dept(unit: list[str]) -> str:
        return department.get(unit[0], "")

    waiting = list(units)
    playing = len(units) - len(units) % per_table
    tables: list[list[list[str]]] = []
    for _ in range(playing // per_table):
        table: list[list[str]] = []
        for unit in list(waiting):
            if len(table) == per_table:
                break
            if not dept(unit) or dept(unit) not in {dept(u) for u in table}:
                table.append(unit)
                waiting.remove(unit)
        while len(table) < per_table:  # nothing fits: the next as drawn
            table.append(waiting.pop(0))
        tables.append(table)

    def clashes(table: list[list[str]]) -> int:
        named = [dept(u) for u in table if dept(u)]
        return len(named) - len(set(named))

    for i, table in enumerate(tables):
        for a in range(len(table)):
            if not clashes(table):
                break
            for other in tables[i + 1:] + tables[:i]:
                done = False
                for b in range(len(other)):
                    before = clashes(table) + clashes(other)
                    table[a], other[b] = other[b], table[a]
                    if clashes(table) + clashes(other) < before:
                        done = True
                        break
                    table[a], other[b] = other[b], table[a]
                if done:
                    break
    return [unit for table in tables for unit in table] + waiting


def knockout_first(tournament: dict[str, Any], units: list[list[str]], fmt: Format, method: str,
                   department: dict[str, str] | None = None) -> dict[str, Any]:
    """Round 1 of a knockout: units in registration order (现场分组, `order`) or drawn by lot (`lot`); with
    `department` (player id → 部门), two units of one department are kept apart where they can be
    (`departments_apart`)."""
    _check_units(units, fmt)
    per_table = fmt.table_size // fmt.team_size
    if len(units) < per_table:
        raise _refuse("too_few_entries", f"{len(units)} entries cannot fill a table of {per_table}.",
                      f"{len(units)} 个报名单位凑不满一桌（{per_table} 个）。", entries=len(units))
    seed = tournament["lots_seed"] or tournament["id"]
    if method == "lot":
        units = sorted(units, key=lambda unit: lot(seed, "draw", 1, "+".join(unit)))
    if department is not None:
        units = departments_apart(units, department, per_table)
    number = next_round(tournament)
    playing = len(units) - len(units) % per_table
    groups = [units[i:i + per_table] for i in range(0, playing, per_table)]
    kind, stage = _stage(len(units), per_table)
    return {"round": number, "kind": kind, "label": "决赛" if kind == "final" else f"第{number}轮", "method": method,
            "departments_apart": department is not None,
            "tables": _tables(tournament, number, groups, fmt, stage),
            "byes": [p for unit in units[playing:] for p in unit]}


def knockout_next(tournament: dict[str, Any], standings: Standings, units: list[list[str]], fmt: Format
                  ) -> dict[str, Any]:
    """The next knockout round: who went on from each finished table of the last round (the standings' ranking of
    the table, with the declared tiebreaks), and that round's byes — or first a play-off round where a table's
    advancing line falls between players the declared criteria up to the play-off cannot separate."""
    started = tournament["rounds"] or [{"round": 1, "kind": "tables", "label": "第1轮"}]  # tables before rounds
    rounds = [r for r in started if r["kind"] != "playoff"]
    last = rounds[-1]["round"]
    latest = started[-1]["round"]
    waiting = [t["table"] for t in standings.tables if t["round"] in (last, latest) and not t["over"]]
    if waiting:
        raise _refuse("round_not_finished", f"Round {latest} is still being played at tables {listed(waiting)}.",
                      f"第 {latest} 轮还有牌桌未结束：{listed(waiting, 'zh')}。", round=latest, tables=waiting)
    tied = playoffs(standings, fmt, last)
    if tied:
        number = next_round(tournament)
        return {"round": number, "kind": "playoff", "label": f"第{last}轮加赛", "method": "playoff", "byes": [],
                "tables": _tables(tournament, number, [[[p] for p in match["seats"]] for match in tied],
                                  fmt, "playoff", per_seat=True)}
    tables = [t for t in standings.tables if t["round"] == last]
    _check_units(units, fmt)
    unit_of = {member: tuple(unit) for unit in units for member in unit}
    going: list[tuple[str, ...]] = []
    # `units` are the entries still in: one that withdrew after winning its table goes no further.
    for player in [p for table in tables for p in table["advancing"]] + list(rounds[-1].get("byes", ())):
        if player in unit_of and unit_of[player] not in going:
            going.append(unit_of[player])
    per_table = fmt.table_size // fmt.team_size
    if len(going) < per_table:
        raise _refuse("tournament_over", "The knockout is decided: no table can be formed.",
                      "淘汰赛已决出结果，无法再组成牌桌。", advancing=[list(u) for u in going])
    rank = {row["player_id"]: index for index, row in enumerate(standings.rows)}
    had = Counter(unit_of[p] for r in tournament["rounds"] for p in r.get("byes", ()) if p in unit_of)
    # The best-ranked among the fewest byes sit out; the others keep the order of the tables they came from.
    byes = set(sorted(going, key=lambda unit: (had[unit], min(rank[p] for p in unit)))[:len(going) % per_table])
    playing = [unit for unit in going if unit not in byes]
    groups = [[list(u) for u in playing[i:i + per_table]] for i in range(0, len(playing), per_table)]
    number = next_round(tournament)
    kind, stage = _stage(len(going), per_table)
    return {"round": number, "kind": kind, "label": "决赛" if kind == "final" else f"第{number}轮",
            "method": "advance", "tables": _tables(tournament, number, groups, fmt, stage),
            "byes": [p for unit in going if unit in byes for p in unit]}


def playoff_dealer(tournament: dict[str, Any], match: dict[str, Any]) -> int:
    """Seed 000: equal points and 跑头家 → one play-off deal, its dealer drawn by lot (from the recorded seed and the
    table, so anyone can check it); the organiser starts that deal with this `first`."""
    seed = tournament["lots_seed"] or tournament["id"]
    return int(lot(seed, "playoff", match["table"]), 16) % len(match["seats"])


def playoffs(standings: Standings, fmt: Format, last: int) -> list[dict[str, Any]]:
    """The finished tables of round `last` whose advancing line falls between players equal on the total, every
    declared tiebreak before the play-off, and the play-off's own figure so far — where the format declares a
    play-off (seed 001 §2.6: equal chips → extra deals; seed 000: one play-off deal). Without one, the later
    tiebreaks (lots) decide and no play-off is needed."""
    codes = [c.code for c in standings.criteria]
    if "playoff" not in codes or fmt.advance is None:
        return []
    upto = codes.index("playoff") + 2  # the total, the tiebreaks before the play-off, the play-off's figure
    tied = []
    for match, table in zip(standings.matches, standings.tables, strict=True):
        order = table["ranking"]
        if table["round"] != last or not table["over"] or fmt.advance >= len(order):
            continue
        keys = standings.table_keys(match)
        if keys[order[fmt.advance - 1]][:upto] == keys[order[fmt.advance]][:upto]:
            tied.append(match)
    return tied
