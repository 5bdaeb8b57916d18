"""Swiss pairing for 挖坑 duplicate events (瑞士移位法; the 挖坑 rules B8, B11.8–B11.11), as a pure function of
a tournament's history, so that anyone can re-derive a published pairing (`fupan pair`, docs/pairing.md).

The history is a JSON document (the contract of issue 12, docs/pairing.md):

    {"players": [name, …], "seed": "…",
     "rounds": [{"round": 1, "tables": [{"seats": [p0, p1, p2], "results": [[s0, s1, s2], …]}], "byes": [name, …]}, …],
     (a board an appeal weighted: {"scores": [s0, s1, s2], "parts": [{"weight": "2/3", "scores": [...]}, …]})
     "withdrawn": [name, …], "adjustments": [{"player": name, "mp": n, "reason": "…"}]}

The console pairs a stored tournament by exporting its history (`export_history`) and pairing that, so the
console and the command are the same code. The ranking a pairing follows is the standings' own
(projections/standings.py, in the format with `pairing` "swiss": 挖坑's S003): the history is turned into the
facts the store would load.

- Ranking for pairing (B11.8): 平均得分率, total MP, total raw score, deals won, then the previous position; before
  round 1 the position is the order of `players` (registration order), so no tie is left for lots.
- Byes (B11.9): N mod 3 players sit out — the lowest-ranked among those with the fewest byes; the standings credit
  each bye board with rate ½, MP = tables − 1, raw 0, not won.
- Round 1 (B8.1): the others drawn by lot from `seed` into consecutive tables of 3.
- Later rounds (B11.10): among the partitions into tables of 3, one of minimum repeat cost (pairs who met before,
  counted per meeting), the lexicographically first top-down in rank order — so no inversion is left that an
  exchange could fix without raising the cost (an exchange that fixes one gives a lexicographically earlier
  partition).
- Seats (B11.11): each table's seating minimises the sum of how often each player already sat in the seat given,
  then the sum of the squares of those counts, then the lot.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from domain.kernel.errors import IllegalAction, listed
from domain.kernel.formats import Format
from projections.appeal_effects import counted_in_deal, replacement_counts, score_appeals, score_outcomes
from projections.formats import FORMATS
from projections.standings import Standings
from projections.standings_values import TournamentFacts

TABLE = 3
# B11.8's order for pairing; the previous position follows (then registration order), never lots.
PAIRING_TIEBREAKS = ["matchpoints", "raw_score", "deals_won"]


class BadHistory(IllegalAction):
    """An inconsistent or malformed history: a refusal with a stable code, in English and Chinese."""


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    results: tuple[tuple[int, ...], ...]  # one list per board, one raw score per seat
    # board index (from 0) → an appeal's weighted score's parts (weight, one score per seat): the standings
    # matchpoint such a board part by part (projections/matchpoints.py), so pairing must too
    weighted: dict[int, tuple[tuple[Fraction, tuple[int, ...]], ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class History:
    players: tuple[str, ...]
    seed: str
    rounds: tuple[Round, ...]
    withdrawn: frozenset[str] = frozenset()
    adjustments: tuple[dict[str, Any], ...] = ()  # {"player", "mp", "reason", "round"}


def lot(seed: str, *parts: object) -> str:
    """A reproducible lot: SHA-256 of the seed and what is drawn (the standings' lots use `seed:key` alone)."""
    text = ":".join([seed, *map(str, parts)])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# --- reading and checking a history ------------------------------------------------------------------------


def _refuse(code: str, message: str, message_zh: str, **details: Any) -> BadHistory:
    return BadHistory(code, message, message_zh, details)


def _names(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(name, str) and name for name in value):
        raise _refuse("bad_history", f"{where} must be a list of names.", f"{where} 必须是选手名字的列表。",
                      where=where)
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_history(document: Any) -> History:
    """The history in `document`, checked: a BadHistory names the first inconsistency."""
    if not isinstance(document, dict):
        raise _refuse("bad_history", "The history is a JSON object.", "历史记录必须是 JSON 对象。")
    players = _names(document.get("players"), "players")
    if len(set(players)) != len(players):
        twice = sorted(name for name, n in Counter(players).items() if n > 1)
        raise _refuse("player_twice", f"A player is listed twice in players: {listed(twice)}.",
                      f"players 中有选手重复：{listed(twice, 'zh')}。", players=twice)
    known = set(players)
    seed = document.get("seed")
    if not isinstance(seed, str):
        raise _refuse("bad_history", "The history's seed for the lots is text.", "历史记录的抽签种子必须是文字。")

    def unknown(names: list[str], where: str) -> None:
        strangers = sorted(set(names) - known)
        if strangers:
            raise _refuse("unknown_player", f"Unknown names in {where}: {listed(strangers)}.",
                          f"{where} 中有未登记的名字：{listed(strangers, 'zh')}。", names=strangers, where=where)

    rounds_in = document.get("rounds", [])
    if not isinstance(rounds_in, list):
        raise _refuse("bad_history", "The history's rounds are a list.", "历史记录的轮次必须是列表。")
    rounds = [_read_round(index, item, unknown) for index, item in enumerate(rounds_in, start=1)]
    withdrawn = _names(document.get("withdrawn", []), "withdrawn")
    unknown(withdrawn, "withdrawn")
    adjustments = []
    for item in document.get("adjustments", []) if isinstance(document.get("adjustments", []), list) else [None]:
        if not (isinstance(item, dict) and isinstance(item.get("player"), str) and _whole(item.get("mp"))
                and isinstance(item.get("reason", ""), str)
                and (item.get("round") is None or _whole(item.get("round")))):
            raise _refuse("bad_history", "An adjustment is {\"player\": name, \"mp\": whole number, \"reason\": text}.",
                          "调整必须是 {\"player\": 名字, \"mp\": 整数, \"reason\": 理由}。", adjustment=item)
        unknown([item["player"]], "adjustments")
        adjustments.append({"player": item["player"], "mp": item["mp"], "reason": item.get("reason", ""),
                            "round": item.get("round") or max(len(rounds), 1)})
    return History(tuple(players), seed, tuple(rounds), frozenset(withdrawn), tuple(adjustments))


def _scores(value: Any) -> tuple[int, ...] | None:
    ok = isinstance(value, list) and len(value) == TABLE and all(_whole(s) for s in value)
    return tuple(value) if ok else None


def _board(value: Any) -> tuple[tuple[int, ...], tuple[tuple[Fraction, tuple[int, ...]], ...]] | None:
    """A board's whole scores and, for an appeal's weighted score, its parts; None when malformed."""
    if isinstance(value, list):
        scores = _scores(value)
        return None if scores is None else (scores, ())
    if not isinstance(value, dict) or _scores(value.get("scores")) is None or not isinstance(value.get("parts"), list):
        return None
    parts = []
    for part in value["parts"]:
        try:
            weight = Fraction(part["weight"])
        except (TypeError, KeyError, ValueError, ZeroDivisionError):
            return None
        scores = _scores(part.get("scores"))
        if scores is None or not 0 < weight <= 1:
            return None
        parts.append((weight, scores))
    return (_scores(value["scores"]), tuple(parts)) if parts and sum(w for w, _ in parts) == 1 else None


def _read_round(index: int, item: Any, unknown: Any) -> Round:
    where = f"round {index}"
    if not isinstance(item, dict) or item.get("round") != index or not _whole(item.get("round")):
        raise _refuse("bad_round", f"Rounds are numbered 1, 2, … in order; entry {index} is not round {index}.",
                      f"轮次必须按 1、2……顺序编号；第 {index} 项不是第 {index} 轮。", round=index)
    tables_in = item.get("tables")
    if not isinstance(tables_in, list):
        raise _refuse("bad_history", f"{where}: the tables are a list.", f"第 {index} 轮：各桌必须是列表。",
                      round=index)
    tables = []
    for number, table in enumerate(tables_in, start=1):
        if not isinstance(table, dict):
            raise _refuse("bad_history", f"{where}, table {number} is an object.",
                          f"第 {index} 轮第 {number} 桌必须是对象。", round=index, table=number)
        seats = _names(table.get("seats"), f"{where}, table {number}, seats")
        if len(seats) != TABLE:
            raise _refuse("table_not_three", f"{where}, table {number} seats {len(seats)} players, not 3.",
                          f"第 {index} 轮第 {number} 桌有 {len(seats)} 人，不是 3 人。", round=index, table=number,
                          seats=seats)
        unknown(seats, f"{where}, table {number}")
        results = table.get("results", [])
        boards = [_board(board) for board in results] if isinstance(results, list) else [None]
        if None in boards:
            raise _refuse("bad_results", f"{where}, table {number}: the results hold 3 whole scores a board (or "
                          "an appeal's weighted score: the whole scores and the parts, each with its weight).",
                          f"第 {index} 轮第 {number} 桌：成绩每副牌为 3 个整数得分（或申诉的加权调整分：整数得分及"
                          "各部分的权重与得分）。", round=index, table=number)
        tables.append(Table(tuple(seats), tuple(board[0] for board in boards if board),
                            {i: board[1] for i, board in enumerate(boards) if board and board[1]}))
    byes = _names(item.get("byes", []), f"{where}, byes")
    unknown(byes, f"{where}, byes")
    seated = [name for table in tables for name in table.seats] + byes
    twice = sorted(name for name, n in Counter(seated).items() if n > 1)
    if twice:
        raise _refuse("player_twice", f"{where}: {listed(twice)} appear more than once.",
                      f"第 {index} 轮中 {listed(twice, 'zh')} 出现不止一次。", round=index, players=twice)
    return Round(index, tuple(tables), tuple(byes))


# --- the history as the store's facts, and the ranking -----------------------------------------------------


def swiss_format() -> Format:
    """The format whose rounds this module pairs: the registered one with `pairing` "swiss"."""
    return next(f for f in FORMATS.values() if f.pairing == "swiss")


def history_facts(history: History, upto: int | None = None) -> TournamentFacts:
    """The facts the store would load for this history (rounds ≤ `upto`), in the shape Standings reads."""
    rounds = [r for r in history.rounds if upto is None or r.number <= upto]
    swiss = swiss_format()
    matches, deals, appeals = [], [], []
    for r in rounds:
        for number, table in enumerate(r.tables, start=1):
            match_id = f"r{r.number}t{number}"
            matches.append({"match_id": match_id, "round": r.number, "table": str(number), "seats": list(table.seats),
                            "start_chips": None, "ended": {"winner": None, "by": "boards"}})
            for board, scores in enumerate(table.results, start=1):
                result = {"scores": list(scores), "board": board, "seat_facts": {"won": [int(s > 0) for s in scores]}}
                deals.append({"deal_id": f"{match_id}b{board}", "match_id": match_id, "number": board,
                              "result": result, "winner": None, "finished": {}, "scored": {}})
                if board - 1 in table.weighted:  # counted as the standings count the appeal's weighted score
                    parts = [{"weight": str(w), "scores": list(s)} for w, s in table.weighted[board - 1]]
                    appeals.append({"appeal_id": f"{match_id}b{board}:weighted", "deal_id": f"{match_id}b{board}",
                                    "outcome": {"kind": "weighted", "parts": parts, "scores": list(scores)}})
    return TournamentFacts(
        tournament={"tournament_id": "history", "name": "history", "game": swiss.game, "format": swiss.code,
                    "tiebreaks": list(PAIRING_TIEBREAKS), "lots_seed": history.seed},
        players=[{"player_id": name, "name": name} for name in history.players],
        rounds=[{"round": r.number, "label": f"第{r.number}轮", "kind": "tables", "byes": list(r.byes)}
                for r in rounds],
        matches=matches, deals=deals,
        adjustments=[{"player_id": a["player"], "points": a["mp"], "round": a["round"], "kind": "adjustment",
                      "reason": a["reason"]} for a in history.adjustments if a["mp"]],
        appeals=appeals)


def ranking(history: History) -> list[str]:
    """Every player in pairing order after the rounds given (B11.8): the standings' key, then the previous
    position, which before round 1 is the order of `players`."""
    order = list(history.players)
    for r in history.rounds:
        standings = Standings(history_facts(history, r.number))
        position = {name: index for index, name in enumerate(order)}
        order.sort(key=lambda name: (tuple(-v for v in standings.keys[name]), position[name]))
    return order


# --- pairing -------------------------------------------------------------------------------------------------


def pair(history: History, number: int) -> dict[str, Any]:
    """The pairing of round `number` (one more than the rounds given): {"round", "tables", "byes"}."""
    given = len(history.rounds)
    if number != given + 1:
        raise _refuse("bad_round", f"Round {number} cannot be paired: the history has {given} rounds, so the next "
                      f"is {given + 1}.", f"无法编排第 {number} 轮：历史记录有 {given} 轮，下一轮是第 {given + 1} 轮。",
                      round=number, rounds=given)
    order = [name for name in ranking(history) if name not in history.withdrawn]
    if len(order) < TABLE:
        raise _refuse("too_few_players", f"{len(order)} players cannot fill a table of 3.",
                      f"{len(order)} 名选手凑不满一桌（3 人）。", players=len(order))
    byes = choose_byes(history, order)
    playing = [name for name in order if name not in byes]
    if number == 1:
        drawn = sorted(playing, key=lambda name: lot(history.seed, "draw", number, name))
        groups = [drawn[i:i + TABLE] for i in range(0, len(drawn), TABLE)]
    else:
        groups = fewest_repeats(playing, meetings(history))
    counts = seat_counts(history)
    tables = [seat(group, counts, history.seed, number) for group in groups]
    return {"round": number, "tables": tables, "byes": [name for name in order if name in byes]}


def choose_byes(history: History, order: list[str]) -> set[str]:
    """B11.9: N mod 3 byes, to the lowest-ranked among those with the fewest byes so far."""
    had = Counter(name for r in history.rounds for name in r.byes)
    rank = {name: index for index, name in enumerate(order)}
    candidates = sorted(order, key=lambda name: (had[name], -rank[name]))
    return set(candidates[:len(order) % TABLE])


def meetings(history: History) -> Counter[frozenset[str]]:
    """How often each pair of players sat at one table."""
    met: Counter[frozenset[str]] = Counter()
    for r in history.rounds:
        for table in r.tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table.seats, 2))
    return met


def fewest_repeats(players: list[str], met: Counter[frozenset[str]]) -> list[list[str]]:
    """B11.10: the lexicographically first (top-down, in rank order) partition of `players` into tables of 3
    among those of minimum repeat cost. Exact: the minimum cost of each remaining set is memoised (players as bits
    in rank order), so every partition is considered without being listed."""
    n = len(players)
    cost = [[met[frozenset((a, b))] if a != b else 0 for b in players] for a in players]

    def table_cost(top: int, a: int, b: int) -> int:
        return cost[top][a] + cost[top][b] + cost[a][b]

    def choices(mask: int) -> tuple[int, list[tuple[int, int, int]]]:
        top = (mask & -mask).bit_length() - 1
        rest = [i for i in range(top + 1, n) if mask >> i & 1]
        return top, [(a, b, table_cost(top, a, b)) for a, b in itertools.combinations(rest, 2)]

    @cache
    def least(mask: int) -> int:
        if not mask:
            return 0
        top, options = choices(mask)
        best: int | None = None
        for a, b, here in options:
            if best is not None and here >= best:
                continue
            total = here + least(mask & ~(1 << top | 1 << a | 1 << b))
            if best is None or total < best:
                best = total
                if best == 0:
                    break
        assert best is not None
        return best

    tables, mask = [], (1 << n) - 1
    while mask:
        target = least(mask)
        top, options = choices(mask)
        for a, b, here in options:  # (a, b) in rank order: the first that keeps the minimum is the one
            rest = mask & ~(1 << top | 1 << a | 1 << b)
            if here + least(rest) == target:
                tables.append([players[top], players[a], players[b]])
                mask = rest
                break
    least.cache_clear()
    return tables


def seat_counts(history: History) -> dict[str, Counter[int]]:
    counts: dict[str, Counter[int]] = {name: Counter() for name in history.players}
    for r in history.rounds:
        for table in r.tables:
            for index, name in enumerate(table.seats):
                counts[name][index] += 1
    return counts


def seat(group: list[str], counts: dict[str, Counter[int]], seed: str, number: int) -> list[str]:
    """B11.11: the seating with the fewest earlier sittings in the seats given, then the least sum of their
    squares, then the lot."""
    def key(order: tuple[str, ...]) -> tuple[int, int, str]:
        already = [counts[name][index] for index, name in enumerate(order)]
        return sum(already), sum(n * n for n in already), lot(seed, "seats", number, "|".join(order))

    return list(min(itertools.permutations(group), key=key))


# --- a stored tournament's history ------------------------------------------------------------------------


def export_history(facts: TournamentFacts, withdrawn: list[str] = ()) -> dict[str, Any]:
    """A stored tournament's history in the pairing file's format: its scored boards per table, byes, the
    `withdrawn` player ids, adjustments (MP, with their round). Names are the players' names when unique, else
    their ids."""
    names = {p["player_id"]: p["name"] for p in facts.players}
    if len(set(names.values())) != len(names):
        names = {pid: pid for pid in names}
    # The boards as the standings count them (one ranking): a correction's scores are the deal's already
    # (projections/store.py); an appeal's assigned or weighted score replaces the board's, a voided board gives
    # way to its redeal; the appeal's compensating adjustments are counted in the board, not again in MP.
    outcomes = score_outcomes(facts.appeals)
    deals: dict[str, list[dict[str, Any]]] = {}
    for deal in facts.deals:
        if "replaces" in deal["scored"]:
            if not replacement_counts(deal, outcomes):
                continue
            deal = {**deal, "number": next((d["number"] for d in facts.deals
                                            if d["deal_id"] == deal["scored"]["replaces"]), deal["number"])}
        ruled = outcomes.get(deal["deal_id"])
        if ruled is not None and ruled["outcome"]["kind"] == "void":
            continue
        if ruled is not None and "scores" in ruled["outcome"]:
            deal = {**deal, "result": {**deal["result"], "scores": list(ruled["outcome"]["scores"])}}
            if ruled["outcome"]["kind"] == "weighted":  # its parts too: the standings matchpoint them one by one
                deal["weighted"] = [{"weight": part["weight"], "scores": list(part["scores"])}
                                    for part in ruled["outcome"]["parts"]]
        deals.setdefault(deal["match_id"], []).append(deal)
    in_deals = score_appeals(facts.appeals)
    rounds = []
    numbers = sorted({r["round"] for r in facts.rounds} | {m["round"] for m in facts.matches if m["seats"]})
    for number in numbers:
        info = next((r for r in facts.rounds if r["round"] == number), {})
        tables = []
        for match in facts.matches:
            if match["round"] != number or not match["seats"]:
                continue
            played = sorted(deals.get(match["match_id"], ()), key=lambda d: d["number"])
            tables.append({"seats": [names[p] for p in match["seats"]],
                           "results": [{"scores": list(d["result"]["scores"]), "parts": d["weighted"]}
                                       if "weighted" in d else list(d["result"]["scores"]) for d in played]})
        rounds.append({"round": number, "tables": tables, "byes": [names[p] for p in info.get("byes", ())]})
    return {
        "players": [names[p["player_id"]] for p in facts.players],
        "seed": facts.tournament["lots_seed"] or facts.tournament["tournament_id"],
        "rounds": rounds,
        "withdrawn": [names[p] for p in withdrawn if p in names],
        "adjustments": [{"player": names[a["player_id"]], "mp": a["points"], "reason": a["reason"], "round": a["round"]}
                        for a in facts.adjustments if not counted_in_deal(a, in_deals)],
    }


# --- the organiser's override, checked against the rules ----------------------------------------------------

REFUSED = "refused"  # the round cannot be opened so
WARNING = "warning"  # a rule of the pairing is broken: the organiser may still open it, saying why


def _problem(code: str, severity: str, rule: str, en: str, zh: str, players: list[str] = ()) -> dict[str, Any]:
    return {"code": code, "severity": severity, "rule": rule, "en": en, "zh": zh, "players": list(players)}


def check_override(history: History, number: int, tables: list[list[str]], byes: list[str]) -> list[dict[str, Any]]:
    """Which rules of this module a pairing of round `number` chosen by hand breaks, in plain words: refusals
    (a player missing, seated twice, unknown or withdrawn; a table not of three) and warnings (B11.9's byes,
    B11.10's repeats and order, B11.11's seats), compared with what `pair` would give. Empty: it is the
    pairing the rules give (or one exactly as good)."""
    proposal = pair(history, number)
    known = set(history.players)
    active = [name for name in ranking(history) if name not in history.withdrawn]
    seated = [name for table in tables for name in table]
    problems = []
    strangers = sorted(set(seated + list(byes)) - known)
    if strangers:
        problems.append(_problem("unknown", REFUSED, "entries", f"Not entered: {listed(strangers)}.",
                                 f"未报名：{listed(strangers, 'zh')}。", strangers))
    twice = sorted(name for name, n in Counter(seated + list(byes)).items() if n > 1)
    if twice:
        problems.append(_problem("twice", REFUSED, "B8", f"Placed more than once: {listed(twice)}.",
                                 f"被安排了不止一次：{listed(twice, 'zh')}。", twice))
    short = [i for i, table in enumerate(tables, start=1) if len(table) != TABLE]
    if short:
        problems.append(_problem("table_size", REFUSED, "B8", f"Every table seats 3 players (table "
                                 f"{listed(short)} does not).", f"每桌 3 人（第 {listed(short, 'zh')} 桌不是）。"))
    gone = sorted(set(seated + list(byes)) & history.withdrawn)
    if gone:
        problems.append(_problem("withdrawn", REFUSED, "withdrawal", f"Withdrawn, never paired again: "
                                 f"{listed(gone)}.", f"已退赛，不再编排：{listed(gone, 'zh')}。", gone))
    missing = [name for name in active if name not in seated and name not in byes]
    if missing:
        problems.append(_problem("missing", REFUSED, "B8", f"Neither seated nor on a bye: {listed(missing)}.",
                                 f"既未入座也未轮空：{listed(missing, 'zh')}。", missing))
    if problems:
        return problems
    problems += _bye_problems(history, active, byes)
    met = meetings(history)
    playing = [name for name in active if name not in byes]

    def cost(groups: list[list[str]]) -> int:
        return sum(met[frozenset(p)] for group in groups for p in itertools.combinations(group, 2))

    if number > 1:
        best = fewest_repeats(playing, met)
        again = sorted({"–".join(sorted(p)) for group in tables for p in itertools.combinations(group, 2)
                        if met[frozenset(p)]})
        if cost(tables) > cost(best):
            problems.append(_problem(
                "repeat_opponents", WARNING, "B11.10",
                f"Players meet again who need not: {listed(again)} (repeat meetings: {cost(tables)}; the rules "
                f"need {cost(best)}).", f"不必重复相遇的选手再次同桌：{listed(again, 'zh')}（重复相遇 {cost(tables)} "
                f"次；按规则只需 {cost(best)} 次）。", sorted({n for pair in again for n in pair.split("–")})))
        elif {frozenset(t) for t in tables} != {frozenset(t) for t in best}:
            problems.append(_problem(
                "rank_order", WARNING, "B11.10", "The tables are not filled top-down in ranking order (the same "
                "number of repeat meetings, another grouping).", "各桌不是按排名自上而下编排的（重复相遇次数相同，"
                "分组不同）。"))
    elif {frozenset(t) for t in tables} != {frozenset(t) for t in proposal["tables"]}:
        problems.append(_problem("not_the_lot", WARNING, "B8.1", "Round 1's tables are not the draw by lot.",
                                 "第 1 轮各桌不是抽签的结果。"))
    counts = seat_counts(history)
    for table in tables:
        chosen = [counts[name][index] for index, name in enumerate(table)]
        best_seats = seat(list(table), counts, history.seed, number)
        ideal = [counts[name][index] for index, name in enumerate(best_seats)]
        if (sum(chosen), sum(n * n for n in chosen)) > (sum(ideal), sum(n * n for n in ideal)):
            repeated = [name for index, name in enumerate(table) if counts[name][index]]
            problems.append(_problem(
                "seat_balance", WARNING, "B11.11", f"{listed(repeated)} sit in a seat they already had, although "
                "another seating of the table avoids it.", f"{listed(repeated, 'zh')} 坐到了已经坐过的位置，而本桌"
                "另一种座次可以避免。", repeated))
    return problems


def _bye_problems(history: History, active: list[str], byes: list[str]) -> list[dict[str, Any]]:
    """B11.9: N mod 3 byes, to those with the fewest byes so far, the lowest-ranked among them."""
    problems = []
    due = len(active) % TABLE
    if len(byes) != due:
        problems.append(_problem("bye_count", WARNING, "B11.9", f"{len(byes)} byes where {len(active)} players "
                                 f"need {due}.", f"{len(active)} 名选手应有 {due} 人轮空，现为 {len(byes)} 人。",
                                 list(byes)))
    had = Counter(name for r in history.rounds for name in r.byes)
    playing = [name for name in active if name not in byes]
    fewest = min((had[name] for name in playing), default=0)
    again = [name for name in byes if had[name] > fewest]
    if again:
        fresh = [name for name in playing if had[name] == fewest]
        problems.append(_problem(
            "bye_twice", WARNING, "B11.9", f"{listed(again)} would have another bye while players who have had "
            f"fewer play (such as {listed(fresh[-2:])}).", f"{listed(again, 'zh')} 将再次轮空，而轮空次数更少的选手"
            f"（如 {listed(fresh[-2:], 'zh')}）却在比赛。", again))
    elif len(byes) == due and set(byes) != choose_byes(history, active):
        rightful = sorted(choose_byes(history, active) - set(byes), key=active.index)
        problems.append(_problem(
            "not_lowest_bye", WARNING, "B11.9", f"The bye goes to {listed(list(byes))} rather than the lowest-ranked "
            f"eligible player ({listed(rightful)}).", f"轮空给了 {listed(list(byes), 'zh')}，而不是可轮空者中排名"
            f"最低的 {listed(rightful, 'zh')}。", list(byes)))
    return problems
